package nxos_test

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/nxos"
)

func specKind(t *testing.T) device.SpecKind {
	t.Helper()
	k, ok := device.Lookup(nxos.Name)
	if !ok {
		t.Fatal("nxos kind not registered")
	}
	sk, ok := k.(device.SpecKind)
	if !ok {
		t.Fatal("nxos kind does not implement device.SpecKind")
	}
	return sk
}

// TestSpecPorts: a device built as a model has that model's front-panel
// ports and refuses the others with the error and caret a port beyond
// any panel gets; the interface list in show running-config too.
func TestSpecPorts(t *testing.T) {
	cases := []struct {
		name, model, line, bad, want string // want "" = accepted
	}{
		{"36-port model has Ethernet1/36", "N9K-C93600CD-GX", "interface Ethernet1/36", "", ""},
		{"36-port model lacks Ethernet1/37", "N9K-C93600CD-GX", "interface Ethernet1/37", "Ethernet1/37", "% Invalid command at '^' marker."},
		{"abbreviated, in config-if", "N9K-C93600CD-GX", "int e1/40", "e1/40", "% Invalid command at '^' marker."},
		{"range past the panel", "N9K-C93600CD-GX", "interface Ethernet1/35-40", "Ethernet1/35-40", "Invalid range at '^' marker."},
		{"range within the panel", "N9K-C93600CD-GX", "interface Ethernet1/29-36", "", ""},
		{"show of a missing port", "N9K-C93180YC-FX", "show running-config interface Ethernet1/55", "Ethernet1/55", "% Invalid command at '^' marker."},
		{"default model has 64", "", "interface Ethernet1/64", "", ""},
		{"default model, 65 refused by the grammar", "", "interface Ethernet1/65", "Ethernet1/65", "% Invalid command at '^' marker."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := specKind(t).NewSpec("leaf1", nil, device.Spec{Model: c.model})
			if err != nil {
				t.Fatal(err)
			}
			s := d.NewSession("admin", nil)
			s.Handle("configure terminal")
			s.Handle("interface Ethernet1/1")
			prompt := s.Prompt()
			got, _ := s.Handle(c.line)
			want := ""
			if c.want != "" {
				want = strings.Repeat(" ", len(prompt)+strings.Index(c.line, c.bad)) + "^\n" + c.want + "\n"
			}
			if got != want {
				t.Errorf("%s%s\ngot:\n%s\nwant:\n%s", prompt, c.line, got, want)
			}
		})
	}
}

// TestSpecRunning: the running config lists the model's ports, and a seed
// on the spec's ports loads.
func TestSpecRunning(t *testing.T) {
	seed := "interface Ethernet1/29\n  priority-flow-control mode on\n"
	d, err := specKind(t).NewSpec("leaf1", []byte(seed), device.Spec{Model: "N9K-C93600CD-GX", Ports: []string{"Ethernet1/1", "Ethernet1/29", "Ethernet1/36"}})
	if err != nil {
		t.Fatal(err)
	}
	run := string(d.Running())
	for _, want := range []string{"\ninterface Ethernet1/36\n", "\ninterface Ethernet1/29\n  priority-flow-control mode on\n"} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks %q:\n%s", want, run)
		}
	}
	if strings.Contains(run, "Ethernet1/37") {
		t.Errorf("a 36-port switch shows Ethernet1/37:\n%s", run)
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
		{"unknown model", device.Spec{Model: "N9K-C9999"}, "", `model "N9K-C9999": not a Nexus model the lab emulates`},
		{"port off the panel", device.Spec{Model: "N9K-C93600CD-GX", Ports: []string{"Ethernet1/40"}}, "", `port "Ethernet1/40": not a front-panel port of a N9K-C93600CD-GX (Ethernet1/1-36)`},
		{"not a port name", device.Spec{Ports: []string{"400GE1/0/1"}}, "", `port "400GE1/0/1"`},
		{"range is not one port", device.Spec{Ports: []string{"Ethernet1/1-4"}}, "", `port "Ethernet1/1-4"`},
		{"seed on a missing port", device.Spec{Model: "N9K-C93180YC-FX"}, "interface Ethernet1/60\n", `line 1 "interface Ethernet1/60"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var seed []byte
			if c.seed != "" {
				seed = []byte(c.seed)
			}
			_, err := specKind(t).NewSpec("leaf1", seed, c.spec)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}
