package rollout_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
	"github.com/lossless-net/lossless/vendors"
)

// fakeVendor's devices live in memory and have no health counters.
const fakeVendor = "fake-rollout-test"

var fake = struct {
	mu      sync.Mutex
	running map[string]string
}{running: map[string]string{}}

func init() {
	vendors.Register(vendors.Vendor{Name: fakeVendor, Scope: "everything",
		Dial: func(_ context.Context, t vendors.Target) (vendors.Driver, error) { return &fakeDriver{t.Device}, nil },
		Render: func(d *intent.Device) (*config.Document, error) {
			return &config.Document{Device: d.Name, Format: config.CLI, Text: []byte("want")}, nil
		}})
}

type fakeDriver struct{ name string }

func (d *fakeDriver) Running(context.Context) ([]byte, error) {
	fake.mu.Lock()
	defer fake.mu.Unlock()
	return []byte(fake.running[d.name]), nil
}

func (d *fakeDriver) Diff(running []byte, desired *config.Document) (*vendors.Change, error) {
	ch := &vendors.Change{Device: d.name, Vendor: fakeVendor, Desired: desired}
	if !bytes.Equal(running, desired.Text) {
		ch.Commands = []string{"set want"}
	}
	return ch, nil
}

func (d *fakeDriver) Apply(_ context.Context, c *vendors.Change, _ vendors.ApplyOptions) vendors.Result {
	fake.mu.Lock()
	defer fake.mu.Unlock()
	fake.running[d.name] = string(c.Desired.Text)
	return vendors.Result{Device: d.name, Applied: true}
}

func (d *fakeDriver) Close() error { return nil }

// TestGateFailsClosed: with a health gate on, a device whose driver
// cannot read counters is never changed: the batch trips before it
// starts, naming the device and why.
func TestGateFailsClosed(t *testing.T) {
	var devs []plan.Device
	for _, n := range []string{"f1", "f2"} {
		fake.mu.Lock()
		fake.running[n] = "old"
		fake.mu.Unlock()
		devs = append(devs, plan.Device{Intent: &intent.Device{Name: n, Vendor: fakeVendor, Ports: []intent.Port{{Name: "p1"}}}, Target: vendors.Target{Device: n}})
	}
	st := newState(t, devs)
	rep, err := rollout.Run(t.Context(), devs, st, rollout.Options{Staging: rollout.Staging{Gate: &rollout.Gate{MaxPausePerSec: 10}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Stopped, "cannot read health counters") || len(st.Devices) != 0 {
		t.Errorf("stopped %q, devices %v", rep.Stopped, st.Devices)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if fake.running["f1"] != "old" || fake.running["f2"] != "old" {
		t.Errorf("devices changed without a gate reading: %v", fake.running)
	}
	// Without the gate the same rollout applies both.
	fake.mu.Unlock()
	rep, err = rollout.Run(t.Context(), devs, st, rollout.Options{})
	fake.mu.Lock()
	if err != nil || rep.Stopped != "" || fake.running["f1"] != "want" {
		t.Errorf("without a gate: %v %q %v", err, rep.Stopped, fake.running)
	}
}
