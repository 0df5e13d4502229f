// Package apply runs the workflow of `lossless apply` over a fleet: it
// finds what to apply (the intent, a saved plan or a rollout to resume),
// refuses a saved plan of another fabric, takes the intent's rollout
// defaults and the fabric locks (the intent directory's, and the
// fabric's own on this host, shared by every checkout), refuses to start
// while an earlier apply left devices in flight, plans when no saved plan
// was given (and checks a saved plan's changes against the intent and the
// running configs when one was), asks for approval, applies the changes
// at once (package plan) or as a staged rollout (package rollout) with a
// write-ahead record of every device, and plans the embedded lab again
// afterwards. Recover takes devices left in flight back or forward. It
// prints nothing: the caller loads the fleet, shows the plan, asks the
// question and prints the Report.
package apply

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	// Identity is the fabric's identity (plan.FabricIdentity): a saved
	// plan must have been made for it, and the fabric lock and the last
	// state file are keyed by it. nil refuses a saved plan and takes no
	// fabric lock.
	Identity *plan.Identity
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
	// Lock is the intent directory's lock file; "" is LockFile in the
	// intent directory, and no lock for the embedded lab.
	Lock string
	// StateDir is the user's state directory (StateDir): it holds the
	// fabric lock, taken besides Lock by every apply but the embedded
	// lab's so that two checkouts of one fabric never apply at once, and
	// the path of the fabric's last state file. "" takes no fabric lock.
	StateDir string
	// ForceUnlock removes the locks first when they are held by a run
	// that no longer runs (a lock whose owner is alive on this host is
	// refused, rollout.ErrLiveOwner); Unlocked, when set, is told whose
	// each was.
	ForceUnlock bool
	Unlocked    func(path string, holder rollout.LockInfo)
	// Version is the lossless version, recorded in a fresh plan and
	// required of a saved one.
	Version string
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
	// Recovered are the devices an earlier run left in flight that a
	// resume took forward first.
	Recovered []rollout.Recovery
}

// OK reports whether every device was applied or unchanged and the
// apply ran to its end.
func (r *Report) OK() bool {
	return r.FailFast == nil && r.Summary.Failed == 0 && (r.Rollout == nil || r.Rollout.Stopped == "")
}

// Run applies in through o. It returns a nil Report with the error when
// it stops before any device could change (a bad input, a saved plan of
// another fabric or whose changes are not what the intent gives, a lock
// held, devices left in flight by an earlier apply, the approval refused,
// a rollout outside its window); a Report with an error when devices may
// have changed (a state file that cannot be written, a lock that cannot
// be released).
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
	if err := sameFabric(in, saved, fl, o.Version); err != nil {
		return nil, err
	}
	s := o.Staging.withIntent(fl.Rollout, src)
	// A resume continues the work of the run that died: it takes over the
	// lock that run left, as recover does.
	release, err := lock(src, fl.Identity, o, resumed != nil)
	if le, ok := errors.AsType[*rollout.LockedError](err); ok && le.Stale {
		// The run that left the lock may have left devices in flight.
		if found, ferr := FindInterrupted(o.StateDir, src, fl.Identity); ferr == nil && len(found) > 0 {
			return nil, fmt.Errorf("%w; %w (recover and apply -resume take over a lock whose owner no longer runs)", err, &InterruptedError{Devices: found})
		}
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := release(); rerr != nil {
			err = errors.Join(err, rerr)
		}
	}()
	if err := notInFlight(src, fl.Identity, in.Resume, o); err != nil {
		return nil, err
	}
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
		p.Source, p.Fabric, p.Version = src, fl.Identity.Of(p), o.Version
		if o.Planned != nil {
			o.Planned(p)
		}
	}
	devs, skipped := changed(fl.Devices, p)
	if len(devs) == 0 {
		return &Report{Plan: p, Results: skipped, Summary: p.Counts(), Empty: true}, nil
	}
	if resumed == nil && saved != nil {
		quiet.FailFast = false
		if err := reviewed(ctx, in.PlanFile, devs, saved, quiet); err != nil {
			return nil, err
		}
	}
	if saved == nil {
		if err := approve(ctx, o.Approve, p, devs); err != nil {
			return nil, err
		}
	}
	if resumed != nil || s.staged() {
		st := resumed
		if st == nil {
			st = &rollout.State{FormatVersion: rollout.StateVersion, PlanHash: rollout.Hash(p), Plan: p, Staging: s.rollout()}
		}
		if rep, err = stage(ctx, devs, st, s, fo, o, src, in.Resume, fl.Identity); rep == nil {
			return nil, err
		}
	} else if rep, err = atOnce(ctx, devs, p, fo, o, src, fl.Identity); rep == nil {
		return nil, err
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

// lock takes the locks of the fabric id at src: the intent directory's
// (o.Lock, else LockFile in it; none for the embedded lab without
// o.Lock), then the fabric's own in o.StateDir (none for the embedded
// lab), which every checkout of the fabric shares. takeStale takes over
// a lock whose owner no longer runs on this host, as o.ForceUnlock does
// (recover does: it is what such a run left to do). The release function
// is never nil; it releases what lock took.
func lock(src *plan.Source, id *plan.Identity, o Options, takeStale bool) (func() error, error) {
	var paths []string
	switch {
	case o.Lock != "":
		paths = append(paths, o.Lock)
	case !src.Lab:
		paths = append(paths, filepath.Join(src.Dir, LockFile))
	}
	if fp := FabricLock(o.StateDir, id); fp != "" && !src.Lab {
		if err := os.MkdirAll(filepath.Dir(fp), 0o700); err != nil {
			return nil, fmt.Errorf("lock: %w", err)
		}
		paths = append(paths, fp)
	}
	var held []*rollout.Lock
	release := func() error {
		var errs []error
		for i := len(held) - 1; i >= 0; i-- {
			errs = append(errs, held[i].Release())
		}
		return errors.Join(errs...)
	}
	host, _ := os.Hostname()
	for _, path := range paths {
		if o.ForceUnlock {
			was, err := rollout.ForceUnlock(path)
			switch {
			case err == nil:
				if o.Unlocked != nil {
					o.Unlocked(path, was)
				}
			case errors.Is(err, os.ErrNotExist):
			default:
				if rerr := release(); rerr != nil {
					return nil, errors.Join(err, rerr)
				}
				return nil, err
			}
		}
		info := rollout.LockInfo{Owner: o.Operator, Host: host, PID: os.Getpid(), Start: o.Now.Now().UTC()}
		l, err := rollout.Acquire(path, info)
		if le, ok := errors.AsType[*rollout.LockedError](err); ok && le.Stale && takeStale {
			was, ferr := rollout.ForceUnlock(path)
			if ferr != nil {
				return nil, errors.Join(ferr, release())
			}
			if o.Unlocked != nil {
				o.Unlocked(path, was)
			}
			l, err = rollout.Acquire(path, info)
		}
		if err != nil {
			if rerr := release(); rerr != nil {
				return nil, errors.Join(err, rerr)
			}
			return nil, err
		}
		held = append(held, l)
	}
	return release, nil
}

// sameFabric refuses a saved plan (not a resumed rollout's) made for
// another fabric, from another intent or by another lossless, and a
// resumed rollout of another fabric.
func sameFabric(in Input, saved *plan.Plan, fl *Fleet, version string) error {
	if saved == nil {
		return nil
	}
	if in.Resume != "" {
		if saved.Fabric == nil || fl.Identity == nil {
			return nil // a state of an older lossless: its plan's fingerprints still hold
		}
		if why := fl.Identity.OtherFabric(saved.Fabric, planned(saved)); why != "" {
			return fmt.Errorf("apply -resume %s: refused: %s; nothing was changed", in.Resume, why)
		}
		return nil
	}
	refuse := func(why string) error {
		return fmt.Errorf("apply %s: refused: %s; nothing was changed (run plan again)", in.PlanFile, why)
	}
	switch {
	case saved.Fabric == nil:
		return refuse("the plan does not say which fabric it was made for (a plan of an older lossless)")
	case fl.Identity == nil:
		return refuse("the fabric loaded has no identity to check the plan against")
	case saved.Version != version:
		return refuse(fmt.Sprintf("it was made by lossless %s, this is lossless %s", orUnknown(saved.Version), orUnknown(version)))
	}
	if why := fl.Identity.OtherFabric(saved.Fabric, planned(saved)); why != "" {
		return refuse(why)
	}
	if saved.Fabric.Intent != fl.Identity.Intent {
		return refuse(fmt.Sprintf("the intent changed since the plan was made (intent hash %.12s in the plan, %.12s now)", saved.Fabric.Intent, fl.Identity.Intent))
	}
	return nil
}

func orUnknown(v string) string {
	if v == "" {
		return "(unknown version)"
	}
	return v
}

// planned returns the names of p's devices.
func planned(p *plan.Plan) []string {
	out := make([]string, len(p.Devices))
	for i, d := range p.Devices {
		out[i] = d.Device
	}
	return out
}

// notInFlight refuses to go on while the fabric of src has devices an
// earlier apply left in flight, except those of the rollout resumed from
// the state file resume (its run takes them forward first).
func notInFlight(src *plan.Source, id *plan.Identity, resume string, o Options) error {
	found, err := FindInterrupted(o.StateDir, src, id)
	if err != nil {
		return err
	}
	if resume != "" {
		if abs, err := filepath.Abs(resume); err == nil {
			resume = abs
		}
	}
	var left []Interrupted
	for _, d := range found {
		if d.State != resume {
			left = append(left, d)
		}
	}
	if len(left) > 0 {
		return &InterruptedError{Devices: left}
	}
	return nil
}

// reviewed refuses a saved plan, whole, when a device's change computed
// now from the intent and the running config the plan fingerprinted is
// not the saved one (a device whose running config changed since is
// refused alone, later, as stale). It names every such device and what
// differs.
func reviewed(ctx context.Context, file string, devs []plan.Device, saved *plan.Plan, o plan.Options) error {
	fresh, err := plan.Make(ctx, devs, o)
	if err != nil {
		return err
	}
	byName := map[string]*plan.DevicePlan{}
	for i := range saved.Devices {
		byName[saved.Devices[i].Device] = &saved.Devices[i]
	}
	var bad []string
	for _, f := range fresh.Devices {
		s := byName[f.Device]
		if f.Err != nil || s == nil || s.Change == nil || f.Fingerprint != s.Fingerprint {
			continue // reported by the apply of that device
		}
		if why := plan.ChangeDiff(s.Change, f.Change); why != "" {
			bad = append(bad, f.Device+": "+why)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("apply %s: refused: %w, so the plan is not applied at all:\n  %s\nnothing was changed (run plan again, and review it)", file, plan.ErrNotReviewed, strings.Join(bad, "\n  "))
	}
	return nil
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

// atOnce applies p's changes to devs at once (plan.Apply), with the
// write-ahead record of each device in the state file in the intent
// directory (none for the embedded lab). A nil Report means nothing was
// started.
func atOnce(ctx context.Context, devs []plan.Device, p *plan.Plan, fo plan.Options, o Options, src *plan.Source, id *plan.Identity) (*Report, error) {
	rep := &Report{Plan: p}
	var rec *rollout.Recorder
	var st *rollout.State
	if !src.Lab {
		rep.State = filepath.Join(src.Dir, StateFile)
		st = &rollout.State{FormatVersion: rollout.StateVersion, PlanHash: rollout.Hash(p), Plan: p}
		rec = rollout.NewRecorder(st, rep.State, nil, o.Operator, o.Now)
		if err := rec.Save(); err != nil {
			return nil, fmt.Errorf("apply: %w: nothing was changed", err)
		}
		if err := pointState(o.StateDir, id, rep.State); err != nil {
			return nil, fmt.Errorf("apply: %w: nothing was changed", err)
		}
		fo.Journal = rec.Batch(0, nil)
	}
	rs, ferr := plan.Apply(ctx, devs, p, fo)
	rep.Results, rep.FailFast = rs, ferr
	if rec == nil {
		return rep, nil
	}
	if ferr != nil {
		st.Stopped = "stopped (-fail-fast): " + ferr.Error()
	}
	return rep, rec.Save()
}

// stage rolls st out to devs with the audit log and state file of s. A
// nil Report means nothing was started.
func stage(ctx context.Context, devs []plan.Device, st *rollout.State, s Staging, fo plan.Options, o Options, src *plan.Source, resume string, id *plan.Identity) (*Report, error) {
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
	if !src.Lab {
		if err := pointState(o.StateDir, id, statePath); err != nil {
			return nil, fmt.Errorf("apply: %w: nothing was changed", err)
		}
	}
	rr, err := rollout.Run(ctx, devs, st, rollout.Options{Staging: st.Staging, Plan: fo, Now: o.Now, Sleep: o.Sleep,
		Audit: al, Operator: o.Operator, StatePath: statePath})
	if rr == nil {
		return nil, err
	}
	return &Report{Plan: st.Plan, Results: rr.Results, Rollout: rr, State: statePath, Recovered: rr.Recovered}, err
}
