package inventory

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/units"
)

// TestContainerlab checks the import a lab user relies on: kinds become
// vendors, ethN becomes the switch's port name, labels fill platform,
// roles, tags, speed and cable, and links join the renamed ports.
func TestContainerlab(t *testing.T) {
	inv, diags := Load("testdata/lab.clab.yml", testVendors)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	type dev struct {
		Name, Vendor, Address, Transport string
		Port                             int
		Roles, Tags, Ports               []string
	}
	var got []dev
	for _, d := range inv.Devices {
		var ports []string
		for _, p := range d.Ports {
			ports = append(ports, p.Name)
		}
		got = append(got, dev{d.Name, d.Vendor, d.Address, d.Transport, d.Port, d.Roles, d.Tags, ports})
	}
	want := []dev{
		{"eos1", "eos", "172.20.20.11", "ssh", 22, []string{"leaf"}, []string{"ai", "pod1"}, []string{"Ethernet1", "Ethernet2", "Ethernet5"}},
		{"nx1", "nxos", "172.20.20.12", "ssh", 22, []string{"spine"}, nil, []string{"Ethernet1/1", "Ethernet1/2"}},
		{"ce1", "huawei-ce", "clab-roce-ce1", "gnmi", 57400, nil, nil, []string{"25GE1/0/1", "25GE1/0/4"}},
		{"sonic1", "sonic", "2001:db8::14", "ssh", 22, nil, nil, []string{"Ethernet0", "Ethernet8"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
	var links []string
	for _, l := range inv.Links {
		links = append(links, l.A.String()+" "+l.B.String())
	}
	wantLinks := []string{
		"eos1:Ethernet1 nx1:Ethernet1/1",
		"eos1:Ethernet2 sonic1:Ethernet8",
		"nx1:Ethernet1/2 ce1:25GE1/0/1",
		"eos1:Ethernet5 ce1:25GE1/0/4",
	}
	if diff := cmp.Diff(wantLinks, links); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	nx := inv.Device("nx1")
	if p := nx.PortNamed("Ethernet1/1"); p == nil || p.Speed != 400*units.Gbps || p.Cable != 3*units.Metre {
		t.Errorf("nx1 Ethernet1/1 = %+v, want 400G 3m (node label over defaults)", p)
	}
	if nx.DeclRange.Start.Line != 19 || nx.VendorRange.Start.Line != 20 || nx.ModelRange.Start.Line != 23 {
		t.Errorf("nx1 ranges at lines %d/%d/%d, want 19/20/23", nx.DeclRange.Start.Line, nx.VendorRange.Start.Line, nx.ModelRange.Start.Line)
	}
	if nx.Platform == nil {
		t.Error("nx1 platform not resolved")
	}
}
