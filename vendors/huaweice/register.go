package huaweice

import (
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/huaweice"
	"github.com/lossless-net/lossless/vendors"
)

func init() {
	vendors.Register(vendors.Vendor{
		Name:           Vendor,
		Render:         render.Render,
		Dial:           Dial,
		Diff:           Diff,
		Refuses:        map[string]string{"gnmi": gnmiRefusal},
		Scope:          Scope,
		ConfirmTimeout: confirmTimeout,
		LabSeed:        LabSeed,
		Import:         Import,
		Saved:          Saved,
		LabKind:        "huawei-ce", // internal/lab/huaweice
		// CE6800/8800 front-panel naming, 100GE1/0/N (reference/huawei-ce.md
		// §1). The containerlab VM image (huawei_vrp) names its ports
		// differently: set the label lossless.port-format there.
		Ports:        inventory.PortNaming{Format: "100GE1/0/%d", Stride: 1, First: 1},
		Containerlab: []string{"huawei_vrp"},
		// Family B needs a headroom pool before PFC works
		// (reference/huawei-ce.md §0, §1.1); Huawei's example is 4MB.
		Example: vendors.Example{Platform: "CE8855", HeadroomPool: 4 * units.MB},
	})
}
