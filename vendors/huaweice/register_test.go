package huaweice

import (
	"slices"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/vendors"
)

func TestRegistered(t *testing.T) {
	r, ok := vendors.Lookup(Vendor)
	if !ok || r.Render == nil {
		t.Fatalf("%s not registered", Vendor)
	}
}

// TestFeatures: the features renderers/huaweice renders are declared, and
// the others stay undeclared so that loading refuses them (LL133).
func TestFeatures(t *testing.T) {
	r, _ := vendors.Lookup(Vendor)
	for f, want := range map[intent.Feature]bool{
		intent.FeatureTrustCoS: true, intent.FeatureCoSMap: true, intent.FeatureShape: true,
		intent.FeaturePFCMode: true, intent.FeatureECNDefaultProbability: true,
		intent.FeatureWREDColors: true, intent.FeatureECNPercent: true,
		intent.FeatureMatchAll: false, intent.FeatureMinBandwidth: false,
		intent.FeatureWatchdogPriorities: false, intent.FeatureECNZeroProbability: false,
	} {
		if got := slices.Contains(r.Features, f); got != want {
			t.Errorf("feature %s declared = %v, want %v", f, got, want)
		}
	}
}
