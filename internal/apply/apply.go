// Package apply runs the workflow of `lossless apply` over a fleet: it
// finds what to apply (the intent, a saved plan or a rollout to resume),
// takes the intent's rollout defaults and the fabric lock, plans when no
// saved plan was given, asks for approval, applies the changes at once
// (package plan) or as a staged rollout (package rollout), and plans the
// embedded lab again afterwards. It prints nothing: the caller loads the
// fleet, shows the plan, asks the question and prints the Report.
package apply

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
	"github.com/lossless-net/lossless/vendors"
)

// Default file names, in the intent directory.
const (
	// LockFile is the fabric lock.
	LockFile = ".lossless.lock"
	// StateFile is the state of a staged rollout.
	StateFile = ".lossless-rollout.json"
)

// DefaultMaxPause is the health gate's limit on PFC pause frames per
// second per port when neither the command line nor the intent sets one.
const DefaultMaxPause = 1000

// Input says what to apply: the rollout saved in the state file Resume,
// else the plan saved in PlanFile, else the intent of Source.
type Input struct {
	// Source is the intent to plan and apply.
	Source *plan.Source
	// PlanFile is a plan saved by `lossless plan -out`: exactly its
	// changes are applied, each refused for a device whose running config
	// changed since, and no approval is asked.
	PlanFile string
	// Resume is the state file of a staged rollout to continue: its plan
	// and staging are used, devices already applied are skipped.
	Resume string
}

// Fleet is a loaded fleet: its devices and the settings to plan and apply
// them with (parallelism, fail-fast, logger, progress, confirm timeout).
type Fleet struct {
	Devices []plan.Device
	Options plan.Options
	// Rollout is the intent's rollout block, as loaded with the devices;
	// nil when the intent has none.
	Rollout *intent.Rollout
}

// Summary is what an approval is asked for.
type Summary struct {
	// Plan is the fresh plan, with every device's change.
	Plan *plan.Plan
	// Devices are the devices that would change, in name order.
	Devices []string
}

// Approver says whether the changes of a fresh plan go ahead; a saved plan
// was reviewed when it was made and is not asked about. An error stops
// the apply before any device changes.
type Approver func(ctx context.Context, s Summary) (bool, error)

// AutoApprove is the Approver of -auto-approve: every change goes ahead.
func AutoApprove(context.Context, Summary) (bool, error) { return true, nil }

// ErrCancelled is returned when the Approver said no.
var ErrCancelled = errors.New("apply cancelled")

// Staging are the staged-rollout settings given on the command line; a
// zero value or a nil pointer is a setting not given. The intent's
// rollout block gives the defaults of the gate and the audit log, and a
// setting given wins over it. Any setting makes apply roll out in stages
// (a resumed rollout keeps the staging of its state file).
type Staging struct {
	// Canary, Batch, MaxFailures, Pause, Order and Window are those of
	// rollout.Staging.
	Canary      int
	Batch       rollout.Size
	MaxFailures int
	Pause       time.Duration
	Order       []string
	Window      string
	// Gate turns the health gates on or off; nil: on when the intent's
	// rollout block has a gate block.
	Gate *bool
	// MaxPause and MaxDrops (per second per port) and MaxWatchdog (per
	// port and batch) are the gate's limits; nil takes the intent's,
	// else DefaultMaxPause, no limit and 0.
	MaxPause, MaxDrops *float64
	MaxWatchdog        *uint64
	// Audit is the audit log file (its directory is created); "" takes
	// the intent's audit_log, except for the embedded lab, whose changes
	// are not the fabric's history.
	Audit string
	// State is where a staged rollout saves its state; "" is the resumed
	// state file, else StateFile in the intent directory (none for the
	// embedded lab).
	State string
}

// Options are the settings of Run.
type Options struct {
	// Load loads the fleet of the intent at src: for a lab source, the
	// lab is started and the devices point at it. Required. Its error is
	// returned as it is.
	Load func(src *plan.Source) (*Fleet, error)
	// Staging are the staged-rollout settings.
	Staging Staging
	// Approve is asked before a fresh plan is applied; required unless
	// Input is a saved plan or a rollout to resume.
	Approve Approver
	// Planned, when set, is given a fresh plan as soon as it is made,
	// before the approval (the CLI prints it).
	Planned func(*plan.Plan)
	// Lock is the fabric lock file; "" is LockFile in the intent
	// directory, and no lock for the embedded lab.
	Lock string
	// ForceUnlock removes the lock first, when one is held; Unlocked, when
	// set, is told whose it was.
	ForceUnlock bool
	Unlocked    func(path string, holder rollout.LockInfo)
	// Operator is written in the lock and the audit log.
	Operator string
	// Now is the clock of the whole apply; nil is the system clock.
	Now plan.Clock
	// Sleep waits between batches; nil waits on a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// PlanAfter plans an embedded-lab fleet again once it is applied, as
	// the lab lives only as long as the process (Report.After).
	PlanAfter bool
}

// Report is the outcome of Run.
type Report struct {
	// Plan is the plan applied: fresh, saved or the resumed rollout's.
	Plan *plan.Plan
	// Results are the devices applied (in name order, or rollout order
	// when staged), then those the plan could not plan.
	Results []plan.Result
	// Summary counts Results; when nothing was to apply, the plan.
	Summary plan.Counts
	// Empty is true when no device had a change to apply.
	Empty bool
	// FailFast is the failure that stopped an apply at once with
	// Options.FailFast; nil otherwise.
	FailFast error
	// Rollout is the report of a staged rollout; nil when the changes
	// were applied at once.
	Rollout *rollout.Report
	// State is where the rollout state was saved; "" when it was not.
	State string
	// After is the plan of the embedded lab after the apply, with
	// Options.PlanAfter; nil otherwise or when it could not be made.
	After *plan.Plan
}

// OK reports whether every device was applied or unchanged and the
// apply ran to its end.
func (r *Report) OK() bool {
	return r.FailFast == nil && r.Summary.Failed == 0 && (r.Rollout == nil || r.Rollout.Stopped == "")
}

// Run applies in through o. It returns a nil Report with the error when
// it stops before any device could change (a bad input, the lock held,
// the approval refused, a rollout outside its window); a Report with an
// error when devices may have changed (a state file that cannot be
// written, a lock that cannot be released).
func Run(ctx context.Context, in Input, o Options) (rep *Report, err error) {
	if o.Load == nil {
		return nil, errors.New("apply: no loader for the fleet")
	}
	saved, resumed, src, err := open(in)
	if err != nil {
		return nil, err
	}
	fl, err := o.Load(src)
	if err != nil {
		return nil, err
	}
	s := o.Staging.withIntent(fl.Rollout, src)
	release, err := lock(src, o)
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := release(); rerr != nil {
			err = errors.Join(err, rerr)
		}
	}()
	fo := fl.Options
	if fo.Now == nil {
		fo.Now = o.Now
	}
	quiet := fo
	quiet.Progress = nil
	p := saved
	if p == nil {
		if p, err = plan.Make(ctx, fl.Devices, quiet); err != nil {
			return nil, fmt.Errorf("stopped (-fail-fast): %w", err)
		}
		p.Source = src
		if o.Planned != nil {
			o.Planned(p)
		}
	}
	devs, skipped := changed(fl.Devices, p)
	if len(devs) == 0 {
		return &Report{Plan: p, Results: skipped, Summary: p.Counts(), Empty: true}, nil
	}
	if saved == nil {
		if err := approve(ctx, o.Approve, p, devs); err != nil {
			return nil, err
		}
	}
	rep = &Report{Plan: p}
	if resumed != nil || s.staged() {
		st := resumed
		if st == nil {
			st = &rollout.State{FormatVersion: rollout.StateVersion, PlanHash: rollout.Hash(p), Plan: p, Staging: s.rollout()}
		}
		if rep, err = stage(ctx, devs, st, s, fo, o, src, in.Resume); rep == nil {
			return nil, err
		}
	} else {
		rs, ferr := plan.Apply(ctx, devs, p, fo)
		rep.Results, rep.FailFast = rs, ferr
	}
	rep.Results = append(rep.Results, skipped...)
	rep.Summary = plan.ResultCounts(rep.Results)
	if src.Lab && o.PlanAfter {
		if after, perr := plan.Make(ctx, fl.Devices, quiet); perr == nil {
			after.Source = src
			rep.After = after
		}
	}
	return rep, err
}

// open reads the saved plan or rollout state of in and returns the
// source of the intent to load.
func open(in Input) (*plan.Plan, *rollout.State, *plan.Source, error) {
	switch {
	case in.Resume != "":
		st, err := rollout.ReadState(in.Resume)
		if err != nil {
			return nil, nil, nil, err
		}
		if st.Plan.Source == nil {
			return nil, nil, nil, fmt.Errorf("%s does not say which intent it was made from", in.Resume)
		}
		return st.Plan, st, st.Plan.Source, nil
	case in.PlanFile != "":
		p, err := plan.ReadFile(in.PlanFile)
		if err != nil {
			return nil, nil, nil, err
		}
		if p.Source == nil {
			return nil, nil, nil, fmt.Errorf("%s does not say which intent it was made from", in.PlanFile)
		}
		return p, nil, p.Source, nil
	case in.Source == nil:
		return nil, nil, nil, errors.New("apply: no intent, saved plan or rollout state to apply")
	}
	return nil, nil, in.Source, nil
}

// lock takes the fabric lock of src (none for the embedded lab without
// o.Lock); the release function is never nil.
func lock(src *plan.Source, o Options) (func() error, error) {
	path := o.Lock
	if path == "" {
		if src.Lab {
			return func() error { return nil }, nil
		}
		path = filepath.Join(src.Dir, LockFile)
	}
	if o.ForceUnlock {
		held, err := rollout.ForceUnlock(path)
		switch {
		case err == nil:
			if o.Unlocked != nil {
				o.Unlocked(path, held)
			}
		case errors.Is(err, os.ErrNotExist):
		default:
			return nil, err
		}
	}
	host, _ := os.Hostname()
	l, err := rollout.Acquire(path, rollout.LockInfo{Owner: o.Operator, Host: host, PID: os.Getpid(), Start: o.Now.Now().UTC()})
	if err != nil {
		return nil, err
	}
	return l.Release, nil
}

// changed returns the devices with a change in p, and a result for each
// device p could not plan.
func changed(devs []plan.Device, p *plan.Plan) ([]plan.Device, []plan.Result) {
	byName := map[string]plan.DevicePlan{}
	for _, d := range p.Devices {
		byName[d.Device] = d
	}
	var out []plan.Device
	var failed []plan.Result
	for _, d := range devs {
		dp, ok := byName[d.Intent.Name]
		switch {
		case !ok:
			// Not in a saved plan made with other -target flags.
		case dp.Error != "":
			failed = append(failed, plan.Result{Result: vendors.Result{Device: dp.Device, Err: errors.New(dp.Error)}, Vendor: dp.Vendor})
		case !dp.Change.Empty():
			out = append(out, d)
		}
	}
	return out, failed
}

// approve asks a for the changes of p to devs.
func approve(ctx context.Context, a Approver, p *plan.Plan, devs []plan.Device) error {
	if a == nil {
		return errors.New("apply: nothing can approve the changes of a fresh plan")
	}
	s := Summary{Plan: p, Devices: make([]string, len(devs))}
	for i, d := range devs {
		s.Devices[i] = d.Intent.Name
	}
	ok, err := a(ctx, s)
	switch {
	case err != nil:
		return err
	case !ok:
		return ErrCancelled
	}
	return nil
}

// stage rolls st out to devs with the audit log and state file of s. A
// nil Report means nothing was started.
func stage(ctx context.Context, devs []plan.Device, st *rollout.State, s Staging, fo plan.Options, o Options, src *plan.Source, resume string) (*Report, error) {
	var al *audit.Log
	if s.Audit != "" {
		if err := os.MkdirAll(filepath.Dir(s.Audit), 0o750); err != nil {
			return nil, fmt.Errorf("open audit log: %w", err)
		}
		var err error
		if al, err = audit.Open(s.Audit); err != nil {
			return nil, err
		}
		defer al.Close()
	}
	statePath := s.State
	if statePath == "" {
		statePath = resume
	}
	if statePath == "" && !src.Lab {
		statePath = filepath.Join(src.Dir, StateFile)
	}
	rr, err := rollout.Run(ctx, devs, st, rollout.Options{Staging: st.Staging, Plan: fo, Now: o.Now, Sleep: o.Sleep,
		Audit: al, Operator: o.Operator, StatePath: statePath})
	if rr == nil {
		return nil, err
	}
	return &Report{Plan: st.Plan, Results: rr.Results, Rollout: rr, State: statePath}, err
}
