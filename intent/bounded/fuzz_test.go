package bounded

import (
	"os"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// FuzzParse feeds arbitrary source to Parse and evaluates every top-level
// attribute it gives: nothing may panic or overflow the stack, every
// diagnostic's range lies in the input, and a source scan lets through
// parses to a tree at most maxTreeDepth deep (so that the bound scan puts
// on hclsyntax's recursion holds for every construct, not only the ones
// TestScanNesting writes). Seeds: the fixtures, and every construct of
// TestScanNesting nested just over the limit and 10,000 levels deep.
func FuzzParse(f *testing.F) {
	for _, p := range fixtures(f) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	for _, gen := range nest {
		f.Add([]byte(gen(MaxNesting + 1)))
		f.Add([]byte(gen(10_000)))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var b Budget
		file, diags := b.Parse(src, "fuzz.hcl")
		for _, d := range diags {
			if s := d.Subject; s != nil && (s.Start.Byte < 0 || s.End.Byte > len(src) || s.Start.Byte > s.End.Byte) {
				t.Fatalf("range %v outside the %d-byte input: %s", s, len(src), d.Error())
			}
		}
		if d, _ := scan(src, "fuzz.hcl"); d == nil {
			whole, _ := hclsyntax.ParseConfig(src, "fuzz.hcl", hcl.InitialPos)
			if depth := treeDepth(whole.Body.(*hclsyntax.Body)); depth > maxTreeDepth {
				t.Fatalf("scan let through a tree %d deep", depth)
			}
		}
		body, ok := file.Body.(*hclsyntax.Body)
		if !ok || diags.HasErrors() {
			return
		}
		ctx := &hcl.EvalContext{
			Variables: map[string]cty.Value{"local": cty.EmptyObjectVal},
			Functions: b.Functions(map[string]function.Function{"range": stdlib.RangeFunc, "format": stdlib.FormatFunc, "flatten": stdlib.FlattenFunc, "jsondecode": stdlib.JSONDecodeFunc}),
		}
		for _, a := range body.Attributes {
			Value(a.Expr, ctx)
		}
	})
}
