package lab_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
)

// specKind is a test personality built to a spec: it knows two models and
// remembers the spec each device was made with.
type specKind struct{ echoKind }

func (specKind) Name() string { return "test-spec" }

func (k specKind) NewSpec(hostname string, seed []byte, s device.Spec) (device.Device, error) {
	if s.Model != "" && s.Model != "DCS-7060DX4-32" && s.Model != "DCS-7050CX3-32S" {
		return nil, &modelError{s.Model}
	}
	d, err := k.New(hostname, seed)
	if err != nil {
		return nil, err
	}
	return &specDevice{Device: d, spec: s}, nil
}

type modelError struct{ model string }

func (e *modelError) Error() string { return "model " + e.model + ": not emulated" }

// specDevice is an echo device that knows the spec it was built to.
type specDevice struct {
	device.Device
	spec device.Spec
}

func init() { device.Register(specKind{}) }

// TestAddSpec: Add passes AddModel and AddPorts to a kind that builds to a
// spec, reports the model, writes it in the inventory, and refuses a spec
// the kind cannot honour with the kind's reason.
func TestAddSpec(t *testing.T) {
	l := newLab(t)
	n, err := l.Add("test-spec", "leaf2", nil, lab.AddModel("DCS-7060DX4-32"), lab.AddPorts("Ethernet29", "Ethernet30"), lab.AddPorts("Ethernet31"))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := n.Device().(*specDevice)
	if !ok {
		t.Fatalf("device %T not built by NewSpec", n.Device())
	}
	if d.spec.Model != "DCS-7060DX4-32" || !slices.Equal(d.spec.Ports, []string{"Ethernet29", "Ethernet30", "Ethernet31"}) {
		t.Errorf("spec = %+v", d.spec)
	}
	if n.Model() != "DCS-7060DX4-32" {
		t.Errorf("Model() = %q", n.Model())
	}
	// Without options the kind's New and default model are used.
	plain, err := l.Add("test-spec", "leaf9", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, spec := plain.Device().(*specDevice); spec || plain.Model() != "Arista-7060CX-32S" {
		t.Errorf("plain Add: device %T, model %q", plain.Device(), plain.Model())
	}
	inv := filepath.Join(t.TempDir(), "inventory.hcl")
	if err := l.WriteInventory(inv); err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(inv)
	if !strings.Contains(string(text), "device \"leaf2\" {\n  vendor      = \"test-spec\"\n  platform    = \"DCS-7060DX4-32\"\n") {
		t.Errorf("inventory does not give leaf2 its model:\n%s", text)
	}

	for _, tc := range []struct {
		name, kind, host string
		opts             []lab.AddOption
		want             string
	}{
		{"unknown model", "test-spec", "x1", []lab.AddOption{lab.AddModel("DCS-9999")}, "add x1: model DCS-9999: not emulated"},
		{"kind without specs", "test-echo", "x2", []lab.AddOption{lab.AddPorts("Ethernet1")}, `add x2: kind "test-echo" cannot emulate a given model or ports`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := l.Add(tc.kind, tc.host, nil, tc.opts...)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			// The name stays free for a later Add.
			if _, err := l.Add("test-echo", tc.host, nil); err != nil {
				t.Errorf("name not released: %v", err)
			}
		})
	}
}
