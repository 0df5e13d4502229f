package nxos

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
)

// indentWidth is NX-OS's indentation: 2 spaces per level
// (reference/nxos.md §1b: parse by indentation only).
const indentWidth = 2

// Parse reads NX-OS running-config text (the output of a `show
// running-config` command, header included) into a tree of lines by
// indentation. The header ("!Command:", "!Time:", …), `version` and
// `hostname` lines and blank lines carry no config and are dropped. A line
// indented deeper than one level below its parent is an error.
func Parse(text []byte) ([]*config.Node, error) {
	var roots []*config.Node
	var stack []*config.Node // stack[i] is the last node at depth i
	err := lines(text, func(n, depth int, body string) error {
		if depth > len(stack) {
			return fmt.Errorf("parse running config line %d %q: indented under a line at depth %d", n, body, len(stack)-1)
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

// parse is Parse into canonical nodes (canon, hidden lines dropped), in
// one pass and a handful of allocations: nodes go into one slab, and the
// children lists are cut from one shared slice once every parent is known.
// It also returns the index of the top level.
func parse(text []byte) ([]*node, map[string]*node, error) {
	n := bytes.Count(text, []byte{'\n'}) + 1
	slab := make([]node, 0, n)
	parent := make([]int32, 0, n) // index in slab, -1 for top level
	var stack []int32             // stack[d] is the last node at depth d
	err := lines(text, func(line, depth int, body string) error {
		if depth > len(stack) {
			return fmt.Errorf("parse running config line %d %q: indented under a line at depth %d", line, body, len(stack)-1)
		}
		stack = stack[:depth]
		p := int32(-1)
		if depth > 0 {
			p = stack[depth-1]
		}
		t := canonSpaced(body) // lines has single-spaced it
		k, single := keyOf(t)
		slab = append(slab, node{text: t, key: k, single: single})
		parent = append(parent, p)
		stack = append(stack, int32(len(slab)-1))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	counts := make([]int32, len(slab)+1) // counts[i+1]: children of i; counts[0]: roots
	for _, p := range parent {
		counts[p+1]++
	}
	ptrs := make([]*node, len(slab))
	offset := make([]int32, len(counts))
	sum := int32(0)
	for i, c := range counts {
		offset[i] = sum
		sum += c
	}
	fill := slices.Clone(offset)
	for i := range slab {
		p := parent[i] + 1
		ptrs[fill[p]] = &slab[i]
		fill[p]++
	}
	for i := range slab {
		if c := counts[i+1]; c > 0 {
			o := offset[i+1]
			slab[i].kids = ptrs[o : o+c : o+c]
		}
	}
	roots := ptrs[0:counts[0]:counts[0]]
	top, index := dedupeIndex(keepShown(roots))
	return top, index, nil
}

// dropHidden removes hidden default lines that have no children.
func dropHidden(nodes []*node) []*node { return dedupe(keepShown(nodes)) }

// keepShown is dropHidden without deduplicating this level (the levels
// below are).
func keepShown(nodes []*node) []*node {
	out := nodes[:0]
	for _, n := range nodes {
		if len(n.kids) == 0 && isHidden(n.text) {
			continue
		}
		if len(n.kids) > 0 {
			n.kids = dropHidden(n.kids)
		}
		out = append(out, n)
	}
	return out
}

// trimRight drops trailing spaces, tabs and CRs.
func trimRight(s string) string {
	i := len(s)
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\r') {
		i--
	}
	return s[:i]
}

// lines calls fn for each config line of text with its 1-based number,
// depth and text (single-spaced), skipping blank lines, "!" comments and
// the header's version and hostname lines.
func lines(text []byte, fn func(n, depth int, body string) error) error {
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
		if body == "" || body[0] == '!' {
			continue
		}
		spaces := len(line) - len(body)
		depth := (spaces + indentWidth - 1) / indentWidth
		if depth == 0 && (strings.HasPrefix(body, "version ") || strings.HasPrefix(body, "hostname ")) {
			continue
		}
		if strings.Contains(body, "  ") || strings.ContainsAny(body, "\t") {
			body = strings.Join(strings.Fields(body), " ")
		}
		if err := fn(n, depth, body); err != nil {
			return err
		}
	}
	return nil
}

// Body strips the `show running-config` header from text: the lines that
// change on every read (times) or carry no config, so that two reads of an
// unchanged device are byte-identical.
func Body(text []byte) []byte {
	var b strings.Builder
	started := false
	for _, raw := range strings.Split(strings.ReplaceAll(string(text), "\r", ""), "\n") {
		if !started {
			t := strings.TrimSpace(raw)
			if t == "" || strings.HasPrefix(t, "!") || strings.HasPrefix(t, "version ") || strings.HasPrefix(t, "hostname ") {
				continue
			}
			started = true
		}
		b.WriteString(raw)
		b.WriteByte('\n')
	}
	out := strings.TrimRight(b.String(), "\n")
	if out == "" {
		return nil
	}
	return []byte(out + "\n")
}
