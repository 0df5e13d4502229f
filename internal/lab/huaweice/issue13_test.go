package huaweice

import (
	"strings"
	"testing"
)

// Issue 13: the lines of the V300R023 configuration guide's ECN Overlay
// and adaptive routing examples (corpus fixtures of vendors/huaweice) are
// taken, shown and undone; a sub-interface of a port the switch does not
// have and a line of no source stay refused with the device's errors.
func TestIssue13WholeConfigLines(t *testing.T) {
	d := newTestDevice(t, "")
	s := typeAll(t, d,
		"assign forward nvo3 egress mark-ecn enable",
		"assign forward nvo3 transit mark inner-ecn enable",
		"adaptive-routing enable",
		"ip vpn-instance mix_vrf", "ipv4-family", "route-distinguisher 1:1", "quit", "quit",
		"ip import-rib vpn-instance mix_vrf protocol direct",
		"interface 100ge 1/0/1", "undo portswitch", "adaptive-routing enable dragonfly-role global", "quit",
		"interface 100GE1/0/1.104",
		"description min_port_of_global_link",
		"ip address 172.16.1.1 255.255.255.0",
		"encapsulation dot1q-termination",
		"dot1q termination vid 10",
		"quit",
		"dragonfly profile default",
		"adjust original-dscp 26 to priority 4 dscp 32",
		"quit",
		"load-balance ecmp",
		"ecmp mode eligible flowlet-gap-time 9000",
		"quit",
		"route-policy rp1 permit node 10",
		"if-match cost greater-equal 0 less-equal 1999",
		"if-match route-type ibgp",
		"apply cost + 1000",
		"quit",
		"bgp 4200000001",
		"group g1 internal",
		"ipv4-family unicast",
		"reflector cluster-id 1",
		"reflect change-path-attribute",
		"auto-frr",
		"peer g1 reflect-client",
		"quit",
		"ipv4-family vpn-instance mix_vrf",
		"load-balancing adaptive-routing",
		"import-rib public valid-route route-policy rp1",
		"quit", "quit",
		"commit",
	)
	run := string(d.Running())
	for _, want := range []string{
		"#\nassign forward nvo3 egress mark-ecn enable\nassign forward nvo3 transit mark inner-ecn enable\n",
		"#\nadaptive-routing enable\n",
		"#\nip import-rib vpn-instance mix_vrf protocol direct\n",
		"#\ninterface 100GE1/0/1\n undo portswitch\n adaptive-routing enable dragonfly-role global\n#\ninterface 100GE1/0/1.104\n description min_port_of_global_link\n ip address 172.16.1.1 255.255.255.0\n encapsulation dot1q-termination\n dot1q termination vid 10\n#\n",
		"#\ndragonfly profile default\n adjust original-dscp 26 to priority 4 dscp 32\n",
		"#\nload-balance ecmp\n ecmp mode eligible flowlet-gap-time 9000\n",
		" if-match cost greater-equal 0 less-equal 1999\n if-match route-type ibgp\n apply cost + 1000\n",
		"  reflector cluster-id 1\n  reflect change-path-attribute\n",
		"  peer g1 reflect-client\n",
		"  load-balancing adaptive-routing\n",
	} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks\n%s\nin\n%s", want, run)
		}
	}
	for _, l := range []string{"undo assign forward nvo3 egress mark-ecn enable", "undo adaptive-routing enable", "commit"} {
		if out, _ := s.Handle(l); strings.Contains(out, "Error") {
			t.Fatalf("%q refused:\n%s", l, out)
		}
	}
	run = string(d.Running())
	if strings.Contains(run, "egress mark-ecn") || strings.Contains(run, "\nadaptive-routing enable\n") {
		t.Errorf("undo left the lines:\n%s", run)
	}
	for line, want := range map[string]string{
		"interface 100GE1/0/99.1":                     "Error: Wrong parameter found at '^' position.",
		"assign forward nvo3 egress mark-ecn":         "Error: Incomplete command found at '^' position.",
		"assign forward nvo3 egress mark-dscp enable": "Error: Unrecognized command found at '^' position.",
	} {
		if out := transcript(s, line); !strings.Contains(out, want) {
			t.Errorf("%q: %q, want %q", line, out, want)
		}
	}
}
