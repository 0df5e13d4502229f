// Package textdiff prints the unified diff of two texts in line mode, as
// diff -u does: the plan's per-device diff, the golden-file comparison and
// the tests' "device changed" reports all read it. It knows lines and
// nothing about what they say.
package textdiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// context is the number of unchanged lines around each change.
const context = 3

// Unified returns the unified diff from a to b in line mode, with
// "--- aName" / "+++ bName" headers and 3 lines of context; "" when they are
// equal. A last line without a newline is marked as diff(1) does.
func Unified(aName, bName, a, b string) string {
	if a == b {
		return ""
	}
	dmp := diffmatchpatch.New()
	ac, bc, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ac, bc, false), lines)

	type line struct {
		op   diffmatchpatch.Operation
		text string
	}
	var all []line
	for _, d := range diffs {
		for _, l := range splitLines(d.Text) {
			all = append(all, line{d.Type, l})
		}
	}

	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for i := 0; i < len(all); {
		if all[i].op == diffmatchpatch.DiffEqual {
			i++
			continue
		}
		// A hunk: from context lines before the change to context lines
		// after the last change closer than 2×context.
		start := max(0, i-context)
		end := i
		for j := i; j < len(all); j++ {
			if all[j].op != diffmatchpatch.DiffEqual {
				end = j + 1
			} else if j-end >= 2*context {
				break
			}
		}
		stop := min(len(all), end+context)
		aStart, bStart := 1, 1
		for _, l := range all[:start] {
			if l.op != diffmatchpatch.DiffInsert {
				aStart++
			}
			if l.op != diffmatchpatch.DiffDelete {
				bStart++
			}
		}
		aLen, bLen := 0, 0
		var body strings.Builder
		for _, l := range all[start:stop] {
			prefix := " "
			switch l.op {
			case diffmatchpatch.DiffDelete:
				prefix = "-"
				aLen++
			case diffmatchpatch.DiffInsert:
				prefix = "+"
				bLen++
			default:
				aLen++
				bLen++
			}
			body.WriteString(prefix + strings.TrimSuffix(l.text, "\n") + "\n")
			if !strings.HasSuffix(l.text, "\n") {
				body.WriteString("\\ No newline at end of file\n")
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		out.WriteString(body.String())
		i = stop
	}
	return out.String()
}

// hunkRange prints a unified-diff range: "start,len", or "start" for one
// line; an empty range starts one line earlier, as diff(1) prints it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// splitLines splits s after each newline, keeping the newlines.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
