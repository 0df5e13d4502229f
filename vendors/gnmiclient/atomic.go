package gnmiclient

// CrashAtomic implements vendors.CrashAtomicity for the drivers that push
// through one gNMI Set: what the target does with a Set does not depend
// on the client staying. "All changes to the state of the target that are
// included in an individual SetRequest message are considered part of a
// transaction" (gNMI specification §3.4.3), and with Commit Confirmed a
// Set never confirmed is rolled back by the target itself. A target may
// still fail a Set part-way on its own (sonic-gnmi hands the patch to
// `config apply-patch` over D-Bus and does not roll back: sonic-gnmi
// mixed_db_client.go SetIncrementalConfig); that failure reaches a live
// lossless, whose Apply verifies the device and undoes the change. A
// client killed mid-Set does not cut the Set short (sonic-host-services
// runs it as its own subprocess, host_modules/gcu.py).
func (Conn) CrashAtomic() string { return "" }
