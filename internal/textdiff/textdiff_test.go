package textdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnified(t *testing.T) {
	a := "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n"
	b := "l1\nl2\nl3\nl4\nX5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\n"
	want := `--- want/a.cfg
+++ a.cfg (rendered)
@@ -2,7 +2,7 @@
 l2
 l3
 l4
-l5
+X5
 l6
 l7
 l8
@@ -10,3 +10,4 @@
 l10
 l11
 l12
+l13
`
	if diff := cmp.Diff(want, Unified("want/a.cfg", "a.cfg (rendered)", a, b)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := Unified("a", "b", a, a); got != "" {
		t.Errorf("equal inputs give %q", got)
	}
	// Two changes 6 lines apart share one hunk; a missing final newline
	// is marked.
	got := Unified("a", "b", "1\n2\n3\n4\n5\n6\n7\n8\n", "0\n2\n3\n4\n5\n6\n7\n9")
	want = "--- a\n+++ b\n@@ -1,8 +1,8 @@\n-1\n+0\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+9\n\\ No newline at end of file\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestUnifiedCases: diff -u's output for the edge cases, byte for byte.
func TestUnifiedCases(t *testing.T) {
	const h = "--- a\n+++ b\n"
	const noEOL = "\\ No newline at end of file\n"
	tests := []struct {
		name, a, b, want string
	}{
		{"both empty", "", "", ""},
		{"equal", "x\ny\n", "x\ny\n", ""},
		{"from empty", "", "x\ny\n", h + "@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"to empty", "x\ny\n", "", h + "@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{"all new", "a\nb\n", "c\nd\n", h + "@@ -1,2 +1,2 @@\n-a\n-b\n+c\n+d\n"},
		{"one line each", "a\n", "b\n", h + "@@ -1 +1 @@\n-a\n+b\n"},
		{"insert first and last, two hunks",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			h + "@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n@@ -9,3 +10,4 @@\n 9\n 10\n 11\n+12\n"},
		// Equal-cost scripts: go-diff kept A and B (its half-match
		// shortcut); the bisection keeps 4 and 5.
		{"moved block", "1\n2\n3\nA\nB\n4\n5\n6\n7\n", "1\n2\n3\n4\n5\nA\nB\n6\n7\n",
			h + "@@ -1,9 +1,9 @@\n 1\n 2\n 3\n-A\n-B\n 4\n 5\n+A\n+B\n 6\n 7\n"},
		{"block moved to the end", "A\nB\nC\n1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\n5\n6\n7\n8\nA\nB\nC\n",
			h + "@@ -1,6 +1,3 @@\n-A\n-B\n-C\n 1\n 2\n 3\n@@ -9,3 +6,6 @@\n 6\n 7\n 8\n+A\n+B\n+C\n"},
		{"repeated line removed", "x\nx\nx\n", "x\nx\n", h + "@@ -1,3 +1,2 @@\n x\n x\n-x\n"},
		{"repeated pair removed", "x\ny\nx\ny\n", "x\ny\n", h + "@@ -1,4 +1,2 @@\n x\n y\n-x\n-y\n"},
		{"stanza inserted between separators", "!\na\n!\nb\n!\n", "!\na\n!\nc\n!\nb\n!\n",
			h + "@@ -1,5 +1,7 @@\n !\n a\n !\n+c\n+!\n b\n !\n"},
		{"empty lines", "\n\n\n", "\n\n", h + "@@ -1,3 +1,2 @@\n \n \n-\n"},
		{"empty line added", "a\n", "a\n\n", h + "@@ -1 +1,2 @@\n a\n+\n"},
		{"newline added at end", "x\ny", "x\ny\n", h + "@@ -1,2 +1,2 @@\n x\n-y\n" + noEOL + "+y\n"},
		{"newline removed at end", "x\ny\n", "x\ny", h + "@@ -1,2 +1,2 @@\n x\n-y\n+y\n" + noEOL},
		{"last line changed, no newlines", "x\ny", "x\nz", h + "@@ -1,2 +1,2 @@\n x\n-y\n" + noEOL + "+z\n" + noEOL},
		{"only line, no newline, removed", "y", "", h + "@@ -1 +0,0 @@\n-y\n" + noEOL},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Unified("a", "b", tc.a, tc.b)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if b := apply(t, tc.a, got); b != tc.b {
				t.Errorf("the diff applied to a gives %q, want %q", b, tc.b)
			}
		})
	}
}

// lazyScript is a Script whose lines are made as printed: run i's line k
// is "<i>.<k>".
type lazyScript struct {
	runs    []run
	printed int // lines made
}

func (s *lazyScript) Len() int            { return len(s.runs) }
func (s *lazyScript) Run(i int) (Op, int) { return s.runs[i].op, s.runs[i].n }

func (s *lazyScript) AppendLines(dst []byte, i, from, to int) []byte {
	for k := from; k < to; k++ {
		dst = fmt.Appendf(dst, "%c%d.%d\n", s.runs[i].op, i, k)
		s.printed++
	}
	return dst
}

// text returns the lines of a (or b) the script holds.
func (s *lazyScript) text(skip Op) string {
	var b strings.Builder
	for i, r := range s.runs {
		if r.op != skip {
			for k := range r.n {
				fmt.Fprintf(&b, "%d.%d\n", i, k)
			}
		}
	}
	return b.String()
}

// TestHunks: a script's hunks are Unified's for the texts it holds (all
// lines distinct, so one script is shortest), and only printed lines are
// made.
func TestHunks(t *testing.T) {
	s := &lazyScript{runs: []run{
		{op: Equal, n: 1000}, {op: Delete, n: 2}, {op: Insert, n: 1}, {op: Equal, n: 6},
		{op: Insert, n: 3}, {op: Equal, n: 0}, {op: Equal, n: 500}, {op: Delete, n: 1}, {op: Equal, n: 2},
	}}
	want := Unified("a", "b", s.text(Insert), s.text(Delete))
	if d := cmp.Diff(want, Hunks("a", "b", s)); d != "" {
		t.Errorf("(-Unified +Hunks):\n%s", d)
	}
	if body := strings.Count(want, "\n") - 2 - strings.Count(want, "@@ -"); s.printed != body {
		t.Errorf("%d lines made for %d printed", s.printed, body)
	}
	if got := Hunks("a", "b", &lazyScript{runs: []run{{op: Equal, n: 5}}}); got != "" {
		t.Errorf("no change gives %q", got)
	}
}
