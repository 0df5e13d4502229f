package eos

import (
	"os"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
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
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(canon))
	ctx := t.Context()
	want := document(t, string(canon))
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	port := "Ethernet1"
	rv, mark := vendortest.CountersAndRevert(t, ctx, vendortest.Counters{
		Node: n, Driver: drv, Change: ch, Port: port,
		Seed:   device.PortCounters{PauseTx: [8]uint64{3: 99}},
		Before: func(c vendors.PortCounters) bool { return c.Pause() == 99 },
		Dump:   true,
	})
	if err := rv.Forget(ctx, mark); err == nil {
		t.Error("the checkpoint is still there after Revert")
	}
}
