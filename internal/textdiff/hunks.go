package textdiff

import (
	"strconv"
	"strings"
)

// Op says what a run of an edit script does with its lines; its value is
// the sign a unified diff prints before them.
type Op byte

// The runs of an edit script.
const (
	Equal  Op = ' ' // lines both texts have
	Delete Op = '-' // lines only the first text has
	Insert Op = '+' // lines only the second text has
)

// A Script is an edit script from a text a to a text b: runs of lines in
// order, the lines of a being those of its Equal and Delete runs, the
// lines of b those of its Equal and Insert runs. Unified's line diff is
// one; the SONiC driver's walk of two config_db.json trees is another.
type Script interface {
	// Len returns the number of runs.
	Len() int
	// Run returns run i's op and its number of lines (a run of none is
	// skipped).
	Run(i int) (op Op, n int)
	// AppendLines appends lines from..to-1 of run i (0 ≤ from < to ≤
	// n) to dst, each as its op's sign, the line and a newline, and
	// returns the extended buffer.
	AppendLines(dst []byte, i, from, to int) []byte
}

// context is the number of unchanged lines around each change.
const context = 3

// hunkLineBytes is the room Hunks makes for each line it prints: a sign
// and a config line, mostly 20 to 60 bytes.
const hunkLineBytes = 40

// hunk is a span of script lines from..to-1, which begins after aFrom
// lines of a and bFrom lines of b and holds aLen and bLen of them.
type hunk struct {
	from, to     int
	aFrom, bFrom int
	aLen, bLen   int
}

// Hunks returns the unified diff of s with "--- aName" / "+++ bName"
// headers and 3 lines of context around each change, changes at most 6
// unchanged lines apart sharing one hunk, as diff -u prints it; "" when s
// changes nothing. It calls s.AppendLines only for the lines it prints, so
// a script may hold long unchanged runs it never builds.
func Hunks(aName, bName string, s Script) string {
	hunks := findHunks(s)
	if len(hunks) == 0 {
		return ""
	}
	lines := 0
	for _, h := range hunks {
		lines += h.to - h.from + 1
	}
	return writeHunks(aName, bName, s, hunks, len(aName)+len(bName)+10+hunkLineBytes*lines)
}

// findHunks returns the hunks of s, in order.
func findHunks(s Script) []hunk {
	// A hunk starts at the first change and at each after more than
	// 2×context unchanged lines.
	n, gap, seen := 0, 0, false
	for i := range s.Len() {
		switch op, k := s.Run(i); {
		case k <= 0:
		case op == Equal:
			gap += k
		default:
			if !seen || gap > 2*context {
				n++
			}
			gap, seen = 0, true
		}
	}
	hunks := make([]hunk, 0, n)
	// pos, aPos and bPos count the lines of the script, of a and of b
	// before the current run; end, aEnd and bEnd those before the line
	// after the last change; gap the unchanged lines since that change
	// (or the start).
	pos, aPos, bPos := 0, 0, 0
	end, aEnd, bEnd := 0, 0, 0
	gap, open := 0, false
	var h hunk
	closeHunk := func() {
		c := min(context, gap)
		h.to, h.aLen, h.bLen = end+c, aEnd+c-h.aFrom, bEnd+c-h.bFrom
		hunks = append(hunks, h)
	}
	for i := range s.Len() {
		op, n := s.Run(i)
		if n <= 0 {
			continue
		}
		if op == Equal {
			pos, aPos, bPos, gap = pos+n, aPos+n, bPos+n, gap+n
			continue
		}
		if open && gap > 2*context {
			closeHunk()
			open = false
		}
		if !open {
			c := min(context, gap)
			h = hunk{from: pos - c, aFrom: aPos - c, bFrom: bPos - c}
			open = true
		}
		pos += n
		if op == Delete {
			aPos += n
		} else {
			bPos += n
		}
		end, aEnd, bEnd, gap = pos, aPos, bPos, 0
	}
	if open {
		closeHunk()
	}
	return hunks
}

// writeHunks returns the headers and hunks of s, about size bytes. The
// lines go through a buffer copied to the result every few kilobytes: a
// strings.Builder handed to a script behind an interface would move to
// the heap, and each line written would then pay a write barrier while
// the GC runs.
func writeHunks(aName, bName string, s Script, hunks []hunk, size int) string {
	const flush = 16 << 10
	var out strings.Builder
	out.Grow(size)
	buf := make([]byte, 0, min(size, flush+flush/4))
	buf = append(buf, "--- "+aName+"\n+++ "+bName+"\n"...)
	i, start := 0, 0 // run i holds script lines start..
	for _, h := range hunks {
		buf = appendHeader(buf, h)
		for p := h.from; p < h.to; {
			_, n := s.Run(i)
			if start+n <= p {
				start += n
				i++
				continue
			}
			to := min(h.to, start+n)
			buf = s.AppendLines(buf, i, p-start, to-start)
			p = to
			if len(buf) >= flush {
				out.Write(buf)
				buf = buf[:0]
			}
		}
	}
	out.Write(buf)
	return out.String()
}

// appendHeader appends h's "@@ -a +b @@" line.
func appendHeader(dst []byte, h hunk) []byte {
	dst = append(dst, "@@ -"...)
	dst = appendRange(dst, h.aFrom, h.aLen)
	dst = append(dst, " +"...)
	dst = appendRange(dst, h.bFrom, h.bLen)
	return append(dst, " @@\n"...)
}

// appendRange appends the range of a hunk that begins after before lines
// and holds n: "start,n" counting from 1, "start" for one line, and for
// none the line it follows, as diff(1) prints them.
func appendRange(dst []byte, before, n int) []byte {
	switch n {
	case 0:
		return append(strconv.AppendInt(dst, int64(before), 10), ",0"...)
	case 1:
		return strconv.AppendInt(dst, int64(before+1), 10)
	}
	dst = append(strconv.AppendInt(dst, int64(before+1), 10), ',')
	return strconv.AppendInt(dst, int64(n), 10)
}

// rangeLen returns the length of the range appendRange appends.
func rangeLen(before, n int) int {
	switch n {
	case 0:
		return digits(before) + 2
	case 1:
		return digits(before + 1)
	}
	return digits(before+1) + 1 + digits(n)
}

// digits returns the number of decimal digits of n ≥ 0.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}
