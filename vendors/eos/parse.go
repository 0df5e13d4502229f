package eos

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
)

// indent is EOS's indentation, 3 spaces per level (reference/eos.md §1a
// [C:avd]); Parse nests by relative indentation, so AVD's 4 spaces under
// `platform trident mmu queue profile` also read (§2.1).
const indent = "   "

// Parse reads EOS running-config text (the output of `show
// running-config`, header included) into a tree of lines: a line belongs
// to the nearest line above it that is indented less. "!" lines (the
// separators, the header and `!!` comments), blank lines, `hostname` and
// the final `end` carry no config and are dropped.
func Parse(text []byte) ([]*config.Node, error) {
	var roots []*config.Node
	type level struct {
		spaces int
		n      *config.Node
	}
	var stack []level
	err := lines(text, func(n, spaces int, body string) error {
		for len(stack) > 0 && stack[len(stack)-1].spaces >= spaces {
			stack = stack[:len(stack)-1]
		}
		node := &config.Node{Text: body}
		if len(stack) == 0 {
			if spaces > 0 && len(roots) == 0 {
				return fmt.Errorf("parse running config line %d %q: indented with no line above it", n, body)
			}
			roots = append(roots, node)
		} else {
			p := stack[len(stack)-1].n
			p.Children = append(p.Children, node)
		}
		stack = append(stack, level{spaces, node})
		return nil
	})
	return roots, err
}

// parse is Parse into canonical nodes (canon, hidden lines dropped), in
// one pass over the text and one over the lines: every node comes from
// one arena and every child list from one backing array.
func parse(text []byte) ([]*node, error) {
	type level struct {
		spaces int
		i      int32
	}
	var stack []level
	size := bytes.Count(text, []byte{'\n'}) + 1
	a := arena{slab: make([]node, 0, size)}
	all := make([]*node, 0, size)
	parent := make([]int32, 0, size) // index into all; -1 for a top-level line
	kids := 0
	err := lines(text, func(n, spaces int, body string) error {
		for len(stack) > 0 && stack[len(stack)-1].spaces >= spaces {
			stack = stack[:len(stack)-1]
		}
		p := int32(-1)
		if len(stack) == 0 {
			if spaces > 0 && len(all) == 0 {
				return fmt.Errorf("parse running config line %d %q: indented with no line above it", n, body)
			}
		} else {
			p = stack[len(stack)-1].i
			kids++
		}
		stack = append(stack, level{spaces, int32(len(all))})
		all = append(all, a.node(canon(body)))
		parent = append(parent, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	count := make([]int32, len(all))
	for _, p := range parent {
		if p >= 0 {
			count[p]++
		}
	}
	backing := make([]*node, kids)
	off := 0
	roots := make([]*node, 0, len(all)-kids)
	for i, n := range all {
		if c := int(count[i]); c > 0 {
			n.kids = backing[off : off : off+c]
			off += c
		}
		if p := parent[i]; p >= 0 {
			all[p].kids = append(all[p].kids, n)
		} else {
			roots = append(roots, n)
		}
	}
	return dropHidden(roots), nil
}

// dropHidden removes hidden default lines: top-level ones without
// children (every line of hidden is a global one).
func dropHidden(nodes []*node) []*node {
	out := nodes[:0]
	for _, n := range nodes {
		if len(n.kids) == 0 && hidden[n.text] {
			continue
		}
		out = append(out, n)
	}
	return out
}

// lines calls fn for each config line of text with its 1-based number,
// its indentation in spaces and its text (single-spaced), skipping blank
// lines, "!" lines, `hostname` and `end`.
func lines(text []byte, fn func(n, spaces int, body string) error) error {
	s := string(text)
	for n := 1; s != ""; n++ {
		var raw string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			raw, s = s[:i], s[i+1:]
		} else {
			raw, s = s, ""
		}
		line := strings.TrimRight(raw, " \t\r")
		body := strings.TrimLeft(line, " ")
		if body == "" || body[0] == '!' {
			continue
		}
		spaces := len(line) - len(body)
		if spaces == 0 && (body == "end" || strings.HasPrefix(body, "hostname ")) {
			continue
		}
		if unevenSpace(body) {
			body = strings.Join(strings.Fields(body), " ")
			if body == "" || body[0] == '!' {
				continue
			}
		}
		if err := fn(n, spaces, body); err != nil {
			return err
		}
	}
	return nil
}

// unevenSpace reports whether a line needs its spacing collapsed: two
// spaces in a row, a control character, or a non-ASCII byte (possibly a
// Unicode space, which strings.Fields also splits on). One byte scan,
// the common case of a clean line costing nothing more.
func unevenSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if i+1 < len(s) && s[i+1] == ' ' {
				return true
			}
		case c < ' ' || c >= 0x80:
			return true
		}
	}
	return false
}

// QoSView returns the part of a `show running-config` output that can be
// in lossless' scope on any device, printed as EOS prints it: every `qos
// profile` stanza, the `qos map dscp` lines, the global
// `priority-flow-control` lines, and of each interface its `service-profile`,
// `qos trust`, `priority-flow-control`, `tx-queue` and `uc-tx-queue` lines. The header
// (command, device, hostname) is gone, so two reads of an unchanged
// device give the same bytes. Diff narrows it to one rendering's scope.
func QoSView(text []byte) ([]byte, error) {
	nodes, err := parse(text)
	if err != nil {
		return nil, err
	}
	var out []*node
	for _, n := range nodes {
		switch {
		case isProfile(n.text), isMapLine(n.text), isPFCGlobal(n):
			out = append(out, n)
		case isInterface(n.text):
			c := &node{text: n.text, key: n.key}
			for _, l := range n.kids {
				if portLine(l.text) {
					c.kids = append(c.kids, l)
				}
			}
			if len(c.kids) > 0 {
				out = append(out, c)
			}
		}
	}
	return []byte(print(out)), nil
}

// print writes nodes as EOS prints them: 3 spaces per level, a "!" after
// each top-level stanza and between top-level lines of different kinds,
// and inside a stanza a "!" before each sub-block and before the first
// line after one (reference/eos.md §1a [C:avd]).
func print(nodes []*node) string {
	var b strings.Builder
	b.Grow(64 * len(nodes))
	for i, n := range nodes {
		if i > 0 {
			p := nodes[i-1]
			if len(p.kids) > 0 || len(n.kids) > 0 || family(p.text) != family(n.text) {
				b.WriteString("!\n")
			}
		}
		writeNode(&b, n, 0)
	}
	return b.String()
}

func writeNode(b *strings.Builder, n *node, depth int) {
	for range depth {
		b.WriteString(indent)
	}
	b.WriteString(n.text)
	b.WriteByte('\n')
	for i, c := range n.kids {
		if len(c.kids) > 0 || isQueue(c.text) || (i > 0 && (len(n.kids[i-1].kids) > 0 || isQueue(n.kids[i-1].text))) {
			for range depth + 1 {
				b.WriteString(indent)
			}
			b.WriteString("!\n")
		}
		writeNode(b, c, depth+1)
	}
}

// family groups top-level one-line commands for the "!" separators: the
// first two words ("qos map", "priority-flow-control pause").
func family(text string) string {
	i := strings.IndexByte(text, ' ')
	if i < 0 {
		return text
	}
	j := strings.IndexByte(text[i+1:], ' ')
	if j < 0 {
		return text
	}
	return text[:i+1+j]
}
