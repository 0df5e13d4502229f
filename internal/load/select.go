package load

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
)

// Select keeps the devices matching any of targets (-target: a device
// name, "role:R" or "tag:T"); none keeps every device. A target that
// matches no device is an error diagnostic.
func Select(devs []*intent.Device, targets []string) ([]*intent.Device, hcl.Diagnostics) {
	return selectDevices(devs, targets)
}

// selectDevices keeps the devices matching any of targets: a device name,
// "role:R" or "tag:T". No targets keeps every device. A target that
// matches no device is an error diagnostic.
func selectDevices(devs []*intent.Device, targets []string) ([]*intent.Device, hcl.Diagnostics) {
	if len(targets) == 0 {
		return devs, nil
	}
	var diags hcl.Diagnostics
	keep := make([]bool, len(devs))
	for _, t := range targets {
		match := func(d *intent.Device) bool { return d.Name == t }
		if r, ok := strings.CutPrefix(t, "role:"); ok {
			match = func(d *intent.Device) bool { return slices.Contains(d.Roles, r) }
		} else if tag, ok := strings.CutPrefix(t, "tag:"); ok {
			match = func(d *intent.Device) bool { return slices.Contains(d.Tags, tag) }
		}
		hit := false
		for i, d := range devs {
			if match(d) {
				keep[i], hit = true, true
			}
		}
		if !hit {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Target matches no device",
				Detail: fmt.Sprintf("Target %q matches no device of the fabric. A target is a device name, role:R or tag:T of an assigned device.", t)})
		}
	}
	var out []*intent.Device
	for i, d := range devs {
		if keep[i] {
			out = append(out, d)
		}
	}
	return out, diags
}
