package sonic

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/sonicyang"
	"github.com/lossless-net/lossless/internal/sonicyang/yangtest"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/renderers"
)

// canonical is the reference intent of sonic.md §4–§5: RoCE DSCP 24, 26 →
// TC 3 lossless, CNP DSCP 48 → TC 6 strict, the rest → TC 0; DWRR 14/15;
// ECN 150 KB / 3000 KB at 5 %; watchdog 200/200/200 ms drop; Ethernet0 and
// Ethernet4 at 100G with 5 m cables and the SKU's headroom.
func canonical() *intent.Device {
	q := &intent.QoS{
		Profile: "roce",
		Trust:   "dscp",
		Classes: []intent.Class{
			{Name: "bulk", ID: 0, Default: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 14}},
			{Name: "rdma", ID: 3, DSCP: []int{24, 26}, Lossless: true,
				Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 15},
				ECN: &intent.ECN{
					Min:            intent.Threshold{Bytes: 150 * units.KB},
					Max:            intent.Threshold{Bytes: 3000 * units.KB},
					MaxProbability: 5,
				}},
			{Name: "cnp", ID: 6, DSCP: []int{48}, CNP: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}},
		},
		PFC: intent.PFC{Watchdog: &intent.Watchdog{
			Detection: 200 * time.Millisecond, Restoration: 200 * time.Millisecond, Polling: 200 * time.Millisecond, Action: "drop",
		}},
	}
	d := &intent.Device{Name: "sonic1", Vendor: Vendor, QoS: q,
		Buffers: &intent.Buffers{Profile: "default", Headroom: intent.HeadroomPolicy{Xoff: 165568, Xon: 2288}}}
	for _, n := range []string{"Ethernet0", "Ethernet4"} {
		d.Ports = append(d.Ports, intent.Port{Name: n, Speed: 100 * units.Gbps, Cable: 5 * units.Metre, QoS: q,
			Headroom: []intent.Headroom{{Priority: 3, Xoff: 165568, Xon: 2288, Size: 1248}}})
	}
	return d
}

// notOwned are the parts of the reference CONFIG_DB that lossless leaves
// to the switch (see the package comment).
var notOwned = map[string][]string{
	"PORT":           nil, // whole table
	"BUFFER_POOL":    nil,
	"BUFFER_PROFILE": {"egress_lossless_profile", "egress_lossy_profile", "ingress_lossy_profile"},
}

func readDB(t *testing.T, path string) (config.DB, []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var db config.DB
	if err := json.Unmarshal(b, &db); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return db, b
}

// TestTextPrintsLikeReference prints the reference CONFIG_DB (testdata:
// sonic.md §5 copied verbatim) and gets the same bytes back: the printer
// is the config_db.json form of §5.
func TestTextPrintsLikeReference(t *testing.T) {
	db, want := readDB(t, "testdata/reference.json")
	if diff := cmp.Diff(string(want), string(Text(db))); diff != "" {
		t.Errorf("Text differs from sonic.md §5 (-want +got):\n%s", diff)
	}
}

// referenceNames gives d's classes the scheduler and WRED profile names of
// sonic.md §4 (ROCE_LOSSY, ROCE_LOSSLESS, ROCE_CNP). The renderer's
// defaults are <MAP>_<KIND>_<queue> since issue 13 (a default depends on
// its class alone), so the reference's names are given explicitly.
func referenceNames(d *intent.Device) *intent.Device {
	d.QoS.Classes[0].Names.Scheduler = "ROCE_LOSSY"
	d.QoS.Classes[1].Names = intent.ClassNames{Scheduler: "ROCE_LOSSLESS", DropProfile: "ROCE_LOSSLESS"}
	return d
}

// TestCanonical renders the reference intent: with the reference's names
// it must equal the tables of sonic.md §5 that lossless owns, byte for
// byte; with the default names, golden/canonical.
func TestCanonical(t *testing.T) {
	ref, _ := readDB(t, "testdata/reference.json")
	for table, keys := range notOwned {
		if keys == nil {
			delete(ref, table)
		}
		for _, k := range keys {
			delete(ref[table], k)
		}
	}
	doc, err := Render(referenceNames(canonical()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(Text(ref)), string(doc.Text)); diff != "" {
		t.Errorf("rendering differs from the owned tables of sonic.md §5 (-want +got):\n%s", diff)
	}
	if len(config.Messages(doc.Warnings)) != 0 {
		t.Errorf("unexpected warnings %q", config.Messages(doc.Warnings))
	}
	if doc, err = Render(canonical()); err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../../golden/canonical/want/sonic1.json")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(golden), string(doc.Text)); diff != "" {
		t.Errorf("rendering differs from golden/canonical/want/sonic1.json (-want +got):\n%s", diff)
	}
	if len(doc.Disruptive) == 0 || !strings.HasPrefix(doc.Disruptive[0], "BUFFER_PROFILE|pg_lossless_100000_5m_profile") {
		t.Errorf("Disruptive = %q, want the lossless PG profile first", doc.Disruptive)
	}
}

// platformRows returns the switch's rows a rendering refers to: the SKU
// pools and template profiles of sonic.md §5, and a PORT row per rendered
// port (§5's rows where it has them).
func platformRows(t *testing.T, db config.DB) config.DB {
	t.Helper()
	base, _ := readDB(t, filepath.Join("testdata", "platform.json"))
	for _, f := range db["BUFFER_QUEUE"] {
		if f["profile"] == qLossyProfile {
			// The Mellanox and Barefoot templates' lossy queue profile
			// (ACS-MSN2700 buffers_defaults_objects.j2, family.go).
			base["BUFFER_PROFILE"][qLossyProfile] = map[string]string{"pool": "egress_lossy_pool", "size": "0", "dynamic_th": "3"}
		}
	}
	for _, table := range []string{"PORT_QOS_MAP", "CABLE_LENGTH", "PFC_WD", "QUEUE", "BUFFER_PG", "BUFFER_QUEUE"} {
		for key, fields := range db[table] {
			names := []string{strings.Split(key, "|")[0]}
			if table == "CABLE_LENGTH" {
				names = names[:0]
				for p := range fields {
					names = append(names, p)
				}
			}
			for _, p := range names {
				if p == "global" || p == "GLOBAL" || p == "CPU" {
					continue
				}
				if _, ok := base["PORT"][p]; !ok {
					n := len(base["PORT"])
					base["PORT"][p] = map[string]string{"lanes": strconv.Itoa(100 + n), "speed": "100000"}
				}
			}
		}
	}
	return base
}

func merge(a, b config.DB) config.DB {
	out := config.DB{}
	for _, db := range []config.DB{a, b} {
		for t, keys := range db {
			if out[t] == nil {
				out[t] = map[string]map[string]string{}
			}
			for k, f := range keys {
				out[t][k] = f
			}
		}
	}
	return out
}

// goldenSONiC lists the SONiC renderings kept under golden/*/want.
func goldenSONiC(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../golden/*/want/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no SONiC golden files under golden/*/want")
	}
	return files
}

// TestGoldenYANG validates every SONiC golden rendering, with the switch's
// rows it refers to, with yanglint and in-process with ygot.
func TestGoldenYANG(t *testing.T) {
	dir := yangtest.SonicDir(t)
	yangtest.Yanglint(t)
	tmp := t.TempDir()
	for i, f := range goldenSONiC(t) {
		t.Run(f, func(t *testing.T) {
			db, _ := readDB(t, f)
			full := merge(platformRows(t, db), db)
			if err := sonicyang.Validate(full); err != nil {
				t.Errorf("ygot validation: %v", err)
			}
			if err := Validate(&config.Document{DB: db}); err != nil {
				t.Errorf("ygot validation of the rendering alone: %v", err)
			}
			// yanglint validates each data file on its own before merging,
			// so the switch's rows go into the same instance.
			inst, err := sonicyang.Instance(full)
			if err != nil {
				t.Fatal(err)
			}
			rf := filepath.Join(tmp, strconv.Itoa(i)+".json")
			if err := os.WriteFile(rf, inst, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := yangtest.Run(t.Context(), t, dir, rf); err != nil {
				t.Errorf("yanglint rejects %s: %v\n%s", f, err, out)
			}
		})
	}
}

// TestBrokenRenderingRejected breaks the canonical rendering the two ways
// the issue names (DSCP 64, WRED min > max): yanglint and the ygot
// validation must both reject each.
func TestBrokenRenderingRejected(t *testing.T) {
	dir := yangtest.SonicDir(t)
	yangtest.Yanglint(t)
	tmp := t.TempDir()
	for _, tc := range []struct {
		name, lint string
		edit       func(config.DB)
	}{
		{"DSCP 64", "Invalid DSCP", func(db config.DB) { db["DSCP_TO_TC_MAP"]["ROCE"]["64"] = "0" }},
		{"WRED min above max", "Green max threshold must be greater than or equal to min threshold", func(db config.DB) {
			w := db["WRED_PROFILE"]["ROCE_LOSSLESS_3"]
			w["green_min_threshold"], w["green_max_threshold"] = w["green_max_threshold"], w["green_min_threshold"]
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Render(canonical())
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(doc.DB)
			full := merge(platformRows(t, doc.DB), doc.DB)
			if err := sonicyang.Validate(full); err == nil {
				t.Error("ygot validation accepted the broken rendering")
			}
			inst, err := sonicyang.Instance(full)
			if err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(tmp, strings.ReplaceAll(tc.name, " ", "-")+".json")
			if err := os.WriteFile(f, inst, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := yangtest.Run(t.Context(), t, dir, f)
			if err == nil || !strings.Contains(out, tc.lint) {
				t.Errorf("yanglint = %v %q, want a rejection with %q", err, out, tc.lint)
			}
		})
	}
}

// TestYANGFormat checks the "yang" format (RenderYANG, which vendors/sonic
// registers with Validate as the Check): the instance of the rendering,
// which validates in-process.
func TestYANGFormat(t *testing.T) {
	doc, err := Render(canonical())
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(doc); err != nil {
		t.Errorf("Check rejects the canonical rendering: %v", err)
	}
	doc.DB["DSCP_TO_TC_MAP"]["ROCE"]["64"] = "0"
	if err := Validate(doc); err == nil {
		t.Error("Check accepts DSCP 64")
	}
	b, err := RenderYANG(canonical())
	if err != nil {
		t.Fatal(err)
	}
	var inst map[string]map[string]map[string][]map[string]any
	if err := json.Unmarshal(b, &inst); err != nil {
		t.Fatalf("yang format is not a sonic-yang instance: %v", err)
	}
	q := inst["sonic-queue:sonic-queue"]["sonic-queue:QUEUE"]["QUEUE_LIST"]
	if len(q) != 6 || q[1]["ifname"] != "Ethernet0" || q[1]["qindex"] != "3" || q[1]["wred_profile"] != "ROCE_LOSSLESS_3" {
		t.Errorf("QUEUE_LIST = %v", q)
	}
	s := inst["sonic-scheduler:sonic-scheduler"]["sonic-scheduler:SCHEDULER"]["SCHEDULER_LIST"]
	if s[1]["weight"] != float64(15) {
		t.Errorf("scheduler weight must be a JSON number (uint8), got %#v", s[1]["weight"])
	}
}

// TestConversions checks units and rounding.
func TestConversions(t *testing.T) {
	for _, tc := range []struct {
		name             string
		edit             func(*intent.Device)
		table, key, fld  string
		want, wantWarn   string
		wantAbsentTable  string
		wantAbsentKeyFld [2]string
	}{
		{name: "ECN thresholds in bytes", edit: func(d *intent.Device) { d.QoS.Classes[1].ECN.Max.Bytes = 2 * units.MB },
			table: "WRED_PROFILE", key: "ROCE_LOSSLESS_3", fld: "green_max_threshold", want: "2097152"},
		{name: "ECN threshold as time at port speed", edit: func(d *intent.Device) { d.QoS.Classes[1].ECN.Min = intent.Threshold{Time: 10 * time.Microsecond} },
			table: "WRED_PROFILE", key: "ROCE_LOSSLESS_3_100G", fld: "green_min_threshold", want: "125000"},
		{name: "speed in Mb/s in the profile name", edit: func(d *intent.Device) {
			for i := range d.Ports {
				d.Ports[i].Speed = 400 * units.Gbps
			}
		}, table: "BUFFER_PG", key: "Ethernet0|3", fld: "profile", want: "pg_lossless_400000_5m_profile"},
		{name: "cable rounded up to metres", edit: func(d *intent.Device) { d.Ports[0].Cable = 2500 },
			table: "CABLE_LENGTH", key: "AZURE", fld: "Ethernet0", want: "3m", wantWarn: "cable length of Ethernet0 2.5m rounded up to 3m"},
		{name: "watchdog ms rounded up", edit: func(d *intent.Device) { d.QoS.PFC.Watchdog.Detection = 250500 * time.Microsecond },
			table: "PFC_WD", key: "Ethernet0", fld: "detection_time", want: "251", wantWarn: "detection 250.5ms rounded up to 251ms"},
		{name: "notify-only is alert", edit: func(d *intent.Device) { d.QoS.PFC.Watchdog.Action = "notify-only" },
			table: "PFC_WD", key: "Ethernet4", fld: "action", want: "alert"},
		{name: "weight from bandwidth share", edit: func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 40}
		}, table: "SCHEDULER", key: "ROCE_LOSSY_0", fld: "weight", want: "40"},
		{name: "two lossless classes share a PG range", edit: func(d *intent.Device) {
			d.QoS.Classes = append(d.QoS.Classes[:2], intent.Class{Name: "rdma2", ID: 4, DSCP: []int{28}, Lossless: true,
				Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 15}}, d.QoS.Classes[2])
			for i := range d.Ports {
				d.Ports[i].Headroom = append(d.Ports[i].Headroom, intent.Headroom{Priority: 4, Xoff: 165568, Xon: 2288, Size: 1248})
			}
		}, table: "BUFFER_PG", key: "Ethernet4|3-4", fld: "profile", want: "pg_lossless_100000_5m_profile"},
		{name: "two lossless classes: pfc_enable", edit: func(d *intent.Device) {
			d.QoS.Classes = append(d.QoS.Classes[:2], intent.Class{Name: "rdma2", ID: 4, DSCP: []int{28}, Lossless: true,
				Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 15}}, d.QoS.Classes[2])
			for i := range d.Ports {
				d.Ports[i].Headroom = append(d.Ports[i].Headroom, intent.Headroom{Priority: 4, Xoff: 165568, Xon: 2288, Size: 1248})
			}
		}, table: "PORT_QOS_MAP", key: "Ethernet0", fld: "pfc_enable", want: "3,4"},
		{name: "lossy RoCE: no PFC", edit: func(d *intent.Device) { d.QoS.Classes[1].Lossless = false },
			table: "PORT_QOS_MAP", key: "Ethernet0", fld: "pfc_enable", want: "", wantAbsentTable: "BUFFER_PROFILE"},
		{name: "watchdog defaults as pfcwd start_default", edit: func(d *intent.Device) {
			d.QoS.PFC.Watchdog = &intent.Watchdog{}
		}, table: "PFC_WD", key: "Ethernet4", fld: "detection_time", want: "200"},
		{name: "watchdog default action drop", edit: func(d *intent.Device) {
			d.QoS.PFC.Watchdog = &intent.Watchdog{Detection: 300 * time.Millisecond}
		}, table: "PFC_WD", key: "Ethernet0", fld: "action", want: "drop"},
		{name: "watchdog default restoration", edit: func(d *intent.Device) {
			d.QoS.PFC.Watchdog = &intent.Watchdog{Detection: 300 * time.Millisecond}
		}, table: "PFC_WD", key: "Ethernet0", fld: "restoration_time", want: "200"},
		{name: "ECN weight 0 is SAI's default", edit: func(d *intent.Device) { w := 0; d.QoS.Classes[1].ECN.Weight = &w },
			table: "WRED_PROFILE", key: "ROCE_LOSSLESS_3", fld: "green_drop_probability", want: "5"},
		{name: "alpha as dynamic_th", edit: func(d *intent.Device) { a := -2; d.Buffers.Alpha = &a },
			table: "BUFFER_PROFILE", key: "pg_lossless_100000_5m_profile", fld: "dynamic_th", want: "-2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := canonical()
			tc.edit(d)
			doc, err := Render(d)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := doc.DB[tc.table][tc.key][tc.fld]
			if !ok || got != tc.want {
				t.Errorf("%s|%s %s = %q (present %v), want %q", tc.table, tc.key, tc.fld, got, ok, tc.want)
			}
			if tc.wantAbsentTable != "" {
				if _, ok := doc.DB[tc.wantAbsentTable]; ok {
					t.Errorf("table %s rendered, want none", tc.wantAbsentTable)
				}
			}
			switch {
			case tc.wantWarn == "" && len(config.Messages(doc.Warnings)) > 0:
				t.Errorf("unexpected warnings %q", config.Messages(doc.Warnings))
			case tc.wantWarn != "" && (len(config.Messages(doc.Warnings)) != 1 || !strings.Contains(config.Messages(doc.Warnings)[0], tc.wantWarn)):
				t.Errorf("warnings = %q, want one containing %q", config.Messages(doc.Warnings), tc.wantWarn)
			}
			if err := sonicyang.Validate(merge(platformRows(t, doc.DB), doc.DB)); err != nil {
				t.Errorf("rendering is not YANG-valid: %v", err)
			}
		})
	}
}

// TestUnsupported checks errors naming device, feature and reason.
func TestUnsupported(t *testing.T) {
	for _, tc := range []struct {
		name          string
		edit          func(*intent.Device)
		feature, hint string
	}{
		{"weight above 100", func(d *intent.Device) { d.QoS.Classes[1].Scheduling.Weight = 150 }, `DWRR weight of class "rdma"`, "1–100"},
		{"ECN weight", func(d *intent.Device) { w := 3; d.QoS.Classes[1].ECN.Weight = &w }, `ECN of class "rdma" weight`, "no averaging weight"},
		{"WRED above 32 bits", func(d *intent.Device) { d.QoS.Classes[1].ECN.Max.Bytes = 3 * units.GB }, `ECN of class "rdma"`, "32-bit"},
		{"ECN time without speed", func(d *intent.Device) {
			d.QoS.Classes[1].ECN.Max = intent.Threshold{Time: time.Millisecond}
			d.Ports[0].Speed = 0
		}, `ECN of class "rdma" max threshold 1ms`, "no speed"},
		{"yellow WRED above 32 bits", func(d *intent.Device) {
			d.QoS.Classes[1].ECN.Yellow = &intent.ColorWRED{Min: intent.Threshold{Bytes: units.MB}, Max: intent.Threshold{Bytes: 3 * units.GB}, MaxProbability: 5}
		}, `ECN of class "rdma" yellow WRED`, "32-bit"},
		// A time and a size are not compared by the intent (LL021 needs
		// one kind); at the port speed the red min is above the max.
		{"red WRED min above max at the port speed", func(d *intent.Device) {
			d.QoS.Classes[1].ECN.Red = &intent.ColorWRED{Min: intent.Threshold{Time: 100 * time.Microsecond}, Max: intent.Threshold{Bytes: units.MB}, MaxProbability: 5, Drop: true}
		}, `ECN of class "rdma" red WRED`, "max ≥ min"},
		{"red WRED time without speed", func(d *intent.Device) {
			d.QoS.Classes[1].ECN.Red = &intent.ColorWRED{Min: intent.Threshold{Time: time.Microsecond}, Max: intent.Threshold{Time: 2 * time.Microsecond}, MaxProbability: 5}
			d.Ports[0].Speed = 0
		}, `ECN of class "rdma" red WRED min threshold 1µs`, "no speed"},
		{"watchdog detection below 100ms", func(d *intent.Device) {
			d.QoS.PFC.Watchdog.Detection = 50 * time.Millisecond
			d.QoS.PFC.Watchdog.Polling = 0
		}, "PFC watchdog detection 50ms", "100–5000 ms"},
		{"watchdog polling above detection", func(d *intent.Device) { d.QoS.PFC.Watchdog.Polling = 300 * time.Millisecond },
			"PFC watchdog polling 300ms", "at least the polling interval"},
		{"watchdog errdisable", func(d *intent.Device) { d.QoS.PFC.Watchdog.Action = "errdisable" }, `PFC watchdog action "errdisable"`, "drop, forward and alert"},
		{"lossless port without cable", func(d *intent.Device) { d.Ports[1].Cable = 0 }, "cable length of port Ethernet4", "not 0m"},
		{"lossless port without headroom", func(d *intent.Device) { d.Ports[1].Headroom = nil }, "headroom of port Ethernet4", "no computed headroom"},
		{"per-priority headroom differs", func(d *intent.Device) {
			d.QoS.Classes[0].Lossless = true
			d.Ports[0].Headroom = append([]intent.Headroom{{Priority: 0, Xoff: 1000, Xon: 2288, Size: 1248}}, d.Ports[0].Headroom...)
		}, "headroom of port Ethernet0", "different headroom"},
		{"no default class", func(d *intent.Device) { d.QoS.Classes[0].Default = false }, `DSCP map of profile "roce"`, "all 64 DSCPs"},
		// trust = "cos" is rendered (TestFeatures); what SONiC cannot
		// take of it is refused.
		{"trust cos without a default CoS class", func(d *intent.Device) { d.QoS.Trust = "cos" }, `CoS map of profile "roce"`, "cos = \"default\""},
		{"cos beside DSCP trust", func(d *intent.Device) { d.QoS.Classes[1].CoS = []int{3} }, `cos of class "rdma"`, "no SONiC source"},
		{"a port trusting CoS on a DSCP device", func(d *intent.Device) {
			q := *d.QoS
			q.Trust = intent.TrustCoS
			d.Ports[1].QoS = &q
		}, `trust "cos" of profile "roce"`, "switch-wide"},
		{"trust other", func(d *intent.Device) { d.QoS.Trust = "exp" }, `trust "exp"`, "DOT1P_TO_TC_MAP"},
		{"shape without min_bandwidth", func(d *intent.Device) { d.QoS.Classes[0].Scheduling.Shape = 10 * units.Gbps }, `shape of class "bulk"`, "pir can't be configured without cir"},
		{"shape below min_bandwidth", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling.MinBandwidth = 50
			d.QoS.Classes[0].Scheduling.Shape = 10 * units.Gbps
		}, `shape of class "bulk"`, "pir ≥ cir"},
		{"min_bandwidth without a speed", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling.MinBandwidth = 10
			d.Ports[0].Speed = 0
		}, `min_bandwidth of class "bulk"`, "no speed"},
		{"one scheduler name for a min_bandwidth at two speeds", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling.MinBandwidth = 10
			d.QoS.Classes[0].Names.Scheduler = "BULK"
			d.Ports[1].Speed = 40 * units.Gbps
		}, `min_bandwidth of class "bulk"`, "different cir"},
		{"shape on a class without scheduling", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling = intent.Scheduling{MinBandwidth: 10}
		}, `min_bandwidth or shape of class "bulk"`, "WRR with weight 1"},
		{"bad profile name", func(d *intent.Device) { d.QoS.Profile = "ro ce" }, `DSCP_TO_TC_MAP name (names.classifier) "RO CE"`, "rename"},
		{"unknown option", func(d *intent.Device) { d.Options = map[string]string{"sonic.buffer_model": "dynamic"} }, `option "sonic.buffer_model"`, "knows only"},
		{"tc_to_pg_map other", func(d *intent.Device) { d.Options = map[string]string{OptionTCToPG: "azure"} }, `option "sonic.tc_to_pg_map"`, `neither "lossless" nor "template"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := canonical()
			tc.edit(d)
			_, err := Render(d)
			var ue *renderers.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("err = %v, want *renderers.UnsupportedError", err)
			}
			if ue.Device != "sonic1" || ue.Feature != tc.feature || !strings.Contains(ue.Reason, tc.hint) {
				t.Errorf("got device %q feature %q reason %q; want sonic1, %q, reason containing %q", ue.Device, ue.Feature, ue.Reason, tc.feature, tc.hint)
			}
		})
	}
}

// TestPerPortOverride: a port with its own ECN under the same profile gets
// its own maps and WRED profile, and the rendering stays YANG-valid.
func TestPerPortOverride(t *testing.T) {
	d := canonical()
	q := *d.QoS
	q.Classes = append([]intent.Class(nil), q.Classes...)
	e := *q.Classes[1].ECN
	e.MaxProbability = 50
	q.Classes[1].ECN = &e
	d.Ports[1].QoS = &q
	doc, err := Render(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.DB["QUEUE"]["Ethernet4|3"]["wred_profile"]; got != "ROCE_2_LOSSLESS_3" {
		t.Errorf("Ethernet4 queue 3 WRED = %q, want ROCE_2_LOSSLESS_3", got)
	}
	if got := doc.DB["WRED_PROFILE"]["ROCE_2_LOSSLESS_3"]["green_drop_probability"]; got != "50" {
		t.Errorf("override probability = %q", got)
	}
	if got := doc.DB["PORT_QOS_MAP"]["global"]["dscp_to_tc_map"]; got != "ROCE" {
		t.Errorf("global map = %q, want the device's ROCE", got)
	}
	if err := sonicyang.Validate(merge(platformRows(t, doc.DB), doc.DB)); err != nil {
		t.Errorf("not YANG-valid: %v", err)
	}
}

// TestDeterministic renders the same device many times in parallel and
// gets the same bytes.
func TestDeterministic(t *testing.T) {
	first, err := Render(canonical())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			doc, err := Render(canonical())
			if err != nil {
				t.Fatal(err)
			}
			if string(doc.Text) != string(first.Text) {
				t.Error("rendering differs between runs")
			}
		})
	}
}

func BenchmarkRender(b *testing.B) {
	d := canonical()
	for range b.N {
		if _, err := Render(d); err != nil {
			b.Fatal(err)
		}
	}
}

// bigDevice is the canonical device with 64 ports, the size of the
// benchmark fabric's devices.
func bigDevice() *intent.Device {
	d := canonical()
	p := d.Ports[0]
	d.Ports = nil
	for i := range 64 {
		p.Name = "Ethernet" + strconv.Itoa(4*i)
		d.Ports = append(d.Ports, p)
	}
	return d
}

func BenchmarkRender64Ports(b *testing.B) {
	d := bigDevice()
	b.ReportAllocs()
	for range b.N {
		if _, err := Render(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate64Ports(b *testing.B) {
	doc, err := Render(bigDevice())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		if err := Validate(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkText64Ports(b *testing.B) {
	doc, err := Render(bigDevice())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		Text(doc.DB)
	}
}
