package inventory

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/lossless-net/lossless/internal/diag"
)

// TestLiteralFastPath checks that reading a quoted string (or a list of
// them) from the syntax tree gives what evaluating the expression gives,
// and that anything else is left to evaluation.
func TestLiteralFastPath(t *testing.T) {
	for _, tt := range []struct {
		expr string
		fast bool
	}{
		{`"Ethernet1/1"`, true},
		{`"e\u0301"`, true}, // NFC-normalised by both
		{`"tab\there \"quoted\""`, true},
		{`"$${not} %%{a template}"`, true},
		{`""`, true},
		{`"a${"b"}"`, false},
		{`"${"b"}"`, false},
		{`"%{ if true }x%{ endif }"`, false},
		{"<<EOT\nx\nEOT\n", true}, // a heredoc without interpolation is one literal too
		{`400`, false},
		{`true`, false},
		{`null`, false},
		{`x`, false},
		{`["leaf", "pod1"]`, true},
		{`["leaf", ""]`, false}, // empty element: the slow path reports it
		{`["a${"b"}"]`, false},
		{`[]`, false},
		{`["leaf", 1]`, false},
		{`{a = "b"}`, false},
	} {
		t.Run(tt.expr, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(tt.expr), "x.hcl", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			var fast cty.Value
			s, okS := literalString(expr)
			l, okL := literalStrings(expr)
			switch {
			case okS:
				fast = cty.StringVal(s)
			case okL:
				vals := make([]cty.Value, len(l))
				for i, s := range l {
					vals[i] = cty.StringVal(s)
				}
				fast = cty.TupleVal(vals)
			}
			if ok := okS || okL; ok != tt.fast {
				t.Fatalf("fast path taken: %v, want %v", ok, tt.fast)
			}
			if !tt.fast {
				return
			}
			slow, diags := expr.Value(nil)
			if diags.HasErrors() || !slow.Equals(fast).True() {
				t.Errorf("fast %#v, evaluated %#v (%v)", fast, slow, diags)
			}
			if v, _ := value(expr); okS && !v.RawEquals(cty.StringVal(s)) {
				t.Errorf("value() = %#v", v)
			}
		})
	}
}

// TestDevicePortsOrder checks the ports of one device as Parse returns
// them: natural order whatever the writing order, each name once, and a
// duplicate reported on the label of the block that repeats it, in one
// block as across blocks.
func TestDevicePortsOrder(t *testing.T) {
	for _, tt := range []struct {
		name   string
		blocks []string
		want   []string
		dups   []string // "line:summary" of each diagnostic
	}{
		{"one sorted block", []string{"Ethernet1/1-3"}, []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"}, nil},
		{"one unsorted block", []string{"Ethernet1/10,Ethernet1/2,Ethernet1/1"}, []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/10"}, nil},
		{"duplicate in one block", []string{"Ethernet1/1-3,Ethernet1/2"}, []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"}, []string{"5:Duplicate port"}},
		{"two blocks", []string{"Ethernet1/3-4", "Ethernet1/1-2"}, []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4"}, nil},
		{"duplicate across blocks", []string{"Ethernet1/1-2", "Ethernet1/2"}, []string{"Ethernet1/1", "Ethernet1/2"}, []string{"8:Duplicate port"}},
		{"no block", nil, []string{}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("device \"a\" {\n  vendor   = \"nxos\"\n  platform = \"N9K-C93600CD-GX\"\n  address  = \"192.0.2.1\"\n")
			for _, r := range tt.blocks {
				b.WriteString("  ports \"" + r + "\" {\n    speed = \"100G\"\n  }\n")
			}
			b.WriteString("}\n")
			inv, diags := Parse([]byte(b.String()), "p.hcl", testVendors)
			var got []string
			for _, d := range diags {
				got = append(got, strings.TrimPrefix(d.Subject.String(), "p.hcl:")[:1]+":"+d.Summary)
				if diag.RuleOf(d) != RuleDuplicatePort {
					t.Errorf("unexpected diagnostic %s", d.Error())
				}
			}
			if !slices.Equal(got, tt.dups) {
				t.Errorf("diagnostics %q, want %q", got, tt.dups)
			}
			names := []string{}
			for _, p := range inv.Devices[0].Ports {
				names = append(names, p.Name)
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("ports %q, want %q", names, tt.want)
			}
		})
	}
}

// TestExpandCache checks that a pattern expanded again through the
// parser's cache gives the same names and the same error.
func TestExpandCache(t *testing.T) {
	p := &parser{}
	for _, pat := range []string{"Ethernet1/1-4", "Ethernet1/1-4", "Ethernet4-1", "Ethernet4-1"} {
		want, wantErr := ExpandPorts(pat)
		got, err := p.expand(pat)
		if !slices.Equal(got, want) || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("expand(%q) = %q, %v; ExpandPorts gives %q, %v", pat, got, err, want, wantErr)
		}
	}
	if len(p.expanded) != 2 {
		t.Errorf("cache holds %d patterns, want 2", len(p.expanded))
	}
}

// TestBodyContentSameAsContent checks bodyContent against hclsyntax's
// Content on every body of every inventory fixture, with the schema Parse
// uses for it and with schemas it does not fit.
func TestBodyContentSameAsContent(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.hcl")
	more, _ := filepath.Glob("testdata/invalid/*.hcl")
	srcs := map[string][]byte{"fabric": fabricInventory(6), "odd": []byte("device \"a\" \"b\" {\n  x = 1\n  ports {\n  }\n  nested {\n  }\n}\nlink {\n  a = \"x:y\"\n  c = 1\n}\n")}
	for _, p := range append(files, more...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs[p] = src
	}
	schemaOf := map[string]*hcl.BodySchema{"credentials": credentialsSchema, "device": deviceSchema, "ports": portsSchema, "link": linkSchema}
	required := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "vendor", Required: true}, {Name: "nothere", Required: true}}}
	noFuncs := cmp.FilterPath(func(p cmp.Path) bool { return p.Last().Type().Kind() == reflect.Func }, cmp.Ignore())
	opts := cmp.Options{cmp.Exporter(func(reflect.Type) bool { return true }), noFuncs}
	compare := func(t *testing.T, body hcl.Body, schema *hcl.BodySchema) {
		want, wantDiags := body.Content(schema)
		got, gotDiags := bodyContent(body, schema)
		// hclsyntax reports unsupported items in map order: compare sorted.
		text := func(ds hcl.Diagnostics) []string {
			var out []string
			for _, d := range ds {
				out = append(out, d.Error())
			}
			slices.Sort(out)
			return out
		}
		if !slices.Equal(text(wantDiags), text(gotDiags)) {
			t.Errorf("diagnostics: Content %v, bodyContent %v", wantDiags, gotDiags)
		}
		if d := cmp.Diff(want, got, opts); d != "" {
			t.Errorf("content differs (-Content +bodyContent):\n%s", d)
		}
	}
	var walk func(t *testing.T, body *hclsyntax.Body, schema *hcl.BodySchema)
	walk = func(t *testing.T, body *hclsyntax.Body, schema *hcl.BodySchema) {
		for _, s := range []*hcl.BodySchema{schema, rootSchema, portsSchema, required} {
			compare(t, body, s)
		}
		for _, b := range body.Blocks {
			if s, ok := schemaOf[b.Type]; ok {
				walk(t, b.Body, s)
			}
		}
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			f, _ := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
			if f == nil || f.Body == nil {
				return
			}
			walk(t, f.Body.(*hclsyntax.Body), rootSchema)
		})
	}
}
