package sonic

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/renderers"
)

// objectNames lists a rendering's named objects as "TABLE|name", and the
// names the referrer tables point at.
func objectNames(db config.DB) []string {
	var out []string
	for _, tn := range []string{"DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP", "MAP_PFC_PRIORITY_TO_QUEUE",
		"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "SCHEDULER", "WRED_PROFILE", "BUFFER_PROFILE"} {
		for name := range db[tn] {
			out = append(out, tn+"|"+name)
		}
	}
	slices.Sort(out)
	return out
}

// TestNamesRenameEveryObject gives every object of the canonical intent
// (golden/canonical, on a Spectrum switch so that the PFC priority → PG
// map is rendered too) a name of its own: the rendering uses each, as
// written, and none of the defaults.
func TestNamesRenameEveryObject(t *testing.T) {
	spectrum := &platform.Platform{Model: "SN4700", ASIC: "NVIDIA Spectrum-3"}
	for _, tc := range []struct {
		name  string
		names intent.Names
		class [3]intent.ClassNames
		want  map[string][]string // table → names
	}{
		{
			name:  "SONiC's own names",
			names: intent.Names{Classifier: "AZURE"},
			class: [3]intent.ClassNames{{Scheduler: "scheduler.0"}, {Scheduler: "scheduler.1", DropProfile: "AZURE_LOSSLESS"}, {Scheduler: "scheduler.2"}},
			want: map[string][]string{
				"DSCP_TO_TC_MAP": {"AZURE"}, "TC_TO_QUEUE_MAP": {"AZURE"}, "TC_TO_PRIORITY_GROUP_MAP": {"AZURE"},
				"MAP_PFC_PRIORITY_TO_QUEUE": {"AZURE"}, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": {"AZURE"},
				"SCHEDULER": {"scheduler.0", "scheduler.1", "scheduler.2"}, "WRED_PROFILE": {"AZURE_LOSSLESS"},
			},
		},
		{
			name:  "classifier and maps apart, case kept",
			names: intent.Names{Classifier: "Dscp-Classes", Maps: "rdmaMaps"},
			class: [3]intent.ClassNames{{Scheduler: "Bulk.sched"}, {Scheduler: "rdma:sched", DropProfile: "Rdma_Ecn"}, {Scheduler: "cnp"}},
			want: map[string][]string{
				"DSCP_TO_TC_MAP": {"Dscp-Classes"}, "TC_TO_QUEUE_MAP": {"rdmaMaps"}, "TC_TO_PRIORITY_GROUP_MAP": {"rdmaMaps"},
				"MAP_PFC_PRIORITY_TO_QUEUE": {"rdmaMaps"}, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": {"rdmaMaps"},
				"SCHEDULER": {"Bulk.sched", "cnp", "rdma:sched"}, "WRED_PROFILE": {"Rdma_Ecn"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := canonical()
			d.Platform = spectrum
			d.QoS.Names = tc.names
			for i := range d.QoS.Classes {
				d.QoS.Classes[i].Names = tc.class[i]
			}
			doc, err := Render(d)
			if err != nil {
				t.Fatal(err)
			}
			for tn, want := range tc.want {
				var got []string
				for n := range doc.DB[tn] {
					got = append(got, n)
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s names = %q, want %q", tn, got, want)
				}
			}
			if strings.Contains(string(doc.Text), `"ROCE`) {
				t.Errorf("a default name is left:\n%s", doc.Text)
			}
			m := doc.DB["PORT_QOS_MAP"]["Ethernet0"]
			wantMaps := tc.names.Maps
			if wantMaps == "" {
				wantMaps = tc.names.Classifier
			}
			if m["dscp_to_tc_map"] != tc.names.Classifier || m["tc_to_queue_map"] != wantMaps || m["tc_to_pg_map"] != wantMaps ||
				m["pfc_to_queue_map"] != wantMaps || m["pfc_to_pg_map"] != wantMaps {
				t.Errorf("PORT_QOS_MAP|Ethernet0 = %v", m)
			}
			if got := doc.DB["PORT_QOS_MAP"]["global"]["dscp_to_tc_map"]; got != tc.names.Classifier {
				t.Errorf("global dscp_to_tc_map = %q", got)
			}
			if q := doc.DB["QUEUE"]["Ethernet4|3"]; q["scheduler"] != tc.class[1].Scheduler || q["wred_profile"] != tc.class[1].DropProfile {
				t.Errorf("QUEUE|Ethernet4|3 = %v", q)
			}
		})
	}
}

// TestNamesAddClassRenamesNothing: adding a class to a profile adds its
// own objects and renames none of the others (issue 13's AZURE_LOSSY_0 →
// AZURE_LOSSY churn: a default depends on its class alone).
func TestNamesAddClassRenamesNothing(t *testing.T) {
	before, err := Render(canonical())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		class intent.Class
	}{
		{"a lossy class with another weight", intent.Class{Name: "video", ID: 1, DSCP: []int{34}, Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 40}}},
		{"a lossy class with the same weight", intent.Class{Name: "video", ID: 1, DSCP: []int{34}, Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 14}}},
		{"a lossy class with ECN", intent.Class{Name: "storage", ID: 2, DSCP: []int{10}, Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 20},
			ECN: &intent.ECN{Min: intent.Threshold{Bytes: 1000}, Max: intent.Threshold{Bytes: 2000}, MaxProbability: 10}}},
		{"a strict class", intent.Class{Name: "control", ID: 7, DSCP: []int{56}, Scheduling: intent.Scheduling{Mode: intent.SchedulingStrict}}},
		{"a second lossless class with other ECN", intent.Class{Name: "rdma2", ID: 4, DSCP: []int{28}, Lossless: true,
			Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 30},
			ECN:        &intent.ECN{Min: intent.Threshold{Bytes: 1000}, Max: intent.Threshold{Bytes: 2000}, MaxProbability: 10}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := canonical()
			d.QoS.Classes = append(d.QoS.Classes, tc.class)
			slices.SortFunc(d.QoS.Classes, func(a, b intent.Class) int { return a.ID - b.ID })
			if tc.class.Lossless {
				for i := range d.Ports {
					d.Ports[i].Headroom = append(d.Ports[i].Headroom, intent.Headroom{Priority: tc.class.ID, Xoff: 165568, Xon: 2288, Size: 1248})
				}
			}
			after, err := Render(d)
			if err != nil {
				t.Fatal(err)
			}
			got := objectNames(after.DB)
			for _, n := range objectNames(before.DB) {
				if !slices.Contains(got, n) {
					t.Errorf("%s is gone after adding class %q; objects now %q", n, tc.class.Name, got)
				}
			}
			for _, k := range []string{"Ethernet0|0", "Ethernet0|3", "Ethernet0|6"} {
				for _, f := range []string{"scheduler", "wred_profile"} {
					if b, a := before.DB["QUEUE"][k][f], after.DB["QUEUE"][k][f]; b != a {
						t.Errorf("QUEUE|%s %s = %q, was %q", k, f, a, b)
					}
				}
			}
		})
	}
}

// TestNamesRefused: an explicit name that would name two different
// objects, or that SONiC's YANG refuses, is a clear UnsupportedError.
func TestNamesRefused(t *testing.T) {
	override := func(d *intent.Device, edit func(q *intent.QoS)) {
		q := *d.QoS
		q.Classes = slices.Clone(q.Classes)
		edit(&q)
		d.Ports[1].QoS = &q
	}
	for _, tc := range []struct {
		name, feature, hint string
		edit                func(d *intent.Device)
	}{
		{"classifier names two DSCP maps", "DSCP_TO_TC_MAP AZURE of the per-port override of Ethernet4", "give the per-port override of Ethernet4 its own names.classifier",
			func(d *intent.Device) {
				d.QoS.Names.Classifier = "AZURE"
				override(d, func(q *intent.QoS) { q.Classes[1].DSCP = []int{26} })
			}},
		{"maps name two TC→PG maps", "TC_TO_PRIORITY_GROUP_MAP AZURE of the per-port override of Ethernet4", "its own names.maps",
			func(d *intent.Device) {
				d.QoS.Names.Classifier = "AZURE"
				override(d, func(q *intent.QoS) {
					q.Names.Classifier = "AZURE_2"
					q.Names.Maps = "AZURE"
					q.Classes[1].Lossless = false
				})
			}},
		{"scheduler names two schedulers", `SCHEDULER scheduler.0 of class "bulk" in the per-port override of Ethernet4`, "its own names.scheduler",
			func(d *intent.Device) {
				d.QoS.Classes[0].Names.Scheduler = "scheduler.0"
				override(d, func(q *intent.QoS) { q.Classes[0].Scheduling.Weight = 50 })
			}},
		{"drop profile with a dot", `WRED profile name (names.drop_profile of class "rdma") "AZURE.LOSSLESS"`, "[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}",
			func(d *intent.Device) { d.QoS.Classes[1].Names.DropProfile = "AZURE.LOSSLESS" }},
		{"classifier longer than 32", `DSCP_TO_TC_MAP name (names.classifier) "` + strings.Repeat("A", 33) + `"`, "sonic-yang",
			func(d *intent.Device) { d.QoS.Names.Classifier = strings.Repeat("A", 33) }},
		{"maps with a colon", `map name (names.maps) "a:b"`, "sonic-yang",
			func(d *intent.Device) { d.QoS.Names.Maps = "a:b" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := canonical()
			tc.edit(d)
			_, err := Render(d)
			var ue *renderers.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("err = %v, want *renderers.UnsupportedError", err)
			}
			if ue.Feature != tc.feature || !strings.Contains(ue.Reason, tc.hint) {
				t.Errorf("feature %q reason %q; want %q, reason containing %q", ue.Feature, ue.Reason, tc.feature, tc.hint)
			}
		})
	}
}

// TestNamesDefaultsSuffixed: two per-port variants that share an explicit
// classifier but differ in a scheduler get the default scheduler name
// and its _2 variant, never an explicit name suffixed.
func TestNamesDefaultsSuffixed(t *testing.T) {
	d := canonical()
	d.QoS.Names.Classifier = "AZURE"
	q := *d.QoS
	q.Classes = slices.Clone(q.Classes)
	q.Classes[0].Scheduling.Weight = 50
	d.Ports[1].QoS = &q
	doc, err := Render(d)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := doc.DB["QUEUE"]["Ethernet0|0"]["scheduler"], doc.DB["QUEUE"]["Ethernet4|0"]["scheduler"]; a != "AZURE_LOSSY_0" || b != "AZURE_LOSSY_0_2" {
		t.Errorf("schedulers of queue 0 = %q, %q; want AZURE_LOSSY_0, AZURE_LOSSY_0_2", a, b)
	}
	if !OwnName(doc.DB, "SCHEDULER", "AZURE_LOSSY_0_2") {
		t.Error("OwnName does not know the suffixed default")
	}
}
