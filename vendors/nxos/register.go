package nxos

import (
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/nxos"
	"github.com/lossless-net/lossless/vendors"
)

func init() {
	vendors.Register(vendors.Vendor{
		Name:    Vendor,
		Render:  render.Render,
		Dial:    Dial,
		Diff:    Diff,
		Refuses: map[string]string{"gnmi": gnmiRefusal},
		Scope:   Scope,
		LabSeed: LabSeed,
		Import:  Import,
		Saved:   Saved,
		LabKind: "nxos", // internal/lab/nxos
		// Nexus 9000 front-panel ports are Ethernet1/N; containerlab's
		// n9kv kinds map ethN to Ethernet1/N (containerlab vr-n9kv docs).
		Ports:        inventory.PortNaming{Format: "Ethernet1/%d", Stride: 1, First: 1},
		Containerlab: []string{"cisco_n9kv", "nxos", "vr-n9kv"},
		Example:      vendors.Example{Platform: "N9K-C93600CD-GX"},
	})
}
