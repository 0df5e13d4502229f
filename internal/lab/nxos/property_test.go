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

var propFor = flag.Duration("nxos.prop", 0, "run TestRandomConfigs for this long (0: a short run)")

// randomConfig writes a random valid config in NX-OS's print order
// (whole.go, grammar.go), blank lines left out.
func randomConfig(r *rand.Rand, qos string) string {
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
			line("  priority-flow-control mode on")
			line("  service-policy type qos input QOS_CLASSIFICATION")
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

// TestRandomConfigs: random valid configs, generated from the grammar,
// typed line by line in configure terminal, print back as written (issue
// 14 item 2). A short run in go test; -nxos.prop=60s runs it for a minute.
func TestRandomConfigs(t *testing.T) {
	qos := readFile(t, "testdata/canonical.txt")
	qos = qos[:strings.Index(qos, "interface Ethernet1/1")]
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 14))
	deadline := time.Now().Add(*propFor)
	runs := 0
	for runs < 20 || time.Now().Before(deadline) {
		runs++
		cfg := randomConfig(r, qos)
		d, err := nxos.New("switch", nil)
		if err != nil {
			t.Fatal(err)
		}
		s := d.NewSession("admin", nil)
		s.Handle("configure terminal")
		for _, l := range strings.Split(cfg, "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if l == strings.TrimLeft(l, " ") {
				for strings.Contains(s.Prompt(), "(config-") {
					s.Handle("exit")
				}
			}
			if out, _ := s.Handle(strings.TrimSpace(l)); out != "" {
				t.Fatalf("seed %d: %s%s\n%s", seed, s.Prompt(), l, out)
			}
		}
		if diff := cmp.Diff(noBlanks(cfg), noBlanks(string(d.Running()))); diff != "" {
			t.Fatalf("seed %d run %d (-typed +show running-config):\n%s", seed, runs, diff)
		}
	}
	t.Logf("%d random configs (seed %d)", runs, seed)
}
