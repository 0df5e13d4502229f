package sonic

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/sonicyang"
)

// twoLossless is canonical with TC 4 lossless too, as SONiC's own
// templates have it (LOSSLESS_TC ['3','4'], qos_config.j2): the set the
// templates below are written for.
func twoLossless(p *platform.Platform) *intent.Device {
	d := canonical()
	d.Platform = p
	q := d.QoS
	q.Classes = append(q.Classes, intent.Class{Name: "rdma2", ID: 4, DSCP: []int{30}, Lossless: true, Scheduling: q.Classes[1].Scheduling})
	for i := range d.Ports {
		d.Ports[i].QoS = q
		h := d.Ports[i].Headroom[0]
		h.Priority = 4
		d.Ports[i].Headroom = append(d.Ports[i].Headroom, h)
	}
	return d
}

// templates is what SONiC's own templates write for one port with the
// lossless TCs 3 and 4, per ASIC family (sonic-buildimage 086b03bd; see
// family.go for the files): the BUFFER_QUEUE ranges and profiles, and the
// PFC priority → PG map with its binding where qos_config.j2 renders it.
var templates = []struct {
	name     string
	platform *platform.Platform
	queues   map[string]string // BUFFER_QUEUE suffix → profile
	pfcToPG  map[string]string // PFC_PRIORITY_TO_PRIORITY_GROUP_MAP entries; nil: not rendered
}{
	{
		// files/build_templates/buffers_config.j2, the default BUFFER_QUEUE
		// (Arista-7060CX-32S's buffers_defaults_t0.j2 has none of its own).
		name:     "Broadcom Tomahawk",
		platform: &platform.Platform{Model: "Arista-7060CX-32S", ASIC: "Broadcom Tomahawk (BCM56960)"},
		queues:   map[string]string{"0-2": "egress_lossy_profile", "3-4": "egress_lossless_profile", "5-6": "egress_lossy_profile"},
	},
	{
		// device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700/buffers_defaults_objects.j2
		// (ACS-MSN4700 links to it); qos_config.j2 for the map.
		name:     "NVIDIA Spectrum-3",
		platform: &platform.Platform{Model: "SN4700", ASIC: "NVIDIA Spectrum-3"},
		queues:   map[string]string{"0-2": "q_lossy_profile", "3-4": "egress_lossless_profile", "5-6": "q_lossy_profile"},
		pfcToPG:  map[string]string{"3": "3", "4": "4"},
	},
	{
		// device/barefoot/x86_64-accton_wedge100bf_32x-r0/montara/buffers_defaults_t0.j2.
		name:     "Barefoot Tofino",
		platform: &platform.Platform{Model: "Wedge100BF-32X", ASIC: "Barefoot Tofino"},
		queues:   map[string]string{"0-2": "q_lossy_profile", "3-4": "egress_lossless_profile"},
		pfcToPG:  map[string]string{"3": "3", "4": "4"},
	},
}

// TestTemplateTables: for the templates' own lossless set, the rendering
// writes the BUFFER_QUEUE ranges and profiles, the PFC priority → PG map
// and its pfc_to_pg_map binding exactly as the platform's template does,
// and nothing of them where the template writes nothing; the result is
// YANG-valid.
func TestTemplateTables(t *testing.T) {
	for _, tc := range templates {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Render(twoLossless(tc.platform))
			if err != nil {
				t.Fatal(err)
			}
			for _, port := range []string{"Ethernet0", "Ethernet4"} {
				got := map[string]string{}
				for k, f := range doc.DB["BUFFER_QUEUE"] {
					if p, q, _ := strings.Cut(k, "|"); p == port {
						got[q] = f["profile"]
					}
				}
				if diff := cmp.Diff(tc.queues, got); diff != "" {
					t.Errorf("BUFFER_QUEUE of %s differs from the template (-want +got):\n%s", port, diff)
				}
				bound, ok := doc.DB["PORT_QOS_MAP"][port]["pfc_to_pg_map"]
				switch {
				case tc.pfcToPG == nil && ok:
					t.Errorf("PORT_QOS_MAP|%s pfc_to_pg_map = %q; the template binds none on this ASIC", port, bound)
				case tc.pfcToPG != nil && bound != "ROCE":
					t.Errorf("PORT_QOS_MAP|%s pfc_to_pg_map = %q, want the profile's map ROCE", port, bound)
				}
			}
			var maps map[string]string
			if m := doc.DB["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"]; m != nil {
				maps = m["ROCE"]
				if len(m) != 1 {
					t.Errorf("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP = %v, want only ROCE", m)
				}
			}
			if diff := cmp.Diff(tc.pfcToPG, maps); diff != "" {
				t.Errorf("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP|ROCE differs from qos_config.j2's (-want +got):\n%s", diff)
			}
			full := merge(platformRows(t, doc.DB), doc.DB)
			if err := sonicyang.Validate(full); err != nil {
				t.Errorf("ygot validation: %v", err)
			}
		})
	}
}

// TestBufferQueueRanges: the lossy ranges around the intent's lossless
// queues reach the family's last template queue (6, or 4 on Barefoot), or
// the highest lossless queue when it is above.
func TestBufferQueueRanges(t *testing.T) {
	spectrum := &platform.Platform{Model: "SN4700", ASIC: "NVIDIA Spectrum-3"}
	tofino := &platform.Platform{Model: "Wedge100BF-32X", ASIC: "Barefoot Tofino"}
	for _, tc := range []struct {
		name     string
		platform *platform.Platform
		lossless []int
		want     map[string]string
	}{
		{"default, 3", nil, []int{3},
			map[string]string{"0-2": "egress_lossy_profile", "3": "egress_lossless_profile", "4-6": "egress_lossy_profile"}},
		{"mellanox, 3", spectrum, []int{3},
			map[string]string{"0-2": "q_lossy_profile", "3": "egress_lossless_profile", "4-6": "q_lossy_profile"}},
		{"mellanox, 7", spectrum, []int{7},
			map[string]string{"0-6": "q_lossy_profile", "7": "egress_lossless_profile"}},
		{"barefoot, 3", tofino, []int{3},
			map[string]string{"0-2": "q_lossy_profile", "3": "egress_lossless_profile", "4": "q_lossy_profile"}},
		{"barefoot, 2 and 6", tofino, []int{2, 6},
			map[string]string{"0-1": "q_lossy_profile", "2": "egress_lossless_profile", "3-5": "q_lossy_profile", "6": "egress_lossless_profile"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := canonical()
			d.Platform = tc.platform
			r := &renderer{d: d, db: config.DB{}, fam: familyOf(tc.platform)}
			b, err := r.bufferObjects(&d.Ports[0], bufferKey{speed: d.Ports[0].Speed, cable: "5m", xoff: 1, xon: 1, size: 1}, tc.lossless)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, q := range b.queues {
				got[q.rng] = q.profile
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("queue ranges (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOwnName: the names the renderer derives from a rendering's map
// names, and the ones it never gives.
func TestOwnName(t *testing.T) {
	doc, err := Render(twoLossless(&platform.Platform{Model: "SN4700", ASIC: "NVIDIA Spectrum-3"}))
	if err != nil {
		t.Fatal(err)
	}
	broadcom, err := Render(canonical())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		db          config.DB
		table, name string
		want        bool
	}{
		{doc.DB, "DSCP_TO_TC_MAP", "ROCE", true},
		{doc.DB, "TC_TO_QUEUE_MAP", "ROCE_2", true},
		{doc.DB, "DSCP_TO_TC_MAP", "AZURE", false},
		{doc.DB, "DSCP_TO_TC_MAP", "ROCEV2", false},
		{doc.DB, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "ROCE", true},
		{broadcom.DB, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "ROCE", false}, // not rendered on Broadcom
		{doc.DB, "DOT1P_TO_TC_MAP", "ROCE", false},                         // never rendered
		{doc.DB, "SCHEDULER", "ROCE_LOSSY", true},
		{doc.DB, "SCHEDULER", "ROCE_STRICT_5", true},
		{doc.DB, "SCHEDULER", "ROCE_2_LOSSLESS", true},
		{doc.DB, "SCHEDULER", "ROCE_BULK", false},
		{doc.DB, "SCHEDULER", "scheduler.0", false},
		{doc.DB, "SCHEDULER", "ROCE_LOSSY_100G", false}, // a speed only on WRED profiles
		{doc.DB, "WRED_PROFILE", "ROCE_LOSSLESS", true},
		{doc.DB, "WRED_PROFILE", "ROCE_LOSSLESS_3_400G", true},
		{doc.DB, "SCHEDULER", "ROCE_LOSSY_0_2", true},
		{doc.DB, "WRED_PROFILE", "ROCE_LOSSLESS_100G", true},
		{doc.DB, "WRED_PROFILE", "AZURE_LOSSLESS", false},
		{doc.DB, "BUFFER_PROFILE", "pg_lossless_100000_5m_profile", true},
		{doc.DB, "BUFFER_PROFILE", "pg_lossless_400000_300m_profile", true},
		{doc.DB, "BUFFER_PROFILE", "ingress_lossy_profile", false},
		{doc.DB, "BUFFER_PROFILE", "q_lossy_profile", false},
	} {
		if got := OwnName(tc.db, tc.table, tc.name); got != tc.want {
			t.Errorf("OwnName(%s, %q) = %v, want %v", tc.table, tc.name, got, tc.want)
		}
	}
}
