package golden_test

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/lossless-net/lossless/internal/config"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/golden"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/render"
	_ "github.com/lossless-net/lossless/vendors/all"
)

var update = flag.Bool("update", false, "rewrite the want/ files of every golden scenario (never its inputs)")

// inputsOf names scenarios whose intent and inventory live elsewhere; the
// others read them from golden/<scenario>/.
var inputsOf = map[string]string{
	"ai-fabric": filepath.Join("..", "examples", "ai-fabric"),
}

// scenario is one golden directory.
type scenario struct {
	name   string
	inputs string // intent directory with inventory.hcl
	want   string // expected renderings
}

func scenarios(t *testing.T) []scenario {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var out []scenario
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" {
			continue
		}
		in := e.Name()
		if alt, ok := inputsOf[e.Name()]; ok {
			in = alt
		}
		out = append(out, scenario{name: e.Name(), inputs: in, want: filepath.Join(e.Name(), "want")})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	if len(out) == 0 {
		t.Fatal("no golden scenario found")
	}
	return out
}

// renderScenario loads, resolves and renders every device of a scenario.
// A device without a registered renderer is an error, not a skip.
func renderScenario(s scenario) (map[string][]byte, []string, error) {
	f, diags := load.Fabric(s.inputs, load.Options{})
	if diags.HasErrors() {
		var b bytes.Buffer
		_ = hcl.NewDiagnosticTextWriter(&b, f.Files, 0, false).WriteDiagnostics(diags)
		return nil, nil, fmt.Errorf("load %s:\n%s", s.inputs, b.String())
	}
	out, err := render.All(f.Devices, render.Native, 0)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	for _, f := range out {
		warnings = append(warnings, config.Messages(f.Warnings)...)
	}
	return render.Map(out), warnings, nil
}

// TestGolden renders every scenario twice at once (load, resolve and render
// each time), requires identical bytes, and compares the result with
// want/; -update rewrites want/ instead.
func TestGolden(t *testing.T) {
	for _, s := range scenarios(t) {
		t.Run(s.name, func(t *testing.T) {
			var (
				wg    sync.WaitGroup
				got   [2]map[string][]byte
				warns [2][]string
				errs  [2]error
			)
			for i := range 2 {
				wg.Go(func() { got[i], warns[i], errs[i] = renderScenario(s) })
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			if !sameFiles(got[0], got[1]) || strings.Join(warns[0], "\n") != strings.Join(warns[1], "\n") {
				t.Fatal("two renderings of the same scenario differ: output is not deterministic")
			}
			for _, w := range warns[0] {
				t.Log("warning:", w)
			}
			if *update {
				if err := golden.Update(s.want, got[0]); err != nil {
					t.Fatal(err)
				}
				return
			}
			ms, err := golden.Compare(s.want, got[0])
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) > 0 {
				var b strings.Builder
				golden.Report(&b, s.want, ms)
				t.Errorf("rendering differs from %s (run `go test ./golden -update` and read every changed line against reference/):\n%s", s.want, b.String())
			}
		})
	}
}

func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}
