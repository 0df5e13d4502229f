package huaweice

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	labhuawei "github.com/lossless-net/lossless/internal/lab/huaweice"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

var _ vendors.DeviceLocker = (*Driver)(nil)

// manualTimers stands in for time.AfterFunc on a lab device
// (labhuawei.Device.SetAfterFunc): its timers run out when the test says.
type manualTimers struct {
	mu     sync.Mutex
	timers []*manualTimer
}

type manualTimer struct {
	f       func()
	stopped bool
}

func (m *manualTimer) Stop() bool { m.stopped = true; return true }

func (m *manualTimers) afterFunc(_ time.Duration, f func()) labhuawei.Timer {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &manualTimer{f: f}
	m.timers = append(m.timers, t)
	return t
}

// runOut runs out every timer still running: the trials revert, idle
// locks end.
func (m *manualTimers) runOut() {
	m.mu.Lock()
	ts := append([]*manualTimer(nil), m.timers...)
	m.mu.Unlock()
	for _, t := range ts {
		if !t.stopped {
			t.f()
		}
	}
}

// withManualTimers makes the lab device's timers the test's.
func withManualTimers(t *testing.T, n *lab.Node) *manualTimers {
	t.Helper()
	d, ok := n.Device().(*labhuawei.Device)
	if !ok {
		t.Fatalf("lab device is a %T", n.Device())
	}
	m := &manualTimers{}
	d.SetAfterFunc(m.afterFunc)
	return m
}

// dial connects a driver to tgt for the test.
func dial(t *testing.T, ctx context.Context, tgt vendors.Target) *Driver {
	t.Helper()
	drv, err := Dial(ctx, tgt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = drv.Close() })
	return drv.(*Driver)
}

// labLine runs one line on the lab device in a session of its own and
// returns the output.
func labLine(n *lab.Node, line string) string {
	s := n.Device().NewSession("test", nil)
	defer s.Close()
	out, _ := s.Handle(line)
	return out
}

// TestLockConfig: two drivers on one lab device. The second's LockConfig
// fails wrapping vendors.ErrDeviceLocked and naming the holder as display
// configuration exclusive user shows it; its apply meanwhile is refused at
// the commit (ErrDeviceLocked too) and leaves the device unchanged. The
// lock is free again after UnlockConfig, and when its holder's session
// drops without unlocking.
func TestLockConfig(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	first, second := dial(t, ctx, tgt), dial(t, ctx, tgt)
	if err := first.LockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	err := second.LockConfig(ctx)
	if !errors.Is(err, vendors.ErrDeviceLocked) {
		t.Fatalf("second lock: %v, want ErrDeviceLocked", err)
	}
	for _, s := range []string{"lock leaf1: ", "User Name: " + lab.DefaultUser, "User Session Name: VTY 0", "IP Address: 127.0.0.1", "Locked Time: ", "Session ID = "} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("second lock: %q does not say %q", err, s)
		}
	}
	before := body(n)
	run, err := second.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := second.Diff(run, want)
	if err != nil || ch.Empty() {
		t.Fatalf("plan: %v, %+v", err, ch)
	}
	res := second.Apply(ctx, ch, vendors.ApplyOptions{})
	vendortest.Failed(t, res, "locked by other user", true)
	if !errors.Is(res.Err, vendors.ErrDeviceLocked) {
		t.Errorf("apply under another's lock: %v, want ErrDeviceLocked", res.Err)
	}
	vendortest.Restored(t, before, body(n))

	if err := first.UnlockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.UnlockConfig(ctx); err != nil {
		t.Errorf("second unlock: %v", err)
	}
	if err := second.LockConfig(ctx); err != nil {
		t.Fatalf("lock after the holder unlocked: %v", err)
	}
	if err := first.LockConfig(ctx); !errors.Is(err, vendors.ErrDeviceLocked) || !strings.Contains(err.Error(), "VTY 1") {
		t.Errorf("lock held by the second driver: %v", err)
	}
	_ = second.Close() // drops the session without unlocking
	if err := first.LockConfig(ctx); err != nil {
		t.Fatalf("lock after the holder's session dropped: %v", err)
	}
	if res := first.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("apply holding the lock: %+v", res)
	}
	if err := first.UnlockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	if out := labLine(n, "display configuration exclusive user"); out != "" {
		t.Errorf("lock left after UnlockConfig: %q", out)
	}
	if out := labLine(n, "display configuration commit list"); strings.Contains(out, "lossless") {
		t.Errorf("lossless labelled a commit:\n%s", out)
	}
}

// TestKilledAtEachStep: lossless killed after any line of an apply (the
// connection drops there and nothing comes back: the driver cannot
// reconnect) leaves the device, once its trial timer has run out, byte
// for byte at its pre-apply config or at the fully applied one: at the
// old one whenever the kill left a trial running. The next run is never
// blocked: its plan is empty or the very change planned before, and its
// apply converges, both after the timer ran out and at once (LockConfig
// aborts the trial the killed run left).
func TestKilledAtEachStep(t *testing.T) {
	want := canonical(t)
	seed := LabSeed(want.Text)
	applied := func() string {
		ctx := t.Context()
		n, tgt := vendortest.StartLab(t, Vendor, seed)
		drv := dial(t, ctx, tgt)
		if err := drv.LockConfig(ctx); err != nil {
			t.Fatal(err)
		}
		_, ch := planOn(t, ctx, drv, want)
		if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
			t.Fatal(res.Err)
		}
		return body(n)
	}()
	fresh := func() string {
		n, _ := vendortest.StartLab(t, Vendor, seed)
		return body(n)
	}()
	// The next run depends only on what the kill left (the config, the
	// trial, the lock): it is checked once per distinct leftover.
	checked := map[string]bool{}
	var sawTrial, sawOld, sawNew, skipped bool
	for k := 1; ; k++ {
		if k > 200 {
			t.Fatal("the apply never ran to its end")
		}
		n, tgt, timers, ch, res := killAt(t, seed, want, k)
		if res.Err == nil {
			break // k is past the last line
		}
		if !skipped && strings.Contains(res.Err.Error(), "configure: ") {
			// Killed among the change lines: every one of them leaves
			// only the candidate, which the device drops with the session
			// (each step is TestSessionClosedAtEachStep's in the lab);
			// the first and the last two are enough here.
			skipped = true
			k += len(ch.Commands) - 3
		}
		inTrial := strings.Contains(labLine(n, showTrial), "Trial status: ACTIVE")
		sawTrial = sawTrial || inTrial
		left := body(n) + labLine(n, showTrial) + labLine(n, showLocker)
		timers.runOut()
		got := body(n)
		switch {
		case got == applied:
			sawNew = true
			if inTrial {
				t.Errorf("killed after %d lines in the trial: the device kept the trial's config after the timer ran out", k)
			}
		case got == fresh:
			sawOld = true
		default:
			t.Errorf("killed after %d lines (%v): once the timer ran out the device is neither at its old nor at its new config:\n%s", k, res.Err, textdiff.Unified("old", "after", fresh, got))
		}
		if checked[left] {
			continue
		}
		checked[left] = true
		nextRun(t, n, tgt, want, ch, applied, timers, k, "after the timer ran out")
		if inTrial {
			// The same kill, the next run coming before the timer runs
			// out: LockConfig aborts the trial the killed run left.
			n, tgt, timers, _, _ := killAt(t, seed, want, k)
			nextRun(t, n, tgt, want, ch, applied, timers, k, "before the timer ran out")
		}
	}
	if !sawTrial || !sawOld || !sawNew {
		t.Errorf("kill moments covered: in a trial %v, old config %v, new config %v; want all", sawTrial, sawOld, sawNew)
	}
}

// killAt starts a lab device seeded with seed, locks it, plans want and
// applies the plan as lossless killed after k lines: the connection
// drops there and the driver cannot come back. The device's timers are
// the test's.
func killAt(t *testing.T, seed []byte, want *config.Document, k int) (*lab.Node, vendors.Target, *manualTimers, *vendors.Change, vendors.Result) {
	t.Helper()
	ctx := t.Context()
	n, tgt := vendortest.StartLab(t, Vendor, seed)
	timers := withManualTimers(t, n)
	drv := dial(t, ctx, tgt)
	if err := drv.LockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	_, ch := planOn(t, ctx, drv, want)
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter, f.RefuseAuth = k, true })
	res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter, f.RefuseAuth = 0, false })
	return n, tgt, timers, ch, res
}

// nextRun is the run after a killed one: it locks, plans (empty, or the
// change planned before the kill: ch), applies and converges to applied;
// no timer the killed run left undoes it.
func nextRun(t *testing.T, n *lab.Node, tgt vendors.Target, want *config.Document, ch *vendors.Change, applied string, timers *manualTimers, k int, when string) {
	t.Helper()
	ctx := t.Context()
	next := dial(t, ctx, tgt)
	if err := next.LockConfig(ctx); err != nil {
		t.Fatalf("killed after %d lines, %s: the next run cannot lock: %v", k, when, err)
	}
	_, again := planOn(t, ctx, next, want)
	if !again.Empty() {
		if d := cmp.Diff(ch.Commands, again.Commands); d != "" {
			t.Errorf("killed after %d lines, %s: the next plan is neither empty nor the planned change (-planned +next):\n%s", k, when, d)
		}
		if res := next.Apply(ctx, again, vendors.ApplyOptions{}); res.Err != nil {
			t.Errorf("killed after %d lines, %s: the next apply: %v", k, when, res.Err)
		}
	}
	if err := next.UnlockConfig(ctx); err != nil {
		t.Error(err)
	}
	timers.runOut()
	if body(n) != applied {
		t.Errorf("killed after %d lines, %s: the next run did not converge, or a timer of the killed run undid it", k, when)
	}
}

// planOn reads drv's running config and diffs it against desired, as
// plan does.
func planOn(t *testing.T, ctx context.Context, drv *Driver, desired *config.Document) ([]byte, *vendors.Change) {
	t.Helper()
	run, err := drv.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := drv.Diff(run, desired)
	if err != nil {
		t.Fatal(err)
	}
	return run, ch
}

// TestTrialOfAnotherLeftAlone: a commit trial an operator started (with a
// persist ID of their own or none) is never aborted by LockConfig; Running
// and Apply refuse to work on top of it, saying whose it is; once the
// operator confirms it, lossless plans and applies as usual.
func TestTrialOfAnotherLeftAlone(t *testing.T) {
	for _, commit := range []string{"commit trial 300", "commit trial 300 persist job7"} {
		t.Run(commit, func(t *testing.T) {
			ctx := t.Context()
			want := canonical(t)
			n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
			drv := dial(t, ctx, tgt)
			_, ch := planOn(t, ctx, drv, want)
			op := n.Device().NewSession("ops", nil)
			defer op.Close()
			for _, l := range []string{"system-view", "drop-profile ops", commit} {
				if out, _ := op.Handle(l); strings.Contains(out, "Error") {
					t.Fatalf("%s: %s", l, out)
				}
			}
			trial := body(n)
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			vendortest.Failed(t, res, "nothing sent: the device is in trial configuration mode: a commit trial not started by lossless", false)
			if err := drv.LockConfig(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := drv.Running(ctx); !errors.Is(err, errTrialActive) || !strings.Contains(err.Error(), "read leaf1: ") {
				t.Errorf("Running during another's trial: %v", err)
			}
			if err := drv.UnlockConfig(ctx); err != nil {
				t.Fatal(err)
			}
			if got := body(n); got != trial {
				t.Fatalf("the operator's trial was touched:\n%s", textdiff.Unified("trial", "now", trial, got))
			}
			confirm := "commit"
			if strings.Contains(commit, "persist") {
				confirm = "commit persist job7"
			}
			if out, _ := op.Handle(confirm); strings.Contains(out, "Error") {
				t.Fatalf("confirm: %s", out)
			}
			_, ch = planOn(t, ctx, drv, want)
			if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
				t.Fatal(res.Err)
			}
			if !strings.Contains(body(n), "drop-profile ops\n") {
				t.Error("the operator's confirmed change is gone")
			}
		})
	}
}

func TestParseTrial(t *testing.T) {
	tests := []struct {
		out  string
		want trialState
	}{
		// The V300R023 command reference's three examples.
		{"Trial status: INACTIVE \nTrial time left (sec): 0\n", trialState{status: "INACTIVE"}},
		{"Trial status:  ACTIVE\nTrial time left (sec): 51\n", trialState{status: "ACTIVE", left: 51}},
		{"Trial status: ACTIVE \nPersist id: IQ,d4668\nTrial time left (sec): 30\n", trialState{status: "ACTIVE", persist: "IQ,d4668", left: 30}},
		{"Trial status: CANCELING\n", trialState{status: "CANCELING"}},
	}
	for _, tc := range tests {
		got, err := parseTrial(tc.out)
		if err != nil || got != tc.want {
			t.Errorf("parseTrial(%q) = %+v, %v; want %+v", tc.out, got, err, tc.want)
		}
	}
	if st, _ := parseTrial(tests[3].out); !st.active() {
		t.Error("a trial being cancelled is not taken as active")
	}
	if _, err := parseTrial("Error: Unrecognized command found at '^' position.\n"); err == nil {
		t.Error("no status: no error")
	}
}

// TestPersistIDs: every apply's persist ID is its own and is recognised as
// lossless'; an operator's is not.
func TestPersistIDs(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a, b := persistID(now), persistID(now.Add(time.Nanosecond))
	if a == b || !isPersistID(a) || !isPersistID(b) {
		t.Errorf("persist IDs %q, %q", a, b)
	}
	for _, id := range []string{"", "lossless", "job7", "IQ,d4668", "lossless-ops", "Lossless1"} {
		if isPersistID(id) {
			t.Errorf("isPersistID(%q) = true", id)
		}
	}
}

func TestHolderOf(t *testing.T) {
	// The V300R023 command reference's example.
	display := `User Index: 34
User Session Name: VTY 0
User Name: root
IP Address: 10.135.38.234
Locked Time: 2013-03-06 21:09:36
Last Configuration Time: 2013-03-06 21:09:36
The time out value of configuration right locked is: 30 second(s)
`
	want := "User Name: root, User Session Name: VTY 0, IP Address: 10.135.38.234, Locked Time: 2013-03-06 21:09:36"
	if got := holderOf(display); got != want {
		t.Errorf("holderOf = %q, want %q", got, want)
	}
	if got := holderOf(""); got != "an unknown session" {
		t.Errorf("holderOf(\"\") = %q", got)
	}
}

// TestDropInTrialHoldingLock: the connection of an apply that holds the
// lock drops after its commit trial; the driver reconnects, takes the lock
// again (the device released it with the old session), aborts its trial
// and reports the device back at its pre-apply config; UnlockConfig then
// leaves no lock behind.
func TestDropInTrialHoldingLock(t *testing.T) {
	want := canonical(t)
	seed := LabSeed(want.Text)
	_, probe := vendortest.Plan(t, t.Context(), Dial, func() vendors.Target { _, tgt := vendortest.StartLab(t, Vendor, seed); return tgt }(), want)
	// The change lines alone come before the commit trial.
	for k := len(probe.Commands); ; k++ {
		if k > 200 {
			t.Fatal("no drop came after the commit trial")
		}
		ctx := t.Context()
		var logs strings.Builder
		n, tgt := vendortest.StartLab(t, Vendor, seed)
		tgt.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		before := body(n)
		drv := dial(t, ctx, tgt)
		if err := drv.LockConfig(ctx); err != nil {
			t.Fatal(err)
		}
		_, ch := planOn(t, ctx, drv, want)
		n.Faults().Update(func(f *device.Faults) { f.CloseAfter = k })
		res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
		n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 0 })
		if res.Err == nil || !strings.Contains(res.Err.Error(), "verify: ") {
			continue
		}
		if !res.RolledBack || !strings.Contains(logs.String(), "trial aborted") {
			t.Errorf("drop after the commit trial: %+v\n%s", res, logs.String())
		}
		vendortest.Restored(t, before, body(n))
		if !drv.locked || !strings.Contains(labLine(n, showLocker), "User Name: ") {
			t.Error("the lock was not taken again after reconnecting")
		}
		if err := drv.UnlockConfig(ctx); err != nil {
			t.Fatal(err)
		}
		if out := labLine(n, showLocker); out != "" {
			t.Errorf("lock left behind: %q", out)
		}
		return
	}
}

// TestStaleTrialAbortFails: when LockConfig cannot abort the trial a
// killed apply left, it says so (the trial, its persist ID and why) and
// does not report the device locked.
func TestStaleTrialAbortFails(t *testing.T) {
	for k := 1; ; k++ {
		if k > 20 {
			t.Fatal("the connection never dropped at the abort")
		}
		ctx := t.Context()
		n, tgt := vendortest.StartLab(t, Vendor, nil)
		s := n.Device().NewSession("admin", nil)
		for _, l := range []string{"system-view", "drop-profile left", "commit trial 120 persist lossless1k2"} {
			s.Handle(l)
		}
		s.Close()
		drv := dial(t, ctx, tgt)
		n.Faults().Update(func(f *device.Faults) { f.CloseAfter = k })
		err := drv.LockConfig(ctx)
		if err == nil || !strings.Contains(err.Error(), "abort ") {
			continue
		}
		for _, s := range []string{"lock leaf1: abort the commit trial of an interrupted lossless apply (ACTIVE, persist ID lossless1k2, ", " s left): ", "connection lost"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("LockConfig: %q does not say %q", err, s)
			}
		}
		if drv.locked {
			t.Error("the driver takes itself for the lock's holder")
		}
		return
	}
}
