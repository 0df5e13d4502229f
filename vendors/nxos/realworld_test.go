package nxos

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/nxos"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// realWorld is the corpus of public NX-OS RoCE configs
// (testdata/realworld/nxos/<name>/: running.cfg, inventory.hcl,
// SOURCE.md, unexpressed.txt).
const realWorld = "../../testdata/realworld/nxos"

// TestRealWorld: every fixture of the corpus is taken whole by the lab;
// Saved of its file and the lab's own `show running-config ipqos` import
// alike; the import, rendered with the fixture's inventory, diffs empty
// against both when nothing is unexpressed; and what is unexpressed is
// the fixture's unexpressed.txt (-update rewrites it).
func TestRealWorld(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(realWorld, "*", "running.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 6 {
		t.Fatalf("%d real-world fixtures, want at least 6", len(dirs))
	}
	for _, p := range dirs {
		dir := filepath.Dir(p)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			file, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, must := range []string{"SOURCE.md", "inventory.hcl"} {
				if _, err := os.Stat(filepath.Join(dir, must)); err != nil {
					t.Errorf("fixture lacks %s", must)
				}
			}
			dev := fixtureDevice(t, dir)
			saved, err := Saved(file)
			if err != nil {
				t.Fatalf("Saved: %v", err)
			}
			im, err := Import(dev, saved)
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			checkUnexpressed(t, dir, im.Unexpressed)
			if im.QoS == nil {
				t.Fatal("Import found no QoS")
			}
			d := fixtureIntent(dev, im)
			doc, err := render.Render(d)
			if err != nil {
				t.Fatalf("render the import: %v", err)
			}

			// The lab takes the file whole and shows the same QoS.
			ctx := t.Context()
			n, tgt := vendortest.StartLab(t, Vendor, file)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, doc)
			running, err := drv.Running(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// Saved of the lab's whole show running-config is its
			// show running-config ipqos.
			whole, err := Saved(n.Device().Running())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(lines(running), lines(whole)); diff != "" {
				t.Errorf("Saved of the lab's show running-config is not its ipqos view (-ipqos +Saved):\n%s", diff)
			}
			// The unexpressed lines are the file's.
			fileLines := strings.Split(string(file), "\n")
			for _, u := range im.Unexpressed {
				if got := strings.Join(strings.Fields(fileLines[u.Line-1]), " "); got != u.Text {
					t.Errorf("unexpressed line %d is %q, the file's is %q", u.Line, u.Text, got)
				}
			}
			fromLab, err := Import(dev, running)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(im.QoS, fromLab.QoS); diff != "" {
				t.Errorf("the lab's ipqos view imports otherwise than Saved of the file (-saved +lab):\n%s", diff)
			}
			if len(fromLab.Unexpressed) != len(im.Unexpressed) {
				t.Errorf("the lab's ipqos view has %d unexpressed lines, Saved's %d", len(fromLab.Unexpressed), len(im.Unexpressed))
			}
			own, err := Diff(dev.Name, saved, doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(own.Commands, ch.Commands); diff != "" {
				t.Errorf("the plan against the lab and the diff against Saved differ (-saved +lab):\n%s", diff)
			}
			if len(im.Unexpressed) == 0 && !ch.Empty() {
				t.Errorf("nothing is unexpressed but the plan changes: %q", ch.Commands)
			}
			t.Logf("round-trips: %v; %d unexpressed; %d commands", ch.Empty(), len(im.Unexpressed), len(ch.Commands))
		})
	}
}

// lines are the non-blank lines of text: what the device shows, whatever
// its blank lines.
func lines(text []byte) []string {
	var out []string
	for _, l := range strings.Split(string(text), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// fixtureDevice reads the one device of a fixture's inventory.
func fixtureDevice(t *testing.T, dir string) *inventory.Device {
	t.Helper()
	inv, diags := inventory.Load(filepath.Join(dir, "inventory.hcl"), inventory.Vendors{})
	if diags.HasErrors() {
		t.Fatalf("inventory: %s", diags.Error())
	}
	if len(inv.Devices) != 1 {
		t.Fatalf("inventory has %d devices, want 1", len(inv.Devices))
	}
	dev := inv.Devices[0]
	if dev.Vendor != Vendor || dev.Platform == nil {
		t.Fatalf("inventory device %s: vendor %q, platform %v", dev.Name, dev.Vendor, dev.Platform)
	}
	return dev
}

// fixtureIntent is the device an imported intent resolves to: the
// inventory's platform and ports, the import's QoS.
func fixtureIntent(dev *inventory.Device, im *vendors.Imported) *intent.Device {
	d := &intent.Device{Name: dev.Name, Vendor: dev.Vendor, Platform: dev.Platform, QoS: im.QoS, Options: im.Options,
		Buffers: &intent.Buffers{Profile: "default", Headroom: intent.HeadroomPolicy{Auto: true}}}
	byName := map[string]*inventory.Port{}
	for _, p := range dev.Ports {
		byName[p.Name] = p
	}
	for _, ip := range im.Ports {
		p := intent.Port{Name: ip.Name, QoS: im.QoS}
		if ip.QoS != nil {
			p.QoS = ip.QoS
		}
		if ip := byName[ip.Name]; ip != nil {
			p.Speed, p.Cable = ip.Speed, ip.Cable
		}
		d.Ports = append(d.Ports, p)
	}
	return d
}

// checkUnexpressed compares got with the fixture's unexpressed.txt, one
// "LINE: TEXT\n    REASON" per entry; -update writes it.
func checkUnexpressed(t *testing.T, dir string, got []vendors.Unexpressed) {
	t.Helper()
	var b strings.Builder
	for _, u := range got {
		fmt.Fprintf(&b, "%d: %s\n    %s\n", u.Line, u.Text, u.Reason)
	}
	path := filepath.Join(dir, "unexpressed.txt")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestRealWorld -update writes it)", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("unexpressed lines differ from %s (-want +got):\n%s", path, diff)
	}
}
