package textdiff

import (
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
