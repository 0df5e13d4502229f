package eos_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/eos"
)

var propFor = flag.Duration("eos.prop", 0, "run TestPropertyRoundTrip for this long (0: a short run)")

// randomConfig writes a random valid config in EOS's print order (the
// ranks of grammar.go, from AVD's eos-intended-config.j2 and the public
// running configs cited there), 3 spaces a level, the "!" separators
// left out. Every front-panel port of the lab's default model has its
// stanza, as show running-config lists them.
func randomConfig(r *rand.Rand) string {
	var b strings.Builder
	line := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	pick := func() bool { return r.IntN(2) == 0 }
	if pick() {
		line("username admin privilege 15 role network-admin nopassword")
	}
	profile := pick()
	if profile {
		line("qos profile ROCE")
		line("   qos trust dscp")
		line("   tx-queue 3")
		line("      random-detect ecn minimum-threshold %d kbytes maximum-threshold 3000 kbytes max-mark-probability %d", 10+r.IntN(2000), 1+r.IntN(100))
		line("   priority-flow-control on")
		line("   priority-flow-control priority 3 no-drop")
	}
	if pick() {
		line("spanning-tree mode mstp")
	}
	var vlans []int
	for v := 2; v < 40; v++ {
		if r.IntN(6) == 0 {
			vlans = append(vlans, v)
			line("vlan %d", v)
			if pick() {
				line("   name V%d", v)
			}
		}
	}
	if pick() {
		line("vrf instance V%d", r.IntN(9))
	}
	lag := pick()
	if lag {
		line("interface Port-Channel1")
		line("   description lag-1")
		line("   no shutdown")
		line("   switchport trunk allowed vlan 2-39")
		line("   switchport mode trunk")
	}
	for p := 1; p <= 32; p++ {
		line("interface Ethernet%d", p)
		if r.IntN(3) != 0 {
			continue
		}
		if pick() {
			line("   description port-%d", p)
		}
		if pick() {
			line("   no shutdown")
		} else if pick() {
			line("   shutdown")
		}
		if pick() {
			line("   mtu 9214")
		}
		mode := r.IntN(4)
		switch {
		case mode == 0 && len(vlans) > 0:
			line("   switchport access vlan %d", vlans[r.IntN(len(vlans))])
			line("   switchport mode access")
		case mode == 1:
			line("   switchport trunk allowed vlan %d-%d", 2+r.IntN(10), 20+r.IntN(10))
			line("   switchport mode trunk")
		case mode == 2:
			line("   no switchport")
			line("   ip address 10.%d.%d.0/31", p, r.IntN(256))
		}
		if lag && mode != 2 && r.IntN(4) == 0 {
			line("   channel-group 1 mode active")
		}
		if profile && pick() {
			line("   service-profile ROCE")
			continue
		}
		if pick() {
			line("   qos trust dscp")
			line("   priority-flow-control on")
			line("   priority-flow-control priority 3 no-drop")
			if mode != 2 && pick() {
				line("   spanning-tree portfast")
			}
			line("   tx-queue 3")
			if pick() {
				line("      random-detect ecn count")
			}
			line("      random-detect ecn minimum-threshold %d kbytes maximum-threshold %d kbytes max-mark-probability 100", 100+r.IntN(100), 1000+r.IntN(3000))
			line("   tx-queue 6")
			line("      priority strict")
		} else if mode != 2 && pick() {
			line("   spanning-tree portfast")
		}
	}
	if pick() {
		line("interface Loopback0")
		line("   ip address 10.255.0.%d/32", 1+r.IntN(254))
	}
	if pick() {
		line("ip access-list ACL%d", r.IntN(9))
		for i := 1; i <= 1+r.IntN(3); i++ {
			line("   %d permit tcp 10.0.%d.0/24 any eq 22", i*10, i)
		}
	}
	if pick() {
		line("ip routing")
	}
	bgp := pick()
	if bgp {
		line("ip prefix-list PL")
		line("   seq 10 permit 10.%d.0.0/16 le 32", r.IntN(256))
	}
	if pick() {
		line("ip route 0.0.0.0/0 10.0.0.%d", 1+r.IntN(254))
	}
	if pick() {
		// disjoint DSCP sets, each ascending, the classes in the order of
		// their first DSCP: the order the lab prints the lines in.
		line("qos map dscp %d %d to traffic-class 3", 24+r.IntN(2), 26+r.IntN(2))
		line("qos map dscp 48 to traffic-class 6")
	}
	if pick() {
		line("priority-flow-control pause watchdog default timeout 0.%d", 1+r.IntN(9))
	}
	if bgp {
		line("route-map RM permit 10")
		line("   match ip address prefix-list PL")
		line("router bgp %d", 64512+r.IntN(1000))
		line("   router-id 10.255.0.%d", 1+r.IntN(254))
		line("   neighbor P peer group")
		for i := 1; i <= r.IntN(3); i++ {
			line("   neighbor 10.0.0.%d peer group P", i)
		}
	}
	return b.String()
}

// bare drops what the property is not about: the header, the hostname
// line, the "!" separators and end (the corpus and TestAVDSpine test
// those).
func bare(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t == "!" || t == "end" || strings.HasPrefix(t, "! ") || strings.HasPrefix(l, "hostname ") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// shuffle is text with its top-level stanzas (a line and the lines
// indented under it) in a random order; the qos map dscp lines stay in
// theirs, one block: the lab prints them in the order their targets were
// first mapped, as AVD's outputs list them (eos.md §2.1 says one line per
// target, not in which order [I]).
func shuffle(r *rand.Rand, text string) string {
	var blocks []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		if (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "qos map dscp ")) && len(blocks) > 0 && (strings.HasPrefix(l, " ") || strings.HasPrefix(blocks[len(blocks)-1], "qos map dscp ")) {
			blocks[len(blocks)-1] += l
			continue
		}
		blocks = append(blocks, l)
	}
	r.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
	return strings.Join(blocks, "")
}

// TestPropertyRoundTrip: random valid configs, generated from the
// grammar, typed line by line in configure (each line at its own depth:
// "exit" back up to it first), print back in show running-config as
// written (issue 14 item 2). A short run in go test; -eos.prop=60s runs
// it for a minute.
func TestPropertyRoundTrip(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 14))
	deadline := time.Now().Add(*propFor)
	runs := 0
	for runs < 20 || time.Now().Before(deadline) {
		runs++
		cfg := randomConfig(r)
		for _, shuffled := range []bool{false, true} {
			typed := cfg
			if shuffled {
				typed = shuffle(r, cfg)
			}
			d, err := eos.New("switch", nil)
			if err != nil {
				t.Fatal(err)
			}
			s := d.NewSession("admin", nil)
			if out, _ := s.Handle("configure"); out != "" {
				t.Fatal(out)
			}
			depth := 0
			lines := strings.Split(strings.TrimSuffix(typed, "\n"), "\n")
			for i, l := range lines {
				at := (len(l) - len(strings.TrimLeft(l, " "))) / 3
				for ; depth > at; depth-- {
					s.Handle("exit")
				}
				if out, _ := s.Handle(strings.TrimSpace(l)); out != "" {
					t.Fatalf("seed %d: %s%s\n%s", seed, s.Prompt(), l, out)
				}
				if i+1 < len(lines) && strings.HasPrefix(lines[i+1], strings.Repeat("   ", at+1)) {
					depth = at + 1
				}
			}
			if out, _ := s.Handle("end"); out != "" {
				t.Fatal(out)
			}
			if diff := cmp.Diff(bare(cfg), bare(string(d.Running()))); diff != "" {
				t.Fatalf("seed %d run %d shuffled %v (-generated +show running-config):\n%s\ntyped:\n%s", seed, runs, shuffled, diff, typed)
			}
		}
	}
	t.Logf("%d random configs (seed %d)", runs, seed)
}
