package eos_test

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/eos"
)

// FuzzSession types arbitrary lines: the device never panics, and its
// running config always seeds an identical device (what it prints, it
// accepts).
func FuzzSession(f *testing.F) {
	f.Add("configure session s\ninterface et1-2\nqos trust dscp\ntx-queue 3\nrandom-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes\ncommit")
	f.Add("configure\nqos map dscp 24 26 to traffic-class 3\nqos map dscp 26 to traffic-class 4\nno qos map dscp 24 to traffic-class 3\nend")
	f.Add("configure\nqos profile P\nuc-tx-queue 3\nno priority\nexit\npriority-flow-control on\ninterface et1\nservice-profile P\ndescription x  y\nend")
	f.Add("configure\npriority-flow-control pause watchdog default timeout 0.2\ndefault priority-flow-control pause watchdog default timeout\nend")
	f.Add("configure\nrouter bgp 65100\nneighbor P peer group\naddress-family ipv4\nno neighbor P activate\nip access-list A\npermit ip any any\n!! c\nvlan 11,13-14\nname N\nend")
	f.Add("configure\ninterface Port-Channel1\nswitchport mode trunk\nno switchport\nqos map traffic-class 1 2 to cos 3\nqos map exp 1 to traffic-class 2\ntx-queue 3\n!! x\nend")
	f.Fuzz(func(t *testing.T, input string) {
		d, err := eos.New("switch", nil)
		if err != nil {
			t.Fatal(err)
		}
		s := d.NewSession("admin", nil)
		for i, line := range strings.Split(input, "\n") {
			if i > 60 {
				break
			}
			s.Handle(line)
			_ = s.Prompt()
		}
		s.Close()
		run := d.Checkpoint()
		d2, err := eos.New("switch", run)
		if err != nil {
			t.Fatalf("its own running config does not seed a device: %v\n%s", err, run)
		}
		if got := d2.Checkpoint(); string(got) != string(run) {
			t.Fatalf("re-seeded config differs:\n%s\nvs\n%s", run, got)
		}
	})
}
