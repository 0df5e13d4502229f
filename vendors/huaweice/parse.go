package huaweice

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
)

// Parse reads `display current-configuration` text (reference/huawei-ce.md
// §5) into a tree of lines by indentation, one space per level. The header
// ("!Software Version …", "!Last configuration was updated at …"), the
// "#" section separators, "return" and blank lines carry no config and are
// dropped. A line indented deeper than one level below its parent is an
// error.
func Parse(text []byte) ([]*config.Node, error) {
	var roots []*config.Node
	var stack []*config.Node
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

// parse is Parse into canonical nodes (canonical text and keys, the
// default lines of a family A (famA) or B device dropped) in one pass.
func parse(text []byte, famA bool) ([]*node, error) {
	var roots []*node
	var stack []*node
	// One allocation for all nodes: a running config has thousands.
	slab := make([]node, 0, bytes.Count(text, []byte{'\n'})+1)
	err := lines(text, func(n, depth int, body string) error {
		if depth > len(stack) {
			return fmt.Errorf("parse running config line %d %q: indented under a line at depth %d", n, body, len(stack)-1)
		}
		stack = stack[:depth]
		t := canon(body)
		slab = append(slab, node{text: t, key: keyOf(t)})
		nd := &slab[len(slab)-1]
		if depth == 0 {
			roots = append(roots, nd)
		} else {
			p := stack[depth-1]
			if p.kids == nil {
				p.kids = make([]*node, 0, 16) // an interface block's lines, mostly
			}
			p.kids = append(p.kids, nd)
		}
		stack = append(stack, nd)
		return nil
	})
	return dropDefaults(roots, famA), err
}

// lines calls fn for each config line of text with its 1-based number,
// depth (leading spaces) and single-spaced text.
func lines(text []byte, fn func(n, depth int, body string) error) error {
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
		if body == "" || body == "#" || body[0] == '!' || (body == "return" && len(body) == len(line)) {
			continue
		}
		if strings.Contains(body, "  ") || strings.IndexByte(body, '\t') >= 0 {
			body = strings.Join(strings.Fields(body), " ")
		}
		if err := fn(n, len(line)-len(body), body); err != nil {
			return err
		}
	}
	return nil
}

// Body strips the header of `display current-configuration` ("!" lines,
// whose update time changes on every commit) and line-ending carriage
// returns, so that two reads of an unchanged device are byte-identical.
func Body(text []byte) []byte {
	var b strings.Builder
	for _, raw := range strings.Split(strings.ReplaceAll(string(text), "\r", ""), "\n") {
		if strings.HasPrefix(raw, "!") {
			continue
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

// Text prints a tree as `display current-configuration` does: each
// top-level section after a "#" line, children indented by one space per
// level, a closing "#" and "return".
func Text(nodes []*config.Node) []byte {
	var b strings.Builder
	var walk func(ns []*config.Node, depth int)
	walk = func(ns []*config.Node, depth int) {
		for _, n := range ns {
			if depth == 0 {
				b.WriteString("#\n")
			}
			b.WriteString(strings.Repeat(" ", depth))
			b.WriteString(n.Text)
			b.WriteByte('\n')
			walk(n.Children, depth+1)
		}
	}
	walk(nodes, 0)
	b.WriteString("#\nreturn\n")
	return []byte(b.String())
}
