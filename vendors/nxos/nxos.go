// Package nxos is the Cisco NX-OS (Nexus 9000) driver: it reads `show
// running-config ipqos` over SSH, diffs it against the NX-OS rendering
// inside lossless' scope (Scope; scope.go says what lossless owns and
// what it keeps) with NX-OS's removal order and safe remediation
// (retype.go: a class-map's match type), and applies a change atomically
// on the device: the commands go into a Session Manager configuration
// session (session.go), whose commit applies all of them or none, so
// that lossless dying mid-push leaves the device as it was; a checkpoint
// taken first undoes a commit whose result does not verify, and the
// stale sessions and checkpoints of killed runs are removed before new
// ones are made. LockConfig holds NX-OS's terminal lock around an apply
// (lock.go).
package nxos

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/config"
	render "github.com/lossless-net/lossless/renderers/nxos"
	"github.com/lossless-net/lossless/vendors"
)

// Vendor is the inventory name of NX-OS devices.
const Vendor = render.Vendor

// platformYAML is the scrapligo platform definition: the stock cisco_nxos
// one with NX-OS's full list of error texts.
//
//go:embed platform.yaml
var platformYAML []byte

// dialSSH opens a session on the platform of platformYAML.
var dialSSH = vendors.PlatformDialer(platformYAML)

// Commands the driver sends (reference/nxos.md §1b, §5).
const (
	showIPQoS   = "show running-config ipqos"
	saveConfig  = "copy running-config startup-config"
	rollbackFmt = "rollback running-config checkpoint %s atomic"
	rollbackOK  = "Rollback completed successfully"
)

// rollbackTimeout bounds the recovery after a failure, which runs even
// after ctx is cancelled (Ctrl-C must not leave a half-applied change).
const rollbackTimeout = 2 * time.Minute

// Driver is a connected NX-OS device.
type Driver struct {
	vendors.CLI
	// Clock is the time source of the names the driver gives its
	// checkpoints and configuration sessions (they carry their creation
	// time); nil is the system clock. Tests set it.
	Clock func() time.Time
	// marks are the checkpoints Mark made that Revert or Forget has not
	// dropped: the cleanup of stale checkpoints keeps them.
	marks map[string]bool
	// marked is the scoped running config each of marks saved, so that an
	// Apply starting from it uses that checkpoint as its own instead of
	// taking a second one (a killed run then leaves one checkpoint).
	marked map[string]string
	// tidied is set once the stale sessions and checkpoints of earlier
	// runs are gone (session.go: once per driver); others is how many
	// user checkpoints not lossless' the device then held.
	tidied bool
	others int
	// lock is the terminal lock LockConfig took, if any (lock.go).
	lock *heldLock
}

// Dial connects to an NX-OS device.
func Dial(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
	return vendors.DialDriver(ctx, t, Vendor, dialSSH, Diff, func(c vendors.CLI) vendors.Driver { return &Driver{CLI: c} })
}

// now is the driver's clock.
func (d *Driver) now() time.Time {
	if d.Clock == nil {
		return time.Now()
	}
	return d.Clock()
}

// Running returns the body of `show running-config ipqos`, without the
// header lines that change on every read, so that two reads of an
// unchanged device are byte-identical (a saved plan fingerprints them).
// It is the whole QoS config, not the scope: every class-map, policy-map
// and service-policy line, on every port and under system qos, so that
// Diff sees what outside lossless' scope uses lossless' objects (scope.go)
// and changes only the scope.
func (d *Driver) Running(ctx context.Context) ([]byte, error) {
	return d.Session.Read(ctx, showIPQoS, func(b []byte) ([]byte, error) { return Body(b), nil })
}

// stage is how far a push got: before its commit the device runs none of
// the change, after it all of it.
type stage int

const (
	// staged: the change is in the session, or partly; nothing runs.
	staged stage = iota
	// committing: the commit was sent and its outcome is unknown (an
	// error, or the connection dropped before the reply or before the
	// check after it).
	committing
	// committed: the device runs the change, but not as desired, or
	// refused to save it.
	committed
)

// Apply sends c in a configuration session and commits it, then checks
// the running config against the desired one and saves it. Before, it
// removes the stale sessions and checkpoints of killed runs, saves the
// running config and takes a checkpoint. On any failure the device is
// brought back to the running config it had before (the session aborted,
// or a commit that does not verify rolled back to the checkpoint),
// checked by a re-read, over a new connection when the old one dropped;
// a commit that went through before the connection dropped is kept, and
// the apply succeeds.
func (d *Driver) Apply(ctx context.Context, c *vendors.Change, _ vendors.ApplyOptions) vendors.Result {
	a := vendors.Begin(d.Target.Device)
	if c.Empty() {
		return a.Done(nil)
	}
	dev := d.Target.Device
	if n := len(c.Commands); n > maxSessionCommands {
		return a.Done(fmt.Errorf("apply %s: the change has %d commands, more than the %d NX-OS's Session Manager takes; nothing was changed", dev, n, maxSessionCommands))
	}
	if err := d.tidy(ctx); err != nil {
		return a.Done(fmt.Errorf("apply %s: %w; nothing was changed", dev, err))
	}
	before, err := d.Running(ctx)
	if err != nil {
		return a.Done(fmt.Errorf("apply %s: %w; nothing was changed", dev, err))
	}
	// Save first: a switch that cannot save would lose the change on
	// reload, and a save that fails here fails before anything changed.
	// After a reload the switch is then at the pre-apply config.
	if _, err := d.Session.Exec(ctx, saveConfig); err != nil {
		return a.Done(fmt.Errorf("apply %s: save before the change: %w; nothing was changed", dev, err))
	}
	now := d.now()
	name := sessionName(now)
	// The checkpoint to roll back to: the session's restore point when it
	// saved exactly this config (the write-ahead record's, which its owner
	// deletes), else one of Apply's own, deleted when Apply is done.
	cp, own := d.heldMark(before), false
	if cp == "" {
		cp, own = checkpointName(now), true
		if err := d.checkpoint(ctx, cp); err != nil {
			return a.Done(fmt.Errorf("apply %s: %w; nothing was changed", dev, err))
		}
	}
	dropOwn := func(ctx context.Context) {
		if own {
			d.drop(ctx, cp)
		}
	}
	st, err := d.push(ctx, c, name)
	if err == nil {
		a.Applied = true
		dropOwn(ctx)
		d.Log.Info("applied", "op", "apply", "session", name, "commands", len(c.Commands), "duration", time.Since(a.Start))
		return a.Done(nil)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
	defer cancel()
	applied, how, rbErr := d.recover(rctx, st, name, cp, before, c.Desired)
	if applied {
		// The commit went through before the connection dropped: save
		// it as push would have, or undo it when the save is refused.
		d.Log.Warn("committed; the connection dropped after the commit", "op", "apply", "session", name, "err", err)
		if err = d.retry(rctx, func() error { return d.save(rctx) }); err == nil {
			a.Applied = true
			dropOwn(rctx)
			return a.Done(nil)
		}
		how, rbErr = "rolled back to checkpoint "+cp, d.restore(rctx, cp, before)
	}
	if rbErr != nil {
		d.Log.Error("rollback failed", "op", "rollback", "checkpoint", cp, "session", name, "err", rbErr)
		return a.Done(fmt.Errorf("apply %s: %w; ROLLBACK FAILED, the device may not be at its pre-apply config (checkpoint %s, session %s): %w", dev, err, cp, name, rbErr))
	}
	a.RolledBack = true
	d.Log.Warn("rolled back", "op", "rollback", "session", name, "checkpoint", cp, "err", err)
	return a.Done(fmt.Errorf("apply %s: %w; %s, the device is at its pre-apply config", dev, err, how))
}

// heldMark returns the checkpoint of this session's marks that saved the
// scoped running config running, or "".
func (d *Driver) heldMark(running []byte) string {
	for _, m := range slices.Sorted(maps.Keys(d.marked)) {
		if d.marks[m] && d.marked[m] == string(running) {
			return m
		}
	}
	return ""
}

// push runs the change through the configuration session name up to its
// commit, then checks the running config against desired and saves it.
// It reports how far it got.
func (d *Driver) push(ctx context.Context, c *vendors.Change, name string) (stage, error) {
	if err := d.inSession(ctx, name, c.Commands...); err != nil {
		return staged, err
	}
	// verify and commit are typed at the top of the session, resumed by
	// name, as public automation does (session.go [salt]).
	if err := d.inSession(ctx, name, "verify"); err != nil {
		return staged, fmt.Errorf("verify: %w", err)
	}
	if err := d.Session.ConfigureIn(ctx, sessionLevel, "", []string{"commit"}); err != nil {
		// Whatever the reply, the running config tells what happened.
		return committing, fmt.Errorf("commit: %w", err)
	}
	left, err := vendors.Left(ctx, d.Running, Diff, d.Target.Device, c.Desired)
	if err != nil {
		// The read failed, not the change: recover reads again.
		return committing, fmt.Errorf("verify: %w", err)
	}
	if left != nil {
		return committed, fmt.Errorf("verify: the running config still differs from the desired one after the commit:\n%s", left.Diff)
	}
	if err := d.save(ctx); err != nil {
		if vendors.IsDeviceError(err) {
			return committed, err
		}
		return committing, err
	}
	return committed, nil
}

// save copies the running config to the startup config.
func (d *Driver) save(ctx context.Context) error {
	if _, err := d.Session.Exec(ctx, saveConfig); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	return nil
}

// recover brings the device back to before after a push failed at st,
// on a new connection if the current one is gone (rctx is not the
// apply's, which may be cancelled): a session never committed is
// aborted; a commit of unknown outcome is judged by the running config
// (applied reports that it went through: the device runs desired); a
// committed change is rolled back to the checkpoint. how says which. The
// checkpoint is dropped when the device is back.
func (d *Driver) recover(rctx context.Context, st stage, name, cp string, before []byte, desired *config.Document) (applied bool, how string, err error) {
	if st == committing {
		now, err := d.reread(rctx)
		if err != nil {
			return false, "", err
		}
		if left, derr := Diff(d.Target.Device, now, desired); derr == nil && left.Empty() {
			return true, "", nil
		}
		if string(now) != string(before) {
			if err := d.restore(rctx, cp, before); err != nil {
				return false, "", err
			}
			d.abortQuietly(rctx, name)
			return false, "rolled back to checkpoint " + cp, nil
		}
		st = staged
	}
	if st == committed {
		if err := d.restore(rctx, cp, before); err != nil {
			return false, "", err
		}
		return false, "rolled back to checkpoint " + cp, nil
	}
	how = "session aborted"
	if err := d.retry(rctx, func() error { return d.abort(rctx, name) }); err != nil {
		// Nothing of it runs on the device, and the next run's tidy
		// aborts it.
		d.Log.Warn("session not aborted", "op", "abort", "session", name, "err", err)
		how = fmt.Sprintf("nothing committed (the session was not aborted: %v)", err)
	}
	now, err := d.reread(rctx)
	if err != nil {
		return false, "", err
	}
	if string(now) != string(before) {
		// Nothing was committed: another session changed the device
		// meanwhile, and a rollback would undo its change.
		return false, "", errors.New("the running config changed during the apply although lossless committed nothing (another session configured the device); not rolled back")
	}
	d.drop(rctx, cp)
	return false, how, nil
}

// reread reads the running config, on a new connection if the current
// one is gone.
func (d *Driver) reread(ctx context.Context) ([]byte, error) {
	var now []byte
	err := d.retry(ctx, func() error {
		var err error
		now, err = d.Running(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	return now, nil
}

// restore rolls the running config back to the checkpoint cp and checks
// that it is before again, then drops the checkpoint.
func (d *Driver) restore(ctx context.Context, cp string, before []byte) error {
	if err := d.rollback(ctx, cp); err != nil {
		return err
	}
	now, err := d.Running(ctx)
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if string(now) != string(before) {
		return errors.New("the running config is not the pre-apply one after the rollback")
	}
	return nil
}

// retry runs f, and once more over a new connection when it failed for
// want of one (the session dropped or ctx cut it): not when the device
// refused something.
func (d *Driver) retry(ctx context.Context, f func() error) error {
	err := f()
	if err == nil || vendors.IsDeviceError(err) {
		return err
	}
	if derr := d.redial(ctx); derr != nil {
		return fmt.Errorf("reconnect: %w (after %w)", derr, err)
	}
	return f()
}

// rollback restores the checkpoint, on a new connection if the current
// one is gone or ctx is cancelled, then deletes the checkpoint.
func (d *Driver) rollback(ctx context.Context, cp string) error {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
	defer cancel()
	line := fmt.Sprintf(rollbackFmt, cp)
	var out string
	err := d.retry(rctx, func() error {
		var err error
		out, err = d.Session.Exec(rctx, line)
		return err
	})
	if err != nil {
		return err
	}
	if !strings.Contains(out, rollbackOK) {
		return &vendors.DeviceError{Device: d.Target.Device, Line: line, Reply: strings.TrimSpace(out)}
	}
	d.drop(rctx, cp)
	return nil
}

// drop deletes the checkpoint, over a new connection if the current one
// is gone; NX-OS keeps at most 10 (reference/nxos.md §5), so a leftover
// one is logged, not fatal: the next run's cleanup removes it
// (session.go).
func (d *Driver) drop(ctx context.Context, cp string) {
	err := d.retry(ctx, func() error {
		_, err := d.Session.Exec(ctx, "no checkpoint "+cp)
		return err
	})
	if err != nil {
		d.Log.Warn("checkpoint not deleted", "op", "checkpoint", "checkpoint", cp, "err", err)
	}
}
