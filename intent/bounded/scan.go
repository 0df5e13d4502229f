package bounded

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// Kinds of the levels scan keeps on its stack.
const (
	levelFile    = iota // the file's body: items end at a newline
	levelBrace          // { … }: a block body or an object; items end at a newline or a comma
	levelBracket        // [ … ]: a list, a for expression or an index
	levelParen          // ( … ): parentheses or a function call's arguments
	levelInterp         // ${ … } or the %{ … } of a directive, inside a template
	levelQuoted         // "…": a quoted template
	levelHeredoc        // <<EOT … EOT: a heredoc template
	levelControl        // %{ if … } or %{ for … } up to its %{ endif } or %{ endfor }
)

// level is one open bracket, template or directive of the scan.
type level struct {
	kind byte
	// base is the nesting depth at which the level opened, counting its
	// enclosing levels and the operators before it in each.
	base int
	// ops counts the operators (and indexes and splats) of the current
	// item; each nests the parser and the evaluator one level deeper.
	ops int
	// items counts the items ended so far; open is set while one is
	// being read.
	items int
	open  bool
	// term is set when the last token read ends an operand, so that a
	// following "[" is an index rather than a list.
	term bool
	// at, width, line and lineAt locate what opened the level (its byte
	// offset and length, its line and the offset of that line), for
	// diagnostics.
	at, width, line, lineAt int
	// marker is a heredoc's closing marker; tmpl is, for a directive,
	// the stack index of the template it belongs to.
	marker []byte
	tmpl   int
}

// depth is the nesting depth inside l.
func (l *level) depth() int {
	if l.kind == levelFile {
		return l.ops
	}
	return l.base + 1 + l.ops
}

// scanner measures an HCL native syntax source the way hclsyntax's
// scanner reads it (strings, heredocs, template interpolations and
// directives, comments), before any of it is lexed or parsed: the
// nesting depth the parser and the evaluator will recurse to, and the
// number of items of each list, object, block body and argument list.
// It bounds what hclsyntax's recursive parser would do, so it counts
// generously: every operator adds a level to the item it appears in
// (a unary operator or a ternary nests the parser, and a chain of binary
// operators nests the evaluator), and every index or splat adds one to
// the expression it follows.
type scanner struct {
	src      []byte
	filename string
	stack    []level
	line     int // line number at lineStart
	lineAt   int // byte offset of the current line's start
	total    int // items ended in the whole file
	diag     *hcl.Diagnostic
}

// scan returns the first limit src exceeds, as a diagnostic (nil when
// none), and the number of items it holds (a measure of its values, for
// the Budget).
func scan(src []byte, filename string) (*hcl.Diagnostic, int) {
	s := &scanner{src: src, filename: filename, stack: []level{{kind: levelFile}}, line: 1}
	s.run()
	if s.diag == nil {
		s.endItem()
	}
	return s.diag, s.total
}

func (s *scanner) top() *level { return &s.stack[len(s.stack)-1] }

// rng is the range of the width bytes at byte at, on the line that
// starts at byte lineAt and is numbered line.
func (s *scanner) rng(at, width, line, lineAt int) hcl.Range {
	pos := func(i int) hcl.Pos {
		return hcl.Pos{Line: line, Column: 1 + utf8.RuneCount(s.src[lineAt:i]), Byte: i}
	}
	return hcl.Range{Filename: s.filename, Start: pos(at), End: pos(min(at+width, len(s.src)))}
}

// newline records that byte i is a newline.
func (s *scanner) newline(i int) {
	s.line++
	s.lineAt = i + 1
}

// push opens a level of kind at byte at, its opener width bytes long.
func (s *scanner) push(kind byte, at, width int) bool {
	parent := s.top()
	s.stack = append(s.stack, level{kind: kind, base: parent.depth(), at: at, width: width, line: s.line, lineAt: s.lineAt})
	if d := s.top().depth(); d > MaxNesting {
		s.tooDeep(at, width, d)
		return false
	}
	return true
}

// op counts an operator (or an index or splat) at byte at.
func (s *scanner) op(at, width int) bool {
	t := s.top()
	t.ops++
	t.open = true
	t.term = false
	if d := t.depth(); d > MaxNesting {
		s.tooDeep(at, width, d)
		return false
	}
	return true
}

// endItem ends the current item of the top level, if one is open.
func (s *scanner) endItem() bool {
	t := s.top()
	t.ops = 0
	t.term = false
	if !t.open {
		return true
	}
	t.open = false
	t.items++
	s.total++
	if t.items > MaxElements {
		s.tooMany(t)
		return false
	}
	return true
}

// pop closes the top level; the enclosing item goes on with an operand.
func (s *scanner) pop() bool {
	if !s.endItem() {
		return false
	}
	s.stack = s.stack[:len(s.stack)-1]
	t := s.top()
	t.open = true
	t.term = true
	return true
}

func (s *scanner) tooDeep(at, width, depth int) {
	r := s.rng(at, width, s.line, s.lineAt)
	s.diag = &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Nesting too deep",
		Detail: fmt.Sprintf("This is %d levels deep; lossless reads at most %d. Each bracket, brace, parenthesis, block, string and template interpolation adds a level, and so does each operator, index or splat in a chain. Write the value in smaller steps.",
			depth, MaxNesting),
		Subject: &r,
		Extra:   RuleNesting,
	}
}

func (s *scanner) tooMany(l *level) {
	what := map[byte]string{levelFile: "file", levelBrace: "block or object", levelBracket: "list", levelParen: "argument list"}[l.kind]
	if what == "" {
		what = "template"
	}
	r := s.rng(l.at, l.width, l.line, l.lineAt)
	if l.kind == levelFile {
		r = hcl.Range{Filename: s.filename, Start: hcl.InitialPos, End: hcl.InitialPos}
	}
	s.diag = &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Too many elements",
		Detail: fmt.Sprintf("This %s holds more than %d items; lossless reads at most %d in one list, object, block, argument list or file.",
			what, MaxElements, MaxElements),
		Subject: &r,
		Extra:   RuleElements,
	}
}

// run scans src until its end or the first limit it exceeds.
func (s *scanner) run() {
	src := s.src
	for i := 0; i < len(src); i++ {
		t := s.top()
		switch t.kind {
		case levelQuoted, levelHeredoc, levelControl:
			next, ok := s.template(i)
			if !ok {
				return
			}
			i = next
			continue
		}
		c := src[i]
		ok := true
		switch c {
		case ' ', '\t', '\r':
		case '\n':
			s.newline(i)
			if t.kind == levelFile || t.kind == levelBrace {
				ok = s.endItem()
			}
		case '#':
			i = lineEnd(src, i)
		case '/':
			switch {
			case i+1 < len(src) && src[i+1] == '/':
				i = lineEnd(src, i)
			case i+1 < len(src) && src[i+1] == '*':
				j := i + 2
				for ; j < len(src) && !(src[j] == '*' && j+1 < len(src) && src[j+1] == '/'); j++ {
					if src[j] == '\n' {
						s.newline(j)
					}
				}
				i = min(j+1, len(src))
			default:
				ok = s.op(i, 1)
			}
		case '"':
			t.open = true
			ok = s.push(levelQuoted, i, 1)
		case '<':
			if marker, end := heredocStart(src, i); marker != nil {
				t.open = true
				if ok = s.push(levelHeredoc, i, len(marker)+2); ok {
					s.top().marker = marker
					s.newline(end - 1)
					i = end - 1
				}
				break
			}
			ok = s.op(i, 1)
			if i+1 < len(src) && src[i+1] == '=' {
				i++
			}
		case '{':
			t.open = true
			ok = s.push(levelBrace, i, 1)
		case '(':
			t.open = true
			ok = s.push(levelParen, i, 1)
		case '[':
			if n := splat(src, i); n > 0 {
				ok = s.op(i, n)
				i += n - 1
				break
			}
			if t.term {
				if ok = s.op(i, 1); !ok {
					break
				}
			}
			t.open = true
			ok = s.push(levelBracket, i, 1)
		case '}':
			switch t.kind {
			case levelBrace:
				ok = s.pop()
			case levelInterp:
				// Back to the template the interpolation is in.
				s.stack = s.stack[:len(s.stack)-1]
			}
			// A stray closer is the parser's to report; the depth
			// stays counted, which only overestimates.
		case ']':
			if t.kind == levelBracket {
				ok = s.pop()
			}
		case ')':
			if t.kind == levelParen {
				ok = s.pop()
			}
		case ',':
			ok = s.endItem()
		case '=':
			switch {
			case i+1 < len(src) && src[i+1] == '=':
				ok = s.op(i, 2)
				i++
			case i+1 < len(src) && src[i+1] == '>':
				t.term = false
				i++
			default:
				// An attribute or an object item's key is done; its value
				// nests apart from it.
				t.ops, t.term = 0, false
			}
		case '!', '>':
			ok = s.op(i, 1)
			if i+1 < len(src) && src[i+1] == '=' {
				i++
			}
		case '&', '|':
			ok = s.op(i, 1)
			if i+1 < len(src) && src[i+1] == c {
				i++
			}
		case '+', '-', '*', '%', '?':
			ok = s.op(i, 1)
		case '.':
			switch {
			case i+1 < len(src) && src[i+1] == '*':
				ok = s.op(i, 2)
				t.term = true
				i++
			case i+2 < len(src) && src[i+1] == '.' && src[i+2] == '.':
				i += 2
			}
		case ':':
			t.term = false
		default:
			if c >= '0' && c <= '9' && !t.term {
				// A number literal: cty holds it exactly, however large.
				end, huge := number(src, i)
				if huge {
					s.tooLarge(i, end-i)
					return
				}
				i = end - 1
			}
			t.open = true
			t.term = true
		}
		if !ok {
			return
		}
	}
}

// maxDigits is the most digits, and the largest decimal exponent, a
// number literal may have: 1e331 is about 2^1100 (maxExponent).
const maxDigits = 331

// number reads the number literal at src[i] as hclsyntax's scanner does
// (digits, a fraction, an exponent) and returns the index just after it
// and whether it is beyond what lossless reads: more than maxDigits
// digits, or an exponent beyond ±maxDigits.
func number(src []byte, i int) (int, bool) {
	digits := func() int {
		j := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		return i - j
	}
	n := digits()
	if i+1 < len(src) && src[i] == '.' && src[i+1] >= '0' && src[i+1] <= '9' {
		i++
		n += digits()
	}
	exp := 0
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && src[j] >= '0' && src[j] <= '9' {
			i = j
			for ; i < len(src) && src[i] >= '0' && src[i] <= '9'; i++ {
				exp = min(exp*10+int(src[i]-'0'), 10*maxDigits)
			}
		}
	}
	return i, n > maxDigits || exp > maxDigits
}

func (s *scanner) tooLarge(at, width int) {
	r := s.rng(at, width, s.line, s.lineAt)
	s.diag = &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Number out of range",
		Detail:   fmt.Sprintf("This number has more than %d digits, or an exponent beyond ±%d, lossless' limit for a number (written out it would take more digits than any value needs).", maxDigits, maxDigits),
		Subject:  &r,
		Extra:    RuleElements,
	}
}

// template reads the template byte i is in (the top level is a quoted
// string, a heredoc or a directive inside one of them) and returns the
// index of the last byte it consumed.
func (s *scanner) template(i int) (int, bool) {
	src := s.src
	ti := len(s.stack) - 1
	if s.stack[ti].kind == levelControl {
		ti = s.stack[ti].tmpl
	}
	tmpl := &s.stack[ti]
	if tmpl.kind == levelHeredoc && s.lineAt == i {
		// A line that holds only the marker closes the heredoc; its
		// newline belongs to the enclosing item.
		end := lineEnd(src, i) + 1
		if bytes.Equal(bytes.TrimSpace(src[i:end]), tmpl.marker) {
			s.stack = s.stack[:ti+1]
			return end - 1, s.pop()
		}
	}
	c := src[i]
	switch {
	case c == '\n':
		s.newline(i)
	case c == '\\' && tmpl.kind == levelQuoted:
		if i+1 < len(src) && src[i+1] != '\n' && src[i+1] != '\r' {
			i++
		}
	case c == '"' && tmpl.kind == levelQuoted:
		// Directives left open are the parser's to report.
		s.stack = s.stack[:ti+1]
		return i, s.pop()
	case (c == '$' || c == '%') && i+2 < len(src) && src[i+1] == c && src[i+2] == '{':
		i += 2 // "$${" and "%%{" are literal
	case c == '$' && i+1 < len(src) && src[i+1] == '{':
		if !s.push(levelInterp, i, 2) {
			return i, false
		}
		i++
	case c == '%' && i+1 < len(src) && src[i+1] == '{':
		switch directive(src[i+2:]) {
		case "if", "for":
			if !s.push(levelControl, i, 2) {
				return i, false
			}
			s.top().tmpl = ti
		case "endif", "endfor":
			if s.top().kind == levelControl {
				s.stack = s.stack[:len(s.stack)-1]
			}
		}
		if !s.push(levelInterp, i, 2) {
			return i, false
		}
		i++
	}
	return i, true
}

// directive returns the keyword that starts a template directive's body
// ("if", "endfor", …), after its optional strip marker and spaces.
func directive(b []byte) string {
	i := 0
	if i < len(b) && b[i] == '~' {
		i++
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] >= 'a' && b[j] <= 'z' {
		j++
	}
	return string(b[i:j])
}

// heredocStart reports whether a heredoc starts at src[i] ("<<EOT" or
// "<<-EOT" and a newline) and returns its marker and the index just after
// the newline.
func heredocStart(src []byte, i int) ([]byte, int) {
	if i+2 >= len(src) || src[i+1] != '<' {
		return nil, 0
	}
	j := i + 2
	if src[j] == '-' {
		j++
	}
	start := j
	for j < len(src) && identByte(src[j], j > start) {
		j++
	}
	marker := src[start:j]
	if j < len(src) && src[j] == '\r' {
		j++
	}
	if len(marker) == 0 || j >= len(src) || src[j] != '\n' {
		return nil, 0
	}
	return marker, j + 1
}

// identByte reports whether c may be part of an identifier (any byte of
// a multi-byte character may; a dash only after the first character).
func identByte(c byte, later bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 ||
		later && (c >= '0' && c <= '9' || c == '-')
}

// splat returns the length of a "[*]" splat starting at src[i], spaces
// included, or 0.
func splat(src []byte, i int) int {
	j := i + 1
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j >= len(src) || src[j] != '*' {
		return 0
	}
	j++
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j >= len(src) || src[j] != ']' {
		return 0
	}
	return j + 1 - i
}

// lineEnd returns the index of the last byte before the newline that ends
// the line holding i (or of the last byte of src).
func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j - 1
	}
	return len(src) - 1
}

// scanJSON is scan for JSON: its strings (with escapes), arrays and
// objects, which hcl's JSON parser reads recursively.
func scanJSON(src []byte, filename string) (*hcl.Diagnostic, int) {
	s := &scanner{src: src, filename: filename, stack: []level{{kind: levelFile}}, line: 1}
	for i := 0; i < len(src); i++ {
		t := s.top()
		ok := true
		switch c := src[i]; c {
		case '\n':
			s.newline(i)
		case '"':
			t.open = true
			for i++; i < len(src) && src[i] != '"'; i++ {
				switch src[i] {
				case '\\':
					i++
				case '\n':
					s.newline(i)
				}
			}
		case '{', '[':
			t.open = true
			kind := byte(levelBrace)
			if c == '[' {
				kind = levelBracket
			}
			ok = s.push(kind, i, 1)
		case '}', ']':
			if (c == '}') == (t.kind == levelBrace) && t.kind != levelFile {
				ok = s.pop()
			}
		case ',':
			ok = s.endItem()
		case ' ', '\t', '\r', ':':
		default:
			t.open = true
		}
		if !ok {
			return s.diag, s.total
		}
	}
	s.endItem()
	return s.diag, s.total
}
