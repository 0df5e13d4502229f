package eos_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/eos"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all"
	"github.com/lossless-net/lossless/vendors/eos"
)

// goldenDirs are the golden scenarios' intent directories by name
// (golden/golden_test.go: ai-fabric's inputs are examples/ai-fabric).
func goldenDirs(t *testing.T) map[string]string {
	t.Helper()
	entries, err := os.ReadDir("../../golden")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		dir := filepath.Join("../../golden", e.Name())
		if e.Name() == "ai-fabric" {
			dir = "../../examples/ai-fabric"
		}
		out[e.Name()] = dir
	}
	return out
}

// reimported is d with the QoS, ports, buffers and options im read: the
// resolved device an imported intent gives (headroom and platform kept).
func reimported(t *testing.T, d *intent.Device, im *vendors.Imported) *intent.Device {
	t.Helper()
	c := *d
	c.Options = im.Options
	if im.Buffers != nil {
		c.Buffers = im.Buffers
	}
	c.QoS = im.QoS
	if c.QoS == nil {
		t.Fatalf("%s: import read no QoS", d.Name)
	}
	byName := map[string]vendors.ImportedPort{}
	for _, p := range im.Ports {
		byName[p.Name] = p
	}
	c.Ports = nil
	for _, p := range d.Ports {
		ip, ok := byName[p.Name]
		if !ok {
			t.Fatalf("%s: import lost port %s", d.Name, p.Name)
		}
		p.QoS = c.QoS
		if ip.QoS != nil {
			p.QoS = ip.QoS
		}
		c.Ports = append(c.Ports, p)
	}
	if len(im.Ports) != len(d.Ports) {
		t.Fatalf("%s: import read %d ports, the device has %d", d.Name, len(im.Ports), len(d.Ports))
	}
	return &c
}

func inventoryDevice(inv *inventory.Inventory, name string) *inventory.Device {
	for _, d := range inv.Devices {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// roundTrip imports running (a Running result) for device d, renders
// the imported device and wants Diff(running, rendering) empty; it
// returns the rendering.
func roundTrip(t *testing.T, d *intent.Device, dev *inventory.Device, running []byte) (*vendors.Imported, *config.Document) {
	t.Helper()
	im, err := eos.Import(dev, running)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := render.Render(reimported(t, d, im))
	if err != nil {
		t.Fatalf("render the imported device: %v", err)
	}
	ch, err := eos.Diff(d.Name, running, doc)
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Empty() {
		t.Errorf("%s: the imported intent changes the device:\n%s\n%s", d.Name, ch.Diff, strings.Join(ch.Commands, "\n"))
	}
	return im, doc
}

// TestImportRoundTrip renders every EOS device of every golden scenario,
// imports the rendering, renders the import again and wants the same
// bytes and an empty change; and does the same from LabSeed's realistic
// config of each rendering, wanting an empty change against the seed.
func TestImportRoundTrip(t *testing.T) {
	for name, dir := range goldenDirs(t) {
		res, diags := load.Fabric(dir, load.Options{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", name, diags.Error())
		}
		for _, d := range res.Devices {
			if d.Vendor != eos.Vendor {
				continue
			}
			t.Run(name+"/"+d.Name, func(t *testing.T) {
				want, err := render.Render(d)
				if err != nil {
					t.Fatal(err)
				}
				dev := inventoryDevice(res.Inventory, d.Name)
				running, err := eos.QoSView(want.Text)
				if err != nil {
					t.Fatal(err)
				}
				im, got := roundTrip(t, d, dev, running)
				if diff := cmp.Diff(string(want.Text), string(got.Text)); diff != "" {
					t.Errorf("re-rendering differs (-rendered +re-rendered):\n%s", diff)
				}
				if len(im.Unexpressed) > 0 {
					t.Errorf("the rendering has lines import cannot say: %+v", im.Unexpressed)
				}

				seed, err := eos.QoSView(eos.LabSeed(want.Text))
				if err != nil {
					t.Fatal(err)
				}
				im, _ = roundTrip(t, d, dev, seed)
				// The seed's operator objects are listed, never dropped.
				for _, obj := range []string{"class-map type qos match-any OPS_MGMT", "platform trident mmu queue profile OPS_BUFFERS"} {
					if !slices.ContainsFunc(im.Unexpressed, func(u vendors.Unexpressed) bool { return u.Text == obj }) {
						t.Errorf("seed: %q not in Unexpressed %+v", obj, im.Unexpressed)
					}
				}
			})
		}
	}
}

// minFixtures is the corpus size issue 13 asks for.
const minFixtures = 6

var update = flag.Bool("update", false, "rewrite testdata/realworld/eos/*/unexpressed.txt")

// TestRealWorld imports every fixture of testdata/realworld/eos: the
// saved running config through Saved and Import, the import rendered on
// the fixture's inventory device, and the change from the fixture's
// scope to that rendering empty when nothing was unexpressed; the
// unexpressed lines are compared with the fixture's unexpressed.txt
// (-update writes it).
func TestRealWorld(t *testing.T) {
	dirs, err := filepath.Glob("../../testdata/realworld/eos/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < minFixtures {
		t.Fatalf("%d real-world fixtures, want at least 6", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			file, err := os.ReadFile(filepath.Join(dir, "running.cfg"))
			if err != nil {
				t.Fatal(err)
			}
			running, err := eos.Saved(file)
			if err != nil {
				t.Fatal(err)
			}
			inv, diags := load.Inventory(filepath.Join(dir, "inventory.hcl"))
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if len(inv.Devices) != 1 {
				t.Fatalf("inventory has %d devices, want 1", len(inv.Devices))
			}
			dev := inv.Devices[0]
			im, err := eos.Import(dev, running)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, u := range im.Unexpressed {
				fmt.Fprintf(&b, "%d: %s\n    %s\n", u.Line, u.Text, u.Reason)
			}
			path := filepath.Join(dir, "unexpressed.txt")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("unexpressed (-%s +got):\n%s", path, diff)
			}
			if im.QoS == nil {
				t.Fatal("import read no QoS")
			}
			d := &intent.Device{Name: dev.Name, Vendor: dev.Vendor, Platform: dev.Platform, Options: im.Options, QoS: im.QoS}
			for _, p := range im.Ports {
				q := im.QoS
				if p.QoS != nil {
					q = p.QoS
				}
				ip := intent.Port{Name: p.Name, QoS: q}
				for _, ipv := range dev.Ports {
					if ipv.Name == p.Name {
						ip.Speed, ip.Cable = ipv.Speed, ipv.Cable
					}
				}
				d.Ports = append(d.Ports, ip)
			}
			doc, err := render.Render(d)
			if err != nil {
				t.Fatalf("render the import: %v", err)
			}
			ch, err := eos.Diff(d.Name, running, doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(im.Unexpressed) == 0 && !ch.Empty() {
				t.Errorf("nothing unexpressed, but the import changes the device:\n%s", ch.Diff)
			}
			// What the import says is what the device does: its rendering
			// changes nothing the import read (only lines it listed).
			if !ch.Empty() {
				t.Logf("change from the fixture (it has unexpressed lines):\n%s", ch.Diff)
			}
		})
	}
}

// TestSaved: a saved show running-config gives Running's view; a file
// of another shape is refused with the reason.
func TestSaved(t *testing.T) {
	whole := "! Command: show running-config\n! device: leaf1 (DCS-7060CX-32S, EOS-4.30.0F)\n!\nhostname leaf1\n!\ninterface Ethernet1\n   description host\n   qos trust dscp\n!\nend\n"
	got, err := eos.Saved([]byte(whole))
	if err != nil {
		t.Fatal(err)
	}
	if want := "interface Ethernet1\n   qos trust dscp\n"; string(got) != want {
		t.Errorf("Saved = %q, want %q", got, want)
	}
	for name, file := range map[string]string{
		"empty":      "  \n",
		"config_db":  `{"PORT": {}}`,
		"no stanza":  "qos map dscp 24 to traffic-class 3\n",
		"bad indent": "hostname x\n      qos trust dscp\n   x\n",
	} {
		if _, err := eos.Saved([]byte(file)); err == nil || !strings.HasPrefix(err.Error(), "saved eos config: ") {
			t.Errorf("%s: Saved error %v, want a refusal", name, err)
		}
	}
}

// TestImportLines: what Import makes of single lines the renderer never
// writes in that form.
func TestImportLines(t *testing.T) {
	tests := []struct {
		name, running string
		unexpressed   []string // texts
		options       map[string]string
	}{
		{"no trust line", "interface Ethernet1\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n", nil,
			map[string]string{render.OptionTrust: render.TrustPortDefault}},
		{"untrusted", "interface Ethernet1\n   no qos trust\n", []string{"no qos trust"}, nil},
		{"bandwidth on a strict queue", "interface Ethernet1\n   qos trust dscp\n   !\n   tx-queue 2\n      bandwidth percent 10\n", []string{"bandwidth percent 10"}, nil},
		{"round-robin without a share", "interface Ethernet1\n   qos trust dscp\n   !\n   tx-queue 2\n      no priority\n", []string{"no priority"}, nil},
		{"traffic class 7", "interface Ethernet1\n   qos trust dscp\nqos map dscp 48 to traffic-class 7\n", []string{"qos map dscp 48 to traffic-class 7"}, nil},
		{"PFC without a no-drop priority", "interface Ethernet1\n   qos trust dscp\n   priority-flow-control on\n", []string{"priority-flow-control on"}, nil},
		{"moved queue", "interface Ethernet1\n   qos trust dscp\nqos map traffic-class 3 to tx-queue 4\nqos map traffic-class 6 to tx-queue 6\n",
			[]string{"qos map traffic-class 3 to tx-queue 4"}, nil},
		{"mixed trust", "interface Ethernet1\n   qos trust dscp\ninterface Ethernet2\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n",
			[]string{"interface Ethernet2"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im, err := eos.Import(nil, []byte(tt.running))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range im.Unexpressed {
				got = append(got, u.Text)
			}
			if diff := cmp.Diff(tt.unexpressed, got); diff != "" {
				t.Errorf("unexpressed (-want +got):\n%s\n%+v", diff, im.Unexpressed)
			}
			if diff := cmp.Diff(tt.options, im.Options); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
