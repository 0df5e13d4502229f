package rollout_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	_ "github.com/lossless-net/lossless/internal/lab/nxos"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/plan/plantest"
	"github.com/lossless-net/lossless/internal/rollout"
	"github.com/lossless-net/lossless/vendors"
	nxosdrv "github.com/lossless-net/lossless/vendors/nxos"
)

// labFleet starts n NX-OS lab devices seeded with a stale config (so each
// needs a change) and loads the NX-OS intent of cmd/lossless/testdata/plan
// for them; leaves come first by name, then a few spines.
func labFleet(tb testing.TB, n int) ([]plan.Device, map[string]*lab.Node) {
	tb.Helper()
	l, err := lab.New(lab.WithCredentials("ops", "rollout-pw"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = l.Close() })
	canon, err := os.ReadFile("../../vendors/nxos/testdata/canonical.cfg")
	if err != nil {
		tb.Fatal(err)
	}
	seed := nxosdrv.LabSeed(canon)
	dir := tb.TempDir()
	in, err := os.ReadFile("../../cmd/lossless/testdata/plan/intent.hcl")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "intent.hcl"), in, 0o644); err != nil {
		tb.Fatal(err)
	}
	kh := filepath.Join(dir, "known_hosts")
	var inv strings.Builder
	fmt.Fprintf(&inv, "credentials \"lab\" {\n  username_env = \"U\"\n  password_env = \"P\"\n  known_hosts  = %q\n}\n", kh)
	nodes := map[string]*lab.Node{}
	for i := range n {
		name, role := fmt.Sprintf("leaf%03d", i), "leaf"
		if i%50 == 49 {
			name, role = fmt.Sprintf("spine%03d", i), "spine"
		}
		node, err := l.Add("nxos", name, seed)
		if err != nil {
			tb.Fatal(err)
		}
		nodes[name] = node
		fmt.Fprintf(&inv, "device %q {\n  vendor = \"nxos\"\n  platform = \"N9K-C93600CD-GX\"\n  roles = [%q]\n  address = \"127.0.0.1\"\n  port = %d\n  credentials = credentials.lab\n  ports \"Ethernet1/1-2\" {\n    speed = \"100G\"\n    cable = \"5m\"\n  }\n}\n", name, role, node.Port())
	}
	if err := l.WriteKnownHosts(kh); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte(inv.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	env := map[string]string{"U": "ops", "P": "rollout-pw"}
	devs := plantest.Load(tb, dir, env)
	return devs, nodes
}

func newState(tb testing.TB, devs []plan.Device) *rollout.State {
	tb.Helper()
	p, err := plan.Make(tb.Context(), devs, plan.Options{Parallelism: 50})
	if err != nil || p.Counts().Change != len(devs) {
		tb.Fatalf("plan: %v %s", err, p.Counts())
	}
	return &rollout.State{FormatVersion: rollout.StateVersion, PlanHash: rollout.Hash(p), Plan: p}
}

// running reads a device's scoped running config through its driver.
func running(tb testing.TB, d plan.Device) []byte {
	tb.Helper()
	v, _ := vendors.Lookup(d.Intent.Vendor)
	drv, err := v.Dial(tb.Context(), d.Target)
	if err != nil {
		tb.Fatal(err)
	}
	defer drv.Close()
	b, err := drv.Running(tb.Context())
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestGateHaltsAndRestores is issue 7's first done-when: 200 devices,
// -canary 1 -batch 10%, one device of the third 10% batch climbing after
// its change: the rollout halts after that batch, puts the batch back
// byte for byte, leaves the canary and the first two batches applied, and
// says why.
func TestGateHaltsAndRestores(t *testing.T) {
	devs, nodes := labFleet(t, 200)
	st := newState(t, devs)
	ordered := rollout.Order(devs, []string{"role:leaf"})
	batches := rollout.Split(ordered, 1, rollout.Size{Percent: 10})
	if len(batches) != 11 || len(batches[0]) != 1 || len(batches[1]) != 20 {
		t.Fatalf("batches: %d, sizes %d, %d", len(batches), len(batches[0]), len(batches[1]))
	}
	bad := batches[3][7]
	nodes[bad.Intent.Name].Faults().Update(func(f *device.Faults) { f.ClimbAfterChange = true })
	before := map[string][]byte{}
	for _, d := range batches[3] {
		before[d.Intent.Name] = running(t, d)
	}
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	al, err := audit.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer al.Close()
	rep, err := rollout.Run(t.Context(), devs, st, rollout.Options{
		Staging: rollout.Staging{Canary: 1, Batch: rollout.Size{Percent: 10}, Order: []string{"role:leaf"},
			Gate: &rollout.Gate{MaxPausePerSec: 1000}},
		Plan: plan.Options{Parallelism: 20}, Audit: al, Operator: "ops",
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Batches) != 4 {
		t.Fatalf("%d batches ran, want 4 (canary + 3); stopped: %s", len(rep.Batches), rep.Stopped)
	}
	if !strings.Contains(rep.Stopped, "health gate tripped after batch 3") || !strings.Contains(rep.Stopped, bad.Intent.Name+" Ethernet1/1") || !strings.Contains(rep.Stopped, "PFC pause frames") {
		t.Errorf("Stopped = %q, want the gate, the device and the counter", rep.Stopped)
	}
	if got := len(rep.Batches[3].Restored); got != 20 {
		t.Errorf("%d devices restored, want the whole batch (20)", got)
	}
	for _, d := range batches[3] {
		if got := running(t, d); !bytes.Equal(got, before[d.Intent.Name]) {
			t.Errorf("%s not back to its config before the batch", d.Intent.Name)
		}
		if s := st.Devices[d.Intent.Name]; s != rollout.StatusRestored {
			t.Errorf("%s status %q, want restored", d.Intent.Name, s)
		}
	}
	for _, b := range batches[:3] {
		for _, d := range b {
			if !st.Done(d.Intent.Name) {
				t.Errorf("%s of an earlier batch is %q, want applied", d.Intent.Name, st.Devices[d.Intent.Name])
			}
		}
	}
	for _, b := range batches[4:] {
		for _, d := range b {
			if _, ok := st.Devices[d.Intent.Name]; ok {
				t.Errorf("%s of a later batch was started", d.Intent.Name)
			}
		}
	}
	if len(rep.NotStarted) != 200-61 {
		t.Errorf("%d not started, want %d", len(rep.NotStarted), 200-61)
	}
	es, err := audit.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var rollbacks, started int
	for _, e := range es {
		if e.Step == audit.StepRollback && e.Result == rollout.StatusRestored && e.Batch == 3 {
			rollbacks++
		}
		if e.Result == audit.ResultStarted {
			started++
		}
	}
	// Each of the 61 devices changed is recorded as started before its
	// first command, then with its result.
	if len(es) != 2*61+20 || rollbacks != 20 || started != 61 {
		t.Errorf("audit: %d entries (want 142), %d restores (want 20), %d started (want 61)", len(es), rollbacks, started)
	}
}

// TestInterruptAndResume is the second done-when: Ctrl-C in the middle of
// a batch leaves no device mid-change, the state names what is left, a
// resume (fingerprints re-checked) completes the rollout, and the audit
// log has every device's apply once (its start, then its result).
func TestInterruptAndResume(t *testing.T) {
	devs, _ := labFleet(t, 30)
	st := newState(t, devs)
	dir := t.TempDir()
	statePath, logPath := filepath.Join(dir, "state.json"), filepath.Join(dir, "audit.jsonl")
	al, err := audit.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer al.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// Ctrl-C when the 6th device (inside the first 10-device batch)
	// starts; progress runs on the devices' goroutines.
	var mu sync.Mutex
	started := 0
	o := rollout.Options{
		Staging: rollout.Staging{Canary: 1, Batch: rollout.Size{N: 10}},
		Audit:   al, Operator: "ops", StatePath: statePath,
		Plan: plan.Options{Parallelism: 4, Progress: func(dev, state string) {
			if state != "started" {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if started++; started == 6 {
				cancel()
			}
		}},
	}
	rep, err := rollout.Run(ctx, devs, st, o)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted || len(rep.NotStarted) == 0 {
		t.Fatalf("interrupted=%v, %d not started; stopped %q", rep.Interrupted, len(rep.NotStarted), rep.Stopped)
	}
	for _, r := range rep.Results {
		if r.Err != nil || !r.Applied {
			t.Errorf("%s in flight at Ctrl-C: applied=%v err=%v, want finished", r.Device, r.Applied, r.Err)
		}
	}
	saved, err := rollout.ReadState(statePath)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Devices) != len(rep.Results) || saved.Stopped == "" {
		t.Fatalf("state has %d devices (want %d) and stopped %q", len(saved.Devices), len(rep.Results), saved.Stopped)
	}
	// Resume from the file with the same devices.
	o.Plan.Progress = nil
	rep2, err := rollout.Run(t.Context(), devs, saved, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Stopped != "" || len(rep2.Results)+len(rep.Results) != 30 {
		t.Fatalf("resume: stopped %q, %d + %d devices", rep2.Stopped, len(rep.Results), len(rep2.Results))
	}
	for _, r := range rep2.Results {
		if r.Err != nil {
			t.Errorf("resume %s: %v", r.Device, r.Err)
		}
	}
	es, err := audit.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string][]string{}
	for _, e := range es {
		seen[e.Device] = append(seen[e.Device], e.Result)
	}
	for _, d := range devs {
		if got := strings.Join(seen[d.Intent.Name], ", "); got != "started, applied" {
			t.Errorf("audit of %s: %s, want started, applied", d.Intent.Name, got)
		}
	}
	// Everything is applied: a new plan changes nothing.
	p, err := plan.Make(t.Context(), devs, plan.Options{Parallelism: 30})
	if err != nil || p.Counts().Change != 0 {
		t.Errorf("plan after resume: %v %s", err, p.Counts())
	}
}

// TestResumeRefusesChangedDevice: a device changed behind the rollout's
// back fails its fingerprint check on resume and is not touched.
func TestResumeRefusesChangedDevice(t *testing.T) {
	devs, nodes := labFleet(t, 3)
	st := newState(t, devs)
	// Someone edits leaf002 after the plan.
	s := nodes["leaf002"].Device().NewSession("ops", nil)
	for _, l := range []string{"configure terminal", "class-map type qos match-any EXTRA", "match dscp 12", "end"} {
		s.Handle(l)
	}
	rep, err := rollout.Run(t.Context(), devs, st, rollout.Options{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if (r.Device == "leaf002") != (r.Err != nil) {
			t.Errorf("%s: err %v", r.Device, r.Err)
		}
	}
	if st.Devices["leaf002"] != rollout.StatusFailed {
		t.Errorf("leaf002 status %q", st.Devices["leaf002"])
	}
}

// TestWindow: a rollout outside its window changes nothing; one whose
// window closes during the pause between batches stops before the next.
func TestWindow(t *testing.T) {
	devs, _ := labFleet(t, 5)
	st := newState(t, devs)
	clock := time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)
	o := rollout.Options{
		Staging: rollout.Staging{Canary: 1, Batch: rollout.Size{N: 2}, Pause: time.Hour, Window: "22:00-01:00,UTC"},
		Now:     func() time.Time { return clock },
		Sleep: func(_ context.Context, d time.Duration) error {
			clock = clock.Add(d * 3) // the pause runs past 01:00
			return nil
		},
	}
	outside := o
	outside.Now = func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }
	if _, err := rollout.Run(t.Context(), devs, st, outside); !errors.Is(err, rollout.ErrOutsideWindow) || !strings.Contains(err.Error(), "12:00 UTC") {
		t.Fatalf("outside the window: %v", err)
	}
	if len(st.Devices) != 0 {
		t.Fatalf("outside the window, devices started: %v", st.Devices)
	}
	rep, err := rollout.Run(t.Context(), devs, st, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Batches) != 1 || len(st.Devices) != 1 || !strings.Contains(rep.Stopped, "window 22:00-01:00,UTC closed (now 02:00 UTC)") {
		t.Errorf("%d batches, %d devices, stopped %q", len(rep.Batches), len(st.Devices), rep.Stopped)
	}
	if len(rep.NotStarted) != 4 {
		t.Errorf("not started: %v", rep.NotStarted)
	}
}

// TestMaxFailures: the rollout halts after the batch in which the second
// device failed (each failed device rolled back by its driver).
func TestMaxFailures(t *testing.T) {
	devs, nodes := labFleet(t, 8)
	st := newState(t, devs)
	for _, n := range []string{"leaf002", "leaf003"} {
		nodes[n].Faults().Update(func(f *device.Faults) { f.RejectPattern = "^random-detect" })
	}
	rep, err := rollout.Run(t.Context(), devs, st, rollout.Options{Staging: rollout.Staging{Batch: rollout.Size{N: 4}, MaxFailures: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Batches) != 1 || !strings.Contains(rep.Stopped, "2 device(s) failed (-max-failures 2)") || len(rep.NotStarted) != 4 {
		t.Errorf("%d batches, stopped %q, not started %v", len(rep.Batches), rep.Stopped, rep.NotStarted)
	}
	if st.Devices["leaf002"] != rollout.StatusRolledBack {
		t.Errorf("leaf002: %q", st.Devices["leaf002"])
	}
}

// TestInterruptDuringPause: Ctrl-C while waiting between batches stops
// the rollout before the next batch starts, and says so.
func TestInterruptDuringPause(t *testing.T) {
	devs, _ := labFleet(t, 4)
	st := newState(t, devs)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	rep, err := rollout.Run(ctx, devs, st, rollout.Options{
		Staging: rollout.Staging{Canary: 1, Batch: rollout.Size{N: 3}, Pause: time.Minute},
		Sleep: func(ctx context.Context, _ time.Duration) error {
			cancel()
			<-ctx.Done()
			return ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted || rep.Stopped != "interrupted between batches" || len(st.Devices) != 1 || len(rep.NotStarted) != 3 {
		t.Errorf("interrupted=%v stopped=%q devices=%v not started=%v", rep.Interrupted, rep.Stopped, st.Devices, rep.NotStarted)
	}
}

// TestBatchThatCannotStart: a device that refuses the restore point a
// gated batch saves first (a switch holding its 10 user checkpoints,
// all the operator's) stops the rollout before the batch changes
// anything, and the rollout says that — not that a health gate tripped.
func TestBatchThatCannotStart(t *testing.T) {
	devs, nodes := labFleet(t, 4)
	st := newState(t, devs)
	op := nodes["leaf002"].Device().NewSession("ops", nil)
	for i := range 10 {
		if out, _ := op.Handle(fmt.Sprintf("checkpoint operator%d", i)); out != "Done\n" {
			t.Fatalf("checkpoint operator%d: %q", i, out)
		}
	}
	before := map[string][]byte{}
	for _, d := range devs {
		before[d.Intent.Name] = running(t, d)
	}
	rep, err := rollout.Run(t.Context(), devs, st, rollout.Options{
		Staging: rollout.Staging{Batch: rollout.Size{N: 4}, Gate: &rollout.Gate{MaxPausePerSec: 1000}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Batches) != 1 || rep.Batches[0].NotStarted == "" || len(rep.Batches[0].Trips) != 0 {
		t.Fatalf("batches %+v, want one that did not start and no trip", rep.Batches)
	}
	if !strings.Contains(rep.Stopped, "batch 1 could not start, nothing was changed") || !strings.Contains(rep.Stopped, "leaf002: save a restore point before the batch") || strings.Contains(rep.Stopped, "health gate") {
		t.Errorf("Stopped = %q", rep.Stopped)
	}
	if len(rep.NotStarted) != 4 || len(rep.Results) != 0 {
		t.Errorf("not started %v, results %d; want all 4 left for a resume", rep.NotStarted, len(rep.Results))
	}
	for _, d := range devs {
		if !bytes.Equal(running(t, d), before[d.Intent.Name]) {
			t.Errorf("%s changed", d.Intent.Name)
		}
	}
}
