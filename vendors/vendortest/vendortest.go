// Package vendortest is the lab-test harness the vendor drivers' tests
// share: starting a lab with one seeded device, the target that trusts its
// host key, planning against it, and the checks every driver must pass
// (host-key refusal, counters climbing and Revert restoring the config).
//
// It is for tests only: it imports the lab, which no production binary
// may carry, so only _test.go files import it (TestOnlyTestsImport checks
// that).
package vendortest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
)

// DeviceName is the name of the device StartLab adds, and the name a
// driver's errors must carry.
const DeviceName = "leaf1"

// StartLab starts a lab with one device of vendor, named DeviceName and
// seeded with seed, and returns the node and a target that trusts its
// host key. The lab closes when t ends.
func StartLab(t *testing.T, vendor string, seed []byte) (*lab.Node, vendors.Target) {
	t.Helper()
	l, err := lab.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	n, err := l.Add(vendor, DeviceName, seed)
	if err != nil {
		t.Fatal(err)
	}
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := l.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	return n, vendors.Target{Device: DeviceName, Vendor: vendor, Address: "127.0.0.1", Port: n.Port(),
		Login: vendors.Login{User: lab.DefaultUser, Password: lab.DefaultPassword, KnownHosts: kh}}
}

// Plan dials tgt with dial, reads its running config and diffs it against
// desired; the driver closes when t ends.
func Plan(t *testing.T, ctx context.Context, dial vendors.DialFunc, tgt vendors.Target, desired *config.Document) (vendors.Driver, *vendors.Change) {
	t.Helper()
	drv, err := dial(ctx, tgt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = drv.Close() })
	run, err := drv.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := drv.Diff(run, desired)
	if err != nil {
		t.Fatal(err)
	}
	return drv, ch
}

// HostKey checks that dial refuses an unknown host key and a changed one
// (with a HostKeyError saying which, and for a changed key, when hint is
// set, naming the option that overrides it), and accepts either with the
// insecure option set. It starts its own lab of vendor.
func HostKey(t *testing.T, vendor string, dial vendors.DialFunc, hint bool) {
	t.Helper()
	ctx := t.Context()
	n, tgt := StartLab(t, vendor, nil)
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	unknown := tgt
	unknown.Login.KnownHosts = empty
	var he *vendors.HostKeyError
	if _, err := dial(ctx, unknown); !errors.As(err, &he) || he.Changed {
		t.Errorf("unknown host key: got %v, want a HostKeyError (unknown)", err)
	}
	n.Faults().Update(func(f *device.Faults) { f.ChangeHostKey = true })
	if _, err := dial(ctx, tgt); !errors.As(err, &he) || !he.Changed {
		t.Errorf("changed host key: got %v, want a HostKeyError (changed)", err)
	} else if hint && !strings.Contains(err.Error(), "-insecure-ignore-host-key") {
		t.Errorf("error does not say how to override: %v", err)
	}
	insecure := tgt
	insecure.Login.InsecureIgnoreHostKey = true
	drv, err := dial(ctx, insecure)
	if err != nil {
		t.Fatalf("insecure dial: %v", err)
	}
	_ = drv.Close()
}

// Counters is what CountersAndRevert needs: a driver planned against a
// lab node, the change to apply, and the port whose counters it seeds.
type Counters struct {
	Node   *lab.Node
	Driver vendors.Driver
	Change *vendors.Change
	Port   string
	// Seed is added to the port's lab counters before the first read.
	Seed device.PortCounters
	// Before reports whether the first read shows the seeded counters.
	Before func(c vendors.PortCounters) bool
	// Dump, when set, prints both configs when Revert does not restore
	// the first byte for byte.
	Dump bool
}

// CountersAndRevert checks that the driver reads the seeded counters of
// c.Port, that they climb after applying c.Change with the lab's
// ClimbAfterChange fault, and that Revert to a Mark taken before the
// apply restores the running config byte for byte. It returns the
// Reverter and the mark for the vendor's own further checks.
func CountersAndRevert(t *testing.T, ctx context.Context, c Counters) (vendors.Reverter, string) {
	t.Helper()
	port, drv := c.Port, c.Driver
	c.Node.Device().(device.CounterDevice).Counters().Add(port, c.Seed)
	c.Node.Faults().Update(func(f *device.Faults) { f.ClimbAfterChange = true })
	h := drv.(vendors.Health)
	before, err := h.Counters(ctx, []string{port})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Before(before[port]) || before[port].Watchdog != 0 {
		t.Fatalf("before: %+v", before[port])
	}
	run0, err := drv.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rv := drv.(vendors.Reverter)
	mark, err := rv.Mark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res := drv.Apply(ctx, c.Change, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatal(res.Err)
	}
	after, err := h.Counters(ctx, []string{port})
	if err != nil {
		t.Fatal(err)
	}
	if after[port].Pause() <= before[port].Pause() || after[port].Watchdog == 0 {
		t.Errorf("after the change, counters did not climb: %+v", after[port])
	}
	if err := rv.Revert(ctx, mark); err != nil {
		t.Fatal(err)
	}
	run1, err := drv.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(run0, run1) {
		if c.Dump {
			t.Errorf("Revert did not restore the config byte for byte:\n%s\n---\n%s", run0, run1)
		} else {
			t.Error("Revert did not restore the config byte for byte")
		}
	}
	return rv, mark
}

// Failed checks the result of an apply that a fault must make fail: not
// applied, rolled back exactly when rollback is set (false: the failure
// came before any change), and an error that names DeviceName and reason.
func Failed(t *testing.T, res vendors.Result, reason string, rollback bool) {
	t.Helper()
	if res.Err == nil || res.Applied {
		t.Fatalf("apply succeeded despite the fault: %+v", res)
	}
	if res.RolledBack != rollback {
		t.Errorf("rolled back = %v, want %v: %v", res.RolledBack, rollback, res.Err)
	}
	t.Logf("result: %+v", res)
	msg := res.Err.Error()
	if !strings.Contains(msg, DeviceName) || !strings.Contains(msg, reason) {
		t.Errorf("error %q does not name the device and %q", msg, reason)
	}
}

// Restored checks that a failed apply left the device at exactly its
// pre-apply config: after is byte-identical to before.
func Restored(t *testing.T, before, after string) {
	t.Helper()
	if after != before {
		t.Errorf("device not back at its pre-apply config:\n%s", textdiff.Unified("before", "after", before, after))
	}
}

// DropAt starts a lab device of vendor seeded with seed, plans want on it
// and applies the plan with the connection dropped after closeAfter lines
// (the plan's own lines included). The device must end either at want,
// with the apply reported a success, or at exactly its pre-apply config
// as read prints it, with an error naming the device.
func DropAt(t *testing.T, vendor string, dial vendors.DialFunc, seed []byte, want *config.Document, closeAfter int, read func(*lab.Node) string) {
	t.Helper()
	ctx := t.Context()
	n, tgt := StartLab(t, vendor, seed)
	before := read(n)
	drv, ch := Plan(t, ctx, dial, tgt, want)
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = closeAfter })
	res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 0 })
	after := read(n)
	t.Logf("result: applied=%v rolled back=%v err=%v", res.Applied, res.RolledBack, res.Err)
	if res.Err == nil {
		if _, again := Plan(t, ctx, dial, tgt, want); !again.Empty() {
			t.Errorf("apply reported success but the device differs:\n%s", again.Diff)
		}
		return
	}
	if !strings.Contains(res.Err.Error(), DeviceName) {
		t.Errorf("error does not name the device: %v", res.Err)
	}
	if after != before {
		t.Errorf("failed apply (%v) left the device changed:\n%s", res.Err, textdiff.Unified("before", "after", before, after))
	}
}

// BenchDiff measures diff of running against desired, the parse, scope,
// diff and remediation of a plan, reporting the process CPU time per op
// beside the wall time (on a shared machine wall time includes waiting
// for a core; the CPU time, GC included, is the work itself).
func BenchDiff(b *testing.B, diff vendors.DiffFunc, running []byte, desired *config.Document) {
	b.Helper()
	b.SetBytes(int64(len(running)))
	cpu := CPUTime()
	for b.Loop() {
		ch, err := diff(DeviceName, running, desired)
		if err != nil || ch.Empty() {
			b.Fatal(err, ch.Empty())
		}
	}
	b.ReportMetric(float64(CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// OutsideUnchanged checks that the config outside lossless' scope, as the
// vendor's tests print it before and after an apply, is byte-identical.
func OutsideUnchanged(t *testing.T, before, after string) {
	t.Helper()
	if after != before {
		t.Errorf("config outside the scope changed:\n%s", textdiff.Unified("before", "after", before, after))
	}
}

// Converged checks that again, a plan made after an apply, has nothing
// left to do: no command, no patch and no diff.
func Converged(t *testing.T, again *vendors.Change) {
	t.Helper()
	if !again.Empty() || again.Diff != "" {
		t.Errorf("plan after apply is not empty:\n%s\n%q\n%s", again.Diff, again.Commands, again.Patch)
	}
}
