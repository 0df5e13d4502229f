package plan

import (
	"context"
	"errors"
	"fmt"

	"github.com/lossless-net/lossless/vendors"
)

// Result is one device's apply outcome.
type Result struct {
	vendors.Result
	// Vendor is the device's vendor name.
	Vendor string
	// Change is what was (or would have been) sent; nil when the device
	// failed before its change was known.
	Change *vendors.Change
	// Before is the scoped running config read just before the change
	// (what a staged rollout restores when a health gate trips); nil when
	// the device failed before it was read.
	Before []byte
}

// Unchanged reports whether the device needed nothing.
func (r Result) Unchanged() bool { return r.Err == nil && r.Change.Empty() }

// ErrStale is wrapped by the error of a device whose running config
// changed since the saved plan was made.
var ErrStale = errors.New("running config changed since the plan was made")

// ErrNotAtomic is wrapped by the error of a device refused under
// Options.RequireAtomic.
var ErrNotAtomic = errors.New("refused by -require-atomic: a push to this device is not atomic on the device")

// ResultCounts counts applied, unchanged and failed devices.
func ResultCounts(rs []Result) Counts {
	var c Counts
	for _, r := range rs {
		switch {
		case r.Err != nil:
			c.Failed++
		case r.Change.Empty():
			c.Unchanged++
		default:
			c.Change++
		}
	}
	return c
}

// Apply applies every device's change, computed now; when saved is not
// nil, only after checking that the device's scoped running config still
// has the fingerprint the plan recorded and that the change is the saved
// one. Results
// come back in device-name order. A device's failure is its Result (the
// driver has rolled it back) and the others carry on; with
// opts.FailFast the first failure is also returned, no new device starts
// and those in flight roll back.
func Apply(ctx context.Context, devs []Device, saved *Plan, opts Options) ([]Result, error) {
	devs = sorted(devs)
	rs := make([]Result, len(devs))
	err := Each(ctx, devs, opts, func(ctx context.Context, i int, d Device) error {
		rs[i] = ApplyDevice(ctx, d, nil, saved, opts)
		return rs[i].Err
	}, func(i int, d Device, err error) {
		rs[i] = Result{Result: vendors.Result{Device: d.Intent.Name, Err: err}, Vendor: d.Intent.Vendor}
	})
	return rs, err
}

// ApplyDevice applies one device's change as Apply does. drv, when not
// nil, is an open session to d that the caller keeps (a staged rollout
// reads the health counters over it before and after); nil makes
// ApplyDevice dial d and close the session when done. With a saved plan,
// the change sent is computed anew from the intent and the running
// config, which must have the fingerprint the plan recorded, and must
// be the saved change (ErrNotReviewed otherwise, naming what differs).
// With opts.Journal, the change is recorded before its first command is
// sent and the result after.
func ApplyDevice(ctx context.Context, d Device, drv vendors.Driver, saved *Plan, opts Options) Result {
	// session is the one the change went over; when ApplyDevice dialled
	// it, it is closed once the journal is done with it.
	var session vendors.Driver
	dialled := drv == nil
	r := applyDevice(ctx, d, drv, saved, opts, &session)
	if opts.Journal != nil {
		opts.Journal.Finished(ctx, d, session, r)
	}
	if dialled && session != nil {
		_ = session.Close()
	}
	return r
}

// applyDevice is ApplyDevice but for the journal's Finished and the
// closing of the session it dials (set in session).
func applyDevice(ctx context.Context, d Device, drv vendors.Driver, saved *Plan, opts Options, session *vendors.Driver) Result {
	start := opts.Now.Now()
	r := Result{Result: vendors.Result{Device: d.Intent.Name}, Vendor: d.Intent.Vendor}
	fail := func(err error) Result {
		r.Err = err
		r.Duration = opts.Now.Since(start)
		return r
	}
	var entry *DevicePlan
	if saved != nil {
		entry = saved.device(d.Intent.Name)
		switch {
		case entry == nil:
			return fail(fmt.Errorf("%s: not in the saved plan", d.Intent.Name))
		case entry.Error != "" || entry.Change == nil:
			return fail(fmt.Errorf("%s: the saved plan has no change for it (planning failed: %s)", d.Intent.Name, entry.Error))
		}
	}
	v, doc, err := Desired(d, opts)
	if err != nil {
		return fail(err)
	}
	if drv == nil {
		if drv, err = v.Dial(ctx, d.Target); err != nil {
			return fail(err)
		}
	}
	*session = drv
	if l, ok := drv.(vendors.DeviceLocker); ok {
		// The device's own lock, held from the read to the commit: no
		// other client changes the configuration in between.
		if err := l.LockConfig(ctx); err != nil {
			return fail(fmt.Errorf("%s: lock the device's configuration: %w; nothing was sent", d.Intent.Name, err))
		}
		defer func() { _ = l.UnlockConfig(context.WithoutCancel(ctx)) }()
	}
	running, err := drv.Running(ctx)
	if err != nil {
		return fail(err)
	}
	r.Before = running
	fp := Fingerprint(running)
	if entry != nil && fp != entry.Fingerprint {
		return fail(fmt.Errorf("%s: %w (fingerprint %.12s, plan has %.12s); run plan again", d.Intent.Name, ErrStale, fp, entry.Fingerprint))
	}
	ch, err := drv.Diff(running, doc)
	if err != nil {
		return fail(fmt.Errorf("%s: diff: %w", d.Intent.Name, err))
	}
	annotate(ch, doc, drv)
	if entry != nil {
		if why := ChangeDiff(entry.Change, ch); why != "" {
			return fail(fmt.Errorf("%s: %w: %s; nothing was sent (run plan again)", d.Intent.Name, ErrNotReviewed, why))
		}
	}
	r.Change = ch
	if ch.Empty() {
		r.Duration = opts.Now.Since(start)
		return r
	}
	if opts.RequireAtomic && ch.NotCrashAtomic != "" {
		return fail(fmt.Errorf("%s: %w: %s; nothing was sent", d.Intent.Name, ErrNotAtomic, ch.NotCrashAtomic))
	}
	if opts.Journal != nil {
		if err := opts.Journal.Started(ctx, d, drv, fp, ch); err != nil {
			return fail(fmt.Errorf("%s: write-ahead record: %w; nothing was sent", d.Intent.Name, err))
		}
	}
	res := drv.Apply(ctx, ch, vendors.ApplyOptions{ConfirmTimeout: opts.ConfirmTimeout})
	res.Device = d.Intent.Name
	res.Duration = opts.Now.Since(start)
	r.Result = res
	return r
}

// device returns the plan entry of a device, or nil.
func (p *Plan) device(name string) *DevicePlan {
	for i := range p.Devices {
		if p.Devices[i].Device == name {
			return &p.Devices[i]
		}
	}
	return nil
}
