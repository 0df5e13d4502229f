package sonic

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
)

// How `config apply-patch` (and `config replace`, `config rollback` and a
// gNMI Set, which run the same PatchApplier) writes a patch, as
// sonic-utilities 691b1bbc (reference/sonic.md §12) does it
// [C: generic_config_updater/generic_updater.py PatchApplier.apply,
// patch_sorter.py, change_applier.py]:
//
//   - The patch is simulated on the running config to get the target; the
//     order of its operations is not kept. The patch sorter computes the
//     changes from running to target itself (PatchSorter.sort: a Diff of
//     the two configs), depth first: at each step it takes the first move
//     its generators offer that its validators accept
//     (SortAlgorithmFactory.create, DfsSorter.sort).
//   - Generators, in order: removals of keys, grouped per table and
//     number of "|" in the key, tables with the fewest possible
//     references first (BulkKeyLevelMoveGenerator,
//     configdb_sorted_keys_by_backlinks), then additions of keys, most
//     referenced tables first; the same one key at a time
//     (KeyLevelMoveGenerator); then field changes, grouped per table, per
//     key, one at a time (BulkKeyGroupLowLevelMoveGenerator,
//     BulkLowLevelMoveGenerator, LowLevelMoveGenerator); last the
//     extensions of rejected moves (RequiredValueMoveExtender: turn the
//     port admin down).
//   - Validators: the config after the move is YANG-valid
//     (FullConfigMoveValidator) and has no empty table
//     (NoEmptyTableMoveValidator); a move changing a port's BUFFER_PG,
//     BUFFER_QUEUE, QUEUE, PORT_QOS_MAP or BUFFER_PORT_*_PROFILE_LIST rows
//     is refused while PORT|<port> admin_status is not "down" (default
//     "down"), and a move setting it to anything else is refused while
//     such changes of the port remain (RequiredValueIdentifier,
//     RequiredValueMoveValidator; sonic-utilities PR #1998). So GCU turns
//     a port admin down around every change of those rows, and up again
//     after.
//   - The sorted changes are applied one after the other; each writes the
//     keys it changes to redis one at a time (ChangeApplier.apply,
//     _upd_data: set_entry per key), and the applier sleeps 1 s after
//     each change. Sorting happens before the first write: "There is no
//     possible sorting" changes nothing.
//
// The lab's sorter follows those rules greedily: it takes the first move
// the validators accept and does not backtrack, and it checks YANG on the
// tables a move touches and the tables that reference them rather than on
// the whole config [I: DfsSorter backtracks when a path dead-ends, which
// the QoS tables' dependencies never need].

// requiringTables are the tables whose rows of a port GCU changes only
// while the port is admin down, and whether the key is "<port>|…" (true)
// or the port itself (RequiredValueIdentifier's requiring_patterns).
var requiringTables = map[string]bool{
	"BUFFER_PG": true, "BUFFER_QUEUE": true, "QUEUE": true,
	"PORT_QOS_MAP": false, "BUFFER_PORT_INGRESS_PROFILE_LIST": false, "BUFFER_PORT_EGRESS_PROFILE_LIST": false,
}

// errNoSorting is PatchSorter's failure (patch_sorter.py PatchSorter.sort).
//
//lint:ignore ST1005 SONiC's own wording, which the driver shows
var errNoSorting = errors.New("There is no possible sorting")

// edit is one write of a move: a whole table, a whole key or one field,
// set or removed.
type edit struct {
	table, key, field string // key "" is the whole table, field "" the whole key
	remove            bool
	replace           bool                         // a set of what exists (GCU logs a "replace")
	rows              map[string]map[string]string // value of a whole-table add
	fields            map[string]string            // value of a whole-key add
	value             string                       // value of a field
}

// change is one move of the sorter: a JsonChange the applier writes as a
// whole.
type change []edit

// op returns the edit as the RFC 6902 operation GCU logs.
func (e edit) op() op {
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") }
	path := "/" + esc(e.table)
	var v any
	switch {
	case e.key == "":
		v = e.rows
	case e.field == "":
		path += "/" + esc(e.key)
		v = e.fields
	default:
		path += "/" + esc(e.key) + "/" + esc(e.field)
		v = e.value
	}
	if e.remove {
		return op{Op: "remove", Path: path}
	}
	b, _ := json.Marshal(v)
	if e.replace {
		return op{Op: "replace", Path: path, Value: b}
	}
	return op{Op: "add", Path: path, Value: b}
}

// String prints c as GCU logs a change: its JSON Patch.
func (c change) String() string {
	ops := make([]op, len(c))
	for i, e := range c {
		ops[i] = e.op()
	}
	return opsJSON(ops)
}

// tables returns the tables c writes.
func (c change) tables() map[string]bool {
	t := map[string]bool{}
	for _, e := range c {
		t[e.table] = true
	}
	return t
}

// apply returns d with c applied, sharing every table c does not touch
// with d (d is not modified).
func (c change) apply(d db) db {
	out := make(db, len(d)+1)
	for tn, t := range d {
		out[tn] = t
	}
	copied := map[string]bool{}
	table := func(tn string) map[string]map[string]string {
		if !copied[tn] {
			copied[tn] = true
			t := make(map[string]map[string]string, len(out[tn])+1)
			for k, f := range out[tn] {
				t[k] = f
			}
			out[tn] = t
		}
		return out[tn]
	}
	for _, e := range c {
		switch {
		case e.key == "" && e.remove:
			delete(out, e.table)
		case e.key == "":
			out[e.table] = copyTable(e.rows)
			copied[e.table] = true
		case e.field == "" && e.remove:
			delete(table(e.table), e.key)
		case e.field == "":
			table(e.table)[e.key] = copyFields(e.fields)
		default:
			t := table(e.table)
			f := copyFields(t[e.key])
			if e.remove {
				delete(f, e.field)
			} else {
				f[e.field] = e.value
			}
			t[e.key] = f
		}
	}
	return out
}

func copyFields(f map[string]string) map[string]string {
	c := make(map[string]string, len(f)+1)
	for k, v := range f {
		c[k] = v
	}
	return c
}

// backlinks counts, per table, the leafrefs of the schema that point at
// its keys: configdb_sorted_keys_by_backlinks's order (potential
// references from the schema alone).
func (s *schema) backlinks(tn string) int { return s.refCount[tn] }

// sortChanges returns the changes GCU's patch sorter turns the move from
// cur to target into, in order. cur and target are not modified.
func (s *schema) sortChanges(cur, target db) ([]change, error) {
	var out []change
	limit := 16 + 4*diffSize(cur, target)
	for !equalDB(cur, target) {
		if len(out) > limit {
			return nil, errNoSorting
		}
		next, c, ok := s.nextMove(cur, target)
		if !ok {
			return nil, errNoSorting
		}
		cur = next
		out = append(out, c)
	}
	return out, nil
}

// nextMove offers the moves in the generators' order and returns the
// first the validators accept, with the config after it.
func (s *schema) nextMove(cur, target db) (db, change, bool) {
	pending := pendingPorts(cur, target)
	var after db
	var taken change
	try := func(c change) bool {
		if len(c) == 0 {
			return false
		}
		sim := c.apply(cur)
		if !s.accepts(cur, sim, c, pending) {
			return false
		}
		after, taken = sim, c
		return true
	}
	removed, added := keyDiff(cur, target)
	// Key removals, then additions, grouped per table and key shape.
	for _, tn := range s.byBacklinks(removed, false) {
		for _, g := range groupBySeparators(removed[tn]) {
			if len(g) == len(cur[tn]) {
				if try(change{{table: tn, remove: true}}) {
					return after, taken, true
				}
				continue
			}
			c := make(change, len(g))
			for i, k := range g {
				c[i] = edit{table: tn, key: k, remove: true}
			}
			if try(c) {
				return after, taken, true
			}
		}
	}
	for _, tn := range s.byBacklinks(added, true) {
		if cur[tn] == nil {
			continue // whole-table additions come one key at a time below
		}
		for _, g := range groupBySeparators(added[tn]) {
			c := make(change, len(g))
			for i, k := range g {
				c[i] = edit{table: tn, key: k, fields: target[tn][k]}
			}
			if try(c) {
				return after, taken, true
			}
		}
	}
	// The same, one key at a time.
	for _, tn := range s.byBacklinks(removed, false) {
		for _, k := range removed[tn] {
			e := edit{table: tn, key: k, remove: true}
			if len(cur[tn]) == 1 {
				e = edit{table: tn, remove: true}
			}
			if try(change{e}) {
				return after, taken, true
			}
		}
	}
	for _, tn := range s.byBacklinks(added, true) {
		for _, k := range added[tn] {
			e := edit{table: tn, key: k, fields: target[tn][k]}
			if cur[tn] == nil {
				e = edit{table: tn, rows: map[string]map[string]string{k: target[tn][k]}}
			}
			if try(change{e}) {
				return after, taken, true
			}
		}
	}
	// Field changes: per table, per key, one at a time.
	fields := fieldDiff(cur, target)
	tables := sortedKeys(fields)
	for _, tn := range tables {
		var c change
		for _, k := range sortedKeys(fields[tn]) {
			c = append(c, fields[tn][k]...)
		}
		if try(c) {
			return after, taken, true
		}
	}
	for _, tn := range tables {
		for _, k := range sortedKeys(fields[tn]) {
			if try(fields[tn][k]) {
				return after, taken, true
			}
		}
	}
	for _, tn := range tables {
		for _, k := range sortedKeys(fields[tn]) {
			for _, e := range fields[tn][k] {
				if try(change{e}) {
					return after, taken, true
				}
			}
		}
	}
	// RequiredValueMoveExtender: a port whose rows must change but which
	// is admin up goes admin down first.
	for _, p := range sortedKeys(pending) {
		if v, ok := cur["PORT"][p]["admin_status"]; ok && v != "down" {
			if try(change{{table: "PORT", key: p, field: "admin_status", value: "down", replace: true}}) {
				return after, taken, true
			}
		}
	}
	return nil, nil, false
}

// accepts runs GCU's move validators on a move from cur to sim: no empty
// table, the port admin-down rule, YANG on what the move touches.
func (s *schema) accepts(cur, sim db, c change, pending map[string]bool) bool {
	touched := c.tables()
	for tn := range touched {
		if t, ok := sim[tn]; ok && len(t) == 0 {
			return false
		}
	}
	for _, e := range c {
		if e.table == "PORT" {
			// Turning a port back up while its rows still change is
			// refused (RequiredValueMoveValidator, second rule).
			if pending[e.key] && adminStatus(sim, e.key) != "down" {
				return false
			}
			continue
		}
		if e.key == "" {
			for k := range cur[e.table] {
				if p, ok := requiringPort(cur, e.table, k); ok && adminStatus(cur, p) != "down" {
					return false
				}
			}
			for k := range sim[e.table] {
				if p, ok := requiringPort(sim, e.table, k); ok && adminStatus(cur, p) != "down" {
					return false
				}
			}
			continue
		}
		if p, ok := requiringPort(cur, e.table, e.key); ok && adminStatus(cur, p) != "down" {
			return false
		}
	}
	return s.validateTables(sim, s.affected(touched)) == ""
}

// requiringPort returns the port whose admin status a row of table tn
// keyed k waits for, when the port has a PORT row.
func requiringPort(d db, tn, k string) (string, bool) {
	multi, ok := requiringTables[tn]
	if !ok {
		return "", false
	}
	p := k
	if multi {
		var found bool
		if p, _, found = strings.Cut(k, "|"); !found {
			return "", false
		}
	}
	if d["PORT"][p] == nil {
		return "", false
	}
	return p, true
}

// adminStatus is PORT|p admin_status, "down" when unset (its YANG default
// and RequiredValueIdentifier's default_value).
func adminStatus(d db, p string) string {
	if v, ok := d["PORT"][p]["admin_status"]; ok {
		return v
	}
	return "down"
}

// pendingPorts are the ports with rows of requiringTables that differ
// between cur and target.
func pendingPorts(cur, target db) map[string]bool {
	out := map[string]bool{}
	for tn := range requiringTables {
		for _, k := range sortedKeys(union(cur[tn], target[tn])) {
			if maps.Equal(cur[tn][k], target[tn][k]) && (cur[tn][k] == nil) == (target[tn][k] == nil) {
				continue
			}
			for _, d := range []db{cur, target} {
				if p, ok := requiringPort(d, tn, k); ok {
					out[p] = true
				}
			}
		}
	}
	return out
}

// keyDiff returns the keys only cur has and the keys only target has, per
// table, in natural order.
func keyDiff(cur, target db) (removed, added map[string][]string) {
	removed, added = map[string][]string{}, map[string][]string{}
	for tn, t := range cur {
		for _, k := range sortedKeys(t) {
			if _, ok := target[tn][k]; !ok {
				removed[tn] = append(removed[tn], k)
			}
		}
	}
	for tn, t := range target {
		for _, k := range sortedKeys(t) {
			if _, ok := cur[tn][k]; !ok {
				added[tn] = append(added[tn], k)
			}
		}
	}
	return removed, added
}

// fieldDiff returns the field edits of the keys both cur and target have.
func fieldDiff(cur, target db) map[string]map[string]change {
	out := map[string]map[string]change{}
	for tn, t := range target {
		for k, want := range t {
			have, ok := cur[tn][k]
			if !ok || maps.Equal(have, want) {
				continue
			}
			var c change
			for _, f := range sortedKeys(union(have, want)) {
				hv, hok := have[f]
				wv, wok := want[f]
				switch {
				case !wok:
					c = append(c, edit{table: tn, key: k, field: f, remove: true})
				case !hok || hv != wv:
					c = append(c, edit{table: tn, key: k, field: f, value: wv, replace: hok})
				}
			}
			if out[tn] == nil {
				out[tn] = map[string]change{}
			}
			out[tn][k] = c
		}
	}
	return out
}

// byBacklinks orders the tables of m by their backlinks, fewest first (or
// most, with most), then by name.
func (s *schema) byBacklinks(m map[string][]string, most bool) []string {
	tables := make([]string, 0, len(m))
	for tn := range m {
		tables = append(tables, tn)
	}
	sort.Slice(tables, func(i, j int) bool {
		a, b := s.backlinks(tables[i]), s.backlinks(tables[j])
		if a != b {
			return (a < b) != most
		}
		return tables[i] < tables[j]
	})
	return tables
}

// groupBySeparators cuts keys into runs with the same number of "|"
// (BulkKeyLevelMoveGenerator).
func groupBySeparators(keys []string) [][]string {
	var out [][]string
	for i, k := range keys {
		if i == 0 || strings.Count(k, "|") != strings.Count(keys[i-1], "|") {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], k)
	}
	return out
}

// affected returns the tables whose validity a move on touched can
// change: those, the tables with leafrefs into them, and BUFFER_POOL
// when DEVICE_METADATA changes (its must on buffer_model).
func (s *schema) affected(touched map[string]bool) map[string]bool {
	out := map[string]bool{}
	for tn := range touched {
		out[tn] = true
		for _, r := range s.referrers[tn] {
			out[r] = true
		}
		if tn == "DEVICE_METADATA" {
			out["BUFFER_POOL"] = true
		}
	}
	return out
}

// validateTables is validate restricted to the given tables.
func (s *schema) validateTables(d db, tables map[string]bool) string {
	return s.validateIn(d, sortedKeys(tables))
}

// equalDB reports whether a and b hold the same tables, keys and fields.
func equalDB(a, b db) bool {
	return maps.EqualFunc(a, b, func(at, bt map[string]map[string]string) bool {
		return maps.EqualFunc(at, bt, maps.Equal)
	})
}

// diffSize counts the keys that differ between a and b.
func diffSize(a, b db) int {
	n := 0
	for tn := range union(a, b) {
		for k := range union(a[tn], b[tn]) {
			if !maps.Equal(a[tn][k], b[tn][k]) || (a[tn][k] == nil) != (b[tn][k] == nil) {
				n++
			}
		}
	}
	return n
}

// Write is one key GCU's change applier writes to CONFIG_DB.
type Write struct {
	// Change is the sorted change the write belongs to (1-based) and
	// Changes how many the patch was sorted into.
	Change, Changes int
	// Table and Key name the key; Fields is its new content, nil when it
	// is deleted.
	Table, Key string
	Fields     map[string]string
}

// Watch makes the device call f after every key apply-patch, replace,
// rollback or a gNMI Set writes, with a copy of CONFIG_DB at that moment;
// nil stops it. f runs while the device is locked: it must not call the
// device.
func (d *Device) Watch(f func(w Write, db map[string]map[string]map[string]string)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.watch = f
}

// writeChanges applies changes to d.db one key at a time, as GCU's change
// applier does; it stops after stop changes when stop ≥ 0. d.mu is held.
func (d *Device) writeChanges(changes []change, stop int) {
	for i, c := range changes {
		if stop >= 0 && i >= stop {
			return
		}
		next := c.apply(d.db)
		for _, tn := range sortedKeys(union(d.db, next)) {
			before, after := d.db[tn], next[tn]
			for _, k := range sortedKeys(union(before, after)) {
				bf, bok := before[k]
				af, aok := after[k]
				if bok == aok && maps.Equal(bf, af) {
					continue
				}
				d.setEntry(tn, k, af, aok)
				if d.watch != nil {
					w := Write{Change: i + 1, Changes: len(changes), Table: tn, Key: k}
					if aok {
						w.Fields = copyFields(af)
					}
					d.watch(w, copyDB(d.db))
				}
			}
		}
	}
}

// setEntry writes one key as ConfigDBConnector.set_entry does: the whole
// entry replaced, or deleted; a table without keys is gone.
func (d *Device) setEntry(tn, k string, fields map[string]string, ok bool) {
	if !ok {
		delete(d.db[tn], k)
		if len(d.db[tn]) == 0 {
			delete(d.db, tn)
		}
		return
	}
	if d.db[tn] == nil {
		d.db[tn] = map[string]map[string]string{}
	}
	d.db[tn][k] = copyFields(fields)
}

// describe prints the sorted changes as GCU logs them (generic_updater.py
// PatchApplier.apply), each one as it is applied: the first applied of
// them.
func describe(changes []change, applied int) string {
	var b strings.Builder
	n := len(changes)
	s, colon := "s", ":"
	if n == 1 {
		s = ""
	}
	if n == 0 {
		colon = "."
	}
	fmt.Fprintf(&b, "%s: sorting patch updates.\n", patchApplierName)
	fmt.Fprintf(&b, "Patch Applier: The localhost patch was converted into %d change%s%s\n", n, s, colon)
	fmt.Fprintf(&b, "%s: applying %d change%s in order%s\n", patchApplierName, n, s, colon)
	for _, c := range changes[:applied] {
		fmt.Fprintf(&b, "Patch Applier:   * %s\n", c)
	}
	return b.String()
}
