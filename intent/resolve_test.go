package intent

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
)

// loadDir loads an intent directory and its inventory.hcl. A platform the
// catalog does not (yet) list is replaced by the catalog's
// Arista-7060CX-32S in a copy of the inventory, so that the intent's own
// facts can be checked whatever the catalog holds; with the full catalog
// the inventory is used as written.
func loadDir(t testing.TB, dir string, vars map[string]string) ([]*Device, *Fabric, string) {
	t.Helper()
	return loadDirWarn(t, dir, vars, false)
}

// loadDirWarn is loadDir that, with warnings, lets warnings pass.
func loadDirWarn(t testing.TB, dir string, vars map[string]string, warnings bool) ([]*Device, *Fabric, string) {
	t.Helper()
	invPath := filepath.Join(dir, DefaultInventoryFile)
	src, err := os.ReadFile(invPath)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(platform\s*=\s*)"([^"]+)"`)
	fixed := re.ReplaceAllFunc(src, func(m []byte) []byte {
		sm := re.FindSubmatch(m)
		if _, ok := platform.Lookup(string(sm[2])); ok {
			return m
		}
		return append(append([]byte{}, sm[1]...), `"Arista-7060CX-32S"`...)
	})
	if !bytes.Equal(fixed, src) {
		invPath = filepath.Join(t.TempDir(), DefaultInventoryFile)
		if err := os.WriteFile(invPath, fixed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inv, diags := inventory.Load(invPath, inventory.Vendors{})
	if diags.HasErrors() {
		t.Fatalf("inventory: %s", diags.Error())
	}
	fab, diags := Load(dir, vars, nil)
	if diags.HasErrors() {
		t.Fatalf("load: %s", diagText(diags))
	}
	devs, diags := Resolve(fab, inv)
	if len(diags) > 0 && (!warnings || diags.HasErrors()) {
		t.Fatalf("resolve:\n%s", diagText(diags))
	}
	return devs, fab, invPath
}

// classFacts is what a renderer reads of one class.
type classFacts struct {
	Name     string
	ID       int
	DSCP     []int
	Default  bool
	Lossless bool
	CNP      bool
	Sched    Scheduling
	MTU      int
	ECN      *ECN
}

func facts(q *QoS) []classFacts {
	var out []classFacts
	for _, c := range q.Classes {
		out = append(out, classFacts{c.Name, c.ID, c.DSCP, c.Default, c.Lossless, c.CNP, c.Scheduling, c.MTU, c.ECN})
	}
	return out
}

func intp(i int) *int { return &i }

// TestCanonical checks the resolved canonical scenario against the facts
// of each reference's §1 intent (nxos.md §1, eos.md §1a, huawei-ce.md
// §1.1, sonic.md §4–§5), which the renderers turn into the golden files.
func TestCanonical(t *testing.T) {
	devs, _, _ := loadDir(t, "../golden/canonical", nil)
	byName := map[string]*Device{}
	var names []string
	for _, d := range devs {
		byName[d.Name] = d
		names = append(names, d.Name)
	}
	if diff := cmp.Diff([]string{"ce1", "eos1", "nxos1", "sonic1"}, names); diff != "" {
		t.Fatalf("devices (-want +got):\n%s", diff)
	}
	ecn := func(prob int, weight *int) *ECN {
		return &ECN{Min: Threshold{Bytes: 150 * units.KB}, Max: Threshold{Bytes: 3000 * units.KB}, MaxProbability: units.Percent(prob), Weight: weight}
	}
	bulk := classFacts{Name: "default", ID: 0, Default: true}
	roce := classFacts{Name: "ROCEv2", ID: 3, DSCP: []int{24, 26}, Lossless: true}
	cnp := classFacts{Name: "CNP", ID: 6, DSCP: []int{48}, CNP: true, Sched: Scheduling{Mode: SchedulingStrict, Level: 1}}
	with := func(c classFacts, f func(*classFacts)) classFacts { f(&c); return c }

	tests := []struct {
		dev      string
		classes  []classFacts
		watchdog *Watchdog
		buffers  Buffers
		ports    []string
	}{
		{
			dev: "nxos1",
			classes: []classFacts{
				with(bulk, func(c *classFacts) { c.Sched = Scheduling{Mode: SchedulingDWRR, Bandwidth: 50} }),
				with(roce, func(c *classFacts) {
					c.Sched, c.MTU, c.ECN = Scheduling{Mode: SchedulingDWRR, Bandwidth: 50}, 9216, ecn(7, intp(0))
				}),
				with(cnp, func(c *classFacts) { c.ID = 7 }),
			},
			watchdog: &Watchdog{},
			buffers:  Buffers{Profile: "default", Headroom: HeadroomPolicy{Auto: true}},
			ports:    []string{"Ethernet1/1", "Ethernet1/2"},
		},
		{
			dev:      "eos1",
			classes:  []classFacts{bulk, with(roce, func(c *classFacts) { c.ECN = ecn(100, nil) }), cnp},
			watchdog: &Watchdog{Detection: 200 * time.Millisecond, Restoration: 400 * time.Millisecond, Polling: 100 * time.Millisecond, Action: "drop"},
			buffers:  Buffers{Profile: "default", Headroom: HeadroomPolicy{Auto: true}},
			ports:    []string{"Ethernet1", "Ethernet2"},
		},
		{
			dev: "ce1",
			classes: []classFacts{
				with(bulk, func(c *classFacts) { c.Sched = Scheduling{Mode: SchedulingDWRR, Weight: 40} }),
				with(roce, func(c *classFacts) { c.Sched, c.ECN = Scheduling{Mode: SchedulingDWRR, Weight: 60}, ecn(10, nil) }),
				cnp,
			},
			watchdog: &Watchdog{Detection: 100 * time.Millisecond, Restoration: 100 * time.Millisecond, Polling: 10 * time.Millisecond},
			buffers:  Buffers{Profile: "default", Headroom: HeadroomPolicy{Auto: true}, HeadroomPool: 4 * units.MB},
			ports:    []string{"100GE1/0/1", "100GE1/0/2"},
		},
		{
			dev: "sonic1",
			classes: []classFacts{
				with(bulk, func(c *classFacts) { c.Sched = Scheduling{Mode: SchedulingDWRR, Weight: 14} }),
				with(roce, func(c *classFacts) { c.Sched, c.ECN = Scheduling{Mode: SchedulingDWRR, Weight: 15}, ecn(5, nil) }),
				cnp,
			},
			watchdog: &Watchdog{Detection: 200 * time.Millisecond, Restoration: 200 * time.Millisecond, Polling: 200 * time.Millisecond, Action: "drop"},
			buffers:  Buffers{Profile: "default", Headroom: HeadroomPolicy{Xoff: 165568, Xon: 2288, Size: 1248}, Alpha: intp(0)},
			ports:    []string{"Ethernet0", "Ethernet4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.dev, func(t *testing.T) {
			d := byName[tt.dev]
			if diff := cmp.Diff(tt.classes, facts(d.QoS)); diff != "" {
				t.Errorf("classes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.watchdog, d.QoS.PFC.Watchdog); diff != "" {
				t.Errorf("watchdog (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.buffers, *d.Buffers); diff != "" {
				t.Errorf("buffers (-want +got):\n%s", diff)
			}
			var ports []string
			for _, p := range d.Ports {
				ports = append(ports, p.Name)
				if p.Speed != 100*units.Gbps || p.Cable != 5*units.Metre || p.QoS != d.QoS {
					t.Errorf("port %s: speed %s, cable %s, own QoS %v", p.Name, p.Speed, p.Cable, p.QoS != d.QoS)
				}
				if len(p.Headroom) != 1 || p.Headroom[0].Priority != 3 || p.Headroom[0].Xoff <= 0 || len(p.Headroom[0].Derivation) == 0 {
					t.Errorf("port %s headroom = %+v", p.Name, p.Headroom)
				}
				if !d.Buffers.Headroom.Auto && (p.Headroom[0].Xoff != 165568 || p.Headroom[0].Xon != 2288 || p.Headroom[0].Size != 1248) {
					t.Errorf("port %s explicit headroom = %+v", p.Name, p.Headroom[0])
				}
			}
			if diff := cmp.Diff(tt.ports, ports); diff != "" {
				t.Errorf("ports (-want +got):\n%s", diff)
			}
			if d.QoS.Profile != "roce" || d.QoS.Trust != "dscp" {
				t.Errorf("profile %q trust %q", d.QoS.Profile, d.QoS.Trust)
			}
		})
	}
}

// TestExample checks that the bundled example resolves without a
// diagnostic, with one override per vendor taking effect.
func TestExample(t *testing.T) {
	devs, _, _ := loadDir(t, "../examples/ai-fabric", nil)
	vendors := map[string]int{}
	for _, d := range devs {
		vendors[d.Vendor]++
	}
	if diff := cmp.Diff(map[string]int{"eos": 2, "huawei-ce": 2, "nxos": 2, "sonic": 2}, vendors); diff != "" {
		t.Errorf("devices per vendor (-want +got):\n%s", diff)
	}
	for _, d := range devs {
		var speeds = map[units.BitRate]bool{}
		for _, p := range d.Ports {
			speeds[p.Speed] = true
		}
		if d.Name == "leaf1" && !(speeds[100*units.Gbps] && speeds[400*units.Gbps]) {
			t.Errorf("leaf1 should mix 100G and 400G ports: %v", speeds)
		}
	}
}

func loadString(t *testing.T, src string, vars map[string]string) ([]*Device, string) {
	t.Helper()
	fab, diags := LoadSources(map[string][]byte{"test.hcl": []byte(src)}, vars)
	devs, d := Resolve(fab, testInventory(t, "default"))
	return devs, diagText(append(diags, d...))
}

const testProfile = `
qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = ["24-26"]
    lossless = true
    ecn {
      min_threshold   = "20us"
      max_threshold   = "3000KB"
      max_probability = "7%"
    }
  }
  traffic_class "cnp" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
}
`

func TestOverridesAndOptions(t *testing.T) {
	src := testProfile + `
port_group "uplink" {
  ports = ["Ethernet1/4", "Ethernet1/1-2"]
}

assign "leaves" {
  devices = { role = "leaf", tag = ["pod1"] }
  ports   = concat(port_group.uplink, ["Ethernet1/3"])
  qos     = qos_profile.roce
  options = { "nxos.a" = "1", "nxos.b" = "2" }

  device "leaf1" {
    options = { "nxos.b" = "3" }
    qos {
      trust = "dscp"
      traffic_class "bulk" {
        id     = 0
        dscp   = "default"
        weight = 10
      }
    }
    port "Ethernet1/2" {
      qos {
        traffic_class "cnp" {
          id       = 6
          dscp     = [48]
          cnp      = true
          priority = "strict"
          priority_level = 2
        }
      }
    }
  }
}

assign "rest" {
  devices = ["leaf2", "spine1", "ce1"]
  qos     = qos_profile.roce
}
`
	devs, diags := loadString(t, src, nil)
	if diags != "" {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	var leaf1 *Device
	for _, d := range devs {
		if d.Name == "leaf1" {
			leaf1 = d
		}
	}
	if diff := cmp.Diff(map[string]string{"nxos.a": "1", "nxos.b": "3"}, leaf1.Options); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	// The override's traffic_class "bulk" replaced the profile's whole;
	// the others are the profile's.
	if c := leaf1.QoS.Class(0); c == nil || !c.Default || c.Scheduling != (Scheduling{Mode: SchedulingDWRR, Weight: 10}) {
		t.Errorf("classes after override: %+v", facts(leaf1.QoS))
	}
	if c := leaf1.QoS.Class(3); c == nil || c.ECN.Min.Time != 20*time.Microsecond || c.ECN.MaxProbability != 7 || !cmp.Equal(c.DSCP, []int{24, 25, 26}) {
		t.Errorf("class 3 = %+v", c)
	}
	var names []string
	for _, p := range leaf1.Ports {
		names = append(names, p.Name)
		own := p.QoS != leaf1.QoS
		if own != (p.Name == "Ethernet1/2") {
			t.Errorf("port %s has its own QoS: %v", p.Name, own)
		}
	}
	if diff := cmp.Diff([]string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4"}, names); diff != "" {
		t.Errorf("ports (-want +got):\n%s", diff)
	}
	// The port override merges over the device's QoS, not the profile's.
	if p := leaf1.Ports[1]; p.QoS.Class(0).Scheduling.Weight != 10 || p.QoS.Class(6).Scheduling.Level != 2 {
		t.Errorf("port QoS: %+v", facts(p.QoS))
	}
	if len(devs) != 4 || devs[0].Name != "ce1" || devs[3].Name != "spine1" {
		t.Errorf("devices not sorted by name")
	}
	// Devices without overrides share one QoS.
	if devs[0].QoS != devs[3].QoS {
		t.Error("devices of one profile do not share its QoS")
	}
}

func TestVariables(t *testing.T) {
	src := `
variable "ecn_max" {
  type    = string
  default = "3000KB"
}
variable "cnp_dscp" {
  type    = list(number)
  default = [48]
}
locals {
  max  = var.ecn_max
  both = concat(local.roce, var.cnp_dscp)
  roce = [24, 26]
}
qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = local.roce
    lossless = true
    ecn {
      min_threshold   = "150KB"
      max_threshold   = local.max
      max_probability = 7
    }
  }
  traffic_class "cnp" {
    id       = 6
    dscp     = var.cnp_dscp
    cnp      = true
    priority = "strict"
  }
}
assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
`
	devs, diags := loadString(t, src, map[string]string{"ecn_max": "2MB", "cnp_dscp": "[46, 48]"})
	if diags != "" {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	q := devs[0].QoS
	if got := q.Class(3).ECN.Max.Bytes; got != 2*units.MB {
		t.Errorf("ecn max = %s, want 2MB from -var", got)
	}
	if got := q.Class(6).DSCP; !cmp.Equal(got, []int{46, 48}) {
		t.Errorf("cnp dscp = %v, want [46 48] from -var", got)
	}

	// The var file sits in the intent directory, which Load must not read
	// as intent.
	intentDir := t.TempDir()
	dir := intentDir
	varFile := filepath.Join(dir, "prod.vars.hcl")
	if err := os.WriteFile(varFile, []byte("ecn_max = \"1MB\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(intentDir, "main.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fab, d := Load(intentDir, nil, []string{varFile})
	if d.HasErrors() {
		t.Fatalf("load: %s", diagText(d))
	}
	if got := fab.Variables["ecn_max"].AsString(); got != "1MB" {
		t.Errorf("var-file value = %q", got)
	}
	fab, _ = Load(intentDir, map[string]string{"ecn_max": "500KB"}, []string{varFile})
	if got := fab.Variables["ecn_max"].AsString(); got != "500KB" {
		t.Errorf("-var over -var-file = %q, want 500KB", got)
	}
	jsonFile := filepath.Join(dir, "prod.vars.json")
	if err := os.WriteFile(jsonFile, []byte(`{"ecn_max": "2MB", "cnp_dscp": [46]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fab, d = Load(intentDir, nil, []string{varFile, jsonFile})
	if d.HasErrors() {
		t.Fatalf("load with a JSON var file: %s", diagText(d))
	}
	if got := fab.Variables["ecn_max"].AsString(); got != "2MB" {
		t.Errorf("later var file = %q, want 2MB", got)
	}
}

// TestMissingUnitHint checks that a bare number's message suggests the unit.
func TestMissingUnitHint(t *testing.T) {
	_, diags := loadString(t, `
qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
    ecn {
      min_threshold   = 150
      max_threshold   = "3000KB"
      max_probability = 7
    }
  }
}
assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}`, nil)
	if !regexp.MustCompile(`\[LL001\] Missing unit: .*"150KB".*"150us"`).MatchString(diags) {
		t.Errorf("diagnostics lack the unit hint:\n%s", diags)
	}
}

// TestDeterministic resolves the example twice and compares the JSON of
// every device byte for byte.
func TestDeterministic(t *testing.T) {
	var runs [2][]byte
	for i := range runs {
		devs, _, _ := loadDir(t, "../golden/canonical", nil)
		for _, d := range devs {
			b, err := d.MarshalIndent()
			if err != nil {
				t.Fatal(err)
			}
			runs[i] = append(runs[i], b...)
		}
	}
	if !bytes.Equal(runs[0], runs[1]) {
		t.Error("two resolutions of one intent differ")
	}
}

func TestMerge(t *testing.T) {
	a := func(n string) *Attr { return &Attr{Name: n} }
	blk := func(typ, label string, attrs ...string) *Block {
		b := &Block{Type: typ, Labels: []string{label}, Body: &Body{Attrs: map[string]*Attr{}}}
		for _, n := range attrs {
			b.Body.Attrs[n] = a(n)
		}
		return b
	}
	base := &Body{Attrs: map[string]*Attr{"trust": a("trust"), "x": a("x")}, Blocks: []*Block{blk("tc", "a", "id", "dscp"), blk("tc", "b", "id")}}
	over := &Body{Attrs: map[string]*Attr{"x": a("x2")}, Blocks: []*Block{blk("tc", "a", "id"), blk("tc", "c", "id")}}
	m := Merge(base, over)
	if m.Attrs["trust"] != base.Attrs["trust"] || m.Attrs["x"] != over.Attrs["x"] {
		t.Error("attributes not merged by name")
	}
	var got []string
	for _, b := range m.Blocks {
		got = append(got, b.Labels[0]+":"+sortedKeys(b.Body.Attrs)[0]+":"+string(rune('0'+len(b.Body.Attrs))))
	}
	// "a" merged attribute by attribute (dscp kept, id replaced, in
	// place), "b" kept, "c" added.
	if diff := cmp.Diff([]string{"a:dscp:2", "b:id:1", "c:id:1"}, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
	if len(base.Blocks[0].Body.Attrs) != 2 {
		t.Error("Merge modified its base")
	}
}

// TestUnmanaged: unmanaged is keep unless an assign says prune, and a
// device override wins over its assign.
func TestUnmanaged(t *testing.T) {
	devs, diags := loadString(t, testProfile+`
assign "leaves" {
  devices   = { role = "leaf" }
  qos       = qos_profile.roce
  unmanaged = "prune"
  device "leaf2" {
    unmanaged = "keep"
  }
}

assign "rest" {
  devices = ["spine1", "ce1"]
  qos     = qos_profile.roce
}
`, nil)
	if diags != "" {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	got := map[string]string{}
	for _, d := range devs {
		got[d.Name] = d.Unmanaged
	}
	want := map[string]string{"leaf1": UnmanagedPrune, "leaf2": UnmanagedKeep, "spine1": UnmanagedKeep, "ce1": UnmanagedKeep}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unmanaged (-want +got):\n%s", diff)
	}
}
