package golden_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab"
	_ "github.com/lossless-net/lossless/internal/lab/all"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/vendors"
)

// TestWantAcceptedByLab loads every golden want file into the lab's
// emulator of its device's vendor and model, as that device's running
// config. The emulators' grammars are written from ../shared/reference,
// independently of the renderers, so a want line a real switch would
// refuse (a wrong keyword, a value out of range, a port the model lacks)
// fails here even when the renderer and its golden file agree. For the
// CLI vendors that print config back whole (NX-OS, EOS), every want line
// must also show in the emulated running config; Huawei CE hides
// default-equal lines (huawei-ce.md §1.1), so there only acceptance is
// checked. A SONiC seed is loaded as `config load` does, without YANG
// validation (sonic.md §7.1); the SONiC want files are validated against
// the YANG by renderers/sonic's TestGoldenYANG (yanglint and ygot).
func TestWantAcceptedByLab(t *testing.T) {
	l, err := lab.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	for _, sc := range scenarios(t) {
		inv, diags := load.Inventory(filepath.Join(sc.inputs, "inventory.hcl"))
		if diags.HasErrors() {
			t.Fatalf("%s: inventory: %s", sc.name, diags.Error())
		}
		files, err := os.ReadDir(sc.want)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := strings.TrimSuffix(strings.TrimSuffix(f.Name(), ".cfg"), ".json")
			t.Run(sc.name+"/"+name, func(t *testing.T) {
				d := inv.Device(name)
				if d == nil {
					t.Fatalf("want file %s names no device of the inventory", f.Name())
				}
				want, err := os.ReadFile(filepath.Join(sc.want, f.Name()))
				if err != nil {
					t.Fatal(err)
				}
				ports := make([]string, len(d.Ports))
				for i, p := range d.Ports {
					ports[i] = p.Name
				}
				v, _ := vendors.Lookup(d.Vendor)
				node, err := l.Add(v.LabKind, sc.name+"-"+name, want, lab.AddModel(d.Model), lab.AddPorts(ports...))
				if err != nil {
					t.Fatalf("the %s lab (%s) refuses %s: %v", d.Vendor, d.Model, filepath.Join(sc.want, f.Name()), err)
				}
				if d.Vendor != "nxos" && d.Vendor != "eos" {
					return
				}
				running := "\n" + string(node.Device().Running())
				for _, line := range strings.Split(string(want), "\n") {
					if strings.TrimSpace(line) == "" || strings.TrimSpace(line) == "!" {
						continue
					}
					if !strings.Contains(running, "\n"+line+"\n") {
						t.Errorf("%q is accepted but not shown by show running-config", line)
					}
				}
			})
		}
	}
}
