package eos

import (
	"github.com/lossless-net/lossless/intent"
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
		// What renderers/eos renders beyond the core, each in the form
		// AVD writes (reference/eos.md §8 [C:avd]): `qos trust cos` with
		// `qos map cos`, `bandwidth guaranteed percent`, `shape rate N
		// kbps`, `no priority-flow-control` (pfc mode "off"; "auto" is
		// refused) and `random-detect ecn` without max-mark-probability.
		// Not rendered: CoS beside DSCP trust and match = "all" (EOS's
		// maps have neither), a watchdog on some priorities (EOS watches
		// a port's no-drop queues, no source shows a subset), and ECN
		// probability 0 (EOS takes 1–100, AVD schema).
		Features: []intent.Feature{intent.FeatureTrustCoS, intent.FeatureMinBandwidth, intent.FeatureShape,
			intent.FeaturePFCMode, intent.FeatureECNDefaultProbability},
	})
}
