// Package grammar is the vendor-neutral command engine of the lab's CLI
// personalities: it matches typed lines against tables of command patterns
// (keywords that may be abbreviated, typed arguments with ranges, optional
// groups), reports the first bad token the way a switch CLI does, and
// applies matched config commands to a running-config tree with sub-modes,
// parent-mode fallback and negation. Vendor packages (lab/nxos, lab/eos)
// hold the tables, the prompts, the error texts and the printers; this
// package knows no vendor.
package grammar

import (
	"fmt"
	"strconv"
	"strings"
)

// Token is one whitespace-separated word of a typed line.
type Token struct {
	Text string
	// Pos is the byte offset of the word in the line.
	Pos int
}

// Split cuts a line into tokens at spaces and tabs.
func Split(line string) []Token {
	var toks []Token
	start := -1
	for i := 0; i <= len(line); i++ {
		space := i == len(line) || line[i] == ' ' || line[i] == '\t'
		switch {
		case space && start >= 0:
			toks = append(toks, Token{Text: line[start:i], Pos: start})
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	return toks
}

// ErrKind says why a line was refused.
type ErrKind int

// The ways a line can fail to parse.
const (
	// Invalid: a word that fits nothing at its place.
	Invalid ErrKind = iota + 1
	// Incomplete: the line ends before the command does.
	Incomplete
	// Ambiguous: an abbreviation that fits more than one keyword.
	Ambiguous
	// OutOfRange: a number outside its range (Lo, Hi).
	OutOfRange
)

// Error is a parse failure, located at a token. Vendors turn it into their
// own error text (NX-OS prints a caret under Pos; EOS prints one line).
type Error struct {
	Kind ErrKind
	// Token is the index of the offending token (len(tokens) when the
	// line is incomplete).
	Token int
	// Pos is the byte offset the CLI points at: the offending token's
	// start, or the line's last character when the line is incomplete.
	Pos int
	// Lo and Hi bound the number for OutOfRange.
	Lo, Hi int64
	// Detail is set by an argument type to pick a vendor's more precise
	// text (NX-OS "Invalid range" for a bad interface range).
	Detail string
}

// Error describes the failure for logs; vendors print their own text.
func (e *Error) Error() string {
	return fmt.Sprintf("parse error kind %d at token %d", e.Kind, e.Token)
}

// Type is an argument type: Parse checks a token and returns its
// normalized form, or an error kind (Invalid or OutOfRange with bounds).
type Type func(tok string) (norm string, err *Error)

// IntRange is a Type for a decimal integer in [lo, hi].
func IntRange(lo, hi int64) Type {
	return func(tok string) (string, *Error) {
		v, err := strconv.ParseInt(tok, 10, 64)
		if err != nil {
			return "", &Error{Kind: Invalid}
		}
		if v < lo || v > hi {
			return "", &Error{Kind: OutOfRange, Lo: lo, Hi: hi}
		}
		return strconv.FormatInt(v, 10), nil
	}
}

// Word is a Type for any single word, kept as typed.
func Word(tok string) (string, *Error) { return tok, nil }

type elemKind int

const (
	keyword elemKind = iota
	choice
	arg
	rest
	repeat // one or more arguments of one type
)

type elem struct {
	kind     elemKind
	words    []string // keyword (one) or choice (several)
	name     string   // arg or rest name
	typ      Type
	optional int // optional group id (0: required)
}

// Pattern is a compiled command syntax.
type Pattern struct {
	src   string
	elems []elem
}

// Compile parses a command syntax: plain words are keywords (typed in any
// case, abbreviated to any unambiguous prefix); <name:spec> is an argument,
// spec being "A-B" (integer range), "word" (any word), "rest" (the rest of
// the line), "x|y|z" (one of these keywords) or a name in types; a spec
// ending in "..." takes one or more such arguments (their value is joined
// by spaces); [ … ] brackets an optional group (not nested).
func Compile(syntax string, types map[string]Type) (*Pattern, error) {
	p := &Pattern{src: syntax}
	group, groups := 0, 0
	for _, w := range strings.Fields(syntax) {
		if strings.HasPrefix(w, "[") {
			if group != 0 {
				return nil, fmt.Errorf("compile %q: nested optional group", syntax)
			}
			groups++
			group = groups
			w = w[1:]
		}
		closing := strings.HasSuffix(w, "]")
		w = strings.TrimSuffix(w, "]")
		e, err := compileElem(w, types)
		if err != nil {
			return nil, fmt.Errorf("compile %q: %w", syntax, err)
		}
		e.optional = group
		p.elems = append(p.elems, e)
		if closing {
			if group == 0 {
				return nil, fmt.Errorf("compile %q: unmatched ]", syntax)
			}
			group = 0
		}
	}
	if group != 0 {
		return nil, fmt.Errorf("compile %q: unclosed [", syntax)
	}
	return p, nil
}

func compileElem(w string, types map[string]Type) (elem, error) {
	if !strings.HasPrefix(w, "<") {
		if w == "" {
			return elem{}, fmt.Errorf("empty word")
		}
		return elem{kind: keyword, words: []string{strings.ToLower(w)}}, nil
	}
	if !strings.HasSuffix(w, ">") {
		return elem{}, fmt.Errorf("argument %q lacks >", w)
	}
	name, spec, ok := strings.Cut(w[1:len(w)-1], ":")
	if !ok {
		return elem{}, fmt.Errorf("argument %q lacks :spec", w)
	}
	if base, many := strings.CutSuffix(spec, "..."); many {
		e, err := compileElem("<"+name+":"+base+">", types)
		if err != nil || e.kind != arg {
			return elem{}, fmt.Errorf("argument %q: a repeated spec must be a typed argument", w)
		}
		e.kind = repeat
		return e, nil
	}
	switch {
	case spec == "word":
		return elem{kind: arg, name: name, typ: Word}, nil
	case spec == "rest":
		return elem{kind: rest, name: name}, nil
	case strings.Contains(spec, "|"):
		return elem{kind: choice, name: name, words: strings.Split(spec, "|")}, nil
	case types[spec] != nil:
		return elem{kind: arg, name: name, typ: types[spec]}, nil
	}
	lo, hi, ok := strings.Cut(spec, "-")
	if ok {
		l, err1 := strconv.ParseInt(lo, 10, 64)
		h, err2 := strconv.ParseInt(hi, 10, 64)
		if err1 == nil && err2 == nil {
			return elem{kind: arg, name: name, typ: IntRange(l, h)}, nil
		}
	}
	return elem{}, fmt.Errorf("argument %q: unknown spec %q", w, spec)
}

// Match is a successful parse.
type Match struct {
	// Words are the tokens in canonical form: keywords spelled out in
	// lower case, arguments normalized by their type.
	Words []string
	// Args maps argument names to normalized values (a choice's value is
	// the keyword chosen; an optional keyword that was typed maps to
	// itself).
	Args map[string]string
	// exp is, per token, the keyword it was read as ("" for an argument).
	exp []string
}

// Text is the canonical line: Words joined by single spaces.
func (m Match) Text() string { return strings.Join(m.Words, " ") }

// Has reports whether an argument or optional keyword was given.
func (m Match) Has(name string) bool { _, ok := m.Args[name]; return ok }

// attempt is one pattern's parse: a Match, or an Error and how far it got.
type attempt struct {
	m   Match
	err *Error
}

// prefixes returns the words w is a prefix of (case-insensitive); an exact
// match alone wins.
func prefixes(tok string, words []string) []string {
	t := strings.ToLower(tok)
	var hits []string
	for _, w := range words {
		if w == t {
			return []string{w}
		}
		if strings.HasPrefix(w, t) {
			hits = append(hits, w)
		}
	}
	return hits
}

func (p *Pattern) match(toks []Token, lineEnd int) attempt {
	m := Match{Args: map[string]string{}, exp: make([]string, len(toks))}
	ti := 0
	skip := 0    // optional group being skipped
	started := 0 // optional group whose first word was typed
	for ei := 0; ei < len(p.elems); ei++ {
		e := p.elems[ei]
		if skip != 0 && e.optional == skip {
			continue
		}
		skip = 0
		if ti == len(toks) {
			if e.optional != 0 && e.optional != started {
				skip = e.optional
				continue
			}
			return attempt{m: m, err: &Error{Kind: Incomplete, Token: ti, Pos: lineEnd}}
		}
		tok := toks[ti]
		switch e.kind {
		case keyword, choice:
			hits := prefixes(tok.Text, e.words)
			if len(hits) > 1 {
				return attempt{m: m, err: &Error{Kind: Ambiguous, Token: ti, Pos: tok.Pos}}
			}
			if len(hits) == 0 {
				if e.optional != 0 && firstOfGroup(p.elems, ei) {
					skip = e.optional
					continue
				}
				return attempt{m: m, err: &Error{Kind: Invalid, Token: ti, Pos: tok.Pos}}
			}
			m.Words = append(m.Words, hits[0])
			m.exp[ti] = hits[0]
			started = e.optional
			if e.kind == choice {
				m.Args[e.name] = hits[0]
			} else if e.optional != 0 {
				m.Args[hits[0]] = hits[0]
			}
		case arg:
			v, err := e.typ(tok.Text)
			if err != nil {
				err.Token, err.Pos = ti, tok.Pos
				return attempt{m: m, err: err}
			}
			m.Words = append(m.Words, v)
			m.Args[e.name] = v
		case repeat:
			var vals []string
			for ti < len(toks) {
				v, err := e.typ(toks[ti].Text)
				if err != nil {
					if len(vals) > 0 && err.Kind == Invalid {
						break // the next word belongs to what follows
					}
					err.Token, err.Pos = ti, toks[ti].Pos
					return attempt{m: m, err: err}
				}
				vals = append(vals, v)
				ti++
			}
			m.Words = append(m.Words, vals...)
			m.Args[e.name] = strings.Join(vals, " ")
			continue
		case rest:
			var words []string
			for ; ti < len(toks); ti++ {
				words = append(words, toks[ti].Text)
			}
			m.Words = append(m.Words, words...)
			m.Args[e.name] = strings.Join(words, " ")
			continue
		}
		ti++
	}
	if ti < len(toks) {
		return attempt{m: m, err: &Error{Kind: Invalid, Token: ti, Pos: toks[ti].Pos}}
	}
	return attempt{m: m}
}

func firstOfGroup(elems []elem, i int) bool {
	return i == 0 || elems[i-1].optional != elems[i].optional
}
