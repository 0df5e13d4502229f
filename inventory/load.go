package inventory

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/bounded"
)

// Load reads an inventory: an HCL file, or a containerlab topology when
// the name ends in .clab.yml or .clab.yaml. vendors says which vendor
// names and containerlab kinds are accepted. It returns everything it
// could decode together with every diagnostic; the Inventory is nil only
// when the file could not be read or parsed at all. Devices and links
// with errors are left out of the result, so callers may still analyse
// the rest.
func Load(path string, vendors Vendors) (*Inventory, hcl.Diagnostics) {
	src, err := bounded.ReadFile(path)
	if err != nil {
		if d := bounded.SizeDiagnostic(err); d != nil {
			return nil, hcl.Diagnostics{d}
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read inventory",
			Detail:   fmt.Sprintf("Reading the inventory file %q failed: %v.", path, err),
			Extra:    RuleSyntax,
		}}
	}
	if IsContainerlab(path) {
		return ParseContainerlab(src, path, vendors)
	}
	return Parse(src, path, vendors)
}

// IsContainerlab reports whether path names a containerlab topology file.
func IsContainerlab(path string) bool {
	return strings.HasSuffix(path, ".clab.yml") || strings.HasSuffix(path, ".clab.yaml")
}
