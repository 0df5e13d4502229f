package eos

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/vendors"
)

// EOS has one system-wide DSCP → traffic-class map and one traffic-class
// → tx-queue map (reference/eos.md §0). Each is diffed value by value:
// lossless owns the values its rendering's `qos map` lines hold, at the
// default or not. A value the rendering lacks is EOS's default or
// someone else's:
//
//   - EOS hides default values (§2.1: a line equal to the default map
//     may not appear in show running-config), so a value the running
//     config does not show is at its default, and a value it shows at
//     its default is the same as hidden. Neither is ever negated: there
//     is nothing to restore (the session would find nothing to change),
//     and neither is listed.
//   - A value shown elsewhere than its default is someone's choice: kept
//     and listed, or with unmanaged = "prune" negated (`no qos map dscp
//     D… to traffic-class N` restores the default for those values, §3).
//
// A desired line is sent whole when one of its values is elsewhere now,
// so a value lossless keeps is never unmapped on the way.

// valueMap is one of the two maps.
type valueMap struct {
	prefix, target string // "qos map dscp ", "traffic-class"
	max            int    // the largest value
	def            func(int) int
	// removePhase is when a stale value goes back to its default.
	removePhase int
	reason      string
}

var (
	// dscpMap is the DSCP map; EOS's default sends DSCP 0–7 to 1, 8–15
	// to 0, then DSCP/8 (§0). A stale value goes back to its default
	// first, before the queue and PFC settings of its class could go.
	dscpMap = valueMap{prefix: "qos map dscp ", target: "traffic-class", max: 63, def: defaultTC, removePhase: phaseMapRemove,
		reason: "not rendered by lossless: the intent does not map these DSCP values, and EOS's default map sends them elsewhere" + prunes}
	// tcMap is the traffic-class → tx-queue map, identity by default
	// (§0 [T:blog36]). A stale value goes back after the ports' queues
	// are set, so that its traffic lands on a configured queue.
	// cosMap is the CoS → traffic-class map of the ports that trust CoS
	// (`qos map cos`, [C:avd] qos.j2). Its default is in no source read;
	// it is taken as EOS's default DSCP map read by precedence (DSCP/8):
	// CoS 0 to 1, 1 to 0, the others to themselves [I], the order of
	// IEEE 802.1Q's traffic types. A stale value goes back first, as a
	// DSCP one does.
	cosMap = valueMap{prefix: "qos map cos ", target: "traffic-class", max: 7, def: func(c int) int { return defaultTC(8 * c) }, removePhase: phaseMapRemove,
		reason: "not rendered by lossless: the intent does not map these CoS values, and EOS's default map sends them elsewhere" + prunes}
	tcMap = valueMap{prefix: "qos map traffic-class ", target: "tx-queue", max: 7, def: func(tc int) int { return tc }, removePhase: phaseMap,
		reason: "not rendered by lossless: it sends these traffic classes to another tx-queue than their own, which lossless' queue settings assume" + prunes}
)

// mapOf returns the map a `qos map` line belongs to, nil for none.
func mapOf(text string) *valueMap {
	switch {
	case isDSCPMap(text):
		return &dscpMap
	case isTCMap(text):
		return &tcMap
	case isCoSMap(text):
		return &cosMap
	}
	return nil
}

func isMapLine(text string) bool { return isDSCPMap(text) || isTCMap(text) || isCoSMap(text) }

// parse returns a line's values (sorted, unique) and their target.
func (m *valueMap) parse(text string) ([]int, int, bool) {
	rest, ok := strings.CutPrefix(text, m.prefix)
	if !ok {
		return nil, 0, false
	}
	list, target, ok := strings.Cut(rest, " to "+m.target+" ")
	if !ok {
		return nil, 0, false
	}
	to, err := strconv.Atoi(target)
	if err != nil || to < 0 || to > 7 {
		return nil, 0, false
	}
	var vals []int
	for _, f := range strings.Fields(list) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 || v > m.max {
			return nil, 0, false
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return nil, 0, false
	}
	slices.Sort(vals)
	return slices.Compact(vals), to, true
}

func (m *valueMap) line(vals []int, to int) string {
	return m.prefix + joinInts(vals) + " to " + m.target + " " + strconv.Itoa(to)
}

// mapShow is a map as show running-config prints it: the values each
// target's line holds.
type mapShow map[int]map[int]bool

// mapChange is the change of the maps: the lines the human diff shows
// before and after, and every line the maps have after the change.
type mapChange struct {
	before, after, all []*node
}

// diffMap records the commands of map m from the running lines have to
// the desired lines want, and lists the values it keeps.
func (o *owner) diffMap(d *clidiff.Differ, m *valueMap, want, have []*node) mapChange {
	shown := mapShow{}
	at := map[int]int{} // value → target shown
	for _, h := range have {
		vals, to, ok := m.parse(h.Text)
		if !ok {
			continue
		}
		for _, v := range vals {
			if prev, ok := at[v]; ok {
				delete(shown[prev], v)
			}
			at[v] = to
			if shown[to] == nil {
				shown[to] = map[int]bool{}
			}
			shown[to][v] = true
		}
	}
	now := func(v int) int {
		if to, ok := at[v]; ok {
			return to
		}
		return m.def(v)
	}
	after := mapShow{}
	for to, s := range shown {
		after[to] = maps.Clone(s)
	}
	wanted := map[int]bool{}
	for _, w := range want {
		vals, to, ok := m.parse(w.Text)
		if !ok {
			continue
		}
		for _, v := range vals {
			wanted[v] = true
		}
		if !slices.ContainsFunc(vals, func(v int) bool { return now(v) != to }) {
			continue
		}
		d.NextGroup()
		d.Add(phaseMap, stepSet, nil, w.Text)
		for _, v := range vals {
			for _, s := range after {
				delete(s, v)
			}
			if after[to] == nil {
				after[to] = map[int]bool{}
			}
			after[to][v] = true
		}
	}
	for _, h := range have {
		vals, to, ok := m.parse(h.Text)
		if !ok {
			continue
		}
		var stale []int
		for _, v := range vals {
			if !wanted[v] && at[v] == to && to != m.def(v) {
				stale = append(stale, v)
			}
		}
		if len(stale) == 0 {
			continue
		}
		if !o.prune {
			o.kept = append(o.kept, vendors.Kept{Object: m.line(stale, to), Reason: m.reason})
			continue
		}
		d.NextGroup()
		d.Add(m.removePhase, stepRemove, nil, "no "+m.line(stale, to))
		for _, v := range stale {
			delete(after[to], v)
		}
	}
	var ch mapChange
	for _, to := range slices.Sorted(maps.Keys(mergeKeys(shown, after))) {
		if len(after[to]) > 0 {
			ch.all = append(ch.all, newNode(m.line(slices.Sorted(maps.Keys(after[to])), to), nil))
		}
		if maps.Equal(shown[to], after[to]) {
			continue
		}
		if len(shown[to]) > 0 {
			ch.before = append(ch.before, newNode(m.line(slices.Sorted(maps.Keys(shown[to])), to), nil))
		}
		if len(after[to]) > 0 {
			ch.after = append(ch.after, newNode(m.line(slices.Sorted(maps.Keys(after[to])), to), nil))
		}
	}
	return ch
}

func mergeKeys(a, b mapShow) map[int]bool {
	out := map[int]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// diffMaps records the commands of both maps.
func (o *owner) diffMaps(d *clidiff.Differ) mapChange {
	var ch mapChange
	for _, m := range []*valueMap{&cosMap, &dscpMap, &tcMap} {
		var want, have []*node
		for _, n := range o.wantMaps {
			if mapOf(n.Text) == m {
				want = append(want, n)
			}
		}
		for _, n := range o.haveMaps {
			if mapOf(n.Text) == m {
				have = append(have, n)
			}
		}
		c := o.diffMap(d, m, want, have)
		ch.before = append(ch.before, c.before...)
		ch.after = append(ch.after, c.after...)
		ch.all = append(ch.all, c.all...)
	}
	return ch
}
