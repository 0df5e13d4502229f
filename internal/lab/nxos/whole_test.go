package nxos_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/nxos"
)

// normalised is show running-config text modulo what the device prints
// of itself or NX-OS varies on its own: the ! lines (the header's times,
// and the fixture's source comments), the version line (the lab's own
// software version), and runs of blank lines, which count as one (NX-OS
// prints two before the first interface in [leaf93] and [spine92], one
// in others), and the final newline (scrapligo's recording drops it).
func normalised(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "!"), strings.HasPrefix(l, "version "):
			continue
		case l == "" && (len(out) == 0 || out[len(out)-1] == ""):
			continue
		}
		out = append(out, l)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n")
}

// TestWholeConfig: a leaf's whole running config (testdata/whole-leaf.txt,
// from the public configs whole.go names) seeds the lab unedited, and
// show running-config prints it back equal; typed line by line it builds
// the same config.
func TestWholeConfig(t *testing.T) {
	seed := readFile(t, "testdata/whole-leaf.txt")
	d, err := nxos.New("leaf-1", []byte(seed))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalised(seed), normalised(string(d.Running()))); diff != "" {
		t.Errorf("show running-config (-seed +lab):\n%s", diff)
	}
	// The same config typed in configure terminal, indentation and all.
	d2, err := nxos.New("leaf-1", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := d2.NewSession("admin", nil)
	s.Handle("configure terminal")
	for _, l := range strings.Split(seed, "\n") {
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "!") || strings.HasPrefix(t, "version ") {
			continue
		}
		if l == strings.TrimLeft(l, " ") {
			// Top-level line: back to config mode first, as a paste from
			// show running-config relies on parent-mode fallback.
			for strings.Contains(s.Prompt(), "(config-") {
				s.Handle("exit")
			}
		}
		if out, _ := s.Handle(strings.TrimSpace(l)); out != "" {
			t.Fatalf("%s%s\n%s", s.Prompt(), l, out)
		}
	}
	if diff := cmp.Diff(normalised(seed), normalised(string(d2.Running()))); diff != "" {
		t.Errorf("typed (-seed +lab):\n%s", diff)
	}
}

// TestScrapligoRecording: scrapligo's recording of a real Nexus 9000v's
// show running-config (NX-OS 9.2(4), testdata/scrapligo-show-run.txt,
// copied whole from the module cache) seeds the lab's 9000v unedited and
// prints back equal.
func TestScrapligoRecording(t *testing.T) {
	rec := readFile(t, "testdata/scrapligo-show-run.txt")
	_, rec, _ = strings.Cut(rec, "\n") // the source line
	d, err := nxos.New("vr-n9kv", []byte(rec), nxos.WithModel("N9K-9000v"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalised(rec), normalised(string(d.Running()))); diff != "" {
		t.Errorf("show running-config (-recording +lab):\n%s", diff)
	}
}

// typeOK types lines that must all be accepted silently.
func typeOK(t *testing.T, s interface{ Handle(string) (string, bool) }, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter configuration") {
			t.Fatalf("%q: %s", l, out)
		}
	}
}

// TestWholeEdits: NX-OS's own normalisation of what is typed: ACL entries
// numbered by 10 and prefix-list entries by 5 when typed without one
// (whole.go [n9k703]), route-map defaulting to permit 10, VLAN lists
// summarised, interfaces ordered by type ([leaf93]), [no] shutdown and
// [no] switchport replacing each other.
func TestWholeEdits(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	typeOK(t, s, "configure terminal",
		"ip access-list A", "permit ip any any", "deny ip any any", "15 permit tcp any any eq 22", "remark last", "no 20",
		"ip prefix-list P permit 10.0.0.0/8", "ip prefix-list P deny 0.0.0.0/0 le 32", "route-map RM", "set local-preference 200",
		"vlan 10-12,20", "vlan 11", "name web",
		"interface loopback0", "ip address 10.0.0.1/32", "interface Vlan11", "ip address 10.1.1.1/24", "no shutdown",
		"interface port-channel10", "switchport mode trunk",
		"interface eth1/3", "no shutdown", "shutdown", "switchport", "no switchport", "no cdp enable", "end")
	got := body(t, string(d.Running()))
	for _, want := range []string{
		"ip access-list A\n  10 permit ip any any\n  15 permit tcp any any eq 22\n  30 remark last\n",
		"ip prefix-list P seq 5 permit 10.0.0.0/8\nip prefix-list P seq 10 deny 0.0.0.0/0 le 32\nroute-map RM permit 10\n  set local-preference 200\n",
		"vlan 10-12,20\nvlan 11\n  name web\n\n",
		"interface Vlan11\n  no shutdown\n  ip address 10.1.1.1/24\n\ninterface port-channel10\n  switchport mode trunk\n\ninterface Ethernet1/1\n",
		"interface Ethernet1/3\n  no switchport\n  no cdp enable\n  shutdown\n",
		"interface Ethernet1/64\n\ninterface loopback0\n  ip address 10.0.0.1/32\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("running config lacks\n%s\nin:\n%s", want, got)
		}
	}
}

// TestWholeRefusals: a line the lab does not know is refused with
// NX-OS's error, caret under the first word it cannot take, and nothing
// changes; in a configuration session only ACL (and QoS) lines are taken
// (session.go [sm105]).
func TestWholeRefusals(t *testing.T) {
	cases := []struct {
		setup     []string
		line, bad string
	}{
		{nil, "evpn", "evpn"},
		{nil, "feature bogus", "bogus"},
		{nil, "interface nve1", "nve1"},
		{[]string{"interface Ethernet1/1"}, "medium p2p", "medium"},
		{[]string{"interface Ethernet1/1"}, "switchport mode routed", "routed"},
		{[]string{"router bgp 65000", "neighbor 10.0.0.1"}, "remote-as banana", "banana"},
		{[]string{"vlan 10"}, "vlan 4095", "4095"},
	}
	for _, c := range cases {
		d := newDevice(t, "")
		s := d.NewSession("admin", nil)
		typeOK(t, s, append([]string{"configure terminal"}, c.setup...)...)
		before, prompt := string(d.Checkpoint()), s.Prompt()
		got, _ := s.Handle(c.line)
		msg := "% Invalid command at '^' marker."
		if c.bad == "4095" {
			msg = "% Invalid number, range is (1:4094) at '^' marker."
		}
		if want := strings.Repeat(" ", len(prompt)+tokenPos(c.line, c.bad)) + "^\n" + msg + "\n"; got != want {
			t.Errorf("%s%s\ngot:\n%s\nwant:\n%s", prompt, c.line, got, want)
		}
		if s.Prompt() != prompt || string(d.Checkpoint()) != before {
			t.Errorf("%q moved the session or changed the config", c.line)
		}
	}

	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	typeOK(t, s, "configure session S", "ip access-list A", "permit ip any any", "interface Ethernet1/1")
	prompt := s.Prompt()
	if got, _ := s.Handle("switchport mode trunk"); got != strings.Repeat(" ", len(prompt))+"^\n% Invalid command at '^' marker.\n" {
		t.Errorf("switchport in a session: %q", got)
	}
}

// TestRestoreKeepsModel: a 9000v's checkpoint, with ports beyond the
// default model's, restores.
func TestRestoreKeepsModel(t *testing.T) {
	d, err := nxos.New("n", nil, nxos.WithModel("N9K-9000v"))
	if err != nil {
		t.Fatal(err)
	}
	s := d.NewSession("admin", nil)
	typeOK(t, s, "configure terminal", "interface Ethernet1/100", "description far", "end")
	cp := d.Checkpoint()
	if err := d.Restore(cp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(d.Running()), "interface Ethernet1/100\n  description far\n") {
		t.Errorf("restored:\n%s", d.Running())
	}
}

// TestLoggingEventPortLinkStatus: `[no] logging event port link-status`
// is an interface line in either form (Azure Local's ToR references, the
// entry in whole.go): it keeps the interface mode, so the port's
// following QoS lines stay on the port.
func TestLoggingEventPortLinkStatus(t *testing.T) {
	seed := "interface Ethernet1/17\n  no logging event port link-status\n  service-policy type qos input P\n" +
		"interface Ethernet1/18\n  logging event port link-status\n  service-policy type qos input P\n"
	d, err := nxos.New("tor1", []byte("policy-map type qos P\n  class class-default\n    set qos-group 0\n"+seed))
	if err != nil {
		t.Fatal(err)
	}
	run := string(d.Running())
	for _, want := range []string{
		"interface Ethernet1/17\n  service-policy type qos input P\n  no logging event port link-status\n",
		"interface Ethernet1/18\n  service-policy type qos input P\n  logging event port link-status\n",
	} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks %q:\n%s", want, run)
		}
	}
}
