package inventory

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// DefaultVendors are the vendor names Load accepts when given none: the
// four vendors lossless renders. cmd passes the registry's names instead.
func DefaultVendors() []string { return []string{"eos", "huawei-ce", "nxos", "sonic"} }

// Load reads an inventory: an HCL file, or a containerlab topology when
// the name ends in .clab.yml or .clab.yaml. vendors lists the valid vendor
// names (nil means DefaultVendors). It returns everything it could decode
// together with every diagnostic; the Inventory is nil only when the file
// could not be read or parsed at all. Devices and links with errors are
// left out of the result, so callers may still analyse the rest.
func Load(path string, vendors []string) (*Inventory, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
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

// vendorSet checks vendor names.
type vendorSet []string

func newVendorSet(v []string) vendorSet {
	if len(v) == 0 {
		v = DefaultVendors()
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v
}

func (s vendorSet) has(name string) bool {
	_, ok := slices.BinarySearch(s, name)
	return ok
}

func (s vendorSet) String() string { return quoteList(s) }

// quoteList returns `"a", "b" and "c"`.
func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	switch len(q) {
	case 0:
		return "none"
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
