// Package huaweice is the Huawei CloudEngine (V300R023, families A and B)
// driver: it reads `display current-configuration` over SSH, diffs it
// against the CloudEngine rendering inside lossless' scope (Scope) with
// safe remediation, and applies a change through the two-stage candidate
// (reference/huawei-ce.md §4): the lines into the candidate, `display
// configuration candidate changes`, `commit trial N persist ID`, a re-read
// that must show no difference, the confirming `commit persist ID` and
// `save`. On any failure the candidate is cleared (`clear configuration
// candidate`), the trial is aborted (`abort trial persist ID`), over a new
// session when the old one dropped, and the device is checked to be
// byte-identical to its pre-apply configuration. A client that dies
// leaves the old or the new configuration (CrashAtomic). The device's own
// configuration lock, `configuration exclusive`, is the driver's
// vendors.DeviceLocker (lock.go). Import reads a running config back into
// the intent's terms for `lossless import`, listing what it cannot say,
// and Saved scopes a saved display current-configuration file (import.go).
package huaweice

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/config"
	render "github.com/lossless-net/lossless/renderers/huaweice"
	"github.com/lossless-net/lossless/vendors"
)

// Vendor is the inventory name of CloudEngine devices.
const Vendor = render.Vendor

// platformYAML is the project's scrapligo platform definition: the stock
// huawei_vrp one does not know the [~X] / [*X] prompts (reference §6).
//
//go:embed platform.yaml
var platformYAML []byte

// Commands and texts of the apply (reference/huawei-ce.md §3.2, §4, §5).
const (
	showConfig     = "display current-configuration"
	showChanges    = "display configuration candidate changes"
	showTrial      = "display configuration trial status"
	clearCandidate = "clear configuration candidate"
	// questionYN matches the [Y/N] questions of abort trial and save.
	questionYN      = `Continue\? \[Y/N\]:`
	abortTrialDone  = "rollback succeeded"
	saveDone        = "successfully"
	trialMinSeconds = 60 // §4: commit trial T, 60–65535 s
	trialMaxSeconds = 65535
)

// recoverTimeout bounds the recovery after a failure, which runs even
// after ctx is cancelled (Ctrl-C must not leave a trial running).
const recoverTimeout = 2 * time.Minute

// Driver is a connected CloudEngine device.
type Driver struct {
	vendors.CLI
	// locked is true while the session holds configuration exclusive.
	locked bool
}

// Dial connects to a CloudEngine device.
func Dial(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
	return vendors.DialDriver(ctx, t, Vendor, dialSSH, Diff, func(c vendors.CLI) vendors.Driver { return &Driver{CLI: c} })
}

// dialSSH opens a session on the platform of platformYAML.
var dialSSH = vendors.PlatformDialer(platformYAML)

// Running returns the sections of `display current-configuration` that
// can fall inside the scope (DCB and QoS system lines, the PFC profiles,
// DiffServ domains, drop-profiles, and the QoS lines of interfaces), so
// that a change elsewhere does not make a saved plan stale. The QoS lines
// of every interface are kept, managed or not: `trust upstream`, `qos
// queue Q wred` and `dcb pfc enable` are what uses a domain, drop-profile
// or PFC profile, so the diff sees which ports outside the scope use the
// objects it keeps (Change.Kept).
//
// While a commit trial runs the running config is not the device's own
// (it reverts unless the trial is confirmed), so Running refuses to read
// it, wrapping errTrialActive and saying whose trial it is (LockConfig
// clears one a killed lossless left).
func (d *Driver) Running(ctx context.Context) ([]byte, error) {
	if err := d.noTrial(ctx); err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Target.Device, err)
	}
	return d.Session.Read(ctx, showConfig, Scoped)
}

// Scoped keeps the parts of a display current-configuration text that may
// be in the scope, in the device's own text form.
func Scoped(text []byte) ([]byte, error) {
	nodes, err := Parse(text)
	if err != nil {
		return nil, err
	}
	var keep []*config.Node
	for _, n := range nodes {
		t := canon(n.Text)
		switch {
		case strings.HasPrefix(t, "interface "):
			c := &config.Node{Text: n.Text}
			routed := false
			for _, l := range n.Children {
				if canon(l.Text) == "undo portswitch" {
					routed = true
				}
				// DCBX too: Diff keeps it where the rendering has it
				// (PFC mode auto).
				if t := canon(l.Text); ownedIfLine(t) || t == dcbxLine {
					c.Children = append(c.Children, l)
				}
			}
			if len(c.Children) > 0 {
				if routed {
					// Import tells routed ports (DSCP trusted by
					// default) from Layer 2 ones (outer 802.1p,
					// reference §2.4).
					c.Children = append([]*config.Node{{Text: "undo portswitch"}}, c.Children...)
				}
				keep = append(keep, c)
			}
		case strings.HasPrefix(t, "dcb pfc"), strings.HasPrefix(t, "diffserv domain "), strings.HasPrefix(t, "drop-profile "),
			len(n.Children) == 0 && (ownedGlobal(t) || t == "lldp enable"):
			keep = append(keep, n)
		}
	}
	return Text(keep), nil
}

// trialSeconds is the commit trial time of a confirm timeout, within §4's
// 60–65535 s.
func trialSeconds(d time.Duration) int {
	if d <= 0 {
		d = vendors.DefaultConfirmTimeout
	}
	s := int((d + time.Second - 1) / time.Second)
	return min(max(s, trialMinSeconds), trialMaxSeconds)
}

// confirmTimeout is the trial time CloudEngine runs for d
// (vendors.Vendor.ConfirmTimeout).
func confirmTimeout(d time.Duration) time.Duration {
	return time.Duration(trialSeconds(d)) * time.Second
}

// Apply sends c into the candidate and commits it with a trial that the
// device reverts by itself unless confirmed. On any failure the candidate
// is cleared and the trial aborted (reconnecting if the session dropped),
// and the device is checked to be back at its pre-apply configuration.
func (d *Driver) Apply(ctx context.Context, c *vendors.Change, opts vendors.ApplyOptions) vendors.Result {
	a := vendors.Begin(d.Target.Device)
	if c.Empty() {
		return a.Done(nil)
	}
	out, err := d.Session.Command(ctx, showConfig)
	if err != nil {
		return a.Done(fmt.Errorf("apply %s: read: %w", d.Target.Device, err))
	}
	before := Body([]byte(out))
	// A trial started since the plan read the device: committing on top
	// of it would confirm it with this change.
	if err := d.noTrial(ctx); err != nil {
		if errors.Is(err, errTrialActive) {
			return a.Done(fmt.Errorf("apply %s: nothing sent: %w", d.Target.Device, err))
		}
		return a.Done(fmt.Errorf("apply %s: read: %w", d.Target.Device, err))
	}
	id := persistID(a.Start)
	trialSent, err := d.push(ctx, c, trialSeconds(opts.ConfirmTimeout), id)
	if err == nil {
		a.Applied = true
		d.Log.Info("applied", "op", "apply", "commands", len(c.Commands), "duration", time.Since(a.Start))
		if serr := d.save(ctx); serr != nil {
			// The change is committed and confirmed; only the startup
			// configuration is behind.
			return a.Done(fmt.Errorf("apply %s: committed, but save failed (the startup configuration is not updated): %w", d.Target.Device, serr))
		}
		return a.Done(nil)
	}
	if !trialSent {
		id = ""
	}
	confirmed, rerr := d.recover(ctx, before, c.Desired, id)
	switch {
	case rerr != nil:
		d.Log.Error("recovery failed", "op", "rollback", "err", rerr)
		return a.Done(fmt.Errorf("apply %s: %w; RECOVERY FAILED, the device may not be at its pre-apply config: %w", d.Target.Device, err, rerr))
	case confirmed:
		// The session dropped after the confirming commit went through.
		a.Applied = true
		d.Log.Warn("confirmed before the session dropped", "op", "apply", "err", err)
		if serr := d.save(ctx); serr != nil {
			return a.Done(fmt.Errorf("apply %s: committed, but save failed (the startup configuration is not updated): %w", d.Target.Device, serr))
		}
		return a.Done(nil)
	}
	a.RolledBack = true
	d.Log.Warn("rolled back", "op", "rollback", "err", err)
	return a.Done(fmt.Errorf("apply %s: %w; the device is back at its pre-apply config", d.Target.Device, err))
}

// errTrialReverted is a trial the device rolled back before the confirm
// arrived (the commit timer ran out).
var errTrialReverted = errors.New("the device reverted the trial commit before it was confirmed (commit timer expired)")

// persistID names an apply's trial commit, so that a new session can
// confirm or abort it when the one that started it dropped (§4: `commit
// trial T persist ID`, `commit persist ID`, `abort trial persist ID`;
// without persist the trial is tied to its session). The ID is unique per
// apply (its start, in nanoseconds) and marks the trial as lossless' own,
// which LockConfig aborts when a killed apply left it. lossless gives its
// commits no label (`commit label`): labels must be unique and a device
// keeps at most 20 labelled rollback points (V300R023 command reference,
// clear configuration commit label), so a label per apply would run into
// both; unlabelled points rotate by themselves at 80 (clear configuration
// commit oldest: "the earliest configuration rollback points are deleted
// automatically").
func persistID(now time.Time) string {
	return vendors.Stamp(persistPrefix, now)
}

// persistPrefix starts every persist ID lossless uses.
const persistPrefix = "lossless"

// persistIDRe matches the IDs persistID makes (vendors.Stamp: the prefix
// and a base-36 time).
var persistIDRe = regexp.MustCompile(`^` + persistPrefix + `[0-9a-z]+$`)

// isPersistID reports whether a trial's persist ID is one lossless makes.
func isPersistID(id string) bool { return persistIDRe.MatchString(id) }

// push enters the lines, commits them on a persistent trial named id,
// verifies and confirms. trialSent is true once the commit trial was sent.
func (d *Driver) push(ctx context.Context, c *vendors.Change, trial int, id string) (trialSent bool, err error) {
	if err := d.Session.Configure(ctx, c.Commands); err != nil {
		return false, err
	}
	changes, err := d.Session.ConfigCommand(ctx, showChanges)
	if err != nil {
		return false, fmt.Errorf("review candidate: %w", err)
	}
	d.Log.Debug("candidate changes", "op", "apply", "changes", changes)
	if _, err := d.Session.ConfigCommand(ctx, fmt.Sprintf("commit trial %d persist %s", trial, id)); err != nil {
		if vendors.IsDeviceError(err) && strings.Contains(err.Error(), lockedReply) {
			err = fmt.Errorf("%w: %w", vendors.ErrDeviceLocked, err)
		}
		return true, fmt.Errorf("commit: %w", err)
	}
	// reverted wraps err when the trial is no longer active: the device
	// went back to the old config by itself.
	reverted := func(err error) error {
		if active, terr := d.trialActive(ctx); terr == nil && !active {
			return fmt.Errorf("%w: %w", errTrialReverted, err)
		}
		return err
	}
	if err := d.verify(ctx, c.Desired); err != nil {
		return true, reverted(err)
	}
	if _, err := d.Session.ConfigCommand(ctx, "commit persist "+id); err != nil {
		return true, reverted(fmt.Errorf("confirm: %w", err))
	}
	// The timer may have run out just before the confirm: then the
	// device is back at the old config.
	if err := d.verify(ctx, c.Desired); err != nil {
		return true, fmt.Errorf("after confirm: %w", reverted(err))
	}
	if active, err := d.trialActive(ctx); err != nil {
		return true, fmt.Errorf("confirm: %w", err)
	} else if active {
		return true, errors.New("confirm: the trial is still active after commit persist")
	}
	return true, nil
}

// verify re-reads the running config (from system view) and diffs it
// against desired: the diff must be empty.
func (d *Driver) verify(ctx context.Context, desired *config.Document) error {
	left, err := vendors.Left(ctx, d.showConfig, Diff, d.Target.Device, desired)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if left != nil {
		return fmt.Errorf("verify: the running config differs from the desired one after commit:\n%s", left.Diff)
	}
	return nil
}

// showConfig reads display current-configuration from system view.
func (d *Driver) showConfig(ctx context.Context) ([]byte, error) {
	out, err := d.Session.ConfigCommand(ctx, showConfig)
	return []byte(out), err
}

// trialActive asks whether a commit trial is running (§4).
func (d *Driver) trialActive(ctx context.Context) (bool, error) {
	st, err := d.trial(ctx)
	return st.active(), err
}

// save writes the startup configuration (§4: commit updates the running
// config only), answering its [Y/N] question; when the session drops it
// saves again over a new one.
func (d *Driver) save(ctx context.Context) error {
	steps := []vendors.Step{{Input: "save", Question: questionYN}, {Input: "y"}}
	out, err := d.Session.Interact(ctx, "", steps)
	if errors.Is(err, vendors.ErrConnectionLost) {
		if derr := d.reconnect(ctx); derr != nil {
			return fmt.Errorf("%w; reconnect: %w", err, derr)
		}
		out, err = d.Session.Interact(ctx, "", steps)
	}
	if err != nil {
		return err
	}
	if !strings.Contains(out, saveDone) {
		return &vendors.DeviceError{Device: d.Target.Device, Line: "save", Reply: strings.TrimSpace(out)}
	}
	return nil
}

// recover undoes a failed apply: clears the candidate, aborts the apply's
// trial id when it is still active ("" when no trial was sent), over a new
// session if the old one is gone (a dropped session's candidate is
// discarded by the device, its persistent trial stays, §4), and checks
// the running config is byte-identical to before.
// confirmed is true when instead the device runs desired with no trial
// active: the confirm went through before the session dropped.
func (d *Driver) recover(ctx context.Context, before []byte, desired *config.Document, id string) (confirmed bool, err error) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recoverTimeout)
	defer cancel()
	if _, err := d.Session.ConfigCommand(rctx, clearCandidate); err != nil {
		if vendors.IsDeviceError(err) {
			return false, fmt.Errorf("clear candidate: %w", err)
		}
		if derr := d.reconnect(rctx); derr != nil {
			return false, fmt.Errorf("reconnect: %w", derr)
		}
		d.Log.Info("reconnected", "op", "rollback")
	}
	active := false
	if id != "" {
		st, err := d.trial(rctx)
		if err != nil {
			return false, fmt.Errorf("trial status: %w", err)
		}
		// Only the apply's own trial: another is not this apply's to undo
		// (a device that does not show the ID: abort trial persist ID
		// refuses any other).
		active = st.active() && (st.persist == id || st.persist == "")
		if active {
			if err := d.abortTrial(rctx, id); err != nil {
				return false, fmt.Errorf("abort trial: %w (the device reverts the trial by itself within %d s)", err, st.left)
			}
			d.Log.Info("trial aborted", "op", "rollback")
		}
	}
	out, err := d.Session.Command(rctx, showConfig)
	if err != nil {
		return false, fmt.Errorf("re-read: %w", err)
	}
	if string(Body([]byte(out))) == string(before) {
		return false, nil
	}
	if left, derr := Diff(d.Target.Device, []byte(out), desired); !active && derr == nil && left.Empty() {
		return true, nil
	}
	return false, errors.New("the running config differs from the pre-apply one")
}
