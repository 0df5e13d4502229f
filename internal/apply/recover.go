package apply

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
)

// Recovered is what Recover did with the devices one state file records
// as left in flight.
type Recovered struct {
	// State is the rollout state file.
	State string
	// Devices are its interrupted devices, in name order.
	Devices []rollout.Recovery
}

// RecoverReport is the outcome of Recover.
type RecoverReport struct {
	// States are the state files that recorded devices left in flight;
	// none when no device was.
	States []Recovered
}

// OK reports whether every interrupted device is now at a known config:
// back at the one from before its change, or at its plan's.
func (r *RecoverReport) OK() bool {
	for _, s := range r.States {
		for _, d := range s.Devices {
			if d.Err != nil {
				return false
			}
		}
	}
	return true
}

// Recover takes the devices an apply left in flight (recorded as started
// with no result, rollout.State.Interrupted) back to the config they had
// before the change, with their driver's restore point, or forward to
// their plan's desired config when forward is set, and records each step
// in the state file and the intent's audit log. in.Resume names the state
// file; else in.Source is the intent whose fabric's state files are
// searched (FindInterrupted). The fabric locks are taken as for Run (o:
// Load, Lock, StateDir, ForceUnlock, Unlocked, Operator, Now, Staging's
// Audit), and a lock its owner left behind on this host (a killed apply's)
// is taken over, Unlocked told. Nothing to recover is an empty report. A nil report comes with
// an error when nothing could be tried.
func Recover(ctx context.Context, in Input, forward bool, o Options) (rep *RecoverReport, err error) {
	if o.Load == nil {
		return nil, errors.New("recover: no loader for the fleet")
	}
	var paths []string
	var fl *Fleet
	var src *plan.Source
	switch {
	case in.Resume != "":
		st, err := rollout.ReadState(in.Resume)
		if err != nil {
			return nil, err
		}
		if src = st.Plan.Source; src == nil {
			return nil, fmt.Errorf("recover: %s does not say which intent it was made from", in.Resume)
		}
		paths = []string{in.Resume}
	case in.Source != nil:
		src = in.Source
	default:
		return nil, errors.New("recover: no intent or rollout state to recover")
	}
	if src.Lab {
		return nil, errors.New("recover: the embedded lab lives only as long as the apply that started it: there is nothing to recover")
	}
	if fl, err = o.Load(src); err != nil {
		return nil, err
	}
	release, err := lock(src, fl.Identity, o, true)
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := release(); rerr != nil {
			err = errors.Join(err, rerr)
		}
	}()
	if paths == nil {
		found, err := FindInterrupted(o.StateDir, src, fl.Identity)
		if err != nil {
			return nil, err
		}
		for _, d := range found {
			paths = appendNew(paths, d.State)
		}
	}
	s := o.Staging.withIntent(fl.Rollout, src)
	var al *audit.Log
	if s.Audit != "" {
		if err := os.MkdirAll(filepath.Dir(s.Audit), 0o750); err != nil {
			return nil, fmt.Errorf("open audit log: %w", err)
		}
		if al, err = audit.Open(s.Audit); err != nil {
			return nil, err
		}
		defer al.Close()
	}
	fo := fl.Options
	if fo.Now == nil {
		fo.Now = o.Now
	}
	rep = &RecoverReport{}
	for _, path := range paths {
		st, err := rollout.ReadState(path)
		if err != nil {
			return rep, err
		}
		if len(st.Interrupted()) == 0 {
			continue
		}
		if st.Plan.Fabric != nil && fl.Identity != nil {
			if why := fl.Identity.OtherFabric(st.Plan.Fabric, st.Interrupted()); why != "" {
				return rep, fmt.Errorf("recover %s: refused: %s", path, why)
			}
		}
		rs, err := rollout.Recover(ctx, fl.Devices, st, forward, rollout.Options{Plan: fo, Now: o.Now, Audit: al, Operator: o.Operator, StatePath: path})
		rep.States = append(rep.States, Recovered{State: path, Devices: rs})
		if err != nil {
			return rep, err
		}
		if missing := len(st.Interrupted()) - countLeft(rs); missing > 0 {
			return rep, fmt.Errorf("recover %s: %d interrupted device(s) are not in the fabric loaded from %s", path, missing, src.Dir)
		}
	}
	return rep, nil
}

// countLeft counts the recoveries that left their device interrupted.
func countLeft(rs []rollout.Recovery) int {
	n := 0
	for _, r := range rs {
		if r.Status == rollout.StatusStarted {
			n++
		}
	}
	return n
}

func appendNew(paths []string, p string) []string {
	for _, q := range paths {
		if q == p {
			return paths
		}
	}
	return append(paths, p)
}
