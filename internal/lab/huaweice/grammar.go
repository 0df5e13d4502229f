package huaweice

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
)

// errKind is one of the CLI's parse errors (reference/huawei-ce.md §3.3).
type errKind int

const (
	errUnrecognized errKind = iota
	errWrongParameter
	errIncomplete
	errAmbiguous
	errTooMany
)

// text is the error line exactly as the device prints it (§3.3; note the
// missing space in "Error:Too many parameters").
func (k errKind) text() string {
	switch k {
	case errWrongParameter:
		return "Error: Wrong parameter found at '^' position."
	case errIncomplete:
		return "Error: Incomplete command found at '^' position."
	case errAmbiguous:
		return "Error: Ambiguous command found at '^' position."
	case errTooMany:
		return "Error:Too many parameters found at '^' position."
	default:
		return "Error: Unrecognized command found at '^' position."
	}
}

// parseError is a rejected line: the error kind and the byte offset in the
// typed line the caret points at.
type parseError struct {
	kind errKind
	col  int
}

// render prints the caret line (aligned under the echoed input, which
// follows the prompt) and the error line.
func (e *parseError) render(prompt string) string {
	return strings.Repeat(" ", len(prompt)+e.col) + "^\n" + e.kind.text() + "\n"
}

// tokKind is the kind of one pattern element.
type tokKind int

const (
	tokKeyword tokKind = iota // a literal keyword; unique prefixes are accepted
	tokInt                    // <n:int:lo-hi>
	tokInts                   // <n:ints:lo-hi:max>: one or more integers
	tokName                   // <n:name>: a profile/domain name, 1-31 chars
	tokIface                  // <n:iface>: an interface name
	tokText                   // <n:text>: a free word (labels, regexes)
	tokRest                   // <n:rest>: the rest of the line, one or more words (descriptions)
	tokIP                     // <n:ip>: an IPv4 address
	tokLIface                 // <n:liface>: a logical interface name (Eth-Trunk1, Vlanif10, LoopBack0…)
)

// token is one element of a command pattern.
type token struct {
	kind    tokKind
	keyword string
	name    string
	lo, hi  int64
	max     int
}

// patternRe matches one argument element: <name:type[:lo-hi[:max]]>.
var patternRe = regexp.MustCompile(`^<([a-z0-9]+):(int|ints|name|iface|text|rest|ip|liface)(?::(\d+)-(\d+))?(?::(\d+))?>$`)

// compilePattern turns "qos queue <q:int:0-7> wred <p:name>" into tokens.
// Patterns are constants of this package; a bad one is a programming error
// caught by the grammar test, so it is reported, not panicked on.
func compilePattern(p string) ([]token, error) {
	var toks []token
	for _, f := range strings.Fields(p) {
		if !strings.HasPrefix(f, "<") {
			toks = append(toks, token{kind: tokKeyword, keyword: f})
			continue
		}
		m := patternRe.FindStringSubmatch(f)
		if m == nil {
			return nil, fmt.Errorf("compile pattern %q: bad element %q", p, f)
		}
		t := token{name: m[1]}
		switch m[2] {
		case "int":
			t.kind = tokInt
		case "ints":
			t.kind = tokInts
		case "name":
			t.kind = tokName
		case "iface":
			t.kind = tokIface
		case "text":
			t.kind = tokText
		case "rest":
			t.kind = tokRest
		case "ip":
			t.kind = tokIP
		case "liface":
			t.kind = tokLIface
		}
		if m[3] != "" {
			t.lo, _ = strconv.ParseInt(m[3], 10, 64)
			t.hi, _ = strconv.ParseInt(m[4], 10, 64)
		} else if t.kind == tokInt || t.kind == tokInts {
			return nil, fmt.Errorf("compile pattern %q: %q needs a range", p, f)
		}
		t.max = 1
		if m[5] != "" {
			t.max, _ = strconv.Atoi(m[5])
		}
		toks = append(toks, t)
	}
	return toks, nil
}

// word is one whitespace-separated word of a typed line and its offset.
type word struct {
	text string
	col  int
}

// splitWords splits a typed line into words, keeping each word's offset
// for the caret.
func splitWords(line string) []word {
	var ws []word
	start := -1
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == ' ' || line[i] == '\t' {
			if start >= 0 {
				ws = append(ws, word{line[start:i], start})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return ws
}

// args are the values matched by a pattern's argument elements, in
// canonical form (integers without leading zeros, interface names as the
// device prints them). A tokInts argument holds its values space-joined.
type args map[string]string

// int returns an integer argument; the grammar has already range-checked it.
func (a args) int(name string) int64 {
	n, _ := strconv.ParseInt(a[name], 10, 64)
	return n
}

// expand replaces {name} in a template with the argument values.
func (a args) expand(tmpl string) string {
	if !strings.Contains(tmpl, "{") {
		return tmpl
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		b.WriteString(a[tmpl[i+1:i+j]])
		tmpl = tmpl[i+j+1:]
	}
}

// nameRe is the profile/domain/label name rule of §2.1: 1-31 characters of
// [A-Za-z0-9_-], not starting with "_".
var nameRe = regexp.MustCompile(`^[A-Za-z0-9-][A-Za-z0-9_-]{0,30}$`)

// ifaceRe matches a physical interface name typed in one word
// ("100GE1/0/1", "100ge1/0/1") or its type alone ("100ge", followed by
// "1/0/1"). GE is the CloudEngine name of a GigabitEthernet port
// ("interface GE1/0/1 / undo portswitch" in public CE configs, e.g. the
// CE12800 RESTCONF lab and EVPN fabric write-ups read through the search
// tool); a port made by splitting a higher-speed one carries ":N" (§3.1:
// the split-port prompt [*host-100GE1/1/1:1]).
var (
	ifaceRe     = regexp.MustCompile(`^(?i)((?:10|25|40|100|200|400)?GE)(\d+/\d+/\d+(?::\d+)?)$`)
	ifaceTypeRe = regexp.MustCompile(`^(?i)(10|25|40|100|200|400)?GE$`)
	ifaceNumRe  = regexp.MustCompile(`^\d+/\d+/\d+(?::\d+)?$`)
)

// logicalRe matches the logical interfaces of public CE running configs
// (a CE8850 and a CE6865 display current-configuration, §9 S6, and the
// CE6865 fixture of a public device-manager project): Eth-Trunk1,
// Vlanif300, LoopBack0, MEth0/0/0, NULL0, Nve1, Vbdif1004.
var logicalRe = regexp.MustCompile(`^(?i)(eth-trunk|vlanif|loopback|meth|null|nve|vbdif)(\d+(?:/\d+/\d+)?)$`)

// logicalTypes are the logical interface types as the device prints them.
var logicalTypes = map[string]string{"eth-trunk": "Eth-Trunk", "vlanif": "Vlanif", "loopback": "LoopBack", "meth": "MEth", "null": "NULL", "nve": "Nve", "vbdif": "Vbdif"}

// canonLogical returns a logical interface name as the device prints it
// ("eth-trunk1" → "Eth-Trunk1"), or false when it is not one.
func canonLogical(s string) (string, bool) {
	m := logicalRe.FindStringSubmatch(s)
	if m == nil {
		// A sub-interface of a physical port, "100GE1/0/1.104" (§3.1: the
		// sub-interface prompt [~host-100GE3/3/3.111]; the V300R023
		// adaptive routing example's "interface 100GE1/0/1.104"). The
		// range of the number is not in a source read [U].
		if i := strings.LastIndexByte(s, '.'); i > 0 && i < len(s)-1 && allDigits(s[i+1:]) {
			if phys, ok := canonIface(s[:i]); ok {
				return phys + s[i:], true
			}
		}
		return "", false
	}
	return logicalTypes[strings.ToLower(m[1])] + m[2], true
}

// allDigits reports whether s is digits only.
func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// canonIface returns a physical interface name as the device prints it
// ("100ge1/0/1" → "100GE1/0/1"), or false when it is not one.
func canonIface(s string) (string, bool) {
	m := ifaceRe.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return strings.ToUpper(m[1]) + m[2], true
}

// candidate is one command being matched against a line.
type candidate struct {
	cmd  *command
	pos  int // next pattern token
	seen int // values taken by the current tokInts token
	out  []string
	args args
	// lastTake is how many words the last take consumed.
	lastTake int
	// cols holds the offset of each argument and keyword, for the caret
	// of a semantic refusal.
	cols map[string]int
}

// matchResult is a successful parse.
type matchResult struct {
	cmd  *command
	args args
	// canon is the line with keywords spelled out and values canonical.
	canon string
	cols  map[string]int
}

// parse matches a typed line against the commands usable in a view, the
// way the VRP parser does: word by word, keywords by unique prefix,
// keywords before arguments. It returns the match or the error the device
// prints.
func parse(cmds []*command, line string) (*matchResult, *parseError) {
	ws := splitWords(line)
	if len(ws) == 0 {
		return nil, nil
	}
	live := make([]*candidate, 0, 16)
	for _, c := range cmds {
		// Only commands whose first keyword the first word can abbreviate
		// take part; this keeps a line's parse to a handful of candidates.
		if t := c.toks[0]; t.kind == tokKeyword && !hasPrefixFold(t.keyword, ws[0].text) {
			continue
		}
		live = append(live, &candidate{cmd: c, args: args{}, cols: map[string]int{}})
	}
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		// Keywords reachable at this word, for prefix and ambiguity checks.
		exact, prefixed := map[string]bool{}, map[string]bool{}
		for _, c := range live {
			for _, kw := range c.keywordsAt() {
				if strings.EqualFold(kw, w.text) {
					exact[kw] = true
				} else if len(w.text) <= len(kw) && strings.EqualFold(kw[:len(w.text)], w.text) {
					prefixed[kw] = true
				}
			}
		}
		var kwChoice string
		switch {
		case len(exact) > 0:
			for k := range exact {
				kwChoice = k
			}
		case len(prefixed) == 1:
			for k := range prefixed {
				kwChoice = k
			}
		}
		var next []*candidate
		var wrong, tooMany bool
		consumed := 0
		for _, c := range live {
			n, ok, bad := c.take(ws[i:], kwChoice)
			switch {
			case ok:
				next = append(next, c)
				consumed = max(consumed, n)
			case bad:
				wrong = true
			case c.done():
				tooMany = true
			}
		}
		if len(next) == 0 {
			switch {
			case kwChoice == "" && len(prefixed) > 1:
				return nil, &parseError{errAmbiguous, w.col}
			case wrong:
				return nil, &parseError{errWrongParameter, w.col}
			case tooMany:
				return nil, &parseError{errTooMany, w.col}
			}
			return nil, &parseError{errUnrecognized, w.col}
		}
		// Keep the survivors that consumed the most words (an interface
		// typed as "100ge 1/0/1" beats a one-word reading).
		best := next[:0:0]
		for _, c := range next {
			if c.lastTake == consumed {
				best = append(best, c)
			}
		}
		live = best
		i += consumed - 1
	}
	for _, c := range live {
		if c.done() {
			return &matchResult{cmd: c.cmd, args: c.args, cols: c.cols, canon: strings.Join(c.out, " ")}, nil
		}
	}
	return nil, &parseError{errIncomplete, len(strings.TrimRight(line, " \t")) + 1}
}

// hasPrefixFold reports whether w is a case-insensitive prefix of kw.
func hasPrefixFold(kw, w string) bool {
	return len(w) <= len(kw) && strings.EqualFold(kw[:len(w)], w)
}

// keywordsAt lists the keywords this candidate accepts at its position.
func (c *candidate) keywordsAt() []string {
	toks := c.cmd.toks
	var kws []string
	p := c.pos
	if p < len(toks) && toks[p].kind == tokInts && c.seen > 0 {
		p++ // after at least one value, the next keyword may follow
	}
	if p < len(toks) && toks[p].kind == tokKeyword {
		kws = append(kws, toks[p].keyword)
	}
	return kws
}

// done reports whether the candidate has matched its whole pattern.
func (c *candidate) done() bool {
	toks := c.cmd.toks
	if c.pos == len(toks) {
		return true
	}
	return c.pos == len(toks)-1 && toks[c.pos].kind == tokInts && c.seen > 0
}

// take tries to consume the words at the head of ws. It returns how many
// words it took, whether it matched, and whether it failed on a bad value
// (a "Wrong parameter" rather than an unknown word).
func (c *candidate) take(ws []word, kw string) (n int, ok, bad bool) {
	toks := c.cmd.toks
	if c.pos < len(toks) && toks[c.pos].kind == tokInts && c.seen > 0 {
		t := toks[c.pos]
		if v, err := strconv.ParseInt(ws[0].text, 10, 64); err == nil {
			if v < t.lo || v > t.hi || c.seen >= t.max {
				return 0, false, true
			}
			c.addValue(t.name, strconv.FormatInt(v, 10))
			c.seen++
			c.lastTake = 1
			return 1, true, false
		}
		c.pos++
		c.seen = 0
	}
	if c.pos >= len(toks) {
		return 0, false, false
	}
	t := toks[c.pos]
	w := ws[0].text
	if t.kind == tokKeyword {
		c.cols[t.keyword] = ws[0].col
	} else if _, ok := c.cols[t.name]; !ok {
		c.cols[t.name] = ws[0].col
	}
	switch t.kind {
	case tokKeyword:
		if kw == "" || kw != t.keyword {
			return 0, false, false
		}
		c.out = append(c.out, t.keyword)
	case tokInt, tokInts:
		v, err := strconv.ParseInt(w, 10, 64)
		if err != nil {
			return 0, false, kw == ""
		}
		if v < t.lo || v > t.hi {
			return 0, false, true
		}
		s := strconv.FormatInt(v, 10)
		if t.kind == tokInts {
			c.addValue(t.name, s)
			c.seen = 1
			c.lastTake = 1
			return 1, true, false
		}
		c.args[t.name] = s
		c.out = append(c.out, s)
	case tokName:
		if kw != "" {
			return 0, false, false
		}
		if !nameRe.MatchString(w) {
			return 0, false, true
		}
		c.args[t.name] = w
		c.out = append(c.out, w)
	case tokText:
		if kw != "" {
			return 0, false, false
		}
		c.args[t.name] = w
		c.out = append(c.out, w)
	case tokRest:
		// The rest of the line, words joined by one space (the lab's
		// normalisation of a free text: runs of spaces become one).
		parts := make([]string, len(ws))
		for i, x := range ws {
			parts[i] = x.text
		}
		v := strings.Join(parts, " ")
		c.args[t.name] = v
		c.out = append(c.out, v)
		c.pos++
		c.lastTake = len(ws)
		return len(ws), true, false
	case tokIP:
		if kw != "" {
			return 0, false, false
		}
		ip := net.ParseIP(w)
		if ip == nil || ip.To4() == nil || strings.Contains(w, ":") {
			return 0, false, true
		}
		c.args[t.name] = ip.To4().String()
		c.out = append(c.out, ip.To4().String())
	case tokLIface:
		name, ok := canonLogical(w)
		if !ok {
			return 0, false, kw == ""
		}
		c.args[t.name] = name
		c.out = append(c.out, name)
	case tokIface:
		if name, ok := canonIface(w); ok {
			c.args[t.name] = name
			c.out = append(c.out, name)
			break
		}
		if ifaceTypeRe.MatchString(w) && len(ws) > 1 && ifaceNumRe.MatchString(ws[1].text) {
			name := strings.ToUpper(w) + ws[1].text
			c.args[t.name] = name
			c.out = append(c.out, name)
			c.pos++
			c.lastTake = 2
			return 2, true, false
		}
		return 0, false, kw == ""
	}
	c.pos++
	c.lastTake = 1
	return 1, true, false
}

// addValue appends a value of a tokInts argument.
func (c *candidate) addValue(name, v string) {
	if c.args[name] == "" {
		c.args[name] = v
	} else {
		c.args[name] += " " + v
	}
	c.out = append(c.out, v)
}
