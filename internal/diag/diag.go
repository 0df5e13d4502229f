// Package diag carries lossless' validation rule IDs on hcl.Diagnostics and
// prints diagnostics the way users read them: Terraform-style text with a
// source snippet, or JSON for machines.
package diag

import "github.com/hashicorp/hcl/v2"

// Rule is the stable ID of a validation rule ("LL012"). It rides in
// hcl.Diagnostic.Extra.
type Rule string

// RuleOf returns the rule ID carried by d, or "" when it has none.
func RuleOf(d *hcl.Diagnostic) Rule {
	if r, ok := hcl.DiagnosticExtra[Rule](d); ok {
		return r
	}
	return ""
}
