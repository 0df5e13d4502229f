package platform

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCatalogEntriesPlausible checks every entry a user can select: the
// figures are present and physically plausible, and the source names
// where they come from.
func TestCatalogEntriesPlausible(t *testing.T) {
	models := Models()
	if len(models) < 15 {
		t.Fatalf("catalog has %d models, want the 15+ the issue lists", len(models))
	}
	if !slices.IsSorted(models) {
		t.Errorf("Models() not sorted: %v", models)
	}
	for _, m := range models {
		p, ok := Lookup(m)
		if !ok {
			t.Fatalf("Lookup(%q) failed for a listed model", m)
		}
		if err := p.Check(); err != nil {
			t.Errorf("%s: %v", m, err)
		}
		switch {
		case p.Cell < 64 || p.Cell > 512:
			t.Errorf("%s: cell %d outside 64–512 B, no switch ASIC uses that", m, p.Cell)
		case p.Buffer < 4<<20 || p.Buffer > 256<<20:
			t.Errorf("%s: on-chip buffer %s outside 4–256 MiB", m, p.Buffer)
		case p.MTUMin > 1536 || p.MTUMax < 9214:
			t.Errorf("%s: MTU range %d–%d does not allow jumbo RoCE frames", m, p.MTUMin, p.MTUMax)
		}
		if !strings.Contains(p.Source, "reference/") && !strings.Contains(p.Source, "sonic") && !strings.Contains(p.Source, "fboss") {
			t.Errorf("%s: source %q cites nothing checkable", m, p.Source)
		}
		for _, pr := range p.PFCPriorities {
			if p.Family == "A" && pr > 5 {
				t.Errorf("%s: family A PFC priority %d, Huawei allows 0–5 (reference/huawei-ce.md §0)", m, pr)
			}
		}
	}
}

// TestCatalogCoversIssue checks the platforms issue 2 names, by the names
// engineers write.
func TestCatalogCoversIssue(t *testing.T) {
	want := map[string]string{
		"DCS-7050CX3-32S":   "Trident3",
		"DCS-7060DX4-32":    "Tomahawk3",
		"Z9332F-ON":         "Tomahawk3",
		"DCS-7060DX5-64S":   "Tomahawk4",
		"Arista-7060CX-32S": "Tomahawk (BCM56960)",
		"SN3700":            "Spectrum-2",
		"SN4600C":           "Spectrum-3",
		"sn4700":            "Spectrum-3",
		"SN5600":            "Spectrum-4",
		"N9K-C93180YC-FX":   "LS1800FX",
		"N9K-C93600CD-GX":   "GX",
		"N9K-C9364D-GX2A":   "GX2A",
		"CE6866":            "family A",
		"CE8850-HAM":        "family A",
		"CE6885":            "family B",
		"CE8855":            "family B",
	}
	for name, asic := range want {
		p, ok := Lookup(name)
		if !ok {
			t.Errorf("Lookup(%q) found nothing", name)
			continue
		}
		if !strings.Contains(p.ASIC, asic) {
			t.Errorf("%s: ASIC %q, want %q", name, p.ASIC, asic)
		}
	}
	for name, fam := range map[string]string{"CE6866": "A", "CE8850-HAM": "A", "CE6885": "B", "CE8855": "B", "SN4700": ""} {
		if p, _ := Lookup(name); p.Family != fam {
			t.Errorf("%s: family %q, want %q (reference/huawei-ce.md §0)", name, p.Family, fam)
		}
	}
	if p, _ := Lookup("CE6866"); p.MaxLossless != 3 || len(p.PFCPriorities) != 6 {
		t.Errorf("CE6866: %d lossless on %v, want 3 on 0–5", p.MaxLossless, p.PFCPriorities)
	}
	if _, ok := Lookup("N9K-C9999"); ok {
		t.Error("Lookup found a model that does not exist")
	}
}

// TestCatalogFiguresFromSources pins the figures taken from code, so an
// edit that breaks one is caught.
func TestCatalogFiguresFromSources(t *testing.T) {
	for name, want := range map[string][2]int64{
		"Arista-7060CX-32S": {16 << 20, 208},         // fboss Tomahawk
		"DCS-7060DX4-32":    {64 << 20, 254},         // fboss Tomahawk3
		"DCS-7060DX5-64S":   {2 * 234606 * 254, 254}, // fboss Tomahawk4Asic.h
		"SN5600":            {158229504, 192},        // SONiC SN5600 buffers, asic_table.j2
		"SN3700":            {42 << 20, 144},         // Spectrum-2, asic_table.j2
	} {
		p, _ := Lookup(name)
		if int64(p.Buffer) != want[0] || int64(p.Cell) != want[1] {
			t.Errorf("%s: buffer %d cell %d, want %d %d", name, p.Buffer, p.Cell, want[0], want[1])
		}
	}
}

func TestParseRejectsBadCatalog(t *testing.T) {
	good := `{"model":"X","asic":"A","buffer_bytes":16777216,"cell_bytes":208,"max_lossless":2,"pfc_priorities":[3,4],"mtu_min":68,"mtu_max":9216,"units":"bytes","source":"a source long enough to count",` +
		`"watchdog":{"detection":{"min":"100ms","max":"5s"},"polling":{"min":"100ms","max":"1s"},"actions":["drop","forward"],"source":"the watchdog's own source"}}`
	if _, err := parse([]byte("[" + good + "]")); err != nil {
		t.Fatalf("good entry rejected: %v", err)
	}
	for _, tt := range []struct{ name, entry, want string }{
		{"no cell", strings.Replace(good, `"cell_bytes":208`, `"cell_bytes":0`, 1), "cell"},
		{"no buffer", strings.Replace(good, `"buffer_bytes":16777216`, `"buffer_bytes":0`, 1), "buffer"},
		{"too few priorities", strings.Replace(good, `"max_lossless":2`, `"max_lossless":3`, 1), "PFC priorities"},
		{"priority 8", strings.Replace(good, `[3,4]`, `[3,8]`, 1), "priority 8"},
		{"mtu upside down", strings.Replace(good, `"mtu_min":68`, `"mtu_min":9300`, 1), "MTU"},
		{"unit", strings.Replace(good, `"units":"bytes"`, `"units":"pages"`, 1), "units"},
		{"no source", strings.Replace(good, `a source long enough to count`, `x`, 1), "source"},
		{"no watchdog", strings.Replace(good, `"watchdog"`, `"no_watchdog"`, 1), "watchdog is missing"},
		{"watchdog upside down", strings.Replace(good, `"min":"100ms","max":"5s"`, `"min":"6s","max":"5s"`, 1), "detection range"},
		{"watchdog too long", strings.Replace(good, `"max":"1s"`, `"max":"2m"`, 1), "polling range"},
		{"watchdog bad duration", strings.Replace(good, `"max":"5s"`, `"max":"5"`, 1), "window max"},
		{"watchdog unknown action", strings.Replace(good, `"forward"]`, `"reboot"]`, 1), "reboot"},
		{"watchdog repeated action", strings.Replace(good, `"forward"]`, `"drop"]`, 1), "repeated"},
		{"watchdog no action", strings.Replace(good, `["drop","forward"]`, `[]`, 1), "no action"},
		{"watchdog no source", strings.Replace(good, `the watchdog's own source`, `x`, 1), "watchdog source"},
		{"duplicate", good + "," + strings.Replace(good, `"model":"X"`, `"model":"x"`, 1), "two entries"},
		{"bad json", `{`, "platform catalog"},
	} {
		_, err := parse([]byte("[" + tt.entry + "]"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want it to mention %q", tt.name, err, tt.want)
		}
	}
}

func TestCloneIsIndependent(t *testing.T) {
	p, _ := Lookup("SN4700")
	c := p.Clone()
	c.PFCPriorities[0] = 7
	c.Aliases[0] = "changed"
	c.Watchdog.Actions[0] = "changed"
	c.Watchdog.Polling.Max = 0
	if p.PFCPriorities[0] == 7 || p.Aliases[0] == "changed" || p.Watchdog.Actions[0] == "changed" || p.Watchdog.Polling.Max == 0 {
		t.Error("Clone shares slices with the catalog")
	}
}

// TestCatalogWatchdogs pins, for one model of each network OS, the PFC
// watchdog ranges and actions read from the references, so that every
// model of that OS carries the same facts.
func TestCatalogWatchdogs(t *testing.T) {
	ms := time.Millisecond
	covered := map[string]bool{}
	for _, tt := range []struct {
		models                          []string
		detection, restoration, polling Window
		actions                         []string
	}{
		{[]string{"DCS-7050CX3-32S", "DCS-7060CX-32S", "DCS-7060DX4-32", "DCS-7060DX5-64S"},
			Window{10 * ms, 60 * time.Second}, Window{10 * ms, 60 * time.Second}, Window{5 * ms, 30 * time.Second}, []string{"drop", "errdisable", "notify-only"}},
		{[]string{"Arista-7060CX-32S", "DellEMC-Z9332f-O32", "SN3700", "SN4600C", "SN4700", "SN5600"},
			// alert is notify-only (issue 13: refused before).
			Window{100 * ms, 5000 * ms}, Window{100 * ms, 60000 * ms}, Window{100 * ms, 1000 * ms}, []string{"drop", "forward", "notify-only"}},
		{[]string{"CE6866", "CE8850-HAM"},
			Window{10 * ms, 1500 * ms}, Window{10 * ms, 1500 * ms}, Window{}, []string{"drop", "forward"}},
		{[]string{"CE6885", "CE8855"},
			Window{10 * ms, 15 * time.Second}, Window{0, 31 * time.Second}, Window{10 * ms, 1000 * ms}, []string{"drop", "forward"}},
		{[]string{"N9K-C93180YC-FX", "N9K-C93600CD-GX", "N9K-C9364D-GX2A"},
			Window{}, Window{}, Window{100 * ms, 1000 * ms}, []string{"drop", "notify-only"}},
	} {
		for _, m := range tt.models {
			covered[m] = true
			p, ok := Lookup(m)
			if !ok {
				t.Fatalf("Lookup(%q) failed", m)
			}
			w := p.Watchdog
			if w.Detection != tt.detection || w.Restoration != tt.restoration || w.Polling != tt.polling || !slices.Equal(w.Actions, tt.actions) {
				t.Errorf("%s: watchdog %+v, want detection %v restoration %v polling %v actions %v", m, *w, tt.detection, tt.restoration, tt.polling, tt.actions)
			}
			if !strings.Contains(w.Source, "reference/") {
				t.Errorf("%s: watchdog source %q cites no reference", m, w.Source)
			}
		}
	}
	for _, m := range Models() {
		if !covered[m] {
			t.Errorf("%s: no row here pins its watchdog; add it to its OS's row", m)
		}
	}
}

func TestWindow(t *testing.T) {
	w := Window{10 * time.Millisecond, time.Second}
	for d, want := range map[time.Duration]bool{9 * time.Millisecond: false, 10 * time.Millisecond: true, time.Second: true, time.Second + 1: false} {
		if w.Contains(d) != want {
			t.Errorf("%v.Contains(%v) = %v, want %v", w, d, !want, want)
		}
	}
	if !w.Set() || (Window{}).Set() {
		t.Error("Set: a window with a maximum is set, the zero window is not")
	}
}
