package load

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/renderers"
	"github.com/lossless-net/lossless/vendors"
)

// renderable renders the devices with their vendors' renderers and reports
// what a renderer refuses (a feature the vendor or platform cannot
// express) or the vendor's schema rejects, so that validate fails whenever
// render would. Renderer warnings (values rounded to the device's
// granularity) are render's to print, not validate's.
//
// Devices of one shape (vendor, platform, profiles, per-port profiles and
// options) render alike but for names and per-port numbers, so one device
// of each shape is rendered: a fabric of thousands of devices costs a few
// renderings, not thousands (SONiC's in-process YANG check alone takes a
// noticeable fraction of a second per device).
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
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Not supported by the device's vendor", Detail: detail + also, Subject: &rng})
			continue
		}
		// The vendor's own schema (SONiC YANG), checked in-process so that
		// validate needs no yanglint.
		if v.Check != nil {
			if err := v.Check(doc); err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Rendering rejected by the vendor's schema",
					Detail: fmt.Sprintf("Device %q (%s): %v.%s", d.Name, d.Vendor, err, also), Subject: &rng})
			}
		}
	}
	return diags
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
