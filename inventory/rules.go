package inventory

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/internal/diag"
)

// Rule IDs of inventory diagnostics. They are stable: tests, docs and
// users' -json consumers refer to them.
const (
	RuleSyntax            diag.Rule = "LL100" // the file does not parse, or has an unknown block or attribute
	RuleDuplicateDevice   diag.Rule = "LL101" // two devices with one name
	RuleUnknownVendor     diag.Rule = "LL102" // vendor not among the registered vendors
	RuleUnknownPlatform   diag.Rule = "LL103" // platform not in the catalog
	RuleBadAddress        diag.Rule = "LL104" // management address is neither an IP address nor a host name
	RuleBadMgmtPort       diag.Rule = "LL105" // management TCP port outside 1–65535
	RuleBadPortRange      diag.Rule = "LL106" // a ports label that ExpandPorts rejects
	RuleDuplicatePort     diag.Rule = "LL107" // one port declared twice on a device
	RuleLinkUnknownDevice diag.Rule = "LL108" // link end names a device that does not exist
	RuleLinkUnknownPort   diag.Rule = "LL109" // link end names a port the device does not declare
	RulePortInTwoLinks    diag.Rule = "LL110" // one port at the end of two links
	RuleMissingUnit       diag.Rule = "LL111" // a bare number where a unit is needed
	RuleLiteralPassword   diag.Rule = "LL112" // a literal password without allow_literal_password = true
	RuleBadTransport      diag.Rule = "LL113" // transport other than ssh or gnmi
	RuleUnknownCreds      diag.Rule = "LL114" // credentials reference to no credentials block
	RuleDuplicateCreds    diag.Rule = "LL115" // two credentials blocks with one name
	RuleBadEndpoint       diag.Rule = "LL116" // link end not written "device:port"
	RuleBadValue          diag.Rule = "LL117" // a value of the wrong type or that does not parse
	RuleMissingAttribute  diag.Rule = "LL118" // a required attribute is absent
	RuleSelfLink          diag.Rule = "LL119" // a link from a port to itself
	RuleClabTopology      diag.Rule = "LL120" // containerlab file is not a valid topology
	RuleClabKind          diag.Rule = "LL121" // containerlab kind lossless does not manage
	RuleClabInterface     diag.Rule = "LL122" // containerlab interface name lossless cannot map
	RuleBadName           diag.Rule = "LL123" // a device or credentials name that is not a valid identifier
)

// diagnostic builds an error diagnostic with a rule ID. subject is the
// tightest range at fault; context, when not nil, the enclosing block.
func diagnostic(rule diag.Rule, summary string, subject, context *hcl.Range, format string, args ...any) *hcl.Diagnostic {
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  subject,
		Context:  context,
		Extra:    rule,
	}
	return d
}

// ptr returns a pointer to a copy of r, for Subject and Context.
func ptr(r hcl.Range) *hcl.Range { return &r }
