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
// key when single reports that they hold the one value of their key (a
// later line replaces an earlier one, as on the device, which never
// prints both); lines that are members of a set (NX-OS `match dscp`)
// stay, and never share their key with a single-valued line. Lists are
// filtered in place.
func Dedupe(nodes []*Node, single func(*Node) bool) []*Node {
	for _, n := range nodes {
		if len(n.Kids) > 0 {
			n.Kids = Dedupe(n.Kids, single)
		}
	}
	return dedupe(nodes, single)
}

// DedupeIndex is Dedupe and the Index of its top level, in one map when
// no single-valued key repeats there (the usual case).
func DedupeIndex(nodes []*Node, single func(*Node) bool) ([]*Node, map[string]*Node) {
	for _, n := range nodes {
		if len(n.Kids) > 0 {
			n.Kids = Dedupe(n.Kids, single)
		}
	}
	m := make(map[string]*Node, len(nodes))
	for _, n := range nodes {
		if prev, ok := m[n.Key]; ok && single(n) && single(prev) {
			out := dedupe(nodes, single)
			return out, Index(out)
		}
		m[n.Key] = n
	}
	return nodes, m
}

// dedupe is Dedupe of one level.
func dedupe(nodes []*Node, single func(*Node) bool) []*Node {
	if len(nodes) < 2 {
		return nodes
	}
	if len(nodes) <= 8 && !smallDup(nodes, single) {
		return nodes
	}
	last := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if single(n) {
			last[n.Key] = i
		}
	}
	if len(last) == len(nodes) {
		return nodes
	}
	out := nodes[:0:0]
	for i, n := range nodes {
		if last[n.Key] == i || !single(n) {
			out = append(out, n)
		}
	}
	return out
}

// smallDup reports whether a short list repeats a single-valued key.
func smallDup(nodes []*Node, single func(*Node) bool) bool {
	for i, a := range nodes {
		for _, b := range nodes[i+1:] {
			if a.Key == b.Key && single(a) && single(b) {
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
