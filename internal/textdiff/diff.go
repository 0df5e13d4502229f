package textdiff

import (
	"math"
	"sort"
)

// diff returns the edit script from the lines a to the lines b.
//
// Myers' algorithm ("An O(ND) Difference Algorithm and Its Variations",
// 1986; the middle snake in linear space, as go-diff runs it) finds a
// shortest script, but costs the size N of the texts times the number D
// of changes: for two 50,000-line configs with a change in each of their
// 4,000 stanzas, seconds (go-diff gave up after one and printed the rest
// replaced whole, so its output also depended on the machine's load). So:
//
//  1. the lines common to the start and to the end of both texts are kept;
//  2. pair walks both texts once, pairing each line of b with the next
//     line of a or the one after it. If that leaves no line unpaired on
//     both sides, it is a shortest script: a fabric-wide change (a line
//     changed in every stanza, one added to every port) ends here, in
//     linear time;
//  3. otherwise, or when D is small enough for the search to be cheap
//     (it then picks among scripts of one length as go-diff did), the
//     lines are numbered and each region, its common first and last
//     lines kept, is bisected within a budget of about its size;
//  4. a region over that budget is split at the lines that occur once on
//     each side of it, the longest chain of them in the same order on both
//     (patience diff: in a config, the stanza headers), and each gap
//     between them is diffed again from step 3;
//  5. a region with no such line gets what is left of a budget for the
//     whole diff (tens of milliseconds of work); past it, its lines are
//     replaced whole.
//
// The cost is thus about linear in practice and bounded in the worst
// case, and the script depends on the texts only. It is a shortest one
// unless step 4 or 5 ran. Each change lists its deletions before its
// insertions, and cleanup slides changes as go-diff's cleanup did.
func diff(a, b text) *lineScript {
	na, nb := a.len(), b.len()
	pre := 0
	for pre < na && pre < nb && a.line(pre) == b.line(pre) {
		pre++
	}
	suf := 0
	for suf < na-pre && suf < nb-pre && a.line(na-1-suf) == b.line(nb-1-suf) {
		suf++
	}
	ma, mb := na-pre-suf, nb-pre-suf

	d := &differ{ca: make([]bool, ma), cb: make([]bool, mb)}
	switch changes := pair(a, b, pre, d.ca, d.cb); {
	case changes >= 0 && changes*changes/4 > regionBudget+(ma+mb)/4:
		// A shortest script, where bisecting would cost about D²/4.
	case ma+mb > math.MaxInt32:
		// Numbers are int32: texts of more lines are replaced whole.
		d.replace(0, ma, 0, mb)
	default:
		clear(d.ca)
		clear(d.cb)
		d.a, d.b = make([]int32, ma), make([]int32, mb)
		d.ids = d.number(a, b, pre)
		d.work = totalBudget + totalPerLine*(ma+mb)
		d.region(0, ma, 0, mb)
	}

	s := &lineScript{a: a, b: b}
	n := 0
	d.runs(pre, suf, func(run) { n++ })
	s.runs = make([]run, 0, n)
	d.runs(pre, suf, func(r run) { s.runs = append(s.runs, r) })
	s.cleanup()
	return s
}

// runs calls f with the runs of the script, the pre first and suf last
// lines of both texts being equal and those between marked by region.
func (d *differ) runs(pre, suf int, f func(run)) {
	ma, mb := len(d.ca), len(d.cb)
	add := func(op Op, n, at int) {
		if n > 0 {
			f(run{op: op, n: n, at: at})
		}
	}
	add(Equal, pre, 0)
	for i, j := 0, 0; i < ma || j < mb; {
		i0, j0 := i, j
		for i < ma && d.ca[i] {
			i++
		}
		for j < mb && d.cb[j] {
			j++
		}
		add(Delete, i-i0, pre+i0)
		add(Insert, j-j0, pre+j0)
		e := i
		for i < ma && j < mb && !d.ca[i] && !d.cb[j] {
			i, j = i+1, j+1
		}
		add(Equal, i-e, pre+e)
		if i == i0 && j == j0 {
			// Unreachable: region keeps as many lines of a as of b.
			add(Delete, ma-i, pre+i)
			add(Insert, mb-j, pre+j)
			break
		}
	}
	add(Equal, suf, pre+ma)
}

// pair pairs the lines of a and b from pre on in order, walking both: a
// line of b pairs with the next line of a, or with the one after it
// (that one changed or went), or else is inserted. It marks the lines it
// leaves unpaired in ca and cb and returns how many, or -1 if that is
// not a shortest script.
//
// Any script deletes or inserts at least the surplus copies of each line
// (how many more one text has than the other). This one deletes or
// inserts no other exactly when no line is left unpaired on both sides:
// then it is a shortest one, and pairs the lines Myers' would but where
// a line repeats. A fabric-wide change gives such diffs: each stanza has
// its changed lines, old values in a and new ones in b, none in both.
func pair(a, b text, pre int, ca, cb []bool) int {
	na, changes := len(ca), 0
	p := 0 // the next line of a
	for j := range cb {
		l := b.line(pre + j)
		switch {
		case p < na && a.line(pre+p) == l:
			p++
		case p+1 < na && a.line(pre+p+1) == l:
			ca[p] = true
			p += 2
			changes++
		default:
			cb[j] = true
			changes++
		}
	}
	for ; p < na; p++ {
		ca[p] = true
		changes++
	}
	// Unpaired on both sides: lines of a seen, the last kept aside as
	// the changed lines of a config mostly repeat one another.
	deleted := map[string]bool{}
	last := ""
	for i, c := range ca {
		if !c {
			continue
		}
		if l := a.line(pre + i); l != last {
			deleted[l], last = true, l
		}
	}
	last = ""
	for j, c := range cb {
		if !c {
			continue
		}
		if l := b.line(pre + j); l != last {
			if deleted[l] {
				return -1
			}
			last = l
		}
	}
	return changes
}

// number numbers the lines of a and b from pre on, in d.a and d.b: equal
// lines, equal numbers, from 0 in the order first seen. It returns how
// many there are.
//
// A map lookup costs most of a diff of a config, and a config repeats
// itself: each port's stanza has the lines of the one before, and b
// mostly has a's lines in a's order. So a line of b is first compared
// with the line of a after the one the last line of b matched, and the
// line after that; then any line with the line one period before it,
// the period being the distance to the last occurrence of the last line
// looked up; and only if all differ is it looked up.
func (d *differ) number(a, b text, pre int) int {
	na := len(d.a)
	// Room for a line in four distinct, as a config of ports has.
	byLine := make(map[string]int32, na/4+8)
	// Per number: its last line, and its last in a (or -1).
	var last, inA []int32
	period := 0
	lookup := func(t int, l string) int32 {
		id, ok := byLine[l]
		if !ok {
			id = int32(len(byLine))
			byLine[l] = id
			last, inA = append(last, -1), append(inA, -1)
		} else {
			period = t - int(last[id])
		}
		return id
	}
	for t := range na {
		l := a.line(pre + t)
		var id int32
		if u := t - period; period > 0 && a.line(pre+u) == l {
			id = d.a[u]
		} else {
			id = lookup(t, l)
		}
		last[id], inA[id] = int32(t), int32(t)
		d.a[t] = id
	}
	p := 0 // the line of a the next line of b is compared with first
	for j := range d.b {
		t := na + j
		l := b.line(pre + j)
		var id int32
		switch u := t - period; {
		case p < na && a.line(pre+p) == l:
			id = d.a[p]
			p++
		case p+1 < na && a.line(pre+p+1) == l:
			id = d.a[p+1]
			p += 2
		case period > 0 && u < na && a.line(pre+u) == l:
			id = d.a[u]
		case period > 0 && u >= na && b.line(pre+u-na) == l:
			id = d.b[u-na]
		default:
			id = lookup(t, l)
			if q := inA[id]; q >= 0 {
				p = int(q) + 1
			}
		}
		last[id] = int32(t)
		d.b[j] = id
	}
	return len(byLine)
}

// Budgets, in steps of the bisection (a diagonal tried or a line matched)
// and of the anchoring (a line counted).
const (
	// regionBudget and a step per line of a region (both sides) bound
	// its first bisection: the snakes of a few changes cover half the
	// lines.
	regionBudget = 4096
	// totalBudget and totalPerLine (per line of both texts) bound the
	// whole diff.
	totalBudget  = 8 << 20
	totalPerLine = 16
)

// differ marks the lines a diff deletes and inserts.
type differ struct {
	a, b   []int32 // lines as ids: equal lines, equal ids
	ids    int     // number of ids
	ca, cb []bool  // lines deleted from a, inserted from b
	work   int     // steps left of the whole diff's budget
	v      []int   // the bisection's V arrays, reused
	// na, nb, pb: per id, its lines in a and in b of the region being
	// anchored, and the last of them in b.
	na, nb, pb []int32
}

// region marks the changes between a[a0:a1] and b[b0:b1].
func (d *differ) region(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && d.a[a1-1] == d.b[b1-1] {
		a1, b1 = a1-1, b1-1
	}
	if a0 == a1 || b0 == b1 || d.work <= 0 {
		d.replace(a0, a1, b0, b1)
		return
	}
	limit := min(d.work, regionBudget+(a1-a0+b1-b0))
	x, y, st := d.bisect(a0, a1, b0, b1, limit)
	if st == overBudget {
		if d.anchor(a0, a1, b0, b1) {
			return
		}
		x, y, st = d.bisect(a0, a1, b0, b1, d.work)
	}
	if st != snake {
		d.replace(a0, a1, b0, b1)
		return
	}
	d.region(a0, x, b0, y)
	d.region(x, a1, y, b1)
}

// replace marks a[a0:a1] deleted and b[b0:b1] inserted.
func (d *differ) replace(a0, a1, b0, b1 int) {
	for i := a0; i < a1; i++ {
		d.ca[i] = true
	}
	for j := b0; j < b1; j++ {
		d.cb[j] = true
	}
}

// bisectStatus is what bisect found.
type bisectStatus int

const (
	snake      bisectStatus = iota // a middle snake: split the region there
	disjoint                       // no line in common
	overBudget                     // given up
)

// bisect finds the middle snake of a[a0:a1] and b[b0:b1], which have
// no common first or last line, in at most limit steps (charged to
// d.work), and returns the point to split the region at.
func (d *differ) bisect(a0, a1, b0, b1, limit int) (x, y int, st bisectStatus) {
	if limit <= 0 {
		return 0, 0, overBudget
	}
	a, b := d.a[a0:a1], d.b[b0:b1]
	n, m := len(a), len(b)
	maxD := (n + m + 1) / 2
	dmax := min(maxD, limit) // a round costs at least one step
	// v1[off+k] is the furthest x reached on diagonal k forwards, v2
	// backwards, -1 if not yet; they grow with the rounds.
	off := min(dmax, 64) + 1
	v1, v2 := d.vArrays(off)
	size := len(v1)
	v1[off+1], v2[off+1] = 0, 0
	work := size
	defer func() { d.work -= work }()

	delta := n - m
	// With an odd delta the forward path meets the reverse one.
	front := delta%2 != 0
	// Diagonals k1start.. and ..k1end (k2 likewise) ran off the grid.
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for D := 0; D < dmax; D++ {
		if D+1 >= off {
			v1, v2, off = d.growV(v1, v2, off)
			size = len(v1)
			work += size
		}
		for k1 := -D + k1start; k1 <= D-k1end; k1 += 2 {
			i := off + k1
			var x1 int
			if k1 == -D || (k1 != D && v1[i-1] < v1[i+1]) {
				x1 = v1[i+1]
			} else {
				x1 = v1[i-1] + 1
			}
			y1 := x1 - k1
			s := x1
			for x1 < n && y1 < m && a[x1] == b[y1] {
				x1, y1 = x1+1, y1+1
			}
			work += 1 + x1 - s
			v1[i] = x1
			switch {
			case x1 > n:
				k1end += 2
			case y1 > m:
				k1start += 2
			case front:
				if j := off + delta - k1; j >= 0 && j < size && v2[j] != -1 && x1 >= n-v2[j] {
					return a0 + x1, b0 + y1, snake
				}
			}
		}
		for k2 := -D + k2start; k2 <= D-k2end; k2 += 2 {
			i := off + k2
			var x2 int
			if k2 == -D || (k2 != D && v2[i-1] < v2[i+1]) {
				x2 = v2[i+1]
			} else {
				x2 = v2[i-1] + 1
			}
			y2 := x2 - k2
			s := x2
			for x2 < n && y2 < m && a[n-x2-1] == b[m-y2-1] {
				x2, y2 = x2+1, y2+1
			}
			work += 1 + x2 - s
			v2[i] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				if j := off + delta - k2; j >= 0 && j < size && v1[j] != -1 {
					x1 := v1[j]
					if y1 := x1 - (j - off); x1 >= n-x2 {
						return a0 + x1, b0 + y1, snake
					}
				}
			}
		}
		if work > limit {
			return 0, 0, overBudget
		}
	}
	if dmax < maxD {
		return 0, 0, overBudget
	}
	return 0, 0, disjoint
}

// vArrays returns bisect's two V arrays for diagonals -off..off, every
// entry -1.
func (d *differ) vArrays(off int) (v1, v2 []int) {
	size := 2*off + 1
	if cap(d.v) < 2*size {
		d.v = make([]int, 2*size)
	}
	v := d.v[:2*size]
	for i := range v {
		v[i] = -1
	}
	return v[:size], v[size:]
}

// growV returns v1 and v2 for twice the diagonals, and the new offset.
func (d *differ) growV(v1, v2 []int, off int) (w1, w2 []int, woff int) {
	woff = 2 * off
	d.v = nil
	w1, w2 = d.vArrays(woff)
	copy(w1[woff-off:], v1)
	copy(w2[woff-off:], v2)
	return w1, w2, woff
}

// anchor splits a[a0:a1] and b[b0:b1] at the longest chain of lines that
// occur once in each, in the same order in both, and marks the changes
// between them; false if there is no such line.
func (d *differ) anchor(a0, a1, b0, b1 int) bool {
	if d.na == nil {
		d.na, d.nb, d.pb = make([]int32, d.ids), make([]int32, d.ids), make([]int32, d.ids)
	}
	d.work -= 2 * (a1 - a0 + b1 - b0)
	for _, id := range d.a[a0:a1] {
		d.na[id]++
	}
	for j := b0; j < b1; j++ {
		d.nb[d.b[j]]++
		d.pb[d.b[j]] = int32(j)
	}
	// Lines of a unique on both sides, in a's order.
	var cand []int32
	for i := a0; i < a1; i++ {
		if id := d.a[i]; d.na[id] == 1 && d.nb[id] == 1 {
			cand = append(cand, int32(i))
		}
	}
	for _, id := range d.a[a0:a1] {
		d.na[id] = 0
	}
	for _, id := range d.b[b0:b1] {
		d.nb[id] = 0
	}
	if len(cand) == 0 {
		return false
	}
	chain := d.increasing(cand)
	in := make([]int32, len(chain)) // their lines in b, read first: the gaps reuse pb
	for k, i := range chain {
		in[k] = d.pb[d.a[i]]
	}
	pa, pb := a0, b0
	for k, i := range chain {
		d.region(pa, int(i), pb, int(in[k]))
		pa, pb = int(i)+1, int(in[k])+1
	}
	d.region(pa, a1, pb, b1)
	return true
}

// increasing returns the longest subsequence of cand (lines of a, in
// order) whose lines in b (d.pb) increase too: patience sorting.
func (d *differ) increasing(cand []int32) []int32 {
	in := func(k int32) int32 { return d.pb[d.a[cand[k]]] }
	// tops[t] is the candidate ending the best chain of length t+1
	// found so far, the one with the lowest line in b; prev links each
	// candidate to the one before it in its chain.
	var tops []int32
	prev := make([]int32, len(cand))
	for k := range cand {
		j := in(int32(k))
		t := sort.Search(len(tops), func(t int) bool { return in(tops[t]) > j })
		prev[k] = -1
		if t > 0 {
			prev[k] = tops[t-1]
		}
		if t == len(tops) {
			tops = append(tops, int32(k))
		} else {
			tops[t] = int32(k)
		}
	}
	chain := make([]int32, len(tops))
	for t, k := len(tops)-1, tops[len(tops)-1]; t >= 0; t, k = t-1, prev[k] {
		chain[t] = cand[k]
	}
	return chain
}
