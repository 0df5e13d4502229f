package sonic

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/units"
)

// TestFeatures: each intent feature beyond the core that SONiC renders,
// as the rows (or fields) of CONFIG_DB it takes, on the canonical
// device. want holds the rows a feature writes (a row's whole fields);
// gone the rows or fields it removes from the canonical rendering
// ("TABLE|key" for a row, "TABLE|key|field" for a field).
func TestFeatures(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(d *intent.Device)
		want map[string]map[string]map[string]string
		gone []string
	}{
		{
			// SONiC's template: pfc_enable "2,3,4,6", pfcwd_sw_enable
			// "3,4" (reference Errata).
			name: "watchdog on some priorities",
			edit: func(d *intent.Device) {
				d.QoS.Classes[0].Lossless = true
				d.QoS.PFC.Watchdog.Priorities = 1 << 3
				for i := range d.Ports {
					d.Ports[i].Headroom = append([]intent.Headroom{{Priority: 0, Xoff: 165568, Xon: 2288, Size: 1248}}, d.Ports[i].Headroom...)
				}
			},
			want: map[string]map[string]map[string]string{"PORT_QOS_MAP": {
				"Ethernet0": {"dscp_to_tc_map": "ROCE", "tc_to_queue_map": "ROCE", "tc_to_pg_map": "ROCE", "pfc_to_queue_map": "ROCE", "pfc_enable": "0,3", "pfcwd_sw_enable": "3"},
			}},
		},
		{
			name: "ECN with the default probability",
			edit: func(d *intent.Device) {
				d.QoS.Classes[1].ECN.MaxProbability, d.QoS.Classes[1].ECN.DefaultProbability = 0, true
			},
			want: map[string]map[string]map[string]string{"WRED_PROFILE": {
				"ROCE_LOSSLESS_3": {"ecn": "ecn_green", "wred_green_enable": "true", "green_min_threshold": "153600", "green_max_threshold": "3072000"},
			}},
		},
		{
			name: "ECN with probability 0",
			edit: func(d *intent.Device) { d.QoS.Classes[1].ECN.MaxProbability = 0 },
			want: map[string]map[string]map[string]string{"WRED_PROFILE": {
				"ROCE_LOSSLESS_3": {"ecn": "ecn_green", "wred_green_enable": "true", "green_min_threshold": "153600", "green_max_threshold": "3072000", "green_drop_probability": "0"},
			}},
		},
		{
			// qos_config.j2's AZURE TC→PG map: TC 7 in PG 7 beside the
			// lossless TCs; the default is PG 0.
			name: "option tc_to_pg_map template",
			edit: func(d *intent.Device) { d.Options = map[string]string{OptionTCToPG: TCToPGTemplate} },
			want: map[string]map[string]map[string]string{"TC_TO_PRIORITY_GROUP_MAP": {
				"ROCE": {"0": "0", "1": "0", "2": "0", "3": "3", "4": "0", "5": "0", "6": "0", "7": "7"},
			}},
		},
		{
			// SONiC's own AZURE_LOSSLESS (qos_config.j2): WRED on every
			// colour, each marked (ecn_all), thresholds in bytes.
			name: "yellow and red marked",
			edit: func(d *intent.Device) {
				d.QoS.Classes[1].ECN.Yellow = &intent.ColorWRED{Min: intent.Threshold{Bytes: 1048576}, Max: intent.Threshold{Bytes: 2097152}, MaxProbability: 5}
				d.QoS.Classes[1].ECN.Red = &intent.ColorWRED{Min: intent.Threshold{Bytes: 1048576}, Max: intent.Threshold{Bytes: 2097152}, MaxProbability: 5}
			},
			want: map[string]map[string]map[string]string{"WRED_PROFILE": {
				"ROCE_LOSSLESS_3": {"ecn": "ecn_all", "wred_green_enable": "true", "green_min_threshold": "153600", "green_max_threshold": "3072000", "green_drop_probability": "5",
					"wred_yellow_enable": "true", "yellow_min_threshold": "1048576", "yellow_max_threshold": "2097152", "yellow_drop_probability": "5",
					"wred_red_enable": "true", "red_min_threshold": "1048576", "red_max_threshold": "2097152", "red_drop_probability": "5"},
			}},
		},
		{
			// drop = true: WRED on red, red out of the ecn mode.
			name: "yellow marked, red dropped",
			edit: func(d *intent.Device) {
				d.QoS.Classes[1].ECN.Yellow = &intent.ColorWRED{Min: intent.Threshold{Bytes: 100 * units.KB}, Max: intent.Threshold{Bytes: 2 * units.MB}, MaxProbability: 10}
				d.QoS.Classes[1].ECN.Red = &intent.ColorWRED{Min: intent.Threshold{Bytes: 50 * units.KB}, Max: intent.Threshold{Bytes: 1 * units.MB}, MaxProbability: 100, Drop: true}
			},
			want: map[string]map[string]map[string]string{"WRED_PROFILE": {
				"ROCE_LOSSLESS_3": {"ecn": "ecn_green_yellow", "wred_green_enable": "true", "green_min_threshold": "153600", "green_max_threshold": "3072000", "green_drop_probability": "5",
					"wred_yellow_enable": "true", "yellow_min_threshold": "102400", "yellow_max_threshold": "2097152", "yellow_drop_probability": "10",
					"wred_red_enable": "true", "red_min_threshold": "51200", "red_max_threshold": "1048576", "red_drop_probability": "100"},
			}},
		},
		{
			name: "red marked, no yellow",
			edit: func(d *intent.Device) {
				d.QoS.Classes[1].ECN.Red = &intent.ColorWRED{Min: intent.Threshold{Bytes: 50 * units.KB}, Max: intent.Threshold{Bytes: 1 * units.MB}, MaxProbability: 0}
			},
			want: map[string]map[string]map[string]string{"WRED_PROFILE": {
				"ROCE_LOSSLESS_3": {"ecn": "ecn_green_red", "wred_green_enable": "true", "green_min_threshold": "153600", "green_max_threshold": "3072000", "green_drop_probability": "5",
					"wred_red_enable": "true", "red_min_threshold": "51200", "red_max_threshold": "1048576", "red_drop_probability": "0"},
			}},
		},
		{
			// A colour's time thresholds convert at the port speed, as
			// green's: 10 µs and 20 µs at 100G are 125000 and 250000
			// bytes, and the profile is one per speed.
			name: "yellow dropped, in time",
			edit: func(d *intent.Device) {
				d.QoS.Classes[1].ECN.Yellow = &intent.ColorWRED{Min: intent.Threshold{Time: 10 * time.Microsecond}, Max: intent.Threshold{Time: 20 * time.Microsecond}, MaxProbability: 20, Drop: true}
			},
			want: map[string]map[string]map[string]string{
				"WRED_PROFILE": {"ROCE_LOSSLESS_3_100G": {"ecn": "ecn_green", "wred_green_enable": "true", "green_min_threshold": "153600", "green_max_threshold": "3072000", "green_drop_probability": "5",
					"wred_yellow_enable": "true", "yellow_min_threshold": "125000", "yellow_max_threshold": "250000", "yellow_drop_probability": "20"}},
				"QUEUE": {"Ethernet0|3": {"scheduler": "ROCE_LOSSLESS_3", "wred_profile": "ROCE_LOSSLESS_3_100G"}},
			},
			gone: []string{"WRED_PROFILE|ROCE_LOSSLESS_3"},
		},
		{
			// 10 % of 100G = 1.25 GB/s guaranteed; shape 40G = 5 GB/s.
			name: "min_bandwidth and shape",
			edit: func(d *intent.Device) {
				d.QoS.Classes[0].Scheduling.MinBandwidth = 10
				d.QoS.Classes[0].Scheduling.Shape = 40 * units.Gbps
			},
			want: map[string]map[string]map[string]string{
				"SCHEDULER": {"ROCE_LOSSY_0_100G": {"type": "DWRR", "weight": "14", "cir": "1250000000", "pir": "5000000000"}},
				"QUEUE":     {"Ethernet0|0": {"scheduler": "ROCE_LOSSY_0_100G"}},
			},
			gone: []string{"SCHEDULER|ROCE_LOSSY_0"},
		},
		{
			name: "min_bandwidth on a strict queue",
			edit: func(d *intent.Device) { d.QoS.Classes[2].Scheduling.MinBandwidth = 5 },
			want: map[string]map[string]map[string]string{
				"SCHEDULER": {"ROCE_CNP_100G": {"type": "STRICT", "cir": "625000000"}},
				"QUEUE":     {"Ethernet4|6": {"scheduler": "ROCE_CNP_100G"}},
			},
			gone: []string{"SCHEDULER|ROCE_CNP"},
		},
		{
			// qos_config.j2, storage back-end: DOT1P_TO_TC_MAP bound per
			// port by dot1p_to_tc_map, no DSCP map and no global binding.
			name: "trust cos",
			edit: func(d *intent.Device) {
				d.QoS.Trust = intent.TrustCoS
				for i := range d.QoS.Classes {
					d.QoS.Classes[i].DSCP, d.QoS.Classes[i].Default = nil, false
				}
				d.QoS.Classes[0].DefaultCoS = true
				d.QoS.Classes[1].CoS = []int{3}
				d.QoS.Classes[2].CoS = []int{6}
			},
			want: map[string]map[string]map[string]string{
				"DOT1P_TO_TC_MAP": {"ROCE": {"0": "0", "1": "0", "2": "0", "3": "3", "4": "0", "5": "0", "6": "6", "7": "0"}},
				"PORT_QOS_MAP": {
					"Ethernet0": {"dot1p_to_tc_map": "ROCE", "tc_to_queue_map": "ROCE", "tc_to_pg_map": "ROCE", "pfc_to_queue_map": "ROCE", "pfc_enable": "3", "pfcwd_sw_enable": "3"},
				},
			},
			gone: []string{"DSCP_TO_TC_MAP|ROCE", "PORT_QOS_MAP|global"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, err := Render(canonical())
			if err != nil {
				t.Fatal(err)
			}
			d := canonical()
			tc.edit(d)
			doc, err := Render(d)
			if err != nil {
				t.Fatal(err)
			}
			for tn, rows := range tc.want {
				for k, fields := range rows {
					if diff := cmp.Diff(fields, doc.DB[tn][k]); diff != "" {
						t.Errorf("%s|%s (-want +got):\n%s", tn, k, diff)
					}
				}
			}
			for _, g := range tc.gone {
				if present(doc.DB, g) {
					t.Errorf("%s is still rendered", g)
				}
				if !present(base.DB, g) {
					t.Errorf("%s is not in the canonical rendering: the test is wrong", g)
				}
			}
			if err := Validate(doc); err != nil {
				t.Errorf("the rendering does not validate: %v", err)
			}
		})
	}
}

// present reports whether db has "TABLE|key" (the key may hold |).
func present(db config.DB, id string) bool {
	for tn, rows := range db {
		for k := range rows {
			if tn+"|"+k == id {
				return true
			}
		}
	}
	return false
}
