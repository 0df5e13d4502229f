package nxos

// CrashAtomic implements vendors.CrashAtomicity: "", a push is atomic on
// the device even when lossless dies mid-push. The commands wait in a
// configuration session, and its commit applies all of them or none
// (session.go); lossless dying before the commit leaves the session
// uncommitted and the running config as it was, after it the change is
// whole. What a killed run leaves (its session, its checkpoint) the next
// run removes. The lab holds it at every step: TestKilledAnywhere.
func (*Driver) CrashAtomic() string { return "" }
