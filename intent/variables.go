package intent

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/lossless-net/lossless/intent/bounded"
)

var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "type"}, {Name: "default"}, {Name: "description"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "validation"}},
}

var validationSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "condition", Required: true}, {Name: "error_message", Required: true}},
}

// functions are the go-cty stdlib functions available in the intent, under
// the names Terraform gives them.
func functions() map[string]function.Function {
	return map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "chomp": stdlib.ChompFunc,
		"chunklist": stdlib.ChunklistFunc, "coalesce": stdlib.CoalesceFunc, "coalescelist": stdlib.CoalesceListFunc,
		"compact": stdlib.CompactFunc, "concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc,
		"distinct": stdlib.DistinctFunc, "element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc,
		"floor": stdlib.FloorFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"indent": stdlib.IndentFunc, "index": stdlib.IndexFunc, "join": stdlib.JoinFunc,
		"jsondecode": stdlib.JSONDecodeFunc, "jsonencode": stdlib.JSONEncodeFunc, "keys": stdlib.KeysFunc,
		"length": stdlib.LengthFunc, "log": stdlib.LogFunc, "lookup": stdlib.LookupFunc, "lower": stdlib.LowerFunc,
		"max": stdlib.MaxFunc, "merge": stdlib.MergeFunc, "min": stdlib.MinFunc, "parseint": stdlib.ParseIntFunc,
		"pow": stdlib.PowFunc, "range": stdlib.RangeFunc, "regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc,
		"replace": stdlib.ReplaceFunc, "reverse": stdlib.ReverseListFunc, "setintersection": stdlib.SetIntersectionFunc,
		"setproduct": stdlib.SetProductFunc, "setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc,
		"signum": stdlib.SignumFunc, "slice": stdlib.SliceFunc, "sort": stdlib.SortFunc, "split": stdlib.SplitFunc,
		"strlen": stdlib.StrlenFunc, "substr": stdlib.SubstrFunc, "title": stdlib.TitleFunc, "trim": stdlib.TrimFunc,
		"trimprefix": stdlib.TrimPrefixFunc, "trimspace": stdlib.TrimSpaceFunc, "trimsuffix": stdlib.TrimSuffixFunc,
		"upper": stdlib.UpperFunc, "values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"tostring": stdlib.MakeToFunc(cty.String), "tonumber": stdlib.MakeToFunc(cty.Number),
		"tobool": stdlib.MakeToFunc(cty.Bool), "tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"toset": stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)), "tomap": stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
	}
}

// newEvalContext is the context expressions are evaluated in: the
// variables and fns (functions() held to a load's limits).
func newEvalContext(vars map[string]cty.Value, fns map[string]function.Function) *hcl.EvalContext {
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)},
		Functions: fns,
	}
}

type variable struct {
	name      string
	ty        cty.Type
	def       cty.Value
	hasDef    bool
	block     *hcl.Block
	validates []*hcl.Block
}

// evalVariables gives every declared variable its value: -var over
// -var-file over default, converted to the declared type and checked by
// its validation blocks.
func evalVariables(srcs *sources, blocks []*hcl.Block, cli map[string]string, varFiles []string) (map[string]cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	decl := map[string]*variable{}
	var order []string
	for _, b := range blocks {
		name := b.Labels[0]
		if prev, ok := decl[name]; ok {
			diags = append(diags, errorf(RuleDuplicateBlock, "Duplicate variable declaration", b.LabelRanges[0].Ptr(), &b.DefRange,
				fmt.Sprintf("A variable named %q was already declared at %s. Variable names must be unique within the intent.", name, prev.block.DefRange)))
			continue
		}
		if !hclsyntax.ValidIdentifier(name) {
			diags = append(diags, errorf(RuleBadValue, "Invalid variable name", b.LabelRanges[0].Ptr(), &b.DefRange,
				fmt.Sprintf("%q is not a valid name: use letters, digits, underscores and dashes, starting with a letter.", name)))
			continue
		}
		content, d := b.Body.Content(variableSchema)
		diags = append(diags, d...)
		v := &variable{name: name, ty: cty.DynamicPseudoType, block: b}
		if a, ok := content.Attributes["type"]; ok {
			ty, d := typeexpr.TypeConstraint(a.Expr)
			diags = append(diags, d...)
			if !d.HasErrors() {
				v.ty = ty
			}
		}
		if a, ok := content.Attributes["default"]; ok {
			val, d := bounded.Value(a.Expr, nil)
			diags = append(diags, d...)
			if !d.HasErrors() {
				cv, err := convert.Convert(val, v.ty)
				if err != nil {
					diags = append(diags, errorf(RuleVariable, "Invalid default value for variable", a.Expr.Range().Ptr(), &b.DefRange,
						fmt.Sprintf("The default of variable %q does not match its type: %s.", name, err)))
					// Reported; an unknown default keeps "no value" quiet.
					v.def, v.hasDef = cty.UnknownVal(v.ty), true
				} else {
					v.def, v.hasDef = cv, true
				}
			}
		}
		for _, vb := range content.Blocks {
			v.validates = append(v.validates, vb)
		}
		decl[name] = v
		order = append(order, name)
	}

	given := map[string]cty.Value{}
	givenRange := map[string]*hcl.Range{}
	// fromCLI holds the -var text of each variable set on the command
	// line: its problems point at the declaration and quote the text.
	fromCLI := map[string]string{}
	for _, path := range varFiles {
		// NAME = VALUE lines, or a JSON object for a *.json file (as
		// Terraform's *.tfvars.json).
		f, d := srcs.parseFile(path, strings.HasSuffix(path, ".json"))
		diags = append(diags, d...)
		if f == nil || d.HasErrors() {
			continue
		}
		attrs, d := f.Body.JustAttributes()
		diags = append(diags, d...)
		names := make([]string, 0, len(attrs))
		for n := range attrs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			a := attrs[n]
			if _, ok := decl[n]; !ok {
				diags = append(diags, errorf(RuleVariable, "Value for undeclared variable", a.NameRange.Ptr(), nil,
					fmt.Sprintf("The file %s sets %q, but the intent declares no such variable. Add a variable %q block or remove the line.", path, n, n)))
				continue
			}
			val, d := bounded.Value(a.Expr, nil)
			diags = append(diags, d...)
			if !d.HasErrors() {
				given[n] = val
				givenRange[n] = a.Expr.Range().Ptr()
			}
		}
	}
	cliNames := make([]string, 0, len(cli))
	for n := range cli {
		cliNames = append(cliNames, n)
	}
	sort.Strings(cliNames)
	for _, n := range cliNames {
		v, ok := decl[n]
		if !ok {
			diags = append(diags, errorf(RuleVariable, "Value for undeclared variable", nil, nil,
				fmt.Sprintf("-var sets %q, but the intent declares no such variable. Declared: %s.", n, strings.Join(sortedKeys(decl), ", "))))
			continue
		}
		raw := cli[n]
		if v.ty == cty.String || v.ty == cty.DynamicPseudoType {
			given[n] = cty.StringVal(raw)
		} else {
			expr, d := srcs.budget.ParseExpression([]byte(raw), "<value for var."+n+">", hcl.InitialPos)
			if d.HasErrors() {
				diags = append(diags, d...)
				continue
			}
			val, d := bounded.Value(expr, nil)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			given[n] = val
		}
		delete(givenRange, n)
		fromCLI[n] = raw
	}

	vals := map[string]cty.Value{}
	for _, n := range order {
		v := decl[n]
		val, ok := given[n]
		switch {
		case ok:
			cv, err := convert.Convert(val, v.ty)
			if err != nil {
				subject, how := givenRange[n], ""
				if raw, ok := fromCLI[n]; ok {
					subject, how = v.block.LabelRanges[0].Ptr(), fmt.Sprintf(" with -var %s=%s", n, raw)
				}
				diags = append(diags, errorf(RuleVariable, "Invalid value for variable", subject, nil,
					fmt.Sprintf("The value given%s for variable %q does not match its type %s: %s.", how, n, v.ty.FriendlyName(), err)))
				vals[n] = cty.UnknownVal(v.ty)
				continue
			}
			val = cv
		case v.hasDef:
			val = v.def
		default:
			diags = append(diags, errorf(RuleVariable, "No value for required variable", v.block.LabelRanges[0].Ptr(), &v.block.DefRange,
				fmt.Sprintf("Variable %q has no default, so a value is required: pass -var %s=VALUE or set it in a -var-file.", n, n)))
			vals[n] = cty.UnknownVal(v.ty)
			continue
		}
		vals[n] = val
	}
	// Validation conditions see every variable, like Terraform 1.9+.
	ctx := newEvalContext(vals, srcs.fns)
	for _, n := range order {
		v := decl[n]
		if !vals[n].IsWhollyKnown() {
			continue
		}
		for _, vb := range v.validates {
			c, d := vb.Body.Content(validationSchema)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			cond, d := bounded.Value(c.Attributes["condition"].Expr, ctx)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			cond, err := convert.Convert(cond, cty.Bool)
			if err != nil || cond.IsNull() || !cond.IsKnown() {
				diags = append(diags, errorf(RuleVariable, "Invalid variable validation condition", c.Attributes["condition"].Expr.Range().Ptr(), &vb.DefRange,
					"The condition must evaluate to true or false."))
				continue
			}
			if cond.True() {
				continue
			}
			msg := "The value is not valid."
			if m, d := bounded.Value(c.Attributes["error_message"].Expr, ctx); !d.HasErrors() && m.Type() == cty.String && m.IsKnown() && !m.IsNull() {
				msg = m.AsString()
			}
			// Point at where the value was written: the var file line, the
			// default, or for -var the declaration (quoting the text).
			subject, how := v.block.LabelRanges[0].Ptr(), ""
			if raw, ok := fromCLI[n]; ok {
				how = fmt.Sprintf(" (given with -var %s=%s)", n, raw)
			} else if r, ok := givenRange[n]; ok {
				subject = r
			} else if a, ok := attrRange(v.block, "default"); ok {
				subject = a
			}
			diags = append(diags, errorf(RuleVariable, "Invalid value for variable", subject, &vb.DefRange,
				fmt.Sprintf("%s%s\n\nThis was checked by the validation rule at %s.", msg, how, vb.DefRange)))
		}
	}
	return vals, diags
}

func attrRange(b *hcl.Block, name string) (*hcl.Range, bool) {
	attrs, _ := b.Body.JustAttributes()
	if a, ok := attrs[name]; ok {
		return a.Expr.Range().Ptr(), true
	}
	if sb, ok := b.Body.(*hclsyntax.Body); ok {
		if a, ok := sb.Attributes[name]; ok {
			return a.Expr.Range().Ptr(), true
		}
	}
	return nil, false
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

// evalLocals evaluates every locals attribute in dependency order. A local
// that depends on itself through others is reported once per cycle member.
// It takes time linear in the locals and their references: each local is
// evaluated once, with only the locals it refers to in its context.
func evalLocals(blocks []*hcl.Block, ctx *hcl.EvalContext) (map[string]cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	pending := map[string]*hcl.Attribute{}
	for _, b := range blocks {
		attrs, d := b.Body.JustAttributes()
		diags = append(diags, d...)
		for _, n := range sortedKeys(attrs) {
			a := attrs[n]
			if prev, ok := pending[n]; ok {
				diags = append(diags, errorf(RuleDuplicateBlock, "Duplicate local value", a.NameRange.Ptr(), nil,
					fmt.Sprintf("A local value named %q was already defined at %s. Local names must be unique within the intent.", n, prev.NameRange)))
				continue
			}
			pending[n] = a
		}
	}
	// What each local refers to: other locals by name, or all of them
	// (local, local["name"], or a name no local has, which the full
	// object reports with its suggestions).
	type refs struct {
		deps  []string
		whole bool
	}
	uses := make(map[string]refs, len(pending))
	waiting := make(map[string]int, len(pending))
	dependents := map[string][]string{}
	names := sortedKeys(pending)
	for _, n := range names {
		var r refs
		seen := map[string]bool{}
		for _, tr := range pending[n].Expr.Variables() {
			if tr.RootName() != "local" {
				continue
			}
			ga, ok := hcl.TraverseAttr{}, false
			if len(tr) >= 2 {
				ga, ok = tr[1].(hcl.TraverseAttr)
			}
			if _, declared := pending[ga.Name]; !ok || !declared {
				r.whole = true
				continue
			}
			if !seen[ga.Name] && ga.Name != n {
				seen[ga.Name] = true
				r.deps = append(r.deps, ga.Name)
				dependents[ga.Name] = append(dependents[ga.Name], n)
			} else if ga.Name == n {
				waiting[n]++ // refers to itself: a cycle of one
			}
		}
		uses[n] = r
		waiting[n] += len(r.deps)
	}
	var queue []string
	for _, n := range names {
		if waiting[n] == 0 {
			queue = append(queue, n)
		}
	}
	vals := map[string]cty.Value{}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		r := uses[n]
		local := make(map[string]cty.Value, len(r.deps))
		if r.whole {
			local = maps.Clone(vals)
		}
		for _, dep := range r.deps {
			local[dep] = vals[dep]
		}
		lctx := ctx.NewChild()
		lctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(local)}
		v, d := bounded.Value(pending[n].Expr, lctx)
		diags = append(diags, d...)
		if d.HasErrors() {
			v = cty.DynamicVal
		}
		vals[n] = v
		delete(pending, n)
		for _, m := range dependents[n] {
			if waiting[m]--; waiting[m] == 0 {
				queue = append(queue, m)
			}
		}
	}
	if len(pending) > 0 {
		left := sortedKeys(pending)
		list := strings.Join(left, ", ")
		if len(left) > 10 {
			list = fmt.Sprintf("%s and %d more", strings.Join(left[:10], ", "), len(left)-10)
		}
		for _, n := range left {
			a := pending[n]
			diags = append(diags, errorf(RuleLocalCycle, "Cycle in local values", a.Expr.Range().Ptr(), a.Range.Ptr(),
				fmt.Sprintf("local.%s depends on itself through other local values (%s). Break the cycle by writing one of them without the others.", n, list)))
			vals[n] = cty.DynamicVal
		}
	}
	return vals, diags
}
