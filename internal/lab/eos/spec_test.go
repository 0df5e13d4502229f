package eos_test

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/eos"
)

func specKind(t *testing.T) device.SpecKind {
	t.Helper()
	k, ok := device.Lookup(eos.Name)
	if !ok {
		t.Fatal("eos kind not registered")
	}
	sk, ok := k.(device.SpecKind)
	if !ok {
		t.Fatal("eos kind does not implement device.SpecKind")
	}
	return sk
}

// TestSpecPorts: a device built as a model has that model's front-panel
// ports and refuses the others with EOS's invalid-input error.
func TestSpecPorts(t *testing.T) {
	cases := []struct {
		name, model, line, want string // want "" = accepted
	}{
		{"64-port model has Ethernet64", "DCS-7060DX5-64S", "interface Ethernet64", ""},
		{"64-port model, range to 64", "DCS-7060DX5-64S", "interface Ethernet60-64", ""},
		{"64-port model lacks Ethernet65", "DCS-7060DX5-64S", "interface Ethernet65", "% Invalid input"},
		{"32-port model lacks Ethernet33", "DCS-7060DX4-32", "interface et33", "% Invalid input"},
		{"32-port model, range past the panel", "DCS-7060DX4-32", "interface Ethernet30-34", "% Invalid input"},
		{"default model lacks Ethernet33", "", "interface Ethernet33", "% Invalid input"},
		{"show of a missing port", "DCS-7060DX4-32", "show running-config interfaces Ethernet40", "% Invalid input"},
		{"show of a present port", "DCS-7060DX5-64S", "show running-config interfaces Ethernet40", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := specKind(t).NewSpec("spine2", nil, device.Spec{Model: c.model})
			if err != nil {
				t.Fatal(err)
			}
			s := d.NewSession("admin", nil)
			for _, l := range []string{"enable", "configure terminal"} {
				s.Handle(l)
			}
			got, _ := s.Handle(c.line)
			refused := strings.HasPrefix(got, "% ")
			if (c.want != "") != refused || (refused && got != c.want+"\n") {
				t.Errorf("%s: got %q, want %q", c.line, got, c.want)
			}
		})
	}
}

// TestSpecRunning: the running config lists exactly the model's ports, and
// a seed on the spec's ports loads.
func TestSpecRunning(t *testing.T) {
	seed := "interface Ethernet64\n   priority-flow-control on\n!\n"
	d, err := specKind(t).NewSpec("spine2", []byte(seed), device.Spec{Model: "DCS-7060DX5-64S", Ports: []string{"Ethernet1", "Ethernet64"}})
	if err != nil {
		t.Fatal(err)
	}
	run := string(d.Running())
	for _, want := range []string{"\ninterface Ethernet33\n", "\ninterface Ethernet64\n   priority-flow-control on\n"} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks %q:\n%s", want, run)
		}
	}
	if strings.Contains(run, "Ethernet65") {
		t.Errorf("a 64-port switch shows Ethernet65:\n%s", run)
	}
}

// TestSpecErrors: an unknown model or a port the model lacks is an error
// naming it.
func TestSpecErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		spec device.Spec
		seed string
		want string
	}{
		{"unknown model", device.Spec{Model: "DCS-9999"}, "", `model "DCS-9999": not an Arista model the lab emulates`},
		{"port off the panel", device.Spec{Model: "DCS-7060DX4-32", Ports: []string{"Ethernet40"}}, "", `port "Ethernet40": not a front-panel port of a DCS-7060DX4-32 (Ethernet1-32)`},
		{"not a port name", device.Spec{Ports: []string{"Ethernet1/1/1"}}, "", `port "Ethernet1/1/1"`},
		{"range is not one port", device.Spec{Ports: []string{"Ethernet1-4"}}, "", `port "Ethernet1-4"`},
		{"seed on a missing port", device.Spec{Model: "DCS-7060DX4-32"}, "interface Ethernet60\n!\n", "Ethernet60"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var seed []byte
			if c.seed != "" {
				seed = []byte(c.seed)
			}
			_, err := specKind(t).NewSpec("spine2", seed, c.spec)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}
