package sonic

import (
	"strings"

	"github.com/lossless-net/lossless/intent/platform"
)

// family is what SONiC's own templates do differently per ASIC vendor
// (SONiC's asic_type), for the tables lossless claims. Sources, read at
// sonic-buildimage 086b03bd (the commit of reference/sonic.md §12):
//
//   - files/build_templates/qos_config.j2 emits
//     PFC_PRIORITY_TO_PRIORITY_GROUP_MAP (AZURE: {"3": "3", "4": "4"}, the
//     lossless TCs) and binds it as PORT_QOS_MAP|<port> pfc_to_pg_map only
//     when asic_type is in pfc_to_pg_map_supported_asics = ['mellanox',
//     'barefoot'] (reference/sonic.md §2.5).
//   - files/build_templates/buffers_config.j2 (the default every SKU
//     without its own macro gets, Broadcom's among them) writes
//     BUFFER_QUEUE |0-2 and |5-6 egress_lossy_profile, |3-4
//     egress_lossless_profile (reference/sonic.md §2.14).
//   - device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700/buffers_defaults_objects.j2,
//     which ACS-MSN4700 and ACS-SN5600 link to, writes |0-2 and |5-6
//     q_lossy_profile, |3-4 egress_lossless_profile; queue 7 (|5-7) only on
//     devices with the dual-ToR extra lossless queues (tunnel_qos_remap),
//     which lossless does not render.
//   - device/barefoot/x86_64-accton_wedge100bf_32x-r0/montara/buffers_defaults_t0.j2
//     (and the other Barefoot SKUs) writes |0-2 q_lossy_profile and |3-4
//     egress_lossless_profile: no BUFFER_QUEUE above queue 4.
type family struct {
	// name is SONiC's asic_type ("mellanox"), "" for the default.
	name string
	// pfcToPG is true where the template renders and binds the PFC
	// priority → PG map.
	pfcToPG bool
	// lossyQueueProfile is the BUFFER_PROFILE the template gives lossy
	// queues.
	lossyQueueProfile string
	// lastQueue is the highest queue the template gives a BUFFER_QUEUE
	// entry (a higher lossless queue extends it).
	lastQueue int
}

var (
	defaultFamily  = family{lossyQueueProfile: egressLossyProfile, lastQueue: 6}
	mellanoxFamily = family{name: "mellanox", pfcToPG: true, lossyQueueProfile: qLossyProfile, lastQueue: 6}
	barefootFamily = family{name: "barefoot", pfcToPG: true, lossyQueueProfile: qLossyProfile, lastQueue: 4}
)

// familyOf returns the template family of a platform from its ASIC, as
// the catalog names it: NVIDIA (formerly Mellanox) Spectrum is SONiC's
// "mellanox", Intel (formerly Barefoot) Tofino its "barefoot". Anything
// else, and a device without a catalog platform, gets the default
// templates.
func familyOf(p *platform.Platform) family {
	if p == nil {
		return defaultFamily
	}
	a := strings.ToLower(p.ASIC)
	switch {
	case strings.Contains(a, "spectrum"), strings.Contains(a, "mellanox"):
		return mellanoxFamily
	case strings.Contains(a, "tofino"), strings.Contains(a, "barefoot"):
		return barefootFamily
	}
	return defaultFamily
}
