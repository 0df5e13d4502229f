package eos

import (
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
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
func Parse(text []byte) ([]*config.Node, error) { return clidiff.Parse(text, scan) }

// parse is Parse into canonical nodes (canon, hidden lines dropped).
func parse(text []byte) ([]*node, error) {
	roots, err := clidiff.Read(text, scan, line)
	if err != nil {
		return nil, err
	}
	return dropHidden(roots), nil
}

// dropHidden removes hidden default lines: top-level ones without
// children (every line of hidden is a global one).
func dropHidden(nodes []*node) []*node {
	out := nodes[:0]
	for _, n := range nodes {
		if len(n.Kids) == 0 && hidden[n.Text] {
			continue
		}
		out = append(out, n)
	}
	return out
}

// scan yields each config line of text with its depth and its text
// (single-spaced), skipping "!" lines, `hostname` and `end`. A line is a
// level below the nearest line above it that is indented less.
func scan(text []byte, yield func(n, depth int, body string) error) error {
	var open []int // the indentation of the lines a next line may nest in
	return clidiff.Lines(text, func(n, spaces int, body string) error {
		if body[0] == '!' || spaces == 0 && (body == "end" || strings.HasPrefix(body, "hostname ")) {
			return nil
		}
		if unevenSpace(body) {
			body = strings.Join(strings.Fields(body), " ")
			if body == "" || body[0] == '!' {
				return nil
			}
		}
		for len(open) > 0 && open[len(open)-1] >= spaces {
			open = open[:len(open)-1]
		}
		if len(open) == 0 && spaces > 0 {
			return fmt.Errorf("parse running config line %d %q: indented with no line above it", n, body)
		}
		open = append(open, spaces)
		return yield(n, len(open)-1, body)
	})
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
// in lossless' scope on any device, and what uses it, printed as EOS
// prints it: every `qos profile`, `policy-map type quality-of-service`,
// `class-map type qos` and `platform trident mmu queue profile` stanza
// and `… apply` line, the `qos map dscp` and `qos map traffic-class … to
// tx-queue` lines, the global `priority-flow-control` lines, and of each
// interface its `service-profile`, `service-policy type qos input`, `qos
// trust`, `priority-flow-control`, `tx-queue` and `uc-tx-queue` lines,
// so that what a port outside the scope applies shows. The header
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
		case isProfile(n.Text), isMapLine(n.Text), isPFCGlobal(n), isPolicyMap(n.Text), isClassMap(n.Text), isMMUProfile(n.Text), isMMUApply(n.Text):
			out = append(out, n)
		case isInterface(n.Text):
			c := &node{Text: n.Text, Key: n.Key}
			for _, l := range n.Kids {
				if portLine(l.Text) {
					c.Kids = append(c.Kids, l)
				}
			}
			if len(c.Kids) > 0 {
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
			if len(p.Kids) > 0 || len(n.Kids) > 0 || family(p.Text) != family(n.Text) {
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
	b.WriteString(n.Text)
	b.WriteByte('\n')
	for i, c := range n.Kids {
		if len(c.Kids) > 0 || isQueue(c.Text) || (i > 0 && (len(n.Kids[i-1].Kids) > 0 || isQueue(n.Kids[i-1].Text))) {
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
