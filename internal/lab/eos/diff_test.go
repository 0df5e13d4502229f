package eos

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestDiffLinearSpace: show session-config diffs of two configs of 40000
// lines each stays under 64 MB (the table of every line pair the lab had
// needs 40001² ints, 12.8 GB), and a one-line change prints diff -u's hunk
// header.
func TestDiffLinearSpace(t *testing.T) {
	var a, b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&a, "interface Ethernet%d\n   mtu 9214\n", i)
		if i == 10000 {
			fmt.Fprintf(&b, "interface Ethernet%d\n   mtu 1500\n", i)
			continue
		}
		fmt.Fprintf(&b, "interface Ethernet%d\n   mtu 9214\n", i)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := unifiedDiff("system:/running-config", "session:/s-session-config", a.String(), b.String())
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("diff of two 40000-line configs allocated %d MB", alloc>>20)
	}
	want := "--- system:/running-config\n+++ session:/s-session-config\n@@ -19999,7 +19999,7 @@\n" +
		" interface Ethernet9999\n    mtu 9214\n interface Ethernet10000\n-   mtu 9214\n+   mtu 1500\n" +
		" interface Ethernet10001\n    mtu 9214\n interface Ethernet10002\n"
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if got, want := unifiedDiff("a", "b", "x\n", "y\n"), "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n"; got != want {
		t.Errorf("one-line diff:\n%s\nwant:\n%s", got, want)
	}
}
