package huaweice_test

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/huaweice"
)

// specKind is the registered kind as a device.SpecKind, the way the lab
// finds it.
func specKind(t *testing.T) device.SpecKind {
	t.Helper()
	k, ok := device.Lookup(huaweice.Name)
	if !ok {
		t.Fatal("huawei-ce kind not registered")
	}
	sk, ok := k.(device.SpecKind)
	if !ok {
		t.Fatal("huawei-ce kind does not implement device.SpecKind")
	}
	return sk
}

// typeLines types lines in system-view and returns each line's output.
func typeLines(d device.Device, lines ...string) []string {
	s := d.NewSession("admin", nil)
	s.Handle("system-view")
	var out []string
	for _, l := range lines {
		o, _ := s.Handle(l)
		out = append(out, o)
	}
	return out
}

// TestSpecModelAndPorts: a device built to an inventory's model and ports
// takes the model's family commands and the ports on its panel, keeps the
// default 100GE ports, and still refuses what that switch refuses.
func TestSpecModelAndPorts(t *testing.T) {
	ports := []string{"100GE1/0/1", "100GE1/0/2", "100GE1/0/3", "100GE1/0/4", "400GE1/0/1", "400GE1/0/2", "400GE1/0/3", "400GE1/0/4"}
	const refused = "Error:"
	tests := []struct {
		name   string
		spec   device.Spec
		lines  []string
		errors []bool // per line: refused?
	}{
		{"family A CE8850-HAM with 400GE ports", device.Spec{Model: "CE8850-HAM", Ports: ports},
			[]string{"qos ecn enable", "dcb pfc deadlock-detect timer 100", "interface 400GE1/0/4", "dcb pfc enable mode manual", "quit", "interface 100GE1/0/32", "quit", "commit"},
			[]bool{false, false, false, false, false, false, false, false}},
		{"family B CE8855 with 400GE ports", device.Spec{Model: "CE8855", Ports: ports[4:]},
			[]string{"qos ecn enable", "dcb pfc deadlock-detect interval 100", "interface 400GE1/0/1", "quit", "interface 100GE1/0/1", "quit", "interface 400GE1/0/5"},
			[]bool{true, false, false, false, false, false, true}},
		{"no spec: default model without 400GE", device.Spec{},
			[]string{"interface 400GE1/0/1", "qos ecn enable"},
			[]bool{true, true}},
		{"model alone keeps the default ports", device.Spec{Model: "CE6866"},
			[]string{"qos ecn enable", "interface 400GE1/0/1", "interface 100GE1/0/1"},
			[]bool{false, true, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := specKind(t).NewSpec("leaf3", nil, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			outs := typeLines(d, tc.lines...)
			for i, o := range outs {
				if got := strings.Contains(o, refused); got != tc.errors[i] {
					t.Errorf("%q: refused = %v, want %v (output %q)", tc.lines[i], got, tc.errors[i], o)
				}
			}
		})
	}
}

// TestSpecRunning: the running config of a spec'd family A device shows
// what a CE8850-HAM keeps, on its 400GE port.
func TestSpecRunning(t *testing.T) {
	d, err := specKind(t).NewSpec("leaf3", nil, device.Spec{Model: "CE8850-HAM", Ports: []string{"400GE1/0/1"}})
	if err != nil {
		t.Fatal(err)
	}
	typeLines(d, "qos ecn enable", "interface 400GE1/0/1", "dcb pfc enable mode manual", "quit", "commit")
	run := string(d.Running())
	for _, want := range []string{"\nqos ecn enable\n", "\ninterface 400GE1/0/1\n dcb pfc enable mode manual\n"} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks %q:\n%s", want, run)
		}
	}
}

// TestSpecSeed: a seed typed into a spec'd device may use the spec's
// ports; a seed header of the other family, an unknown model or a port
// name that is no interface are errors naming the problem.
func TestSpecSeed(t *testing.T) {
	seed := "!Model: CE8850-HAM\n#\nqos ecn enable\n#\ninterface 400GE1/0/2\n dcb pfc enable mode manual\n#\nreturn\n"
	tests := []struct {
		name, seed string
		spec       device.Spec
		wantErr    string // "" for success
	}{
		{"seed on spec ports", seed, device.Spec{Model: "CE8850-HAM", Ports: []string{"400GE1/0/2"}}, ""},
		{"same family header, other model", seed, device.Spec{Model: "CE6866", Ports: []string{"400GE1/0/2"}}, ""},
		{"seed port missing from spec", seed, device.Spec{Model: "CE8850-HAM"}, "400GE1/0/2"},
		{"header of the other family", seed, device.Spec{Model: "CE8855", Ports: []string{"400GE1/0/2"}}, `seed model "CE8850-HAM" is not of the family of model "CE8855"`},
		{"unknown model", "", device.Spec{Model: "CE9999"}, `model "CE9999": not a family A or B CloudEngine model`},
		{"bad port", "", device.Spec{Ports: []string{"Ethernet1/1"}}, `port "Ethernet1/1"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := specKind(t).NewSpec("leaf3", []byte(tc.seed), tc.spec)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(d.Running()), "interface 400GE1/0/2") {
					t.Errorf("seeded port missing:\n%s", d.Running())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
