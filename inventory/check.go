package inventory

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/platform"
)

// checkAddress reports why s is not a usable management address: an IPv4
// or IPv6 address, or a host name (RFC 1123 labels). "" means it is fine.
func checkAddress(s string) string {
	if s == "" {
		return "the address is empty"
	}
	if _, err := netip.ParseAddr(s); err == nil {
		return ""
	}
	if _, err := netip.ParseAddrPort(s); err == nil || strings.Count(s, ":") == 1 {
		return "write the address without a port and set the port with port = N"
	}
	if strings.Contains(s, "/") {
		return "a management address is one host, not a prefix: drop the /length"
	}
	if len(s) > 253 {
		return "a host name is at most 253 characters"
	}
	labels := strings.Split(strings.TrimSuffix(s, "."), ".")
	allDigits := true
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return "each dot-separated part of a host name must be 1–63 characters"
		}
		if l[0] == '-' || l[len(l)-1] == '-' {
			return "a host name part may not start or end with a hyphen"
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return fmt.Sprintf("%q is not allowed in a host name", string(c))
			}
		}
	}
	last := labels[len(labels)-1]
	for i := 0; i < len(last); i++ {
		if !isDigit(last[i]) {
			allDigits = false
		}
	}
	if allDigits {
		return "it looks like an IP address but is not a valid one"
	}
	return ""
}

// checkName reports why s cannot name a device (it appears in
// "device:port" link ends and in output file names). "" means it is fine.
func checkName(s string) string {
	if s == "" {
		return "the name is empty"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Sprintf("%q is not allowed: use letters, digits, '-', '_' and '.'", string(c))
		}
	}
	return ""
}

// platformSuggestions returns catalog names (models and aliases) close to
// a mistyped one: those that contain it or that it contains (ignoring
// case), then those within a small edit distance, at most five.
func platformSuggestions(model string) []string {
	m := strings.ToUpper(strings.TrimSpace(model))
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, name := range platform.Names() {
		u := strings.ToUpper(name)
		d := editDistance(m, u)
		if m != "" && (strings.Contains(u, m) || strings.Contains(m, u)) {
			d = 0
		}
		if d <= max(3, len(m)/3) {
			cs = append(cs, cand{name, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for i := 0; i < len(cs) && i < 5; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return max(len(a), len(b))
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// unknownPlatform builds the LL103 diagnostic.
func unknownPlatform(model string, subject, context hcl.Range) *hcl.Diagnostic {
	detail := fmt.Sprintf("Platform %q is not in the platform catalog, so its buffer and cell sizes are unknown.", model)
	if s := platformSuggestions(model); len(s) > 0 {
		detail += " Did you mean " + quoteList(s) + "?"
	} else {
		detail += " Supported platforms: " + strings.Join(platform.Models(), ", ") + "."
	}
	return diagnostic(RuleUnknownPlatform, "Unknown platform", ptr(subject), ptr(context), "%s", detail)
}

// checkLinks checks the links of inv against its devices and ports, and
// that no port is used twice. ranges gives each link's a and b ranges.
func checkLinks(inv *Inventory, ends []linkRanges) hcl.Diagnostics {
	var diags hcl.Diagnostics
	used := map[Endpoint]hcl.Range{}
	keep := inv.Links[:0]
	for i, l := range inv.Links {
		r := ends[i]
		ok := true
		if l.A == l.B {
			diags = append(diags, diagnostic(RuleSelfLink, "Link to itself", ptr(r.b), ptr(l.DeclRange),
				"Both ends of this link are %q. A link joins two different ports.", l.A.String()))
			continue
		}
		for _, e := range []struct {
			ep  Endpoint
			rng hcl.Range
		}{{l.A, r.a}, {l.B, r.b}} {
			d := inv.Device(e.ep.Device)
			if d == nil && inv.rejected[e.ep.Device] {
				ok = false // its own errors are already reported
				continue
			}
			if d == nil {
				diags = append(diags, diagnostic(RuleLinkUnknownDevice, "Link to an unknown device", ptr(e.rng), ptr(l.DeclRange),
					"No device is named %q. Declare it with a device block, or correct the name.", e.ep.Device))
				ok = false
				continue
			}
			if d.PortNamed(e.ep.Port) == nil {
				diags = append(diags, diagnostic(RuleLinkUnknownPort, "Link to an unknown port", ptr(e.rng), ptr(l.DeclRange),
					"Device %q declares no port %q (declared at %s). Add it to a ports block of the device, or correct the name.", d.Name, e.ep.Port, d.DeclRange))
				ok = false
				continue
			}
			if prev, dup := used[e.ep]; dup {
				diags = append(diags, diagnostic(RulePortInTwoLinks, "Port in two links", ptr(e.rng), ptr(l.DeclRange),
					"Port %q is already linked at %s. A port has one peer.", e.ep.String(), prev))
				ok = false
				continue
			}
			used[e.ep] = e.rng
		}
		if ok {
			keep = append(keep, l)
		}
	}
	inv.Links = keep
	return diags
}

// linkRanges are the ranges of a link's two ends.
type linkRanges struct{ a, b hcl.Range }
