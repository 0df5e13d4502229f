package huaweice_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/load"
	_ "github.com/lossless-net/lossless/vendors/all"
)

// TestUnrenderedFeatures: a CloudEngine device given a feature
// renderers/huaweice does not render is refused at load (LL133), naming
// the feature: match-all (a DiffServ domain has no match logic),
// min-bandwidth (no source gives a guaranteed queue rate beside DRR), a
// watchdog on some priorities (deadlock detection watches every PFC
// priority) and ECN probability 0 (discard-percentage 1–100); the
// features it renders load (WRED colours and thresholds in percent among
// them).
func TestUnrenderedFeatures(t *testing.T) {
	dir := "../../golden/huawei-families"
	src, err := os.ReadFile(filepath.Join(dir, "intent.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	inv, err := os.ReadFile(filepath.Join(dir, "inventory.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	rdma := "traffic_class \"ROCEv2\" {\n    id       = 3"
	for _, tt := range []struct{ name, from, to, want string }{
		{"match all", rdma, rdma + "\n    match = \"all\"", "match-all"},
		{"min bandwidth", rdma, rdma + "\n    min_bandwidth = \"10%\"", "min-bandwidth"},
		{"watchdog priorities", "watchdog {", "watchdog {\n      priorities = [3]", "watchdog-priorities"},
		{"ecn probability 0", "max_probability = 10", "max_probability = 0", "ecn-zero-probability"},
		{"shape renders", rdma, rdma + "\n    shape = \"10G\"", ""},
		{"pfc auto renders", "pfc {", "pfc {\n    mode = \"auto\"", ""},
		{"wred colours render", "max_probability = 10", "max_probability = 10\n      yellow {\n        min_threshold = \"60%\"\n        max_threshold = \"80%\"\n        max_probability = 20\n        drop = true\n      }", ""},
		{"ecn percent renders", "min_threshold   = \"150KB\"\n      max_threshold   = \"3000KB\"", "min_threshold = \"50%\"\n      max_threshold = \"80%\"", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(string(src), tt.from, tt.to, 1)
			if text == string(src) {
				t.Fatalf("%q not in the intent", tt.from)
			}
			tmp := t.TempDir()
			for name, b := range map[string][]byte{"intent.hcl": []byte(text), "inventory.hcl": inv} {
				if err := os.WriteFile(filepath.Join(tmp, name), b, 0o644); err != nil {
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
			case tt.want == "" && len(got) > 0:
				t.Errorf("LL133 on a rendered feature: %q", got)
			case tt.want != "" && (len(got) == 0 || !strings.Contains(got[0], tt.want)):
				t.Errorf("LL133 = %q, want one naming %q (all: %v)", got, tt.want, diags)
			}
		})
	}
}
