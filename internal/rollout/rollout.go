// Package rollout applies a plan to a fleet in stages, as engineers do in
// a change window: a canary first, then batches, in an order by role or
// tag, only while the window is open, halting after too many failures or
// when a health gate (PFC pause, drops, watchdog counters read before and
// after each batch) trips, in which case the batch is put back to its
// previous config. Every device step goes to the audit log and the state
// file, the start of a change before its first command is sent (the
// write-ahead record, Recorder), so that an interrupted rollout resumes
// and a device left in flight is recovered (Recover); a lock file keeps
// two rollouts off one fabric.
package rollout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/vendors"
)

// Staging are the staging settings of a rollout, as written in its state
// file.
type Staging struct {
	// Canary is the number of devices changed alone first.
	Canary int `json:"canary,omitempty"`
	// Batch is the size of each later batch; the zero Size is all the
	// remaining devices at once.
	Batch Size `json:"batch"`
	// MaxFailures halts the rollout after this many failed devices; 0
	// means never.
	MaxFailures int `json:"max_failures,omitempty"`
	// Pause is the wait between batches.
	Pause time.Duration `json:"pause,omitempty"`
	// Order lists "role:R" and "tag:T": devices matching an earlier item
	// go first.
	Order []string `json:"order,omitempty"`
	// Window is the change window ("HH:MM-HH:MM[,TZ]"); "" means always.
	Window string `json:"window,omitempty"`
	// Gate, when set, reads health counters before and after each batch.
	Gate *Gate `json:"gate,omitempty"`
}

// Options are a rollout's settings besides its staging.
type Options struct {
	Staging
	// Plan are the per-device apply settings (parallelism within a batch,
	// confirm timeout, progress).
	Plan plan.Options
	// Now is the clock of the rollout: the window, the gate's rates,
	// audit stamps, state saves and device durations (unless Plan.Now is
	// set) read it; nil is the system clock.
	Now plan.Clock
	// Sleep waits between batches; nil waits on a timer. It returns early
	// with an error when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// Audit receives one entry per device step; nil logs nothing.
	Audit *audit.Log
	// Operator is written in each audit entry.
	Operator string
	// StatePath, when set, is where the state is saved: whole at the
	// start, after each batch and at the end, and each device step
	// appended (synced) as it happens.
	StatePath string
}

// Batch is one stage of a rollout.
type Batch struct {
	// Index is 0 for the canary (when there is one), then 1, 2, ...
	Index   int      `json:"index"`
	Canary  bool     `json:"canary,omitempty"`
	Devices []string `json:"devices"`
	// Elapsed is the batch's wall time: counters, changes, gate,
	// restores.
	Elapsed time.Duration `json:"elapsed"`
	// Trips are the health limits the batch went over.
	Trips []Trip `json:"trips,omitempty"`
	// Restored are the devices put back to their previous config after
	// a trip.
	Restored []string `json:"restored,omitempty"`
	// NotStarted, when set, says why the batch never started: a device's
	// counters or restore point could not be read or saved before it
	// (for example a checkpoint the device refused). Nothing was changed.
	NotStarted string `json:"not_started,omitempty"`
}

// Report is the outcome of a rollout.
type Report struct {
	Batches []Batch
	// Results are the devices started, in rollout order (a restored
	// device's result says it was applied; its status in State is
	// StatusRestored).
	Results []plan.Result
	// NotStarted are the devices left for a resume, in rollout order.
	NotStarted []string
	// Stopped says why the rollout ended early; "" when it completed.
	Stopped string
	// Interrupted is true when ctx ended (SIGINT, SIGTERM).
	Interrupted bool
	// Recovered are the devices an earlier run left in flight, taken
	// forward to the plan before their batch went on, in rollout order.
	Recovered []Recovery
}

// ErrOutsideWindow is returned when a rollout is asked to start while its
// window is closed.
var ErrOutsideWindow = errors.New("outside the change window")

// Run rolls the changes of st.Plan out to devs (the devices to change),
// skipping those st already records as done. ctx ending (Ctrl-C) stops
// the rollout: no new device starts, devices in flight finish (their
// driver applies atomically, so each ends applied or rolled back), and
// the state is saved. A device st records as started (left in flight by
// a run that died) is taken forward to the plan in its batch (see
// Recover). Run returns an error when it cannot start (outside the
// window, a bad setting), and when the state cannot be written: a device
// whose start cannot be recorded is not started.
func Run(ctx context.Context, devs []plan.Device, st *State, o Options) (*Report, error) {
	now := o.Now.Now
	if o.Plan.Now == nil {
		o.Plan.Now = o.Now
	}
	sleep := o.Sleep
	if sleep == nil {
		sleep = timerSleep
	}
	var win *Window
	if o.Window != "" {
		var err error
		if win, err = ParseWindow(o.Window); err != nil {
			return nil, err
		}
	}
	if err := ParseOrder(o.Order); err != nil {
		return nil, err
	}
	if st.Devices == nil {
		st.Devices = map[string]string{}
	}
	if t := now(); win != nil && !win.Open(t) {
		return nil, fmt.Errorf("rollout: %w %s (now %s): nothing was changed", ErrOutsideWindow, win, t.In(win.Loc).Format("15:04 MST"))
	}
	var todo []plan.Device
	for _, d := range Order(devs, o.Order) {
		if !st.Done(d.Intent.Name) {
			todo = append(todo, d)
		}
	}
	r := &runner{o: o, st: st, clock: o.Now, rep: &Report{}, rec: NewRecorder(st, o.StatePath, o.Audit, o.Operator, o.Now)}
	if err := r.rec.Save(); err != nil {
		return nil, fmt.Errorf("rollout: %w: nothing was changed", err)
	}
	batches := Split(todo, o.Canary, o.Batch)
	// work is the context of device changes and restores: Ctrl-C must not
	// cut a device in the middle of its change.
	work := context.WithoutCancel(ctx)
	failures := 0
	for bi, b := range batches {
		if bi > 0 {
			if o.Pause > 0 && sleep(ctx, o.Pause) != nil {
				r.stop(batches[bi:], "interrupted between batches", true)
				break
			}
			if t := now(); win != nil && !win.Open(t) {
				r.stop(batches[bi:], fmt.Sprintf("the change window %s closed (now %s)", win, t.In(win.Loc).Format("15:04 MST")), false)
				break
			}
		}
		if ctx.Err() != nil {
			r.stop(batches[bi:], "interrupted", true)
			break
		}
		index := bi
		if o.Canary <= 0 {
			index++
		}
		batch, failed, err := r.batch(ctx, work, index, b)
		r.rep.Batches = append(r.rep.Batches, batch)
		if err != nil {
			return r.rep, err
		}
		failures += failed
		if ctx.Err() != nil {
			r.stop(batches[bi:], "interrupted", true)
			break
		}
		if batch.NotStarted != "" {
			r.stop(batches[bi:], fmt.Sprintf("batch %d could not start, nothing was changed: %s", index, batch.NotStarted), false)
			break
		}
		if len(batch.Trips) > 0 {
			r.stop(batches[bi+1:], fmt.Sprintf("health gate tripped after batch %d, which was rolled back: %s", index, trips(batch.Trips)), false)
			break
		}
		if o.MaxFailures > 0 && failures >= o.MaxFailures {
			r.stop(batches[bi+1:], fmt.Sprintf("%d device(s) failed (-max-failures %d)", failures, o.MaxFailures), false)
			break
		}
	}
	st.Stopped = r.rep.Stopped
	if err := r.rec.Save(); err != nil {
		return r.rep, err
	}
	return r.rep, nil
}

func timerSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

type runner struct {
	o     Options
	st    *State
	clock plan.Clock
	rep   *Report
	rec   *Recorder
	mu    sync.Mutex // guards rep.Results
}

// stop records why the rollout ends and the devices it leaves.
func (r *runner) stop(left [][]plan.Device, why string, interrupted bool) {
	r.rep.Stopped = why
	r.rep.Interrupted = interrupted
	for _, b := range left {
		for _, d := range b {
			if !r.started(d.Intent.Name) {
				r.rep.NotStarted = append(r.rep.NotStarted, d.Intent.Name)
			}
		}
	}
}

func (r *runner) started(name string) bool {
	for _, res := range r.rep.Results {
		if res.Device == name {
			return true
		}
	}
	return false
}

// batch applies the batch's devices through the fleet runner (none
// starts once ctx ended; one started runs to its end on work). With a
// gate, each device gets one session for the whole batch: its counters
// are read and its config marked before, the change is applied, the
// counters are read again after, and the applied devices are restored
// when the gate trips. It returns the number of failed devices.
func (r *runner) batch(ctx, work context.Context, index int, devs []plan.Device) (Batch, int, error) {
	start := r.clock.Now()
	b := Batch{Index: index, Canary: index == 0}
	for _, d := range devs {
		b.Devices = append(b.Devices, d.Intent.Name)
	}
	var ss *sessions
	var before snapshot
	var wentBack map[string]Recovery
	if r.o.Gate != nil {
		// Devices an earlier run left in flight go back to their restore
		// point first, so that the batch's own restore point, saved next,
		// is their config from before the change, and none of theirs is
		// lost to it; the batch then applies them as the others.
		wentBack = r.backFirst(work, ctx, devs)
		ss = newSessions(devs, r.o.Plan.Parallelism, r.clock)
		defer ss.close(work)
		var err error
		if before, err = ss.before(work); err != nil {
			// Drop the configs saved before the failure, best effort.
			ss.forget(work)
			b.NotStarted = err.Error()
			b.Elapsed = r.clock.Since(start)
			return b, 0, nil
		}
	}
	results := make([]plan.Result, len(devs))
	ran := make([]bool, len(devs))
	recovered := make([]*Recovery, len(devs))
	// The rollout has its own halts (-max-failures, the gate): a failed
	// device does not stop its batch.
	o := r.o.Plan
	o.FailFast = false
	o.Journal = r.rec.Batch(index, ss.mark)
	_ = plan.Each(ctx, devs, o, func(_ context.Context, i int, d plan.Device) error {
		// work, not the runner's ctx: Ctrl-C must not cut a device in
		// the middle of its change.
		ran[i] = true
		if rv, ok := wentBack[d.Intent.Name]; ok && rv.Status == StatusApplied {
			// All there, and no restore point to go back to: done.
			recovered[i] = &rv
			results[i] = rv.result(d)
			return nil
		}
		if rv, ok := wentBack[d.Intent.Name]; ok {
			recovered[i] = &rv
		}
		if r.interrupted(d.Intent.Name) {
			rv := recoverOne(work, d, ss.driver(i), r.st, r.rec, true, o)
			recovered[i] = &rv
			results[i] = rv.result(d)
			return results[i].Err
		}
		results[i] = plan.ApplyDevice(work, d, ss.driver(i), r.st.Plan, o)
		return results[i].Err
	}, func(int, plan.Device, error) {})
	failed := 0
	var applied []int
	for i := range devs {
		if !ran[i] {
			continue
		}
		r.rep.Results = append(r.rep.Results, results[i])
		if recovered[i] != nil {
			r.rep.Recovered = append(r.rep.Recovered, *recovered[i])
		}
		switch {
		case results[i].Err != nil:
			failed++
		case results[i].Applied:
			applied = append(applied, i)
		}
	}
	if err := r.rec.Err(); err != nil {
		return b, failed, err
	}
	if ss != nil && len(applied) > 0 {
		after, err := ss.after(work)
		if err != nil {
			b.Trips = []Trip{{Why: "counters after the batch: " + err.Error()}}
		} else {
			b.Trips = r.o.Gate.check(before, after)
		}
		if len(b.Trips) > 0 {
			b.Restored = r.restoreAll(work, index, ss, applied, results)
		}
	}
	if ss != nil && len(b.Trips) == 0 {
		// The batch stays: drop the saved configs (NX-OS keeps 10).
		ss.forget(work)
	}
	b.Elapsed = r.clock.Since(start)
	return b, failed, r.rec.Save()
}

// backFirst takes the devices of devs left in flight by an earlier run
// back to their restore point (Recover), each over a session of its own,
// and returns what it did, by device. A device it cannot take back stays
// interrupted and is taken forward in its batch; one whose change is all
// there without a restore point is recorded as applied.
func (r *runner) backFirst(work, ctx context.Context, devs []plan.Device) map[string]Recovery {
	var todo []plan.Device
	for _, d := range devs {
		if r.interrupted(d.Intent.Name) {
			todo = append(todo, d)
		}
	}
	o := r.o.Plan
	o.FailFast = false
	o.Progress = nil
	got := make([]Recovery, len(todo))
	_ = plan.Each(ctx, todo, o, func(_ context.Context, i int, d plan.Device) error {
		got[i] = recoverOne(work, d, nil, r.st, r.rec, false, o)
		return nil
	}, func(i int, d plan.Device, err error) {
		got[i] = Recovery{Device: d.Intent.Name, Status: StatusStarted, Err: err}
	})
	out := map[string]Recovery{}
	for _, rv := range got {
		if rv.Status != StatusStarted {
			out[rv.Device] = rv
		}
	}
	return out
}

// interrupted reports whether the state records device as left in flight
// by an earlier run (read before the rollout started: its own devices
// are recorded as started only within their job).
func (r *runner) interrupted(device string) bool {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	return r.st.InFlight(device)
}

// restoreAll restores the applied devices of a tripped batch (indexes in
// the batch), in parallel, and returns those restored in batch order.
func (r *runner) restoreAll(ctx context.Context, batch int, ss *sessions, applied []int, results []plan.Result) []string {
	devs := make([]plan.Device, len(applied))
	for k, i := range applied {
		devs[k] = ss.devs[i]
	}
	ok := make([]bool, len(applied))
	_ = plan.Each(ctx, devs, plan.Options{Parallelism: ss.parallelism}, func(ctx context.Context, k int, d plan.Device) error {
		i := applied[k]
		ok[k] = r.restore(ctx, batch, d, ss.drvs[i], results[i], ss.marks[i])
		return nil
	}, func(int, plan.Device, error) {})
	var out []string
	for k, i := range applied {
		if ok[k] {
			out = append(out, ss.devs[i].Intent.Name)
		}
	}
	return out
}

// restore puts an applied device back to the config saved under mark
// before its batch, through its driver's Reverter on the batch's session
// drv, checks that its scoped running config is byte for byte what it was
// before the change, and records the step.
func (r *runner) restore(ctx context.Context, batch int, d plan.Device, drv vendors.Driver, applied plan.Result, mark string) bool {
	start := r.clock.Now()
	err := func() error {
		rv, ok := drv.(vendors.Reverter)
		if !ok || mark == "" {
			return fmt.Errorf("the %s driver saved no config to restore", d.Intent.Vendor)
		}
		if err := rv.Revert(ctx, mark); err != nil {
			return err
		}
		now, err := drv.Running(ctx)
		if err != nil {
			return err
		}
		if !bytes.Equal(now, applied.Before) {
			return errors.New("the restored config differs from the config before the change")
		}
		return nil
	}()
	status := StatusRestored
	if err != nil {
		err = fmt.Errorf("restore %s: %w", d.Intent.Name, err)
		status = StatusFailed
	}
	// The restore itself matters more than its record; a record that
	// cannot be written shows in the rollout's error (Recorder.Err).
	_ = r.rec.Step(batch, d, audit.StepRollback, status, r.clock.Since(start).Seconds(), err)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		for i := range r.rep.Results {
			if r.rep.Results[i].Device == d.Intent.Name {
				r.rep.Results[i].Err = fmt.Errorf("%s: health gate tripped and %w", d.Intent.Name, err)
			}
		}
		return false
	}
	return true
}
