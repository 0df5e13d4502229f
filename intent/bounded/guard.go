package bounded

import (
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Where a guard sits.
const (
	guardElement = iota // a for expression's element or key: one value per evaluation
	guardPart           // a template's interpolation: the bytes it appends
)

// guard wraps the expressions of the syntax tree whose evaluation builds
// new values from old ones without a function call: the element and key
// of a for expression, evaluated once per element of its collection, and
// the interpolations of a template, whose strings it copies. Each
// evaluation is charged to the budget, so that for expressions nested in
// each other, or a template that repeats a large string, stop at the
// budget instead of building what they multiply to. It embeds a
// ParenthesesExpr so that walks of the tree (hclsyntax.Walk, Variables)
// see the wrapped expression as its child; everything but Value passes
// through to it.
type guard struct {
	*hclsyntax.ParenthesesExpr
	budget *Budget
	kind   int
}

// Value evaluates the wrapped expression and charges what it built.
func (g *guard) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if g.budget.spent {
		return cty.DynamicVal, nil
	}
	v, diags := g.Expression.Value(ctx)
	values, bytes := 1, 0
	if g.kind == guardPart {
		values, bytes = 0, stringBytes(v)
	}
	if ok, d := g.budget.charge(values, bytes, g.Range()); !ok {
		if d != nil {
			diags = append(diags, d)
		}
		return cty.DynamicVal, diags
	}
	return v, diags
}

// guard puts guards in the syntax tree under n. It also gives a function
// call without its closing parenthesis the range up to its opening one.
func (b *Budget) guard(n hclsyntax.Node) {
	wrap := func(e hclsyntax.Expression, kind int) hclsyntax.Expression {
		return &guard{ParenthesesExpr: &hclsyntax.ParenthesesExpr{Expression: e, SrcRange: e.Range()}, budget: b, kind: kind}
	}
	// The walk recurses as deep as the tree, which scan has bounded.
	hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
		switch e := n.(type) {
		case *hclsyntax.FunctionCallExpr:
			// A call whose closing parenthesis is missing (a syntax error
			// already reported) has none, and its range would end at the
			// zero position.
			if e.CloseParenRange.End.Byte < e.OpenParenRange.End.Byte {
				e.CloseParenRange = e.OpenParenRange
			}
		case *hclsyntax.ForExpr:
			e.ValExpr = wrap(e.ValExpr, guardElement)
			if e.KeyExpr != nil {
				e.KeyExpr = wrap(e.KeyExpr, guardElement)
			}
		case *hclsyntax.TemplateExpr:
			for i, p := range e.Parts {
				// A literal part is the source's own text, and a template
				// of one literal must stay recognisable as a literal
				// string (TemplateExpr.IsStringLiteral).
				if l, lit := p.(*hclsyntax.LiteralValueExpr); !lit || l.Val.Type() != cty.String {
					e.Parts[i] = wrap(p, guardPart)
				}
			}
		}
		return nil
	})
}

// maxExponent is the largest binary exponent of a number the input may
// hold, about 10^331 (float64 ends at 10^308): cty numbers have no bound,
// and turning a number of a billion digits into text, as a template or a
// conversion to string does, takes minutes and as many bytes.
const maxExponent = 1100

// checkNumber returns a diagnostic at rng when v is a number out of
// range, nil otherwise.
func checkNumber(v cty.Value, rng hcl.Range) *hcl.Diagnostic {
	v, _ = v.Unmark()
	if v.Type() != cty.Number || !v.IsKnown() || v.IsNull() {
		return nil
	}
	f := v.AsBigFloat()
	if f.IsInf() || f.Sign() == 0 {
		return nil
	}
	if e := f.MantExp(nil); e >= -maxExponent && e <= maxExponent {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Number out of range",
		Detail:   fmt.Sprintf("This number is beyond 1e±%d, lossless' limit for a number (written out it would take more digits than any value needs).", int(maxExponent*math.Log10(2))),
		Subject:  &rng,
		Extra:    RuleElements,
	}
}

// stringBytes is the length of v converted to a string: its bytes for a
// string, its digits for a number.
func stringBytes(v cty.Value) int {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return 0
	}
	switch v.Type() {
	case cty.String:
		return len(v.AsString())
	case cty.Number:
		return digits(v.AsBigFloat())
	case cty.Bool:
		return len("false")
	}
	return 0
}

// digits bounds the length of f written in decimal (cty writes numbers
// with Text('f', -1)): the digits of its integer part, or of the leading
// zeros of a small fraction, plus up to 155 significant digits of cty's
// 512-bit mantissa after the point.
func digits(f *big.Float) int {
	if f.IsInf() {
		return len("+Inf")
	}
	n := int(math.Abs(float64(f.MantExp(nil)))*math.Log10(2)) + 2
	if !f.IsInt() {
		n += 157
	}
	return n
}
