package huaweice

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/lab/device"
	labce "github.com/lossless-net/lossless/internal/lab/huaweice"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/huaweice"
	"github.com/lossless-net/lossless/vendors"
)

var update = flag.Bool("update", false, "rewrite testdata/realworld/huaweice/*/unexpressed.txt")

// realWorldDir holds the corpus of public CloudEngine configs (issue 13).
var realWorldDir = filepath.Join("..", "..", "testdata", "realworld", "huaweice")

// unexpressedText prints an import's Unexpressed, one line each.
func unexpressedText(us []vendors.Unexpressed) string {
	var b strings.Builder
	for _, u := range us {
		fmt.Fprintf(&b, "%d: %s\n\t%s\n", u.Line, u.Text, u.Reason)
	}
	return b.String()
}

// fixtureDevice is the one device of a fixture's inventory.
func fixtureDevice(t *testing.T, dir string) *inventory.Device {
	t.Helper()
	inv, diags := load.Inventory(filepath.Join(dir, "inventory.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(inv.Devices) != 1 || inv.Devices[0].Vendor != Vendor || inv.Devices[0].Platform == nil {
		t.Fatalf("inventory: want one %s device of a catalog platform, have %d", Vendor, len(inv.Devices))
	}
	return inv.Devices[0]
}

// importedDevice is what the imported intent resolves to on the
// fixture's inventory: its device with the imported QoS, buffers and
// options on the imported ports (speeds and cables from the inventory).
func importedDevice(dev *inventory.Device, imp *vendors.Imported) *intent.Device {
	d := &intent.Device{Name: dev.Name, Vendor: dev.Vendor, Platform: dev.Platform, QoS: imp.QoS, Buffers: imp.Buffers, Options: imp.Options}
	if d.Buffers == nil {
		d.Buffers = &intent.Buffers{Headroom: intent.HeadroomPolicy{Auto: true}}
	}
	inv := map[string]*inventory.Port{}
	for _, p := range dev.Ports {
		inv[p.Name] = p
	}
	for _, ip := range imp.Ports {
		p := intent.Port{Name: ip.Name, QoS: ip.QoS}
		if p.QoS == nil {
			p.QoS = imp.QoS
		}
		if ip := inv[ip.Name]; ip != nil {
			p.Speed, p.Cable = ip.Speed, ip.Cable
		}
		d.Ports = append(d.Ports, p)
	}
	return d
}

// TestRealWorld: every fixture of the corpus is taken whole by the lab
// (each line through its grammar, as a device seeded with it), its
// Saved view imports with the Unexpressed of unexpressed.txt (-update
// writes it), and when nothing is unexpressed the imported QoS renders to
// a config with no change against the fixture and against the lab's own
// display of it.
func TestRealWorld(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(realWorldDir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 6 {
		t.Fatalf("%d fixtures in %s, want at least 6", len(dirs), realWorldDir)
	}
	kind, err := labce.NewKind()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			running, err := os.ReadFile(filepath.Join(dir, "running.cfg"))
			if err != nil {
				t.Fatal(err)
			}
			dev := fixtureDevice(t, dir)
			ports := make([]string, 0, len(dev.Ports))
			for _, p := range dev.Ports {
				ports = append(ports, p.Name)
			}
			ld, err := kind.NewSpec(dev.Name, running, device.Spec{Model: dev.Model, Ports: ports})
			if err != nil {
				t.Fatalf("the lab refuses the fixture: %v", err)
			}
			scoped, err := Saved(running)
			if err != nil {
				t.Fatal(err)
			}
			imp, err := Import(dev, scoped)
			if err != nil {
				t.Fatal(err)
			}
			// The lines are the Saved view's; name them in the file.
			got := unexpressedText(fileLines(t, running, scoped, imp.Unexpressed))
			golden := filepath.Join(dir, "unexpressed.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("unexpressed differs from %s (-want +got):\n%s", golden, diff)
			}
			if imp.QoS == nil {
				if len(imp.Unexpressed) == 0 {
					t.Error("nothing imported and nothing unexpressed")
				}
				return
			}
			doc, err := render.Render(importedDevice(dev, imp))
			if err != nil {
				t.Fatalf("render the import: %v", err)
			}
			for name, text := range map[string][]byte{"fixture": running, "lab display": ld.Running()} {
				ch, err := Diff(dev.Name, text, doc)
				if err != nil {
					t.Fatal(err)
				}
				if len(imp.Unexpressed) == 0 && len(ch.Commands) > 0 {
					t.Errorf("change against the %s after importing it: %q\nrendered:\n%s", name, ch.Commands, doc.Text)
				}
			}
		})
	}
}

// fileLines maps the lines of the Saved view that us names to the lines
// of the whole file: the n-th occurrence of a line's text under the same
// section. Scoped keeps the file's lines in order, so the k-th scoped
// line is a later file line than the (k-1)-th.
func fileLines(t *testing.T, file, scoped []byte, us []vendors.Unexpressed) []vendors.Unexpressed {
	t.Helper()
	var fileNs []int
	var fileTexts []string
	_ = scan(file, func(n, _ int, body string) error {
		fileNs, fileTexts = append(fileNs, n), append(fileTexts, canon(body))
		return nil
	})
	mapping := map[int]int{}
	i := 0
	_ = scan(scoped, func(n, _ int, body string) error {
		c := canon(body)
		for i < len(fileTexts) && fileTexts[i] != c {
			i++
		}
		if i < len(fileTexts) {
			mapping[n] = fileNs[i]
			i++
		}
		return nil
	})
	out := make([]vendors.Unexpressed, len(us))
	for k, u := range us {
		n, ok := mapping[u.Line]
		if !ok {
			t.Fatalf("unexpressed line %d %q is not a line of the file", u.Line, u.Text)
		}
		u.Line = n
		out[k] = u
	}
	return out
}
