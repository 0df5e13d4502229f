package huaweice_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/huaweice"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all"
	"github.com/lossless-net/lossless/vendors/huaweice"
)

// goldenDevices loads every golden scenario (golden/*, ai-fabric from
// examples/ai-fabric, as golden_test does) and returns its CloudEngine
// devices, resolved, by "scenario/device".
func goldenDevices(t *testing.T) map[string]*intent.Device {
	t.Helper()
	root := filepath.Join("..", "..", "golden")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*intent.Device{}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if e.Name() == "ai-fabric" {
			dir = filepath.Join("..", "..", "examples", "ai-fabric")
		}
		f, diags := load.Fabric(dir, load.Options{})
		if diags.HasErrors() {
			t.Fatalf("load %s: %v", dir, diags)
		}
		for _, d := range f.Devices {
			if d.Vendor == huaweice.Vendor {
				out[e.Name()+"/"+d.Name] = d
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no CloudEngine device in the golden scenarios")
	}
	return out
}

// inventoryOf is the inventory entry Import gets for a resolved device.
func inventoryOf(d *intent.Device) *inventory.Device {
	return &inventory.Device{Name: d.Name, Vendor: d.Vendor, Platform: d.Platform}
}

// reresolved is d with the imported QoS, ports, buffers and options put in
// place of its own, keeping its platform and each port's headroom, speed
// and cable: what an imported intent resolves to on d's inventory.
func reresolved(t *testing.T, d *intent.Device, imp *vendors.Imported) *intent.Device {
	t.Helper()
	c := *d
	c.QoS = imp.QoS
	c.Buffers = imp.Buffers
	if c.Buffers == nil {
		c.Buffers = &intent.Buffers{Headroom: intent.HeadroomPolicy{Auto: true}}
	}
	c.Options = imp.Options
	old := map[string]intent.Port{}
	for _, p := range d.Ports {
		old[p.Name] = p
	}
	c.Ports = nil
	for _, ip := range imp.Ports {
		p, ok := old[ip.Name]
		if !ok {
			p = intent.Port{Name: ip.Name}
		}
		p.QoS = ip.QoS
		if p.QoS == nil {
			p.QoS = imp.QoS
		}
		c.Ports = append(c.Ports, p)
	}
	return &c
}

// roundTrip imports running on d's inventory, renders the result and
// returns the rendering and the import.
func roundTrip(t *testing.T, d *intent.Device, running []byte) (*config.Document, *vendors.Imported) {
	t.Helper()
	imp, err := huaweice.Import(inventoryOf(d), running)
	if err != nil {
		t.Fatal(err)
	}
	if imp.QoS == nil {
		t.Fatalf("nothing imported; unexpressed: %v", imp.Unexpressed)
	}
	doc, err := render.Render(reresolved(t, d, imp))
	if err != nil {
		t.Fatalf("render the import: %v", err)
	}
	return doc, imp
}

// TestImportRoundTrip: every CloudEngine device of every golden scenario
// is rendered, the rendering imported and rendered again from the
// imported QoS: byte-identical, nothing unexpressed, and no change from
// the first rendering. The same from the vendor's LabSeed of it (stale
// values, an extra ECN class, another team's domain and drop-profile on
// an unmanaged port, config outside the scope): what was imported
// re-renders to a config with no change against the seed, and the import
// lists only the other team's objects.
func TestImportRoundTrip(t *testing.T) {
	for name, d := range goldenDevices(t) {
		t.Run(name, func(t *testing.T) {
			first, err := render.Render(d)
			if err != nil {
				t.Fatal(err)
			}
			running, err := huaweice.Scoped(first.Text)
			if err != nil {
				t.Fatal(err)
			}
			again, imp := roundTrip(t, d, running)
			if len(imp.Unexpressed) > 0 {
				t.Errorf("rendering has unexpressed lines: %+v", imp.Unexpressed)
			}
			if diff := cmp.Diff(string(first.Text), string(again.Text)); diff != "" {
				t.Errorf("re-rendering differs (-first +again):\n%s", diff)
			}
			ch, err := huaweice.Diff(d.Name, first.Text, again)
			if err != nil {
				t.Fatal(err)
			}
			if len(ch.Commands) > 0 {
				t.Errorf("change after the round trip: %q", ch.Commands)
			}

			seed := huaweice.LabSeed(first.Text)
			if seed == nil {
				t.Fatal("no lab seed")
			}
			scoped, err := huaweice.Saved(seed)
			if err != nil {
				t.Fatal(err)
			}
			fromSeed, imp := roundTrip(t, d, scoped)
			ch, err = huaweice.Diff(d.Name, seed, fromSeed)
			if err != nil {
				t.Fatal(err)
			}
			if len(ch.Commands) > 0 {
				t.Errorf("change against the lab seed after importing it: %q\nseed:\n%s\nrendered:\n%s", ch.Commands, seed, fromSeed.Text)
			}
			for _, u := range imp.Unexpressed {
				if !strings.Contains(u.Reason, "storage, which no imported port uses") && !strings.Contains(u.Reason, "bulk, which no imported port uses") && !strings.Contains(u.Reason, "100GE1/0/32 is not imported") {
					t.Errorf("seed line %d %q unexpressed: %s", u.Line, u.Text, u.Reason)
				}
			}
		})
	}
}

// TestSaved: a saved display current-configuration becomes its Scoped
// view; a file of another shape is refused.
func TestSaved(t *testing.T) {
	whole := "!Software Version V300R023C00\n#\nsysname ce1\n#\ndiffserv domain roce\n ip-dscp-inbound 26 phb af3 green\n#\ninterface 100GE1/0/1\n description server\n trust dscp\n trust upstream roce\n#\nreturn\n"
	got, err := huaweice.Saved([]byte(whole))
	if err != nil {
		t.Fatal(err)
	}
	want := "#\ndiffserv domain roce\n ip-dscp-inbound 26 phb af3 green\n#\ninterface 100GE1/0/1\n trust dscp\n trust upstream roce\n#\nreturn\n"
	if string(got) != want {
		t.Errorf("Saved = %q, want %q", got, want)
	}
	for _, bad := range []string{"", `{"PORT": {}}`, "hostname leaf1\n!\ninterface Ethernet1\n", "interface 100GE1/0/1\n   trust dscp\n#\nreturn\n"} {
		if _, err := huaweice.Saved([]byte(bad)); err == nil {
			t.Errorf("Saved(%q) accepted", bad)
		}
	}
}
