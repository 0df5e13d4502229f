package eos

// CrashAtomic implements vendors.CrashAtomicity: the change is built in a
// configuration session, which EOS discards when its client goes before
// the commit, and committed with a timer, which EOS rolls back by itself
// when the confirm never comes (reference/eos.md §5).
func (*Driver) CrashAtomic() string { return "" }
