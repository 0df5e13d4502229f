package inventory

import "testing"

// testVendors is what the vendor registry passes for the four vendors
// lossless is built for (package vendors, vendors.Accepted): the tests of
// this package run without the registry, which imports inventory.
var testVendors = Vendors{
	Names: []string{"eos", "huawei-ce", "nxos", "sonic"},
	Containerlab: map[string]ContainerlabKind{
		"cisco_n9kv":  {Vendor: "nxos", Ports: PortNaming{Format: "Ethernet1/%d", Stride: 1, First: 1}},
		"vr-n9kv":     {Vendor: "nxos", Ports: PortNaming{Format: "Ethernet1/%d", Stride: 1, First: 1}},
		"nxos":        {Vendor: "nxos", Ports: PortNaming{Format: "Ethernet1/%d", Stride: 1, First: 1}},
		"ceos":        {Vendor: "eos", Ports: PortNaming{Format: "Ethernet%d", Stride: 1, First: 1}},
		"arista_ceos": {Vendor: "eos", Ports: PortNaming{Format: "Ethernet%d", Stride: 1, First: 1}},
		"huawei_vrp":  {Vendor: "huawei-ce", Ports: PortNaming{Format: "100GE1/0/%d", Stride: 1, First: 1}},
		"sonic-vs":    {Vendor: "sonic", Ports: PortNaming{Format: "Ethernet%d", Stride: 4, First: 0}},
		"sonic-vm":    {Vendor: "sonic", Ports: PortNaming{Format: "Ethernet%d", Stride: 4, First: 0}},
	},
}

// TestPortNaming: a naming gives port names and the range of the first n
// ports in the inventory's range syntax, which ExpandPorts reads back.
func TestPortNaming(t *testing.T) {
	for _, tc := range []struct {
		p          PortNaming
		third, rng string
	}{
		{PortNaming{Format: "Ethernet1/%d", Stride: 1, First: 1}, "Ethernet1/3", "Ethernet1/1-4"},
		{PortNaming{Format: "Ethernet%d", Stride: 4, First: 0}, "Ethernet8", "Ethernet0-12 step 4"},
	} {
		if got := tc.p.Name(3); got != tc.third {
			t.Errorf("%+v: Name(3) = %q, want %q", tc.p, got, tc.third)
		}
		if got := tc.p.Range(4); got != tc.rng {
			t.Errorf("%+v: Range(4) = %q, want %q", tc.p, got, tc.rng)
		}
		names, err := ExpandPorts(tc.p.Range(4))
		if err != nil || len(names) != 4 || names[2] != tc.third {
			t.Errorf("%+v: ExpandPorts(Range(4)) = %v, %v", tc.p, names, err)
		}
		if why := tc.p.Check(); why != "" {
			t.Errorf("%+v: Check = %q", tc.p, why)
		}
	}
	for _, bad := range []PortNaming{{Format: "Ethernet", Stride: 1}, {Format: "Ethernet%d/%d", Stride: 1}, {Format: "Ethernet%d"}} {
		if bad.Check() == "" {
			t.Errorf("%+v: Check accepts it", bad)
		}
	}
}
