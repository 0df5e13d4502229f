package rollout

import (
	"context"
	"errors"
	"fmt"

	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/vendors"
)

// What an interrupted device's running config was found to be
// (Recovery.Found).
const (
	// FoundUntouched: the running config before the change, by its
	// fingerprint: nothing of the change is on the device (or the device
	// undid it itself, as a commit timer does).
	FoundUntouched = "untouched"
	// FoundApplied: the plan's desired config, nothing left to send.
	FoundApplied = "applied"
	// FoundPartly: neither: part of the change, or another change since.
	FoundPartly = "partly applied"
)

// Recovery is what became of one interrupted device.
type Recovery struct {
	Device string `json:"device"`
	Vendor string `json:"vendor"`
	// Start is the device's write-ahead record.
	Start Start `json:"start"`
	// Found is what its running config was found to be (FoundUntouched,
	// FoundApplied, FoundPartly); "" when it could not be read.
	Found string `json:"found,omitempty"`
	// Action says what lossless did about it, in words.
	Action string `json:"action"`
	// Status is the device's status recorded after: StatusRecovered
	// (back at its config from before the change), StatusApplied, or
	// StatusStarted when it could be neither (still interrupted).
	Status string `json:"status"`
	// Result is the apply that took it forward; nil when none ran.
	Result *plan.Result `json:"-"`
	// Err is why it is still interrupted or failed; nil otherwise.
	Err error `json:"-"`
}

// Recover takes the interrupted devices among devs (those st records as
// started; the caller holds the fabric lock, so no apply of them runs) back to the config they had
// before the change, through their driver's restore point (forward
// false), or forward to the desired config of st's plan (forward true: as
// apply -resume does), and records each step in o.StatePath and o.Audit.
// Results come back in device-name order; the error is only a state or
// audit log that cannot be written.
func Recover(ctx context.Context, devs []plan.Device, st *State, forward bool, o Options) ([]Recovery, error) {
	rec := NewRecorder(st, o.StatePath, o.Audit, o.Operator, o.Now)
	po := o.Plan
	if po.Now == nil {
		po.Now = o.Now
	}
	po.FailFast = false
	po.Journal = rec.Batch(0, nil)
	var todo []plan.Device
	for _, d := range devs {
		if st.InFlight(d.Intent.Name) {
			todo = append(todo, d)
		}
	}
	out := make([]Recovery, len(todo))
	work := context.WithoutCancel(ctx)
	_ = plan.Each(ctx, todo, po, func(_ context.Context, i int, d plan.Device) error {
		out[i] = recoverOne(work, d, nil, st, rec, forward, po)
		return out[i].Err
	}, func(i int, d plan.Device, err error) {
		out[i] = Recovery{Device: d.Intent.Name, Vendor: d.Intent.Vendor, Start: rec.started(d.Intent.Name), Action: "none", Status: StatusStarted, Err: err}
	})
	if err := rec.Save(); err != nil {
		return out, err
	}
	return out, rec.Err()
}

// recoverOne recovers one interrupted device over drv (nil: dial it): it
// reads the running config, compares it with the record and the plan,
// and goes back (Revert to the recorded mark) or forward (the plan's
// desired config, after going back to the mark when the device holds
// part of the change, so that nothing the scope cannot see is left).
func recoverOne(ctx context.Context, d plan.Device, drv vendors.Driver, st *State, rec *Recorder, forward bool, po plan.Options) Recovery {
	name := d.Intent.Name
	start := rec.started(name)
	rv := Recovery{Device: name, Vendor: d.Intent.Vendor, Start: start, Action: "none", Status: StatusStarted}
	begin := po.Now.Now()
	fail := func(err error) Recovery {
		rv.Err = fmt.Errorf("recover %s: %w", name, err)
		return rv
	}
	entry := planEntry(st.Plan, name)
	if entry == nil || entry.Change == nil || entry.Change.Desired == nil {
		return fail(errors.New("the rollout's plan has no change for it"))
	}
	if drv == nil {
		var err error
		if drv, err = plan.Dial(ctx, d); err != nil {
			return fail(err)
		}
		defer drv.Close()
	}
	running, err := drv.Running(ctx)
	if err != nil {
		return fail(err)
	}
	left, err := drv.Diff(running, entry.Change.Desired)
	if err != nil {
		return fail(fmt.Errorf("diff: %w", err))
	}
	switch {
	case plan.Fingerprint(running) == start.Fingerprint:
		rv.Found = FoundUntouched
	case left.Empty():
		rv.Found = FoundApplied
	default:
		rv.Found = FoundPartly
	}
	reverter, canRevert := drv.(vendors.Reverter)
	canRevert = canRevert && start.Mark != ""
	// back puts the device at its restore point and checks that it is
	// the config from before the change.
	back := func() error {
		if err := reverter.Revert(ctx, start.Mark); err != nil {
			return err
		}
		if running, err = drv.Running(ctx); err != nil {
			return err
		}
		if plan.Fingerprint(running) != start.Fingerprint {
			return fmt.Errorf("the config restored from %s is not the one from before the change (fingerprint %.12s, recorded %.12s)", start.Mark, plan.Fingerprint(running), start.Fingerprint)
		}
		return nil
	}
	forget := func() {
		if canRevert {
			_ = reverter.Forget(ctx, start.Mark) // best effort: a slot, not a change
		}
	}
	step := func(status, action string, err error) Recovery {
		rv.Action, rv.Err = action, err
		if err != nil {
			err = fmt.Errorf("recover %s: %w", name, err)
			rv.Err = err
		}
		if status != StatusStarted {
			rv.Status = status
			_ = rec.Step(0, d, audit.StepRecover, status, po.Now.Since(begin).Seconds(), err)
		}
		return rv
	}
	if !forward {
		switch {
		case rv.Found == FoundUntouched:
			forget()
			return step(StatusRecovered, "nothing to undo", nil)
		case canRevert:
			if err := back(); err != nil {
				return step(StatusStarted, "put back to "+start.Mark+": failed", err)
			}
			return step(StatusRecovered, "put back to "+start.Mark, nil)
		case rv.Found == FoundApplied:
			return step(StatusApplied, "none: the change is all there and the driver saved no restore point to go back to", nil)
		}
		return step(StatusStarted, "none", fmt.Errorf("it holds part of the change and the %s driver saved no restore point to go back to: check it, or take it forward with lossless recover -forward", d.Intent.Vendor))
	}
	action := ""
	switch {
	case rv.Found == FoundApplied:
		forget()
		rv.Result = &plan.Result{Result: vendors.Result{Device: name, Applied: true}, Vendor: d.Intent.Vendor, Change: entry.Change, Before: running}
		return step(StatusApplied, "none: the change is all there", nil)
	case rv.Found == FoundPartly && canRevert:
		if err := back(); err != nil {
			return step(StatusStarted, "put back to "+start.Mark+": failed", err)
		}
		action = "put back to " + start.Mark + ", then "
		if left, err = drv.Diff(running, entry.Change.Desired); err != nil {
			return step(StatusStarted, action+"diff: failed", err)
		}
	default:
		forget()
	}
	// Forward: the change from the running config now to the plan's
	// desired config, which ApplyDevice checks against the intent (the
	// change the intent gives from here must be this one).
	target := &plan.Plan{FormatVersion: plan.FormatVersion, Devices: []plan.DevicePlan{{Device: name, Vendor: d.Intent.Vendor,
		Fingerprint: plan.Fingerprint(running), Change: left}}}
	res := plan.ApplyDevice(ctx, d, drv, target, po)
	rv.Result = &res
	switch {
	case res.Err != nil:
		rv.Status, rv.Action, rv.Err = StatusFailed, action+"applied the plan's change: failed", res.Err
		if res.RolledBack {
			rv.Status = StatusRolledBack
		}
	default:
		rv.Status, rv.Action = StatusApplied, action+"applied the plan's change"
	}
	return rv
}

// result is the apply result of a device recovered forward: its apply's,
// or one that says why it was not applied.
func (rv Recovery) result(d plan.Device) plan.Result {
	if rv.Result != nil {
		return *rv.Result
	}
	r := plan.Result{Result: vendors.Result{Device: rv.Device, Err: rv.Err, Applied: rv.Status == StatusApplied}, Vendor: d.Intent.Vendor}
	return r
}

// planEntry returns device's part of p, or nil.
func planEntry(p *plan.Plan, device string) *plan.DevicePlan {
	for i := range p.Devices {
		if p.Devices[i].Device == device {
			return &p.Devices[i]
		}
	}
	return nil
}
