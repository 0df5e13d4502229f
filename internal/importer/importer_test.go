package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// testOS is a vendor only this test registers: its "running config" is
// the JSON of the resolved QoS, buffers, options and ports, so that its
// importer reads back exactly what was rendered, and what is checked is
// this package's grouping and writing alone.
const testOS = "importtest"

// rendered is what testOS renders and imports.
type rendered struct {
	QoS     *intent.QoS
	Buffers *intent.Buffers
	Options map[string]string
	Ports   []renderedPort
}

type renderedPort struct {
	Name string
	QoS  *intent.QoS
}

func init() {
	vendors.Register(vendors.Vendor{
		Name:   testOS,
		Render: testRender,
		Dial: func(context.Context, vendors.Target) (vendors.Driver, error) {
			return nil, os.ErrInvalid
		},
		Diff:   testDiff,
		Import: testImport,
		Ports:  inventory.PortNaming{Format: "port%d", Stride: 1, First: 1},
	})
}

func clean(q *intent.QoS) *intent.QoS {
	if q == nil {
		return nil
	}
	c := *q
	c.Profile = ""
	c.Classes = append([]intent.Class(nil), q.Classes...)
	for i := range c.Classes {
		c.Classes[i].Range = hcl.Range{}
	}
	return &c
}

func testRender(d *intent.Device) (*config.Document, error) {
	r := rendered{QoS: clean(d.QoS), Options: d.Options}
	if d.Buffers != nil {
		b := *d.Buffers
		b.Profile = ""
		r.Buffers = &b
	}
	for _, p := range d.Ports {
		rp := renderedPort{Name: p.Name}
		if p.QoS != d.QoS {
			rp.QoS = clean(p.QoS)
		}
		r.Ports = append(r.Ports, rp)
	}
	b, err := json.MarshalIndent(r, "", " ")
	return &config.Document{Device: d.Name, Format: config.CLI, Text: b}, err
}

func testDiff(device string, running []byte, desired *config.Document) (*vendors.Change, error) {
	c := &vendors.Change{Device: device, Vendor: testOS, Desired: desired}
	if !bytes.Equal(running, desired.Text) {
		c.Diff = textdiff.Unified("running", "desired", string(running), string(desired.Text))
		c.Commands = []string{"replace"}
	}
	return c, nil
}

func testImport(_ *inventory.Device, running []byte) (*vendors.Imported, error) {
	var r rendered
	if err := json.Unmarshal(running, &r); err != nil {
		return nil, err
	}
	imp := &vendors.Imported{QoS: r.QoS, Buffers: r.Buffers, Options: r.Options}
	if r.QoS != nil {
		imp.QoS.Profile = "roce"
	}
	for _, p := range r.Ports {
		imp.Ports = append(imp.Ports, vendors.ImportedPort{Name: p.Name, QoS: p.QoS})
	}
	return imp, nil
}

const testInventory = `
device "a1" {
  vendor   = "importtest"
  platform = "N9K-C93600CD-GX"
  address  = "192.0.2.1"
  ports "port1-4" {
    speed = "100G"
    cable = "5m"
  }
}
device "a2" {
  vendor   = "importtest"
  platform = "N9K-C93600CD-GX"
  address  = "192.0.2.2"
  ports "port1-4" {
    speed = "100G"
    cable = "5m"
  }
}
device "a3" {
  vendor   = "importtest"
  platform = "N9K-C93600CD-GX"
  address  = "192.0.2.3"
  ports "port1-4" {
    speed = "100G"
    cable = "5m"
  }
}
device "b1" {
  vendor   = "importtest"
  platform = "N9K-C93600CD-GX"
  address  = "192.0.2.4"
  ports "port1-4" {
    speed = "100G"
    cable = "5m"
  }
}
`

// source is the fabric the "devices" run: three devices share a profile
// (one with a small ECN override and a port override, one on two ports
// only), one runs a profile of its own.
const source = `
qos_profile "roce" {
  names {
    classifier = "QOS_IN"
  }
  traffic_class "bulk" {
    id        = 0
    dscp      = "default"
    bandwidth = "50%"
  }
  traffic_class "ROCEv2" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "50%"
    mtu       = 9216
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 7
    }
    names {
      scheduler = "scheduler.1"
    }
  }
  traffic_class "CNP" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  pfc {
    watchdog {
      detection_time = "200ms"
      action         = "drop"
    }
  }
}

qos_profile "other" {
  traffic_class "all" {
    id   = 0
    dscp = "default"
  }
  traffic_class "storage" {
    id       = 4
    dscp     = ["8-15", 40]
    lossless = true
    weight   = 30
  }
}

buffer_profile "auto" {
  headroom = "auto"
}

assign "as" {
  devices = ["a1", "a2"]
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
  device "a2" {
    qos {
      traffic_class "ROCEv2" {
        ecn { max_probability = 20 }
      }
    }
    port "port3" {
      qos {
        traffic_class "CNP" { remove = true }
      }
    }
  }
}

assign "a3" {
  devices = ["a3"]
  ports   = ["port1-2"]
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
  options = { "importtest.style" = "x" }
}

assign "bs" {
  devices = ["b1"]
  qos     = qos_profile.other
}
`

// TestImport renders the source fabric, imports the renderings, and
// checks the written intent: it round-trips (every device's plan is
// empty), it matches testdata/import.golden (-update rewrites it), and
// its shape is the one users expect (a shared profile with a device and a
// port override, the ports of a3, b1's own profile).
func TestImport(t *testing.T) {
	srcDir, outDir := t.TempDir(), t.TempDir()
	inv := filepath.Join(srcDir, "inventory.hcl")
	writeFile(t, inv, testInventory)
	writeFile(t, filepath.Join(srcDir, "qos.hcl"), source)
	loaded, diags := load.Fabric(srcDir, load.Options{})
	if diags.HasErrors() {
		t.Fatalf("source: %s", diags.Error())
	}
	var srcs []Source
	for _, d := range loaded.Devices {
		doc, err := testRender(d)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, Source{Device: loaded.Inventory.Device(d.Name), Running: doc.Text, From: d.Name + ".json"})
	}
	r := Import(srcs)
	got := r.Files[File]
	writeFile(t, filepath.Join(outDir, File), string(got))
	if diags := Check(r, outDir, inv); diags.HasErrors() {
		t.Fatalf("written intent:\n%s\n%s", diags.Error(), got)
	}
	for _, d := range r.Devices {
		if !d.RoundTrips() {
			t.Errorf("%s does not round-trip (err %v, check %v): %+v\n%s", d.Name, d.Err, d.CheckErr, d.Change, got)
		}
	}
	golden := filepath.Join("testdata", "import.golden")
	if *update {
		writeFile(t, golden, string(got))
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := textdiff.Unified("want", "got", string(want), string(got)); diff != "" {
		t.Errorf("written intent differs from %s (-update rewrites it):\n%s", golden, diff)
	}
	for _, want := range []string{`qos_profile "roce"`, `qos_profile "roce_2"`, `device "a2"`, `port "port3"`, `ports   = ["port1", "port2"]`, `remove = true`, `max_probability = 20`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("written intent lacks %q", want)
		}
	}
}

// TestImportProblems: what cannot be imported is reported, never
// dropped: a vendor without an importer, a port the inventory lacks, a
// line the importer cannot say.
func TestImportProblems(t *testing.T) {
	invDir := t.TempDir()
	writeFile(t, filepath.Join(invDir, "inventory.hcl"), testInventory)
	inv, diags := load.Inventory(filepath.Join(invDir, "inventory.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	bad := []byte(`{"QoS": {"Classes": [{"Name": "bulk", "ID": 0, "Default": true}]}, "Ports": [{"Name": "port9"}]}`)
	r := Import([]Source{
		{Device: inv.Device("a1"), Running: bad},
		{Device: inv.Device("a2"), Running: []byte("not json")},
	})
	if r.Devices[0].Err != nil || len(r.Devices[0].Problems) == 0 || !strings.Contains(r.Devices[0].Problems[0], "port9") {
		t.Errorf("a1: err %v, problems %q: want port9 reported", r.Devices[0].Err, r.Devices[0].Problems)
	}
	if r.Devices[1].Err == nil {
		t.Error("a2: a running config the importer refuses imported")
	}
	if !strings.Contains(string(r.Files[File]), "# a2: not imported") || !strings.Contains(string(r.Files[File]), "port9") {
		t.Errorf("the written intent does not say what was left out:\n%s", r.Files[File])
	}
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAddPorts: a port the running config gives QoS and a speed to, and
// the inventory lacks, is added to the device's block, and the inventory
// still loads with it; a port without a speed is a problem instead.
func TestAddPorts(t *testing.T) {
	dir := t.TempDir()
	invPath := filepath.Join(dir, "inventory.hcl")
	writeFile(t, invPath, testInventory)
	inv, diags := load.Inventory(invPath)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	running := []byte(`{"QoS": {"Classes": [{"Name": "bulk", "ID": 0, "Default": true}]}, "Ports": [{"Name": "port1"}, {"Name": "port9"}, {"Name": "port10"}]}`)
	vendors.Register(vendors.Vendor{Name: "importtest-speeds", Render: testRender, Dial: func(context.Context, vendors.Target) (vendors.Driver, error) { return nil, os.ErrInvalid },
		Import: func(d *inventory.Device, b []byte) (*vendors.Imported, error) {
			imp, err := testImport(d, b)
			if err == nil {
				imp.Ports[1].Speed = 100 * units.Gbps
				imp.Ports[1].Cable = 3 * units.Metre
			}
			return imp, err
		}})
	a1 := *inv.Device("a1")
	a1.Vendor = "importtest-speeds"
	r := Import([]Source{{Device: &a1, Running: running}})
	d := r.Devices[0]
	if len(d.Added) != 1 || d.Added[0].Name != "port9" || len(d.Problems) != 1 || !strings.Contains(d.Problems[0], "port10") {
		t.Fatalf("added %+v, problems %q: want port9 added, port10 a problem", d.Added, d.Problems)
	}
	src, _ := os.ReadFile(invPath)
	out, lines, err := r.AddPorts(src, invPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "a1: port port9 (100G, 3m)") {
		t.Errorf("lines %q", lines)
	}
	writeFile(t, invPath, string(out))
	inv2, diags := load.Inventory(invPath)
	if diags.HasErrors() {
		t.Fatalf("patched inventory: %s\n%s", diags.Error(), out)
	}
	var names []string
	for _, p := range inv2.Device("a1").Ports {
		names = append(names, p.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "port9") || strings.Contains(strings.Join(names, ","), "port10") {
		t.Errorf("a1's ports after the patch: %v", names)
	}
}
