package eos

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/renderers"
)

// objectNames are the names of the objects an EOS rendering creates: its
// qos profiles (the DSCP map, the tx-queues and the watchdog have none).
func objectNames(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^qos profile (\S+)$`).FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

// TestNames renames every object of the canonical intent (the EOS one of
// golden/canonical in the qos-profile style) and wants each new name, as
// written, and no old one.
func TestNames(t *testing.T) {
	tests := []struct {
		name   string
		names  intent.Names
		port   *intent.Names // a port override of Ethernet2, when set
		want   []string
		refuse string
	}{
		{name: "default", want: []string{"ROCE_LOSSLESS"}},
		{name: "renamed, case kept", names: intent.Names{PortProfile: "RoCE-Lossless.v2"}, want: []string{"RoCE-Lossless.v2"}},
		{name: "override named apart", names: intent.Names{PortProfile: "roce"}, port: &intent.Names{PortProfile: "roce_hot"}, want: []string{"roce", "roce_hot"}},
		{name: "override default keeps the suffix", port: &intent.Names{}, want: []string{"ROCE_LOSSLESS", "ROCE_LOSSLESS_ETHERNET2"}},
		{name: "override inherits the explicit name", names: intent.Names{PortProfile: "roce"}, port: &intent.Names{PortProfile: "roce"},
			refuse: `the device's profile "roce_lossless" and the override of profile "roce_lossless" on Ethernet2 both name their qos profile "roce", but they differ; give the override of profile "roce_lossless" on Ethernet2 its own names { port_profile = … }`},
		{name: "override takes the default's name", port: &intent.Names{PortProfile: "ROCE_LOSSLESS"},
			refuse: `both name their qos profile "ROCE_LOSSLESS"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := canonical()
			d.Options = map[string]string{OptionStyle: StyleQoSProfile}
			d.QoS.Names = tt.names
			for i := range d.Ports {
				d.Ports[i].QoS = d.QoS
			}
			if tt.port != nil {
				q := *d.QoS
				q.Classes = slices.Clone(q.Classes)
				q.Classes[1].ECN = &intent.ECN{Min: q.Classes[1].ECN.Min, Max: q.Classes[1].ECN.Max, MaxProbability: 50}
				q.Names = *tt.port
				d.Ports[1].QoS = &q
			}
			doc, err := Render(d)
			if tt.refuse != "" {
				var u *renderers.UnsupportedError
				if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.refuse) {
					t.Fatalf("Render: %v, want an unsupported error with %q", err, tt.refuse)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			text := string(doc.Text)
			if diff := cmp.Diff(tt.want, objectNames(text)); diff != "" {
				t.Errorf("qos profiles (-want +got):\n%s\n%s", diff, text)
			}
			for _, n := range tt.want {
				if !strings.Contains(text, "service-profile "+n+"\n") {
					t.Errorf("no port applies %s:\n%s", n, text)
				}
			}
			if tt.names.PortProfile != "" && strings.Contains(text, "ROCE_LOSSLESS") {
				t.Errorf("the default name is still rendered:\n%s", text)
			}
		})
	}
}

// TestNamesStable adds a class to a profile and wants no object's name
// to change, in either style (the qos profile is the only named object).
func TestNamesStable(t *testing.T) {
	for _, names := range []intent.Names{{}, {PortProfile: "roce"}} {
		d := canonical()
		d.Options = map[string]string{OptionStyle: StyleQoSProfile}
		d.QoS.Names = names
		before := objectNames(string(render(t, d).Text))
		d.QoS.Classes = append(d.QoS.Classes, intent.Class{Name: "storage", ID: 4, DSCP: []int{32}})
		slices.SortFunc(d.QoS.Classes, func(a, b intent.Class) int { return a.ID - b.ID })
		after := objectNames(string(render(t, d).Text))
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("names %+v: adding a class renamed objects (-before +after):\n%s", names, diff)
		}
	}
}

// TestTrustPortDefault: option eos.trust = "port-default" writes no
// trust line, in either style, and says what the ports then trust.
func TestTrustPortDefault(t *testing.T) {
	for _, style := range []string{StyleInterface, StyleQoSProfile} {
		d := canonical()
		d.Options = map[string]string{OptionStyle: style, OptionTrust: TrustPortDefault}
		doc := render(t, d)
		if strings.Contains(string(doc.Text), "qos trust") {
			t.Errorf("%s: trust line rendered:\n%s", style, doc.Text)
		}
		want := `eos1: option "eos.trust" = "port-default": ports keep EOS's default trust, which is DSCP on routed ports only (CoS on switchports, reference/eos.md §3)`
		if !slices.Contains(config.Messages(doc.Warnings), want) {
			t.Errorf("%s: warnings %q lack %q", style, config.Messages(doc.Warnings), want)
		}
	}
	d := canonical()
	d.Options = map[string]string{OptionTrust: "cos"}
	if _, err := Render(d); err == nil {
		t.Error("eos.trust = cos rendered")
	}
}

// TestTrustInterface: option eos.trust = "interface" writes the trust
// line under each interface after its service-profile, none in the qos
// profile, as the [blog36] spine configures its ports (corpus
// blog-roce-spine); in the interface style the rendering is the
// default's.
func TestTrustInterface(t *testing.T) {
	d := canonical()
	d.Options = map[string]string{OptionStyle: StyleQoSProfile, OptionTrust: TrustInterface}
	text := string(render(t, d).Text)
	for _, want := range []string{"interface Ethernet1\n   service-profile ROCE_LOSSLESS\n   qos trust dscp\n", "interface Ethernet2\n   service-profile ROCE_LOSSLESS\n   qos trust dscp\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	if prof := text[:strings.Index(text, "interface ")]; strings.Contains(prof, "qos trust") {
		t.Errorf("the qos profile has a trust line:\n%s", prof)
	}
	d.QoS.Trust = intent.TrustCoS
	if text := string(render(t, d).Text); !strings.Contains(text, "   service-profile ROCE_LOSSLESS\n   qos trust cos\n") {
		t.Errorf("trust cos not beside service-profile:\n%s", text)
	}

	iface := canonical()
	iface.Options = map[string]string{OptionTrust: TrustInterface}
	if got, want := string(render(t, iface).Text), string(render(t, canonical()).Text); got != want {
		t.Errorf("interface style with eos.trust = interface differs from the default:\n%s", textdiff.Unified("default", "interface", want, got))
	}
}
