// Package docs holds the user documentation (language.md, rules.md) and
// the tests that keep it true to the code: the rule index is generated
// from the rule constants, the feature table from the vendor registry.
package docs

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all"
)

var update = flag.Bool("update", false, "rewrite the generated parts of the docs")

// docPrefix is the constant's name at the head of its doc comment.
var docPrefix = regexp.MustCompile(`^Rule\w+(:| marks)? `)

// rule is one rule constant: its ID, what it checks, and where.
type rule struct {
	id, what, pkg string
}

// rules reads every rule constant (a string constant "LLnnn") of the
// module's non-test Go files, with its comment.
func rules(t *testing.T) []rule {
	t.Helper()
	var out []rule
	seen := map[string]string{}
	idRe := regexp.MustCompile(`^LL\d{3}$`)
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					id, _ := strconv.Unquote(lit.Value)
					if !idRe.MatchString(id) {
						continue
					}
					what := strings.TrimSpace(vs.Comment.Text())
					if what == "" {
						what = strings.TrimSpace(vs.Doc.Text())
					}
					if what == "" && len(gd.Specs) == 1 {
						what = strings.TrimSpace(gd.Doc.Text())
					}
					what = strings.Join(strings.Fields(what), " ")
					what = strings.TrimSuffix(docPrefix.ReplaceAllString(what, ""), ".")
					pkg, _ := filepath.Rel("..", filepath.Dir(path))
					if prev, dup := seen[id]; dup {
						if prev != pkg {
							t.Errorf("rule %s is defined in %s and %s", id, prev, pkg)
						}
						continue
					}
					seen[id] = pkg
					out = append(out, rule{id, what, pkg})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(out, func(a, b rule) int { return strings.Compare(a.id, b.id) })
	return out
}

// TestRules: rules.md lists every rule constant of the code with what it
// checks (-update rewrites it), and no rule that does not exist.
func TestRules(t *testing.T) {
	rs := rules(t)
	if len(rs) < 60 {
		t.Fatalf("only %d rules found", len(rs))
	}
	var b bytes.Buffer
	b.WriteString("# Rule index\n\nEvery diagnostic lossless prints carries one of these rule IDs. They are stable: a rule keeps\nits ID for good and a retired ID is never reused. Generated from the code by `go test ./docs\n-update`; [language.md](language.md) describes the language they check.\n\n")
	b.WriteString("| rule | checks | defined in |\n| --- | --- | --- |\n")
	for _, r := range rs {
		if r.what == "" {
			t.Errorf("rule %s (%s) has no comment saying what it checks", r.id, r.pkg)
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` |\n", r.id, strings.ReplaceAll(r.what, "|", `\|`), r.pkg)
	}
	compare(t, "rules.md", b.Bytes())
}

// TestFeatures: language.md's feature table says, for every intent
// feature, which vendors render it, as the registry does (-update
// rewrites it).
func TestFeatures(t *testing.T) {
	src, err := os.ReadFile("language.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- features:begin -->\n", "<!-- features:end -->"
	i, j := bytes.Index(src, []byte(begin)), bytes.Index(src, []byte(end))
	if i < 0 || j < i {
		t.Fatal("language.md lacks the features markers")
	}
	names := vendors.Names()
	var b bytes.Buffer
	b.WriteString("| feature | " + strings.Join(names, " | ") + " |\n|---" + strings.Repeat("|---", len(names)) + "|\n")
	for _, f := range intent.Features {
		fmt.Fprintf(&b, "| `%s` |", f)
		for _, n := range names {
			v, _ := vendors.Lookup(n)
			mark := " — |"
			if slices.Contains(v.Features, f) {
				mark = " yes |"
			}
			b.WriteString(mark)
		}
		b.WriteString("\n")
	}
	out := append(append(append([]byte{}, src[:i+len(begin)]...), b.Bytes()...), src[j:]...)
	compare(t, "language.md", out)
}

// TestReferenceCoversRules: every rule language.md cites exists.
func TestReferenceCoversRules(t *testing.T) {
	src, err := os.ReadFile("language.md")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, r := range rules(t) {
		known[r.id] = true
	}
	for _, m := range regexp.MustCompile(`LL\d{3}`).FindAllString(string(src), -1) {
		if !known[m] {
			t.Errorf("language.md cites %s, which no rule has", m)
		}
	}
}

func compare(t *testing.T, name string, want []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go test ./docs -update and read the diff", name)
	}
}
