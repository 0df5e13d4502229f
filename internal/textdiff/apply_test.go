package textdiff

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n$`)

const noEOLMark = "\\ No newline at end of file\n"

// apply returns a with the unified diff d applied, checking on the way
// that d is one as diff -u prints it: the two headers; hunks in order,
// apart, their ranges right; each change with 3 unchanged lines around
// it (fewer only at a text's start or end) and at most 6 between two
// changes of a hunk; the no-newline mark only after a text's last line.
func apply(t testing.TB, a, d string) string {
	t.Helper()
	if d == "" {
		return a
	}
	src := strings.SplitAfter(a, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	lines := strings.SplitAfter(d, "\n")
	if lines[len(lines)-1] != "" {
		t.Fatalf("diff does not end with a newline:\n%s", d)
	}
	lines = lines[:len(lines)-1]
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		t.Fatalf("no headers:\n%s", d)
	}
	var out []string
	pos := 0 // lines of a used
	for i := 2; i < len(lines); {
		m := hunkHeader.FindStringSubmatch(lines[i])
		if m == nil {
			t.Fatalf("line %d: %q is not a hunk header:\n%s", i+1, lines[i], d)
		}
		aFrom, aLen := hunkRange(m[1], m[2])
		bFrom, bLen := hunkRange(m[3], m[4])
		if aFrom < pos || (i > 2 && aFrom == pos) {
			t.Fatalf("line %d: hunk at line %d of a overlaps or touches the one before:\n%s", i+1, aFrom, d)
		}
		out = append(out, src[pos:aFrom]...)
		if len(out) != bFrom {
			t.Fatalf("line %d: hunk at line %d of b, want %d:\n%s", i+1, bFrom, len(out), d)
		}
		pos, i = aFrom, i+1
		var signs []byte
		na, nb := 0, 0
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			sign, text := lines[i][0], lines[i][1:]
			i++
			if i < len(lines) && lines[i] == noEOLMark {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			if sign != '+' {
				if pos >= len(src) || src[pos] != text {
					t.Fatalf("line %d: %q is not line %d of a:\n%s", i, text, pos+1, d)
				}
				pos, na = pos+1, na+1
			}
			if sign != '-' {
				out, nb = append(out, text), nb+1
			}
			if sign != ' ' && sign != '-' && sign != '+' {
				t.Fatalf("line %d: sign %q:\n%s", i, sign, d)
			}
			signs = append(signs, sign)
		}
		if na != aLen || nb != bLen {
			t.Fatalf("hunk at line %d holds %d lines of a and %d of b, its header says %d and %d:\n%s", aFrom+1, na, nb, aLen, bLen, d)
		}
		body := string(signs)
		lead := len(body) - len(strings.TrimLeft(body, " "))
		trail := len(body) - len(strings.TrimRight(body, " "))
		switch {
		case lead == len(body):
			t.Fatalf("hunk at line %d has no change:\n%s", aFrom+1, d)
		case lead > context || trail > context:
			t.Fatalf("hunk at line %d has %d and %d lines of context:\n%s", aFrom+1, lead, trail, d)
		case lead < context && aFrom != 0:
			t.Fatalf("hunk at line %d has %d lines of context before:\n%s", aFrom+1, lead, d)
		case trail < context && pos != len(src):
			t.Fatalf("hunk at line %d has %d lines of context after:\n%s", aFrom+1, trail, d)
		case strings.Contains(body, strings.Repeat(" ", 2*context+1)):
			t.Fatalf("hunk at line %d has changes more than %d lines apart:\n%s", aFrom+1, 2*context, d)
		}
	}
	out = append(out, src[pos:]...)
	for i, l := range out[:max(len(out)-1, 0)] {
		if !strings.HasSuffix(l, "\n") {
			t.Fatalf("line %d of the result lacks a newline:\n%s", i+1, d)
		}
	}
	return strings.Join(out, "")
}

// hunkRange returns the lines before a hunk's range and its length.
func hunkRange(start, n string) (before, length int) {
	s, _ := strconv.Atoi(start)
	length = 1
	if n != "" {
		length, _ = strconv.Atoi(n)
	}
	if length == 0 {
		return s, 0
	}
	return s - 1, length
}

// changedLines counts the deleted and inserted lines of a unified diff.
func changedLines(d string) int {
	n := 0
	for l := range strings.SplitSeq(d, "\n") {
		if (strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "--- ")) || (strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++ ")) {
			n++
		}
	}
	return n
}

// randomText returns n lines drawn from an alphabet of k, and maybe no
// final newline.
func randomText(r *rand.Rand, n, k int) string {
	var b strings.Builder
	for range n {
		b.WriteString("l" + strconv.Itoa(r.IntN(k)) + "\n")
	}
	s := b.String()
	if r.IntN(8) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

// edit returns s with k lines deleted, inserted or changed at random.
func edit(r *rand.Rand, s string, k, alphabet int) string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	for range k {
		i := r.IntN(len(l) + 1)
		switch line := "l" + strconv.Itoa(r.IntN(alphabet)) + "\n"; {
		case i == len(l) || r.IntN(3) == 0:
			l = append(l[:i], append([]string{line}, l[i:]...)...)
		case r.IntN(2) == 0:
			l = append(l[:i], l[i+1:]...)
		default:
			l[i] = line
		}
	}
	return strings.Join(l, "")
}

// stanzas returns a config of n stanzas, each a header and body lines,
// and the same config with change applied to each stanza's body.
func stanzas(n int, change func(i int, body []string) []string) (string, string) {
	var a, b strings.Builder
	for i := range n {
		body := []string{" qos trust dscp", " pfc on", " pfc priority 3", " !", " tx-queue 3", "  ecn min 150 max 3000", " !"}
		header := fmt.Sprintf("interface Ethernet%d/%d\n", i/48+1, i%48+1)
		a.WriteString(header + strings.Join(body, "\n") + "\n")
		b.WriteString(header)
		if c := change(i, body); len(c) > 0 {
			b.WriteString(strings.Join(c, "\n") + "\n")
		}
	}
	return a.String(), b.String()
}

// TestUnifiedApplies: on random texts, small and large, few changes and
// many, config-like and noise, the diff is well formed and applied to a
// gives b; it is the same every time.
func TestUnifiedApplies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type pair struct{ name, a, b string }
	var pairs []pair
	for i := range 3000 {
		k := 2 + r.IntN(20)
		a := randomText(r, r.IntN(50), k)
		b := edit(r, a, r.IntN(10), k)
		if i%5 == 0 {
			b = randomText(r, r.IntN(50), k)
		}
		pairs = append(pairs, pair{fmt.Sprintf("random %d", i), a, b})
	}
	every := func(name string, change func(i int, body []string) []string) {
		a, b := stanzas(2000, change)
		pairs = append(pairs, pair{name, a, b}, pair{name + ", back", b, a})
	}
	// A fabric-wide change, paired in one pass.
	every("every stanza changed", func(i int, body []string) []string {
		return append(body[:5:5], "  ecn min 100 max 3000", " !")
	})
	every("a line added to every stanza", func(i int, body []string) []string {
		return append(body[:2:2], append([]string{" pfc watchdog"}, body[2:]...)...)
	})
	// Two lines gone from each stanza: the pairing gives up, the lines
	// are numbered and split at the headers.
	every("two lines gone from every stanza", func(i int, body []string) []string {
		return append(body[:3:3], body[5:]...)
	})
	every("every third stanza gone", func(i int, body []string) []string {
		if i%3 == 0 {
			return nil
		}
		return body
	})
	every("a few changes", func(i int, body []string) []string {
		if i%500 == 7 {
			return body[1:]
		}
		return body
	})
	// Noise with no line once on each side: over budget, replaced whole.
	noise := randomText(r, 5000, 3)
	pairs = append(pairs, pair{"noise", noise, edit(r, noise, 3000, 3)})
	for _, p := range pairs {
		d := Unified("a", "b", p.a, p.b)
		if (d == "") != (p.a == p.b) {
			t.Fatalf("%s: diff %q of texts equal %v", p.name, d, p.a == p.b)
		}
		if got := apply(t, p.a, d); got != p.b {
			t.Fatalf("%s: the diff applied to a does not give b:\n%s", p.name, d)
		}
		if again := Unified("a", "b", p.a, p.b); again != d {
			t.Fatalf("%s: a second diff differs", p.name)
		}
	}
}

// TestUnifiedShortest: on texts small enough to bisect whole, the diff
// changes as few lines as go-diff's shortest (no time limit, so no
// half-match shortcut).
func TestUnifiedShortest(t *testing.T) {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		k := 2 + r.IntN(10)
		a := randomText(r, r.IntN(60), k)
		b := edit(r, a, r.IntN(12), k)
		ac, bc, lines := dmp.DiffLinesToChars(a, b)
		want := 0
		for _, d := range dmp.DiffCharsToLines(dmp.DiffMain(ac, bc, false), lines) {
			if d.Type != diffmatchpatch.DiffEqual {
				want += strings.Count(d.Text, "\n")
				if !strings.HasSuffix(d.Text, "\n") {
					want++
				}
			}
		}
		if got := changedLines(Unified("a", "b", a, b)); got != want {
			t.Fatalf("%d lines changed, go-diff changes %d:\na=%q\nb=%q\n%s", got, want, a, b, Unified("a", "b", a, b))
		}
	}
}

// FuzzUnified: for any two texts the diff is well formed, applied to a
// gives b, and is "" only for equal texts.
func FuzzUnified(f *testing.F) {
	f.Add("l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n", "l1\nl2\nl3\nl4\nX5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n", "0\n2\n3\n4\n5\n6\n7\n9")
	f.Add("", "x\n")
	f.Add("x", "")
	f.Add("x\ny", "x\ny\n")
	f.Add("!\na\n!\nb\n!\n", "!\na\n!\nc\n!\nb\n!\n")
	f.Add("a\nb\nc\na\nb\nc\n", "c\nb\na\n")
	a, b := stanzas(60, func(i int, body []string) []string { return append(body[:5:5], "  ecn min 100", " !") })
	f.Add(a, b)
	a, b = stanzas(60, func(i int, body []string) []string { return body[2:] })
	f.Add(a, b)
	f.Fuzz(func(t *testing.T, a, b string) {
		d := Unified("a", "b", a, b)
		if (d == "") != (a == b) {
			t.Fatalf("diff %q of texts equal %v", d, a == b)
		}
		if got := apply(t, a, d); got != b {
			t.Fatalf("the diff applied to a gives %q, want %q:\n%s", got, b, d)
		}
	})
}

// BenchmarkUnified: a 28,000-line config with every stanza changed (one
// pass), with two lines gone from every stanza (numbered, split at the
// headers, each stanza bisected), with a few changes (bisected), and
// 5,000 lines of noise over budget.
func BenchmarkUnified(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	noise := randomText(r, 5000, 3)
	every, everyB := stanzas(4000, func(i int, body []string) []string { return append(body[:5:5], "  ecn min 100 max 3000", " !") })
	gone, goneB := stanzas(4000, func(i int, body []string) []string { return append(body[:3:3], body[5:]...) })
	few, fewB := stanzas(4000, func(i int, body []string) []string {
		if i%1000 == 7 {
			return body[1:]
		}
		return body
	})
	for _, bc := range []struct{ name, a, b string }{
		{"every stanza changed", every, everyB},
		{"two lines gone from every stanza", gone, goneB},
		{"a few changes", few, fewB},
		{"noise", noise, edit(r, noise, 3000, 3)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.a) + len(bc.b)))
			for b.Loop() {
				Unified("a", "b", bc.a, bc.b)
			}
		})
	}
}
