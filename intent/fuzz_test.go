package intent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoad feeds arbitrary source to the loader and resolves the result
// against the default test inventory: bad input must give diagnostics,
// never a panic or a stack overflow. Seeds are the example fabric, the
// canonical scenario, every fixture but the two that evaluate up to a
// limit on purpose (each run of those or their mutants takes a good part
// of a second), issue 12's list nested 100,000 deep and sources nested
// 10,000 deep in each way hclsyntax recurses (deepSeeds; large inputs
// slow the fuzzer down); more inputs live in testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"../examples/ai-fabric/*.hcl", "../golden/canonical/*.hcl", "testdata/valid/*.hcl", "testdata/invalid/*.hcl"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			switch filepath.Base(p) {
			case DefaultInventoryFile, "LL092_elements.hcl", "LL093_budget.hcl":
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
	f.Add([]byte(deepSeeds(100_000)[0]))
	for _, s := range deepSeeds(10_000) {
		f.Add([]byte(s))
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

// deepSeeds are locals nested n levels deep in each construct that makes
// hclsyntax's parser or evaluator recurse: brackets, braces, parentheses,
// calls, blocks, templates, directives, unary and binary operators,
// conditionals, indexes and splats.
func deepSeeds(n int) []string {
	r := strings.Repeat
	return []string{
		"locals {\n  x = " + r("[", n) + "1" + r("]", n) + "\n}\n",
		"locals {\n  x = " + r("{a = ", n) + "1" + r("}", n) + "\n}\n",
		"locals {\n  x = " + r("(", n) + "1" + r(")", n) + "\n}\n",
		"locals {\n  x = " + r("abs(", n) + "1" + r(")", n) + "\n}\n",
		r("qos_profile \"p\" {\n", n) + r("}\n", n),
		"locals {\n  x = " + r(`"${`, n) + "1" + r(`}"`, n) + "\n}\n",
		"locals {\n  x = \"" + r("%{ if true }", n) + "a" + r("%{ endif }", n) + "\"\n}\n",
		"locals {\n  x = " + r("!", n) + "true\n}\n",
		"locals {\n  x = 1" + r(" + 1", n) + "\n}\n",
		"locals {\n  x = " + r("true ? 1 : ", n) + "1\n}\n",
		"locals {\n  x = local.y" + r("[0]", n) + r("[*]", n) + "\n}\n",
		"locals {\n  x = " + r("[for a in [1] : ", n) + "1" + r("]", n) + "\n}\n",
	}
}
