package inventory

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxPortsPerPattern bounds how many names one pattern may expand to, so a
// typo such as "Ethernet1-100000000" fails instead of exhausting memory. The
// largest switches have a few hundred ports.
const MaxPortsPerPattern = 4096

// ErrPortPattern is wrapped by every ExpandPorts error.
var ErrPortPattern = errors.New("bad port pattern")

// PortPatternError says why a port pattern does not expand.
type PortPatternError struct {
	Pattern string // the whole pattern
	Reason  string // what is wrong, a lower-case phrase
}

// Error returns "expand ports PATTERN: bad port pattern: REASON".
func (e *PortPatternError) Error() string {
	return fmt.Sprintf("expand ports %q: %v: %s", e.Pattern, ErrPortPattern, e.Reason)
}

// Unwrap returns ErrPortPattern.
func (e *PortPatternError) Unwrap() error { return ErrPortPattern }

// ExpandPorts expands a port pattern into port names, in the order written.
//
// A pattern is a comma-separated list of items. An item is a name prefix
// (anything ending in a character other than a digit, "/" or "-") followed
// by numeric segments separated by "/"; each segment is a number or an
// ascending range "A-B", and ranges in several segments expand as a cross
// product, last segment fastest:
//
//	Ethernet1/1-32       Ethernet1/1 … Ethernet1/32
//	Ethernet1-48         Ethernet1 … Ethernet48
//	100GE1/0/1-2         100GE1/0/1, 100GE1/0/2
//	Ethernet1-2/1-2      Ethernet1/1, Ethernet1/2, Ethernet2/1, Ethernet2/2
//	Ethernet1/1-2,1/5    Ethernet1/1, Ethernet1/2, Ethernet1/5
//
// An item without a prefix reuses the previous item's prefix (as Arista
// AVD does). An item with exactly one range may end in " step N" to take
// every Nth number, for SONiC names that count lanes:
//
//	Ethernet0-124 step 4 Ethernet0, Ethernet4 … Ethernet124
//
// The step is a word, not "/N", because "/" already separates segments:
// "Ethernet0-124/4" is Ethernet0/4 … Ethernet124/4. A range must be
// ascending and B must be reached by the step. A name without digits
// ("mgmt") is itself. Duplicates are returned as written; the inventory
// reports them. Errors are *PortPatternError, wrapping ErrPortPattern.
func ExpandPorts(pattern string) ([]string, error) {
	if strings.TrimSpace(pattern) == "" {
		return nil, &PortPatternError{pattern, "the pattern is empty"}
	}
	var out []string
	prefix := ""
	for item := range strings.SplitSeq(pattern, ",") {
		var err error
		out, prefix, err = expandItem(out, strings.TrimSpace(item), prefix)
		if err != nil {
			return nil, &PortPatternError{pattern, err.Error()}
		}
	}
	return out, nil
}

// segment is one "/"-separated numeric part of an item: lo..hi by step.
type segment struct {
	text   string // as written, used verbatim for a single number
	lo, hi int
	ranged bool
}

// expandItem appends the names of one item to out and returns the prefix
// it used.
func expandItem(out []string, item, prev string) ([]string, string, error) {
	if item == "" {
		return out, prev, errors.New("an item between commas is empty")
	}
	step := 1
	if i := strings.Index(item, " step "); i >= 0 {
		s := strings.TrimSpace(item[i+len(" step "):])
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return out, prev, fmt.Errorf("step %q must be a positive whole number", s)
		}
		step = n
		item = strings.TrimSpace(item[:i])
	}
	if strings.ContainsAny(item, " \t\r\n\"") {
		return out, prev, fmt.Errorf("%q contains a space or quote", item)
	}
	// The numeric tail is the longest suffix of digits, "/" and "-".
	cut := len(item)
	for cut > 0 && (isDigit(item[cut-1]) || item[cut-1] == '/' || item[cut-1] == '-') {
		cut--
	}
	prefix, tail := item[:cut], item[cut:]
	if strings.ContainsAny(prefix, "/") {
		return out, prev, fmt.Errorf("%q is not a port number", prefix[strings.LastIndexAny(prefix, "/-")+1:])
	}
	// A prefix must end in a letter or similar, so "Ethernet1" is
	// "Ethernet"+"1"; a tail may not start with a separator.
	if tail == "" {
		if step != 1 {
			return out, prev, fmt.Errorf("%q has no range to step through", item)
		}
		return append(out, item), prefix, nil
	}
	if prefix == "" {
		if prev == "" {
			return out, prev, fmt.Errorf("%q has no name before its number", item)
		}
		prefix = prev
	}
	segs, err := parseSegments(tail)
	if err != nil {
		return out, prev, err
	}
	ranges := 0
	last := -1
	for i, s := range segs {
		if s.ranged {
			ranges++
			last = i
		}
	}
	if step != 1 {
		if ranges != 1 {
			return out, prev, fmt.Errorf("%q: a step needs exactly one range", item)
		}
		s := segs[last]
		if (s.hi-s.lo)%step != 0 {
			return out, prev, fmt.Errorf("%d is not reached from %d in steps of %d", s.hi, s.lo, step)
		}
	}
	total := 1
	for _, s := range segs {
		if s.ranged {
			n := (s.hi-s.lo)/step + 1
			if s.hi-s.lo >= MaxPortsPerPattern*step || total*n > MaxPortsPerPattern {
				return out, prev, fmt.Errorf("more than %d ports", MaxPortsPerPattern)
			}
			total *= n
		}
	}
	if len(out)+total > MaxPortsPerPattern {
		return out, prev, fmt.Errorf("more than %d ports", MaxPortsPerPattern)
	}
	if out == nil {
		out = make([]string, 0, total)
	}
	buf := make([]byte, 0, len(item)+8)
	idx := make([]int, len(segs))
	for i, s := range segs {
		idx[i] = s.lo
	}
	for {
		buf = append(buf[:0], prefix...)
		for i, s := range segs {
			if i > 0 {
				buf = append(buf, '/')
			}
			if s.ranged {
				buf = strconv.AppendInt(buf, int64(idx[i]), 10)
			} else {
				buf = append(buf, s.text...)
			}
		}
		out = append(out, string(buf))
		// Advance the last segment fastest.
		i := len(segs) - 1
		for ; i >= 0; i-- {
			if !segs[i].ranged {
				continue
			}
			inc := 1
			if i == last {
				inc = step
			}
			if idx[i]+inc <= segs[i].hi {
				idx[i] += inc
				break
			}
			idx[i] = segs[i].lo
		}
		if i < 0 {
			return out, prefix, nil
		}
	}
}

// parseSegments splits "1/1-32" into its segments.
func parseSegments(tail string) ([]segment, error) {
	parts := strings.Split(tail, "/")
	segs := make([]segment, 0, len(parts))
	for _, p := range parts {
		if p == "" {
			return nil, errors.New("empty number between slashes")
		}
		lo, hi, ranged := p, p, false
		if i := strings.IndexByte(p, '-'); i >= 0 {
			lo, hi, ranged = p[:i], p[i+1:], true
		}
		a, err := parseNum(lo)
		if err != nil {
			return nil, err
		}
		b, err := parseNum(hi)
		if err != nil {
			return nil, err
		}
		if ranged && b < a {
			return nil, fmt.Errorf("range %s runs backwards: write %d-%d", p, b, a)
		}
		if ranged && a == b {
			ranged = false
			p = lo
		}
		segs = append(segs, segment{text: p, lo: a, hi: b, ranged: ranged})
	}
	return segs, nil
}

// parseNum parses a port number segment: 1 to 6 digits.
func parseNum(s string) (int, error) {
	if s == "" || len(s) > 6 {
		return 0, fmt.Errorf("%q is not a port number", s)
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, fmt.Errorf("%q is not a port number", s)
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a port number", s)
	}
	return n, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ComparePorts orders port names naturally: runs of digits compare as
// numbers, so Ethernet1/2 < Ethernet1/10 and Ethernet4 < Ethernet12. It
// returns -1, 0 or +1 like strings.Compare and is 0 only for equal strings.
func ComparePorts(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si := i
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			sj := j
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na := strings.TrimLeft(a[si:i], "0")
			nb := strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				if len(na) < len(nb) {
					return -1
				}
				return 1
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
		i++
		j++
	}
	switch {
	case len(a)-i < len(b)-j:
		return -1
	case len(a)-i > len(b)-j:
		return 1
	}
	// Equal up to leading zeros ("Ethernet01" vs "Ethernet1"): fall back
	// to byte order so the order stays total.
	return strings.Compare(a, b)
}
