package sonic

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	labsonic "github.com/lossless-net/lossless/internal/lab/sonic"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// testClock is a clock for the drivers of one test: every reading is one
// second after the last, so each run's names are its own and later runs'
// are newer, as on a real clock.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

// dialClocked dials tgt with the driver's clock set to c; it closes when
// t ends.
func dialClocked(t *testing.T, tgt vendors.Target, c *testClock) *Driver {
	t.Helper()
	drv, err := Dial(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = drv.Close() })
	d := drv.(*Driver)
	d.Clock = c.Now
	return d
}

// checkpointsOn lists the lab device's checkpoints over a session of its
// own, as an operator would.
func checkpointsOn(t *testing.T, n *lab.Node) []string {
	t.Helper()
	out, _ := n.Device().NewSession("admin", nil).Handle("sudo config list-checkpoints")
	var names []string
	if err := json.Unmarshal([]byte(out), &names); err != nil {
		t.Fatalf("list-checkpoints: %v: %q", err, out)
	}
	return names
}

// losslessCheckpoints are the checkpoints of names with one of lossless'
// names.
func losslessCheckpoints(names []string) []string {
	var out []string
	for _, n := range names {
		if _, ok := stampOf(n); ok {
			out = append(out, n)
		}
	}
	return out
}

// killedApply plans want over a new driver, saves a restore point as the
// write-ahead record does (Mark), and applies with the device's session
// dropped after change k of GCU's sorted changes, lossless dead with it:
// the lab refuses new logins, so the driver can neither reconnect nor
// roll back, and the device keeps what a SIGKILL of lossless at that
// moment leaves. It returns the mark, the number of changes the patch
// was sorted into and the apply's error.
func killedApply(t *testing.T, n *lab.Node, tgt vendors.Target, c *testClock, want *config.Document, k int) (mark string, changes int, err error) {
	t.Helper()
	ctx := t.Context()
	d := dialClocked(t, tgt, c)
	run, err := d.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := d.Diff(run, want)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Empty() {
		t.Fatal("nothing to apply")
	}
	if mark, err = d.Mark(ctx); err != nil {
		t.Fatal(err)
	}
	dev := n.Device().(*labsonic.Device)
	dev.Watch(func(w labsonic.Write, _ map[string]map[string]map[string]string) { changes = w.Changes })
	dev.DropSessionAfter(k)
	n.Faults().Update(func(f *device.Faults) { f.RefuseAuth = true })
	res := d.Apply(ctx, ch, vendors.ApplyOptions{})
	n.Faults().Update(func(f *device.Faults) { f.RefuseAuth = false })
	dev.Watch(nil)
	if res.Applied || res.RolledBack || res.Err == nil {
		t.Fatalf("the killed apply reports %+v", res)
	}
	return mark, changes, res.Err
}

// recoverTo does what `lossless recover` does with a device's recorded
// restore point, over a new driver: Revert to it.
func recoverTo(t *testing.T, tgt vendors.Target, c *testClock, mark string) {
	t.Helper()
	if err := dialClocked(t, tgt, c).Revert(t.Context(), mark); err != nil {
		t.Fatalf("recover: %v", err)
	}
}

// TestKilledApplies: ten applies in a row, each killed in the middle of
// GCU's changes (the session dropped after change k, for k spread over
// the patch) with lossless dead, leave the device with one lossless
// checkpoint at most, the restore point the write-ahead record names, and
// never touch the operator's checkpoints. Rolled back to that restore
// point, as `lossless recover` does, the whole CONFIG_DB is the one from
// before the apply, byte for byte, and no lossless checkpoint is left.
// Whether or not each killed run is recovered before the next one runs
// (when not, the operator puts the stale config back between runs, so
// that each run has the whole patch to apply), the count holds; the last
// one's restore point is always there.
func TestKilledApplies(t *testing.T) {
	want := canonical(t)
	// How many changes GCU sorts the plan into, from the seed.
	probe, probeTgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	_, total, _ := killedApply(t, probe, probeTgt, newTestClock(), want, 1)
	if total < 3 {
		t.Fatalf("the patch is sorted into %d changes: too few to kill it in the middle", total)
	}
	t.Logf("GCU sorts the plan into %d changes", total)
	const runs = 10
	operator := []string{"before-upgrade", "lossless-notes", "lossless-pre-" + strings.Repeat("0", 12)}
	for _, recover := range []bool{true, false} {
		t.Run(fmt.Sprintf("recovered each time %v", recover), func(t *testing.T) {
			n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
			s := n.Device().NewSession("admin", nil)
			for _, name := range operator {
				s.Handle("sudo config checkpoint " + name)
			}
			seed := n.Device().(device.Checkpointer).Checkpoint()
			c := newTestClock()
			for i := range runs {
				k := 1 + i*(total-2)/(runs-1) // 1 … total-1: always mid-patch
				if !recover {
					if err := n.Device().(device.Checkpointer).Restore(seed); err != nil {
						t.Fatal(err)
					}
				}
				pre, preText := dbOf(n), running(n)
				mark, changes, err := killedApply(t, n, tgt, c, want, k)
				if !strings.Contains(err.Error(), "connection lost") {
					t.Errorf("run %d: the apply did not see its session drop: %v", i, err)
				}
				if after := dbOf(n); cmp.Equal(after, pre) {
					t.Errorf("run %d, killed after change %d of %d: nothing was written", i, k, changes)
				}
				names := checkpointsOn(t, n)
				if got := losslessCheckpoints(names); !cmp.Equal(got, []string{mark}) {
					t.Errorf("run %d: lossless checkpoints %v, want only the restore point %s", i, got, mark)
				}
				for _, o := range operator {
					if !strings.Contains(strings.Join(names, " ")+" ", o+" ") {
						t.Errorf("run %d: the operator's checkpoint %s is gone: %v", i, o, names)
					}
				}
				if !recover && i < runs-1 {
					continue
				}
				recoverTo(t, tgt, c, mark)
				if got := dbOf(n); !cmp.Equal(got, pre) {
					t.Errorf("run %d: recovered CONFIG_DB differs from before the apply:\n%s", i, cmp.Diff(pre, got))
				}
				if got := running(n); got != preText {
					t.Errorf("run %d: the recovered running config is not byte for byte the one from before", i)
				}
				if got := losslessCheckpoints(checkpointsOn(t, n)); len(got) != 0 {
					t.Errorf("run %d: recovered, lossless checkpoints %v are left", i, got)
				}
			}
			// The next apply, not killed, converges and leaves none.
			d := dialClocked(t, tgt, c)
			run, err := d.Running(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			ch, err := d.Diff(run, want)
			if err != nil {
				t.Fatal(err)
			}
			if res := d.Apply(t.Context(), ch, vendors.ApplyOptions{}); !res.Applied {
				t.Fatalf("apply after the killed ones: %v", res.Err)
			}
			if got := losslessCheckpoints(checkpointsOn(t, n)); len(got) != 0 {
				t.Errorf("after a good apply, lossless checkpoints %v are left", got)
			}
		})
	}
}

// TestCheckpointHygiene: a restore point (Mark) deletes nothing; an Apply
// on the same session that starts from the config the restore point
// holds takes no checkpoint of its own (creating one is refused here, and
// it applies), deletes the lossless checkpoints older than the restore
// point and nothing else (an operator's, one of a clock ahead of ours),
// and leaves the restore point to whoever saved it; one that does not
// start from it, or that has no restore point, takes its own, never
// deletes the session's restore point, and deletes its own after the
// push.
func TestCheckpointHygiene(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	c := newTestClock()
	stamp := func(prefix string, d time.Duration) string { return vendors.Stamp(prefix, c.now.Add(d)) }
	staleMark, staleApply := stamp(markPrefix, -time.Hour), stamp(applyPrefix, -2*time.Hour)
	ahead := stamp(markPrefix, time.Hour)
	s := n.Device().NewSession("admin", nil)
	for _, name := range []string{"operator", staleMark, staleApply, ahead} {
		s.Handle("sudo config checkpoint " + name)
	}
	d := dialClocked(t, tgt, c)
	mark, err := d.Mark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := checkpointsOn(t, n), sorted(ahead, mark, "operator", staleMark, staleApply); !cmp.Equal(got, want) {
		t.Errorf("after Mark: checkpoints %v, want %v", got, want)
	}
	run, err := d.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := d.Diff(run, want)
	if err != nil {
		t.Fatal(err)
	}
	n.Faults().Update(func(f *device.Faults) { f.RejectPattern = `config checkpoint` })
	res := d.Apply(ctx, ch, vendors.ApplyOptions{})
	n.Faults().Update(func(f *device.Faults) { f.RejectPattern = "" })
	if !res.Applied {
		t.Fatalf("apply over the session's restore point took a checkpoint of its own: %v", res.Err)
	}
	if got, want := checkpointsOn(t, n), sorted(ahead, mark, "operator"); !cmp.Equal(got, want) {
		t.Errorf("after Apply: checkpoints %v, want %v", got, want)
	}
	if err := d.Forget(ctx, mark); err != nil {
		t.Fatal(err)
	}

	// The config changes between the restore point and the apply (an
	// operator's apply-patch, in lossless' scope): Apply checkpoints what
	// it starts from, and keeps the restore point. A failure to create
	// that checkpoint is reported as that, and nothing is changed.
	d = dialClocked(t, tgt, c)
	if mark, err = d.Mark(ctx); err != nil {
		t.Fatal(err)
	}
	tamper(t, n, "7")
	if ch, err = plan(ctx, d, want); err != nil {
		t.Fatal(err)
	}
	before := running(n)
	n.Faults().Update(func(f *device.Faults) { f.RejectPattern = `config checkpoint` })
	res = d.Apply(ctx, ch, vendors.ApplyOptions{})
	n.Faults().Update(func(f *device.Faults) { f.RejectPattern = "" })
	vendortest.Failed(t, res, "checkpoint: create checkpoint lossless-", false)
	if !strings.Contains(res.Err.Error(), "nothing was changed") {
		t.Errorf("the failure does not say nothing was changed: %v", res.Err)
	}
	vendortest.Restored(t, before, running(n))
	if res := d.Apply(ctx, ch, vendors.ApplyOptions{}); !res.Applied {
		t.Fatalf("apply: %v", res.Err)
	}
	if got, want := checkpointsOn(t, n), sorted(ahead, mark, "operator"); !cmp.Equal(got, want) {
		t.Errorf("after an Apply with its own checkpoint: %v, want %v", got, want)
	}
	// A later apply, on another session with no restore point of its
	// own, takes its checkpoint and deletes the older one left behind.
	tamper(t, n, "8")
	d = dialClocked(t, tgt, c)
	if ch, err = plan(ctx, d, want); err != nil {
		t.Fatal(err)
	}
	if res := d.Apply(ctx, ch, vendors.ApplyOptions{}); !res.Applied {
		t.Fatalf("apply: %v", res.Err)
	}
	if got, want := checkpointsOn(t, n), sorted(ahead, "operator"); !cmp.Equal(got, want) {
		t.Errorf("after an Apply without a restore point: %v, want %v", got, want)
	}
	// Mark's failure to create its checkpoint is reported as that.
	n.Faults().Update(func(f *device.Faults) { f.RejectPattern = `config checkpoint` })
	_, err = d.Mark(ctx)
	n.Faults().Update(func(f *device.Faults) { f.RejectPattern = "" })
	if err == nil || !strings.Contains(err.Error(), "mark leaf1: create checkpoint lossless-pre-") {
		t.Errorf("Mark with checkpoints refused: %v", err)
	}
}

// sorted returns names sorted, as the lab lists checkpoints.
func sorted(names ...string) []string {
	slices.Sort(names)
	return names
}

// tamper sets the ROCE_LOSSLESS drop probability with an operator's
// apply-patch.
func tamper(t *testing.T, n *lab.Node, p string) {
	t.Helper()
	s := n.Device().NewSession("admin", nil)
	for _, l := range []string{"cat > /tmp/op.json <<'EOF'", `[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/green_drop_probability","value":"` + p + `"}]`, "EOF"} {
		s.Handle(l)
	}
	if out, _ := s.Handle("sudo config apply-patch /tmp/op.json"); !strings.Contains(out, "Patch applied successfully.") {
		t.Fatalf("operator's patch:\n%s", out)
	}
}

// plan reads d's running config and diffs it against want.
func plan(ctx context.Context, d *Driver, want *config.Document) (*vendors.Change, error) {
	run, err := d.Running(ctx)
	if err != nil {
		return nil, err
	}
	return d.Diff(run, want)
}
