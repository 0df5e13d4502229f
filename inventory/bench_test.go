package inventory

import (
	"bytes"
	"fmt"
	"testing"
)

// fabricInventory generates an inventory of n devices with 64 ports each,
// cycling through the four vendors, and a link from port 64 of every
// even device to port 63 of the next one.
func fabricInventory(n int) []byte {
	var b bytes.Buffer
	b.WriteString("credentials \"ops\" {\n  username_env = \"U\"\n  password_env = \"P\"\n}\n")
	vendors := []struct{ vendor, model, ports, last, prev string }{
		{"nxos", "N9K-C9364D-GX2A", "Ethernet1/1-64", "Ethernet1/64", "Ethernet1/63"},
		{"eos", "DCS-7060DX5-64S", "Ethernet1-64", "Ethernet64", "Ethernet63"},
		{"huawei-ce", "CE8855", "400GE1/0/1-64", "400GE1/0/64", "400GE1/0/63"},
		{"sonic", "SN5600", "Ethernet0-252 step 4", "Ethernet252", "Ethernet248"},
	}
	for i := range n {
		v := vendors[i%4]
		fmt.Fprintf(&b, "device \"sw%d\" {\n  vendor      = %q\n  platform    = %q\n  address     = \"10.%d.%d.%d\"\n  roles       = [\"leaf\"]\n  credentials = credentials.ops\n  ports %q {\n    speed = \"400G\"\n    cable = \"3m\"\n  }\n}\n",
			i, v.vendor, v.model, i>>16&255, i>>8&255, i&255, v.ports)
	}
	for i := 0; i+1 < n; i += 2 {
		fmt.Fprintf(&b, "link {\n  a = \"sw%d:%s\"\n  b = \"sw%d:%s\"\n}\n", i, vendors[i%4].last, i+1, vendors[(i+1)%4].prev)
	}
	return b.Bytes()
}

func TestFabricInventoryLoads(t *testing.T) {
	inv, diags := Parse(fabricInventory(8), "fabric.hcl", testVendors)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if len(inv.Devices) != 8 || len(inv.Links) != 4 || len(inv.Devices[3].Ports) != 64 {
		t.Fatalf("got %d devices, %d links, %d ports", len(inv.Devices), len(inv.Links), len(inv.Devices[3].Ports))
	}
}

// BenchmarkParseFabric loads the 10,000-device × 64-port inventory of the
// issue 2 scale goal.
func BenchmarkParseFabric(b *testing.B) {
	src := fabricInventory(10000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		inv, diags := Parse(src, "fabric.hcl", testVendors)
		if diags.HasErrors() || len(inv.Devices) != 10000 {
			b.Fatal(diags)
		}
	}
}
