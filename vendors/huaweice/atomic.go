package huaweice

// CrashAtomic implements vendors.CrashAtomicity: the change waits in the
// candidate configuration of a two-stage commit, which the device drops
// when the session goes before the commit, and is committed with `commit
// trial`, which the device rolls back by itself when the confirm never
// comes (reference/huawei-ce.md §4).
func (*Driver) CrashAtomic() string { return "" }
