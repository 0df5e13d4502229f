package nxos_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClassTypeQoSIsAClass: inside policy-map type qos, "class type qos
// NAME" is a class of the policy, the optional keyword dropped when
// printed (Nexus 9000 QoS Configuration Guide 7.x: "class [type qos]
// {class-name | class-default}"; batfish CiscoNxos_policy_map.g4
// pmq_class: "CLASS (TYPE QOS)? name"). It used to fall back to config
// mode as class-map, leaving the policy empty and a bogus class-map.
func TestClassTypeQoSIsAClass(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	got := run(s, "configure terminal", "class-map type qos match-any ROCE", "match dscp 26",
		"policy-map type qos P", "class type qos ROCE", "set qos-group 3",
		"class type qos class-default", "set qos-group 0", "end")
	want := "switch# configure terminal\nEnter configuration commands, one per line. End with CNTL/Z.\n" +
		"switch(config)# class-map type qos match-any ROCE\n" +
		"switch(config-cmap-qos)# match dscp 26\n" +
		"switch(config-cmap-qos)# policy-map type qos P\n" +
		"switch(config-pmap-qos)# class type qos ROCE\n" +
		"switch(config-pmap-c-qos)# set qos-group 3\n" +
		"switch(config-pmap-c-qos)# class type qos class-default\n" +
		"switch(config-pmap-c-qos)# set qos-group 0\n" +
		"switch(config-pmap-c-qos)# end\nswitch# "
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	wantRun := "class-map type qos match-any ROCE\n  match dscp 26\n\n" +
		"policy-map type qos P\n  class ROCE\n    set qos-group 3\n  class class-default\n    set qos-group 0\n"
	if got := body(t, string(d.Running())); !strings.HasPrefix(got, wantRun) {
		t.Errorf("running config:\n%s\nwant it to begin:\n%s", got, wantRun)
	}
	if strings.Contains(string(d.Running()), "class-map type qos match-all") {
		t.Errorf("a class line made a class-map:\n%s", d.Running())
	}
	// "class type qos" and "class" are one class: no second entry.
	run(s, "configure terminal", "policy-map type qos P", "class ROCE", "set qos-group 4", "end")
	if got := body(t, string(d.Running())); strings.Count(got, "class ROCE") != 1 || !strings.Contains(got, "    set qos-group 4\n") {
		t.Errorf("class ROCE after retyping:\n%s", got)
	}
	// An undefined class is refused in this form too.
	run(s, "configure terminal", "policy-map type qos P")
	if out, _ := s.Handle("class type qos NOPE"); out != "ERROR: undefined class\n" {
		t.Errorf("class type qos NOPE: %q", out)
	}
}

// TestInterfaceSpaced: "interface ethernet 1/21" and "interface Ethernet
// 1/17", the type apart from the number in any case (Cisco's Nexus 9000
// Interfaces Configuration Guide examples: "switch(config)# interface
// ethernet 2/1"), name the interface Ethernet1/21 etc., ranges included.
func TestInterfaceSpaced(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	got := run(s, "configure terminal", "interface ethernet 1/21", "description a", "interface Ethernet 1/17", "description b",
		"interface ETH 1/30-31", "description c", "interface ethernet 1/65", "description d", "end")
	want := "switch# configure terminal\nEnter configuration commands, one per line. End with CNTL/Z.\n" +
		"switch(config)# interface ethernet 1/21\n" +
		"switch(config-if)# description a\n" +
		"switch(config-if)# interface Ethernet 1/17\n" +
		"switch(config-if)# description b\n" +
		"switch(config-if)# interface ETH 1/30-31\n" +
		"switch(config-if-range)# description c\n" +
		"switch(config-if-range)# interface ethernet 1/65\n" +
		strings.Repeat(" ", len("switch(config-if-range)# interface ethernet ")) + "^\n% Invalid command at '^' marker.\n" +
		"switch(config-if-range)# description d\n" +
		"switch(config-if-range)# end\nswitch# "
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	run2 := body(t, string(d.Running()))
	for _, w := range []string{"interface Ethernet1/17\n  description b\n", "interface Ethernet1/21\n  description a\n",
		"interface Ethernet1/30\n  description d\n", "interface Ethernet1/31\n  description d\n"} {
		if !strings.Contains(run2, w) {
			t.Errorf("running config lacks %q:\n%s", w, run2)
		}
	}
}

// TestMatchPrecedence: match [not] precedence takes values 0-7, lists,
// ranges and the precedence names in class-map type qos (Nexus 9000 QoS
// Configuration Guide 7.x, "Configuring Precedence Classification";
// batfish CiscoNxos_class_map.g4 cmqm_precedence).
func TestMatchPrecedence(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	for _, l := range []string{"configure terminal", "class-map type qos match-any X", "match precedence 3-4",
		"match precedence 1,5", "match not precedence critical", "no match precedence 1,5"} {
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
			t.Fatalf("%q: %s", l, out)
		}
	}
	want := "class-map type qos match-any X\n  match precedence 3-4\n  match not precedence critical\n"
	if got := body(t, string(d.Running())); !strings.HasPrefix(got, want) {
		t.Errorf("running config:\n%s\nwant it to begin:\n%s", got, want)
	}
	prompt := s.Prompt()
	got, _ := s.Handle("match precedence 8")
	if want := strings.Repeat(" ", len(prompt)+len("match precedence ")) + "^\n% Invalid number, range is (0:7) at '^' marker.\n"; got != want {
		t.Errorf("match precedence 8:\n%s\nwant:\n%s", got, want)
	}
}

// TestRefusedLineKeepsMode: a line refused, for its syntax or by a
// check, leaves the session in the mode it was in, parent-mode fallback
// included; the next lines land where they would have without it.
func TestRefusedLineKeepsMode(t *testing.T) {
	cases := []struct {
		name  string
		setup []string
		line  string
	}{
		{"syntax error in a sub-mode", []string{"interface Ethernet1/1"}, "bogus command"},
		{"bad interface", []string{"interface Ethernet1/1"}, "interface ethernet 9/1"},
		{"bad range", []string{"interface Ethernet1/1"}, "interface Ethernet1/5-3"},
		{"check refusal in the mode", []string{"policy-map type qos P", "class class-default"}, "set qos-group 9"},
		{"undefined class", []string{"policy-map type qos P", "class class-default"}, "class type qos NOPE"},
		{"check refusal by the parent mode", []string{"class-map type qos match-any X", "interface Ethernet1/1"}, "class-map type qos match-all X"},
		{"incomplete", []string{"class-map type qos match-any X"}, "match dscp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDevice(t, "")
			s := d.NewSession("admin", nil)
			for _, l := range append([]string{"configure terminal"}, c.setup...) {
				if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
					t.Fatalf("setup %q: %s", l, out)
				}
			}
			before, cfg := s.Prompt(), string(d.Checkpoint())
			if out, _ := s.Handle(c.line); out == "" {
				t.Fatalf("%q was accepted", c.line)
			}
			if after := s.Prompt(); after != before {
				t.Errorf("%q moved the session from %q to %q", c.line, before, after)
			}
			if after := string(d.Checkpoint()); after != cfg {
				t.Errorf("%q changed the config:\n%s", c.line, cmp.Diff(cfg, after))
			}
		})
	}
}

// TestDefaultTypeQoS: class-map and policy-map without a type are of type
// qos (Nexus 9000 QoS Configuration Guide 7.x; batfish's NX-OS grammar),
// the same stanzas as with it.
func TestDefaultTypeQoS(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	got := run(s, "configure terminal", "class-map match-any ROCE", "match dscp 26", "class-map type qos match-any ROCE", "match dscp 24",
		"policy-map P", "class ROCE", "set qos-group 3", "end")
	if strings.Contains(got, "%") || strings.Contains(got, "ERROR") {
		t.Fatalf("refused:\n%s", got)
	}
	want := "class-map type qos match-any ROCE\n  match dscp 26\n  match dscp 24\n\npolicy-map type qos P\n  class ROCE\n    set qos-group 3\n"
	if got := body(t, string(d.Running())); !strings.HasPrefix(got, want) {
		t.Errorf("running config:\n%s\nwant it to begin:\n%s", got, want)
	}
	// A class-map typed without a match type is match-all, as with the type.
	prompt := s.Prompt()
	if got, _ := run2(s, "configure terminal", "class-map ROCE"); !strings.Contains(got, "% Invalid parameter detected") {
		t.Errorf("class-map ROCE (match-all) over a match-any one at %s: %q", prompt, got)
	}
}

// run2 types lines and returns the last one's output.
func run2(s interface{ Handle(string) (string, bool) }, lines ...string) (string, bool) {
	var out string
	var done bool
	for _, l := range lines {
		out, done = s.Handle(l)
	}
	return out, done
}
