package huaweice

import (
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestPlatformPrompts: the embedded platform tells user view from the
// system and sub-views in every prompt form of reference/huawei-ce.md
// §3.1, including the two-stage marks the stock huawei_vrp pattern misses.
func TestPlatformPrompts(t *testing.T) {
	var def struct {
		Default struct {
			Levels map[string]struct {
				Pattern string `yaml:"pattern"`
			} `yaml:"privilege-levels"`
			Failed []string `yaml:"failed-when-contains"`
		} `yaml:"default"`
	}
	if err := yaml.Unmarshal(platformYAML, &def); err != nil {
		t.Fatal(err)
	}
	exec := regexp.MustCompile(def.Default.Levels["exec"].Pattern)
	conf := regexp.MustCompile(def.Default.Levels["configuration"].Pattern)
	for _, p := range []string{"[~HUAWEI]", "[*HUAWEI]", "[*HUAWEI-100GE1/0/1]", "[~HUAWEI-dcb-pfc-default]", "[*HUAWEI-drop-roce-ecn]",
		"[*DeviceA-dsdomain-ds1]", "[*DeviceA-port-group-all_using]", "[*host-100GE1/1/1:1]", "[~host-100GE3/3/3.111]", "[HUAWEI]"} {
		if !conf.MatchString(p) || exec.MatchString(p) {
			t.Errorf("%s: configuration %v, exec %v", p, conf.MatchString(p), exec.MatchString(p))
		}
	}
	for _, p := range []string{"<HUAWEI>", "<ce8850-test>"} {
		if !exec.MatchString(p) || conf.MatchString(p) {
			t.Errorf("%s: exec %v, configuration %v", p, exec.MatchString(p), conf.MatchString(p))
		}
	}
	// §3.3: both spellings of the error prefix and the numbered form.
	for _, out := range []string{"Error: Unrecognized command found at '^' position.", "Error:Too many parameters found at '^' position.", "Error[1]: Incomplete command found at '^' position."} {
		found := false
		for _, f := range def.Default.Failed {
			found = found || regexp.MustCompile(regexp.QuoteMeta(f)).MatchString(out)
		}
		if !found {
			t.Errorf("%q is not a failure", out)
		}
	}
}
