package sonic

import (
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// Reference/sonic.md "Counters for health checks" test outputs.
const (
	refPFC = `  Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7
---------  ------  ------  ------  ------  ------  ------  ------  ------
Ethernet0   1,200     201     202     203     204     205     206     207

  Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7
---------  ------  ------  ------  ------  ------  ------  ------  ------
Ethernet0   1,210     211     212     213     214     215     216     217
`
	refWD = `      QUEUE       STATUS    STORM DETECTED/RESTORED    TX OK/DROP    RX OK/DROP    TX LAST OK/DROP    RX LAST OK/DROP
-----------  -----------  -------------------------  ------------  ------------  -----------------  -----------------
Ethernet0:3      stormed                        1/0       100/300       100/300              0/200              0/200
Ethernet4:3  operational                        2/2       100/100       100/100                0/0                0/0
`
)

func TestParseCountersReference(t *testing.T) {
	cs, err := ParsePFCCounters(refPFC)
	if err != nil {
		t.Fatal(err)
	}
	if err := ParsePFCWDStats(refWD, cs); err != nil {
		t.Fatal(err)
	}
	c := cs["Ethernet0"]
	if c.PauseRx[0] != 1200 || c.PauseTx[0] != 1210 || c.PauseTx[7] != 217 || c.Watchdog != 1 || c.Drops != 300 {
		t.Errorf("Ethernet0: %+v", c)
	}
	if _, err := ParsePFCCounters("  Port Rx PFC0\nEthernet0 1 2\n"); err == nil {
		t.Error("short row accepted")
	}
}

// TestCountersLabAndRevert: the driver reads the lab's counters; after a
// change with ClimbAfterChange they climb; Revert puts CONFIG_DB back
// byte for byte to the checkpoint Mark saved.
func TestCountersLabAndRevert(t *testing.T) {
	// The switch already runs an older lossless config (stale thresholds
	// and watchdog times), as the lab seeds it: from factory defaults the
	// change would add PFC_WD entries, and the lab's GCU refuses the
	// rollback's PFC_WD removal on its ASIC (reference/sonic.md §8).
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(canonical(t).Text))
	ctx := t.Context()
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, canonical(t))
	port := "Ethernet0"
	vendortest.CountersAndRevert(t, ctx, vendortest.Counters{
		Node: n, Driver: drv, Change: ch, Port: port,
		Seed:   device.PortCounters{PauseTx: [8]uint64{3: 1234567}},
		Before: func(c vendors.PortCounters) bool { return c.PauseTx[3] == 1234567 },
		Dump:   false,
	})
}
