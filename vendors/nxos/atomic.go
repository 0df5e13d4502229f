package nxos

// CrashAtomic implements vendors.CrashAtomicity: "", a push is atomic on
// the device even when lossless dies mid-push. The commands wait in a
// configuration session, and its commit applies all of them or none
// (session.go); lossless dying before the commit leaves the session
// uncommitted and the running config as it was, after it the change is
// whole. What a killed run leaves (its session, its checkpoint) the next
// run removes. The lab holds it at every step: TestKilledAnywhere.
//
// One thing a kill between the commit and the save leaves: the running
// config new, the startup config old, until an apply saves again; a
// reload in between brings the old config back, whole.
func (*Driver) CrashAtomic() string { return "" }

// No dead-man timer. NX-OS's only device-side timer is `configure replace
// FILE commit-timeout N` (reference/nxos.md §5), which needs FILE to be a
// complete running config taken from the switch [C:cr102]: for the new
// config that means applying it first and going back and forth (three
// QoS transitions, each one disruptive), or writing a whole config
// lossless has not read, which configure replace would then enforce on
// lines outside lossless' scope. Neither is worth it for what lossless
// changes: only QoS lines (class-maps, policy-maps, system qos, and
// PFC/service-policy lines of the inventory's ports), never mgmt0 or an
// interface's addressing, so out-of-band management over mgmt0 (the
// management VRF) is not on a path lossless configures. In-band
// management through a front-panel port can be disturbed: a system
// queuing policy reaches every port and its change brings "a brief period
// of traffic loss" (Cisco Nexus 9000 QoS Configuration Guide 10.5(x),
// "Configuring Queuing and Scheduling"), and the plan says so
// (Change.Disruptive). The driver's check after the commit goes over that
// same path: when it fails, the driver reconnects and rolls back to its
// checkpoint; only a switch that stays unreachable keeps the change,
// whole, and says so ("ROLLBACK FAILED").
