package sonic

// CrashAtomic implements vendors.CrashAtomicity: over SSH the patch goes
// through `config apply-patch`, which applies it change by change and is
// not transactional (sonic-utilities generic_config_updater), and which
// dies with its SSH session when lossless is killed or the connection
// drops (SIGHUP; internal/lab/sonic hangup.go), so a push killed midway
// leaves the changes written so far on the device.
func (*Driver) CrashAtomic() string {
	return "config apply-patch applies the patch operation by operation and dies with its SSH session, so an apply killed midway leaves part of it on the device until `lossless recover` rolls back to the restore point"
}
