package gnmiclient

// CrashAtomic implements vendors.CrashAtomicity for the drivers that push
// through one gNMI Set: "All changes to the state of the target that are
// included in an individual SetRequest message are considered part of a
// transaction" (gNMI specification §3.4.3), so the target applies the
// whole Set or none of it whatever happens to the client; with Commit
// Confirmed a Set never confirmed is rolled back by the target itself.
func (Conn) CrashAtomic() string { return "" }
