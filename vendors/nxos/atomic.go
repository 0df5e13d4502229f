package nxos

// CrashAtomic implements vendors.CrashAtomicity: the commands are applied
// line by line in configure terminal and a failure is undone by lossless
// itself (rollback to the checkpoint taken first), so a push killed midway
// leaves part of it on the device.
func (*Driver) CrashAtomic() string {
	return "NX-OS applies each command as it is sent and lossless drives the rollback to its checkpoint, so an apply killed midway leaves part of it on the device until `lossless recover` runs"
}
