package nxos

import (
	"github.com/lossless-net/lossless/intent"
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
		// What renderers/nxos renders beyond the core, each with its
		// source there. Not here: cos-map (NX-OS's `match cos` matches IP
		// packets too, not only frames without an IP header), shape (no
		// source gives the form NX-OS displays a `shape min … max …` rate
		// in), watchdog-priorities (the NX-OS watchdog watches every
		// no-drop queue of a port), ecn-default-probability (the
		// random-detect threshold form makes drop-probability mandatory
		// [C:cmdref-R]) and ecn-zero-probability (no source shows NX-OS
		// taking drop-probability 0, nor what it then does).
		Features: []intent.Feature{
			intent.FeatureTrustCoS,
			intent.FeatureMatchAll,
			intent.FeatureMinBandwidth,
			intent.FeaturePFCMode,
		},
	})
}
