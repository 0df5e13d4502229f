package textdiff

// cleanup rewrites s as go-diff's DiffCleanupMerge leaves a diff, so that
// among scripts of one length Unified picks the one go-diff picked: a
// deletion or insertion between two unchanged runs slides over the one
// before (after) it when it ends (starts) with those lines, joining two
// changes or pushing one to a text's end; then, within each change, lines
// common to the start (end) of the deleted and the inserted ones join the
// unchanged lines before (after) it. It repeats both until nothing moves,
// at most maxCleanups times. diff's scripts need no merge to begin with:
// each change's deletions come before its insertions, and no change
// starts or ends with a line both sides have.
func (s *lineScript) cleanup() {
	for range maxCleanups {
		if !s.slide() {
			break
		}
		s.merge()
	}
	s.place()
}

// maxCleanups bounds cleanup's rounds: each is linear in the script, and
// a slide rarely makes another.
const maxCleanups = 16

// merge joins neighbouring runs of one op, orders each change's
// deletions before its insertions, and moves lines common to the start
// or the end of both into the unchanged runs around it.
func (s *lineScript) merge() {
	out := s.runs[:0:0]
	emit := func(op Op, n int) {
		switch {
		case n == 0:
		case len(out) > 0 && out[len(out)-1].op == op:
			out[len(out)-1].n += n
		default:
			out = append(out, run{op: op, n: n})
		}
	}
	ai, bi := 0, 0 // lines of a and b before the current change
	del, ins := 0, 0
	flush := func() {
		pre := 0
		for pre < min(del, ins) && s.a.line(ai+pre) == s.b.line(bi+pre) {
			pre++
		}
		suf := 0
		for suf < min(del, ins)-pre && s.a.line(ai+del-1-suf) == s.b.line(bi+ins-1-suf) {
			suf++
		}
		emit(Equal, pre)
		emit(Delete, del-pre-suf)
		emit(Insert, ins-pre-suf)
		emit(Equal, suf)
		ai, bi, del, ins = ai+del, bi+ins, 0, 0
	}
	for _, r := range s.runs {
		switch r.op {
		case Delete:
			del += r.n
		case Insert:
			ins += r.n
		default:
			flush()
			emit(Equal, r.n)
			ai, bi = ai+r.n, bi+r.n
		}
	}
	flush()
	s.runs = out
}

// slide moves each lone deletion or insertion between two unchanged runs
// over the one before it if it ends with its lines, else over the one
// after it if it starts with them; it reports whether any moved. Runs
// keep their lengths; place sets where their lines are.
func (s *lineScript) slide() bool {
	if len(s.runs) < 3 {
		return false
	}
	moved := false
	// s.runs[:w] is done, the last of it x; ai and bi count the lines
	// of a and b before x. Moving a run merges two, so w ≤ r.
	w, ai, bi := 1, 0, 0
	push := func(r run) {
		ai, bi = advance(s.runs[w-1], ai, bi)
		s.runs[w] = r
		w++
	}
	r := 1
	for ; r < len(s.runs)-1; r++ {
		x, y, z := s.runs[w-1], s.runs[r], s.runs[r+1]
		if x.op != Equal || z.op != Equal || y.op == Equal {
			push(y)
			continue
		}
		// y's lines, after x's; z's in a, after y's if y deletes.
		t, at := s.b, bi+x.n
		za := ai + x.n
		if y.op == Delete {
			t, at = s.a, ai+x.n
			za += y.n
		}
		switch {
		case y.n >= x.n && s.sameInA(t, at+y.n-x.n, ai, x.n):
			// x y z becomes y x+z.
			s.runs[w-1] = y
			push(run{op: Equal, n: x.n + z.n})
		case y.n >= z.n && s.sameInA(t, at, za, z.n):
			// x y z becomes x+z y.
			s.runs[w-1] = run{op: Equal, n: x.n + z.n}
			push(y)
		default:
			push(y)
			continue
		}
		moved = true
		r++ // z is taken
	}
	for ; r < len(s.runs); r++ {
		push(s.runs[r])
	}
	s.runs = s.runs[:w]
	return moved
}

// sameInA reports whether the n lines of t from line at are a's from
// line ai.
func (s *lineScript) sameInA(t text, at, ai, n int) bool {
	for k := range n {
		if t.line(at+k) != s.a.line(ai+k) {
			return false
		}
	}
	return true
}

// advance returns ai and bi past r's lines.
func advance(r run, ai, bi int) (int, int) {
	switch r.op {
	case Equal:
		return ai + r.n, bi + r.n
	case Delete:
		return ai + r.n, bi
	}
	return ai, bi + r.n
}

// place sets each run's first line: in a for unchanged and deleted
// lines, in b for inserted ones.
func (s *lineScript) place() {
	ai, bi := 0, 0
	for i, r := range s.runs {
		s.runs[i].at = ai
		if r.op == Insert {
			s.runs[i].at = bi
		}
		ai, bi = advance(r, ai, bi)
	}
}
