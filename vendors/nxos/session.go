package nxos

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/lossless-net/lossless/vendors"
)

// How lossless pushes to NX-OS: a Session Manager configuration session.
// The facts, with their public sources (internal/lab/nxos/session.go
// quotes them and emulates exactly this):
//
//   - `configure session NAME` opens a session, or resumes one of that
//     name; its prompt is "(config-s)", its sub-modes "(config-s-acl)",
//     "(config-s-if)" (Cisco Nexus 9000/3000 System Management guides,
//     "Configuring Session Manager"). A session outlives leaving it and
//     is resumed by name: SaltStack's public netmiko module for cisco_nxos
//     loads lines in `configure session NAME`, leaves it, and later types
//     `commit` or `abort` in `configure session NAME`; Cisco's upgrade
//     guides tell to check `show configuration session summary` for
//     sessions left open before an ISSU.
//   - commit "verifies the complete configuration and applies the
//     changes"; "If a failure occurs, Cisco NX-OS reverts to the original
//     configuration"; abort discards the session; sessions do not survive
//     a reload (Nexus 9000 System Management guide 10.5(x)).
//   - Session Manager takes only the ACL and QoS features, one feature
//     per session; at most 32 sessions and 20,000 commands across all of
//     them (the same guide). lossless sends only QoS commands
//     (class-map, policy-map, system qos, service-policy and
//     priority-flow-control lines: NX-OS documents PFC in its QoS guide
//     and shows it under `show running-config ipqos`; that PFC counts as
//     QoS for Session Manager is [I]).
//   - `show configuration session summary` lists the sessions, one a
//     line, name first (networktocode/ntc-templates, NX-OS capture).
//
// Not found in any source read: what NX-OS does with a session whose SSH
// connection drops, and the texts verify and commit print. The driver
// assumes the conservative answers: a dropped session stays, uncommitted,
// so a killed run's session is aborted by the next run (tidy); and no
// success text is trusted: a refusal is a failure string of platform.yaml,
// and whether a commit happened is read from the running config
// afterwards, whatever the commit printed.

// sessionLevel is the privilege level of platform.yaml for a
// configuration session.
const sessionLevel = "configuration-session"

// maxSessionCommands is the most commands Session Manager takes, across
// all sessions (Nexus 9000 System Management guide 10.5(x)).
const maxSessionCommands = 20000

// Commands listing what earlier runs may have left.
const (
	showSessions    = "show configuration session summary"
	showCheckpoints = "show checkpoint summary"
)

// Names lossless gives what it makes on a switch: "lossless-" then the
// time of the apply (vendors.Stamp: Unix nanoseconds in base 36), and
// "lossless-pre-" for a staged batch's mark. Checkpoint names are ≤ 32
// characters of [A-Za-z0-9_-] and do not start with "system"
// (reference/nxos.md §5); session names are letters, digits and hyphens
// (ntc-templates' capture shows "ACL-SESSION1").
const (
	namePrefix = "lossless-"
	markPrefix = "lossless-pre-"
)

// ownName matches the names lossless makes, and no others: an operator's
// "lossless-backup" is not one (the stamp of any time from 1974 to 2119
// is 12 base-36 digits).
var ownName = regexp.MustCompile(`^lossless-(pre-)?[0-9a-z]{12}$`)

// checkpointName is the checkpoint of an apply at now.
func checkpointName(now time.Time) string { return vendors.Stamp(namePrefix, now) }

// markName is the checkpoint Mark makes at now.
func markName(now time.Time) string { return vendors.Stamp(markPrefix, now) }

// sessionName is the configuration session of an apply at now.
func sessionName(now time.Time) string { return vendors.Stamp(namePrefix, now) }

// cpLine is a checkpoint's line in show checkpoint summary, "1) NAME:"
// (genieparser's NX-OS show checkpoint summary fixture).
var cpLine = regexp.MustCompile(`^\s*\d+\)\s+(\S+):\s*$`)

// checkpoints returns the checkpoints of show checkpoint summary that
// lossless made, and how many others there are (user checkpoints only:
// NX-OS's own start with "system").
func checkpoints(out string) (own []string, others int) {
	for line := range strings.Lines(out) {
		m := cpLine.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
		switch {
		case m == nil || strings.HasPrefix(m[1], "system"):
		case ownName.MatchString(m[1]):
			own = append(own, m[1])
		default:
			others++
		}
	}
	return own, others
}

// sessions returns the sessions of show configuration session summary
// that lossless made: lines whose first word is one of its names.
func sessions(out string) []string {
	var own []string
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) > 0 && ownName.MatchString(f[0]) && !strings.HasPrefix(f[0], markPrefix) {
			own = append(own, f[0])
		}
	}
	return own
}

// tidy removes what killed runs of lossless left on the device: their
// configuration sessions are aborted (none of their lines ever ran) and
// their checkpoints deleted (a killed push leaves the device at the old
// or the new config, never between, so none is needed), so that NX-OS's
// 10-checkpoint and 32-session limits never refuse an apply. The
// checkpoints Mark made for this driver stay, and so does everything
// whose name is not lossless'. It runs once per driver: what it removes
// comes from runs before this one.
//
// A second lossless applying to the same switch at the same moment would
// lose its session or checkpoint here: the terminal lock (LockConfig) and
// the fabric lock are what keep two runs off one switch.
func (d *Driver) tidy(ctx context.Context) error {
	if d.tidied {
		return nil
	}
	out, err := d.Session.Exec(ctx, showSessions)
	if err != nil {
		return fmt.Errorf("list configuration sessions: %w", err)
	}
	for _, name := range sessions(out) {
		if err := d.abort(ctx, name); err != nil {
			return fmt.Errorf("abort the session %s a killed run left: %w", name, err)
		}
		d.Log.Info("stale session aborted", "op", "tidy", "session", name)
	}
	out, err = d.Session.Exec(ctx, showCheckpoints)
	if err != nil {
		return fmt.Errorf("list checkpoints: %w", err)
	}
	own, others := checkpoints(out)
	for _, cp := range own {
		if d.marks[cp] {
			continue
		}
		if _, err := d.Session.Exec(ctx, "no checkpoint "+cp); err != nil {
			return fmt.Errorf("delete the checkpoint %s a killed run left: %w", cp, err)
		}
		d.Log.Info("stale checkpoint deleted", "op", "tidy", "checkpoint", cp)
	}
	d.tidied, d.others = true, others
	return nil
}

// maxCheckpoints is how many user checkpoints NX-OS keeps
// (reference/nxos.md §5).
const maxCheckpoints = 10

// checkpoint saves the running config as the checkpoint cp. A refusal
// says what NX-OS's limit leaves to lossless.
func (d *Driver) checkpoint(ctx context.Context, cp string) error {
	line := "checkpoint " + cp
	out, err := d.Session.Exec(ctx, line)
	if err == nil && strings.Contains(out, "ERROR") {
		err = &vendors.DeviceError{Device: d.Target.Device, Line: line, Reply: strings.TrimSpace(out)}
	}
	switch {
	case err == nil:
		d.Log.Info("checkpoint saved", "op", "checkpoint", "checkpoint", cp)
		return nil
	case vendors.IsDeviceError(err):
		return fmt.Errorf("create checkpoint %s: %w (NX-OS keeps at most %d user checkpoints; lossless removed its own stale ones, %d of others' remain)", cp, err, maxCheckpoints, d.others)
	}
	return fmt.Errorf("create checkpoint %s: %w", cp, err)
}

// inSession enters the configuration session name (opening it, or
// resuming it at its top) and types lines in it. It leaves exec mode
// first: NX-OS's session prompt does not name the session, so the only
// way to be in the right one is to enter it.
func (d *Driver) inSession(ctx context.Context, name string, lines ...string) error {
	if _, err := d.Session.Exec(ctx, "configure session "+name); err != nil {
		return err
	}
	return d.Session.ConfigureIn(ctx, sessionLevel, "", lines)
}

// abort discards the configuration session name. Resuming a session
// that no longer exists opens an empty one, which abort discards too.
func (d *Driver) abort(ctx context.Context, name string) error {
	return d.inSession(ctx, name, "abort")
}

// abortQuietly aborts the session name if anything is left of it,
// logging a failure: the next run's tidy removes it.
func (d *Driver) abortQuietly(ctx context.Context, name string) {
	if err := d.retry(ctx, func() error { return d.abort(ctx, name) }); err != nil {
		d.Log.Warn("session not aborted", "op", "abort", "session", name, "err", err)
	}
}
