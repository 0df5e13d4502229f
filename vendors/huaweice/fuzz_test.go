package huaweice

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/inventory"
)

// FuzzParseRunning: any running config text parses and diffs without a
// panic, the same input gives the same change twice, and printing the
// parsed tree back as the device does changes nothing.
func FuzzParseRunning(f *testing.F) {
	want := canonicalText(f)
	f.Add([]byte(want))
	f.Add(LabSeed([]byte(want)))
	f.Add([]byte("#\ninterface 100ge 1/0/1\n qos drr 0\n qos queue 9 drr weight\n priority\n#\ndcb pfc\n  deep\n"))
	doc := document(f, want)
	f.Fuzz(func(t *testing.T, running []byte) {
		a, err := Diff("leaf1", running, doc)
		if err != nil {
			return
		}
		b, err := Diff("leaf1", running, doc)
		if err != nil || !slices.Equal(a.Commands, b.Commands) || a.Diff != b.Diff {
			t.Fatalf("two diffs of the same input differ: %v\n%q\n%q", err, a.Commands, b.Commands)
		}
		if _, err := Scoped(running); err != nil {
			t.Fatalf("Scoped refused what Diff parsed: %v", err)
		}
		nodes, err := Parse(running)
		if err != nil {
			t.Fatal(err)
		}
		// The device's own printing of what was parsed means the same.
		c, err := Diff("leaf1", Text(nodes), doc)
		if err != nil || !slices.Equal(a.Commands, c.Commands) {
			t.Fatalf("reprinted config diffs differently: %v\n%q\n%q", err, a.Commands, c.Commands)
		}
	})
}

// FuzzImport: any text imports without a panic (an error or a result),
// and twice to the same result; every unexpressed line is a line of the
// text. Seeds: the canonical rendering, its lab seed and the corpus
// fixtures (testdata/realworld/huaweice).
func FuzzImport(f *testing.F) {
	want := canonicalText(f)
	f.Add([]byte(want))
	f.Add(LabSeed([]byte(want)))
	f.Add([]byte("#\ninterface 100GE1/0/1\n trust upstream x\n qos queue 3 ecn\n qos drr 0 to 9\n#\ndiffserv domain x\n ip-dscp-inbound 99 phb zz\n#\ndcb pfc\n priority 3 x\n"))
	fixtures, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "realworld", "huaweice", "*", "running.cfg"))
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	devB := &inventory.Device{Name: "ce1", Platform: &platform.Platform{Model: "CE8855", Family: "B"}}
	devA := &inventory.Device{Name: "ce1", Platform: &platform.Platform{Model: "CE8850-HAM", Family: "A"}}
	f.Fuzz(func(t *testing.T, running []byte) {
		lines := strings.Count(string(running), "\n") + 1
		for _, dev := range []*inventory.Device{nil, devA, devB} {
			a, err := Import(dev, running)
			if err != nil {
				continue
			}
			b, err := Import(dev, running)
			if err != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("two imports of the same text differ: %v", err)
			}
			for _, u := range a.Unexpressed {
				if u.Line < 1 || u.Line > lines {
					t.Fatalf("unexpressed line %d outside the text's %d lines", u.Line, lines)
				}
			}
		}
		_, _ = Saved(running)
	})
}
