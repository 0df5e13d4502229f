// Package eos is the Arista EOS driver: it reads `show running-config`
// over SSH and keeps its QoS part and what uses it (QoSView), diffs it
// against the EOS rendering inside lossless' scope (Scope) with EOS's
// negations and safe remediation order, changing only what lossless owns
// and listing what it keeps (own.go, map.go), and applies a change
// atomically in a configuration session as reference/eos.md §5
// recommends: under the device's configure lock (lock.go), with the stale
// sessions of killed runs removed (sessions.go), the commands go into
// `configure session NAME`, `configure session NAME commit timer` makes
// them running with an automatic rollback armed, a re-read must show no
// difference, and only then `configure session NAME commit` confirms and
// `write memory` saves. A refused line or a failed commit aborts the
// session; a dropped connection leaves the session pending, never
// applied, or the timed commit armed, which EOS rolls back when its timer
// runs out, and the driver reconnects to abort and check. Import
// (import.go) reads a running config back into the intent's terms for
// `lossless import`, listing every in-scope line the intent cannot say,
// and Saved scopes a saved show running-config as Running does.
package eos

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/config"
	render "github.com/lossless-net/lossless/renderers/eos"
	"github.com/lossless-net/lossless/vendors"
)

// Vendor is the inventory name of EOS devices.
const Vendor = render.Vendor

// platformYAML is the scrapligo platform definition: the stock
// arista_eos one with a configuration-session privilege level.
//
//go:embed platform.yaml
var platformYAML []byte

// sessionLevel is the privilege level of platform.yaml for a
// configuration session.
const sessionLevel = "configuration-session"

// Commands the driver sends (reference/eos.md §1c, §5).
const (
	showRun    = "show running-config"
	saveConfig = "write memory"
)

// rollbackTimeout bounds the abort and check after a failure, which run
// even after ctx is cancelled (Ctrl-C must not leave a half-applied
// change).
const rollbackTimeout = 2 * time.Minute

// maxTimer is the largest commit timer hh:mm:ss can express.
const maxTimer = 100*time.Hour - time.Second

// Driver is a connected EOS device.
type Driver struct {
	vendors.CLI
	// locked is the session that holds the configure lock, if any: a
	// session replaced by Redial took its lock with it.
	locked *vendors.Session
	// now, when set, stamps session names instead of the apply's start
	// (tests).
	now func() time.Time
}

// Dial connects to an EOS device.
func Dial(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
	return vendors.DialDriver(ctx, t, Vendor, dialSSH, Diff, func(c vendors.CLI) vendors.Driver { return &Driver{CLI: c} })
}

// dialSSH opens a session on the platform of platformYAML.
var dialSSH = vendors.PlatformDialer(platformYAML)

// Running returns the QoS part of `show running-config` (QoSView): the
// same bytes on every read of an unchanged device. While a killed
// apply's timed commit awaits its confirm it fails instead (armed): that
// running config goes back when the timer runs out, and a plan made from
// it would be wrong.
func (d *Driver) Running(ctx context.Context) ([]byte, error) {
	if err := d.armed(ctx); err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Target.Device, err)
	}
	return d.read(ctx)
}

// read is Running without the check, for Apply's own reads.
func (d *Driver) read(ctx context.Context) ([]byte, error) {
	return d.Session.Read(ctx, showRun, QoSView)
}

// timer writes a commit timer as hh:mm:ss, rounded up to whole seconds
// (reference/eos.md §5).
func timer(d time.Duration) string {
	s := int(confirmTimeout(d) / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// confirmTimeout is the commit timer EOS runs for d: whole seconds,
// rounded up, at most maxTimer (vendors.Vendor.ConfirmTimeout).
func confirmTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		d = vendors.DefaultConfirmTimeout
	}
	return min(max((d+time.Second-1).Truncate(time.Second), time.Second), maxTimer)
}

// Apply sends c in a configuration session, commits it with a timer,
// verifies the running config and confirms. It holds the configure lock
// throughout, taking it itself when the caller has not (and going on
// without on a release that lacks the command), first removes the
// sessions killed applies left (removeStale), and refuses c when the
// running config read under the lock is no longer the one c was planned
// from (its human diff differs). On any failure after that the device
// is brought back to the running config it had before (the session
// aborted, or the timed commit rolled back), checked by a re-read, over a
// new connection when the old one dropped.
func (d *Driver) Apply(ctx context.Context, c *vendors.Change, opts vendors.ApplyOptions) vendors.Result {
	a := vendors.Begin(d.Target.Device)
	if c.Empty() {
		return a.Done(nil)
	}
	if !d.holdsLock() {
		switch err := d.lock(ctx); {
		case err == nil:
			defer d.unlockAfter(ctx)
		case errors.Is(err, errNoLock):
			d.Log.Warn("applying without the configure lock", "op", "lock", "err", err)
		default:
			return a.Done(fmt.Errorf("apply %s: lock: %w", d.Target.Device, err))
		}
	}
	if err := d.removeStale(ctx); err != nil {
		return a.Done(fmt.Errorf("apply %s: %w", d.Target.Device, err))
	}
	before, err := d.read(ctx)
	if err != nil {
		return a.Done(fmt.Errorf("apply %s: %w", d.Target.Device, err))
	}
	// Read under the lock, the device must still be where c was planned
	// from: a change another session made in between (a second checkout's
	// apply) would otherwise be overwritten by one planned without it.
	if c.Desired != nil {
		now, err := Diff(d.Target.Device, before, c.Desired)
		if err != nil {
			return a.Done(fmt.Errorf("apply %s: check the change against the running config: %w", d.Target.Device, err))
		}
		if now.Diff != c.Diff {
			return a.Done(fmt.Errorf("apply %s: the running config changed since this change was planned (another session changed it before the lock was taken); nothing was sent, plan again", d.Target.Device))
		}
	}
	start := a.Start
	if d.now != nil {
		start = d.now()
	}
	name := sessionName(start)
	committed, err := d.push(ctx, c, name, opts)
	if err == nil {
		a.Applied = true
		d.Log.Info("applied", "op", "apply", "session", name, "commands", len(c.Commands), "duration", time.Since(a.Start))
		if _, err := d.Session.Exec(ctx, saveConfig); err != nil {
			// The change is running and confirmed; only the save failed.
			return a.Done(fmt.Errorf("apply %s: applied, but saving the running config failed: %w", d.Target.Device, err))
		}
		return a.Done(nil)
	}
	confirmed, rbErr := d.rollback(ctx, name, before, c.Desired)
	if confirmed {
		// The confirm went through before the failure (a connection
		// dropped after it): the change is running, confirmed.
		a.Applied = true
		d.Log.Warn("applied; the connection dropped after the confirm", "op", "apply", "session", name, "err", err)
		if _, err := d.Session.Exec(ctx, saveConfig); err != nil {
			return a.Done(fmt.Errorf("apply %s: applied, but saving the running config failed: %w", d.Target.Device, err))
		}
		return a.Done(nil)
	}
	if rbErr != nil {
		d.Log.Error("rollback failed", "op", "rollback", "session", name, "err", rbErr)
		return a.Done(fmt.Errorf("apply %s: %w; ROLLBACK FAILED, the device may not be at its pre-apply config (session %s): %w", d.Target.Device, err, name, rbErr))
	}
	a.RolledBack = true
	d.Log.Warn("rolled back", "op", "rollback", "session", name, "err", err)
	how := "session aborted"
	if committed {
		how = "timed commit rolled back"
	}
	return a.Done(fmt.Errorf("apply %s: %w; %s, the device is at its pre-apply config", d.Target.Device, err, how))
}

// push runs the session up to the confirm and its check. committed
// reports whether the timed commit was accepted (the change may be
// running until the abort or the timer takes it back).
func (d *Driver) push(ctx context.Context, c *vendors.Change, name string, opts vendors.ApplyOptions) (committed bool, err error) {
	if err := d.Session.ConfigureIn(ctx, sessionLevel, "configure session "+name, c.Commands); err != nil {
		return false, err
	}
	// Leaves the session pending (end), then the review of §5 step 3.
	diffs, err := d.Session.Exec(ctx, "show session-config named "+name+" diffs")
	if err != nil {
		return false, fmt.Errorf("review: %w", err)
	}
	d.Log.Debug("session diffs", "op", "review", "session", name, "diff", diffs)
	if strings.TrimSpace(diffs) == "" {
		// EOS finds nothing to change: the plan read the device
		// differently from how EOS stores it, and committing would
		// leave the next plan showing the same change.
		return false, fmt.Errorf("review: the session changes nothing on the device although the change has %d commands (the running config was read wrongly)", len(c.Commands))
	}
	if _, err := d.Session.Exec(ctx, "configure session "+name+" commit timer "+timer(opts.ConfirmTimeout)); err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	left, err := vendors.Left(ctx, d.read, Diff, d.Target.Device, c.Desired)
	if err != nil {
		return true, fmt.Errorf("verify: %w", err)
	}
	if left != nil {
		return true, fmt.Errorf("verify: the running config differs from the desired one after the commit (did the commit timer run out?):\n%s", left.Diff)
	}
	if _, err := d.Session.Exec(ctx, "configure session "+name+" commit"); err != nil {
		return true, fmt.Errorf("confirm: %w", err)
	}
	// A confirm that came too late finds no timer and no session (an
	// error above); check that the change is still running.
	running, err := d.read(ctx)
	if err != nil {
		return true, fmt.Errorf("verify after confirm: %w", err)
	}
	if left, err := Diff(d.Target.Device, running, c.Desired); err != nil || !left.Empty() {
		return true, fmt.Errorf("verify after confirm: the change is no longer running (the commit timer ran out before the confirm)")
	}
	return true, nil
}

// rollback takes the device back to before: it aborts the session (a
// pending one is discarded, a timed commit rolled back at once), over a
// new connection if the current one is gone, and checks that the running
// config is the one read before the apply. An abort EOS refuses because
// the session is already gone (discarded with its connection, rolled back
// by its timer, or confirmed) is fine as long as the check passes; when
// the device runs the desired config instead, the confirm went through
// and confirmed is true.
func (d *Driver) rollback(ctx context.Context, name string, before []byte, desired *config.Document) (confirmed bool, err error) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
	defer cancel()
	abort := "configure session " + name + " abort"
	_, err = d.Session.Exec(rctx, abort)
	if err != nil && !vendors.IsDeviceError(err) {
		// The connection dropped: EOS discarded the pending session with
		// it; a timed commit is still armed, so abort it now.
		if derr := d.Redial(rctx); derr != nil {
			return false, fmt.Errorf("reconnect: %w", derr)
		}
		_, err = d.Session.Exec(rctx, abort)
	}
	if err != nil && !vendors.IsDeviceError(err) {
		return false, fmt.Errorf("abort: %w", err)
	}
	now, rerr := d.read(rctx)
	if rerr != nil {
		return false, fmt.Errorf("check: %w", rerr)
	}
	if string(now) == string(before) {
		return false, nil
	}
	if err != nil {
		if left, derr := Diff(d.Target.Device, now, desired); derr == nil && left.Empty() {
			return true, nil
		}
		return false, fmt.Errorf("abort: %w; the running config is neither the pre-apply nor the desired one", err)
	}
	return false, errors.New("the running config is not the pre-apply one after the abort")
}
