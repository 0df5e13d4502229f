package sonic

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// TestRealWorldSeeds: every fixture of the SONiC real-world corpus
// (testdata/realworld/sonic, SONiC's own template outputs with the rows
// buffermgrd adds) seeds the lab whole, on the model its inventory names,
// and the seeded CONFIG_DB is YANG-valid as the lab checks a patch's
// result (reference/sonic.md §6, §7.2): what `config apply-patch` would
// find on such a switch.
func TestRealWorldSeeds(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "realworld", "sonic", "*", "config_db.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	platform := regexp.MustCompile(`(?m)^\s*platform\s*=\s*"([^"]+)"`)
	k, err := NewKind()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		dir := filepath.Dir(f)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			seed, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			inv, err := os.ReadFile(filepath.Join(dir, "inventory.hcl"))
			if err != nil {
				t.Fatal(err)
			}
			m := platform.FindSubmatch(inv)
			if m == nil {
				t.Fatal("inventory.hcl names no platform")
			}
			d, err := k.newSpecDevice("", seed, device.Spec{Model: string(m[1])})
			if err != nil {
				t.Fatal(err)
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			if msg := d.schema.validate(d.db); msg != "" {
				t.Errorf("the seeded config is not YANG-valid: %s", msg)
			}
		})
	}
}
