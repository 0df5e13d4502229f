package nxos_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/nxos"
)

var propFor = flag.Duration("nxos.prop", 0, "run TestPropertyRoundTrip for this long (0: a short run)")

// randomQoS writes a random valid QoS config (reference/nxos.md §2) in
// NX-OS's print order (grammar.go ranks: global lines, class-maps,
// policy-maps by type, system qos), and the policy names it defines.
func randomQoS(r *rand.Rand) (text, qosPolicy, quePolicy string) {
	var b strings.Builder
	line := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	pick := func() bool { return r.IntN(2) == 0 }
	if pick() {
		line("priority-flow-control watch-dog-interval %s", []string{"on", "off"}[r.IntN(2)])
	}
	if pick() {
		line("priority-flow-control watch-dog interval %d", 101+r.IntN(900))
	}
	if pick() {
		line("priority-flow-control watch-dog shutdown-multiplier %d", 2+r.IntN(9))
	}
	// values is a random list of 1-3 values or ranges within [0, hi].
	values := func(hi int) string {
		var parts []string
		for range 1 + r.IntN(3) {
			a := r.IntN(hi + 1)
			if pick() && a < hi {
				parts = append(parts, fmt.Sprintf("%d-%d", a, a+1+r.IntN(hi-a)))
			} else {
				parts = append(parts, fmt.Sprint(a))
			}
		}
		return strings.Join(parts, ",")
	}
	classes := 1 + r.IntN(4)
	for c := range classes {
		line("class-map type qos %s C%d", []string{"match-any", "match-all"}[r.IntN(2)], c)
		switch r.IntN(4) {
		case 0:
			line("  match cos %s", values(7))
		case 1:
			line("  match precedence %s", values(7))
		default:
			line("  match dscp %s", values(63))
		}
	}
	qosPolicy = fmt.Sprintf("QOS_%d", r.IntN(100))
	line("policy-map type qos %s", qosPolicy)
	for _, c := range r.Perm(classes) {
		line("  class C%d\n    set qos-group %d", c, r.IntN(8))
	}
	if pick() {
		line("  class class-default\n    set qos-group 0")
	}
	quePolicy = fmt.Sprintf("QUE_%d", r.IntN(100))
	line("policy-map type queuing %s", quePolicy)
	queues := []string{"c-out-8q-q1", "c-out-8q-q2", "c-out-8q-q3", "c-out-8q-q4", "c-out-8q-q5", "c-out-8q-q6", "c-out-8q-q7", "c-out-8q-q-default"}
	for _, q := range r.Perm(len(queues))[:1+r.IntN(len(queues))] {
		line("  class type queuing %s", queues[q])
		if r.IntN(4) == 0 {
			line("    priority level %d", 1+r.IntN(8))
			continue
		}
		line("    bandwidth remaining percent %d", r.IntN(101))
		if pick() {
			lo := 1 + r.IntN(3000)
			line("    random-detect minimum-threshold %d kbytes maximum-threshold %d kbytes drop-probability %d weight %d ecn", lo, lo+r.IntN(3000), r.IntN(101), r.IntN(16))
		}
	}
	line("policy-map type network-qos NQ")
	for _, q := range r.Perm(7)[:1+r.IntN(3)] {
		line("  class type network-qos c-8q-nq%d", q+1)
		if pick() {
			line("    mtu %d", 1501+r.IntN(9216-1501))
		}
		if pick() {
			line("    pause pfc-cos %d", q+1)
		}
	}
	line("system qos")
	line("  service-policy type network-qos NQ")
	line("  service-policy type queuing output %s", quePolicy)
	return b.String(), qosPolicy, quePolicy
}

// retyped is a line of the config typed in one of the other forms NX-OS
// takes for it, which show running-config prints as the line itself:
// interface names abbreviated or with a space before the number
// (misparse_test.go), class-map and policy-map without type qos, class
// with type qos (grammar.go: Nexus 9000 QoS Configuration Guide 7.x).
func retyped(r *rand.Rand, l string, inQoSPolicy bool) string {
	t := strings.TrimSpace(l)
	switch {
	case strings.HasPrefix(t, "interface Ethernet"):
		num := strings.TrimPrefix(t, "interface Ethernet")
		return []string{t, "interface ethernet " + num, "interface Ethernet " + num, "int e" + num, "interface Eth" + num}[r.IntN(5)]
	case strings.HasPrefix(t, "class-map type qos match-all ") && r.IntN(2) == 0:
		return "class-map " + strings.TrimPrefix(t, "class-map type qos match-all ")
	case strings.HasPrefix(t, "policy-map type qos ") && r.IntN(2) == 0:
		return "policy-map " + strings.TrimPrefix(t, "policy-map type qos ")
	case inQoSPolicy && strings.HasPrefix(t, "class ") && r.IntN(2) == 0:
		return "class type qos " + strings.TrimPrefix(t, "class ")
	}
	return t
}

// randomConfig writes a random valid config in NX-OS's print order
// (whole.go, grammar.go), blank lines left out: the whole-config blocks
// around a random QoS config.
func randomConfig(r *rand.Rand) string {
	qos, qosPolicy, quePolicy := randomQoS(r)
	var b strings.Builder
	line := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	pick := func() bool { return r.IntN(2) == 0 }
	for _, f := range []string{"bgp", "interface-vlan", "lacp", "lldp"} {
		if pick() {
			line("feature %s", f)
		}
	}
	if pick() {
		line("username admin password 5 $5$X$Y  role network-admin")
	}
	if pick() {
		line("ip access-list ACL%d", r.IntN(9))
		for i := 1; i <= 1+r.IntN(3); i++ {
			line("  %d permit tcp 10.0.%d.0/24 any eq 22", i*10, i)
		}
	}
	withQoS := pick()
	if withQoS {
		b.WriteString(qos)
	}
	var vlans []int
	for v := 2; v < 40; v++ {
		if r.IntN(6) == 0 {
			vlans = append(vlans, v)
		}
	}
	if len(vlans) > 0 {
		// NX-OS joins runs ("vlan 3-4,13"; whole.go vlanSummary).
		var parts []string
		for i := 0; i < len(vlans); {
			j := i
			for j+1 < len(vlans) && vlans[j+1] == vlans[j]+1 {
				j++
			}
			if j > i {
				parts = append(parts, fmt.Sprintf("%d-%d", vlans[i], vlans[j]))
			} else {
				parts = append(parts, fmt.Sprint(vlans[i]))
			}
			i = j + 1
		}
		line("vlan %s", strings.Join(parts, ","))
		for _, v := range vlans {
			if pick() {
				line("vlan %d\n  name v%d", v, v)
			}
		}
	}
	if pick() {
		line("ip prefix-list P seq 5 permit 10.%d.0.0/16 le 32", r.IntN(256))
		line("route-map RM permit 10\n  match ip address prefix-list P")
	}
	if pick() {
		line("vrf context V%d\n  rd 1:%d", r.IntN(9), r.IntN(99))
	}
	for p := 1; p <= 64; p++ {
		line("interface Ethernet1/%d", p)
		if r.IntN(4) != 0 {
			continue
		}
		if pick() {
			line("  description port-%d", p)
		}
		routed := pick()
		if routed {
			line("  no switchport")
		} else if pick() {
			line("  switchport mode trunk")
			line("  spanning-tree port type edge trunk")
		} else if len(vlans) > 0 {
			line("  switchport access vlan %d", vlans[r.IntN(len(vlans))])
		}
		if pick() {
			line("  mtu 9216")
		}
		if withQoS && pick() {
			line("  priority-flow-control mode %s", []string{"on", "off", "on send-tlv"}[r.IntN(3)])
			if pick() {
				line("  priority-flow-control watch-dog-interval %s", []string{"on", "off"}[r.IntN(2)])
			}
			line("  service-policy type qos input %s", qosPolicy)
			if pick() {
				line("  service-policy type queuing output %s", quePolicy)
			}
		}
		if routed {
			line("  ip address 10.%d.%d.1/31", p, r.IntN(256))
		}
		if pick() {
			line("  no cdp enable")
		}
		if pick() {
			line("  no shutdown")
		}
	}
	if pick() {
		line("interface loopback0\n  ip address 10.255.0.%d/32", 1+r.IntN(254))
	}
	line("line console\nline vty")
	if pick() {
		line("router bgp %d", 64512+r.IntN(1000))
		for i := 1; i <= r.IntN(3); i++ {
			line("  neighbor 10.0.0.%d\n    remote-as 65000\n    address-family ipv4 unicast\n      send-community", i)
		}
	}
	return b.String()
}

// noBlanks drops the header and blank lines: the property is about the
// lines and their order (the fixtures test the blank lines).
func noBlanks(text string) string {
	var out []string
	for _, l := range strings.Split(normalised(text), "\n") {
		if l != "" && !strings.HasPrefix(l, "hostname ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestPropertyRoundTrip: random valid configs, generated from the
// grammar (the whole config: features, management lines, ACLs, a random
// QoS config, VLANs, routing policy, VRFs, interfaces with their L2, L3,
// PFC and QoS lines, BGP), typed line by line in configure terminal,
// each line in one of the forms NX-OS takes for it (retyped), print back
// as written (issue 14 item 2). A short run in go test; -nxos.prop=60s
// runs it for a minute.
func TestPropertyRoundTrip(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 14))
	deadline := time.Now().Add(*propFor)
	runs := 0
	for runs < 20 || time.Now().Before(deadline) {
		runs++
		cfg := randomConfig(r)
		d, err := nxos.New("switch", nil)
		if err != nil {
			t.Fatal(err)
		}
		s := d.NewSession("admin", nil)
		s.Handle("configure terminal")
		inQoSPolicy := false
		for _, l := range strings.Split(cfg, "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if l == strings.TrimLeft(l, " ") {
				inQoSPolicy = strings.HasPrefix(l, "policy-map type qos ")
				for strings.Contains(s.Prompt(), "(config-") {
					s.Handle("exit")
				}
			}
			typed := retyped(r, l, inQoSPolicy)
			if out, _ := s.Handle(typed); out != "" {
				t.Fatalf("seed %d: %s%s\n%s", seed, s.Prompt(), typed, out)
			}
		}
		if diff := cmp.Diff(noBlanks(cfg), noBlanks(string(d.Running()))); diff != "" {
			t.Fatalf("seed %d run %d (-typed +show running-config):\n%s", seed, runs, diff)
		}
	}
	t.Logf("%d random configs (seed %d)", runs, seed)
}
