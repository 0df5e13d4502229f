package eos

import (
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/eos"
	"github.com/lossless-net/lossless/vendors"
)

func init() {
	vendors.Register(vendors.Vendor{
		Name:           Vendor,
		Render:         render.Render,
		Dial:           Dial,
		Diff:           Diff,
		Transports:     map[string]vendors.DialFunc{"gnmi": DialGNMI},
		Scope:          Scope,
		ConfirmTimeout: confirmTimeout,
		LabSeed:        LabSeed,
		Import:         Import,
		Saved:          Saved,
		LabKind:        "eos", // internal/lab/eos
		// EOS front-panel ports are EthernetN; cEOS maps ethN to EthernetN
		// (containerlab ceos docs).
		Ports:        inventory.PortNaming{Format: "Ethernet%d", Stride: 1, First: 1},
		Containerlab: []string{"arista_ceos", "ceos"},
		Example:      vendors.Example{Platform: "DCS-7060CX-32S"},
	})
}
