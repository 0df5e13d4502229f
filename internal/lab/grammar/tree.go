package grammar

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Node is one line of a running config, with the lines nested under it.
type Node struct {
	// Key identifies the line among its siblings: a new line with the
	// same key replaces it.
	Key string
	// Text is the line as the device prints it, without indentation.
	Text string
	// Rank orders siblings (lower first); equal ranks keep insertion
	// order, or natural order of Text when Natural is set.
	Rank    int
	Natural bool
	// Mode is the sub-mode the line enters ("" for a leaf line).
	Mode string
	// Children are the nested lines.
	Children []*Node
	seq      int
}

// Tree is a running config.
type Tree struct {
	Root *Node
	seq  int
}

// NewTree returns an empty config.
func NewTree() *Tree { return &Tree{Root: &Node{}} }

// Clone returns a deep copy that prints byte for byte as t does.
func (t *Tree) Clone() *Tree {
	return &Tree{Root: t.Root.clone(), seq: t.seq}
}

func (n *Node) clone() *Node {
	c := *n
	c.Children = make([]*Node, len(n.Children))
	for i, ch := range n.Children {
		c.Children[i] = ch.clone()
	}
	return &c
}

// Child returns the child with key, or nil.
func (n *Node) Child(key string) *Node {
	for _, c := range n.Children {
		if c.Key == key {
			return c
		}
	}
	return nil
}

// Set adds a child line or replaces the text of the child with the same
// key (keeping its place and children), and returns it.
func (t *Tree) Set(parent *Node, key, text string, rank int, natural bool, mode string) *Node {
	if c := parent.Child(key); c != nil {
		c.Text, c.Rank, c.Natural = text, rank, natural
		if mode != "" {
			c.Mode = mode
		}
		return c
	}
	t.seq++
	c := &Node{Key: key, Text: text, Rank: rank, Natural: natural, Mode: mode, seq: t.seq}
	parent.Children = append(parent.Children, c)
	return c
}

// Remove deletes the child with key and reports whether there was one.
func (n *Node) Remove(key string) bool {
	for i, c := range n.Children {
		if c.Key == key {
			n.Children = append(n.Children[:i], n.Children[i+1:]...)
			return true
		}
	}
	return false
}

// Sorted returns the children in print order: by Rank, then natural order
// of Text for Natural nodes, then insertion order.
func (n *Node) Sorted() []*Node {
	s := append([]*Node(nil), n.Children...)
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		if a.Natural && b.Natural {
			if c := NaturalCompare(a.Text, b.Text); c != 0 {
				return c < 0
			}
		}
		return a.seq < b.seq
	})
	return s
}

// Walk calls fn for every node below n in print order, with its depth
// (children of n have depth 0).
func (n *Node) Walk(fn func(depth int, c *Node)) {
	var walk func(d int, x *Node)
	walk = func(d int, x *Node) {
		for _, c := range x.Sorted() {
			fn(d, c)
			walk(d+1, c)
		}
	}
	walk(0, n)
}

// NaturalCompare orders strings with embedded numbers by value
// ("Ethernet1/2" < "Ethernet1/10").
func NaturalCompare(a, b string) int {
	for a != "" && b != "" {
		ca, cb := a[0], b[0]
		if isDigit(ca) && isDigit(cb) {
			na, ra := leadingNumber(a)
			nb, rb := leadingNumber(b)
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			a, b = ra, rb
			continue
		}
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func isDigit(c byte) bool { return unicode.IsDigit(rune(c)) }

func leadingNumber(s string) (int64, string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	v, _ := strconv.ParseInt(s[:i], 10, 64)
	return v, s[i:]
}

// Print writes the tree with indent repeated per depth.
func (t *Tree) Print(indent string) string {
	var b strings.Builder
	t.Root.Walk(func(d int, c *Node) {
		b.WriteString(strings.Repeat(indent, d))
		b.WriteString(c.Text)
		b.WriteByte('\n')
	})
	return b.String()
}
