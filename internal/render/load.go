package render

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/inventory"
)

// Input says where a fabric's intent and inventory are.
type Input struct {
	// Dir is the intent directory: every *.hcl in it but the inventory.
	Dir string
	// Inventory is the inventory file (*.hcl or *.clab.yml); empty means
	// Dir/inventory.hcl.
	Inventory string
	// Vars and VarFiles are -var NAME=VALUE and -var-file values.
	Vars     map[string]string
	VarFiles []string
	// Vendors are the vendor names the inventory accepts; nil means
	// inventory.DefaultVendors(). A device whose vendor has no renderer
	// fails at render time, naming the device.
	Vendors []string
}

// Load loads the intent and the inventory and resolves them into one
// desired state per device, sorted by name. It returns the parsed files by
// name (for diagnostic snippets) and every diagnostic; the devices are nil
// when there is an error.
func Load(in Input) ([]*intent.Device, map[string]*hcl.File, hcl.Diagnostics) {
	invPath := in.Inventory
	if invPath == "" {
		invPath = filepath.Join(in.Dir, intent.DefaultInventoryFile)
	}
	vendors := in.Vendors
	if vendors == nil {
		vendors = inventory.DefaultVendors()
	}
	files := map[string]*hcl.File{}
	inv, diags := inventory.Load(invPath, vendors)
	if inv != nil {
		for n, f := range inv.Files {
			files[n] = f
		}
	}
	fab, d := intent.Load(in.Dir, in.Vars, in.VarFiles, intent.SkipFile(invPath))
	diags = append(diags, d...)
	if fab != nil {
		for n, f := range fab.Files {
			files[n] = f
		}
	}
	if diags.HasErrors() {
		return nil, files, diags
	}
	devs, d := intent.Resolve(fab, inv)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, files, diags
	}
	return devs, files, diags
}
