package apply_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lossless-net/lossless/internal/apply"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
	"github.com/lossless-net/lossless/vendors"
)

// hookedVendor is fake's devices behind a driver that runs the test's
// hook before each apply and saves restore points (vendors.Reverter) in
// memory.
const hookedVendor = "fake-apply-hooked"

var hooked = struct {
	mu     sync.Mutex
	before func(device string)
	marks  map[string]string // mark → running text
	n      int
}{marks: map[string]string{}}

func init() {
	m, ok := vendors.Lookup(fake.Name())
	if !ok {
		panic("apply test: fake vendor not registered")
	}
	vendors.Register(vendors.Vendor{Name: hookedVendor, Scope: m.Scope, Render: m.Render,
		Dial: func(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
			drv, err := m.Dial(ctx, t)
			if err != nil {
				return nil, err
			}
			return &hookedDriver{Driver: drv, name: t.Device}, nil
		}})
}

// setHook sets the hook run before each apply (nil: none) until the test
// ends.
func setHook(t *testing.T, f func(device string)) {
	hooked.mu.Lock()
	hooked.before = f
	hooked.mu.Unlock()
	t.Cleanup(func() {
		hooked.mu.Lock()
		hooked.before = nil
		hooked.mu.Unlock()
	})
}

type hookedDriver struct {
	vendors.Driver
	name string
}

func (h *hookedDriver) Apply(ctx context.Context, c *vendors.Change, o vendors.ApplyOptions) vendors.Result {
	hooked.mu.Lock()
	f := hooked.before
	hooked.mu.Unlock()
	if f != nil {
		f(h.name)
	}
	return h.Driver.Apply(ctx, c, o)
}

func (h *hookedDriver) Mark(context.Context) (string, error) {
	hooked.mu.Lock()
	defer hooked.mu.Unlock()
	hooked.n++
	mark := fmt.Sprintf("mark-%s-%d", h.name, hooked.n)
	hooked.marks[mark] = fake.Running(h.name)
	return mark, nil
}

func (h *hookedDriver) Revert(_ context.Context, mark string) error {
	hooked.mu.Lock()
	defer hooked.mu.Unlock()
	text, ok := hooked.marks[mark]
	if !ok {
		return fmt.Errorf("no mark %s", mark)
	}
	fake.SetRunning(h.name, text)
	delete(hooked.marks, mark)
	return nil
}

func (h *hookedDriver) Forget(_ context.Context, mark string) error {
	hooked.mu.Lock()
	defer hooked.mu.Unlock()
	delete(hooked.marks, mark)
	return nil
}

// marksOf returns the restore points kept for device.
func marksOf(device string) []string {
	hooked.mu.Lock()
	defer hooked.mu.Unlock()
	var out []string
	for m := range hooked.marks {
		if strings.HasPrefix(m, "mark-"+device+"-") {
			out = append(out, m)
		}
	}
	return out
}

// loadWith is load with the fleet options po.
func loadWith(devs []plan.Device, po plan.Options) func(*plan.Source) (*apply.Fleet, error) {
	return func(src *plan.Source) (*apply.Fleet, error) {
		fl, err := load(devs)(src)
		if fl != nil {
			fl.Options = po
		}
		return fl, err
	}
}

// hookedFleet is fleet's with the devices behind hookedVendor.
func hookedFleet(t *testing.T, names ...string) (*plan.Source, []plan.Device) {
	src, devs := fleet(t, "rollout {}\n", names...)
	for _, d := range devs {
		d.Intent.Vendor = hookedVendor
	}
	return src, devs
}

// savedPlan plans devs, saves the plan for src and returns its path.
func savedPlan(t *testing.T, src *plan.Source, devs []plan.Device, version string) string {
	t.Helper()
	p, err := plan.Make(t.Context(), devs, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Source, p.Fabric, p.Version = src, identity(devs), version
	path := filepath.Join(t.TempDir(), "x.plan")
	if err := plan.Save(path, p); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunTamperedPlan: a plan file whose commands were edited after the
// review (issue 12: `interface Ethernet1/36` / `mtu 576` appended) is
// refused whole, naming the device and the command, and no device
// changes, not even those whose part is intact.
func TestRunTamperedPlan(t *testing.T) {
	src, devs := fleet(t, "rollout {}\n", "a1", "b2")
	path := savedPlan(t, src, devs, "v1")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ch := doc["devices"].([]any)[1].(map[string]any)["change"].(map[string]any)
	ch["commands"] = append(ch["commands"].([]any), "interface Ethernet1/36", "mtu 576")
	b, _ = json.Marshal(doc)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := apply.Run(t.Context(), apply.Input{PlanFile: path}, apply.Options{Load: load(devs), Version: "v1", StateDir: t.TempDir()})
	want := `b2: command 2: the plan has "interface Ethernet1/36", now none`
	if rep != nil || !errors.Is(err, plan.ErrNotReviewed) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("tampered plan: %+v, %v\nwant the refusal naming %s", rep, err, want)
	}
	if running("a1") != "old-a1" || running("b2") != "old-b2" {
		t.Errorf("a device changed from a tampered plan: a1 %q, b2 %q", running("a1"), running("b2"))
	}
}

// TestRunOtherFabric: a saved plan is refused, before anything is read
// from a device, when the fabric loaded is not the one it was made for
// (a device at another address), when the intent changed since, when
// another lossless made it, and when it records no fabric at all.
func TestRunOtherFabric(t *testing.T) {
	src, devs := fleet(t, "rollout {}\n", "a1", "b2")
	for _, tc := range []struct {
		name    string
		fabric  func(id *plan.Identity) *plan.Identity
		version string
		want    string
	}{
		{name: "another fabric", fabric: func(id *plan.Identity) *plan.Identity {
			id.Addresses["b2"] = "10.1.1.2:22"
			return id
		}, version: "v1", want: "it was made for another fabric: b2 is at 10.1.1.2:22 in the plan, at memory/b2 in this inventory"},
		{name: "another intent", fabric: func(id *plan.Identity) *plan.Identity {
			id.Intent = "edited"
			return id
		}, version: "v1", want: "the intent changed since the plan was made"},
		{name: "another lossless", fabric: func(id *plan.Identity) *plan.Identity { return id }, version: "v0", want: "it was made by lossless v0, this is lossless v1"},
		{name: "no fabric", fabric: func(*plan.Identity) *plan.Identity { return nil }, version: "v1", want: "the plan does not say which fabric it was made for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := plan.Make(t.Context(), devs, plan.Options{})
			if err != nil {
				t.Fatal(err)
			}
			p.Source, p.Fabric, p.Version = src, tc.fabric(identity(devs)), tc.version
			path := filepath.Join(t.TempDir(), "x.plan")
			if err := plan.Save(path, p); err != nil {
				t.Fatal(err)
			}
			rep, err := apply.Run(t.Context(), apply.Input{PlanFile: path}, apply.Options{Load: load(devs), Version: "v1", StateDir: t.TempDir()})
			if rep != nil || err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "refused") {
				t.Fatalf("%+v, %v\nwant a refusal saying %q", rep, err, tc.want)
			}
			if running("a1") != "old-a1" || running("b2") != "old-b2" {
				t.Error("a device changed")
			}
		})
	}
}

// TestRunTwoCheckouts: two checkouts of one fabric (two intent
// directories, each with its own directory lock) cannot apply at once:
// while the first holds the fabric lock (waiting for approval), the
// second is refused with the first one's owner, and nothing of it
// reaches a device; once the first is done the second runs.
func TestRunTwoCheckouts(t *testing.T) {
	first, devs := fleet(t, "rollout {}\n", "a1", "b2")
	second, _ := fleet(t, "rollout {}\n")
	state := t.TempDir()
	var secondErr error
	var secondRep *apply.Report
	rep, err := apply.Run(t.Context(), apply.Input{Source: first}, apply.Options{Load: load(devs), Operator: "alice", StateDir: state,
		Approve: func(ctx context.Context, _ apply.Summary) (bool, error) {
			// The first apply holds its locks and waits for "yes": the
			// second checkout's apply runs now.
			secondRep, secondErr = apply.Run(ctx, apply.Input{Source: second}, apply.Options{Load: load(devs), Operator: "bob", StateDir: state, Approve: apply.AutoApprove})
			return true, nil
		}})
	if err != nil || !rep.OK() || running("a1") != "want-a1" {
		t.Fatalf("first checkout: %+v, %v", rep, err)
	}
	var le *rollout.LockedError
	if secondRep != nil || !errors.As(secondErr, &le) || le.Path != apply.FabricLock(state, identity(devs)) || !strings.Contains(secondErr.Error(), "locked by alice on ") {
		t.Fatalf("second checkout while the first applies: %+v, %v; want the fabric lock held by alice", secondRep, secondErr)
	}
	// The first one is done: the second finds nothing left to change.
	rep, err = apply.Run(t.Context(), apply.Input{Source: second}, apply.Options{Load: load(devs), Operator: "bob", StateDir: state, Approve: apply.AutoApprove})
	if err != nil || !rep.Empty {
		t.Fatalf("second checkout after the first: %+v, %v", rep, err)
	}
}

// TestRunWriteAhead: a plain apply records each device's start in the
// state file, synced, before the change reaches the device (with the
// fingerprint of the running config and the restore point saved), and
// its result before the apply moves on. A copy of the state file taken
// at any moment (here: as the third device's change is about to be sent,
// as a SIGKILL would leave it) resumes without refusing the devices
// applied before and takes the device in flight forward.
func TestRunWriteAhead(t *testing.T) {
	src, devs := hookedFleet(t, "a1", "b2", "c3")
	statePath := filepath.Join(src.Dir, apply.StateFile)
	killed := filepath.Join(t.TempDir(), "killed.json")
	var seen []string
	setHook(t, func(device string) {
		st, err := rollout.ReadState(statePath)
		if err != nil {
			t.Errorf("state before %s's change: %v", device, err)
			return
		}
		s := st.Started[device]
		seen = append(seen, fmt.Sprintf("%s %s fingerprint=%v mark=%v; before it: %v", device, st.Devices[device],
			s.Fingerprint == plan.Fingerprint([]byte("old-"+device)), s.Mark != "", st.Devices))
		if device == "c3" {
			b, _ := os.ReadFile(statePath)
			if err := os.WriteFile(killed, b, 0o600); err != nil {
				t.Error(err)
			}
		}
	})
	o := apply.Options{Load: loadWith(devs, plan.Options{Parallelism: 1}), Approve: apply.AutoApprove, StateDir: t.TempDir()}
	rep, err := apply.Run(t.Context(), apply.Input{Source: src}, o)
	if err != nil || !rep.OK() || rep.State != statePath {
		t.Fatalf("apply: %+v, %v", rep, err)
	}
	want := []string{
		"a1 started fingerprint=true mark=true; before it: map[a1:started]",
		"b2 started fingerprint=true mark=true; before it: map[a1:applied b2:started]",
		"c3 started fingerprint=true mark=true; before it: map[a1:applied b2:applied c3:started]",
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("state as each change was sent:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	for _, d := range []string{"a1", "b2", "c3"} {
		if m := marksOf(d); len(m) != 0 {
			t.Errorf("%s: restore points left behind: %v", d, m)
		}
	}
	// Killed as c3's change was about to be sent: c3 never got it.
	fake.SetRunning("c3", "old-c3")
	setHook(t, nil)
	rep, err = apply.Run(t.Context(), apply.Input{Resume: killed}, apply.Options{Load: load(devs), StateDir: o.StateDir})
	if err != nil || !rep.OK() || len(rep.Results) != 1 || rep.Results[0].Device != "c3" || !rep.Results[0].Applied {
		t.Fatalf("resume of the killed apply: %+v, %v; want only c3, applied", rep, err)
	}
	if len(rep.Recovered) != 1 || rep.Recovered[0].Found != rollout.FoundUntouched {
		t.Errorf("recovered: %+v", rep.Recovered)
	}
	st, err := rollout.ReadState(killed)
	if err != nil || !st.Done("a1") || !st.Done("b2") || !st.Done("c3") {
		t.Errorf("state after the resume: %v %+v", err, st)
	}
}

// TestRunInterrupted: while an apply that died left a device in flight,
// plan-and-apply refuses to start, naming the device and the commands
// that recover it; recover takes it back to its restore point (or
// forward to the plan), after which apply runs again.
func TestRunInterrupted(t *testing.T) {
	for _, tc := range []struct {
		name    string
		forward bool
		found   string // what c3 runs when recovered
		running string // c3's running text at the kill
		want    string // c3 after the recovery
		action  string
	}{
		{name: "back from part of the change", running: "half-c3", found: rollout.FoundPartly, want: "old-c3", action: "put back to mark-c3-"},
		{name: "back when untouched", running: "old-c3", found: rollout.FoundUntouched, want: "old-c3", action: "nothing to undo"},
		{name: "forward from part of the change", forward: true, running: "half-c3", found: rollout.FoundPartly, want: "want-c3", action: "then applied the plan's change"},
		{name: "forward when all there", forward: true, running: "want-c3", found: rollout.FoundApplied, want: "want-c3", action: "none: the change is all there"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, devs := hookedFleet(t, "a1", "b2", "c3")
			statePath := filepath.Join(src.Dir, apply.StateFile)
			var kept []byte
			setHook(t, func(device string) {
				if device == "c3" {
					kept, _ = os.ReadFile(statePath)
				}
			})
			o := apply.Options{Load: loadWith(devs, plan.Options{Parallelism: 1}), Approve: apply.AutoApprove, StateDir: t.TempDir()}
			if rep, err := apply.Run(t.Context(), apply.Input{Source: src}, o); err != nil || !rep.OK() {
				t.Fatalf("apply: %+v, %v", rep, err)
			}
			setHook(t, nil)
			// As a SIGKILL while c3's change was being sent would leave it.
			if err := os.WriteFile(statePath, kept, 0o600); err != nil {
				t.Fatal(err)
			}
			fake.SetRunning("c3", tc.running)
			fake.SetRunning("a1", "old-a1") // a change to apply next
			marks := marksOf("c3")
			if len(marks) != 0 {
				t.Fatalf("c3's restore point forgotten after its apply: %v", marks)
			}
			hooked.mu.Lock()
			hooked.marks["mark-c3-kept"] = "old-c3" // the restore point the kill left
			hooked.mu.Unlock()
			st, _ := rollout.ReadState(statePath)
			rewriteMark(t, statePath, st.Started["c3"].Mark, "mark-c3-kept")

			rep, err := apply.Run(t.Context(), apply.Input{Source: src}, o)
			var ie *apply.InterruptedError
			if rep != nil || !errors.As(err, &ie) || len(ie.Devices) != 1 || ie.Devices[0].Device != "c3" ||
				!strings.Contains(err.Error(), "lossless recover "+statePath) || !strings.Contains(err.Error(), "lossless apply -resume "+statePath) {
				t.Fatalf("apply with c3 in flight: %+v, %v", rep, err)
			}
			if running("a1") != "old-a1" {
				t.Error("a1 changed while c3 was in flight")
			}
			found, err := apply.FindInterrupted(o.StateDir, src, identity(devs))
			if err != nil || len(found) != 1 || found[0].Start.Fingerprint != plan.Fingerprint([]byte("old-c3")) || found[0].Change == nil || found[0].Live {
				t.Fatalf("FindInterrupted: %v %+v", err, found)
			}

			rr, err := apply.Recover(t.Context(), apply.Input{Source: src}, tc.forward, o)
			if err != nil || !rr.OK() || len(rr.States) != 1 || len(rr.States[0].Devices) != 1 {
				t.Fatalf("recover: %+v, %v", rr, err)
			}
			got := rr.States[0].Devices[0]
			if got.Found != tc.found || !strings.Contains(got.Action, tc.action) || running("c3") != tc.want {
				t.Errorf("recover c3: found %q, action %q, running %q; want %q, %q, %q", got.Found, got.Action, running("c3"), tc.found, tc.action, tc.want)
			}
			if m := marksOf("c3"); len(m) != 0 {
				t.Errorf("restore points left on c3: %v", m)
			}
			rep, err = apply.Run(t.Context(), apply.Input{Source: src}, o)
			if err != nil || !rep.OK() || running("a1") != "want-a1" || running("c3") != "want-c3" {
				t.Fatalf("apply after recover: %+v, %v", rep, err)
			}
		})
	}
}

// rewriteMark replaces the restore point recorded in a state file.
func rewriteMark(t *testing.T, path, from, to string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(b), `"mark":"`+from+`"`, `"mark":"`+to+`"`)), 0o600); err != nil {
		t.Fatal(err)
	}
}
