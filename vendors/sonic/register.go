package sonic

import (
	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors"
)

func init() {
	vendors.Register(vendors.Vendor{
		Name:       Vendor,
		Render:     render.Render,
		Formats:    map[string]func(d *intent.Device) ([]byte, error){"yang": render.RenderYANG},
		Check:      render.Validate,
		Dial:       Dial,
		Diff:       Diff,
		Transports: map[string]vendors.DialFunc{"gnmi": DialGNMI},
		Scope:      Scope,
		LabSeed:    LabSeed,
		Import:     Import,
		Saved:      Saved,
		LabKind:    "sonic", // internal/lab/sonic
		// The intent features beyond the core the renderer renders
		// (renderers/sonic: each with its CONFIG_DB field and source).
		Features: []intent.Feature{
			intent.FeatureTrustCoS,              // DOT1P_TO_TC_MAP bound by dot1p_to_tc_map (qos_config.j2)
			intent.FeatureMinBandwidth,          // SCHEDULER cir, bytes/s of the port speed
			intent.FeatureShape,                 // SCHEDULER pir, bytes/s, beside cir (YANG)
			intent.FeatureWatchdogPriorities,    // PORT_QOS_MAP pfcwd_sw_enable ⊂ pfc_enable
			intent.FeatureECNDefaultProbability, // no green_drop_probability (YANG default 100)
			intent.FeatureECNZeroProbability,    // green_drop_probability "0" (YANG 0..100)
			intent.FeatureWREDColors,            // wred_yellow_enable/wred_red_enable, yellow_/red_ thresholds and probability, ecn_green_yellow … ecn_all
		},
		// SONiC names a port by its first lane, four lanes a port: data
		// port N is Ethernet(4×(N−1)) (SONiC VS lanemap, containerlab PR
		// #2120).
		Ports:        inventory.PortNaming{Format: "Ethernet%d", Stride: 4, First: 0},
		Containerlab: []string{"sonic-vm", "sonic-vs"},
		Example:      vendors.Example{Platform: "Arista-7060CX-32S"},
	})
}
