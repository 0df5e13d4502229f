package inventory

import "testing"

func TestLoadValidSmoke(t *testing.T) {
	inv, diags := Load("testdata/valid.hcl", nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(inv.Devices) != 2 || len(inv.Devices[0].Ports) != 64 || len(inv.Devices[1].Ports) != 32 || len(inv.Links) != 1 {
		t.Fatalf("got %d devices, %d links", len(inv.Devices), len(inv.Links))
	}
}
