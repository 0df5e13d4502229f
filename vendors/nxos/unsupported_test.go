package nxos_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/load"
	_ "github.com/lossless-net/lossless/vendors/nxos"
)

// TestUnsupportedFeatures: each intent feature NX-OS does not render
// (vendors/nxos register.go says why) is LL133 on an NX-OS device, naming
// the feature; the golden scenario that uses every feature NX-OS renders
// loads without it.
func TestUnsupportedFeatures(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "features-nxos")
	src, err := os.ReadFile(filepath.Join(dir, "intent.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	inv, err := os.ReadFile(filepath.Join(dir, "inventory.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, from, to, want string
	}{
		{"every feature NX-OS renders", "", "", ""},
		// A `match cos` beside `match dscp` would match IP packets by
		// their PCP too, not only frames without an IP header.
		{"cos map", "    dscp      = [24, 26]\n", "    dscp      = [24, 26]\n    cos       = [3]\n", "cos-map (traffic_class ROCEv2)"},
		{"shape", "    min_bandwidth = \"1%\"\n", "    min_bandwidth = \"1%\"\n    shape         = \"10G\"\n", "shape (traffic_class CLUSTER)"},
		{"watchdog priorities", "  pfc {\n    mode = \"auto\"\n    watchdog {}\n", "  pfc {\n    mode = \"auto\"\n    watchdog {\n      priorities = [3]\n    }\n", "watchdog-priorities"},
		{"ECN without max_probability", "      max_probability = 7\n", "", "ecn-default-probability (traffic_class ROCEv2)"},
		{"ECN probability 0", "      max_probability = 7\n", "      max_probability = 0\n", "ecn-zero-probability (traffic_class ROCEv2)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			intentSrc := strings.Replace(string(src), tt.from, tt.to, 1)
			if tt.from != "" && intentSrc == string(src) {
				t.Fatalf("%q not in %s", tt.from, dir)
			}
			tmp := t.TempDir()
			for name, b := range map[string]string{"intent.hcl": intentSrc, "inventory.hcl": string(inv)} {
				if err := os.WriteFile(filepath.Join(tmp, name), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, diags := load.Fabric(tmp, load.Options{})
			var got []string
			for _, d := range diags {
				if diag.RuleOf(d) == load.RuleFeature {
					got = append(got, d.Detail)
				}
			}
			switch {
			case tt.want == "" && diags.HasErrors():
				t.Errorf("the scenario does not load: %v", diags)
			case tt.want != "" && (len(got) == 0 || !strings.Contains(got[0], tt.want)):
				t.Errorf("LL133 = %q, want one naming %q (all: %v)", got, tt.want, diags)
			}
		})
	}
}
