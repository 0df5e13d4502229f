package sonic

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/sonicyang"
	"github.com/lossless-net/lossless/internal/textdiff"
)

// dline is one line of a line diff: ' ' kept, '-' removed, '+' added;
// or, with fold set, n kept lines printed only if a hunk shows them (an
// entry equal on both sides: most of a large config).
type dline struct {
	op   byte
	text string
	n    int
	// fold is the equal entry (key, fields, whether it is its table's
	// last) printed when a hunk shows part of it.
	fold *foldEntry
}

// foldEntry is a run of equal entries of one table: keys[i:j] of its
// natural order, those present in t, the one named last without a comma.
type foldEntry struct {
	t    map[string]map[string]string
	keys []string
	last string
}

// visit prints the lines from..to-1 of the run, which starts at line x:
// only the entries those lines fall in.
func (f *foldEntry) visit(a *lineArena, x, from, to int, emit func(string)) {
	for _, k := range f.keys {
		if x >= to {
			return
		}
		fields, ok := f.t[k]
		if !ok {
			continue
		}
		n := len(fields) + 2
		if x+n > from {
			// Only the lines in range are printed: a hunk shows a
			// few lines of context of a long run.
			printEntryLines(a, "        ", k, fields, k == f.last, from-x, to-x, emit)
		}
		x += n
	}
}

func (f *foldEntry) lines() []string {
	var l []string
	for _, k := range f.keys {
		if fields, ok := f.t[k]; ok {
			printEntry(nil, "        ", k, fields, k == f.last, func(s string) { l = append(l, s) })
		}
	}
	return l
}

// unified returns the unified diff of a and b printed as config_db.json
// (renderers/sonic.Text's form: 4-space indent, natural key order), ""
// when they are equal. Both sides are sorted trees, so the line diff is a
// merge of the two walks, linear in their size, and the entries equal on
// both sides are printed only where a hunk shows them (a text diff would
// print both documents whole first). textdiff.Hunks prints its hunks, as
// textdiff.Unified does.
//
// order, when not nil, returns a table's keys in natural order (a superset
// of the keys of both sides), saving a sort per table.
func unified(aName, bName string, a, b config.DB, order func(table string) []string) string {
	w := lineDiff(a, b, order)
	if !w.changed {
		return ""
	}
	return textdiff.Hunks(aName, bName, w)
}

// lineDiff returns the line diff of a and b as config_db.json.
func lineDiff(a, b config.DB, order func(string) []string) *diffWriter {
	n := 0
	for _, t := range b {
		n += len(t)
	}
	w := &diffWriter{lines: make([]dline, 0, 2*n+16)}
	if len(a) == 0 || len(b) == 0 {
		w.replaceLines(docLines(a), docLines(b))
		w.flush()
		return w
	}
	w.add(' ', "{")
	tables := union(a, b)
	lastA, lastB := lastIn(tables, a), lastIn(tables, b)
	for _, tn := range tables {
		at, aok := a[tn]
		bt, bok := b[tn]
		switch {
		case !aok:
			w.block('+', "    ", tn, bt, tn == lastB, printTable)
		case !bok:
			w.block('-', "    ", tn, at, tn == lastA, printTable)
		default:
			keys := order
			if keys == nil {
				keys = func(string) []string { return union(at, bt) }
			}
			w.table(tn, at, bt, tn == lastA, tn == lastB, keys(tn))
		}
	}
	w.add(' ', "}")
	return w
}

// docLines prints a whole document as renderers/sonic.Text does.
func docLines(db config.DB) []string {
	if len(db) == 0 {
		return []string{"{}"}
	}
	lines := []string{"{"}
	tables := sortedKeys(db)
	for i, tn := range tables {
		printTable("    ", tn, db[tn], i == len(tables)-1, func(s string) { lines = append(lines, s) })
	}
	return append(lines, "}")
}

type diffWriter struct {
	lines   []dline
	changed bool
	// plus holds added lines until the next kept line, so a run of
	// changes prints all its removals, then all its additions, as
	// textdiff.Unified does.
	plus []string
	// names is entry's buffer for field names.
	names []string
	// arena holds the lines printed.
	arena lineArena
}

func (w *diffWriter) add(op byte, text string) {
	switch op {
	case '+':
		w.plus = append(w.plus, text)
		w.changed = true
		return
	case '-':
		w.changed = true
	default:
		w.flush()
	}
	w.lines = append(w.lines, dline{op: op, text: text, n: 1})
}

// flush writes the pending added lines.
func (w *diffWriter) flush() {
	for _, t := range w.plus {
		w.lines = append(w.lines, dline{op: '+', text: t, n: 1})
	}
	w.plus = w.plus[:0]
}

// text returns all lines, folds printed.
func (w *diffWriter) text() []dline {
	var out []dline
	for _, l := range w.lines {
		if l.fold == nil {
			out = append(out, l)
			continue
		}
		for _, t := range l.fold.lines() {
			out = append(out, dline{op: ' ', text: t, n: 1})
		}
	}
	return out
}

// pair adds a line present on both sides: kept when equal, else removed
// and added.
func (w *diffWriter) pair(a, b string) {
	if a == b {
		w.add(' ', a)
		return
	}
	w.add('-', a)
	w.add('+', b)
}

func comma(last bool) string {
	if last {
		return ""
	}
	return ","
}

// lastIn returns the last key of m in natural order, given keys: every
// key of m (and maybe others) in natural order. It looks from the end,
// without comparing keys.
func lastIn[V any](keys []string, m map[string]V) string {
	for i := len(keys) - 1; i >= 0; i-- {
		if _, ok := m[keys[i]]; ok {
			return keys[i]
		}
	}
	return ""
}

// block adds a whole table or entry that only one side has.
func (w *diffWriter) block(op byte, indent, name string, v any, last bool, print func(indent, name string, v any, last bool, emit func(string))) {
	print(indent, name, v, last, func(s string) { w.add(op, s) })
}

func printTable(indent, name string, v any, last bool, emit func(string)) {
	t := v.(map[string]map[string]string)
	if len(t) == 0 {
		emit(nameLine(nil, indent, name, ": {}", comma(last)))
		return
	}
	emit(nameLine(nil, indent, name, ": {", ""))
	keys := sortedKeys(t)
	for i, k := range keys {
		printEntry(nil, indent+"    ", k, t[k], i == len(keys)-1, emit)
	}
	emit(closeLine(indent, last))
}

func printEntry(a *lineArena, indent, name string, fields map[string]string, last bool, emit func(string)) {
	printEntryLines(a, indent, name, fields, last, 0, len(fields)+2, emit)
}

// printEntryLines is printEntry of the entry's lines from..to-1 only
// (line 0 is the name, the last the closing brace); the lines outside are
// not built.
func printEntryLines(a *lineArena, indent, name string, fields map[string]string, last bool, from, to int, emit func(string)) {
	if len(fields) == 0 {
		if from <= 0 && to > 0 {
			emit(nameLine(a, indent, name, ": {}", comma(last)))
		}
		return
	}
	if from <= 0 && to > 0 {
		emit(nameLine(a, indent, name, ": {", ""))
	}
	if from <= len(fields) && to > 1 {
		fs := sortedKeys(fields)
		for i, f := range fs {
			if i+1 >= from && i+1 < to {
				emit(fieldLine(a, indent+"    ", f, fields[f], i == len(fs)-1))
			}
		}
	}
	if end := len(fields) + 1; from <= end && to > end {
		emit(closeLine(indent, last))
	}
}

func (w *diffWriter) table(tn string, a, b map[string]map[string]string, lastA, lastB bool, keys []string) {
	if len(a) == 0 || len(b) == 0 {
		var la, lb []string
		printTable("    ", tn, a, lastA, func(s string) { la = append(la, s) })
		printTable("    ", tn, b, lastB, func(s string) { lb = append(lb, s) })
		w.replaceLines(la, lb)
		return
	}
	w.add(' ', nameLine(&w.arena, "    ", tn, ": {", ""))
	ka, kb := lastIn(keys, a), lastIn(keys, b)
	// A run of entries equal on both sides (most of a large config) is
	// one folded item, printed only if a hunk shows part of it.
	run, runLines := -1, 0
	endRun := func(i int) {
		if run >= 0 {
			w.flush()
			w.lines = append(w.lines, dline{op: ' ', n: runLines, fold: &foldEntry{a, keys[run:i], ka}})
			run, runLines = -1, 0
		}
	}
	for i, k := range keys {
		af, aok := a[k]
		bf, bok := b[k]
		if aok && bok && len(af) > 0 && (k == ka) == (k == kb) && maps.Equal(af, bf) {
			if run < 0 {
				run = i
			}
			runLines += len(af) + 2
			continue
		}
		if !aok && !bok {
			continue
		}
		endRun(i)
		switch {
		case !aok:
			printEntry(&w.arena, "        ", k, bf, k == kb, func(s string) { w.add('+', s) })
		case !bok:
			printEntry(&w.arena, "        ", k, af, k == ka, func(s string) { w.add('-', s) })
		default:
			w.entry(k, af, bf, k == ka, k == kb)
		}
	}
	endRun(len(keys))
	w.pair(closeLine("    ", lastA), closeLine("    ", lastB))
}

func (w *diffWriter) entry(k string, a, b map[string]string, lastA, lastB bool) {
	if len(a) == 0 || len(b) == 0 {
		var la, lb []string
		printEntry(nil, "        ", k, a, lastA, func(s string) { la = append(la, s) })
		printEntry(nil, "        ", k, b, lastB, func(s string) { lb = append(lb, s) })
		w.replaceLines(la, lb)
		return
	}
	const indent = "            "
	w.add(' ', nameLine(&w.arena, "        ", k, ": {", ""))
	// The field names of both sides in natural order, in a buffer
	// reused by every entry.
	fields := w.names[:0]
	for f := range a {
		fields = append(fields, f)
	}
	for f := range b {
		if _, ok := a[f]; !ok {
			fields = append(fields, f)
		}
	}
	slices.SortFunc(fields, sonicyang.NaturalCompare)
	w.names = fields
	fa, fb := lastIn(fields, a), lastIn(fields, b)
	for _, f := range fields {
		av, aok := a[f]
		bv, bok := b[f]
		switch {
		case !aok:
			w.add('+', fieldLine(&w.arena, indent, f, bv, f == fb))
		case !bok:
			w.add('-', fieldLine(&w.arena, indent, f, av, f == fa))
		case av == bv && (f == fa) == (f == fb):
			w.add(' ', fieldLine(&w.arena, indent, f, av, f == fa))
		default:
			w.pair(fieldLine(&w.arena, indent, f, av, f == fa), fieldLine(&w.arena, indent, f, bv, f == fb))
		}
	}
	w.pair(closeLine("        ", lastA), closeLine("        ", lastB))
}

func (w *diffWriter) replaceLines(a, b []string) {
	if strings.Join(a, "\n") == strings.Join(b, "\n") {
		for _, l := range a {
			w.add(' ', l)
		}
		return
	}
	for _, l := range a {
		w.add('-', l)
	}
	for _, l := range b {
		w.add('+', l)
	}
}

// fieldLine prints one field line, cut from a's chunks when nothing needs
// escaping.
func fieldLine(a *lineArena, indent, f, v string, last bool) string {
	if plain(f) && plain(v) {
		return a.join(indent, `"`, f, `": "`, v, `"`, comma(last))
	}
	return indent + jsonString(f) + ": " + jsonString(v) + comma(last)
}

// lineArena hands out the text diff's lines cut from shared chunks: one
// allocation per chunk, not one per line. Bytes once written to a chunk
// are never written again, so the lines cut from it never change.
type lineArena struct{ b strings.Builder }

// arenaChunk is the size of a lineArena chunk: about a thousand lines.
const arenaChunk = 32 << 10

// join returns the concatenation of parts; a nil arena allocates it.
func (a *lineArena) join(parts ...string) string {
	if a == nil {
		return strings.Join(parts, "")
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if a.b.Cap()-a.b.Len() < n {
		a.b = strings.Builder{}
		a.b.Grow(max(n, arenaChunk))
	}
	start := a.b.Len()
	for _, p := range parts {
		a.b.WriteString(p)
	}
	return a.b.String()[start:]
}

func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			return false
		}
	}
	return true
}

// closeLine prints the line that closes a table or entry: a constant
// for the indents of tables and entries.
func closeLine(indent string, last bool) string {
	switch {
	case indent == "    " && last:
		return "    }"
	case indent == "    ":
		return "    },"
	case indent == "        " && last:
		return "        }"
	case indent == "        ":
		return "        },"
	}
	return indent + "}" + comma(last)
}

// nameLine prints the line that opens a table or entry, in one
// allocation when the name needs no escaping.
func nameLine(a *lineArena, indent, name, open, comma string) string {
	if plain(name) {
		return a.join(indent, `"`, name, `"`, open, comma)
	}
	return indent + jsonString(name) + open + comma
}

// jsonString quotes s as encoding/json does (and renderers/sonic.Text).
func jsonString(s string) string {
	if plain(s) {
		return `"` + s + `"`
	}
	q, _ := json.Marshal(s) // a string always marshals
	return string(q)
}

// Len, Run and AppendLines make the line diff a textdiff.Script: a fold
// is printed only where a hunk shows part of it.
func (w *diffWriter) Len() int { return len(w.lines) }

func (w *diffWriter) Run(i int) (textdiff.Op, int) { return textdiff.Op(w.lines[i].op), w.lines[i].n }

func (w *diffWriter) AppendLines(dst []byte, i, from, to int) []byte {
	l := w.lines[i]
	if l.fold == nil {
		return append(append(append(dst, l.op), l.text...), '\n')
	}
	l.fold.visit(&w.arena, 0, from, to, func(t string) {
		dst = append(append(append(dst, ' '), t...), '\n')
	})
	return dst
}
