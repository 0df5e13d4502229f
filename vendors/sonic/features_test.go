package sonic_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/load"
)

// TestUnrenderedFeatures: the intent features SONiC does not render are
// LL133 on a SONiC device, naming the feature; the features-sonic
// scenario, which uses every feature SONiC renders, has none.
//   - match-all: SONiC classifies by one map per port (DSCP_TO_TC_MAP or
//     DOT1P_TO_TC_MAP); it has no class with several criteria.
//   - pfc-mode: PORT_QOS_MAP has no PFC mode; pfc_enable lists the
//     priorities, and no SONiC source shows DCBX negotiating PFC.
//   - cos-map: no SONiC source shows a port with both its DSCP and its
//     802.1p map bound, nor which classifies frames without an IP header.
func TestUnrenderedFeatures(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "features-sonic")
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
		{"every feature SONiC renders", "", "", ""},
		{"match all", `dscp      = [24, 26]`, "dscp      = [24, 26]\n    match     = \"all\"", "match-all (traffic_class ROCEv2)"},
		{"pfc mode off", `  pfc {
    watchdog {
      action`, `  pfc {
    mode = "off"
    watchdog {
      action`, "pfc-mode (pfc mode off)"},
		{"pfc mode auto", `  pfc {
    watchdog {}`, `  pfc {
    mode = "auto"
    watchdog {}`, "pfc-mode (pfc mode auto)"},
		{"cos beside dscp trust", `dscp      = [32, 34]`, "dscp      = [32, 34]\n    cos       = [4]", "cos-map (traffic_class"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			intentSrc := strings.Replace(string(src), tt.from, tt.to, 1)
			if tt.from != "" && intentSrc == string(src) {
				t.Fatalf("%q not in the features-sonic intent", tt.from)
			}
			if tt.name == "cos beside dscp trust" {
				// cos on one class needs a default CoS class (LL027).
				intentSrc = strings.Replace(intentSrc, "dscp          = \"default\"", "dscp          = \"default\"\n    cos           = \"default\"", 1)
			}
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
			case tt.want == "" && (len(got) > 0 || diags.HasErrors()):
				t.Errorf("errors on the features-sonic intent: %v", diags)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want) || !strings.Contains(got[0], `"sonic"`)):
				t.Errorf("LL133 = %q, want one naming %q (all: %v)", got, tt.want, diags)
			}
		})
	}
}
