package huaweice

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var propFor = flag.Duration("huaweice.prop", 0, "run TestPropertyRoundTrip for this long (0: a short run)")

// vlanRuns writes a VLAN list as the device prints it: sorted, runs of
// two or more as "A to B" (wholeconfig.go, [ce6865]).
func vlanRuns(vs []int) string {
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && vs[j+1] == vs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d to %d", vs[i], vs[j]))
		} else {
			parts = append(parts, fmt.Sprint(vs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, " ")
}

// randomConfig writes a random valid whole config in the display order
// of display current-configuration (the grammar's ranks, each from the
// sources cited in commands.go and wholeconfig.go), "#" lines left out:
// management lines, the §1.1 QoS sections, VPN instances, ACLs, a
// Vlanif, an Eth-Trunk and its members, routed and Layer 2 ports with
// their QoS, a loopback, lldp enable, BGP with groups, prefix
// lists and route policies.
func randomConfig(r *rand.Rand, qos string) string {
	i, j := strings.Index(qos, "diffserv domain"), strings.Index(qos, "drop-profile")
	qosPFC, qosDomain, qosDrop := qos[:i], qos[i:j], qos[j:]
	var b strings.Builder
	line := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	pick := func() bool { return r.IntN(2) == 0 }
	var vlans []int
	for v := 2; v < 60; v++ {
		if r.IntN(5) == 0 {
			vlans = append(vlans, v)
		}
	}
	if len(vlans) > 0 {
		line("vlan batch %s", vlanRuns(vlans))
	}
	withQoS := pick()
	if withQoS {
		b.WriteString(qosPFC)
	}
	if pick() {
		line("ntp server disable")
		line("ntp unicast-server 10.25.11.%d", 1+r.IntN(250))
	}
	if pick() {
		line("telnet server disable")
	}
	if withQoS {
		b.WriteString(qosDomain)
	}
	vpn := ""
	if pick() {
		vpn = fmt.Sprintf("VRF%d", r.IntN(9))
		line("ip vpn-instance %s", vpn)
		line(" ipv4-family")
		line("  route-distinguisher %d:%d", 1+r.IntN(65000), r.IntN(999))
	}
	if pick() {
		line("acl number %d", 2000+r.IntN(1000))
		for i := 1; i <= 1+r.IntN(3); i++ {
			line(" rule %d permit source 10.%d.0.0 0.0.255.255", i*5, r.IntN(256))
		}
	}
	if withQoS {
		b.WriteString(qosDrop)
	}
	if len(vlans) > 0 && pick() {
		v := vlans[r.IntN(len(vlans))]
		line("vlan %d", v)
		line(" description v%d", v)
	}
	if len(vlans) > 0 && pick() {
		v := vlans[r.IntN(len(vlans))]
		line("interface Vlanif%d", v)
		line(" ip address 10.%d.0.1 255.255.255.0", v)
	}
	trunk := pick()
	if trunk {
		line("interface Eth-Trunk1")
		line(" undo portswitch")
		line(" description uplink")
		line(" ip address 10.254.0.1 255.255.255.252")
		line(" mode lacp-dynamic")
		if pick() {
			line(" lacp timeout fast")
		}
	}
	for p := 1; p <= 32; p++ {
		if r.IntN(3) != 0 {
			continue
		}
		if trunk && r.IntN(4) == 0 {
			line("interface 100GE1/0/%d", p)
			line(" description member-%d", p)
			line(" eth-trunk 1")
			continue
		}
		var ls []string
		add := func(f string, a ...any) { ls = append(ls, " "+fmt.Sprintf(f, a...)) }
		l3 := pick()
		if l3 {
			add("undo portswitch")
		}
		if pick() {
			add("mtu 9216")
		}
		if pick() {
			add("description port-%d", p)
		}
		if !l3 && len(vlans) > 0 && pick() {
			add("port link-type trunk")
			add("port trunk allow-pass vlan %s", vlanRuns(vlans[:1+r.IntN(len(vlans))]))
		}
		if l3 {
			if vpn != "" && pick() {
				add("ip binding vpn-instance %s", vpn)
			}
			add("ip address 10.%d.%d.1 255.255.255.252", p, r.IntN(256))
		}
		if withQoS && !l3 && pick() {
			for _, l := range []string{"trust dscp", "trust upstream roce", "dcb pfc enable mode manual",
				"qos queue 3 wred roce-ecn", "qos drr 0 to 5", "qos queue 0 drr weight 40", "qos queue 3 drr weight 60", "qos queue 3 ecn"} {
				add("%s", l)
			}
		}
		// A port with nothing configured is not printed (doc.go).
		if len(ls) > 0 {
			line("interface 100GE1/0/%d", p)
			b.WriteString(strings.Join(ls, "\n") + "\n")
		}
	}
	if pick() {
		line("interface LoopBack0")
		line(" ip address 10.255.0.%d 255.255.255.255", 1+r.IntN(254))
	}
	if withQoS && pick() {
		line("lldp enable")
	}
	if pick() {
		line("bgp %d", 64512+r.IntN(1000))
		line(" router-id 10.255.0.1")
		groups := []string{"EBGP", "IBGP"}[:1+r.IntN(2)]
		var peers [][2]string
		for gi, g := range groups {
			kind := "external"
			if g == "IBGP" {
				kind = "internal"
			}
			line(" group %s %s", g, kind)
			for i := 1; i <= 1+r.IntN(2); i++ {
				ip := fmt.Sprintf("10.%d.%d.2", gi+1, i)
				line(" peer %s as-number %d", ip, 65000+gi)
				line(" peer %s group %s", ip, g)
				peers = append(peers, [2]string{ip, g})
			}
		}
		line(" #")
		line(" ipv4-family unicast")
		line("  network 10.255.0.1 255.255.255.255")
		if pick() {
			line("  maximum load-balancing %d", 1+r.IntN(64))
		}
		for _, g := range groups {
			line("  peer %s enable", g)
			for _, p := range peers {
				if p[1] == g {
					line("  peer %s enable", p[0])
					line("  peer %s group %s", p[0], g)
				}
			}
		}
	}
	if pick() {
		line("ip ip-prefix PL index 10 permit 10.%d.0.0 16", r.IntN(256))
		line("route-policy RP permit node 10")
		line(" if-match ip-prefix PL")
	}
	if pick() {
		line("stelnet server enable")
	}
	return b.String()
}

// printed drops what display current-configuration adds around the
// lines: the header, the "#" separators, sysname and return.
func printed(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		switch t := strings.TrimSpace(l); {
		case t == "", t == "#", t == "return", strings.HasPrefix(l, "!"), strings.HasPrefix(l, "sysname "):
		default:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestPropertyRoundTrip (issue 14 item 2): random valid whole configs,
// generated from the grammar in display order, typed line by line in
// system-view (quitting back up to the section a line is indented under)
// and committed, print back as written. A short run in go test;
// -huaweice.prop=60s runs it for a minute.
func TestPropertyRoundTrip(t *testing.T) {
	qos := readFile(t, "testdata/display-family-b.txt")
	qos = qos[len("#\n"):strings.Index(qos, "interface 100GE1/0/1\n")]
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 14))
	deadline := time.Now().Add(*propFor)
	runs := 0
	for runs < 20 || time.Now().Before(deadline) {
		runs++
		cfg := randomConfig(r, qos)
		d := newTestDevice(t, "")
		s := d.NewSession("admin", nil).(*Session)
		s.Handle("system-view")
		depth := 0
		for _, l := range strings.Split(cfg, "\n") {
			t0 := strings.TrimSpace(l)
			if t0 == "" || t0 == "#" {
				continue
			}
			ind := len(l) - len(strings.TrimLeft(l, " "))
			for ; depth > ind; depth-- {
				s.Handle("quit")
			}
			before := len(s.stack)
			if out, _ := s.Handle(t0); out != "" {
				t.Fatalf("seed %d run %d: %s%s\n%s\nconfig:\n%s", seed, runs, s.Prompt(), t0, out, cfg)
			}
			if len(s.stack) > before {
				depth = ind + 1
			}
		}
		for ; depth > 0; depth-- {
			s.Handle("quit")
		}
		if out, _ := s.Handle("commit"); out != "" {
			t.Fatalf("seed %d run %d: commit: %s", seed, runs, out)
		}
		if diff := cmp.Diff(printed(cfg), printed(string(d.Running()))); diff != "" {
			t.Fatalf("seed %d run %d (-typed +display current-configuration):\n%s", seed, runs, diff)
		}
	}
	t.Logf("%d random configs (seed %d)", runs, seed)
}
