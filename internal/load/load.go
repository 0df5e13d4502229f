// Package load loads a fabric, the one way every verb of the CLI does
// (validate, render, inspect, plan, apply, lab up): the intent of a
// directory, its inventory with the vendor names and containerlab kinds
// of the vendor registry, every device resolved into its desired state,
// and every diagnostic: the intent's and the inventory's, devices whose
// vendor refuses their transport (LL130), targets that match nothing and,
// when asked, what a vendor's renderer or schema refuses. It knows no
// vendor: import vendors/all (or single vendor packages) to fill the
// registry it reads.
package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/intent/bounded"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

// Options say what to load besides the intent directory.
type Options struct {
	// Inventory is the inventory file (*.hcl or *.clab.yml); empty means
	// the directory's inventory.hcl.
	Inventory string
	// Vars and VarFiles are the -var NAME=VALUE and -var-file values.
	Vars     map[string]string
	VarFiles []string
	// Targets keeps the devices matching any of them (-target): a device
	// name, "role:R" or "tag:T". None keeps every device; a target that
	// matches no device is an error, so a typo never silently selects
	// nothing.
	Targets []string
	// Renderable renders one device of each shape and reports what its
	// vendor's renderer refuses or its schema rejects, so that validate
	// fails whenever render would.
	Renderable bool
}

// Result is a loaded fabric.
type Result struct {
	// Intent is the decoded intent; nil when the directory could not be
	// read.
	Intent *intent.Fabric
	// Inventory is the loaded inventory; nil when it could not be read.
	Inventory *inventory.Inventory
	// Devices are the resolved devices that Options.Targets select,
	// sorted by name; nil when there is an error diagnostic.
	Devices []*intent.Device
	// Files are the parsed intent and inventory files by name, for
	// diagnostic snippets.
	Files map[string]*hcl.File
}

// RuleTransport marks a device whose vendor cannot be managed over its
// inventory transport (the vendor's Refuses).
const RuleTransport diag.Rule = "LL130"

// RuleFeature marks a device whose intent uses a feature its vendor's
// renderer does not render (vendors.Vendor.Features).
const RuleFeature diag.Rule = "LL133"

// Fabric loads the intent in dir and its inventory, resolves every device
// and checks what Options ask. It returns what it could load (never nil)
// and every diagnostic, sorted by file and position; Resolve runs even
// when the files have errors, so that one pass reports all it can.
func Fabric(dir string, o Options) (*Result, hcl.Diagnostics) {
	r := &Result{Files: map[string]*hcl.File{}}
	invPath := o.Inventory
	if invPath == "" {
		invPath = filepath.Join(dir, intent.DefaultInventoryFile)
	}
	fab, diags := intent.Load(dir, o.Vars, o.VarFiles, intent.SkipFile(invPath))
	if fab != nil {
		r.Intent = fab
		for n, f := range fab.Files {
			r.Files[n] = f
		}
	}
	if _, err := os.Stat(invPath); err != nil {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No inventory",
			Detail: fmt.Sprintf("Cannot read the inventory %s: %s. Put an inventory.hcl in the intent directory or pass -inventory FILE.", invPath, errors.Unwrap(err))})
		diag.Sort(diags)
		return r, diags
	}
	inv, d := Inventory(invPath)
	diags = append(diags, d...)
	if inv != nil {
		r.Inventory = inv
		for n, f := range inv.Files {
			r.Files[n] = f
		}
	}
	// An inventory over a limit of package bounded was not read, or not
	// all of it: resolving the intent against it would only add errors.
	if fab == nil || inv == nil || overLimit(d) {
		diag.Sort(diags)
		return r, diags
	}
	devs, d := intent.Resolve(fab, inv)
	diags = append(diags, d...)
	diags = append(diags, transports(inv)...)
	diags = append(diags, features(devs)...)
	if o.Renderable && !diags.HasErrors() {
		diags = append(diags, renderable(devs)...)
	}
	if !diags.HasErrors() {
		sel, d := selectDevices(devs, o.Targets)
		diags = append(diags, d...)
		r.Devices = sel
	}
	diag.Sort(diags)
	if diags.HasErrors() {
		r.Devices = nil
	}
	return r, diags
}

// Inventory loads the inventory at path with the vendor names and
// containerlab kinds of the registry (vendors.Accepted). See
// inventory.Load for what comes back.
func Inventory(path string) (*inventory.Inventory, hcl.Diagnostics) {
	return inventory.Load(path, vendors.Accepted())
}

// overLimit reports whether diags hold an error of a limit of package
// bounded (LL090–LL093).
func overLimit(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		switch diag.RuleOf(d) {
		case bounded.RuleFileSize, bounded.RuleNesting, bounded.RuleElements, bounded.RuleBudget:
			if d.Severity == hcl.DiagError {
				return true
			}
		}
	}
	return false
}

// transports reports every device of inv whose vendor refuses its
// transport (RuleTransport); the reason comes from the vendor's package.
func transports(inv *inventory.Inventory) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, d := range inv.Devices {
		var te *vendors.TransportError
		if !errors.As(vendors.CheckTransport(d.Vendor, d.Transport), &te) {
			continue
		}
		rng := d.DeclRange
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Transport not supported for this vendor",
			Detail:   fmt.Sprintf("Device %q (vendor %q) sets transport = %q: %s.", d.Name, te.Vendor, te.Transport, te.Reason),
			Subject:  &rng,
			Extra:    RuleTransport,
		})
	}
	return diags
}

// features reports each device whose intent uses a feature (an
// intent.Feature) its vendor's renderer does not render: one diagnostic
// per device and feature, at the device, naming where the intent uses
// it. Rendering without it would leave that part of the intent out.
func features(devs []*intent.Device) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, d := range devs {
		v, ok := vendors.Lookup(d.Vendor)
		if !ok {
			continue
		}
		for _, u := range d.Features() {
			if slices.Contains(v.Features, u.Feature) {
				continue
			}
			rng := d.Range
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Feature not rendered for this vendor",
				Detail:   fmt.Sprintf("Device %q (vendor %q) is given %s (%s), which lossless does not render for %s devices yet. Leave it out for this device (a device override with remove = true, or another profile).", d.Name, d.Vendor, u.Feature, u.Where, d.Vendor),
				Subject:  &rng,
				Extra:    RuleFeature,
			})
		}
	}
	return diags
}
