package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the module path; paths below are relative to it.
const module = "github.com/lossless-net/lossless"

// A rule forbids the packages matching From to depend, directly or through
// others, on a package matching any of To, except the packages matching
// Except. Patterns are module-relative: "x" is the package x, "x/..." is x
// and every package below it, and "<v>" stands for one path element that
// must be the same vendor folder on both sides ("vendors/<v>" may import
// "renderers/<v>" of its own vendor only).
type rule struct {
	From   string
	To     []string
	Except []string
	// Tests also checks the packages' own test files' imports.
	Tests bool
	// Direct checks direct imports only: each package on the way is
	// checked itself, and a command may link every vendor (vendors/all).
	Direct bool
	Why    string
}

// rules are the forbidden dependencies; ARCHITECTURE.md's table lists
// exactly these (TestArchitectureDocMatches).
var rules = []rule{
	{From: "internal/lab/...", To: []string{"renderers/...", "vendors/...", "internal/plan/...", "internal/rollout/..."}, Tests: true,
		Why: "the lab is the independent check of renderers and drivers"},
	{From: "...", To: []string{"internal/lab/..."}, Except: []string{"cmd/...", "internal/lab/...", "vendors/vendortest"},
		Why: "production code never depends on the lab; only the CLI starts it"},
	{From: "renderers/...", To: []string{"vendors/...", "internal/plan/...", "internal/rollout/..."},
		Why: "renderers are pure functions of the desired state"},
	{From: "intent/...", To: []string{"renderers/...", "vendors/...", "internal/plan/...", "internal/rollout/..."},
		Why: "the intent knows no vendor and no device"},
	{From: "inventory/...", To: []string{"renderers/...", "vendors/...", "internal/plan/...", "internal/rollout/..."},
		Why: "the inventory takes the accepted vendor names from its caller"},
	{From: "internal/...", To: []string{"vendors/<v>/...", "renderers/<v>/..."}, Direct: true,
		Why: "shared code is vendor-neutral: it asks the vendor registry"},
	{From: "vendors/<v>/...", To: []string{"vendors/<w>/...", "renderers/<w>/..."},
		Why: "a vendor package knows its own vendor only"},
	{From: "...", To: []string{"vendors/vendortest", "internal/plan/plantest"}, Direct: true,
		Why: "test support (and the lab it starts) never reaches a binary: only _test.go files import it"},
}

// pkg is what the test reads of one package from go list.
type pkg struct {
	ImportPath   string
	Standard     bool
	Module       *struct{ Path string }
	Deps         []string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// shared are the folders under vendors/ and renderers/ that are not a
// vendor's: the registry's helpers, test support and import lists.
var shared = []string{"all", "vendortest", "gnmiclient"}

// vendorOf returns the vendor folder of rel under prefix ("vendors/"), or "".
func vendorOf(rel, prefix string) string {
	rest, ok := strings.CutPrefix(rel, prefix)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, "/")
	if slices.Contains(shared, v) {
		return ""
	}
	return v
}

// match reports whether the module-relative path rel matches pattern; v
// binds "<v>" (the vendor of the importing package) and w anything but v.
func match(pattern, rel, v string) bool {
	for _, prefix := range []string{"vendors/", "renderers/"} {
		if p, ok := strings.CutPrefix(pattern, prefix+"<v>"); ok {
			got := vendorOf(rel, prefix)
			return got != "" && (v == "" || got == v) && match("x"+p, "x"+strings.TrimPrefix(rel, prefix+got), "")
		}
		if p, ok := strings.CutPrefix(pattern, prefix+"<w>"); ok {
			got := vendorOf(rel, prefix)
			return got != "" && got != v && match("x"+p, "x"+strings.TrimPrefix(rel, prefix+got), "")
		}
	}
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	return rel == pattern
}

// loadGraph runs go list -deps -json over the module and returns its own
// packages by module-relative path.
func loadGraph(t *testing.T) map[string]*pkg {
	t.Helper()
	root := moduleRoot(t)
	goCmd, err := exec.LookPath("go") // go test puts its GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("no go command: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), goCmd, "list", "-deps", "-test=false", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	return parseGraph(t, out)
}

func parseGraph(t *testing.T, out []byte) map[string]*pkg {
	t.Helper()
	graph := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Module == nil || p.Module.Path != module {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		graph[rel] = &p
	}
	if len(graph) == 0 {
		t.Fatal("go list found no package of " + module)
	}
	return graph
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", wd)
		}
	}
}

// violations returns every forbidden dependency in graph, one line each:
// "FROM imports TO (through VIA): WHY".
func violations(graph map[string]*pkg) []string {
	var out []string
	rels := make([]string, 0, len(graph))
	for r := range graph {
		rels = append(rels, r)
	}
	slices.Sort(rels)
	for _, r := range rules {
		for _, from := range rels {
			if !match(r.From, from, "") || slices.ContainsFunc(r.Except, func(e string) bool { return match(e, from, "") }) {
				continue
			}
			v := vendorOf(from, "vendors/")
			if v == "" {
				v = vendorOf(from, "renderers/")
			}
			p := graph[from]
			deps := p.Deps
			if r.Direct {
				deps = p.Imports
			}
			if r.Tests {
				deps = slices.Concat(deps, p.TestImports, p.XTestImports)
			}
			for _, dep := range deps {
				to, ok := strings.CutPrefix(dep, module+"/")
				if !ok || to == from {
					continue
				}
				if !slices.ContainsFunc(r.To, func(pat string) bool { return match(pat, to, v) }) {
					continue
				}
				via := ""
				if !slices.Contains(p.Imports, dep) && !slices.Contains(p.TestImports, dep) && !slices.Contains(p.XTestImports, dep) {
					via = " (through " + through(graph, from, dep) + ")"
				}
				out = append(out, fmt.Sprintf("%s imports %s%s: %s", from, to, via, r.Why))
			}
		}
	}
	return out
}

// through names the first direct import of from that leads to dep.
func through(graph map[string]*pkg, from, dep string) string {
	for _, imp := range graph[from].Imports {
		rel, ok := strings.CutPrefix(imp, module+"/")
		if !ok {
			continue
		}
		if q := graph[rel]; q != nil && slices.Contains(q.Deps, dep) {
			return rel
		}
	}
	return "?"
}

// TestImportGraph fails on every dependency the architecture forbids.
func TestImportGraph(t *testing.T) {
	graph := loadGraph(t)
	for _, v := range violations(graph) {
		t.Error(v)
	}
}

// TestRulesCatch shows that each rule catches the import it forbids, on a
// made-up graph: a test that could never fail would prove nothing.
func TestRulesCatch(t *testing.T) {
	cases := []struct{ from, to string }{
		{"internal/lab/nxos", "vendors/nxos"},
		{"internal/lab", "internal/plan"},
		{"internal/plan", "internal/lab"},
		{"renderers/sonic", "vendors"},
		{"intent", "renderers"},
		{"intent/platform", "internal/rollout"},
		{"inventory", "vendors"},
		{"internal/plan", "vendors/eos"},
		{"vendors/eos", "renderers/nxos"},
		{"vendors/eos", "vendors/sonic"},
		{"vendors/eos", "vendors/vendortest"},
		{"internal/apply", "internal/plan/plantest"},
	}
	for _, c := range cases {
		graph := map[string]*pkg{
			c.from: {ImportPath: module + "/" + c.from, Imports: []string{module + "/" + c.to}, Deps: []string{module + "/" + c.to}},
			c.to:   {ImportPath: module + "/" + c.to},
		}
		if len(violations(graph)) == 0 {
			t.Errorf("%s importing %s is not caught", c.from, c.to)
		}
	}
	allowed := []struct{ from, to string }{
		{"vendors/eos", "renderers/eos"},
		{"vendors/eos", "vendors/gnmiclient"},
		{"vendors/all", "vendors/eos"},
		{"cmd/lossless", "internal/lab"},
		{"vendors/vendortest", "internal/lab"},
		{"internal/lab/eos", "intent/platform"},
		{"internal/plan", "vendors"},
	}
	for _, c := range allowed {
		graph := map[string]*pkg{
			c.from: {ImportPath: module + "/" + c.from, Imports: []string{module + "/" + c.to}, Deps: []string{module + "/" + c.to}},
			c.to:   {ImportPath: module + "/" + c.to},
		}
		if v := violations(graph); len(v) > 0 {
			t.Errorf("%s importing %s is allowed, got %q", c.from, c.to, v)
		}
	}
}

// docRule is one row of ARCHITECTURE.md's "Forbidden dependencies" table:
// | `FROM` | `TO`, `TO` | `EXCEPT` | why |.
var docRow = regexp.MustCompile("^\\| *(`[^|]+`) *\\| *([^|]+?) *\\| *([^|]*?) *\\|")

// TestArchitectureDocMatches checks that ARCHITECTURE.md's table of
// forbidden dependencies lists exactly the rules this test enforces.
func TestArchitectureDocMatches(t *testing.T) {
	f, err := os.Open(filepath.Join(moduleRoot(t), "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ticks := func(s string) []string {
		var out []string
		for _, p := range strings.Split(s, ",") {
			if p = strings.Trim(strings.TrimSpace(p), "`"); p != "" && p != "—" {
				out = append(out, p)
			}
		}
		return out
	}
	var got []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(line, "## Forbidden dependencies")
			continue
		}
		if m := docRow.FindStringSubmatch(line); in && m != nil {
			got = append(got, fmt.Sprintf("%v ↛ %v except %v", ticks(m[1]), ticks(m[2]), ticks(m[3])))
		}
	}
	var want []string
	for _, r := range rules {
		want = append(want, fmt.Sprintf("%v ↛ %v except %v", []string{r.From}, r.To, r.Except))
	}
	if !slices.Equal(got, want) {
		t.Errorf("ARCHITECTURE.md's forbidden dependencies differ from the test's rules:\n got %q\nwant %q", got, want)
	}
}
