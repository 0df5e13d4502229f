package bounded

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/lossless-net/lossless/internal/diag"
)

// nest builds an attribute nested n levels deep in one construct.
var nest = map[string]func(n int) string{
	"list":        func(n int) string { return "x = " + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + "\n" },
	"parentheses": func(n int) string { return "x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n" },
	"object":      func(n int) string { return "x = " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n" },
	"call":        func(n int) string { return "x = " + strings.Repeat("abs(", n) + "1" + strings.Repeat(")", n) + "\n" },
	"blocks":      func(n int) string { return strings.Repeat("a {\n", n) + strings.Repeat("}\n", n) },
	"template":    func(n int) string { return "x = " + strings.Repeat(`"${`, n) + "1" + strings.Repeat(`}"`, n) + "\n" },
	"heredoc": func(n int) string {
		return "x = <<EOT\n${" + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + "}\nEOT\n"
	},
	"directive": func(n int) string {
		return "x = \"" + strings.Repeat("%{if true}", n) + "a" + strings.Repeat("%{endif}", n) + "\"\n"
	},
	"not":      func(n int) string { return "x = " + strings.Repeat("!", n) + "true\n" },
	"negation": func(n int) string { return "x = " + strings.Repeat("-", n) + "1\n" },
	"ternary":  func(n int) string { return "x = " + strings.Repeat("true ? 1 : ", n) + "1\n" },
	"sum":      func(n int) string { return "x = 1" + strings.Repeat(" + 1", n) + "\n" },
	"and":      func(n int) string { return "x = true" + strings.Repeat(" && true", n) + "\n" },
	"index":    func(n int) string { return "x = y" + strings.Repeat("[z]", n) + "\n" },
	"splat":    func(n int) string { return "x = y" + strings.Repeat("[*]", n) + "\n" },
	"for": func(n int) string {
		return "x = " + strings.Repeat("[for a in b : ", n) + "1" + strings.Repeat("]", n) + "\n"
	},
	"mixed": func(n int) string { return "x = " + strings.Repeat("!(", n) + "true" + strings.Repeat(")", n) + "\n" },
}

// TestScanNesting checks every construct that makes hclsyntax recurse:
// nested to the limit it is accepted, one level over it is refused with
// LL091 on the line that goes over.
func TestScanNesting(t *testing.T) {
	for name, gen := range nest {
		t.Run(name, func(t *testing.T) {
			// Each construct's levels per repetition: find the largest
			// count scan accepts, then check one more is refused.
			n := 0
			for n < 2*MaxNesting {
				if d, _ := scan([]byte(gen(n+1)), "x.hcl"); d != nil {
					break
				}
				n++
			}
			if n < MaxNesting/3 || n >= MaxNesting+1 {
				t.Fatalf("accepted %d levels of %s; want between %d and %d", n, name, MaxNesting/3, MaxNesting)
			}
			src := gen(n + 1)
			d, _ := scan([]byte(src), "x.hcl")
			if d == nil || diag.RuleOf(d) != RuleNesting || d.Subject == nil || d.Subject.Start.Line < 1 {
				t.Fatalf("%d levels: %v", n+1, d)
			}
			if got := d.Subject.SliceBytes([]byte(src)); len(got) == 0 {
				t.Errorf("empty subject %v", d.Subject)
			}
			// Far over the limit it is refused just the same, and fast.
			if d, _ := scan([]byte(gen(100_000)), "x.hcl"); d == nil || diag.RuleOf(d) != RuleNesting {
				t.Errorf("100,000 levels: %v", d)
			}
			// What scan accepts parses to a tree no deeper than a small
			// multiple of the limit, which hclsyntax walks and evaluates
			// with a few megabytes of stack.
			f, pd := hclsyntax.ParseConfig([]byte(gen(n)), "x.hcl", hcl.InitialPos)
			if pd.HasErrors() {
				t.Fatalf("%d levels: %s", n, pd.Error())
			}
			depth := treeDepth(f.Body.(*hclsyntax.Body))
			if depth > maxTreeDepth {
				t.Errorf("%d levels give a tree %d deep, more than %d", n, depth, maxTreeDepth)
			}
		})
	}
}

// maxTreeDepth bounds the depth of the syntax tree of any source scan
// accepts.
const maxTreeDepth = 3*MaxNesting + 8

// treeDepth is the depth of the syntax tree under n.
func treeDepth(n hclsyntax.Node) int {
	w := &depthWalker{}
	hclsyntax.Walk(n, w)
	return w.max
}

type depthWalker struct{ cur, max int }

func (w *depthWalker) Enter(hclsyntax.Node) hcl.Diagnostics {
	w.cur++
	w.max = max(w.max, w.cur)
	return nil
}

func (w *depthWalker) Exit(hclsyntax.Node) hcl.Diagnostics { w.cur--; return nil }

// TestScanText checks that brackets in strings, comments and heredoc
// text do not count, and that the template parts in them do.
func TestScanText(t *testing.T) {
	deep := strings.Repeat("[", 2*MaxNesting)
	for _, src := range []string{
		"x = \"" + deep + "\"\n",
		"x = \"\\\"" + deep + "\"\n",
		"# " + deep + "\n",
		"// " + deep + "\nx = 1\n",
		"/* " + deep + "\n" + deep + " */\n",
		"x = <<EOT\n" + deep + "\nEOT\n",
		"x = <<-EOT\n  " + deep + "\n  EOT\ny = 1\n",
		"x = \"$${" + deep + "\"\n",
		"x = \"%%{" + deep + "\"\n",
		"x = \"a\n" + deep + "\"\n",
		"x = <<EOT\nEOT is not the end\n" + deep + "\nEOT\n",
	} {
		if d, _ := scan([]byte(src), "x.hcl"); d != nil {
			t.Errorf("%.40q: %v", src, d)
		}
	}
	for _, src := range []string{
		"x = \"${" + deep + "\"\n",
		"x = <<EOT\n${" + deep + "}\nEOT\n",
		"x = <<EOT\nEOT\n" + deep + "\n",
	} {
		d, _ := scan([]byte(src), "x.hcl")
		if d == nil || diag.RuleOf(d) != RuleNesting {
			t.Errorf("%.40q: %v, want LL091", src, d)
		}
	}
}

// TestScanItems checks the item count of lists, objects, argument lists,
// blocks and the file.
func TestScanItems(t *testing.T) {
	list := func(n int, sep string) string {
		return strings.Repeat("1"+sep, n)
	}
	for name, gen := range map[string]func(n int) string{
		"list":          func(n int) string { return "x = [" + list(n, ",") + "]\n" },
		"list no comma": func(n int) string { return "x = [" + list(n-1, ",\n") + "1]\n" },
		"object":        func(n int) string { return "x = {\n" + strings.Repeat("a = 1\n", n) + "}\n" },
		"object commas": func(n int) string { return "x = {" + strings.Repeat("a = 1, ", n) + "}\n" },
		"arguments":     func(n int) string { return "x = concat(" + list(n, ",") + ")\n" },
		"block":         func(n int) string { return "b {\n" + strings.Repeat("a = 1\n", n) + "}\n" },
		"file":          func(n int) string { return strings.Repeat("b {}\n", n) },
		"string list":   func(n int) string { return "x = [" + strings.Repeat(`"a",`, n) + "]\n" },
	} {
		t.Run(name, func(t *testing.T) {
			if d, total := scan([]byte(gen(MaxElements)), "x.hcl"); d != nil || total < MaxElements {
				t.Errorf("%d items: %v, %d counted", MaxElements, d, total)
			}
			d, _ := scan([]byte(gen(MaxElements+1)), "x.hcl")
			if d == nil || diag.RuleOf(d) != RuleElements {
				t.Fatalf("%d items: %v, want LL092", MaxElements+1, d)
			}
		})
	}
	// Blank lines and comments are not items.
	if _, total := scan([]byte("\n\n# c\nb {\n\n  a = 1\n\n}\n\n"), "x.hcl"); total != 2 {
		t.Errorf("counted %d items, want 2 (the block and its attribute)", total)
	}
}

// TestScanPosition checks the range of a diagnostic: line, column (in
// characters) and byte of the opener that goes over the limit.
func TestScanPosition(t *testing.T) {
	src := "# é\nb {\n  x = \"é\" == " + strings.Repeat("[", MaxNesting) + "\n"
	d, _ := scan([]byte(src), "x.hcl")
	if d == nil {
		t.Fatal("no diagnostic")
	}
	want := hcl.Range{Filename: "x.hcl", Start: hcl.Pos{Line: 3, Column: 14 + MaxNesting - 2, Byte: strings.Index(src, "[") + MaxNesting - 2}}
	want.End = hcl.Pos{Line: 3, Column: want.Start.Column + 1, Byte: want.Start.Byte + 1}
	if *d.Subject != want {
		t.Errorf("subject %#v, want %#v", *d.Subject, want)
	}
}

// TestScanJSON checks the JSON scan: depth and items, strings skipped.
func TestScanJSON(t *testing.T) {
	ok := []string{`{"a": [1, 2, {"b": "[[[["}]}`, `"\"[["`, fmt.Sprintf(`{"a": %s1%s}`, strings.Repeat("[", MaxNesting-1), strings.Repeat("]", MaxNesting-1))}
	for _, src := range ok {
		if d, _ := scanJSON([]byte(src), "x.json"); d != nil {
			t.Errorf("%.40q: %v", src, d)
		}
	}
	bad := map[string]diag.Rule{
		fmt.Sprintf(`{"a": %s1%s}`, strings.Repeat("[", MaxNesting), strings.Repeat("]", MaxNesting)): RuleNesting,
		`{"a": [` + strings.Repeat("1,", MaxElements) + `1]}`:                                         RuleElements,
	}
	for src, rule := range bad {
		if d, _ := scanJSON([]byte(src), "x.json"); d == nil || diag.RuleOf(d) != rule {
			t.Errorf("%.40q: %v, want %s", src, d, rule)
		}
	}
}

// TestScanFixtures checks that scan accepts every fixture of the intent
// and the inventory, and the examples.
func TestScanFixtures(t *testing.T) {
	for _, p := range append(fixtures(t), "../../examples/ai-fabric/qos.hcl", "../../examples/ai-fabric/assign.hcl") {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := scan(src, p); d != nil {
			t.Errorf("%s: %v", p, d)
		}
	}
}

// TestScanNumbers checks the range of number literals: cty holds any
// number exactly, and writing out 1e100000000 takes minutes.
func TestScanNumbers(t *testing.T) {
	for src, bad := range map[string]bool{
		"x = 1e331\n":                               false,
		"x = 1.5E-331 + 12.25\n":                    false,
		"x = 1e332\n":                               true,
		"x = 1e-400\n":                              true,
		"x = 1e100000000\n":                         true,
		"x = " + strings.Repeat("9", 332) + "\n":    true,
		"x = \"1e100000000\"\n":                     false,
		"x = a1e999\n":                              false,
		"x = [1, 2e999]\n":                          true,
		"x = \"${1e999}\"\n":                        true,
		"x = 0." + strings.Repeat("0", 331) + "1\n": true,
	} {
		d, _ := scan([]byte(src), "x.hcl")
		if got := d != nil && diag.RuleOf(d) == RuleElements; got != bad {
			t.Errorf("%.40q: %v", src, d)
		}
	}
}
