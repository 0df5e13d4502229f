package eos

// CrashAtomic implements vendors.CrashAtomicity: the change is built in a
// configuration session, which stays pending and never running when its
// client goes before the commit (the next apply removes it,
// sessions.go), and committed with a timer, which EOS rolls back by
// itself when the confirm never comes: "If due to any reason (such as
// network disruption), the user is not able to issue the second commit,
// the system will automatically rollback to the previous state at the
// end of the timer" (eos.arista.com, "Config Session Commit Timer";
// reference/eos.md §5). The commit and the confirm are one command each.
// TestKilledAtEveryStep shows it on the lab.
func (*Driver) CrashAtomic() string { return "" }
