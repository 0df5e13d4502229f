package platform

import (
	"slices"
	"strings"
	"testing"
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
	good := `{"model":"X","asic":"A","buffer_bytes":16777216,"cell_bytes":208,"max_lossless":2,"pfc_priorities":[3,4],"mtu_min":68,"mtu_max":9216,"units":"bytes","source":"a source long enough to count"}`
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
	if p.PFCPriorities[0] == 7 || p.Aliases[0] == "changed" {
		t.Error("Clone shares slices with the catalog")
	}
}
