package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/sonicyang"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors"
)

// rangeTables are the referrer tables keyed <port>|<index or range>: two
// keys of one port that share an index are the same PG or queue written
// twice (reference/sonic.md §2.9, §2.13, §2.14).
var rangeTables = map[string]bool{"BUFFER_PG": true, "BUFFER_QUEUE": true, "QUEUE": true}

// portCritical are the tables whose rows of a port GCU changes only with
// the port admin down (sonic-utilities 691b1bbc
// generic_config_updater/patch_sorter.py RequiredValueIdentifier, PR
// #1998): it turns the port down before such a change and up after. Of
// those, the ones lossless writes.
var portCritical = map[string]bool{"BUFFER_PG": true, "BUFFER_QUEUE": true, "QUEUE": true, "PORT_QOS_MAP": true}

// managedPorts are the ports the rendering keys referrer rows by: its
// PORT_QOS_MAP, QUEUE, BUFFER_PG, BUFFER_QUEUE and PFC_WD rows and its
// CABLE_LENGTH fields.
func managedPorts(desired config.DB) map[string]bool {
	ports := map[string]bool{}
	for _, tn := range referrerTables {
		for k, fields := range desired[tn] {
			if tn == "CABLE_LENGTH" {
				for p := range fields {
					ports[p] = true
				}
				continue
			}
			if k != globalQoS && k != globalWD {
				ports[portOf(tn, k)] = true
			}
		}
	}
	return ports
}

// indexRange parses the index part of a range table's key ("3", "3-5").
func indexRange(key string) (lo, hi int, ok bool) {
	_, idx, found := strings.Cut(key, "|")
	if !found {
		return 0, 0, false
	}
	a, b, isRange := strings.Cut(idx, "-")
	lo, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil || hi < lo {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// overlapping returns the first key (natural order) of desired table tn
// on k's port whose index range shares an index with k's, or "".
func (s *scope) overlapping(tn, k string) string {
	lo, hi, ok := indexRange(k)
	if !ok {
		return ""
	}
	if s.ranges == nil {
		// The desired range keys per table and port, built once.
		s.ranges = map[string]map[string][]string{}
		for t := range rangeTables {
			byPort := map[string][]string{}
			for d := range s.desired[t] {
				p := portOf(t, d)
				byPort[p] = append(byPort[p], d)
			}
			for _, ks := range byPort {
				slices.SortFunc(ks, sonicyang.NaturalCompare)
			}
			s.ranges[t] = byPort
		}
	}
	for _, d := range s.ranges[tn][portOf(tn, k)] {
		if dlo, dhi, ok := indexRange(d); ok && dlo <= hi && lo <= dhi {
			return d
		}
	}
	return ""
}

// origin says whose an object lossless does not render probably is, from
// its name: SONiC's QoS template (qos_config.j2 names its maps and WRED
// profile AZURE…, its schedulers scheduler.N), its buffer template
// (buffers_config.j2 and the SKUs' buffers_defaults files), or
// buffermgrd's lossless PG profile (reference/sonic.md §2.12, §3).
func origin(tn, name string) string {
	switch {
	case tn == "BUFFER_PROFILE" && strings.HasPrefix(name, "pg_lossless_"):
		return "buffermgrd's lossless PG profile"
	case tn == "BUFFER_PROFILE" && (templateProfiles[name] || strings.HasSuffix(name, "_zero_profile")):
		return "SONiC's buffer template"
	case tn == "SCHEDULER" && strings.HasPrefix(name, "scheduler."):
		return "SONiC's QoS template"
	case tn != "BUFFER_PROFILE" && (name == "AZURE" || strings.HasPrefix(name, "AZURE_")):
		return "SONiC's QoS template"
	}
	return ""
}

// templateProfiles are the buffer profiles SONiC's buffer templates name
// (buffers_config.j2, Arista-7060CX-32S buffers_defaults_t0.j2, Mellanox
// ACS-MSN2700 buffers_defaults_objects.j2).
var templateProfiles = map[string]bool{
	"ingress_lossless_profile": true, "ingress_lossy_profile": true, "egress_lossless_profile": true,
	"egress_lossy_profile": true, "q_lossy_profile": true,
}

func notRendered(tn, name string) string {
	if o := origin(tn, name); o != "" {
		return "not rendered by lossless (" + o + ")"
	}
	return "not rendered by lossless"
}

// usedBy names the referrers of an object, at most three.
func usedBy(refs []string) string {
	slices.SortFunc(refs, sonicyang.NaturalCompare)
	refs = slices.Compact(refs)
	if len(refs) > 3 {
		return "used by " + strings.Join(refs[:3], ", ") + fmt.Sprintf(" and %d more", len(refs)-3)
	}
	return "used by " + strings.Join(refs, ", ")
}

// newScope decides what of running lossless owns for desired (the rules
// are the package documentation's) and what it keeps, and why. With prune
// (the intent's unmanaged = "prune") the rows and fields of the managed
// ports and the objects lossless does not render are its to remove too,
// except what something outside the scope references.
func newScope(desired, running config.DB, prune bool) *scope {
	s := &scope{desired: desired, running: running, prune: prune, ports: managedPorts(desired), order: map[string][]string{}, have: config.DB{}}
	// refOut holds, per object table and name, what outside the scope
	// references it; refDesired what the rendering references.
	refOut := map[string]map[string][]string{}
	refDesired := map[string]map[string]bool{}
	unmanaged := map[string][]string{} // port → its tables lossless leaves alone
	own := func(tn, k string, fields map[string]string) {
		t := s.have[tn]
		if t == nil {
			t = make(map[string]map[string]string, len(running[tn]))
			s.have[tn] = t
		}
		t[k] = fields
	}
	keep := func(object, reason string) { s.kept = append(s.kept, vendors.Kept{Object: object, Reason: reason}) }
	refFieldsOf := func(tn string) []refField {
		for _, tr := range refFields {
			if tr.table == tn {
				return tr.fields
			}
		}
		return nil
	}
	// addRef records the references of the fields of row tn|k that
	// outside says are outside the scope (nil: all of them).
	addRef := func(rfs []refField, tn, k string, entry map[string]string, outside func(f string) bool) {
		for _, rf := range rfs {
			v, ok := entry[rf.field]
			if !ok || outside != nil && !outside(rf.field) {
				continue
			}
			m := refOut[rf.target]
			if m == nil {
				m = map[string][]string{}
				refOut[rf.target] = m
			}
			label := tn + "|" + k
			if !strings.Contains(v, ",") {
				m[v] = append(m[v], label)
				continue
			}
			for _, name := range strings.Split(v, ",") {
				m[name] = append(m[name], label)
			}
		}
	}
	for _, tr := range refFields {
		for _, entry := range desired[tr.table] {
			for _, rf := range tr.fields {
				v, ok := entry[rf.field]
				if !ok {
					continue
				}
				set := refDesired[rf.target]
				if set == nil {
					set = map[string]bool{}
					refDesired[rf.target] = set
				}
				if !strings.Contains(v, ",") {
					set[v] = true
					continue
				}
				for _, name := range strings.Split(v, ",") {
					set[name] = true
				}
			}
		}
	}
	// Referrer rows: the rendered fields of rendered rows, and the rows of
	// managed ports that hold the PGs or queues a rendered row holds.
	for _, tn := range referrerTables {
		rfs := refFieldsOf(tn)
		for k, entry := range running[tn] {
			want := desired[tn][k]
			switch {
			case tn == "CABLE_LENGTH":
				var mine map[string]string
				for f, v := range entry {
					switch {
					case !s.ports[f]:
						unmanaged[f] = append(unmanaged[f], tn)
					case want != nil && hasField(want, f), prune:
						if mine == nil {
							mine = map[string]string{}
						}
						mine[f] = v
					default:
						keep(tn+"|"+k+" "+f, "not rendered by lossless")
					}
				}
				if mine != nil {
					own(tn, k, mine)
				}
				continue
			case tn == "PFC_WD" && k == globalWD:
				// Only the fields lossless renders: GCU never removes
				// GLOBAL or its POLL_INTERVAL (reference/sonic.md §7.2),
				// and BIG_RED_SWITCH is an operator's emergency switch.
				mine := pick(entry, func(f string) bool { return want != nil && hasField(want, f) })
				if mine != nil {
					own(tn, k, mine)
				}
				for _, f := range sortedKeys(entry) {
					switch {
					case mine != nil && hasField(mine, f):
					case f == "BIG_RED_SWITCH":
						keep(tn+"|"+k+" "+f, "the operator's PFC watchdog emergency switch, never changed")
					default:
						keep(tn+"|"+k+" "+f, "not rendered by lossless; GCU never removes PFC_WD GLOBAL or its POLL_INTERVAL (reference/sonic.md §7.2)")
					}
				}
				continue
			case tn == "PORT_QOS_MAP" && k == globalQoS && want == nil:
				keep(tn+"|"+k, "not rendered by lossless; the switch-wide binding is never removed")
				addRef(rfs, tn, k, entry, nil)
				continue
			case tn == "PORT_QOS_MAP" && k == globalQoS:
			case !s.ports[portOf(tn, k)]:
				p := portOf(tn, k)
				unmanaged[p] = append(unmanaged[p], tn)
				addRef(rfs, tn, k, entry, nil)
				continue
			}
			switch {
			case want != nil:
				mine := entry
				if !prune && !fieldsIn(entry, want) {
					mine = pick(entry, func(f string) bool { return hasField(want, f) || tn == "PORT_QOS_MAP" && otherClassifier(want, f) })
					for _, f := range sortedKeys(entry) {
						if !hasField(mine, f) {
							keep(tn+"|"+k+" "+f, "not rendered by lossless")
						}
					}
					addRef(rfs, tn, k, entry, func(f string) bool { return !hasField(mine, f) })
				}
				if mine != nil {
					own(tn, k, mine)
				}
			case prune || rangeTables[tn] && s.overlapping(tn, k) != "":
				own(tn, k, entry)
			default:
				keep(tn+"|"+k, "not rendered by lossless")
				addRef(rfs, tn, k, entry, nil)
			}
		}
	}
	for _, tn := range readOnlyTables {
		rfs := refFieldsOf(tn)
		for k, entry := range running[tn] {
			addRef(rfs, tn, k, entry, nil)
		}
	}
	// Objects: what lossless renders, and what carries its names or (with
	// prune) is in a table it manages, when nothing outside the scope and
	// nothing in the rendering uses it.
	for _, tn := range objectTables {
		for k, entry := range running[tn] {
			refs := refOut[tn][k]
			label := tn + "|" + k
			switch {
			case desired[tn][k] != nil:
				own(tn, k, entry)
				continue
			case len(refs) > 0:
				keep(label, usedBy(refs))
			case refDesired[tn][k]:
				reason := "used by lossless' rendering"
				if o := origin(tn, k); o != "" {
					reason += " (" + o + ")"
				}
				keep(label, reason)
			case prune || render.OwnName(desired, tn, k):
				own(tn, k, entry)
			default:
				keep(label, notRendered(tn, k))
			}
		}
	}
	for _, p := range sortedKeys(unmanaged) {
		ts := unmanaged[p]
		slices.Sort(ts)
		keep(p+" ("+strings.Join(slices.Compact(ts), ", ")+")", "a port lossless does not manage: outside the scope, never changed")
	}
	s.kept = vendors.SortKept(s.kept)
	return s
}

// otherClassifier reports whether f is the classifier binding of a port
// (dscp_to_tc_map, dot1p_to_tc_map) other than the one want binds: the
// rendering binds a port's DSCP map or, for a profile that trusts CoS,
// its 802.1p map (renderers/sonic), so the other is lossless' to remove
// when the intent's trust changes, not a field of someone else's.
func otherClassifier(want map[string]string, f string) bool {
	switch f {
	case "dscp_to_tc_map":
		return hasField(want, "dot1p_to_tc_map")
	case "dot1p_to_tc_map":
		return hasField(want, "dscp_to_tc_map")
	}
	return false
}

// fieldsIn reports whether every field of entry is a field of want.
func fieldsIn(entry, want map[string]string) bool {
	if len(entry) > len(want) {
		return false
	}
	for f := range entry {
		if _, ok := want[f]; !ok {
			return false
		}
	}
	return true
}

func hasField(m map[string]string, f string) bool {
	_, ok := m[f]
	return ok
}

// fields returns the fields of running key tn|k that are in scope; nil
// when none are.
func (s *scope) fields(tn, k string) map[string]string { return s.have[tn][k] }

func pick(entry map[string]string, keep func(string) bool) map[string]string {
	var out map[string]string
	for f, v := range entry {
		if keep(f) {
			if out == nil {
				out = map[string]string{}
			}
			out[f] = v
		}
	}
	return out
}

// scoped returns the part of the running config in scope.
func (s *scope) scoped() config.DB { return s.have }
