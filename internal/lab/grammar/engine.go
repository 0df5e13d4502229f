package grammar

import (
	"fmt"
	"strings"
)

// Neg says how a line was negated.
type Neg int

// Negation prefixes.
const (
	NotNegated Neg = iota
	// No: the line began with "no".
	No
	// Default: the line began with "default" (back to the factory value).
	Default
)

// Entry is one command of a grammar table. A config entry with no Do
// edits the tree: a stanza (Enter set) adds or finds a node and enters its
// sub-mode, a leaf line is set under the current stanza, and negation
// removes the node with the same key.
type Entry[S any] struct {
	// Modes lists where the command is valid. A name ending in "*"
	// matches every mode with that prefix; such entries are tried in the
	// current mode only (no parent fallback, no context change).
	Modes []string
	// Syntax is the command pattern (see Compile).
	Syntax string
	// No lists the patterns accepted after "no" or "default"; "=" stands
	// for Syntax. Nil means {"="}; an empty non-nil slice refuses negation.
	No []string
	// NoLine makes "no CMD" a config line of its own (stored under the
	// key as "no …"); "default CMD" still removes the line.
	NoLine bool
	// Key is the line's identity among its siblings; {name} is replaced
	// by an argument. Empty: the canonical text.
	Key string
	// Rank and Natural order the line among its siblings (see Node).
	Rank    int
	Natural bool
	// Enter is the sub-mode a stanza enters; empty for a leaf line.
	Enter string
	// Expand turns one typed stanza into several lines (an interface
	// range); the vendor's error text goes in the returned string.
	Expand func(m Match) ([]string, string)
	// EnterMulti is the mode entered when Expand gives several lines.
	EnterMulti string
	// Keep reports stanzas that negation empties instead of deleting (a
	// physical port: "no interface" resets it to defaults).
	Keep func(text string) bool
	// Text rewrites the stored line (nil: the canonical text).
	Text func(m Match) string
	// Default is the canonical text of the factory setting: setting it
	// removes the line, as the device hides default-equal lines.
	Default string
	// Label names the stanza in prompts (EOS "if-Et1"); nil: none.
	Label func(m Match, text string) string
	// Check refuses the command, returning the vendor's message, before
	// anything changes; "" lets it run.
	Check func(s S, st *State, neg Neg, m Match) string
	// Do runs a command that is not a plain config edit (show, exit,
	// commit); it replaces the tree edit.
	Do func(s S, st *State, neg Neg, m Match) (out string, done bool)

	pat  *Pattern
	nots []*Pattern
}

// Frame is one level of the CLI context: a mode and the stanza nodes its
// lines go under (several for an interface range; nil outside config).
type Frame struct {
	Mode  string
	Nodes []*Node
	Label string
}

// State is one CLI session's context over a config tree.
type State struct {
	Tree   *Tree
	Frames []Frame
}

// Mode is the current mode.
func (st *State) Mode() string { return st.Frames[len(st.Frames)-1].Mode }

// Push enters a mode.
func (st *State) Push(f Frame) { st.Frames = append(st.Frames, f) }

// Pop leaves the current mode; it reports false at the bottom frame.
func (st *State) Pop() bool {
	if len(st.Frames) <= 1 {
		return false
	}
	st.Frames = st.Frames[:len(st.Frames)-1]
	return true
}

// Grammar is a compiled command table.
type Grammar[S any] struct {
	entries   []*Entry[S]
	allowDflt bool
}

// Options of a grammar.
type Options struct {
	// Types are named argument types for <name:type>.
	Types map[string]Type
	// AllowDefault accepts "default CMD" as well as "no CMD" (EOS).
	AllowDefault bool
}

// New compiles a table. It panics on a malformed syntax: tables are
// constant data checked by their package's tests.
func New[S any](entries []Entry[S], o Options) *Grammar[S] {
	g := &Grammar[S]{allowDflt: o.AllowDefault}
	for i := range entries {
		e := &entries[i]
		p, err := Compile(e.Syntax, o.Types)
		if err != nil {
			panic(fmt.Sprintf("grammar: %v", err))
		}
		e.pat = p
		nots := e.No
		if nots == nil {
			nots = []string{"="}
		}
		for _, s := range nots {
			if s == "=" {
				e.nots = append(e.nots, p)
				continue
			}
			np, err := Compile(s, o.Types)
			if err != nil {
				panic(fmt.Sprintf("grammar: %v", err))
			}
			e.nots = append(e.nots, np)
		}
		g.entries = append(g.entries, e)
	}
	return g
}

// Result is what one typed line did.
type Result struct {
	Out  string
	Done bool
	// Err is a parse failure (the vendor formats it); Msg is a vendor
	// message from a Check or Expand refusal.
	Err *Error
	Msg string
	// Edited is true when the tree changed.
	Edited bool
}

func modeMatch(modes []string, mode string) (ok, wild bool) {
	for _, m := range modes {
		if m == mode {
			return true, false
		}
		if strings.HasSuffix(m, "*") && strings.HasPrefix(mode, strings.TrimSuffix(m, "*")) {
			return true, true
		}
	}
	return false, false
}

type candidate[S any] struct {
	e     *Entry[S]
	a     attempt
	frame int
}

// Exec runs one typed line against st.
func (g *Grammar[S]) Exec(s S, st *State, line string) Result {
	toks := Split(line)
	if len(toks) == 0 {
		return Result{}
	}
	lineEnd := len(strings.TrimRight(line, " \t")) - 1
	neg := NotNegated
	body := toks
	switch w := strings.ToLower(toks[0].Text); {
	case w == "no":
		neg, body = No, toks[1:]
	case g.allowDflt && w == "default":
		neg, body = Default, toks[1:]
	}
	var best *candidate[S]
	var tried bool
	for fi := len(st.Frames) - 1; fi >= 0; fi-- {
		mode := st.Frames[fi].Mode
		cur := fi == len(st.Frames)-1
		if !cur && st.Frames[fi].Nodes == nil {
			break // parent fallback stays inside config modes
		}
		var hits []candidate[S]
		var fails []candidate[S]
		for _, e := range g.entries {
			ok, wild := modeMatch(e.Modes, mode)
			if !ok || (wild && !cur) {
				continue
			}
			pats := []*Pattern{e.pat}
			if neg != NotNegated {
				pats = e.nots
			}
			for _, p := range pats {
				tried = true
				a := p.match(body, lineEnd)
				c := candidate[S]{e: e, a: a, frame: fi}
				if wild {
					c.frame = -1
				}
				if a.err == nil {
					hits = append(hits, c)
				} else {
					fails = append(fails, c)
				}
			}
		}
		if amb := ambiguous(body, hits, fails); amb != nil {
			return Result{Err: shift(amb, len(toks)-len(body))}
		}
		if len(hits) > 0 {
			return g.apply(s, st, neg, hits[0])
		}
		for i := range fails {
			if best == nil || fails[i].a.err.Token > best.a.err.Token ||
				(fails[i].a.err.Token == best.a.err.Token && fails[i].a.err.Kind == OutOfRange && best.a.err.Kind != OutOfRange) {
				best = &fails[i]
			}
		}
	}
	if !tried || best == nil {
		return Result{Err: &Error{Kind: Invalid, Token: 0, Pos: toks[0].Pos}}
	}
	return Result{Err: shift(best.a.err, len(toks)-len(body))}
}

// shift re-bases a body error's token index onto the whole line (after a
// "no" prefix); a "no" alone is incomplete.
func shift(e *Error, by int) *Error {
	c := *e
	c.Token += by
	return &c
}

// ambiguous finds an abbreviation that fits different keywords in
// commands that agree on every earlier token.
func ambiguous[S any](toks []Token, hits, fails []candidate[S]) *Error {
	all := append(append([]candidate[S](nil), hits...), fails...)
	if len(all) == 0 {
		return nil
	}
	ref := all[0]
	if len(hits) > 0 {
		ref = hits[0]
	} else {
		for _, c := range fails {
			if c.a.err.Token > ref.a.err.Token {
				ref = c
			}
		}
	}
	for i, tok := range toks {
		words := map[string]bool{}
		exact := false
		for _, c := range all {
			if i >= len(c.a.m.exp) || c.a.m.exp[i] == "" || !samePrefix(c.a.m.exp, ref.a.m.exp, i) {
				continue
			}
			words[c.a.m.exp[i]] = true
			if strings.EqualFold(c.a.m.exp[i], tok.Text) {
				exact = true
			}
		}
		if len(words) > 1 && !exact {
			return &Error{Kind: Ambiguous, Token: i, Pos: tok.Pos}
		}
		if i >= len(ref.a.m.exp) || ref.a.m.exp[i] == "" && ref.a.err != nil && ref.a.err.Token <= i {
			return nil
		}
	}
	return nil
}

func samePrefix(a, b []string, n int) bool {
	if len(a) < n || len(b) < n {
		return false
	}
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// keyOf expands an entry's key template with a match's arguments.
func keyOf(tmpl string, m Match) string {
	if tmpl == "" {
		return m.Text()
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		j := strings.IndexByte(tmpl, '}')
		if i < 0 || j < i {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		b.WriteString(m.Args[tmpl[i+1:j]])
		tmpl = tmpl[j+1:]
	}
}

func (g *Grammar[S]) apply(s S, st *State, neg Neg, c candidate[S]) Result {
	e, m := c.e, c.a.m
	saved := st.Frames
	if c.frame >= 0 && c.frame < len(st.Frames)-1 {
		// parent-mode fallback: the context moves to the mode that took
		// the line.
		st.Frames = st.Frames[:c.frame+1]
	}
	if e.Check != nil {
		if msg := e.Check(s, st, neg, m); msg != "" {
			st.Frames = saved
			return Result{Msg: msg}
		}
	}
	if e.Do != nil {
		out, done := e.Do(s, st, neg, m)
		return Result{Out: out, Done: done}
	}
	f := st.Frames[len(st.Frames)-1]
	text := m.Text()
	if e.Text != nil {
		text = e.Text(m)
	}
	key := keyOf(e.Key, m)
	if e.Enter != "" {
		texts := []string{text}
		if e.Expand != nil {
			var msg string
			texts, msg = e.Expand(m)
			if msg != "" {
				return Result{Msg: msg}
			}
		}
		if neg != NotNegated {
			for _, t := range texts {
				k := key
				if e.Expand != nil {
					k = t
				}
				for _, parent := range f.Nodes {
					if c := parent.Child(k); c != nil && e.Keep != nil && e.Keep(c.Text) {
						c.Children = nil
						continue
					}
					parent.Remove(k)
				}
			}
			return Result{Edited: true}
		}
		var nodes []*Node
		for _, t := range texts {
			k := key
			if e.Expand != nil {
				k = t
			}
			for _, parent := range f.Nodes {
				nodes = append(nodes, st.Tree.Set(parent, k, t, e.Rank, e.Natural, e.Enter))
			}
		}
		mode := e.Enter
		if len(texts) > 1 && e.EnterMulti != "" {
			mode = e.EnterMulti
		}
		label := ""
		if e.Label != nil {
			label = e.Label(m, texts[0])
		}
		st.Push(Frame{Mode: mode, Nodes: nodes, Label: label})
		return Result{Edited: true}
	}
	for _, parent := range f.Nodes {
		switch {
		case neg == No && e.NoLine:
			st.Tree.Set(parent, key, "no "+text, e.Rank, e.Natural, "")
		case neg != NotNegated || (e.Default != "" && text == e.Default):
			parent.Remove(key)
		default:
			st.Tree.Set(parent, key, text, e.Rank, e.Natural, "")
		}
	}
	return Result{Edited: true}
}
