package nxos

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/nxos"
	"github.com/lossless-net/lossless/vendors"
)

var update = flag.Bool("update", false, "rewrite the unexpressed.txt of every real-world fixture")

// goldenDevices loads every golden scenario (golden/*, examples/ai-fabric
// for golden/ai-fabric) and returns its resolved NX-OS devices by
// "scenario/device".
func goldenDevices(t *testing.T) map[string]*intent.Device {
	t.Helper()
	root := filepath.Join("..", "..")
	entries, err := os.ReadDir(filepath.Join(root, "golden"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*intent.Device{}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" {
			continue
		}
		dir := filepath.Join(root, "golden", e.Name())
		if e.Name() == "ai-fabric" {
			dir = filepath.Join(root, "examples", "ai-fabric")
		}
		inv := filepath.Join(dir, intent.DefaultInventoryFile)
		f, diags := intent.Load(dir, nil, nil, intent.SkipFile(inv))
		if diags.HasErrors() {
			t.Fatalf("load %s: %s", dir, diags.Error())
		}
		in, diags := inventory.Load(inv, inventory.Vendors{})
		if diags.HasErrors() {
			t.Fatalf("load %s: %s", inv, diags.Error())
		}
		devs, diags := intent.Resolve(f, in)
		if diags.HasErrors() {
			t.Fatalf("resolve %s: %s", dir, diags.Error())
		}
		for _, d := range devs {
			if d.Vendor == Vendor {
				out[e.Name()+"/"+d.Name] = d
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no NX-OS device in the golden scenarios")
	}
	return out
}

// invDevice is the inventory entry of a resolved device, as Import gets it.
func invDevice(d *intent.Device) *inventory.Device {
	dev := &inventory.Device{Name: d.Name, Vendor: d.Vendor, Platform: d.Platform}
	if d.Platform != nil {
		dev.Model = d.Platform.Model
	}
	for _, p := range d.Ports {
		dev.Ports = append(dev.Ports, &inventory.Port{Name: p.Name, Speed: p.Speed, Cable: p.Cable})
	}
	return dev
}

// withImported is a copy of d with the imported QoS, ports and buffers,
// keeping d's headroom and platform; every port of im must be one of d's.
func withImported(t *testing.T, d *intent.Device, im *vendors.Imported) *intent.Device {
	t.Helper()
	c := *d
	c.QoS = im.QoS
	if im.Buffers != nil {
		c.Buffers = im.Buffers
	}
	if im.Options != nil {
		c.Options = im.Options
	}
	byName := map[string]intent.Port{}
	for _, p := range d.Ports {
		byName[p.Name] = p
	}
	c.Ports = nil
	for _, ip := range im.Ports {
		p, ok := byName[ip.Name]
		if !ok {
			p = intent.Port{Name: ip.Name}
		}
		p.QoS = im.QoS
		if ip.QoS != nil {
			p.QoS = ip.QoS
		}
		if ip.Speed != 0 {
			p.Speed = ip.Speed
		}
		if ip.Cable != 0 {
			p.Cable = ip.Cable
		}
		c.Ports = append(c.Ports, p)
	}
	return &c
}

// roundTrip imports running for d, renders the result and returns the
// rendering and the import.
func roundTrip(t *testing.T, d *intent.Device, running []byte) (*config.Document, *vendors.Imported) {
	t.Helper()
	im, err := Import(invDevice(d), running)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	if im.QoS == nil {
		t.Fatalf("Import found no QoS in:\n%s", running)
	}
	doc, err := render.Render(withImported(t, d, im))
	if err != nil {
		t.Fatalf("render the imported QoS: %v", err)
	}
	return doc, im
}

// TestImportRoundTrip: every NX-OS device of every golden scenario,
// rendered, imported and rendered again, gives the same bytes and an
// empty diff; so does the realistic LabSeed config of the canonical
// rendering, whose stale values the import reads as they are.
func TestImportRoundTrip(t *testing.T) {
	devs := goldenDevices(t)
	names := make([]string, 0, len(devs))
	for n := range devs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		d := devs[name]
		t.Run(name, func(t *testing.T) {
			want, err := render.Render(d)
			if err != nil {
				t.Fatal(err)
			}
			got, im := roundTrip(t, d, want.Text)
			if len(im.Unexpressed) != 0 {
				t.Errorf("a rendering imports with unexpressed lines: %+v", im.Unexpressed)
			}
			if d := cmp.Diff(string(want.Text), string(got.Text)); d != "" {
				t.Errorf("re-rendering differs (-rendered +re-rendered):\n%s", d)
			}
			ch, err := Diff(d.Name, want.Text, got)
			if err != nil {
				t.Fatal(err)
			}
			if !ch.Empty() {
				t.Errorf("diff of the rendering against its re-rendering: %q", ch.Commands)
			}
		})
	}
	t.Run("LabSeed", func(t *testing.T) {
		d := devs["canonical/nxos1"]
		want, err := render.Render(d)
		if err != nil {
			t.Fatal(err)
		}
		seed := LabSeed(want.Text)
		got, im := roundTrip(t, d, seed)
		ch, err := Diff(d.Name, seed, got)
		if err != nil {
			t.Fatal(err)
		}
		if len(im.Unexpressed) != 0 {
			t.Errorf("the seed imports with unexpressed lines: %+v", im.Unexpressed)
		}
		if !ch.Empty() {
			t.Errorf("diff of the seed against its import: %q", ch.Commands)
		}
		for _, stale := range []string{"random-detect minimum-threshold 300 kbytes maximum-threshold 1500 kbytes", "class-map type qos match-any " + staleClass} {
			if !bytes.Contains(got.Text, []byte(stale)) {
				t.Errorf("the import lost the seed's %q:\n%s", stale, got.Text)
			}
		}
	})
}
