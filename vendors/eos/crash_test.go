package eos

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	labeos "github.com/lossless-net/lossless/internal/lab/eos"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// linesBeforeChange are the lines the lab counts on a plan's connection
// before the first change line of its apply: terminal width and length on
// open; the plan's Running (the session list of armed, after a prompt
// probe, and show running-config); Apply's configure lock (2 prompt
// probes and the command), the session list of removeStale (a probe and
// the command) and its show running-config; the prompt probe and
// configure session NAME.
const linesBeforeChange = 12

// commitTimers hold a lab device's commit timers until the test runs
// them out (RunOut); the 24-hour timeouts of pending sessions never fire.
type commitTimers struct {
	mu     sync.Mutex
	timers []*heldTimer
}

type heldTimer struct {
	f       func()
	stopped bool
}

func (h *heldTimer) Stop() bool { h.stopped = true; return true }

// holdTimers makes n's commit timers wait for RunOut.
func holdTimers(t *testing.T, n *lab.Node) *commitTimers {
	t.Helper()
	dev, ok := n.Device().(*labeos.Device)
	if !ok {
		t.Fatalf("device %T is not the lab's EOS", n.Device())
	}
	c := &commitTimers{}
	dev.SetAfterFunc(func(d time.Duration, f func()) labeos.Timer {
		h := &heldTimer{f: f}
		if d < time.Hour {
			c.mu.Lock()
			c.timers = append(c.timers, h)
			c.mu.Unlock()
		}
		return h
	})
	return c
}

// RunOut makes every commit timer not stopped run out, as if the confirm
// never came.
func (c *commitTimers) RunOut() {
	c.mu.Lock()
	ts := slices.Clone(c.timers)
	c.mu.Unlock()
	for _, h := range ts {
		if !h.stopped {
			h.stopped = true
			h.f()
		}
	}
}

// killAt applies ch with the connection dropped after the first lines
// lines and every new login refused, so that nothing after them reaches
// the device: what a lossless killed at that moment leaves.
func killAt(t *testing.T, n *lab.Node, drv vendors.Driver, ch *vendors.Change, lines int) vendors.Result {
	t.Helper()
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter, f.RefuseAuth = lines, true })
	res := drv.Apply(t.Context(), ch, vendors.ApplyOptions{})
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter, f.RefuseAuth = 0, false })
	return res
}

// sessions returns the device's configuration sessions and their states,
// as show configuration sessions | json lists them.
func sessions(t *testing.T, n *lab.Node) map[string]string {
	t.Helper()
	s := n.Device().NewSession(lab.DefaultUser, nil)
	defer s.Close()
	out, _ := s.Handle("show configuration sessions | json")
	var l struct {
		Sessions map[string]struct{ State string }
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	m := map[string]string{}
	for name, v := range l.Sessions {
		m[name] = v.State
	}
	return m
}

// pendingOwn counts the lossless sessions pending on n.
func pendingOwn(t *testing.T, n *lab.Node) int {
	t.Helper()
	c := 0
	for name, state := range sessions(t, n) {
		if ownSession(name) && state == statePending {
			c++
		}
	}
	return c
}

// applied is the running config a successful apply of want leaves on a
// lab device seeded with seed.
func applied(t *testing.T, seed []byte, want *config.Document) string {
	t.Helper()
	n, tgt := vendortest.StartLab(t, Vendor, seed)
	drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, want)
	if res := drv.Apply(t.Context(), ch, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatalf("apply: %v", res.Err)
	}
	return running(n)
}

// TestKilledAtEveryStep: lossless killed after any number of the lines
// of an apply (its connection cut there, never back) leaves the device,
// once its commit timer has run out, at exactly its old or its new
// running config, byte for byte; at most the one session it opened is
// left pending; the next plan is empty or the same change; and the next
// apply succeeds and leaves no lossless session behind. This is why
// CrashAtomic returns "".
func TestKilledAtEveryStep(t *testing.T) {
	want := document(t, readFile(t, "canonical.cfg"))
	seed := LabSeed(want.Text)
	newConfig := applied(t, seed, want)
	moments := 0
	for lines := 3; ; lines++ {
		n, tgt := vendortest.StartLab(t, Vendor, seed)
		timers := holdTimers(t, n)
		old := running(n)
		drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, want)
		res := killAt(t, n, drv, ch, lines)
		timers.RunOut()
		got := running(n)
		if got != old && got != newConfig {
			t.Fatalf("killed after %d lines (%v): neither old nor new:\n%s", lines, res.Err, textdiff.Unified("new", "device", newConfig, got))
		}
		if c := pendingOwn(t, n); c > 1 {
			t.Errorf("killed after %d lines: %d lossless sessions pending", lines, c)
		}
		drv2, again := vendortest.Plan(t, t.Context(), Dial, tgt, want)
		switch {
		case got == newConfig && !again.Empty():
			t.Errorf("killed after %d lines: at the new config, the next plan is not empty:\n%s", lines, again.Diff)
		case got == old && !slices.Equal(again.Commands, ch.Commands):
			t.Errorf("killed after %d lines: at the old config, the next plan is another change:\n%q", lines, again.Commands)
		}
		if r := drv2.Apply(t.Context(), again, vendors.ApplyOptions{}); r.Err != nil || running(n) != newConfig {
			t.Errorf("killed after %d lines: the next apply: %v", lines, r.Err)
		}
		if c := pendingOwn(t, n); c != 0 {
			t.Errorf("killed after %d lines: %d lossless sessions left after the next apply", lines, c)
		}
		moments++
		if res.Err == nil {
			break // every line ran
		}
	}
	if moments < 20 {
		t.Errorf("only %d moments", moments)
	}
	t.Logf("%d moments", moments)
}

// TestTenKilledApplies: ten applies in a row on one device, each killed
// somewhere in the push (during the lines, after them, after the review,
// after the timed commit, at the confirm), leave at most one lossless
// session pending each time (the next apply removes the previous one's;
// without that the sixth would meet EOS's limit of five), and the 11th
// apply succeeds.
func TestTenKilledApplies(t *testing.T) {
	want := document(t, readFile(t, "canonical.cfg"))
	seed := LabSeed(want.Text)
	newConfig := applied(t, seed, want)
	n, tgt := vendortest.StartLab(t, Vendor, seed)
	timers := holdTimers(t, n)
	old := running(n)
	// Lines before the first change line; then the change; end (+2);
	// the review, 4 lines with its prompt probes (+6); the timed commit
	// (+8); the verification read (+9), the confirm.
	const before = linesBeforeChange
	for i := range 10 {
		drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, want)
		c := len(ch.Commands)
		at := []int{before + 1, before + c/2, before + c, before + c + 2, before + c + 4, before + c + 6, before + c + 8, before + c + 9}[i%8]
		res := killAt(t, n, drv, ch, at)
		if res.Err == nil {
			t.Fatalf("run %d killed after %d lines succeeded", i+1, at)
		}
		timers.RunOut()
		if c := pendingOwn(t, n); c > 1 {
			t.Errorf("run %d: %d lossless sessions pending:\n%v", i+1, c, sessions(t, n))
		}
		if got := running(n); got != old {
			t.Fatalf("run %d killed after %d lines left:\n%s", i+1, at, textdiff.Unified("old", "device", old, got))
		}
	}
	drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, want)
	if res := drv.Apply(t.Context(), ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("11th apply: %+v", res)
	}
	if got := running(n); got != newConfig {
		t.Errorf("11th apply left:\n%s", textdiff.Unified("new", "device", newConfig, got))
	}
	if c := pendingOwn(t, n); c != 0 {
		t.Errorf("%d lossless sessions left after the 11th apply", c)
	}
}

// TestArmedTimedCommit: while a killed apply's timed commit is still
// armed, Running refuses to read (a plan from it would show a change the
// timer is about to take back), naming the session and how to roll it
// back; an apply that comes anyway (a saved change) rolls it back at once
// (what its timer would do) and stops, saying so. The device is then at
// its old config byte for byte, and the apply after that succeeds. An
// operator's armed timed commit stops no read.
func TestArmedTimedCommit(t *testing.T) {
	want := document(t, readFile(t, "canonical.cfg"))
	seed := LabSeed(want.Text)
	n, tgt := vendortest.StartLab(t, Vendor, seed)
	holdTimers(t, n) // never run out
	old := running(n)
	drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, want)
	// Killed after the timed commit, its verification read cut
	// (TestTenKilledApplies counts the lines).
	if res := killAt(t, n, drv, ch, linesBeforeChange+len(ch.Commands)+8); res.Err == nil || !strings.Contains(res.Err.Error(), "verify") {
		t.Fatalf("not killed after the timed commit: %v", res.Err)
	}
	if running(n) == old {
		t.Fatal("the timed commit is not running")
	}
	drv2, err := Dial(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer drv2.Close()
	if _, err := drv2.Running(t.Context()); err == nil || !strings.Contains(err.Error(), "awaits its confirm") ||
		!strings.Contains(err.Error(), "configure session lossless_") || !strings.Contains(err.Error(), vendortest.DeviceName) {
		t.Errorf("Running with a killed apply's timed commit armed: %v", err)
	}
	res := drv2.Apply(t.Context(), ch, vendors.ApplyOptions{})
	vendortest.Failed(t, res, "timed commit (session lossless_", false)
	if !strings.Contains(res.Err.Error(), "plan again") {
		t.Errorf("the error does not say what to do: %v", res.Err)
	}
	vendortest.Restored(t, old, running(n))
	drv3, again := vendortest.Plan(t, t.Context(), Dial, tgt, want)
	if !slices.Equal(again.Commands, ch.Commands) {
		t.Errorf("the next plan: %q", again.Commands)
	}
	if r := drv3.Apply(t.Context(), again, vendors.ApplyOptions{}); r.Err != nil {
		t.Errorf("the apply after: %v", r.Err)
	}
	ops := n.Device().NewSession("ops", nil)
	for _, l := range []string{"configure session ops1", "interface Ethernet9", "qos trust cos", "commit timer 00:10:00"} {
		if out, _ := ops.Handle(l); out != "" {
			t.Fatalf("%q: %s", l, out)
		}
	}
	if _, err := drv3.Running(t.Context()); err != nil {
		t.Errorf("Running with the operator's timed commit armed: %v", err)
	}
}

// TestPendingLimit: lossless removes its own stale sessions, never an
// operator's: with four of the operator's and one stale lossless session
// pending the apply goes through and the operator's stay; with five of
// the operator's it fails with EOS's own words, changing nothing.
func TestPendingLimit(t *testing.T) {
	want := document(t, readFile(t, "canonical.cfg"))
	seed := LabSeed(want.Text)
	n, tgt := vendortest.StartLab(t, Vendor, seed)
	holdTimers(t, n)
	ops := n.Device().NewSession("ops", nil)
	operator := []string{"roce_2025", "sess-1663-140324424902400-0", "lossless_test", "lossless_0000000000ab"}
	for _, name := range operator {
		ops.Handle("configure session " + name)
		ops.Handle("end")
	}
	drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, want)
	if res := killAt(t, n, drv, ch, linesBeforeChange+2); res.Err == nil {
		t.Fatal("not killed")
	}
	if s := sessions(t, n); len(s) != 5 {
		t.Fatalf("sessions %v, want the operator's four and a stale lossless one", s)
	}
	drv, ch = vendortest.Plan(t, t.Context(), Dial, tgt, want)
	if res := drv.Apply(t.Context(), ch, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatalf("apply with five pending, one lossless': %v", res.Err)
	}
	for _, name := range operator {
		if sessions(t, n)[name] != statePending {
			t.Errorf("the operator's session %s is gone", name)
		}
	}

	// Five of the operator's: EOS refuses a sixth.
	ops.Handle("configure session ops5")
	ops.Handle("end")
	after := running(n)
	n2, tgt2 := vendortest.StartLab(t, Vendor, seed)
	ops2 := n2.Device().NewSession("ops", nil)
	for _, name := range append(operator, "ops5") {
		ops2.Handle("configure session " + name)
		ops2.Handle("end")
	}
	before2 := running(n2)
	drv2, ch2 := vendortest.Plan(t, t.Context(), Dial, tgt2, want)
	res := drv2.Apply(t.Context(), ch2, vendors.ApplyOptions{})
	vendortest.Failed(t, res, "Maximum number of pending sessions has been reached", false)
	if !strings.Contains(res.Err.Error(), "ops5, roce_2025") {
		t.Errorf("the error does not name the operator's sessions: %v", res.Err)
	}
	vendortest.Restored(t, before2, running(n2))
	if s := sessions(t, n2); len(s) != 5 {
		t.Errorf("sessions after the refusal: %v", s)
	}
	if running(n) != after {
		t.Error("the first device changed")
	}
}

// TestSessionNameClock: names come from the apply's start (an injected
// clock here), and a stale session of the very same name is removed, not
// re-entered: a killed apply of another change under that name leaves
// nothing of it in the next apply's result.
func TestSessionNameClock(t *testing.T) {
	want := document(t, readFile(t, "canonical.cfg"))
	seed := LabSeed(want.Text)
	newConfig := applied(t, seed, want)
	n, tgt := vendortest.StartLab(t, Vendor, seed)
	holdTimers(t, n)
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	name := sessionName(at)
	other := document(t, readFile(t, "profile.cfg"))
	drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, other)
	drv.(*Driver).now = func() time.Time { return at }
	// Killed after its lines and end: the session is pending, full of
	// the other change.
	if res := killAt(t, n, drv, ch, linesBeforeChange+len(ch.Commands)+2); res.Err == nil {
		t.Fatal("not killed")
	}
	if s := sessions(t, n); s[name] != statePending {
		t.Fatalf("sessions %v, want %s pending", s, name)
	}
	drv2, ch2 := vendortest.Plan(t, t.Context(), Dial, tgt, want)
	drv2.(*Driver).now = func() time.Time { return at }
	if res := drv2.Apply(t.Context(), ch2, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatalf("apply: %v", res.Err)
	}
	if got := running(n); got != newConfig {
		t.Errorf("the stale session's change leaked in:\n%s", textdiff.Unified("new", "device", newConfig, got))
	}
}

// TestSessionNames: sessionName's names are recognisable (ownSession)
// and unique per start; an operator's are never taken for lossless'.
func TestSessionNames(t *testing.T) {
	a := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	if n := sessionName(a); !ownSession(n) || n == sessionName(a.Add(time.Nanosecond)) || !strings.HasPrefix(n, "lossle") {
		t.Errorf("sessionName(%v) = %q", a, n)
	}
	for _, name := range []string{"roce_2025", "sess-1663-140324424902400-0", "lossless_test", "lossless_0000000000ab", "lossless_",
		"lossless_" + strings.Repeat("z", 13), "Lossless_dn9rw7ukkji8", "session11521733719371", "cfg-2034--574620864-1",
		sessionName(time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC))} {
		if ownSession(name) {
			t.Errorf("%q taken for lossless' own", name)
		}
	}
}

// TestDeviceLock: two drivers on one lab device. While the first holds
// the configure lock the second's LockConfig fails wrapping
// vendors.ErrDeviceLocked and naming the holder as the device does (the
// device's own reply), and its Apply changes nothing; the first applies
// under its lock, which stays its own; unlocking, or the holder's
// connection dropping, frees it; an Apply without the caller's lock takes
// and releases its own.
func TestDeviceLock(t *testing.T) {
	var _ vendors.DeviceLocker = (*Driver)(nil)
	ctx := t.Context()
	want := document(t, readFile(t, "canonical.cfg"))
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	first, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	second, _ := vendortest.Plan(t, ctx, Dial, tgt, want)
	l1, l2 := first.(vendors.DeviceLocker), second.(vendors.DeviceLocker)
	if err := l1.LockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	probe := n.Device().NewSession(lab.DefaultUser, nil)
	reply, _ := probe.Handle("configure lock")
	probe.Close()
	reply = strings.TrimSpace(reply)
	if !strings.HasPrefix(reply, "% ") {
		t.Fatalf("the device did not refuse a second lock: %q", reply)
	}
	err := l2.LockConfig(ctx)
	if !errors.Is(err, vendors.ErrDeviceLocked) || !strings.Contains(err.Error(), reply) || !strings.Contains(err.Error(), vendortest.DeviceName) {
		t.Errorf("second lock: %v, want ErrDeviceLocked naming the device and %q", err, reply)
	}
	before := running(n)
	res := second.Apply(ctx, ch, vendors.ApplyOptions{})
	vendortest.Failed(t, res, reply, false)
	if !errors.Is(res.Err, vendors.ErrDeviceLocked) {
		t.Errorf("apply under another's lock: %v does not wrap ErrDeviceLocked", res.Err)
	}
	vendortest.Restored(t, before, running(n))
	for name := range sessions(t, n) {
		if ownSession(name) {
			t.Errorf("a refused apply opened session %s", name)
		}
	}
	if res := first.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatalf("apply under its own lock: %v", res.Err)
	}
	if err := l2.LockConfig(ctx); !errors.Is(err, vendors.ErrDeviceLocked) {
		t.Errorf("the caller's lock did not outlast its apply: %v", err)
	}
	if err := l1.UnlockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l1.UnlockConfig(ctx); err != nil {
		t.Errorf("unlocking twice: %v", err)
	}
	if err := l2.LockConfig(ctx); err != nil {
		t.Fatalf("lock after the unlock: %v", err)
	}
	// The holder's connection drops: the lock goes with it.
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 1 })
	_, _ = second.Running(ctx)
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 0 })
	if err := l1.LockConfig(ctx); err != nil {
		t.Fatalf("lock after the holder dropped: %v", err)
	}
	if err := l1.UnlockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	// An apply with no lock of the caller's takes one and gives it back.
	third, ch3 := vendortest.Plan(t, ctx, Dial, tgt, document(t, readFile(t, "profile.cfg")))
	if res := third.Apply(ctx, ch3, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatalf("apply: %v", res.Err)
	}
	if err := l1.LockConfig(ctx); err != nil {
		t.Errorf("the apply kept its lock: %v", err)
	}
}

// TestCleanupFailure: a failure to list or remove stale sessions is
// reported as that, before anything is pushed.
func TestCleanupFailure(t *testing.T) {
	want := document(t, readFile(t, "canonical.cfg"))
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	before := running(n)
	drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, want)
	res := killAt(t, n, drv, ch, linesBeforeChange-3) // removeStale's session list is cut
	vendortest.Failed(t, res, "remove stale lossless sessions: list them", false)
	vendortest.Restored(t, before, running(n))
	if fmt.Sprint(sessions(t, n)) != "map[]" {
		t.Errorf("sessions: %v", sessions(t, n))
	}
}

// TestInterleavedApplies: two checkouts plan the same device, the first
// applies, then the second's change, planned before the first's went in,
// is refused under the lock without sending anything, and the device
// keeps the first's config.
func TestInterleavedApplies(t *testing.T) {
	ctx := t.Context()
	want := document(t, readFile(t, "canonical.cfg"))
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	first, ch1 := vendortest.Plan(t, ctx, Dial, tgt, want)
	second, ch2 := vendortest.Plan(t, ctx, Dial, tgt, document(t, readFile(t, "profile.cfg")))
	if res := first.Apply(ctx, ch1, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatal(res.Err)
	}
	after := running(n)
	res := second.Apply(ctx, ch2, vendors.ApplyOptions{})
	vendortest.Failed(t, res, "changed since this change was planned", false)
	vendortest.Restored(t, after, running(n))
}
