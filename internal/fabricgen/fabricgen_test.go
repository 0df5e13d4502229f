package fabricgen

import (
	"bytes"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all"
)

// TestFabric checks that a generated fabric is a valid inventory of the
// requested size and that generation is deterministic.
func TestFabric(t *testing.T) {
	in1, inv1 := Fabric(100, 8)
	in2, inv2 := Fabric(100, 8)
	if !bytes.Equal(in1, in2) || !bytes.Equal(inv1, inv2) {
		t.Fatal("generation is not deterministic")
	}
	inv, diags := inventory.Parse(inv1, "gen.hcl", vendors.Accepted())
	if diags.HasErrors() {
		t.Fatalf("inventory: %s", diags.Error())
	}
	if len(inv.Devices) != 100 || len(inv.Devices[0].Ports) != 8 || len(inv.Links) != 100 {
		t.Fatalf("got %d devices, %d ports, %d links", len(inv.Devices), len(inv.Devices[0].Ports), len(inv.Links))
	}
}

// TestFabricResolves: every generated device of every registered vendor
// is assigned and resolves without a diagnostic, and renders.
func TestFabricResolves(t *testing.T) {
	in, invSrc := Fabric(60, 8)
	inv, diags := inventory.Parse(invSrc, "gen.hcl", vendors.Accepted())
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	fab, diags := intent.LoadSources(map[string][]byte{"gen.hcl": in}, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	devs, diags := intent.Resolve(fab, inv)
	if len(diags) > 0 || len(devs) != 60 {
		t.Fatalf("%d devices, diagnostics: %s", len(devs), diags.Error())
	}
	seen := map[string]bool{}
	for _, d := range devs {
		v, _ := vendors.Lookup(d.Vendor)
		if _, err := v.Render(d); err != nil {
			t.Errorf("%s: %v", d.Name, err)
		}
		seen[d.Vendor] = true
	}
	if len(seen) != len(models()) {
		t.Errorf("vendors %v, want the %d that give an example", seen, len(models()))
	}
}
