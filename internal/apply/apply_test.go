package apply_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/apply"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/plan/plantest"
	"github.com/lossless-net/lossless/internal/rollout"
)

// fake's devices live in memory: device D runs fake.Running(D) and
// wants its Options["want"].
var fake = plantest.NewMemory("fake-apply-test")

// fleet makes fake devices named by names, each running "old-NAME" and
// wanting "want-NAME", and an intent directory holding only the rollout
// block (the devices do not come from it).
func fleet(t *testing.T, rolloutBlock string, names ...string) (*plan.Source, []plan.Device) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rollout.hcl"), []byte(rolloutBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	return &plan.Source{Dir: dir}, fake.Devices(names...)
}

func running(name string) string { return fake.Running(name) }

// load returns a loader of devs with the rollout block of the intent
// directory fleet wrote, and the identity identity(devs).
func load(devs []plan.Device) func(*plan.Source) (*apply.Fleet, error) {
	return func(src *plan.Source) (*apply.Fleet, error) {
		fab, diags := intent.Load(src.Dir, nil, nil)
		if diags.HasErrors() {
			return nil, diags
		}
		return &apply.Fleet{Devices: devs, Rollout: fab.Rollout, Identity: identity(devs)}, nil
	}
}

// identity is the fabric identity of fake devices: each at "memory/NAME",
// one intent.
func identity(devs []plan.Device) *plan.Identity {
	id := &plan.Identity{Addresses: map[string]string{}, Intent: "intent"}
	for _, d := range devs {
		id.Addresses[d.Intent.Name] = "memory/" + d.Intent.Name
	}
	return id
}

// TestRunApproval: a fresh plan is shown (Planned), then asked about with
// the devices it changes; "yes" applies it, "no" changes nothing and
// releases the lock, an approver's error stops the apply with it.
func TestRunApproval(t *testing.T) {
	noTerminal := errors.New("not a terminal")
	for _, tc := range []struct {
		name    string
		answer  bool
		err     error
		wantErr error
	}{
		{name: "yes", answer: true},
		{name: "no", wantErr: apply.ErrCancelled},
		{name: "error", err: noTerminal, wantErr: noTerminal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, devs := fleet(t, "rollout {}\n", "a1", "b2")
			var shown *plan.Plan
			var asked []apply.Summary
			rep, err := apply.Run(t.Context(), apply.Input{Source: src}, apply.Options{
				Load:    load(devs),
				Planned: func(p *plan.Plan) { shown = p },
				Approve: func(_ context.Context, s apply.Summary) (bool, error) {
					if shown == nil {
						t.Error("asked before the plan was shown")
					}
					asked = append(asked, s)
					return tc.answer, tc.err
				},
			})
			if len(asked) != 1 || asked[0].Plan != shown || !slices.Equal(asked[0].Devices, []string{"a1", "b2"}) {
				t.Fatalf("asked %+v, want once about a1 and b2 with the plan shown", asked)
			}
			if _, err := os.Stat(filepath.Join(src.Dir, apply.LockFile)); !os.IsNotExist(err) {
				t.Errorf("lock left behind: %v", err)
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || rep != nil {
					t.Fatalf("Run = %+v, %v; want no report and %v", rep, err, tc.wantErr)
				}
				if running("a1") != "old-a1" || running("b2") != "old-b2" {
					t.Error("a device changed without approval")
				}
				return
			}
			if err != nil || !rep.OK() || rep.Summary.String() != "2 to change, 0 unchanged, 0 failed" || rep.Rollout != nil {
				t.Fatalf("Run = %+v, %v", rep, err)
			}
			if running("a1") != "want-a1" || running("b2") != "want-b2" {
				t.Error("devices not applied")
			}
		})
	}
}

// TestRunSavedPlan: a saved plan is applied exactly, without asking; a
// plan with nothing to change asks nothing and changes nothing.
func TestRunSavedPlan(t *testing.T) {
	src, devs := fleet(t, "rollout {}\n", "a1", "b2")
	p, err := plan.Make(t.Context(), devs[:1], plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Source, p.Fabric = src, identity(devs)
	path := filepath.Join(t.TempDir(), "a1.plan")
	if err := plan.Save(path, p); err != nil {
		t.Fatal(err)
	}
	never := func(context.Context, apply.Summary) (bool, error) {
		t.Error("asked to approve")
		return false, nil
	}
	rep, err := apply.Run(t.Context(), apply.Input{PlanFile: path}, apply.Options{Load: load(devs), Approve: never})
	if err != nil || !rep.OK() || len(rep.Results) != 1 || rep.Results[0].Device != "a1" || running("b2") != "old-b2" {
		t.Fatalf("saved plan for a1: %+v, %v", rep, err)
	}
	rep, err = apply.Run(t.Context(), apply.Input{Source: src}, apply.Options{Load: load(devs[:1]), Approve: never})
	if err != nil || !rep.Empty || rep.Summary.Unchanged != 1 {
		t.Fatalf("nothing to apply: %+v, %v", rep, err)
	}
}

// TestRunStagedFromIntent: the intent's rollout block makes a plain
// apply a staged rollout writing its audit log; the state is saved in
// the intent directory.
func TestRunStagedFromIntent(t *testing.T) {
	src, devs := fleet(t, "rollout {\n  audit_log = \"logs/audit.jsonl\"\n}\n", "a1", "b2", "c3")
	rep, err := apply.Run(t.Context(), apply.Input{Source: src}, apply.Options{Load: load(devs), Approve: apply.AutoApprove,
		Staging: apply.Staging{Canary: 1}, Operator: "alice"})
	if err != nil || !rep.OK() || rep.Rollout == nil || len(rep.Rollout.Batches) != 2 {
		t.Fatalf("staged apply: %+v, %v", rep, err)
	}
	if want := filepath.Join(src.Dir, apply.StateFile); rep.State != want {
		t.Errorf("state saved in %q, want %q", rep.State, want)
	}
	if _, err := rollout.ReadState(rep.State); err != nil {
		t.Error(err)
	}
	// Each device's start (the write-ahead record), then its result.
	if b, err := os.ReadFile(filepath.Join(src.Dir, "logs", "audit.jsonl")); err != nil || bytes.Count(b, []byte("\n")) != 6 || bytes.Count(b, []byte(`"result":"started"`)) != 3 {
		t.Errorf("audit log: %v\n%s", err, b)
	}
}

// TestRunClock: the lock's start and every device's duration read the
// injected clock.
func TestRunClock(t *testing.T) {
	src, devs := fleet(t, "rollout {}\n", "a1")
	at := time.Date(2026, 11, 29, 22, 30, 0, 0, time.UTC)
	var held rollout.LockInfo
	rep, err := apply.Run(t.Context(), apply.Input{Source: src}, apply.Options{
		Load: load(devs), Operator: "alice", Now: func() time.Time { return at },
		Approve: func(context.Context, apply.Summary) (bool, error) {
			var err error
			held, err = rollout.ReadLock(filepath.Join(src.Dir, apply.LockFile))
			return err == nil, err
		},
	})
	if err != nil || !rep.OK() {
		t.Fatalf("apply: %+v, %v", rep, err)
	}
	if d := cmp.Diff(rollout.LockInfo{Owner: "alice", Start: at}, rollout.LockInfo{Owner: held.Owner, Start: held.Start}); d != "" {
		t.Errorf("lock (-want +got):\n%s", d)
	}
	if rep.Results[0].Duration != 0 {
		t.Errorf("a1 took %s on a stopped clock", rep.Results[0].Duration)
	}
}
