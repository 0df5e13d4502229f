package nxos

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	labnxos "github.com/lossless-net/lossless/internal/lab/nxos"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// applyLines is more lines than the lab counts for the plan and a clean
// apply of canonical on LabSeed (each Enter counts, prompt probes too):
// dropping after any k of them covers every step.
const applyLines = 48

// labDevice is n's emulated switch.
func labDevice(t *testing.T, n *lab.Node) *labnxos.Device {
	t.Helper()
	d, ok := n.Device().(*labnxos.Device)
	if !ok {
		t.Fatalf("%T is not an NX-OS lab device", n.Device())
	}
	return d
}

// own returns the names in names that lossless made.
func own(names []string) []string {
	var o []string
	for _, n := range names {
		if ownName.MatchString(n) {
			o = append(o, n)
		}
	}
	return o
}

// appliedConfig is the full running config (body) a clean apply of want
// leaves on a fresh lab switch seeded with seed.
func appliedConfig(t *testing.T, seed []byte, want *config.Document) string {
	t.Helper()
	n, tgt := vendortest.StartLab(t, Vendor, seed)
	drv, ch := vendortest.Plan(t, t.Context(), Dial, tgt, want)
	if res := drv.Apply(t.Context(), ch, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatal(res.Err)
	}
	return body(n)
}

// oldOrNew checks that the device's full running config is before or
// after, byte for byte.
func oldOrNew(t *testing.T, got, before, after string) {
	t.Helper()
	if got != before && got != after {
		t.Errorf("the device is neither at its pre-apply nor at its applied config:\n%s", textdiff.Unified("before", "now", before, got))
	}
}

// kill applies ch as a lossless killed after k lines would leave it:
// the connection drops there and no new one can be made, so nothing of
// the driver's own recovery reaches the device.
func kill(t *testing.T, n *lab.Node, drv vendors.Driver, ch *vendors.Change, k int) vendors.Result {
	t.Helper()
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter, f.RefuseAuth = k, true })
	defer n.Faults().Update(func(f *device.Faults) { f.CloseAfter, f.RefuseAuth = 0, false })
	return drv.Apply(t.Context(), ch, vendors.ApplyOptions{})
}

// TestKilledAnywhere: killed after any line of an apply, lossless leaves
// the switch at its old or its new config, byte for byte (the session's
// commit is all or nothing on the device); the next apply completes it
// and leaves none of lossless' sessions or checkpoints behind.
func TestKilledAnywhere(t *testing.T) {
	want := canonical(t)
	seed := LabSeed(want.Text)
	after := appliedConfig(t, seed, want)
	for k := 1; k <= applyLines; k++ {
		t.Run(fmt.Sprint("after ", k), func(t *testing.T) {
			ctx := t.Context()
			n, tgt := vendortest.StartLab(t, Vendor, seed)
			before := body(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			res := kill(t, n, drv, ch, k)
			t.Logf("killed: applied=%v err=%v", res.Applied, res.Err)
			oldOrNew(t, body(n), before, after)
			next, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			if res := next.Apply(ctx, again, vendors.ApplyOptions{}); res.Err != nil {
				t.Fatalf("the next apply: %v", res.Err)
			}
			if got := body(n); got != after {
				t.Errorf("the next apply did not reach the applied config:\n%s", textdiff.Unified("applied", "now", after, got))
			}
			d := labDevice(t, n)
			if !again.Empty() {
				if s, c := own(d.Sessions()), own(d.Checkpoints()); len(s)+len(c) > 0 {
					t.Errorf("after the next apply lossless' sessions %q and checkpoints %q remain", s, c)
				}
			}
		})
	}
}

// TestTenKilledRuns: ten staged runs in a row on one switch, each killed
// at another point of its apply after marking the switch, leave at most
// one of lossless' checkpoints (the run's mark, which its apply uses as
// its own rollback point) and at most its session; the switch is always at its old or
// new config; an eleventh run succeeds and leaves none.
func TestTenKilledRuns(t *testing.T) {
	ctx := t.Context()
	base := canonical(t)
	tuned := document(t, strings.Replace(string(base.Text), "minimum-threshold 150 kbytes", "minimum-threshold 200 kbytes", 1))
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(base.Text))
	d := labDevice(t, n)
	for run := range 10 {
		want := []*config.Document{base, tuned}[run%2]
		before := body(n)
		after := appliedConfig(t, []byte(before), want)
		drv, err := Dial(ctx, tgt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := drv.(vendors.Reverter).Mark(ctx); err != nil {
			t.Fatalf("run %d: mark: %v", run+1, err)
		}
		running, err := drv.Running(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := drv.Diff(running, want)
		if err != nil || ch.Empty() {
			t.Fatalf("run %d: plan: %v (empty %v)", run+1, err, ch.Empty())
		}
		// The mark, the plan's read and the cleanup take the first dozen
		// lines; the kills land from the apply's first read to past its
		// commit.
		k := 12 + 4*run
		kill(t, n, drv, ch, k)
		_ = drv.Close()
		now := body(n)
		oldOrNew(t, now, before, after)
		cps, ss := own(d.Checkpoints()), own(d.Sessions())
		t.Logf("run %d killed after %d lines (applied: %v): checkpoints %q, sessions %q", run+1, k, now == after, cps, ss)
		if len(cps) > 1 || len(ss) > 1 {
			t.Errorf("run %d: lossless' checkpoints %q and sessions %q pile up", run+1, cps, ss)
		}
	}
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, base)
	rv := drv.(vendors.Reverter)
	mark, err := rv.Mark(ctx)
	if err != nil {
		t.Fatalf("the 11th run's mark: %v", err)
	}
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatalf("the 11th apply: %v", res.Err)
	}
	if err := rv.Forget(ctx, mark); err != nil {
		t.Fatal(err)
	}
	_, again := vendortest.Plan(t, ctx, Dial, tgt, base)
	vendortest.Converged(t, again)
	if cps, ss := own(d.Checkpoints()), own(d.Sessions()); len(cps)+len(ss) > 0 {
		t.Errorf("after the 11th run lossless' checkpoints %q and sessions %q remain", cps, ss)
	}
}

// TestCheckpointLimit: on a switch at NX-OS's 10 checkpoints, two of
// them lossless' stale ones, an apply removes lossless' stale checkpoints
// and sessions and never the operator's, which leaves it room; with ten
// of the operator's, NX-OS refuses the checkpoint and the apply says so,
// with nothing changed.
func TestCheckpointLimit(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	d := labDevice(t, n)
	op := d.NewSession("admin", nil)
	for _, l := range []string{
		"checkpoint lossless-dn9rt15zrbjm", "checkpoint lossless-pre-dn9rt15zrbjm", "checkpoint lossless-backup",
		"configure session lossless-dn9rt15zrbjm", "interface Ethernet1/5", "priority-flow-control mode on", "end",
		"configure session ops-change", "end",
	} {
		op.Handle(l)
	}
	for i := range 7 {
		if out, _ := op.Handle(fmt.Sprintf("checkpoint ops-%d", i)); out != "Done\n" {
			t.Fatalf("checkpoint ops-%d: %q", i, out)
		}
	}
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatalf("apply with 9 of the operator's checkpoints: %v", res.Err)
	}
	cps, ss := d.Checkpoints(), d.Sessions()
	if len(own(cps)) > 0 || len(own(ss)) > 0 || len(cps) != 8 || strings.Join(ss, " ") != "ops-change" {
		t.Errorf("after the apply: checkpoints %q, sessions %q; want the operator's 8 and ops-change", cps, ss)
	}
	op.Handle("checkpoint ops-7")
	op.Handle("checkpoint ops-8")
	before := body(n)
	drv, ch = vendortest.Plan(t, ctx, Dial, tgt, document(t, strings.Replace(string(want.Text), "minimum-threshold 150 kbytes", "minimum-threshold 200 kbytes", 1)))
	res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
	vendortest.Failed(t, res, "create checkpoint", false)
	for _, s := range []string{"at most 10 user checkpoints", "10 of others' remain", "nothing was changed"} {
		if !strings.Contains(res.Err.Error(), s) {
			t.Errorf("error %q does not say %q", res.Err, s)
		}
	}
	vendortest.Restored(t, before, body(n))
}

// TestDeviceLock: the terminal lock one driver takes keeps another off
// the switch (its LockConfig fails with vendors.ErrDeviceLocked, naming
// the holder, and an apply without the lock changes nothing), holds
// across the holder's reconnection after a drop, and is released by
// UnlockConfig.
func TestDeviceLock(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	a, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	b, _ := vendortest.Plan(t, ctx, Dial, tgt, want)
	la, lb := a.(vendors.DeviceLocker), b.(vendors.DeviceLocker)
	if err := la.LockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	err := lb.LockConfig(ctx)
	if !errors.Is(err, vendors.ErrDeviceLocked) || !strings.Contains(err.Error(), "locked by user admin on pts/1") || !strings.Contains(err.Error(), "leaf1") {
		t.Fatalf("second LockConfig: %v; want ErrDeviceLocked naming the device and the holder", err)
	}
	before := body(n)
	res := b.Apply(ctx, ch, vendors.ApplyOptions{})
	vendortest.Failed(t, res, "Terminal is locked", true)
	vendortest.Restored(t, before, body(n))
	// The holder's connection drops mid-push: it reconnects, takes the
	// lock for the new session and aborts.
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 20 })
	res = a.Apply(ctx, ch, vendors.ApplyOptions{})
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 0 })
	vendortest.Failed(t, res, "connection lost", true)
	vendortest.Restored(t, before, body(n))
	if err := lb.LockConfig(ctx); !errors.Is(err, vendors.ErrDeviceLocked) {
		t.Errorf("after the holder reconnected, the lock is not held: %v", err)
	}
	if res := a.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatalf("the holder's apply: %v", res.Err)
	}
	if err := la.UnlockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	if err := lb.LockConfig(ctx); err != nil {
		t.Errorf("after UnlockConfig: %v", err)
	}
	if err := lb.UnlockConfig(ctx); err != nil {
		t.Fatal(err)
	}
	if err := lb.UnlockConfig(ctx); err != nil {
		t.Errorf("releasing a lock not held: %v", err)
	}
}

// TestNamesFromClock: the checkpoint and session of an apply are named
// from the driver's clock, not the system's.
func TestNamesFromClock(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	at := time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	drv.(*Driver).Clock = func() time.Time { return at }
	// Killed after its configure session line: both are on the switch.
	kill(t, n, drv, ch, 16)
	d := labDevice(t, n)
	if got, want := d.Checkpoints(), checkpointName(at); len(got) != 1 || got[0] != want {
		t.Errorf("checkpoints %q, want [%s]", got, want)
	}
	if got, want := d.Sessions(), sessionName(at); len(got) != 1 || got[0] != want {
		t.Errorf("sessions %q, want [%s]", got, want)
	}
	mark, err := drv.(vendors.Reverter).Mark(context.WithoutCancel(ctx))
	if err == nil {
		t.Errorf("mark on a dropped session: %s", mark)
	}
}
