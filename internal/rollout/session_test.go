package rollout_test

import (
	"context"
	"maps"
	"sync"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
	"github.com/lossless-net/lossless/vendors"
)

// countedVendor is NX-OS with every dial counted, per device.
const countedVendor = "nxos-counted-rollout-test"

var dials = struct {
	mu sync.Mutex
	n  map[string]int
}{n: map[string]int{}}

func init() {
	nxos, ok := vendors.Lookup("nxos")
	if !ok {
		panic("rollout test: nxos is not registered")
	}
	vendors.Register(vendors.Vendor{Name: countedVendor, Scope: nxos.Scope, Render: nxos.Render,
		Dial: func(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
			dials.mu.Lock()
			dials.n[t.Device]++
			dials.mu.Unlock()
			return nxos.Dial(ctx, t)
		}})
}

// countedFleet is labFleet's NX-OS lab devices, dialled through
// countedVendor, with the plan made and the dial counts reset.
func countedFleet(t *testing.T, n int) ([]plan.Device, map[string]*device.Faults, *rollout.State) {
	t.Helper()
	devs, nodes := labFleet(t, n)
	faults := map[string]*device.Faults{}
	for _, d := range devs {
		d.Intent.Vendor = countedVendor
		faults[d.Intent.Name] = nodes[d.Intent.Name].Faults()
	}
	st := newState(t, devs)
	dials.mu.Lock()
	clear(dials.n)
	dials.mu.Unlock()
	return devs, faults, st
}

func dialCounts() map[string]int {
	dials.mu.Lock()
	defer dials.mu.Unlock()
	return maps.Clone(dials.n)
}

// TestGateOneSessionPerBatch: with health gates on, each device of a
// batch is dialled once for the whole batch (counters before, mark, the
// change, counters after, and the restore when the gate trips), whether
// the batch passes or is put back.
func TestGateOneSessionPerBatch(t *testing.T) {
	gate := &rollout.Gate{MaxPausePerSec: 1000}
	t.Run("passes", func(t *testing.T) {
		devs, _, st := countedFleet(t, 6)
		rep, err := rollout.Run(t.Context(), devs, st, rollout.Options{
			Staging: rollout.Staging{Canary: 1, Batch: rollout.Size{N: 3}, Gate: gate},
			Plan:    plan.Options{Parallelism: 2},
		})
		if err != nil || rep.Stopped != "" || len(rep.Batches) != 3 {
			t.Fatalf("rollout: %v, stopped %q, %d batches", err, rep.Stopped, len(rep.Batches))
		}
		got := dialCounts()
		for _, d := range devs {
			if got[d.Intent.Name] != 1 {
				t.Errorf("%s dialled %d times in its batch, want 1", d.Intent.Name, got[d.Intent.Name])
			}
		}
	})
	t.Run("trips and restores", func(t *testing.T) {
		devs, faults, st := countedFleet(t, 4)
		faults["leaf002"].Update(func(f *device.Faults) { f.ClimbAfterChange = true })
		rep, err := rollout.Run(t.Context(), devs, st, rollout.Options{
			Staging: rollout.Staging{Canary: 1, Batch: rollout.Size{N: 3}, Gate: gate},
			Plan:    plan.Options{Parallelism: 3},
		})
		if err != nil || len(rep.Batches) != 2 || len(rep.Batches[1].Restored) != 3 {
			t.Fatalf("rollout: %v, %d batches, stopped %q", err, len(rep.Batches), rep.Stopped)
		}
		got := dialCounts()
		for _, d := range devs {
			if got[d.Intent.Name] != 1 {
				t.Errorf("%s dialled %d times in its batch, want 1", d.Intent.Name, got[d.Intent.Name])
			}
		}
	})
	t.Run("no gate", func(t *testing.T) {
		devs, _, st := countedFleet(t, 3)
		if _, err := rollout.Run(t.Context(), devs, st, rollout.Options{Staging: rollout.Staging{Batch: rollout.Size{N: 2}}}); err != nil {
			t.Fatal(err)
		}
		got := dialCounts()
		for _, d := range devs {
			if got[d.Intent.Name] != 1 {
				t.Errorf("%s dialled %d times, want 1", d.Intent.Name, got[d.Intent.Name])
			}
		}
	})
}
