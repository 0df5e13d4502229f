package clidiff

import (
	"slices"
	"strings"
)

// Ordered returns have with its top-level lines and, inside modes of
// more than one line, their lines in the order of want; lines want lacks
// go after the others, in their own order. The human diff reads better
// so. The nodes of have are not changed: reordered modes are copies.
func Ordered(have, want []*Node) []*Node {
	pos := make(map[string]int, len(want))
	for i, w := range want {
		pos[w.Key] = i
	}
	rank := func(n *Node) int {
		if p, ok := pos[n.Key]; ok {
			return p
		}
		return len(pos)
	}
	out := slices.Clone(have)
	slices.SortStableFunc(out, func(a, b *Node) int { return rank(a) - rank(b) })
	for i, n := range out {
		if p, ok := pos[n.Key]; ok && len(n.Kids) > 1 {
			c := *n
			c.Kids = Ordered(n.Kids, want[p].Kids)
			out[i] = &c
		}
	}
	return out
}

// Print writes nodes one line each, indented by indent per level; a
// non-empty mark is written on a line of its own before each top-level
// node (CloudEngine's "#").
func Print(nodes []*Node, indent, mark string) string {
	var b strings.Builder
	b.Grow(64 * len(nodes))
	var walk func(ns []*Node, depth int)
	walk = func(ns []*Node, depth int) {
		for _, n := range ns {
			if depth == 0 && mark != "" {
				b.WriteString(mark)
				b.WriteByte('\n')
			}
			for range depth {
				b.WriteString(indent)
			}
			b.WriteString(n.Text)
			b.WriteByte('\n')
			walk(n.Kids, depth+1)
		}
	}
	walk(nodes, 0)
	return b.String()
}
