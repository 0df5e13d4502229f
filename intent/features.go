package intent

import (
	"cmp"
	"slices"
)

// Feature names a capability of the intent beyond its core (DSCP
// classification, strict or weighted queues, one ECN profile per queue,
// PFC on the lossless priorities, the watchdog, buffers), which a vendor
// renders once its renderer does: vendors.Vendor.Features lists them, and
// loading refuses a device whose intent uses one its vendor's renderer
// does not render (LL133), rather than render it without.
type Feature string

// The features, each with the intent that uses it.
const (
	// FeatureTrustCoS: trust = "cos" (classify by the 802.1p priority).
	FeatureTrustCoS Feature = "trust-cos"
	// FeatureCoSMap: cos on a class beside DSCP trust (frames without
	// an IP header).
	FeatureCoSMap Feature = "cos-map"
	// FeatureMatchAll: match = "all" on a class.
	FeatureMatchAll Feature = "match-all"
	// FeatureMinBandwidth: min_bandwidth on a class.
	FeatureMinBandwidth Feature = "min-bandwidth"
	// FeatureShape: shape on a class.
	FeatureShape Feature = "shape"
	// FeaturePFCMode: pfc mode "off" or "auto".
	FeaturePFCMode Feature = "pfc-mode"
	// FeatureWatchdogPriorities: a watchdog on some PFC priorities only.
	FeatureWatchdogPriorities Feature = "watchdog-priorities"
	// FeatureECNDefaultProbability: an ecn block without max_probability.
	FeatureECNDefaultProbability Feature = "ecn-default-probability"
	// FeatureECNZeroProbability: max_probability = 0.
	FeatureECNZeroProbability Feature = "ecn-zero-probability"
	// FeatureWREDColors: yellow or red blocks in an ecn block.
	FeatureWREDColors Feature = "wred-colors"
	// FeatureECNPercent: an ECN or WRED threshold given as a share of the
	// queue's buffer limit ("50%").
	FeatureECNPercent Feature = "ecn-percent"
)

// Features are every feature, in the order the docs list them.
var Features = []Feature{FeatureTrustCoS, FeatureCoSMap, FeatureMatchAll, FeatureMinBandwidth, FeatureShape,
	FeaturePFCMode, FeatureWatchdogPriorities, FeatureECNDefaultProbability, FeatureECNZeroProbability, FeatureWREDColors, FeatureECNPercent}

// Features returns the features the device's intent uses (its QoS and
// every port's), sorted, each once, with the class or setting that uses
// it first, for the error that names it.
func (d *Device) Features() []FeatureUse {
	seen := map[Feature]bool{}
	var out []FeatureUse
	add := func(f Feature, where string) {
		if !seen[f] {
			seen[f] = true
			out = append(out, FeatureUse{f, where})
		}
	}
	qs := []*QoS{d.QoS}
	for _, p := range d.Ports {
		if p.QoS != nil && !slices.Contains(qs, p.QoS) {
			qs = append(qs, p.QoS)
		}
	}
	for _, q := range qs {
		if q == nil {
			continue
		}
		if q.Trust == TrustCoS {
			add(FeatureTrustCoS, "qos_profile "+q.Profile)
		}
		if q.PFC.Mode == PFCOff || q.PFC.Mode == PFCAuto {
			add(FeaturePFCMode, "pfc mode "+q.PFC.Mode)
		}
		if w := q.PFC.Watchdog; w != nil && w.Priorities != 0 {
			add(FeatureWatchdogPriorities, "pfc watchdog priorities")
		}
		for _, c := range q.Classes {
			where := "traffic_class " + c.Name
			if q.Trust != TrustCoS && (len(c.CoS) > 0 || c.DefaultCoS) {
				add(FeatureCoSMap, where)
			}
			if c.MatchAll {
				add(FeatureMatchAll, where)
			}
			if c.Scheduling.MinBandwidth > 0 {
				add(FeatureMinBandwidth, where)
			}
			if c.Scheduling.Shape > 0 {
				add(FeatureShape, where)
			}
			if c.ECN != nil && c.ECN.DefaultProbability {
				add(FeatureECNDefaultProbability, where)
			}
			if c.ECN != nil && !c.ECN.DefaultProbability && c.ECN.MaxProbability == 0 {
				add(FeatureECNZeroProbability, where)
			}
			if c.ECN != nil && (c.ECN.Yellow != nil || c.ECN.Red != nil) {
				add(FeatureWREDColors, where)
			}
			if c.ECN != nil && c.ECN.sharesOfLimit() {
				add(FeatureECNPercent, where)
			}
		}
	}
	slices.SortFunc(out, func(a, b FeatureUse) int { return cmp.Compare(a.Feature, b.Feature) })
	return out
}

// FeatureUse is one feature a device's intent uses, and where.
type FeatureUse struct {
	Feature Feature
	// Where names the first block or setting that uses it
	// ("traffic_class ROCEv2").
	Where string
}

// sharesOfLimit reports whether any threshold of e (green's or a
// colour's) is a share of the queue's buffer limit.
func (e *ECN) sharesOfLimit() bool {
	ts := []Threshold{e.Min, e.Max}
	for _, c := range []*ColorWRED{e.Yellow, e.Red} {
		if c != nil {
			ts = append(ts, c.Min, c.Max)
		}
	}
	for _, t := range ts {
		if t.Percent != 0 {
			return true
		}
	}
	return false
}
