package load_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/load"
	_ "github.com/lossless-net/lossless/vendors/all"
)

// TestFabric loads a golden scenario: every device resolved, sorted, with
// the intent, the inventory and their files; targets narrow the devices.
func TestFabric(t *testing.T) {
	dir := "../../golden/canonical"
	f, diags := load.Fabric(dir, load.Options{Renderable: true})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if f.Intent == nil || f.Inventory == nil || len(f.Devices) == 0 || len(f.Devices) != len(f.Inventory.Devices) {
		t.Fatalf("intent %v, inventory %v, %d devices", f.Intent != nil, f.Inventory != nil, len(f.Devices))
	}
	if _, ok := f.Files[filepath.Join(dir, "inventory.hcl")]; !ok {
		t.Errorf("files %v lack the inventory", f.Files)
	}
	for i := 1; i < len(f.Devices); i++ {
		if f.Devices[i-1].Name >= f.Devices[i].Name {
			t.Errorf("devices out of name order: %s before %s", f.Devices[i-1].Name, f.Devices[i].Name)
		}
	}
	name := f.Devices[0].Name
	f, diags = load.Fabric(dir, load.Options{Targets: []string{name}})
	if diags.HasErrors() || len(f.Devices) != 1 || f.Devices[0].Name != name {
		t.Errorf("-target %s: %d devices, %v", name, len(f.Devices), diags)
	}
	f, diags = load.Fabric(dir, load.Options{Targets: []string{"role:nope"}})
	if !diags.HasErrors() || f.Devices != nil || !strings.Contains(diags.Error(), `"role:nope" matches no device`) {
		t.Errorf("a target matching nothing: %d devices, %v", len(f.Devices), diags)
	}
}

// TestFabricTransport: a device whose vendor refuses its transport is an
// LL130 error on its device block, with the vendor's reason.
func TestFabricTransport(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../golden/canonical/intent.hcl")
	if err != nil {
		t.Fatal(err)
	}
	inv := "device \"nx1\" {\n  vendor    = \"nxos\"\n  platform  = \"N9K-C93600CD-GX\"\n  address   = \"192.0.2.1\"\n  transport = \"gnmi\"\n" +
		"  ports \"Ethernet1/1-2\" {\n    speed = \"100G\"\n    cable = \"5m\"\n  }\n}\n"
	for name, b := range map[string][]byte{"intent.hcl": src, "inventory.hcl": []byte(inv)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, diags := load.Fabric(dir, load.Options{})
	var found bool
	for _, d := range diags {
		if diag.RuleOf(d) == load.RuleTransport {
			found = d.Subject != nil && d.Subject.Start.Line == 1 && strings.Contains(d.Detail, `transport = "ssh"`)
		}
	}
	if !found {
		t.Errorf("no LL130 on the device block: %v", diags)
	}
}

// TestFabricNoInventory: a missing inventory is one sourceless error.
func TestFabricNoInventory(t *testing.T) {
	f, diags := load.Fabric("../../golden/canonical", load.Options{Inventory: filepath.Join(t.TempDir(), "none.hcl")})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "No inventory") || f.Devices != nil || f.Intent == nil {
		t.Errorf("diagnostics %v", diags)
	}
}

// TestFabricFeatures: an intent feature the device's vendor does not
// render is an LL133 error on the device, naming the feature and where
// the intent uses it; the same intent without it loads.
func TestFabricFeatures(t *testing.T) {
	src, err := os.ReadFile("../../golden/canonical/intent.hcl")
	if err != nil {
		t.Fatal(err)
	}
	inv := "device \"nx1\" {\n  vendor    = \"nxos\"\n  platform  = \"N9K-C93600CD-GX\"\n  address   = \"192.0.2.1\"\n" +
		"  ports \"Ethernet1/1-2\" {\n    speed = \"100G\"\n    cable = \"5m\"\n  }\n}\n"
	for _, tt := range []struct {
		name, from, to, want string
	}{
		{"core intent", "", "", ""},
		{"shape", `id       = 6`, "id       = 6\n    shape    = \"10G\"", `shape (traffic_class`},
		{"ecn default probability", "      max_probability = 7\n", "", `ecn-default-probability (traffic_class ROCEv2)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			intentSrc := strings.Replace(string(src), tt.from, tt.to, 1)
			if tt.from != "" && intentSrc == string(src) {
				t.Fatalf("%q not in the canonical intent", tt.from)
			}
			for name, b := range map[string]string{"intent.hcl": intentSrc, "inventory.hcl": inv} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, diags := load.Fabric(dir, load.Options{})
			var got []string
			for _, d := range diags {
				if diag.RuleOf(d) == load.RuleFeature {
					got = append(got, d.Detail)
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("LL133 on the core intent: %q", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("LL133 = %q, want one naming %q (all: %v)", got, tt.want, diags)
			}
		})
	}
}
