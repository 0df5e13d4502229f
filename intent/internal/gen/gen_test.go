package gen

import (
	"bytes"
	"testing"

	"github.com/lossless-net/lossless/inventory"
)

// TestFabric checks that a generated fabric is a valid inventory of the
// requested size and that generation is deterministic.
func TestFabric(t *testing.T) {
	in1, inv1 := Fabric(100, 8)
	in2, inv2 := Fabric(100, 8)
	if !bytes.Equal(in1, in2) || !bytes.Equal(inv1, inv2) {
		t.Fatal("generation is not deterministic")
	}
	inv, diags := inventory.Parse(inv1, "gen.hcl", inventory.Vendors{})
	if diags.HasErrors() {
		t.Fatalf("inventory: %s", diags.Error())
	}
	if len(inv.Devices) != 100 || len(inv.Devices[0].Ports) != 8 || len(inv.Links) != 100 {
		t.Fatalf("got %d devices, %d ports, %d links", len(inv.Devices), len(inv.Devices[0].Ports), len(inv.Links))
	}
}
