package sonic_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/load"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors/sonic"
)

var update = flag.Bool("update", false, "rewrite testdata/realworld/sonic/*/unexpressed.txt")

// realWorld is the corpus of real SONiC configs (testdata/realworld/sonic,
// each fixture's SOURCE.md says where its facts come from).
const realWorld = "../../testdata/realworld/sonic"

// TestRealWorld imports every fixture of the corpus: Saved(config_db.json)
// → Import with the fixture's inventory device; what the intent cannot
// say must be the fixture's unexpressed.txt (-update writes it), and
// where that is nothing, the rendering of the import plans to no change.
func TestRealWorld(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(realWorld, "*", "config_db.json"))
	if err != nil || len(dirs) < 6 {
		t.Fatalf("want at least 6 fixtures, have %d (%v)", len(dirs), err)
	}
	for _, f := range dirs {
		dir := filepath.Dir(f)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			file, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, "SOURCE.md")); err != nil {
				t.Errorf("no SOURCE.md: %v", err)
			}
			inv, diags := load.Inventory(filepath.Join(dir, "inventory.hcl"))
			if diags.HasErrors() || len(inv.Devices) != 1 {
				t.Fatalf("inventory: want one device: %v", diags)
			}
			dev := inv.Devices[0]
			running, err := sonic.Saved(file)
			if err != nil {
				t.Fatal(err)
			}
			im, err := sonic.Import(dev, running)
			if err != nil {
				t.Fatal(err)
			}
			if im.QoS == nil || len(im.Ports) != len(dev.Ports) {
				t.Errorf("imported %d QoS ports, the inventory has %d", len(im.Ports), len(dev.Ports))
			}
			var b strings.Builder
			for _, u := range im.Unexpressed {
				fmt.Fprintf(&b, "%d: %s: %s\n", u.Line, u.Text, u.Reason)
			}
			golden := filepath.Join(dir, "unexpressed.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("unexpressed differs from %s (-want +got):\n%s", golden, diff)
			}
			d, err := sonic.ImportedDevice(dev, im)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := render.Render(d)
			if err != nil {
				t.Fatalf("the imported intent does not render: %v", err)
			}
			ch, err := sonic.Diff(dev.Name, running, doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(im.Unexpressed) == 0 && !ch.Empty() {
				t.Errorf("nothing unexpressed, but the plan of the import is not empty:\n%s", ch.Diff)
			}
		})
	}
}
