package nxos

import (
	"context"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// pfcDetail is reference/nxos.md "Counters for health checks": the Nexus
// 93180FX2 transcript of show interface priority-flow-control detail.
const pfcDetail = `Ethernet1/51
    Admin Mode: On
    Oper Mode: On
    VL bitmap: (20)
    Total Rx PFC Frames: 0
    Total Tx PFC Frames: 150
    ---------------------------------------------------------------------------------------------------------------------
        |  Priority0  |  Priority1  |  Priority2  |  Priority3  |  Priority4  |  Priority5  |  Priority6  |  Priority7  |
    ---------------------------------------------------------------------------------------------------------------------
    Rx  |0            |0            |0            |0            |0            |0            |0            |0
    ---------------------------------------------------------------------------------------------------------------------
    Tx  |0            |0            |0            |0            |0            |150          |0            |0
`

// pfcQueue is the reference's show queuing pfc-queue interface … detail
// layout (parser fixture numbers).
const pfcQueue = `Ethernet1/51 Interface PFC watchdog: [Enabled]
Disable-action                     : No
PFC watch-dog interface-multiplier : 0
+----------------------------------------------------+
| QOS GROUP 3 [Shutdown] PFC [YES] PFC-COS [3]
+----------------------------------------------------+
|                               |  Stats             |
+----------------------------------------------------+
|                       Shutdown|                   1|
|                       Restored|                   2|
|             Total pkts drained|                   3|
|             Total pkts dropped|                   4|
|   Total pkts drained + dropped|                   5|
|         Aggregate pkts dropped|                   6|
|     Total Ingress pkts dropped|                1924|
| Aggregate Ingress pkts dropped|                1925|
+----------------------------------------------------+
`

func TestParseCountersReference(t *testing.T) {
	cs, err := ParsePFCDetail(pfcDetail)
	if err != nil {
		t.Fatal(err)
	}
	ParsePFCQueue(pfcQueue, cs)
	c := cs["Ethernet1/51"]
	if c.PauseTx[5] != 150 || c.Pause() != 150 || c.Watchdog != 1 || c.Drops != 5 {
		t.Errorf("Ethernet1/51: %+v", c)
	}
	bad := strings.Replace(pfcDetail, "|150          ", "|x", 1)
	if _, err := ParsePFCDetail(bad); err == nil || !strings.Contains(err.Error(), "Ethernet1/51: Tx priority 5") {
		t.Errorf("bad count: %v", err)
	}
}

// TestCountersLab: the driver reads the lab's counters of the managed
// ports; after a change with ClimbAfterChange the RoCE priority's pause
// frames and the watchdog climb.
func TestCountersLab(t *testing.T) {
	n, target := vendortest.StartLab(t, Vendor, nil)
	n.Device().(device.CounterDevice).Counters().Add("Ethernet1/2", device.PortCounters{PauseRx: [8]uint64{3: 7}})
	n.Faults().Update(func(f *device.Faults) { f.ClimbAfterChange = true })
	ctx := t.Context()
	drv, err := Dial(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	h := drv.(vendors.Health)
	read := func() map[string]vendors.PortCounters {
		t.Helper()
		cs, err := h.Counters(ctx, []string{"Ethernet1/1", "Ethernet1/2"})
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	cs := read()
	if len(cs) != 2 || cs["Ethernet1/2"].PauseRx[3] != 7 || cs["Ethernet1/1"].Pause() != 0 {
		t.Fatalf("before the change: %+v", cs)
	}
	if _, err := h.Counters(ctx, []string{"Ethernet1/99"}); err == nil {
		t.Error("a port the switch does not have was read")
	}
	if err := configure(ctx, drv, "interface Ethernet1/1", "description x"); err != nil {
		t.Fatal(err)
	}
	after := read()
	if d := after["Ethernet1/1"].Pause(); d == 0 || after["Ethernet1/1"].Watchdog == 0 {
		t.Errorf("after the change, counters did not climb: %+v", after["Ethernet1/1"])
	}
}

func configure(ctx context.Context, drv vendors.Driver, lines ...string) error {
	return drv.(*Driver).Session.Configure(ctx, lines)
}

// TestMarkRevert: Revert puts back the exact config saved by Mark.
func TestMarkRevert(t *testing.T) {
	_, target := vendortest.StartLab(t, Vendor, LabSeed(canonical(t).Text))
	ctx := t.Context()
	drv, err := Dial(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	before, err := drv.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rv := drv.(vendors.Reverter)
	mark, err := rv.Mark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := drv.Diff(before, canonical(t))
	if err != nil {
		t.Fatal(err)
	}
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
		t.Fatal(res.Err)
	}
	if err := rv.Revert(ctx, mark); err != nil {
		t.Fatal(err)
	}
	after, err := drv.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("not back byte for byte:\n%s\n---\n%s", before, after)
	}
}
