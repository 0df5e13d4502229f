package bounded

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/lossless-net/lossless/internal/diag"
)

// evalAttrs parses src with a fresh budget and evaluates its attributes
// in order, each seeing the ones before it as local.NAME, the way the
// intent evaluates locals. It returns every diagnostic and the values.
func evalAttrs(t *testing.T, src string) (map[string]cty.Value, hcl.Diagnostics) {
	t.Helper()
	b := &Budget{}
	f, diags := b.Parse([]byte(src), "x.hcl")
	if diags.HasErrors() {
		return nil, diags
	}
	body := f.Body.(*hclsyntax.Body)
	fns := b.Functions(map[string]function.Function{
		"range": stdlib.RangeFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"split": stdlib.SplitFunc, "join": stdlib.JoinFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"setproduct": stdlib.SetProductFunc, "flatten": stdlib.FlattenFunc, "indent": stdlib.IndentFunc,
		"replace": stdlib.ReplaceFunc, "regexall": stdlib.RegexAllFunc, "concat": stdlib.ConcatFunc,
	})
	vals := map[string]cty.Value{}
	// Source order, which the tests write in dependency order.
	attrs := body.Attributes
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if attrs[names[j]].SrcRange.Start.Byte < attrs[names[i]].SrcRange.Start.Byte {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	for _, n := range names {
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(vals)}, Functions: fns}
		v, d := Value(attrs[n].Expr, ctx)
		diags = append(diags, d...)
		vals[n] = v
	}
	return vals, diags
}

// TestEvaluationLimits evaluates expressions that build far more than
// they are written with, each refused with its rule and nothing built
// beyond the budget.
func TestEvaluationLimits(t *testing.T) {
	for name, tt := range map[string]struct {
		src  string
		rule diag.Rule
	}{
		"range of a million":     {"x = range(1000000)\n", RuleElements},
		"range with a tiny step": {"x = range(0, 1, 0.0000001)\n", RuleElements},
		"nested for":             {"x = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]]\n", RuleBudget},
		"for over a million":     {"a = range(1000)\nx = flatten([for i in local.a : [for j in local.a : j]])\n", RuleBudget},
		"wide format":            {"x = format(\"%999999999d\", 1)\n", RuleElements},
		"formatlist":             {"a = range(1000)\nx = formatlist(\"%099999d\", local.a)\n", RuleElements},
		"split into bytes":       {"a = \"" + strings.Repeat("ab", 60_000) + "\"\nx = split(\"\", local.a)\n", RuleElements},
		"join with a long sep":   {"a = [for i in range(1000) : \"x\"]\nx = join(\"" + strings.Repeat("s", 20_000) + "\", local.a)\n", RuleElements},
		"indent":                 {"x = indent(100000000, \"a\\nb\\nc\")\n", RuleElements},
		"replace empty":          {"a = \"" + strings.Repeat("a", 10_000) + "\"\nx = replace(local.a, \"\", \"" + strings.Repeat("b", 10_000) + "\")\n", RuleElements},
		"regexall":               {"a = \"" + strings.Repeat("a", MaxElements+10) + "\"\nx = regexall(\".\", local.a)\n", RuleElements},
		"setproduct":             {"a = range(1000)\nx = setproduct(local.a, local.a)\n", RuleElements},
		"jsondecode deep":        {"x = jsondecode(\"" + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "\")\n", RuleNesting},
		"huge number":            {"x = \"a${1e100000000}\"\n", RuleElements},
		"growing number":         {"a = 1e300\nb = local.a * local.a\nc = local.b * local.b\nx = \"${local.c}\"\n", RuleElements},
		"doubling list":          {doubling("[local.d%d, local.d%d]", 30), RuleElements},
		"doubling string":        {doubling("\"${local.d%d}${local.d%d}\"", 40), RuleElements},
		"nesting locals":         {nesting(MaxNesting + 5), RuleNesting},
		"template repeats":       {"a = \"" + strings.Repeat("x", 1<<20) + "\"\nx = \"" + strings.Repeat("${local.a}", 100) + "\"\n", RuleBudget},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := evalAttrs(t, tt.src)
			var rules []diag.Rule
			for _, d := range diags {
				rules = append(rules, diag.RuleOf(d))
				if diag.RuleOf(d) == tt.rule && d.Subject == nil {
					t.Errorf("%s without a range: %s", tt.rule, d.Error())
				}
			}
			if len(rules) == 0 || rules[0] != tt.rule {
				t.Fatalf("rules %v, want %s first: %v", rules, tt.rule, diags)
			}
		})
	}
}

// doubling writes locals d0 … dN, each made of the one before twice.
func doubling(format string, n int) string {
	var b strings.Builder
	b.WriteString("d0 = \"ab\"\n")
	for i := 1; i <= n; i++ {
		b.WriteString("d" + strconv.Itoa(i) + " = " + strings.ReplaceAll(format, "%d", strconv.Itoa(i-1)) + "\n")
	}
	return b.String()
}

// nesting writes locals n0 … nN, each a list holding the one before.
func nesting(n int) string {
	var b strings.Builder
	b.WriteString("n0 = 1\n")
	for i := 1; i <= n; i++ {
		b.WriteString("n" + strconv.Itoa(i) + " = [local.n" + strconv.Itoa(i-1) + "]\n")
	}
	return b.String()
}

// TestEvaluationWithinLimits evaluates what an intent writes, with no
// diagnostic: the guards and the function wrappers let it through as is.
func TestEvaluationWithinLimits(t *testing.T) {
	vals, diags := evalAttrs(t, `a = range(24, 27)
b = [for x in local.a : "dscp-${x}"]
c = { for i, x in local.b : x => i }
d = format("%s/%03d", "Ethernet1", 7)
e = join(",", local.b)
f = "${local.d}:${local.e} ${1.5} %{ for x in local.a }${x}%{ endfor }"
g = setproduct(["a", "b"], [1, 2])
h = jsondecode("{\"k\": [1, 2, {\"x\": \"y\"}]}")
i = concat(local.a, [48])
`)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got := vals["f"].AsString(); got != "Ethernet1/007:dscp-24,dscp-25,dscp-26 1.5 242526" {
		t.Errorf("f = %q", got)
	}
	if got := vals["c"].GetAttr("dscp-26"); !got.RawEquals(cty.NumberIntVal(2)) {
		t.Errorf("c = %#v", vals["c"])
	}
	if n := vals["g"].LengthInt(); n != 4 {
		t.Errorf("setproduct gave %d elements", n)
	}
}

// TestCheck measures values as trees: a value that holds another twice
// counts it twice, and the walk stops at the limit.
func TestCheck(t *testing.T) {
	v := cty.StringVal("x")
	for range 40 {
		v = cty.TupleVal([]cty.Value{v, v}) // 2^40 leaves, 40 deep
	}
	if d := Check(v, hcl.Range{}); d == nil || diag.RuleOf(d) != RuleElements {
		t.Errorf("doubled 40 times: %v", d)
	}
	deep := cty.True
	for range MaxNesting + 1 {
		deep = cty.ListVal([]cty.Value{deep})
	}
	if d := Check(deep, hcl.Range{}); d == nil || diag.RuleOf(d) != RuleNesting {
		t.Errorf("%d deep: %v", MaxNesting+1, d)
	}
	if d := Check(cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal(strings.Repeat("x", MaxValueBytes+1))}), hcl.Range{}); d == nil || diag.RuleOf(d) != RuleElements {
		t.Errorf("long string: %v", d)
	}
	if d := Check(cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String), cty.NullVal(cty.String)}), hcl.Range{}); d != nil {
		t.Errorf("small list: %v", d)
	}
}
