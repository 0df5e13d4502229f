package huaweice

import (
	"github.com/lossless-net/lossless/intent"
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
		// What renderers/huaweice renders beyond the core, each from the
		// source its rendering cites: 802.1p trust and maps
		// (`8021p-inbound`), queue shaping (`qos queue Q shaping cir`),
		// PFC off or auto (`dcb pfc enable mode auto` with DCBX), the
		// ECN default probability (discard-percentage 100), WRED drop of
		// yellow and red packets (drop-profile `color yellow|red …`;
		// drop = true only: the `ecn` line marks every colour alike) and
		// thresholds in percent of the queue (`ecn low-limit L high-limit
		// H`, V300R023 command pages "ecn" and "color"). Not rendered:
		// match-all (a DiffServ domain maps values, it has no match
		// logic), min-bandwidth (no V300R023 source gives a guaranteed
		// queue rate beside DRR), a watchdog on some priorities
		// (deadlock detection is always on for every PFC priority,
		// reference §1.1) and ECN probability 0 (discard-percentage is
		// 1–100, §2.5).
		Features: []intent.Feature{
			intent.FeatureTrustCoS, intent.FeatureCoSMap, intent.FeatureShape,
			intent.FeaturePFCMode, intent.FeatureECNDefaultProbability,
			intent.FeatureWREDColors, intent.FeatureECNPercent,
		},
	})
}
