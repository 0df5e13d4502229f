package nxos

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// TestCounterShows: the counter commands print the named ports of a
// model with fewer ports than the default, refuse a port beyond its
// panel, and show counters added to the device.
func TestCounterShows(t *testing.T) {
	d, err := New("leaf1", nil, WithModel("N9K-C93600CD-GX"))
	if err != nil {
		t.Fatal(err)
	}
	d.Counters().Add("Ethernet1/2", device.PortCounters{PauseTx: [8]uint64{3: 150}, Watchdog: 1})
	s := d.NewSession("admin", nil)
	out, _ := s.Handle("show interface Ethernet1/1,Ethernet1/2 priority-flow-control detail")
	if !strings.HasPrefix(out, "Ethernet1/1\n    Admin Mode: Auto\n") || !strings.Contains(out, "Ethernet1/2\n") || !strings.Contains(out, "    Total Tx PFC Frames: 150\n") ||
		!strings.Contains(out, "    Tx  |0            |0            |0            |150          |0            |0            |0            |0\n") {
		t.Errorf("pfc detail:\n%s", out)
	}
	out, _ = s.Handle("show queuing pfc-queue interface Ethernet1/2 detail")
	if !strings.Contains(out, "| QOS GROUP 3 [Shutdown] PFC [YES] PFC-COS [3]\n") || !strings.Contains(out, "|                       Shutdown|                   1|\n") {
		t.Errorf("pfc-queue detail:\n%s", out)
	}
	out, _ = s.Handle("show interface Ethernet1/99 priority-flow-control detail")
	if !strings.Contains(out, "% Invalid") {
		t.Errorf("port beyond the panel: %q", out)
	}
}
