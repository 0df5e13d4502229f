package rollout_test

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/plan/plantest"
	"github.com/lossless-net/lossless/internal/rollout"
)

// fake's devices live in memory and have no health counters.
var fake = plantest.NewMemory("fake-rollout-test")

// TestGateFailsClosed: with a health gate on, a device whose driver
// cannot read counters is never changed: the batch trips before it
// starts, naming the device and why.
func TestGateFailsClosed(t *testing.T) {
	var devs []plan.Device
	for _, n := range []string{"f1", "f2"} {
		d := fake.Device(n, "old", "want")
		d.Intent.Ports = []intent.Port{{Name: "p1"}}
		devs = append(devs, d)
	}
	st := newState(t, devs)
	rep, err := rollout.Run(t.Context(), devs, st, rollout.Options{Staging: rollout.Staging{Gate: &rollout.Gate{MaxPausePerSec: 10}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Stopped, "cannot read health counters") || len(st.Devices) != 0 {
		t.Errorf("stopped %q, devices %v", rep.Stopped, st.Devices)
	}
	if fake.Running("f1") != "old" || fake.Running("f2") != "old" {
		t.Errorf("devices changed without a gate reading: %q, %q", fake.Running("f1"), fake.Running("f2"))
	}
	// Without the gate the same rollout applies both.
	rep, err = rollout.Run(t.Context(), devs, st, rollout.Options{})
	if err != nil || rep.Stopped != "" || fake.Running("f1") != "want" {
		t.Errorf("without a gate: %v %q %q", err, rep.Stopped, fake.Running("f1"))
	}
}
