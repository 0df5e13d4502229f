package huaweice

import (
	"sort"
	"strings"
)

// node is one line of the configuration tree: a system-view line, or a
// section header (interface, drop-profile…) with its children.
type node struct {
	line string // as displayed, without indentation
	key  string // identity among its siblings: a new line with the same key replaces it
	rank int    // display order among siblings (reference/huawei-ce.md Errata, §1.1)
	// hidden marks a line equal to the device default: display
	// current-configuration leaves it out unless include-default is given.
	hidden bool
	// section is true for a view header; showEmpty prints it even with no
	// children (dcb pfc, drop-profile) rather than hiding it (interface).
	section   bool
	showEmpty bool
	// sep prints a " #" line before this nested section.
	sep bool
	// group prints a top-level line without a "#" before it when the
	// line before it is of the same group (same rank): the device prints
	// "ntp …" or "telnet …" lines as one block.
	group bool
	// order, when set, sorts the node among siblings of its rank before
	// its line does.
	order    string
	view     view
	children []*node
}

// clone deep-copies the node.
func (n *node) clone() *node {
	c := *n
	if n.children != nil {
		c.children = make([]*node, len(n.children))
		for i, ch := range n.children {
			c.children[i] = ch.clone()
		}
	}
	return &c
}

// find returns the child with the key, or nil.
func (n *node) find(key string) *node {
	for _, c := range n.children {
		if c.key == key {
			return c
		}
	}
	return nil
}

// put adds the child, replacing a sibling with the same key (a section
// keeps its children).
func (n *node) put(child *node) *node {
	for i, c := range n.children {
		if c.key == child.key {
			if c.section {
				return c
			}
			n.children[i] = child
			return child
		}
	}
	n.children = append(n.children, child)
	sortNodes(n.children)
	return child
}

// remove deletes children whose key equals k, or starts with k when k
// ends in "*". It reports whether anything was removed.
func (n *node) remove(k string) bool {
	prefix := strings.HasSuffix(k, "*")
	k = strings.TrimSuffix(k, "*")
	kept := n.children[:0]
	removed := false
	for _, c := range n.children {
		if c.key == k || (prefix && strings.HasPrefix(c.key, k)) {
			removed = true
			continue
		}
		kept = append(kept, c)
	}
	n.children = kept
	return removed
}

// sortNodes orders siblings by rank, then naturally by line, so that
// "interface 100GE1/0/2" comes before "interface 100GE1/0/10".
func sortNodes(ns []*node) {
	sort.SliceStable(ns, func(i, j int) bool {
		if ns[i].rank != ns[j].rank {
			return ns[i].rank < ns[j].rank
		}
		if oi, oj := ns[i].order, ns[j].order; oi != oj {
			return naturalLess(oi, oj)
		}
		return naturalLess(ns[i].line, ns[j].line)
	})
}

// naturalLess compares strings with digit runs compared as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		if da && db {
			ra, rb := digitRun(a), digitRun(b)
			na, nb := strings.TrimLeft(ra, "0"), strings.TrimLeft(rb, "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[len(ra):], b[len(rb):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitRun(s string) string {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i]
}

// mode is how much of the tree a rendering shows.
type mode int

const (
	// userOnly is display current-configuration: lines equal to the
	// device default are left out (V300R023 command reference: "This
	// command does not display parameters that use default settings").
	userOnly mode = iota
	// withDefaults is include-default: default-equal lines are shown,
	// marked with "~" as the V300R023 example output marks them.
	withDefaults
	// everything shows every line unmarked: candidate diffs, checkpoints.
	everything
)

// visible reports whether a node prints at all.
func (n *node) visible(m mode) bool {
	if m == userOnly && n.hidden {
		return false
	}
	if !n.section || n.showEmpty {
		return true
	}
	for _, c := range n.children {
		if c.visible(m) {
			return true
		}
	}
	return false
}

// text is the node's line as a rendering prints it.
func (n *node) text(m mode) string {
	if m == withDefaults && n.hidden {
		return "~" + n.line
	}
	return n.line
}

// lines renders a node and, for a section, its visible children, each
// level indented by one more space (ai-service › ai-ecn › lines, §1.5).
func (n *node) lines(m mode) []string {
	out := []string{n.text(m)}
	for _, c := range n.children {
		if !c.visible(m) {
			continue
		}
		if c.section {
			if c.sep {
				out = append(out, " #")
			}
			for _, l := range c.lines(m) {
				out = append(out, " "+l)
			}
			continue
		}
		if c.sep {
			out = append(out, " #")
		}
		out = append(out, " "+c.text(m))
	}
	return out
}

// body renders the tree as display current-configuration prints it
// between the header and "return": each top-level item after a "#" line.
func (root *node) body(m mode) []string {
	var out []string
	var prev *node
	for _, n := range root.children {
		if !n.visible(m) {
			continue
		}
		if !(n.group && prev != nil && prev.group && prev.rank == n.rank) {
			out = append(out, "#")
		}
		out = append(out, n.lines(m)...)
		prev = n
	}
	return append(out, "#")
}

// diff renders the candidate changes against running as display
// configuration candidate changes does (V300R023 command reference):
// "+" for added lines, "-" for removed ones, a changed line as "-" then
// "+", context lines indented by two spaces, sections separated by "#".
// Default-equal lines count: they are changes the user typed.
func diff(running, cand *node) []string {
	out := []string{"Building configuration"}
	changed := false
	for _, k := range unionKeys(running, cand) {
		block := diffNode(running.find(k), cand.find(k), "")
		if len(block) > 0 {
			out = append(out, "  #")
			out = append(out, block...)
			changed = true
		}
	}
	if changed {
		out = append(out, "  #")
	}
	return out
}

// diffNode renders the changes of one line or section (r running, c
// candidate; nil = absent) at an indentation.
func diffNode(r, c *node, indent string) []string {
	var block []string
	switch {
	case r == nil && c != nil && c.visible(everything):
		for _, l := range c.lines(everything) {
			block = append(block, "+ "+indent+l)
		}
	case c == nil && r != nil && r.visible(everything):
		for _, l := range r.lines(everything) {
			block = append(block, "- "+indent+l)
		}
	case r != nil && c != nil && r.section && c.section:
		var inner []string
		for _, k := range unionKeys(r, c) {
			inner = append(inner, diffNode(r.find(k), c.find(k), indent+" ")...)
		}
		if len(inner) > 0 {
			block = append(block, "  "+indent+c.line)
			block = append(block, inner...)
		}
	case r != nil && c != nil && r.line != c.line:
		block = append(block, "- "+indent+r.line, "+ "+indent+c.line)
	}
	return block
}

// unionKeys lists the children keys of a and b in display order.
func unionKeys(a, b *node) []string {
	seen := map[string]bool{}
	var ns []*node
	for _, p := range []*node{a, b} {
		for _, c := range p.children {
			if !seen[c.key] {
				seen[c.key] = true
				ns = append(ns, c)
			}
		}
	}
	sortNodes(ns)
	keys := make([]string, len(ns))
	for i, n := range ns {
		keys[i] = n.key
	}
	return keys
}

// equal reports whether two trees hold the same lines.
func equal(a, b *node) bool {
	return strings.Join(a.body(everything), "\n") == strings.Join(b.body(everything), "\n")
}
