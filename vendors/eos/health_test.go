package eos

import (
	"bytes"
	"os"
	"testing"

	"github.com/lossless-net/lossless/lab/device"
	"github.com/lossless-net/lossless/vendors"
)

func TestParseCountersReference(t *testing.T) {
	// reference/eos.md "Counters for health checks", JSON samples 1 and 6.
	cs, err := ParsePFCCounters([]byte(`{"interfaceCounters": {"Ethernet3/1/1": {"rxFrames": 5, "txFrames": 7}, "Ethernet1": {"rxFrames": 0, "txFrames": 0}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := ParsePFCWatchdog([]byte(`{"interfaces": {"Ethernet1": {"txQueues": {"3": {"stuckCount": 2, "recoveryCount": 1}}}}}`), cs); err != nil {
		t.Fatal(err)
	}
	if c := cs["Ethernet3/1/1"]; c.Pause() != 12 || c.Watchdog != 0 {
		t.Errorf("Ethernet3/1/1: %+v", c)
	}
	if c := cs["Ethernet1"]; c.Watchdog != 2 {
		t.Errorf("Ethernet1: %+v", c)
	}
	if err := ParsePFCWatchdog([]byte(`{"interfaces": {}}`), cs); err != nil {
		t.Errorf("no event yet: %v", err)
	}
	if _, err := ParsePFCCounters([]byte(`% Invalid input`)); err == nil {
		t.Error("a refusal parsed as counters")
	}
}

// TestCountersLabAndRevert: the driver reads the lab's counters, which
// climb after a session commit with ClimbAfterChange, and Revert replaces
// the config with the checkpoint Mark saved, byte for byte.
func TestCountersLabAndRevert(t *testing.T) {
	canon, err := os.ReadFile("testdata/canonical.cfg")
	if err != nil {
		t.Fatal(err)
	}
	n, tgt := startLab(t, LabSeed(canon))
	ctx := t.Context()
	want := document(t, string(canon))
	drv, ch := plan(t, ctx, tgt, want)
	port := "Ethernet1"
	n.Device().(device.CounterDevice).Counters().Add(port, device.PortCounters{PauseTx: [8]uint64{3: 99}})
	n.Faults().Update(func(f *device.Faults) { f.ClimbAfterChange = true })
	h := drv.(vendors.Health)
	before, err := h.Counters(ctx, []string{port})
	if err != nil {
		t.Fatal(err)
	}
	if before[port].Pause() != 99 || before[port].Watchdog != 0 {
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
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
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
		t.Errorf("Revert did not restore the config byte for byte:\n%s\n---\n%s", run0, run1)
	}
	if err := rv.Forget(ctx, mark); err == nil {
		t.Error("the checkpoint is still there after Revert")
	}
}
