package bounded

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/lossless-net/lossless/internal/diag"
)

// size is what a value holds, counted as a tree: every value in it
// (itself included), the bytes of its strings, numbers and keys, how
// deep it nests (0 for a value that is not a collection), and the first
// number out of range in it (checkNumber).
type size struct {
	values, bytes, depth int
	number               *hcl.Diagnostic
}

// over names the limit s exceeds, "" for none.
func (s size) over() string {
	switch {
	case s.number != nil:
		return "number"
	case s.depth > MaxNesting:
		return "depth"
	case s.values > MaxElements:
		return "values"
	case s.bytes > MaxValueBytes:
		return "bytes"
	}
	return ""
}

// measure returns the size of v, or of the part of it walked before it
// exceeded a limit, so that the walk is bounded whatever v holds (a
// value shared many times over, built by locals from each other, counts
// as often as it appears).
func measure(v cty.Value) size {
	var s size
	measureInto(&s, v, 0)
	return s
}

func measureInto(s *size, v cty.Value, depth int) bool {
	s.values++
	s.depth = max(s.depth, depth)
	if s.over() != "" {
		return false
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return true
	}
	ty := v.Type()
	if !(ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType()) {
		s.number = checkNumber(v, hcl.Range{})
		s.bytes += stringBytes(v)
		return s.over() == ""
	}
	keyed := ty.IsMapType() || ty.IsObjectType()
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if keyed {
			s.bytes += stringBytes(k)
		}
		if !measureInto(s, e, depth+1) {
			return false
		}
	}
	return s.over() == ""
}

// Check returns a diagnostic at rng when v is larger than one value may
// be (MaxElements values, MaxValueBytes bytes, MaxNesting levels), nil
// otherwise. It walks at most about MaxElements values of v.
func Check(v cty.Value, rng hcl.Range) *hcl.Diagnostic {
	return checkSize(measure(v), rng, "This value")
}

func checkSize(s size, rng hcl.Range, what string) *hcl.Diagnostic {
	over := s.over()
	if over == "" {
		return nil
	}
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Subject: &rng}
	switch over {
	case "number":
		d.Summary, d.Extra = s.number.Summary, RuleElements
		d.Detail = strings.Replace(s.number.Detail, "This number is", what+" holds a number", 1)
	case "depth":
		d.Summary, d.Extra = "Value nested too deep", RuleNesting
		d.Detail = fmt.Sprintf("%s nests more than %d levels deep (a list in a list counts two), lossless' limit. Locals that wrap each other nest one level each.", what, MaxNesting)
	case "values":
		d.Summary, d.Extra = "Value too large", RuleElements
		d.Detail = fmt.Sprintf("%s holds more than %d values, counting every element of every list, set, map and object in it (an element that refers to another value counts all of it). lossless' limit for one value is %d.", what, MaxElements, MaxElements)
	default:
		d.Summary, d.Extra = "Value too large", RuleElements
		d.Detail = fmt.Sprintf("%s holds more than %d bytes (%d MiB) of strings, counting each number as its digits, lossless' limit for one value.", what, MaxValueBytes, MaxValueBytes>>20)
	}
	return d
}

// Value evaluates expr in ctx (nil for no variables or functions) and
// checks the result with Check. It is what every evaluation of the input
// goes through: besides the check it gives the diagnostics of a limit
// that a function of Functions refused their rule, summary and detail,
// and mends a diagnostic range that ends before it starts.
// When the result is over a limit it returns cty.DynamicVal and the
// diagnostic.
func Value(expr hcl.Expression, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := expr.Value(ctx)
	for _, d := range diags {
		ruleFunctionDiag(d)
		// A call whose closing parenthesis is missing (a syntax error
		// reported already) gives a range that ends at the zero position.
		for _, r := range []*hcl.Range{d.Subject, d.Context} {
			if r != nil && r.End.Byte < r.Start.Byte {
				r.End = r.Start
			}
		}
	}
	if diags.HasErrors() {
		return v, diags
	}
	if d := Check(v, expr.Range()); d != nil {
		return cty.DynamicVal, append(diags, d)
	}
	return v, diags
}

// limitError is the error of a function call refused by a limit.
type limitError struct {
	rule            diag.Rule
	summary, detail string
}

func (e *limitError) Error() string { return e.detail }

// ruleFunctionDiag rewrites d, hcl's diagnostic of a failed function
// call, when the call failed on a limit.
func ruleFunctionDiag(d *hcl.Diagnostic) {
	fe, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d)
	if !ok {
		return
	}
	var le *limitError
	if !errors.As(fe.FunctionCallError(), &le) {
		return
	}
	d.Summary = le.summary
	d.Detail = fmt.Sprintf("In this call to %s: %s", fe.CalledFunctionName(), le.detail)
	d.Extra = le.rule
}
