package huaweice

// CrashAtomic implements vendors.CrashAtomicity: a push is atomic on the
// device whenever lossless dies (reference/huawei-ce.md §4). The lines wait
// in the session's candidate, which the device drops with the session; the
// commit is `commit trial T persist ID`, which the device reverts by itself
// when T runs out unless `commit persist ID`, one line, confirms it. So a
// client killed at any moment leaves the running config, once T has run
// out, exactly at the old or at the new configuration; the lab shows it
// after every line (TestKilledAtEachStep here, TestSessionClosedAtEachStep
// in internal/lab/huaweice). Until T runs out the device runs the trial's
// config and Running refuses to read it; the next apply's LockConfig
// aborts that trial at once. Killed after the confirm and before `save`,
// the running config is the new one and only the startup configuration
// is behind until the next save.
func (*Driver) CrashAtomic() string { return "" }
