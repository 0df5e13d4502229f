package intent

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
)

// testInventory loads testdata/inventories/NAME.hcl and gives every device
// a test platform, so that fixtures do not change with the catalog's data:
// a 16 MB buffer, 208-byte cells, at most 2 lossless classes, PFC on
// priorities 0–7 and MTU 68–9216. Some devices are then adjusted by name,
// to reach rules the catalog's platforms never trigger:
//
//	ce1     family A: PFC priorities 0–5, at most 3 lossless classes
//	tiny1   a 1 MB buffer
//	odd1    a zero cell size (headroom cannot be computed)
//	odd2    its first port without speed
//
// The watchdog limits are those of a catalog model that runs the device's
// vendor (watchdogModel), so the watchdog rules see each vendor's own
// ranges although every fixture device is written on one model.
func testInventory(t testing.TB, name string) *inventory.Inventory {
	t.Helper()
	path := filepath.Join("testdata", "inventories", name+".hcl")
	inv, diags := inventory.Load(path, inventory.Vendors{})
	if diags.HasErrors() {
		t.Fatalf("inventory %s: %s", path, diags.Error())
	}
	for _, d := range inv.Devices {
		if d.Platform == nil {
			t.Fatalf("inventory %s: device %s has no platform", path, d.Name)
		}
		p := *d.Platform
		p.Family, p.Buffer, p.Cell, p.MaxLossless = "", 16*units.MB, 208, 2
		p.PFCPriorities, p.MTUMin, p.MTUMax = []int{0, 1, 2, 3, 4, 5, 6, 7}, 68, 9216
		p.Watchdog = watchdogOf(t, d.Vendor, "")
		switch d.Name {
		case "ce1":
			p.Family, p.PFCPriorities, p.MaxLossless = "A", []int{0, 1, 2, 3, 4, 5}, 3
			p.Watchdog = watchdogOf(t, d.Vendor, "A")
		case "tiny1":
			p.Buffer = 1 << 20
		case "odd1":
			p.Cell = 0
		case "odd2":
			d.Ports[0].Speed = 0
		}
		d.Platform = &p
	}
	return inv
}

// watchdogModel names, per vendor and Huawei family, a catalog model that
// runs it, whose watchdog limits testInventory gives the vendor's devices.
// Huawei CE without a family has none: its limits differ by family.
var watchdogModel = map[string]string{
	"nxos":        "N9K-C93600CD-GX",
	"eos":         "DCS-7060CX-32S",
	"sonic":       "Arista-7060CX-32S",
	"huawei-ce/A": "CE8850-HAM",
}

// watchdogOf returns the catalog watchdog limits of vendor (and family),
// nil for a vendor the table does not know.
func watchdogOf(t testing.TB, vendor, family string) *platform.Watchdog {
	t.Helper()
	model := watchdogModel[vendor]
	if family != "" {
		model = watchdogModel[vendor+"/"+family]
	}
	if model == "" {
		return nil
	}
	p, ok := platform.Lookup(model)
	if !ok {
		t.Fatalf("catalog has no %s", model)
	}
	return p.Watchdog
}

// want is one expected diagnostic.
type want struct {
	Severity string
	Rule     string
	Pos      string // file:line, "" for a sourceless diagnostic
	Summary  string
}

func (w want) String() string {
	return fmt.Sprintf("%s %s %s: %s", w.Severity, w.Rule, w.Pos, w.Summary)
}

var (
	markRe      = regexp.MustCompile(`#\s*(ERROR|WARNING)\s+(LL\d{3})(?:\s+(\S+:\d+|-))?:\s*`)
	inventoryRe = regexp.MustCompile(`(?m)^#\s*inventory:\s*(\S+)`)
	varRe       = regexp.MustCompile(`(?m)^#\s*var:\s*(\w+)=(.*)$`)
)

// expectations reads the markers of a fixture. A marker at the end of a
// line, "# ERROR LL012: Duplicate DSCP value", expects that diagnostic on
// that line of the fixture; a marker with a position,
// "# ERROR LL040 testdata/inventories/tiny.hcl:5: …", expects it there,
// and "# ERROR LL005 -: …" expects a diagnostic without a source range.
// Several markers may share a line.
func expectations(path string, src []byte) []want {
	var out []want
	for i, line := range strings.Split(string(src), "\n") {
		locs := markRe.FindAllStringSubmatchIndex(line, -1)
		for j, loc := range locs {
			end := len(line)
			if j+1 < len(locs) {
				end = locs[j+1][0]
			}
			w := want{
				Severity: strings.ToLower(line[loc[2]:loc[3]]),
				Rule:     line[loc[4]:loc[5]],
				Pos:      path + ":" + strconv.Itoa(i+1),
				Summary:  strings.TrimSpace(line[loc[1]:end]),
			}
			if loc[6] >= 0 {
				w.Pos = strings.TrimPrefix(line[loc[6]:loc[7]], "-")
			}
			out = append(out, w)
		}
	}
	return out
}

func got(diags hcl.Diagnostics) []want {
	out := []want{}
	for _, d := range diags {
		w := want{Severity: "error", Rule: string(diag.RuleOf(d)), Summary: d.Summary}
		if d.Severity == hcl.DiagWarning {
			w.Severity = "warning"
		}
		if d.Subject != nil {
			w.Pos = d.Subject.Filename + ":" + strconv.Itoa(d.Subject.Start.Line)
		}
		out = append(out, w)
	}
	return out
}

func sortWants(w []want) {
	sort.Slice(w, func(i, j int) bool { return w[i].String() < w[j].String() })
}

// loadFixture loads one intent file against the inventory its header names
// (default: testdata/inventories/default.hcl) and resolves it.
func loadFixture(t testing.TB, path string) ([]*Device, hcl.Diagnostics, []byte) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	invName := "default"
	if m := inventoryRe.FindSubmatch(src); m != nil {
		invName = string(m[1])
	}
	vars := map[string]string{}
	for _, m := range varRe.FindAllSubmatch(src, -1) {
		vars[string(m[1])] = string(m[2])
	}
	fab, diags := LoadSources(map[string][]byte{path: src}, vars)
	devs, d := Resolve(fab, testInventory(t, invName))
	return devs, append(diags, d...), src
}

// TestInvalid checks every fixture in testdata/invalid: each diagnostic
// with its severity, rule, file:line and summary, and nothing else.
func TestInvalid(t *testing.T) {
	paths, _ := filepath.Glob("testdata/invalid/*.hcl")
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata/invalid")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, diags, src := loadFixture(t, path)
			exp := expectations(path, src)
			if len(exp) == 0 {
				t.Fatalf("%s has no # ERROR or # WARNING marker", path)
			}
			g := got(diags)
			sortWants(exp)
			sortWants(g)
			if diff := cmp.Diff(exp, g); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\nfull:\n%s", diff, diagText(diags))
			}
		})
	}
}

// TestRulesCovered checks that every rule ID declared in rules.go has at
// least one fixture that expects it.
func TestRulesCovered(t *testing.T) {
	src, err := os.ReadFile("rules.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := regexp.MustCompile(`"(LL0\d\d)"`).FindAllStringSubmatch(string(src), -1)
	covered := map[string]bool{}
	paths, _ := filepath.Glob("testdata/invalid/*.hcl")
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		for _, w := range expectations(p, b) {
			covered[w.Rule] = true
		}
	}
	for _, m := range declared {
		if !covered[m[1]] {
			t.Errorf("rule %s has no fixture in testdata/invalid", m[1])
		}
	}
}

// TestValid checks that every fixture in testdata/valid resolves without a
// diagnostic.
func TestValid(t *testing.T) {
	paths, _ := filepath.Glob("testdata/valid/*.hcl")
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			devs, diags, _ := loadFixture(t, path)
			if len(diags) > 0 {
				t.Fatalf("unexpected diagnostics:\n%s", diagText(diags))
			}
			if len(devs) == 0 {
				t.Fatal("no device resolved")
			}
		})
	}
}

func diagText(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "  %s [%s] %s: %s\n", d.Subject, diag.RuleOf(d), d.Summary, d.Detail)
	}
	return b.String()
}
