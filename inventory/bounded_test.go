package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent/bounded"
	"github.com/lossless-net/lossless/internal/diag"
)

// TestBoundedInput checks that the inventory is held to the limits of
// package bounded: each over-limit input gives one diagnostic with the
// limit's rule, at the place that goes over.
func TestBoundedInput(t *testing.T) {
	r := strings.Repeat
	dev := "device \"a\" {\n  vendor   = \"nxos\"\n  platform = \"N9K-C9364D-GX2A\"\n  address  = \"192.0.2.1\"\n"
	for name, tt := range map[string]struct {
		src  string
		clab bool
		rule diag.Rule
		line int
	}{
		"deep roles":       {dev + "  roles = " + r("[", 100_000) + r("]", 100_000) + "\n}\n", false, bounded.RuleNesting, 5},
		"deep blocks":      {r("device \"a\" {\n", 200) + r("}\n", 200), false, bounded.RuleNesting, 129},
		"long tags":        {dev + "  tags = [" + r("\"t\", ", 1_000_000) + "]\n}\n", false, bounded.RuleElements, 5},
		"huge port number": {dev + "  port = 1e400\n}\n", false, bounded.RuleElements, 5},
		"many devices":     {r("device \"a\" {}\n", bounded.MaxElements+1), false, bounded.RuleElements, 1},
		"long topology":    {"name: x\ntopology:\n  nodes:\n" + r("    - a\n", bounded.MaxItems), true, bounded.RuleBudget, 1},
	} {
		t.Run(name, func(t *testing.T) {
			parse := Parse
			if tt.clab {
				parse = ParseContainerlab
			}
			_, diags := parse([]byte(tt.src), "inv.hcl", testVendors)
			if len(diags) == 0 || diag.RuleOf(diags[0]) != tt.rule || diags[0].Subject == nil || diags[0].Subject.Start.Line != tt.line {
				t.Fatalf("got %v, want %s on line %d", diags, tt.rule, tt.line)
			}
		})
	}
}

// TestLoadTooLarge checks that Load refuses a file over the size limit
// before reading it.
func TestLoadTooLarge(t *testing.T) {
	for _, name := range []string{"inventory.hcl", "lab.clab.yml"} {
		path := filepath.Join(t.TempDir(), name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(bounded.MaxFileSize + 1); err != nil {
			t.Fatal(err)
		}
		f.Close()
		inv, diags := Load(path, testVendors)
		if inv != nil || len(diags) != 1 || diag.RuleOf(diags[0]) != bounded.RuleFileSize {
			t.Errorf("%s: %v, %v", name, inv, diags)
		}
	}
}
