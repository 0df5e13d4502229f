package inventory

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Vendors is what an inventory accepts of vendors: their names and the
// containerlab kinds that are their switches. The vendor registry (package
// vendors, vendors.Accepted) gives it; inventory cannot import that
// package, so the caller passes it in.
type Vendors struct {
	// Names are the accepted vendor names, as written in the inventory.
	// None accepts every name, for callers that check vendors elsewhere
	// (tests of the intent).
	Names []string
	// Containerlab maps a containerlab node kind ("ceos") to the vendor
	// whose switch it is and how its data ports are named. A kind missing
	// here is not managed (LL121).
	Containerlab map[string]ContainerlabKind
}

// ContainerlabKind is a containerlab node kind lossless imports as a
// switch of one vendor.
type ContainerlabKind struct {
	// Vendor is the vendor name the kind's nodes get.
	Vendor string
	// Ports names the switch's data ports: containerlab's ethN becomes
	// Ports.Name(N).
	Ports PortNaming
}

// PortNaming is how a switch names its front-panel data ports: data port
// N (1-based) is Format with the number Stride×(N−1) + First.
type PortNaming struct {
	// Format is a printf format with one %d ("Ethernet1/%d").
	Format string
	// Stride and First give the number of data port N. Stride 4, First 0
	// names ports Ethernet0, Ethernet4, … (SONiC's four lanes a port).
	Stride, First int
}

// Name returns the name of data port n (1-based).
func (p PortNaming) Name(n int) string { return fmt.Sprintf(p.Format, p.Stride*(n-1)+p.First) }

// Range returns a ports range (see ExpandPorts) naming data ports 1 to n:
// "Ethernet1/1-32", or "Ethernet0-124 step 4" when Stride is not 1.
func (p PortNaming) Range(n int) string {
	r := fmt.Sprintf("%s-%d", p.Name(1), p.Stride*(n-1)+p.First)
	if p.Stride != 1 {
		r += fmt.Sprintf(" step %d", p.Stride)
	}
	return r
}

// Check returns why p cannot name ports, "" when it can: Format needs %d
// exactly once and Stride must be positive.
func (p PortNaming) Check() string {
	if strings.Count(p.Format, "%d") != 1 || strings.Count(p.Format, "%") != 1 {
		return fmt.Sprintf("port format %q must contain %%d exactly once", p.Format)
	}
	if p.Stride < 1 || p.First < 0 {
		return fmt.Sprintf("port stride %d and first number %d: want a positive stride and a non-negative first number", p.Stride, p.First)
	}
	return ""
}

// containerlabKinds returns the kinds of v, sorted.
func (v Vendors) containerlabKinds() []string {
	return slices.Sorted(maps.Keys(v.Containerlab))
}

// vendorSet checks vendor names; empty accepts every name.
type vendorSet []string

func newVendorSet(v []string) vendorSet {
	v = slices.Clone(v)
	slices.Sort(v)
	return slices.Compact(v)
}

func (s vendorSet) has(name string) bool {
	if len(s) == 0 {
		return true
	}
	_, ok := slices.BinarySearch(s, name)
	return ok
}

func (s vendorSet) String() string { return quoteList(s) }

// example is a vendor name to suggest for a missing vendor attribute.
func (s vendorSet) example() string {
	if len(s) == 0 {
		return `"…"`
	}
	return fmt.Sprintf("%q", s[0])
}

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
