package load

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/renderers"
	"github.com/lossless-net/lossless/vendors"
)

// The rules of what a device's vendor refuses.
const (
	// RuleUnsupported marks intent a device's renderer cannot express
	// (renderers.UnsupportedError).
	RuleUnsupported diag.Rule = "LL131"
	// RuleSchema marks a rendering the vendor's own schema rejects
	// (SONiC YANG).
	RuleSchema diag.Rule = "LL132"
)

// renderable renders the devices with their vendors' renderers and reports
// what a renderer refuses (a feature the vendor or platform cannot
// express) or the vendor's schema rejects, so that validate fails whenever
// render would, and every renderer warning (config.Warning: a value
// rounded, intent the platform keeps its default for, a default chosen)
// as a warning diagnostic with the warning's rule, so that validate
// -strict fails whenever plan or apply would show one.
//
// Devices of one shape (vendor, platform, profiles, per-port profiles and
// options) render alike but for names and per-port numbers, so refusals
// and the schema are checked on one device of each shape: a fabric of
// thousands of devices costs a few schema checks, not thousands (SONiC's
// in-process YANG check alone takes a noticeable fraction of a second per
// device). Warnings can depend on per-port numbers (a cable length
// rounded), so every device of a shape that renders is rendered for them;
// one warning shared by many devices is one diagnostic naming them.
func renderable(devices []*intent.Device) hcl.Diagnostics {
	var diags hcl.Diagnostics
	type shape struct{ first, count int }
	shapes := map[string]*shape{}
	var order []string
	for i, d := range devices {
		k := shapeKey(d)
		if s, ok := shapes[k]; ok {
			s.count++
			continue
		}
		shapes[k] = &shape{first: i, count: 1}
		order = append(order, k)
	}
	bad := map[string]bool{} // shapes that failed: their devices are not rendered again
	for _, k := range order {
		s := shapes[k]
		d := devices[s.first]
		v, ok := vendors.Lookup(d.Vendor)
		if !ok {
			continue
		}
		also := ""
		if s.count > 1 {
			also = fmt.Sprintf(" The same holds for %d other devices with this vendor, platform and profiles.", s.count-1)
		}
		rng := d.Range
		doc, err := v.Render(d)
		if err != nil {
			detail := err.Error() + "."
			var ue *renderers.UnsupportedError
			if errors.As(err, &ue) {
				detail = fmt.Sprintf("Device %q (%s) cannot express %s: %s.", ue.Device, ue.Vendor, ue.Feature, ue.Reason)
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Not supported by the device's vendor", Detail: detail + also, Subject: &rng, Extra: RuleUnsupported})
			bad[k] = true
			continue
		}
		// The vendor's own schema (SONiC YANG), checked in-process so that
		// validate needs no yanglint.
		if v.Check != nil {
			if err := v.Check(doc); err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Rendering rejected by the vendor's schema",
					Detail: fmt.Sprintf("Device %q (%s): %v.%s", d.Name, d.Vendor, err, also), Subject: &rng, Extra: RuleSchema})
			}
		}
	}
	return append(diags, warnings(devices, shapeKey, bad)...)
}

// warnings renders every device whose shape rendered and turns its
// renderer warnings into warning diagnostics, one per distinct warning
// (rule and message), at the first device that has it, naming the others.
func warnings(devices []*intent.Device, key func(*intent.Device) string, bad map[string]bool) hcl.Diagnostics {
	type seen struct {
		first  *intent.Device
		w      config.Warning
		others []string
	}
	byWarning := map[config.Warning]*seen{}
	var order []*seen
	for _, d := range devices {
		v, ok := vendors.Lookup(d.Vendor)
		if !ok || bad[key(d)] {
			continue
		}
		doc, err := v.Render(d)
		if err != nil {
			continue // a per-device refusal is render's and plan's to report
		}
		for _, w := range doc.Warnings {
			k := config.Warning{Rule: w.Rule, Message: w.Message}
			if s, ok := byWarning[k]; ok {
				s.others = append(s.others, d.Name)
				continue
			}
			s := &seen{first: d, w: w}
			byWarning[k] = s
			order = append(order, s)
		}
	}
	var diags hcl.Diagnostics
	for _, s := range order {
		detail := fmt.Sprintf("Device %q (%s): %s.", s.first.Name, s.first.Vendor, strings.TrimSuffix(s.w.Message, "."))
		if n := len(s.others); n > 0 {
			detail += fmt.Sprintf(" The same holds for %d other device(s): %s.", n, strings.Join(s.others, ", "))
		}
		rng := s.first.Range
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: warningSummary[s.w.Rule], Detail: detail, Subject: &rng, Extra: diag.Rule(s.w.Rule)})
	}
	return diags
}

// warningSummary is the headline of each renderer warning rule.
var warningSummary = map[string]string{
	renderers.RuleRounded:       "Value rounded to the device's granularity",
	renderers.RuleNotRendered:   "Intent the platform cannot express is not rendered",
	renderers.RuleDefaultChosen: "A default is chosen for the device",
}

// shapeKey identifies what a rendering depends on besides names and
// per-port numbers: the vendor, the platform, the profiles (devices that
// share a profile share its *QoS and *Buffers), each distinct per-port
// profile, and the options.
func shapeKey(d *intent.Device) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%p|%p|%p", d.Vendor, d.Platform, d.QoS, d.Buffers)
	seen := map[*intent.QoS]bool{d.QoS: true}
	for _, p := range d.Ports {
		if !seen[p.QoS] {
			seen[p.QoS] = true
			fmt.Fprintf(&b, "|%p", p.QoS)
		}
	}
	keys := make([]string, 0, len(d.Options))
	for k := range d.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "|%q=%q", k, d.Options[k])
	}
	return b.String()
}
