package sonic

// What happens to `sudo config apply-patch` (or `config replace`, `config
// rollback`) when the SSH session it runs in drops, or its client is
// killed, before it returns:
//
//   - sshd cleans up the session's pty "if we get aborted abnormally
//     (e.g., due to a dropped connection)" and closes the pty master
//     (openssh-portable session.c session_pty_cleanup2). A client on
//     scrapligo's standard transport always has a pty (scrapligo
//     transport/standard.go: RequestPty). The hangup of the terminal sends
//     SIGHUP to the session: bash "exits by default upon receipt of a
//     SIGHUP. Before exiting, an interactive shell resends the SIGHUP to
//     all jobs, running or stopped" (Bash Reference Manual §3.7.6,
//     Signals); when the shell, the controlling process, exits, "the
//     SIGHUP signal shall be sent to each process in the foreground
//     process group of the controlling terminal" (POSIX.1-2017 _exit()).
//   - sudo "will relay signals it receives to the command" (sudo(8),
//     Signal handling; SIGHUP is not one of the signals it filters).
//   - `config` is a Python Click program that installs no SIGHUP handler
//     (sonic-utilities 691b1bbc: no signal handling in config/main.py or
//     generic_config_updater/), and Python installs default handlers only
//     for SIGPIPE and SIGINT (Python library, signal: General rules), so
//     SIGHUP's default action ends the process at once: no exception, no
//     finally, no rollback.
//   - GCU is then wherever its change applier was: it writes the sorted
//     changes one after the other, each key by ConfigDBConnector.set_entry,
//     and sleeps 1 s after each change (generic_config_updater
//     change_applier.py ChangeApplier.apply, generic_updater.py
//     PatchApplier.apply). The changes written so far stay in CONFIG_DB;
//     the rest, the verification ("verifying patch updates are reflected
//     on ConfigDB"), "Patch applied successfully." and any `config save`
//     never happen. A checkpoint taken before stays on disk
//     (/etc/sonic/checkpoints/NAME.cp.json) and so does the uploaded patch
//     file.
//
// The lab's SSH server runs a typed line to its end before it reads the
// connection again, so a real disconnect cannot interrupt a command: the
// fault DropSessionAfter stands for it, at a chosen change. A gNMI Set is
// not affected: sonic-gnmi hands the patch to sonic-host-services over
// D-Bus, which runs `config apply-patch` as its own subprocess with no
// terminal (host_modules/gcu.py apply_patch_db), and DbusApi waits for it
// whatever happens to the gRPC client (sonic-gnmi
// sonic_service_client/dbus_client.go).

// DropSessionAfter makes the next `config apply-patch`, `config replace` or
// `config rollback` that writes (not a dry run) die with its session once
// it has written n of its sorted changes, as one whose SSH session drops
// (or whose client is killed) during the 1 s pause after change n does:
// those n changes stay written, the rest is not, and the session ends
// there, with the progress GCU printed so far and no prompt. n ≤ 0 dies
// before the first change; n at or past the number of changes dies after
// the last, before the verification. The fault is used once.
func (d *Device) DropSessionAfter(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.drop, d.dropSet = n, true
}

// takeDrop returns the armed DropSessionAfter count and disarms it; d.mu
// is held.
func (d *Device) takeDrop() (int, bool) {
	n, ok := d.drop, d.dropSet
	d.drop, d.dropSet = 0, false
	return n, ok
}
