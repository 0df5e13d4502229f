package huaweice

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// typeAll types lines in a fresh session from system view and fails on
// the first refusal.
func typeAll(t *testing.T, d *Device, lines ...string) *Session {
	t.Helper()
	s := d.NewSession("admin", nil).(*Session)
	for _, l := range append([]string{"system-view"}, lines...) {
		if out, _ := s.Handle(l); strings.Contains(out, "Error") {
			t.Fatalf("%q refused:\n%s", l, out)
		}
	}
	return s
}

// Issue 14: the QoS lines V300R023 (or the Errata's public configs)
// accept and the lab refused.
func TestIssue14QoSLines(t *testing.T) {
	d := newTestDevice(t, "")
	s := typeAll(t, d,
		"drop-profile wred1",
		"color green low-limit 80 high-limit 100 discard-percentage 10",
		"color non-tcp low-limit 40 high-limit 60 discard-percentage 40",
		"quit",
		"interface 100GE1/0/1",
		// V300R023 qos queue shaping, both examples of the page.
		"qos queue 4 shaping cir 10000 kbps pir 20000 kbps",
		"qos queue 5 shaping percent cir 50 pir 80",
		"qos queue 3 wred wred1",
		"trust dscp",
		"quit",
		"dcb pfc uplink group myuplink",
		"group-member interface 100GE 1/0/1 to 100GE 1/0/4",
		"adjust original-dscp 10 to priority 4 dscp 32",
		"quit",
		"commit",
	)
	run := string(d.Running())
	for _, want := range []string{
		"drop-profile wred1\n color green low-limit 80 high-limit 100 discard-percentage 10\n color non-tcp low-limit 40 high-limit 60 discard-percentage 40\n",
		"interface 100GE1/0/1\n trust dscp\n qos queue 4 shaping cir 10000 kbps pir 20000 kbps\n qos queue 5 shaping percent cir 50 pir 80\n qos queue 3 wred wred1\n",
		// Printed after the interfaces, the adjust lines before the
		// members, as Example_for_Configuring_PFC_Deadlock_Prevention.md
		// (V300R023, WheaterW/INTA-project @ 9308062d) prints it.
		"#\ndcb pfc uplink group myuplink\n adjust original-dscp 10 to priority 4 dscp 32\n group-member interface 100GE1/0/1\n group-member interface 100GE1/0/2\n group-member interface 100GE1/0/3\n group-member interface 100GE1/0/4\n#\nreturn",
	} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks\n%s\nin\n%s", want, run)
		}
	}
	// The undo forms.
	for _, l := range []string{"drop-profile wred1", "undo color non-tcp", "quit",
		"interface 100GE1/0/1", "undo qos queue 4 shaping", "undo trust dscp", "quit", "commit"} {
		if out, _ := s.Handle(l); strings.Contains(out, "Error") {
			t.Fatalf("%q refused:\n%s", l, out)
		}
	}
	run = string(d.Running())
	for _, gone := range []string{"non-tcp", "qos queue 4 shaping", "trust dscp"} {
		if strings.Contains(run, gone) {
			t.Errorf("%q still in the running config:\n%s", gone, run)
		}
	}
	if !strings.Contains(run, "qos queue 5 shaping") {
		t.Errorf("undo of queue 4 shaping removed queue 5's:\n%s", run)
	}
	// Only one uplink group in the system (V300R023).
	if out, _ := s.Handle("dcb pfc uplink group other"); !strings.Contains(out, "Error: Wrong parameter") {
		t.Errorf("second uplink group: %q", out)
	}
	// The burst-size range is the family's: 8388608 is family B's top.
	if out := transcript(s, "interface 100GE1/0/2", "qos queue 1 shaping cir 1 gbps cbs 8388609 bytes"); !strings.Contains(out, "Error") {
		t.Errorf("family B took a CBS above 8388608:\n%s", out)
	}
}

// "q" is quit in every view (annet's Huawei CE patches), even where "qos"
// also starts with q.
func TestQIsQuit(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	got := transcript(s, "system-view", "interface 100GE1/0/1", "q", "q")
	want := "<HUAWEI>system-view\n" + msgEnterSystem + "\n[~HUAWEI]interface 100GE1/0/1\n[~HUAWEI-100GE1/0/1]q\n[~HUAWEI]q\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if p := s.Prompt(); p != "<HUAWEI>" {
		t.Errorf("after q from system view the prompt is %q", p)
	}
}

// GE and split-port names are interface names (§3.1 split-port prompt).
func TestGEAndSplitPortNames(t *testing.T) {
	d := newTestDevice(t, "", WithPorts("GE1/0/1", "100GE1/0/31:1", "100GE1/0/31:2", "100GE1/0/31:3"))
	s := d.NewSession("admin", nil)
	got := transcript(s, "system-view", "interface ge 1/0/1", "quit", "interface 100GE1/0/31:1", "quit", "port-group split",
		"group-member 100ge1/0/31:1 to 100GE1/0/31:3", "trust dscp")
	for _, p := range []string{"[~HUAWEI-GE1/0/1]", "[~HUAWEI-100GE1/0/31:1]"} {
		if !strings.Contains(got, p) {
			t.Errorf("no prompt %s in\n%s", p, got)
		}
	}
	if strings.Contains(got, "Error") {
		t.Fatalf("refused:\n%s", got)
	}
	cand := strings.Join(s.(*Session).cand.body(everything), "\n")
	for _, p := range []string{"interface 100GE1/0/31:2\n trust dscp", "interface 100GE1/0/31:3\n trust dscp"} {
		if !strings.Contains(cand, p) {
			t.Errorf("port-group range missed a split port %q:\n%s", p, cand)
		}
	}
}

// A refused line never changes view: neither an unknown word, a bad value,
// nor a semantic refusal of a line that would enter a view.
func TestRefusedLineKeepsView(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	transcript(s, "system-view", "interface 100GE1/0/1")
	for _, l := range []string{
		"interface 100GE9/0/1",         // no such port
		"interface 100GE1/0/1 bogus",   // too many words
		"drop-profile brief",           // a refused name
		"diffserv domain none",         // a refused name
		"dcb pfc enable mode sideways", // unknown keyword
		"nonsense",
		"qos queue 9 ecn", // out of range
	} {
		before := s.Prompt()
		out, _ := s.Handle(l)
		if !strings.Contains(out, "Error") {
			t.Errorf("%q was not refused: %q", l, out)
		}
		if after := s.Prompt(); after != before {
			t.Errorf("%q changed the view: %s → %s", l, before, after)
		}
	}
}

// wholePorts are the physical ports of testdata/whole-ce-leaf.txt.
var wholePorts = []string{"GE1/0/1", "GE1/0/2", "25GE1/0/2", "25GE1/0/3", "25GE1/0/4", "25GE1/0/6", "25GE1/0/7",
	"100GE1/0/1", "100GE1/0/2", "100GE1/0/5:1", "100GE1/0/6", "100GE1/0/7", "100GE1/0/8"}

// A whole CE running config, assembled from the public configs named in
// wholeconfig.go ([ce8850], [ce6865], [evpn], [ctreepo]) with the §1.1
// QoS sections, loads unedited as a seed and display
// current-configuration prints it back equal. The lab's normalisation
// (wholeconfig.go): the two header lines are the lab's own; sections sort
// in the lab's rank order; runs of spaces in free text become one.
func TestWholeConfigRoundTrip(t *testing.T) {
	want := readFile(t, "testdata/whole-ce-leaf.txt")
	d := newTestDevice(t, want, WithPorts(wholePorts...))
	if got := string(d.Running()); got != want {
		t.Errorf("print-back differs:\n%s", cmp.Diff(want, got))
	}
	// Typed line by line, the same config gives the same running config.
	d2 := newTestDevice(t, "", WithPorts(wholePorts...))
	s := d2.NewSession("admin", nil)
	// Typed flat, each section line enters its view from system view:
	// quit back up before each unindented line.
	s.Handle("system-view")
	depth := 0
	for _, l := range strings.Split(want, "\n") {
		tl := strings.TrimSpace(l)
		if tl == "" || tl == "#" || tl == "return" || strings.HasPrefix(tl, "!") {
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " "))
		for ; depth > ind; depth-- {
			s.Handle("quit")
		}
		before := s.(*Session).view().v
		if out, _ := s.Handle(tl); strings.Contains(out, "Error") {
			t.Fatalf("%q refused:\n%s", tl, out)
		}
		if s.(*Session).view().v != before {
			depth = ind + 1
		}
	}
	for ; depth > 0; depth-- {
		s.Handle("quit")
	}
	if out, _ := s.Handle("commit"); strings.Contains(out, "Error") {
		t.Fatalf("commit: %s", out)
	}
	if got := string(d2.Running()); got != want {
		t.Errorf("typed config differs:\n%s", cmp.Diff(want, got))
	}
}

// Lines a CE does not know are refused with its error text, in a seed and
// typed, and a known line with a bad value is refused too.
func TestWholeConfigRefusals(t *testing.T) {
	k, err := NewKind(WithPorts(wholePorts...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.New("x", []byte("#\nspanning-tree mode rstp\n#\n")); err == nil || !strings.Contains(err.Error(), "Error: Unrecognized command") {
		t.Errorf("seed with an NX-OS line: %v", err)
	}
	d := newTestDevice(t, "", WithPorts(wholePorts...))
	s := d.NewSession("admin", nil)
	transcript(s, "system-view")
	for _, l := range []string{"switchport mode trunk", "vlan batch 5000", "interface LoopBack0", "ip address 10.0.0.300 255.255.255.0", "ip address 10.0.0.1 255.0.255.0", "no shutdown"} {
		out, _ := s.Handle(l)
		if l == "interface LoopBack0" {
			if strings.Contains(out, "Error") {
				t.Fatalf("interface LoopBack0 refused: %s", out)
			}
			continue
		}
		if !strings.Contains(out, "Error:") {
			t.Errorf("%q not refused: %q", l, out)
		}
	}
	if p := s.Prompt(); p != "[*HUAWEI-LoopBack0]" {
		t.Errorf("prompt %q", p)
	}
}

// vlan batch and port trunk allow-pass vlan accumulate and print sorted,
// runs as "A to B" ([ce6865]).
func TestVLANLists(t *testing.T) {
	d := newTestDevice(t, "", WithPorts(wholePorts...))
	typeAll(t, d, "vlan batch 10 20 30", "vlan batch 11 to 12 5", "undo vlan batch 20",
		"interface 25GE1/0/2", "port link-type trunk", "port trunk allow-pass vlan 10 20", "port trunk allow-pass vlan 21", "quit", "commit")
	run := string(d.Running())
	for _, want := range []string{"#\nvlan batch 5 10 to 12 30\n#", " port trunk allow-pass vlan 10 20 to 21\n"} {
		if !strings.Contains(run, want) {
			t.Errorf("no %q in\n%s", want, run)
		}
	}
}

// The new views have prompts and their sections print with display
// current-configuration interface for a logical interface.
func TestWholeConfigViews(t *testing.T) {
	d := newTestDevice(t, readFile(t, "testdata/whole-ce-leaf.txt"), WithPorts(wholePorts...))
	s := d.NewSession("admin", nil)
	out := transcript(s, "display current-configuration interface loopback0")
	if want := "#\ninterface LoopBack0\n description RID\n ip address 1.1.1.1 255.255.255.255\n#\nreturn\n"; !strings.HasSuffix(out, want) {
		t.Errorf("display interface LoopBack0:\n%s", out)
	}
	got := transcript(s, "system-view", "bgp 100", "ipv4-family unicast", "q", "q", "bgp 200")
	if !strings.Contains(got, "[~CE-LEAF1-bgp]ipv4-family unicast\n[~CE-LEAF1-bgp-af-ipv4]q\n") {
		t.Errorf("bgp views:\n%s", got)
	}
	if !strings.Contains(got, "[~CE-LEAF1]bgp 200\n") || !strings.Contains(got, "Error: Wrong parameter") {
		t.Errorf("a second BGP AS was not refused:\n%s", got)
	}
}
