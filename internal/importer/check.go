package importer

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/vendors"
)

// Check loads the intent r wrote, saved in dir, with the inventory at
// inventoryPath, and diffs each imported device's rendering against the
// running config it was read from, as plan does: Device.Change, empty
// when the device round-trips. The diagnostics are the written intent's;
// an error among them means no device could be checked.
func Check(r *Result, dir, inventoryPath string) hcl.Diagnostics {
	loaded, diags := load.Fabric(dir, load.Options{Inventory: inventoryPath})
	if diags.HasErrors() {
		for _, d := range r.Devices {
			if d.Err == nil {
				d.CheckErr = fmt.Errorf("check %s: the written intent does not load", d.Name)
			}
		}
		return diags
	}
	byName := map[string]*intent.Device{}
	for _, id := range loaded.Devices {
		byName[id.Name] = id
	}
	for _, d := range r.Devices {
		if d.Err != nil {
			continue
		}
		d.CheckErr = check(d, byName[d.Name])
	}
	return diags
}

func check(d *Device, id *intent.Device) error {
	v, _ := vendors.Lookup(d.Vendor)
	if v.Diff == nil {
		return fmt.Errorf("check %s: the %s driver gives no diff to check with", d.Name, d.Vendor)
	}
	if id == nil {
		if d.imp.QoS == nil {
			// Nothing imported, nothing assigned: the plan of a device
			// no assign selects is empty.
			d.Change = &vendors.Change{Device: d.Name, Vendor: d.Vendor}
			return nil
		}
		return fmt.Errorf("check %s: the written intent does not assign it", d.Name)
	}
	_, doc, err := plan.Desired(plan.Device{Intent: id}, plan.Options{})
	if err != nil {
		return fmt.Errorf("check %s: render the written intent: %w", d.Name, err)
	}
	c, err := v.Diff(d.Name, d.src.Running, doc)
	if err != nil {
		return fmt.Errorf("check %s: %w", d.Name, err)
	}
	d.Change = c
	return nil
}
