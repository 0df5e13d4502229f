package intent

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// TestWriteRoundTrip: every device QoS and buffer profile of the golden
// scenarios, written by WriteQoS and WriteBuffers and loaded back,
// resolves to the same state; and for every pair of devices, the
// override WriteQoSOverride writes turns one's QoS into the other's (or
// says it cannot).
func TestWriteRoundTrip(t *testing.T) {
	dirs, _ := filepath.Glob("../golden/*/inventory.hcl")
	dirs = append(dirs, "../examples/ai-fabric/inventory.hcl")
	var all []*QoS
	var bufs []*Buffers
	for _, inv := range dirs {
		devs, _, _ := loadDirWarn(t, filepath.Dir(inv), nil, true)
		for _, d := range devs {
			all = append(all, d.QoS)
			for _, p := range d.Ports {
				if p.QoS != d.QoS {
					all = append(all, p.QoS)
				}
			}
			if d.Buffers != nil {
				bufs = append(bufs, d.Buffers)
			}
		}
	}
	// The features beyond the core, in two profiles of their own.
	devs, diags := loadString(t, featureProfiles, nil)
	if diags != "" {
		t.Fatalf("feature profiles: %s", diags)
	}
	for _, d := range devs {
		all = append(all, d.QoS)
	}
	if len(all) < 10 {
		t.Fatalf("only %d QoS profiles found", len(all))
	}
	ignore := cmp.Options{cmpopts.IgnoreTypes(hcl.Range{}), cmpopts.IgnoreFields(QoS{}, "Profile"), cmpopts.IgnoreFields(Buffers{}, "Profile"), cmpopts.EquateEmpty()}
	for i, q := range all {
		got := resolveWritten(t, q, nil, nil)
		if diff := cmp.Diff(q, got, ignore); diff != "" {
			t.Errorf("QoS %d (%s) written and read back (-want +got):\n%s\n%s", i, q.Profile, diff, writtenQoS(q))
		}
	}
	for i, b := range bufs {
		f := hclwrite.NewEmptyFile()
		WriteBuffers(f.Body().AppendNewBlock("buffer_profile", []string{"b"}).Body(), b)
		src := string(f.Bytes()) + "\n" + writtenQoS(all[0]) + `
assign "all" {
  devices = "*"
  qos     = qos_profile.p
  buffers = buffer_profile.b
}
`
		devs, diags := loadString(t, src, nil)
		if len(devs) == 0 {
			t.Fatalf("buffers %d: %s\n%s", i, diags, src)
		}
		if diff := cmp.Diff(b, devs[0].Buffers, ignore); diff != "" {
			t.Errorf("buffers %d written and read back (-want +got):\n%s\n%s", i, diff, f.Bytes())
		}
	}
	expressed := 0
	for i, base := range all {
		for j, q := range all {
			if i == j {
				continue
			}
			ov := hclwrite.NewEmptyFile()
			if !WriteQoSOverride(ov.Body(), base, q) {
				continue
			}
			expressed++
			got := resolveWritten(t, base, ov.Bytes(), nil)
			if diff := cmp.Diff(q, got, ignore); diff != "" {
				t.Errorf("override %d→%d (-want +got):\n%s\noverride:\n%s", i, j, diff, ov.Bytes())
			}
		}
	}
	t.Logf("%d profiles, %d buffer profiles, %d of %d overrides expressible", len(all), len(bufs), expressed, len(all)*(len(all)-1))
	if expressed == 0 {
		t.Error("no override was expressible")
	}
}

func writtenQoS(q *QoS) string {
	f := hclwrite.NewEmptyFile()
	WriteQoS(f.Body().AppendNewBlock("qos_profile", []string{"p"}).Body(), q)
	return string(hclwrite.Format(f.Bytes()))
}

// resolveWritten loads q written as a profile, with override as leaf1's
// qos override, and returns leaf1's resolved QoS.
func resolveWritten(t *testing.T, q *QoS, override []byte, _ any) *QoS {
	t.Helper()
	src := writtenQoS(q) + fmt.Sprintf(`
assign "all" {
  devices = ["leaf1"]
  qos     = qos_profile.p
  device "leaf1" {
    qos {
%s
    }
  }
}
`, override)
	fab, diags := LoadSources(map[string][]byte{"test.hcl": []byte(src)}, nil)
	if diags.HasErrors() {
		t.Fatalf("load:\n%s\n%s", diagText(diags), src)
	}
	devs, _ := Resolve(fab, testInventory(t, "default"))
	for _, d := range devs {
		if d.Name == "leaf1" {
			return d.QoS
		}
	}
	t.Fatalf("leaf1 not resolved:\n%s", src)
	return nil
}

const featureProfiles = `
qos_profile "by_cos" {
  trust = "cos"
  traffic_class "bulk" {
    id            = 0
    cos           = ["default", 0, 1, 2]
    weight        = 40
    min_bandwidth = "10%"
  }
  traffic_class "rdma" {
    id       = 3
    cos      = [3]
    lossless = true
    weight   = 60
    ecn {
      min_threshold = "300KB"
      max_threshold = "300KB"
    }
  }
  traffic_class "cluster" {
    id            = 7
    cos           = [7]
    priority      = "strict"
    min_bandwidth = "1%"
    shape         = "10G"
  }
  pfc {
    mode = "auto"
    watchdog {
      priorities = [3]
    }
  }
}

qos_profile "mixed" {
  traffic_class "bulk" {
    id    = 0
    dscp  = "default"
    cos   = "default"
    match = "all"
    ecn {
      min_threshold   = "50%"
      max_threshold   = "80%"
      max_probability = 30
    }
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    cos      = [3]
    lossless = true
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 0
      yellow {
        min_threshold   = "1MB"
        max_threshold   = "2MB"
        max_probability = 5
      }
      red {
        min_threshold   = "1MB"
        max_threshold   = "2MB"
        max_probability = 10
        drop            = true
      }
    }
  }
  pfc {
    mode = "off"
  }
}

assign "cos" {
  devices = ["leaf1", "leaf2", "spine1"]
  qos     = qos_profile.by_cos
}

assign "mixed" {
  devices = ["ce1"]
  qos     = qos_profile.mixed
}
`

// TestFeatures: a device's Features name every capability beyond the
// core its intent uses, each once, sorted.
func TestFeatures(t *testing.T) {
	devs, diags := loadString(t, featureProfiles, nil)
	if diags != "" {
		t.Fatal(diags)
	}
	got := map[string][]Feature{}
	for _, d := range devs {
		for _, u := range d.Features() {
			got[d.Name] = append(got[d.Name], u.Feature)
		}
	}
	want := map[string][]Feature{
		"leaf1":  {FeatureECNDefaultProbability, FeatureMinBandwidth, FeaturePFCMode, FeatureShape, FeatureTrustCoS, FeatureWatchdogPriorities},
		"leaf2":  {FeatureECNDefaultProbability, FeatureMinBandwidth, FeaturePFCMode, FeatureShape, FeatureTrustCoS, FeatureWatchdogPriorities},
		"spine1": {FeatureECNDefaultProbability, FeatureMinBandwidth, FeaturePFCMode, FeatureShape, FeatureTrustCoS, FeatureWatchdogPriorities},
		"ce1":    {FeatureCoSMap, FeatureECNPercent, FeatureECNZeroProbability, FeatureMatchAll, FeaturePFCMode, FeatureWREDColors},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("features (-want +got):\n%s", diff)
	}
	core, _ := loadString(t, testProfile+`
assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
`, nil)
	for _, d := range core {
		if f := d.Features(); len(f) > 0 {
			t.Errorf("%s: the core intent uses %v", d.Name, f)
		}
	}
}
