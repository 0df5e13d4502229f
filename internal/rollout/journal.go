package rollout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/vendors"
)

// Recorder keeps the write-ahead record of an apply: before the first
// command of a device's change is sent, the change (in the audit log; the
// state holds the plan), the plan hash and the fingerprint of the running
// config it was computed from (and the restore point saved on the
// device, where its driver is a vendors.Reverter) are appended and
// synced to the rollout state file and the audit log; after, the result.
// An apply killed at any moment thus leaves every device it touched
// recorded as started or finished. A Recorder is safe for concurrent use.
type Recorder struct {
	st       *State
	path     string
	audit    *audit.Log
	operator string
	clock    plan.Clock
	host     string
	pid      int

	mu sync.Mutex // guards st, err, own and writes to path
	// err is the first record that could not be written; once set, no
	// device starts.
	err error
	// own are the restore points the recorder saved itself, by device,
	// to be dropped once the device's result is recorded.
	own map[string]string
}

// NewRecorder records the steps of the rollout st in its state file path
// ("" keeps them in st only) and the audit log al (nil: none), as
// operator, stamped by clock.
func NewRecorder(st *State, path string, al *audit.Log, operator string, clock plan.Clock) *Recorder {
	if st.Devices == nil {
		st.Devices = map[string]string{}
	}
	host, _ := os.Hostname()
	return &Recorder{st: st, path: path, audit: al, operator: operator, clock: clock, host: host, pid: os.Getpid(), own: map[string]string{}}
}

// Save writes the whole state to its file, folding in the records
// appended since the last Save.
func (r *Recorder) Save() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.path == "" {
		return nil
	}
	if err := SaveState(r.path, r.st); err != nil {
		r.fail(err)
		return err
	}
	return nil
}

// Err returns the first record that could not be written, or nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// fail keeps err as the recorder's first failure; r.mu is held.
func (r *Recorder) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// started returns the write-ahead record of device.
func (r *Recorder) started(device string) Start {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st.Started[device]
}

// Batch returns the plan.Journal of the devices of batch index (0 for the
// canary). mark, when not nil, returns the restore point already saved on
// a device for its batch (a gated batch's), which is recorded instead of
// saving another; "" saves one.
func (r *Recorder) Batch(index int, mark func(device string) string) plan.Journal {
	return &journal{r: r, batch: index, mark: mark}
}

// journal is a Recorder's plan.Journal for one batch.
type journal struct {
	r     *Recorder
	batch int
	mark  func(string) string
}

// Started saves a restore point over drv (unless the batch has one) and
// records the start of d's change, synced, in the state file and the
// audit log.
func (j *journal) Started(ctx context.Context, d plan.Device, drv vendors.Driver, fingerprint string, ch *vendors.Change) error {
	r := j.r
	if err := r.Err(); err != nil {
		return err
	}
	name := d.Intent.Name
	var mark string
	own := false
	if j.mark != nil {
		mark = j.mark(name)
	}
	if rv, ok := drv.(vendors.Reverter); ok && mark == "" {
		m, err := rv.Mark(ctx)
		if err != nil {
			return fmt.Errorf("save a restore point: %w", err)
		}
		mark, own = m, true
	}
	start := Start{Time: r.clock.Now().UTC(), Fingerprint: fingerprint, Mark: mark, Operator: r.operator, Host: r.host, PID: r.pid}
	e := r.entry(j.batch, d, audit.StepApply, audit.ResultStarted, 0, nil)
	e.Commands, e.Patch, e.Fingerprint, e.Mark = ch.Commands, ch.Patch, fingerprint, mark
	err := r.record(record{Time: start.Time, Device: name, Status: StatusStarted, Start: &start}, e)
	if err != nil {
		if own {
			_ = drv.(vendors.Reverter).Forget(ctx, mark) // nothing was sent
		}
		return err
	}
	if own {
		r.mu.Lock()
		r.own[name] = mark
		r.mu.Unlock()
	}
	return nil
}

// Finished records d's result, then drops the restore point Started saved
// for it once the device is at a known config (applied, or rolled back by
// its driver).
func (j *journal) Finished(ctx context.Context, d plan.Device, drv vendors.Driver, res plan.Result) {
	r := j.r
	status := StatusApplied
	switch {
	case res.Err != nil && res.RolledBack:
		status = StatusRolledBack
	case res.Err != nil:
		status = StatusFailed
	case res.Change.Empty():
		status = StatusUnchanged
	}
	e := r.entry(j.batch, d, audit.StepApply, status, res.Duration.Seconds(), res.Err)
	e.RolledBack = res.RolledBack
	if res.Change != nil {
		e.Commands, e.Patch = res.Change.Commands, res.Change.Patch
	}
	_ = r.record(record{Time: e.Time, Device: d.Intent.Name, Status: status, Error: e.Error}, e)
	r.mu.Lock()
	mark, own := r.own[d.Intent.Name]
	delete(r.own, d.Intent.Name)
	r.mu.Unlock()
	if rv, ok := drv.(vendors.Reverter); own && ok && (res.Applied || res.RolledBack) {
		// Best effort: a restore point left behind costs a checkpoint
		// slot, not a change.
		_ = rv.Forget(ctx, mark)
	}
}

// Step records a device step other than an apply (a gate's restore, a
// recovery) with its status, in the audit log and the state.
func (r *Recorder) Step(batch int, d plan.Device, step, status string, seconds float64, err error) error {
	e := r.entry(batch, d, step, status, seconds, err)
	return r.record(record{Time: e.Time, Device: d.Intent.Name, Status: status, Error: e.Error}, e)
}

// entry is the audit entry of one step of d.
func (r *Recorder) entry(batch int, d plan.Device, step, result string, seconds float64, err error) audit.Entry {
	e := audit.Entry{Time: r.clock.Now().UTC(), Operator: r.operator, PlanHash: r.st.PlanHash, Device: d.Intent.Name, Vendor: d.Intent.Vendor,
		Batch: batch, Step: step, Result: result, Seconds: seconds, State: r.path}
	if err != nil {
		e.Error = err.Error()
	}
	return e
}

// record appends rec to the state file and e to the audit log, both
// synced, and sets the device's status in the state. A write that fails
// is kept (Err): no device starts after it.
func (r *Recorder) record(rec record, e audit.Entry) error {
	rec.PlanHash = r.st.PlanHash
	aerr := r.audit.Write(e)
	r.mu.Lock()
	defer r.mu.Unlock()
	var serr error
	if r.path != "" {
		serr = appendRecord(r.path, rec)
	}
	r.st.set(rec)
	if err := errors.Join(aerr, serr); err != nil {
		r.fail(err)
		return err
	}
	return nil
}
