package huaweice

import (
	"slices"
	"testing"
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
