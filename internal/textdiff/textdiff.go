// Package textdiff prints the unified diff of two texts in line mode, as
// diff -u does: the plan's per-device diff, the golden-file comparison and
// the tests' "device changed" reports all read it, and the SONiC driver
// prints its table view's edit script through [Hunks]. It knows lines and
// nothing about what they say.
package textdiff

import "strings"

// Unified returns the unified diff from a to b in line mode, with
// "--- aName" / "+++ bName" headers and 3 lines of context, changes at most
// 6 unchanged lines apart in one hunk; "" when they are equal. A last line
// without a newline is marked as diff(1) does.
//
// The diff changes as few lines as can be (as go-diff's did, within its
// one-second limit) unless the texts are large, much changed and not
// like two versions of a config; its cost is about linear in their size,
// and bounded. Among diffs of one size it mostly picks go-diff's. diff
// says how.
func Unified(aName, bName, a, b string) string {
	if a == b {
		return ""
	}
	s := diff(split(a), split(b))
	hunks := findHunks(s)
	if len(hunks) == 0 {
		return ""
	}
	return writeHunks(aName, bName, s, hunks, s.size(aName, bName, hunks))
}

// text is a text cut into lines, each with its newline: line i is
// s[off[i]:off[i+1]].
type text struct {
	s   string
	off []int
}

// split cuts s into lines.
func split(s string) text {
	off := make([]int, 1, strings.Count(s, "\n")+2)
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			i = len(s)
		} else {
			i += j + 1
		}
		off = append(off, i)
	}
	return text{s, off}
}

// len returns the number of lines.
func (t text) len() int { return len(t.off) - 1 }

func (t text) line(i int) string { return t.s[t.off[i]:t.off[i+1]] }

// noNewline is diff(1)'s mark after a last line without a newline.
const noNewline = "\n\\ No newline at end of file\n"

// lineScript is the edit script of two texts: the lines of its equal
// and deleted runs are a's, those of its inserted runs b's.
type lineScript struct {
	a, b text
	runs []run
}

// run is n lines from line at of a (Equal, Delete) or of b (Insert).
type run struct {
	op    Op
	n, at int
}

func (s *lineScript) Len() int { return len(s.runs) }

func (s *lineScript) Run(i int) (Op, int) { return s.runs[i].op, s.runs[i].n }

// lines returns the text of run r's lines.
func (s *lineScript) lines(r run) *text {
	if r.op == Insert {
		return &s.b
	}
	return &s.a
}

// AppendLines appends the lines as Unified prints them: a line without a
// newline (a text's last) is followed by diff(1)'s mark.
func (s *lineScript) AppendLines(dst []byte, i, from, to int) []byte {
	r := s.runs[i]
	t := s.lines(r)
	off := t.off[r.at+from : r.at+to+1]
	for k := range len(off) - 1 {
		l := t.s[off[k]:off[k+1]]
		dst = append(dst, byte(r.op))
		dst = append(dst, l...)
		if l[len(l)-1] != '\n' {
			dst = append(dst, noNewline...)
		}
	}
	return dst
}

// size returns the length of the diff writeHunks prints.
func (s *lineScript) size(aName, bName string, hunks []hunk) int {
	n := len(aName) + len(bName) + 10
	i, start := 0, 0
	for _, h := range hunks {
		n += len("@@ - + @@\n") + rangeLen(h.aFrom, h.aLen) + rangeLen(h.bFrom, h.bLen)
		for p := h.from; p < h.to; {
			r := s.runs[i]
			if start+r.n <= p {
				start += r.n
				i++
				continue
			}
			to := min(h.to, start+r.n)
			t := s.lines(r)
			from, end := r.at+p-start, r.at+to-start
			n += end - from + t.off[end] - t.off[from]
			p = to
		}
	}
	// At most the last line of each text lacks a newline.
	if !strings.HasSuffix(s.a.s, "\n") {
		n += len(noNewline)
	}
	if !strings.HasSuffix(s.b.s, "\n") {
		n += len(noNewline)
	}
	return n
}
