package clidiff

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
)

// LineFunc returns a line's canonical text and its key among its
// siblings.
type LineFunc func(text string) (canon, key string)

// Scanner calls yield for each config line of a running-config text: its
// 1-based line number, its depth (0 at the top level) and its text. The
// vendor decides which lines carry no config and how indentation makes
// depth; a depth more than one below the line before is an error of
// [Parse] and [Read].
type Scanner func(text []byte, yield func(n, depth int, body string) error) error

// Lines calls fn for each non-blank line of text with its 1-based number,
// its leading spaces and the rest of the line, without trailing spaces,
// tabs and carriage returns: the raw material of a [Scanner].
func Lines(text []byte, fn func(n, spaces int, body string) error) error {
	s := string(text)
	for n := 1; s != ""; n++ {
		var raw string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			raw, s = s[:i], s[i+1:]
		} else {
			raw, s = s, ""
		}
		line := trimRight(raw)
		body := strings.TrimLeft(line, " ")
		if body == "" {
			continue
		}
		if err := fn(n, len(line)-len(body), body); err != nil {
			return err
		}
	}
	return nil
}

// trimRight drops trailing spaces, tabs and CRs.
func trimRight(s string) string {
	i := len(s)
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\r') {
		i--
	}
	return s[:i]
}

// Body returns the lines of text that keep reports, without carriage
// returns, each ending in a newline and without blank lines at the end;
// nil when none is left. A driver's Running strips what changes between
// two reads of an unchanged device with it.
func Body(text []byte, keep func(line string) bool) []byte {
	var b strings.Builder
	for _, raw := range strings.Split(strings.ReplaceAll(string(text), "\r", ""), "\n") {
		if keep(raw) {
			b.WriteString(raw)
			b.WriteByte('\n')
		}
	}
	out := strings.TrimRight(b.String(), "\n")
	if out == "" {
		return nil
	}
	return []byte(out + "\n")
}

// depthError is the error of a line indented more than one level below
// the one before.
func depthError(n int, body string, open int) error {
	return fmt.Errorf("parse running config line %d %q: indented under a line at depth %d", n, body, open-1)
}

// Parse reads the lines scan finds in text into a tree of config nodes,
// their text as scan gives it.
func Parse(text []byte, scan Scanner) ([]*config.Node, error) {
	var roots []*config.Node
	var stack []*config.Node // stack[i] is the last node at depth i
	err := scan(text, func(n, depth int, body string) error {
		if depth > len(stack) {
			return depthError(n, body, len(stack))
		}
		node := &config.Node{Text: body}
		stack = stack[:depth]
		if depth == 0 {
			roots = append(roots, node)
		} else {
			stack[depth-1].Children = append(stack[depth-1].Children, node)
		}
		stack = append(stack, node)
		return nil
	})
	return roots, err
}

// Read is Parse into canonical nodes, line giving each its text and key,
// in one pass and a handful of allocations: the nodes share one slab, and
// the child lists are cut from one shared slice once every parent is
// known (capped, so that a list filtered in place never reaches its
// neighbour's). On an error the nodes read so far are returned with it.
func Read(text []byte, scan Scanner, line LineFunc) ([]*Node, error) {
	size := bytes.Count(text, []byte{'\n'}) + 1
	slab := make([]Node, 0, size)
	parent := make([]int32, 0, size) // index in slab, -1 for the top level
	var stack []int32                // stack[d] is the last node at depth d
	err := scan(text, func(n, depth int, body string) error {
		if depth > len(stack) {
			return depthError(n, body, len(stack))
		}
		stack = stack[:depth]
		p := int32(-1)
		if depth > 0 {
			p = stack[depth-1]
		}
		t, k := line(body)
		slab = append(slab, Node{Text: t, Key: k})
		parent = append(parent, p)
		stack = append(stack, int32(len(slab)-1))
		return nil
	})
	return link(slab, parent), err
}

// link sets the children of slab's nodes from their parents' indexes
// (-1: top level) and returns the top level.
func link(slab []Node, parent []int32) []*Node {
	// at[j] is first where list j starts (list 0: the roots, list i+1:
	// the children of i), then, once filled, where it ends, which is
	// where list j+1 starts.
	at := make([]int32, len(slab)+1)
	for _, p := range parent {
		at[p+1]++
	}
	sum := int32(0)
	for j, c := range at {
		at[j] = sum
		sum += c
	}
	ptrs := make([]*Node, len(slab))
	for i := range slab {
		p := parent[i] + 1
		ptrs[at[p]] = &slab[i]
		at[p]++
	}
	for i := range slab {
		if lo, hi := at[i], at[i+1]; hi > lo {
			slab[i].Kids = ptrs[lo:hi:hi]
		}
	}
	return ptrs[0:at[0]:at[0]]
}

// Canonical copies a document's nodes as canonical nodes, line giving
// each its text and key. The nodes of the whole tree share one slab and
// their child lists one slice of pointers, so the copy costs two
// allocations, not two per mode.
func Canonical(nodes []*config.Node, line LineFunc) []*Node {
	n := count(nodes)
	b := &builder{slab: make([]Node, 0, n), ptrs: make([]*Node, n), line: line}
	return b.level(nodes)
}

// count is the number of nodes in a tree.
func count(nodes []*config.Node) int {
	n := len(nodes)
	for _, c := range nodes {
		n += count(c.Children)
	}
	return n
}

// builder hands out the nodes and child lists of Canonical.
type builder struct {
	slab []Node
	ptrs []*Node
	line LineFunc
}

func (b *builder) level(nodes []*config.Node) []*Node {
	// This level takes its pointers before its children take theirs,
	// capped so that an append can never reach a neighbour's.
	out := b.ptrs[:0:len(nodes)]
	b.ptrs = b.ptrs[len(nodes):]
	for _, n := range nodes {
		t, k := b.line(n.Text)
		b.slab = append(b.slab, Node{Text: t, Key: k})
		nd := &b.slab[len(b.slab)-1]
		out = append(out, nd)
		if len(n.Children) > 0 {
			nd.Kids = b.level(n.Children)
		}
	}
	return out
}

// Line is one line of a running config read by ParseLines: its 1-based
// line number, its text as the device shows it and as canon makes it,
// and the lines of the mode it opens, for readers that must say where a
// line is (an importer's unexpressed lines).
type Line struct {
	N    int
	Raw  string
	Text string
	Kids []*Line
}

// ParseLines reads the lines scan finds in text into a tree of Lines,
// each Text canon(Raw). A line indented below no parent is an error.
func ParseLines(text []byte, scan Scanner, canon func(string) string) ([]*Line, error) {
	var roots, stack []*Line
	err := scan(text, func(n, depth int, body string) error {
		if depth > len(stack) {
			return depthError(n, body, len(stack))
		}
		l := &Line{N: n, Raw: body, Text: canon(body)}
		stack = stack[:depth]
		if depth == 0 {
			roots = append(roots, l)
		} else {
			stack[depth-1].Kids = append(stack[depth-1].Kids, l)
		}
		stack = append(stack, l)
		return nil
	})
	return roots, err
}
