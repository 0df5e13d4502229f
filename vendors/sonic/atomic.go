package sonic

// CrashAtomic implements vendors.CrashAtomicity: over SSH the patch goes
// through `config apply-patch`, which applies it operation by operation
// and is not transactional (sonic-utilities generic_config_updater), so a
// push killed midway leaves the operations applied so far on the device.
func (*Driver) CrashAtomic() string {
	return "config apply-patch applies the patch operation by operation, so an apply killed midway leaves part of it on the device until `lossless recover` rolls back to the checkpoint"
}
