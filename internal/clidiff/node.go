package clidiff

// Node is a canonical config line and the lines of the mode it opens.
type Node struct {
	// Text is the line's canonical text.
	Text string
	// Key is the line's identity among its siblings (the [LineFunc]'s
	// key): on the device a line with the same key replaces it.
	Key string
	// Kids are the lines of the mode the line opens, in order.
	Kids []*Node
	// Peer is, on a top-level node, the node with the same key on the
	// other side (running ↔ desired), set by [PairByKey] or
	// [PairInOrder]; nil when there is none. [Differ.Diff] reads it.
	Peer *Node
	// Single is true when the line holds the one value of its key;
	// false when it is one member of a set (NX-OS `match dscp` lines),
	// which [Dedupe] keeps however often the key repeats.
	Single bool
}

// Child returns the first child with key k, or nil; n may be nil. Modes
// have few lines, so a scan beats a map.
func (n *Node) Child(k string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Kids {
		if c.Key == k {
			return c
		}
	}
	return nil
}

// kids returns n's children; nil for a nil n.
func (n *Node) kids() []*Node {
	if n == nil {
		return nil
	}
	return n.Kids
}

// Equal reports whether two trees are the same line for line.
func Equal(a, b *Node) bool {
	if a.Text != b.Text || len(a.Kids) != len(b.Kids) {
		return false
	}
	for i := range a.Kids {
		if !Equal(a.Kids[i], b.Kids[i]) {
			return false
		}
	}
	return true
}

// Index maps the keys of nodes to the nodes; of nodes with the same key,
// the last one.
func Index(nodes []*Node) map[string]*Node {
	m := make(map[string]*Node, len(nodes))
	for _, n := range nodes {
		m[n.Key] = n
	}
	return m
}

// PairByKey sets the peers of two top levels from their indexes
// (wantBy = Index(want), haveBy = Index(have), or larger maps holding
// them): a node's peer is the other side's node with its key, so several
// running nodes with one key all have the desired node as peer.
func PairByKey(want, have []*Node, wantBy, haveBy map[string]*Node) {
	for _, w := range want {
		w.Peer = haveBy[w.Key]
	}
	for _, h := range have {
		h.Peer = wantBy[h.Key]
	}
}

// PairInOrder links the nodes of two top levels with equal keys one to
// one, each to the first free node of the other side with its key. Both
// sides usually list their modes in the device's order, so a cursor finds
// most peers; a map is built only when it misses.
func PairInOrder(want, have []*Node) {
	pos := 0
	var at map[string]int
	for _, w := range want {
		i := -1
		if pos < len(have) && have[pos].Key == w.Key {
			i = pos
		} else {
			if at == nil {
				at = make(map[string]int, len(have))
				for k := len(have) - 1; k >= 0; k-- {
					at[have[k].Key] = k
				}
			}
			if k, ok := at[w.Key]; ok {
				i = k
			}
		}
		if i >= 0 && have[i].Peer == nil && w.Peer == nil {
			have[i].Peer, w.Peer = w, have[i]
			pos = i + 1
		}
	}
}

// Dedupe keeps, at every level, the last of the siblings with the same
// single-valued key: a later line replaces an earlier one, as on the
// device (which never prints both). Lists are filtered in place.
func Dedupe(nodes []*Node) []*Node {
	for _, n := range nodes {
		if len(n.Kids) > 0 {
			n.Kids = Dedupe(n.Kids)
		}
	}
	return dedupe(nodes)
}

// DedupeIndex is Dedupe(nodes) and the Index of its top level, in one map
// when no single-valued key repeats there (the usual case).
func DedupeIndex(nodes []*Node) ([]*Node, map[string]*Node) {
	for _, n := range nodes {
		if len(n.Kids) > 0 {
			n.Kids = Dedupe(n.Kids)
		}
	}
	m := make(map[string]*Node, len(nodes))
	for _, n := range nodes {
		// A repeated key is a duplicate to drop when both lines hold
		// one value; a member of a set never shares its key with
		// such a line (the LineFunc's contract).
		if prev, ok := m[n.Key]; ok && n.Single && prev.Single {
			out := dedupe(nodes)
			return out, Index(out)
		}
		m[n.Key] = n
	}
	return nodes, m
}

// dedupe is Dedupe of one level.
func dedupe(nodes []*Node) []*Node {
	if len(nodes) < 2 {
		return nodes
	}
	if len(nodes) <= 8 && !smallDup(nodes) {
		return nodes
	}
	last := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if n.Single {
			last[n.Key] = i
		}
	}
	if len(last) == len(nodes) {
		return nodes
	}
	out := nodes[:0:0]
	for i, n := range nodes {
		if !n.Single || last[n.Key] == i {
			out = append(out, n)
		}
	}
	return out
}

// smallDup reports whether a short list repeats a single-valued key.
func smallDup(nodes []*Node) bool {
	for i, a := range nodes {
		for _, b := range nodes[i+1:] {
			if a.Single && b.Single && a.Key == b.Key {
				return true
			}
		}
	}
	return false
}

// Prune removes, at every level, the lines without children for which
// hidden is true (the defaults a device does not print), deciding on a
// line before its own children are pruned. Lists are filtered in place.
func Prune(nodes []*Node, hidden func(text string) bool) []*Node {
	out := nodes[:0]
	for _, n := range nodes {
		if len(n.Kids) == 0 {
			if hidden(n.Text) {
				continue
			}
		} else {
			n.Kids = Prune(n.Kids, hidden)
		}
		out = append(out, n)
	}
	return out
}
