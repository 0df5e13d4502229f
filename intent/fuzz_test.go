package intent

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary source to the loader and resolves the result
// against the default test inventory: bad input must give diagnostics,
// never a panic. Seeds are the example fabric, the canonical scenario and
// every fixture; more inputs live in testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"../examples/ai-fabric/*.hcl", "../golden/canonical/*.hcl", "testdata/valid/*.hcl", "testdata/invalid/*.hcl"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if filepath.Base(p) == DefaultInventoryFile {
				continue
			}
			seeds = append(seeds, p)
		}
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	inv := testInventory(f, "default")
	f.Fuzz(func(t *testing.T, src []byte) {
		fab, _ := LoadSources(map[string][]byte{"fuzz.hcl": src}, map[string]string{"ecn_max": "3000KB"})
		devs, _ := Resolve(fab, inv)
		for _, d := range devs {
			if d.QoS == nil || d.Buffers == nil {
				t.Fatalf("device %s resolved without QoS or buffers", d.Name)
			}
			if _, err := d.MarshalIndent(); err != nil {
				t.Fatalf("device %s: %v", d.Name, err)
			}
		}
	})
}
