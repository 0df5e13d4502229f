package huaweice

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/vendors"
)

// The configuration lock of CloudEngine V300R023, from its command
// reference and configuration guide (the markdown mirror of
// reference/huawei-ce.md §9 S1, WheaterW/INTA-project @ 9308062d7, under
// nassim-main/corpus/hw/hw_CE6800_V300R023C00/):
//   - `configuration exclusive` (all views, configuration_exclusive.md)
//     locks the configuration for the session that runs it: "other users
//     can view, save, and maintain configurations, but cannot deliver
//     configurations"; "Only the user who locks configurations can unlock
//     the configurations in the session where the lock command is
//     executed"; "After the user logs out, the configuration is unlocked
//     automatically". `undo configuration exclusive` unlocks.
//   - The lock also ends when its holder delivers no configuration for
//     `configuration exclusive timeout` (configuration_exclusive_timeout.md:
//     1–7200 s, "By default, the timeout period is 30 seconds"): an apply
//     keeps typing, so it holds the lock while it runs; lossless does not
//     change the device's timeout (a config line of its own).
//   - `display configuration exclusive user` names the holder (User Index,
//     User Session Name, User Name, IP Address, Locked Time, …; "If the
//     configuration set is not locked, there is no display").
//   - Another session's commit is refused: "Error: The configuration is
//     locked by other user. [Session ID = 407]" (the NE40E V800R012C10
//     example of the same VRPv8 CLI in that corpus; the CE guide says only
//     that "a message will be displayed" when the lock is taken again).
//
// `configuration exclusive by-user-name` is not used: it outlives the
// session ("After the user is logged out, the device configuration will
// not be unlocked automatically"), so a killed lossless would leave the
// device locked.
const (
	lockCmd     = "configuration exclusive"
	unlockCmd   = "undo configuration exclusive"
	showLocker  = "display configuration exclusive user"
	lockedReply = "locked by other user"
	// unlockTimeout bounds the unlock, which runs even after ctx is
	// cancelled (the session's end would release the lock anyway).
	unlockTimeout = 10 * time.Second
)

// LockConfig implements vendors.DeviceLocker: configuration exclusive, the
// session's own lock, so that no other session commits, rolls back or
// aborts a trial until UnlockConfig or the end of this session. Another
// session's lock is an error wrapping vendors.ErrDeviceLocked that names
// the holder as display configuration exclusive user shows it.
//
// Holding the lock, it then clears what an interrupted lossless apply
// left: a commit trial whose persist ID is one of lossless' (persistID) is
// aborted, so the device is back at its last confirmed configuration
// before the apply reads it. No live lossless apply can own that trial:
// an apply holds the lock from before its commit trial to after its
// confirm, and a dropped session loses it. A trial of anyone else is left
// alone (Running and Apply refuse to work on top of it). A failure to
// abort is returned as that, and the lock is released.
func (d *Driver) LockConfig(ctx context.Context) error {
	if d.locked {
		return nil
	}
	if err := d.lock(ctx); err != nil {
		return err
	}
	if err := d.clearStaleTrial(ctx); err != nil {
		_ = d.UnlockConfig(ctx)
		return fmt.Errorf("lock %s: %w", d.Target.Device, err)
	}
	return nil
}

// UnlockConfig implements vendors.DeviceLocker: undo configuration
// exclusive. A lock this driver does not hold, a session that is gone
// (the device released its lock with it) and a device refusing the unlock
// because the lock is no longer this session's are not errors.
func (d *Driver) UnlockConfig(ctx context.Context) error {
	if !d.locked {
		return nil
	}
	d.locked = false
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unlockTimeout)
	defer cancel()
	_, err := d.Session.Command(uctx, unlockCmd)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, vendors.ErrConnectionLost):
		d.Log.Info("session gone: the device released its lock with it", "op", "unlock")
		return nil
	case vendors.IsDeviceError(err):
		d.Log.Warn("the configuration lock was no longer this session's", "op", "unlock", "err", err)
		return nil
	}
	return fmt.Errorf("unlock %s: %w", d.Target.Device, err)
}

// lock runs configuration exclusive; a refusal is ErrDeviceLocked with the
// holder.
func (d *Driver) lock(ctx context.Context) error {
	_, err := d.Session.Command(ctx, lockCmd)
	if err == nil {
		d.locked = true
		d.Log.Info("configuration locked", "op", "lock")
		return nil
	}
	var de *vendors.DeviceError
	if !errors.As(err, &de) {
		return fmt.Errorf("lock %s: %w", d.Target.Device, err)
	}
	holder := d.lockHolder(ctx)
	return fmt.Errorf("lock %s: %w: held by %s (the device: %q)", d.Target.Device, vendors.ErrDeviceLocked, holder, de.Reply)
}

// lockHolder describes the lock's holder from display configuration
// exclusive user, in the device's words; "an unknown session" when the
// display says nothing (the lock ended meanwhile) or cannot be read.
func (d *Driver) lockHolder(ctx context.Context) string {
	out, err := d.Session.Command(ctx, showLocker)
	if err != nil {
		return "an unknown session"
	}
	return holderOf(out)
}

// holderFields are the lines of display configuration exclusive user that
// name the holder, in the order the description gives them.
var holderFields = []string{"User Name", "User Session Name", "IP Address", "Locked Time"}

// holderOf turns display configuration exclusive user into "User Name:
// alice, User Session Name: VTY 0, IP Address: 10.0.0.5, Locked Time:
// 2026-01-02 03:04:05".
func holderOf(display string) string {
	got := map[string]string{}
	for _, l := range strings.Split(display, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if ok {
			got[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	var parts []string
	for _, k := range holderFields {
		if v := got[k]; v != "" {
			parts = append(parts, k+": "+v)
		}
	}
	if len(parts) == 0 {
		return "an unknown session"
	}
	return strings.Join(parts, ", ")
}

// trialState is display configuration trial status (§4; the V300R023
// command reference gives "Trial status: ACTIVE " and "Trial status:
// ACTIVE" with two spaces, "Persist id: …" for a persistent trial, and the
// states INACTIVE, ACTIVE, CANCELING and WAITCANCEL).
type trialState struct {
	status  string
	persist string
	left    int
}

var (
	trialStatusRe  = regexp.MustCompile(`(?m)^\s*Trial status:\s*(\S+)`)
	trialPersistRe = regexp.MustCompile(`(?m)^\s*Persist id:\s*(\S+)`)
	trialLeftRe    = regexp.MustCompile(`(?m)^\s*Trial time left \(sec\):\s*(\d+)`)
)

// parseTrial reads display configuration trial status.
func parseTrial(out string) (trialState, error) {
	m := trialStatusRe.FindStringSubmatch(out)
	if m == nil {
		return trialState{}, fmt.Errorf("%q: no trial status in %q", showTrial, strings.TrimSpace(out))
	}
	st := trialState{status: m[1]}
	if m := trialPersistRe.FindStringSubmatch(out); m != nil {
		st.persist = m[1]
	}
	if m := trialLeftRe.FindStringSubmatch(out); m != nil {
		st.left, _ = strconv.Atoi(m[1])
	}
	return st, nil
}

// active reports whether a trial runs (or is being cancelled).
func (t trialState) active() bool { return t.status != "INACTIVE" }

// lossless reports whether the trial is one a lossless apply started.
func (t trialState) lossless() bool { return isPersistID(t.persist) }

// String describes an active trial for an error.
func (t trialState) String() string {
	who := "a commit trial not started by lossless"
	if t.lossless() {
		who = "the commit trial of an interrupted lossless apply"
	}
	id := ""
	if t.persist != "" {
		id = ", persist ID " + t.persist
	}
	return fmt.Sprintf("%s (%s%s, %d s left)", who, t.status, id, t.left)
}

// errTrialActive is wrapped when a commit trial runs on the device: its
// running config reverts unless the trial is confirmed, so lossless neither
// plans against it nor commits on top of it (its own confirm would confirm
// the other trial too).
var errTrialActive = errors.New("the device is in trial configuration mode")

// trial reads the trial status.
func (d *Driver) trial(ctx context.Context) (trialState, error) {
	out, err := d.Session.Command(ctx, showTrial)
	if err != nil {
		return trialState{}, err
	}
	return parseTrial(out)
}

// noTrial returns an error wrapping errTrialActive when a trial runs.
func (d *Driver) noTrial(ctx context.Context) error {
	st, err := d.trial(ctx)
	if err != nil {
		return fmt.Errorf("trial status: %w", err)
	}
	if !st.active() {
		return nil
	}
	what := "confirm or abort it first"
	if st.lossless() {
		what = "the device reverts it when its time runs out; an apply holding the configuration lock aborts it first"
	}
	return fmt.Errorf("%w: %s: %s", errTrialActive, st, what)
}

// clearStaleTrial aborts a lossless trial left by an interrupted apply;
// only called with the lock held (LockConfig).
func (d *Driver) clearStaleTrial(ctx context.Context) error {
	st, err := d.trial(ctx)
	if err != nil {
		return fmt.Errorf("trial status: %w", err)
	}
	if !st.active() || !st.lossless() {
		return nil
	}
	if err := d.abortTrial(ctx, st.persist); err != nil {
		return fmt.Errorf("abort %s: %w", st, err)
	}
	d.Log.Warn("aborted the commit trial an interrupted lossless apply left", "op", "lock", "persist", st.persist)
	return nil
}

// abortTrial runs abort trial persist id and answers its question.
func (d *Driver) abortTrial(ctx context.Context, id string) error {
	line := "abort trial persist " + id
	out, err := d.Session.Interact(ctx, "configuration", []vendors.Step{{Input: line, Question: questionYN}, {Input: "y"}})
	if err != nil {
		return err
	}
	if !strings.Contains(out, abortTrialDone) {
		return &vendors.DeviceError{Device: d.Target.Device, Line: line, Reply: strings.TrimSpace(out)}
	}
	return nil
}

// reconnect replaces a dropped session, as Redial, and takes the lock
// again when the old session held it: the device released it with that
// session. A lock now held by another is logged, not returned: the
// caller's next commit then fails naming it.
func (d *Driver) reconnect(ctx context.Context) error {
	relock := d.locked
	d.locked = false
	if err := d.Redial(ctx); err != nil {
		return err
	}
	if relock {
		if err := d.lock(ctx); err != nil {
			d.Log.Warn("lock not taken again after reconnecting", "op", "lock", "err", err)
		}
	}
	return nil
}
