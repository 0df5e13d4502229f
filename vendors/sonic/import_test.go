package sonic_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all"
	"github.com/lossless-net/lossless/vendors/sonic"
)

// goldenDevice is one SONiC device of a golden scenario.
type goldenDevice struct {
	scenario string
	dev      *intent.Device
	inv      *inventory.Device
}

// goldenDevices loads every golden scenario as the CLI does and returns
// its SONiC devices.
func goldenDevices(t *testing.T) []goldenDevice {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "..", "golden", "*", "intent.hcl"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden scenarios: %v", err)
	}
	var out []goldenDevice
	for _, f := range dirs {
		dir := filepath.Dir(f)
		res, diags := load.Fabric(dir, load.Options{})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", dir, diags)
		}
		for _, d := range res.Devices {
			if d.Vendor != sonic.Vendor {
				continue
			}
			var inv *inventory.Device
			for _, id := range res.Inventory.Devices {
				if id.Name == d.Name {
					inv = id
				}
			}
			out = append(out, goldenDevice{filepath.Base(dir), d, inv})
		}
	}
	if len(out) == 0 {
		t.Fatal("no SONiC device in the golden scenarios")
	}
	return out
}

// withImported returns a copy of d with the imported QoS, per-port QoS,
// buffer settings and options, keeping d's ports, their headroom and the
// platform.
func withImported(t *testing.T, d *intent.Device, im *vendors.Imported) *intent.Device {
	t.Helper()
	c := *d
	c.QoS, c.Options = im.QoS, im.Options
	b := *d.Buffers
	b.Alpha = nil
	if im.Buffers != nil {
		b.Alpha = im.Buffers.Alpha
	}
	c.Buffers = &b
	c.Ports = slices.Clone(d.Ports)
	var names, want []string
	for _, p := range im.Ports {
		names = append(names, p.Name)
	}
	for i := range c.Ports {
		p := &c.Ports[i]
		want = append(want, p.Name)
		p.QoS = im.QoS
		for _, ip := range im.Ports {
			if ip.Name == p.Name && ip.QoS != nil {
				p.QoS = ip.QoS
			}
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("imported ports %q, want the device's %q", names, want)
	}
	return &c
}

// TestImportRoundTrip: every SONiC device of every golden scenario,
// rendered, imported and rendered again with the imported QoS gives the
// same bytes, no difference to plan, and nothing unexpressed; and the
// lab's realistic seed of each (stale values, an extra class, another
// team's port, config outside the scope), imported and rendered, plans to
// no change.
func TestImportRoundTrip(t *testing.T) {
	for _, g := range goldenDevices(t) {
		t.Run(g.scenario+"/"+g.dev.Name, func(t *testing.T) {
			doc, err := render.Render(g.dev)
			if err != nil {
				t.Fatal(err)
			}
			im, err := sonic.Import(g.inv, doc.Text)
			if err != nil {
				t.Fatal(err)
			}
			if len(im.Unexpressed) != 0 {
				t.Errorf("unexpressed in lossless' own rendering: %+v", im.Unexpressed)
			}
			again, err := render.Render(withImported(t, g.dev, im))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(doc.Text), string(again.Text)); diff != "" {
				t.Errorf("re-rendering differs (-rendered +re-rendered):\n%s", diff)
			}
			ch, err := sonic.Diff(g.dev.Name, doc.Text, again)
			if err != nil {
				t.Fatal(err)
			}
			if !ch.Empty() {
				t.Errorf("plan of the import is not empty:\n%s", ch.Diff)
			}

			seed := sonic.LabSeed(doc.Text)
			running, err := sonic.Saved(seed)
			if err != nil {
				t.Fatal(err)
			}
			im, err = sonic.Import(g.inv, running)
			if err != nil {
				t.Fatal(err)
			}
			seeded, err := render.Render(withImported(t, g.dev, im))
			if err != nil {
				t.Fatal(err)
			}
			if ch, err = sonic.Diff(g.dev.Name, seed, seeded); err != nil {
				t.Fatal(err)
			}
			if !ch.Empty() {
				t.Errorf("plan of the lab seed's import is not empty (unexpressed %+v):\n%s", im.Unexpressed, ch.Diff)
			}
		})
	}
}

// TestSavedRefuses: files that are not a config_db.json are refused.
func TestSavedRefuses(t *testing.T) {
	for _, tc := range []struct{ name, file string }{
		{"show running-config text", "hostname leaf1\ninterface Ethernet1/1\n"},
		{"a JSON array", `[{"PORT": {}}]`},
		{"no CONFIG_DB table", `{"foo": {"bar": {"baz": "1"}}}`},
		{"a table that is not an object", `{"PORT": "Ethernet0"}`},
		{"truncated", `{"PORT": {"Ethernet0": {"speed": "100000"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if b, err := sonic.Saved([]byte(tc.file)); err == nil {
				t.Errorf("Saved accepted it: %s", b)
			}
		})
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "golden", "canonical", "want", "sonic1.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := sonic.Saved(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(b) {
		t.Errorf("Saved of a rendering is not the rendering:\n%s", got)
	}
}

// FuzzImport: Import and Saved never panic, whatever the input; seeds are
// the golden renderings, their lab seeds and the real-world fixtures.
func FuzzImport(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "golden", "*", "want", "*.json"))
	fixtures, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "realworld", "sonic", "*", "config_db.json"))
	for _, p := range append(files, fixtures...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(sonic.LabSeed(b))
	}
	f.Add([]byte(`{"PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "X", "pfc_enable": "3,9"}}, "QUEUE": {"Ethernet0|3-4": {"scheduler": "s"}}}`))
	inv := &inventory.Device{Name: "sonic1", Vendor: sonic.Vendor}
	f.Fuzz(func(t *testing.T, b []byte) {
		if running, err := sonic.Saved(b); err == nil {
			b = running
		}
		im, err := sonic.Import(inv, b)
		if err == nil && im == nil {
			t.Fatal("Import returned neither a result nor an error")
		}
	})
}

// TestImportUnexpressed: what the intent cannot say in lossless' own
// rendering, edited as operators and SONiC's tools edit CONFIG_DB, is
// listed with its line and a reason, never dropped.
func TestImportUnexpressed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "golden", "canonical", "want", "sonic1.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text, reason string
		edit               func(db config.DB)
	}{
		{"a shaper", `SCHEDULER|ROCE_LOSSY_0 "pir": "1000000"`, "shaping", func(db config.DB) { db["SCHEDULER"]["ROCE_LOSSY_0"]["pir"] = "1000000" }},
		{"WRR", `SCHEDULER|ROCE_LOSSY_0 "type": "WRR"`, "DWRR", func(db config.DB) { db["SCHEDULER"]["ROCE_LOSSY_0"]["type"] = "WRR" }},
		// WRED colours are read (TestImportFeatures); what the intent's
		// yellow and red blocks cannot say stays unexpressed.
		{"ECN on colours whose WRED is off", `WRED_PROFILE|ROCE_LOSSLESS_3 "ecn": "ecn_all"`, "WRED is off for yellow", func(db config.DB) { db["WRED_PROFILE"]["ROCE_LOSSLESS_3"]["ecn"] = "ecn_all" }},
		{"a yellow threshold with yellow WRED off", `WRED_PROFILE|ROCE_LOSSLESS_3 "yellow_max_threshold": "9"`, "WRED is off for yellow", func(db config.DB) {
			db["WRED_PROFILE"]["ROCE_LOSSLESS_3"]["yellow_min_threshold"] = "9"
			db["WRED_PROFILE"]["ROCE_LOSSLESS_3"]["yellow_max_threshold"] = "9"
		}},
		{"ECN not on green", `WRED_PROFILE|ROCE_LOSSLESS_3 "ecn": "ecn_yellow"`, "green always", func(db config.DB) {
			w := db["WRED_PROFILE"]["ROCE_LOSSLESS_3"]
			w["ecn"], w["wred_yellow_enable"], w["yellow_min_threshold"], w["yellow_max_threshold"], w["yellow_drop_probability"] = "ecn_yellow", "true", "1", "2", "5"
		}},
		{"red WRED without its probability", `WRED_PROFILE|ROCE_LOSSLESS_3`, "no red_drop_probability", func(db config.DB) {
			w := db["WRED_PROFILE"]["ROCE_LOSSLESS_3"]
			w["wred_red_enable"], w["red_min_threshold"], w["red_max_threshold"] = "true", "1", "2"
		}},
		{"a watchdog on a subset", `PORT_QOS_MAP|Ethernet4 "pfcwd_sw_enable": ""`, "subset", func(db config.DB) { db["PORT_QOS_MAP"]["Ethernet4"]["pfcwd_sw_enable"] = "" }},
		{"CoS trust", `PORT_QOS_MAP|Ethernet0 "dot1p_to_tc_map": "AZURE"`, "CoS trust", func(db config.DB) { db["PORT_QOS_MAP"]["Ethernet0"]["dot1p_to_tc_map"] = "AZURE" }},
		{"a queue range", `QUEUE|Ethernet0|1-2`, "one by one", func(db config.DB) { db["QUEUE"]["Ethernet0|1-2"] = map[string]string{"scheduler": "ROCE_LOSSY_0"} }},
		{"TC→queue not the identity", `TC_TO_QUEUE_MAP|ROCE "6": "5"`, "identity", func(db config.DB) { db["TC_TO_QUEUE_MAP"]["ROCE"]["6"] = "5" }},
		// TC 7 in PG 7 is option sonic.tc_to_pg_map (TestImportTCToPG).
		{"a lossy TC with its own PG", `TC_TO_PRIORITY_GROUP_MAP|ROCE "6": "6"`, "PG 0", func(db config.DB) { db["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"]["6"] = "6" }},
		{"a DSCP left out", `DSCP_TO_TC_MAP|ROCE`, "63 of the 64", func(db config.DB) { delete(db["DSCP_TO_TC_MAP"]["ROCE"], "63") }},
		{"xon_offset apart from xon", `BUFFER_PROFILE|pg_lossless_100000_5m_profile "xon_offset": "4608"`, "xon offset", func(db config.DB) {
			db["BUFFER_PROFILE"]["pg_lossless_100000_5m_profile"]["xon_offset"] = "4608"
		}},
		{"statistics history on", `PFC_WD|Ethernet0 "pfc_stat_history": "enable"`, "history", func(db config.DB) { db["PFC_WD"]["Ethernet0"]["pfc_stat_history"] = "enable" }},
		// The speed of a port without lossless PG comes from the
		// inventory only: Import(nil, …) has none.
		{"a guaranteed rate on a port of unknown speed", `SCHEDULER|ROCE_LOSSY_0 "cir": "1250000000"`, "speed is unknown", func(db config.DB) {
			db["SCHEDULER"]["ROCE_LOSSY_0"]["cir"] = "1250000000"
			for _, p := range []string{"Ethernet0", "Ethernet4"} {
				for k := range db["BUFFER_PG"] {
					if strings.HasPrefix(k, p+"|") {
						delete(db["BUFFER_PG"], k)
					}
				}
			}
		}},
		{"a guaranteed rate not a whole percent", `SCHEDULER|ROCE_LOSSY_0 "cir": "1250000001"`, "whole percent", func(db config.DB) { db["SCHEDULER"]["ROCE_LOSSY_0"]["cir"] = "1250000001" }},
		{"a burst size", `SCHEDULER|ROCE_LOSSY_0 "cbs": "8192"`, "burst", func(db config.DB) {
			db["SCHEDULER"]["ROCE_LOSSY_0"]["cir"] = "1250000000"
			db["SCHEDULER"]["ROCE_LOSSY_0"]["cbs"] = "8192"
		}},
		{"packet rates", `SCHEDULER|ROCE_LOSSY_0 "meter_type": "packets"`, "packet rates", func(db config.DB) { db["SCHEDULER"]["ROCE_LOSSY_0"]["meter_type"] = "packets" }},
		{"a watchdog on a priority without PFC", `PORT_QOS_MAP|Ethernet4 "pfcwd_sw_enable": "3,4"`, "not in pfc_enable", func(db config.DB) { db["PORT_QOS_MAP"]["Ethernet4"]["pfcwd_sw_enable"] = "3,4" }},
		{"a CoS map not listing every priority", `DOT1P_TO_TC_MAP|ROCE`, "7 of the eight", func(db config.DB) {
			db["DOT1P_TO_TC_MAP"] = map[string]map[string]string{"ROCE": {"0": "0", "1": "0", "2": "0", "3": "3", "4": "0", "5": "0", "6": "6"}}
			for _, p := range []string{"Ethernet0", "Ethernet4"} {
				delete(db["PORT_QOS_MAP"][p], "dscp_to_tc_map")
				db["PORT_QOS_MAP"][p]["dot1p_to_tc_map"] = "ROCE"
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := sonic.ParseRunning(b)
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(db)
			running := render.Text(db)
			im, err := sonic.Import(nil, running)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(running), "\n")
			for _, u := range im.Unexpressed {
				if u.Text != tc.text {
					continue
				}
				if !strings.Contains(u.Reason, tc.reason) {
					t.Errorf("reason %q, want it to say %q", u.Reason, tc.reason)
				}
				if u.Line < 1 || u.Line > len(lines) {
					t.Fatalf("line %d is not in the config", u.Line)
				}
				key := tc.text
				if i := strings.IndexAny(key, " "); i > 0 {
					key = key[i+1:]
					key, _, _ = strings.Cut(key, ":")
				} else {
					_, key, _ = strings.Cut(key, "|")
				}
				if !strings.Contains(lines[u.Line-1], key) {
					t.Errorf("line %d is %q, want the line of %s", u.Line, lines[u.Line-1], key)
				}
				return
			}
			t.Errorf("no unexpressed %q; have %+v", tc.text, im.Unexpressed)
		})
	}
}

// TestImportFeatures: the features of golden/features-sonic come back
// from their renderings as the intent says them.
func TestImportFeatures(t *testing.T) {
	invs := map[string]*inventory.Device{}
	for _, g := range goldenDevices(t) {
		if g.scenario == "features-sonic" {
			invs[g.dev.Name+".json"] = g.inv
		}
	}
	read := func(name string) *vendors.Imported {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("..", "..", "golden", "features-sonic", "want", name))
		if err != nil {
			t.Fatal(err)
		}
		im, err := sonic.Import(invs[name], b)
		if err != nil {
			t.Fatal(err)
		}
		if len(im.Unexpressed) != 0 {
			t.Errorf("%s: unexpressed %+v", name, im.Unexpressed)
		}
		return im
	}
	q := read("sonic1.json").QoS
	if w := q.PFC.Watchdog; w == nil || w.Priorities != 1<<3 || w.Action != "notify-only" {
		t.Errorf("watchdog %+v, want priorities [3], action notify-only", w)
	}
	if e := q.Class(3).ECN; e == nil || !e.DefaultProbability {
		t.Errorf("class 3 ECN %+v, want the default probability", e)
	}
	if e := q.Class(4).ECN; e == nil || e.DefaultProbability || e.MaxProbability != 0 {
		t.Errorf("class 4 ECN %+v, want probability 0", e)
	}
	if s := q.Class(0).Scheduling; s.MinBandwidth != 10 || s.Shape != 40*units.Gbps {
		t.Errorf("class 0 scheduling %+v, want min_bandwidth 10%% and shape 40G", s)
	}
	q = read("sonic3.json").QoS
	azure := &intent.ColorWRED{Min: intent.Threshold{Bytes: 1048576}, Max: intent.Threshold{Bytes: 2097152}, MaxProbability: 5}
	if e := q.Class(3).ECN; e == nil || e.Yellow == nil || e.Red == nil || *e.Yellow != *azure || *e.Red != *azure {
		t.Errorf("class 3 ECN %+v, want yellow and red marked at 1048576–2097152 bytes, 5 %%", e)
	}
	if e := q.Class(4).ECN; e == nil || e.Yellow == nil || e.Red == nil ||
		*e.Yellow != (intent.ColorWRED{Min: intent.Threshold{Bytes: 250 * units.KB}, Max: intent.Threshold{Bytes: 2 * units.MB}, MaxProbability: 20}) ||
		*e.Red != (intent.ColorWRED{Min: intent.Threshold{Bytes: 100 * units.KB}, Max: intent.Threshold{Bytes: units.MB}, MaxProbability: 100, Drop: true}) {
		t.Errorf("class 4 ECN %+v, want yellow marked and red dropped", e)
	}
	q = read("sonic2.json").QoS
	if q.Trust != intent.TrustCoS || q.Names.Classifier != "STORAGE" {
		t.Fatalf("trust %q classifier %q, want cos, STORAGE", q.Trust, q.Names.Classifier)
	}
	for id, want := range map[int][]int{0: nil, 3: {3}, 7: {6, 7}} {
		if c := q.Class(id); c == nil || !slices.Equal(c.CoS, want) || c.DefaultCoS != (id == 0) || len(c.DSCP) > 0 || c.Default {
			t.Errorf("class %d %+v, want cos %v (default %v) and no DSCP", id, c, want, id == 0)
		}
	}
}

// TestImportTCToPG: a TC→PG map sending the lossy TC 7 to PG 7, as
// SONiC's qos_config.j2 does, imports as option sonic.tc_to_pg_map =
// "template" and renders back to the same map; without it no option.
func TestImportTCToPG(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "golden", "canonical", "want", "sonic1.json"))
	if err != nil {
		t.Fatal(err)
	}
	im, err := sonic.Import(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Options) != 0 {
		t.Errorf("options %v of lossless' own rendering, want none", im.Options)
	}
	db, err := sonic.ParseRunning(b)
	if err != nil {
		t.Fatal(err)
	}
	db["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"]["7"] = "7"
	running := render.Text(db)
	if im, err = sonic.Import(nil, running); err != nil {
		t.Fatal(err)
	}
	if len(im.Unexpressed) != 0 || im.Options[render.OptionTCToPG] != render.TCToPGTemplate {
		t.Errorf("options %v, unexpressed %+v; want sonic.tc_to_pg_map = template and nothing unexpressed", im.Options, im.Unexpressed)
	}
}

// TestImportWREDColours: every combination of a yellow and a red block,
// each absent, marked or dropped, renders to an ecn mode and colour
// fields that import back to the same blocks, with nothing unexpressed.
func TestImportWREDColours(t *testing.T) {
	var g goldenDevice
	for _, d := range goldenDevices(t) {
		if d.scenario == "features-sonic" && d.dev.Name == "sonic3" {
			g = d
		}
	}
	if g.dev == nil {
		t.Fatal("no features-sonic sonic3")
	}
	mark := &intent.ColorWRED{Min: intent.Threshold{Bytes: 200 * units.KB}, Max: intent.Threshold{Bytes: units.MB}, MaxProbability: 7}
	drop := &intent.ColorWRED{Min: intent.Threshold{Bytes: 100 * units.KB}, Max: intent.Threshold{Bytes: 500 * units.KB}, MaxProbability: 100, Drop: true}
	colours := map[string]*intent.ColorWRED{"none": nil, "marked": mark, "dropped": drop}
	for yn, y := range colours {
		for rn, red := range colours {
			t.Run("yellow "+yn+", red "+rn, func(t *testing.T) {
				d := *g.dev
				q := *d.QoS
				q.Classes = slices.Clone(q.Classes)
				for i := range q.Classes {
					if e := q.Classes[i].ECN; e != nil {
						c := *e
						c.Yellow, c.Red = y, red
						q.Classes[i].ECN = &c
					}
				}
				d.QoS = &q
				d.Ports = slices.Clone(d.Ports)
				for i := range d.Ports {
					d.Ports[i].QoS = &q
				}
				doc, err := render.Render(&d)
				if err != nil {
					t.Fatal(err)
				}
				im, err := sonic.Import(g.inv, doc.Text)
				if err != nil {
					t.Fatal(err)
				}
				if len(im.Unexpressed) != 0 {
					t.Errorf("unexpressed %+v", im.Unexpressed)
				}
				for _, c := range q.Classes {
					if c.ECN == nil {
						continue
					}
					got := im.QoS.Class(c.ID).ECN
					if got == nil || !cmp.Equal(got.Yellow, y) || !cmp.Equal(got.Red, red) {
						t.Errorf("class %d ECN %+v, want yellow %+v red %+v", c.ID, got, y, red)
					}
				}
			})
		}
	}
}
