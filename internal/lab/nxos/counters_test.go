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

// TestPFCModes: show interface priority-flow-control [detail] gives each
// port's own mode (On, Off, Auto), Auto operating Off with no DCBX peer,
// and the VL bitmap of the pause pfc-cos CoS set of the network-qos
// policy under system qos (counters.go).
func TestPFCModes(t *testing.T) {
	seed := "policy-map type network-qos NQ\n  class type network-qos c-8q-nq3\n    pause pfc-cos 3\n" +
		"system qos\n  service-policy type network-qos NQ\n" +
		"interface Ethernet1/1\n  priority-flow-control mode on\ninterface Ethernet1/2\n  priority-flow-control mode off\n"
	d, err := New("leaf1", []byte(seed))
	if err != nil {
		t.Fatal(err)
	}
	d.Counters().Add("Ethernet1/1", device.PortCounters{PauseRx: [8]uint64{3: 7}, PauseTx: [8]uint64{3: 150}})
	s := d.NewSession("admin", nil)
	out, _ := s.Handle("show interface Ethernet1/1-3 priority-flow-control detail")
	for _, want := range []string{
		"Ethernet1/1\n    Admin Mode: On\n    Oper Mode: On\n    VL bitmap: (8)\n",
		"Ethernet1/2\n    Admin Mode: Off\n    Oper Mode: Off\n    VL bitmap: (0)\n",
		"Ethernet1/3\n    Admin Mode: Auto\n    Oper Mode: Off\n    VL bitmap: (0)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	out, _ = s.Handle("show interface Ethernet1/1-3 priority-flow-control")
	rule := strings.Repeat("=", 60) + "\n"
	want := rule + "Port               Mode Oper(VL bmap)  RxPPP      TxPPP\n" + rule + "\n" +
		"Ethernet1/1        On   On (8)         7          150\n" +
		"Ethernet1/2        Off  Off            0          0\n" +
		"Ethernet1/3        Auto Off            0          0\n"
	if out != want {
		t.Errorf("summary:\n%s\nwant:\n%s", out, want)
	}
	if out, _ := s.Handle("show interface priority-flow-control | include ^Ethernet1/64 "); !strings.HasPrefix(out, "Ethernet1/64       Auto Off") {
		t.Errorf("every port, filtered: %q", out)
	}
}
