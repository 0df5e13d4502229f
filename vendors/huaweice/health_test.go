package huaweice

import (
	"bytes"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// refDCBPFC is reference/huawei-ce.md "Counters for health checks":
// display dcb pfc interface 100ge 1/0/1 [C:hc-S1].
const refDCBPFC = `-----------------------------------------------------------------------------------------
Interface         Queue         Received(Frames)        ReceivedRate(pps)     DeadlockNum
                             Transmitted(Frames)     TransmittedRate(pps)     RecoveryNum
-----------------------------------------------------------------------------------------
100GE1/0/1             5                       0                        0               0
                                               0                        0               0
-----------------------------------------------------------------------------------------
`

func TestParseDCBPFCReference(t *testing.T) {
	cs, err := ParseDCBPFC(refDCBPFC)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cs["100GE1/0/1"]; !ok || len(cs) != 1 {
		t.Fatalf("ports: %v", cs)
	}
	more := bytes.Replace([]byte(refDCBPFC), []byte("       5                       0                        0               0"), []byte("       3                      17                        0               2"), 1)
	more = bytes.Replace(more, []byte("                                               0                        0               0\n"), []byte("                                             250                        0               1\n"), 1)
	cs, err = ParseDCBPFC(string(more))
	if err != nil {
		t.Fatal(err)
	}
	if c := cs["100GE1/0/1"]; c.PauseRx[3] != 17 || c.PauseTx[3] != 250 || c.Watchdog != 2 {
		t.Errorf("queue 3: %+v", c)
	}
}

// TestCountersLabAndRevert: the driver reads the lab's counters, which
// climb after a commit with ClimbAfterChange, and Revert rolls the
// commits since Mark back byte for byte.
func TestCountersLabAndRevert(t *testing.T) {
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(canonical(t).Text))
	ctx := t.Context()
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, canonical(t))
	port := "100GE1/0/1"
	vendortest.CountersAndRevert(t, ctx, vendortest.Counters{
		Node: n, Driver: drv, Change: ch, Port: port,
		Seed:   device.PortCounters{PauseRx: [8]uint64{3: 42}},
		Before: func(c vendors.PortCounters) bool { return c.PauseRx[3] == 42 },
		Dump:   true,
	})
	if _, err := drv.(vendors.Health).Counters(ctx, []string{"100GE1/0/99"}); err == nil {
		t.Error("a port the switch does not have was read")
	}
}
