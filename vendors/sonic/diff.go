package sonic

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/sonicyang"
	"github.com/lossless-net/lossless/vendors"
)

// Scope is the part of a SONiC CONFIG_DB lossless reads and may change;
// the plan prints it. The rules are the package documentation's.
const Scope = "show runningconfiguration all, QoS tables only. lossless changes what it renders: the maps, SCHEDULER, WRED_PROFILE " +
	"and lossless PG BUFFER_PROFILE entries it names, the fields it renders of the managed ports' PORT_QOS_MAP, QUEUE, BUFFER_PG, " +
	"BUFFER_QUEUE and PFC_WD rows and CABLE_LENGTH (with the PG and queue ranges that hold a rendered index), of PORT_QOS_MAP global " +
	"and of PFC_WD GLOBAL; it removes objects with its own names that nothing else uses. The rest of those tables is kept and listed " +
	"(removed with unmanaged = \"prune\" unless something outside the scope uses it). Other ports' rows, PORT, BUFFER_POOL and other " +
	"tables are never touched."

// Tables lossless changes. Object tables hold named objects that the
// referrer tables point at; both lists are in creation order (an object
// before what uses it; a cable length before the PGs buffermgrd sizes from
// it, a PG before the pfc_enable that makes buffermgrd look for it).
var (
	objectTables = []string{
		"DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_DSCP_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP",
		"MAP_PFC_PRIORITY_TO_QUEUE", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "SCHEDULER", "WRED_PROFILE", "BUFFER_PROFILE",
	}
	referrerTables = []string{"CABLE_LENGTH", "BUFFER_PG", "BUFFER_QUEUE", "PORT_QOS_MAP", "QUEUE", "PFC_WD"}
	// readOnlyTables are read only for the references they hold: a
	// profile they list is not lossless' to remove.
	readOnlyTables = []string{"BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST"}
	// refusedTables are never patched: apply-patch refuses any
	// BUFFER_POOL change, and PORT is the platform's (reference/sonic.md
	// §4, §7.2, §7.5).
	refusedTables = []string{"BUFFER_POOL", "PORT"}
)

// refs maps a referrer table's field to the object table it names
// (sonic-yang leafrefs, reference/sonic.md §2.6, §2.9, §2.13–2.15).
var refs = map[string]map[string]string{
	"PORT_QOS_MAP": {
		"dscp_to_tc_map": "DSCP_TO_TC_MAP", "dot1p_to_tc_map": "DOT1P_TO_TC_MAP", "tc_to_dscp_map": "TC_TO_DSCP_MAP",
		"tc_to_queue_map": "TC_TO_QUEUE_MAP", "tc_to_pg_map": "TC_TO_PRIORITY_GROUP_MAP",
		"pfc_to_queue_map": "MAP_PFC_PRIORITY_TO_QUEUE", "pfc_to_pg_map": "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP",
		"scheduler": "SCHEDULER",
	},
	"QUEUE":                            {"scheduler": "SCHEDULER", "wred_profile": "WRED_PROFILE"},
	"BUFFER_PG":                        {"profile": "BUFFER_PROFILE"},
	"BUFFER_QUEUE":                     {"profile": "BUFFER_PROFILE"},
	"BUFFER_PORT_INGRESS_PROFILE_LIST": {"profile_list": "BUFFER_PROFILE"},
	"BUFFER_PORT_EGRESS_PROFILE_LIST":  {"profile_list": "BUFFER_PROFILE"},
}

// refField is one reference field of a referrer table and the object
// table it names.
type refField struct{ field, target string }

// refFields is refs as slices, sorted by table and field: ranging over a
// slice costs far less than over a map, once per entry of a large config.
var refFields = func() []struct {
	table  string
	fields []refField
} {
	var out []struct {
		table  string
		fields []refField
	}
	for _, tn := range sortedKeys(refs) {
		var fs []refField
		for _, f := range sortedKeys(refs[tn]) {
			fs = append(fs, refField{f, refs[tn][f]})
		}
		out = append(out, struct {
			table  string
			fields []refField
		}{tn, fs})
	}
	return out
}()

// Keys that are not ports in tables keyed by port.
const (
	globalQoS = "global" // PORT_QOS_MAP|global (reference/sonic.md §2.6)
	globalWD  = "GLOBAL" // PFC_WD|GLOBAL (§2.16)
)

// bufferProfileInPlace are the BUFFER_PROFILE fields GCU's validators let
// a patch replace in an existing profile (reference/sonic.md §7.2); any
// other change to an existing profile is refused.
var bufferProfileInPlace = map[string]bool{"dynamic_th": true, "xoff": true}

var readTables = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range [][]string{objectTables, referrerTables, readOnlyTables} {
		for _, t := range l {
			m[t] = true
		}
	}
	return m
}()

// bareRefs turns "[T|a]" into "a", and a comma list of them into "a,b".
func bareRefs(v string) string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		if strings.HasPrefix(p, "[") && strings.HasSuffix(p, "]") {
			if _, name, ok := strings.Cut(p[1:len(p)-1], "|"); ok {
				parts[i] = name
			}
		}
	}
	return strings.Join(parts, ",")
}

// portOf returns the port a key of a port-keyed table belongs to.
func portOf(table, key string) string {
	switch table {
	case "QUEUE", "BUFFER_PG", "BUFFER_QUEUE":
		p, _, _ := strings.Cut(key, "|")
		return p
	}
	return key
}

// scope is the part of a running config lossless owns for one desired
// rendering (see ownership.go).
type scope struct {
	desired, running config.DB
	prune            bool
	ports            map[string]bool
	// order memoises keys.
	order map[string][]string
	// runOrder, when not nil, has the keys of each running table in the
	// order the device printed them (parseRunning). When that is natural
	// order (config_db.json as `config save` writes it, reference/sonic.md
	// §7.4, and the lab's output), keys merges them with the desired keys
	// instead of sorting both; otherwise it sorts.
	runOrder map[string][]string
	// have is the running config in scope: the rows and fields lossless
	// owns.
	have config.DB
	// kept lists what stays in the tables lossless manages, and why.
	kept []vendors.Kept
	// ranges indexes the desired range-table keys per table and port
	// (overlapping).
	ranges map[string]map[string][]string
}

// keys returns the keys of table tn on either side, in natural order.
func (s *scope) keys(tn string) []string {
	k, ok := s.order[tn]
	if !ok {
		k = s.merged(tn)
		if k == nil {
			k = union(s.running[tn], s.desired[tn])
		}
		s.order[tn] = k
	}
	return k
}

// merged is union(running, desired) of table tn when the running keys
// are known in strictly increasing natural order: the desired keys the
// running table lacks are sorted and merged in. It is nil otherwise.
func (s *scope) merged(tn string) []string {
	run, ok := s.runOrder[tn]
	if !ok || len(run) != len(s.running[tn]) {
		return nil
	}
	for i := 1; i < len(run); i++ {
		if sonicyang.NaturalCompare(run[i-1], run[i]) >= 0 {
			return nil
		}
	}
	var extra []string
	for k := range s.desired[tn] {
		if _, ok := s.running[tn][k]; !ok {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return run
	}
	slices.SortFunc(extra, sonicyang.NaturalCompare)
	out := make([]string, 0, len(run)+len(extra))
	i, j := 0, 0
	for i < len(run) && j < len(extra) {
		if sonicyang.NaturalCompare(run[i], extra[j]) < 0 {
			out = append(out, run[i])
			i++
		} else {
			out = append(out, extra[j])
			j++
		}
	}
	out = append(out, run[i:]...)
	return append(out, extra[j:]...)
}

func owned() []string { return append(slices.Clip(objectTables), referrerTables...) }

// op is one RFC 6902 operation with what orders it.
type op struct {
	Op, Path string
	// Value is a field's string or a whole entry's fields; nil for a
	// removal.
	Value any

	table, key, field string
	// shrink is true for a scheduler weight that goes down: sent before
	// the weights that go up.
	shrink bool
	// rekey, on the removal of a PG or queue range key, is the rendered
	// key of the same port that takes over its indices: the removal is
	// sent just before that key's addition, which is the order GCU
	// applies them in (BulkKeyLevelMoveGenerator offers removals first),
	// while GCU holds the port admin down (portDownNote).
	rekey string
	// phase and rank are order()'s result, set by ops.
	phase, rank int
}

// order places an op in the patch: creates and in-place replacements of
// objects, then of referrers (so a reference always finds its object),
// then removals of referrers, then of objects (so nothing points at a
// removed object), each phase in table order (reversed for removals).
func (o *op) order() (phase, table int) {
	obj := slices.Index(objectTables, o.table)
	ref := slices.Index(referrerTables, o.table)
	switch {
	case o.rekey != "":
		return 1, ref
	case o.Op != "remove" && obj >= 0:
		return 0, obj
	case o.Op != "remove":
		return 1, ref
	case ref >= 0:
		return 2, len(referrerTables) - ref
	}
	return 3, len(objectTables) - obj
}

func compareOps(a, b *op) int {
	pa, ta := a.phase, a.rank
	pb, tb := b.phase, b.rank
	switch {
	case pa != pb:
		return pa - pb
	case ta != tb:
		return ta - tb
	case a.shrink != b.shrink:
		if a.shrink {
			return -1
		}
		return 1
	}
	ka, kb := a.key, b.key
	if a.rekey != "" {
		ka = a.rekey
	}
	if b.rekey != "" {
		kb = b.rekey
	}
	if c := sonicyang.NaturalCompare(ka, kb); c != 0 {
		return c
	}
	if (a.rekey != "") != (b.rekey != "") {
		// The range that gives up its indices goes first.
		if a.rekey != "" {
			return -1
		}
		return 1
	}
	if c := sonicyang.NaturalCompare(a.key, b.key); c != 0 {
		return c
	}
	// A whole-key op sorts before a field op of the same key.
	return sonicyang.NaturalCompare(a.field, b.field)
}

// pointer escapes JSON Pointer tokens (RFC 6901) and joins them.
func pointer(toks ...string) string {
	var b strings.Builder
	n := 0
	for _, t := range toks {
		n += 1 + len(t)
	}
	b.Grow(n) // exact unless a token needs escaping
	for _, t := range toks {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
		}
		b.WriteString(t)
	}
	return b.String()
}

// Diff returns the change from running (a Running result, or `show
// runningconfiguration all`) to desired: a JSON Patch restricted to the
// scope, in SONiC table order, and the unified diff of the scoped tables.
// Changes apply-patch refuses (BUFFER_POOL, PORT, fields of an existing
// BUFFER_PROFILE other than dynamic_th and xoff) are left out of the patch
// and listed in Disruptive.
func Diff(device string, running []byte, desired *config.Document) (*vendors.Change, error) {
	if desired == nil || desired.Format != config.ConfigDB {
		return nil, fmt.Errorf("diff %s: the desired config is not a SONiC CONFIG_DB rendering", device)
	}
	have, order, err := parseRunning(running, desired.DB)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", device, err)
	}
	ch := &vendors.Change{Device: device, Vendor: Vendor, Scope: Scope, Desired: desired}
	want := config.DB{}
	for tn, keys := range desired.DB {
		switch {
		case slices.Contains(refusedTables, tn):
			ch.Disruptive = append(ch.Disruptive, fmt.Sprintf("%s: not pushed; config apply-patch refuses %s changes and lossless leaves the table to the platform (reference/sonic.md §7.2, §7.5)", tn, tn))
		case readTables[tn] && !slices.Contains(readOnlyTables, tn):
			want[tn] = keys
		default:
			return nil, fmt.Errorf("diff %s: the rendering has table %s, which the SONiC driver does not manage", device, tn)
		}
	}
	slices.Sort(ch.Disruptive)
	sc := newScope(want, have, desired.Prune)
	sc.runOrder = order
	ch.Kept = sc.kept
	ops, skipped := sc.ops()
	ch.Disruptive = append(ch.Disruptive, skipped...)
	if len(ops) > 0 {
		ch.Patch = patchJSON(ops)
		if note := bufferNote(ops); note != "" {
			ch.Disruptive = append(ch.Disruptive, note)
		}
		if note := portDownNote(ops); note != "" {
			ch.Disruptive = append(ch.Disruptive, note)
		}
		for _, o := range ops {
			if o.Op == "add" && o.table == "PFC_WD" && o.key == globalWD && o.field == "" {
				ch.Disruptive = append(ch.Disruptive, "PFC_WD|GLOBAL is created: GCU never removes it (reference/sonic.md §7.2), so if this apply fails, its rollback cannot remove it and stops short of the checkpoint")
			}
		}
	}
	ch.Diff = unified(device+" running (scope)", device+" desired", sc.scoped(), want, sc.keys)
	return ch, nil
}

// ops computes the remediation, sorted, and the refused changes left out.
func (s *scope) ops() ([]*op, []string) {
	var ops []*op
	var skipped []string
	scoped := s.scoped()
	for _, tn := range owned() {
		haveT, wantT, fullT := scoped[tn], s.desired[tn], s.running[tn]
		keys := keysOf(fullT, wantT) // any order: the ops are sorted below
		var removedKeys int
		var tableOps []*op
		for _, k := range keys {
			have, want, full := haveT[k], wantT[k], fullT[k]
			switch {
			case want == nil && have == nil:
			case want == nil && len(have) == len(full):
				o := &op{Op: "remove", Path: pointer(tn, k), table: tn, key: k}
				if rangeTables[tn] {
					o.rekey = s.overlapping(tn, k)
				}
				tableOps = append(tableOps, o)
				removedKeys++
			case want == nil:
				for f := range have {
					tableOps = append(tableOps, &op{Op: "remove", Path: pointer(tn, k, f), table: tn, key: k, field: f})
				}
			case full == nil:
				tableOps = append(tableOps, &op{Op: "add", Path: pointer(tn, k), Value: want, table: tn, key: k})
			case maps.Equal(have, want):
			default:
				for f := range have {
					tableOps, skipped = fieldOp(tableOps, skipped, tn, k, f, have, want)
				}
				for f := range want {
					if _, ok := have[f]; !ok {
						tableOps, skipped = fieldOp(tableOps, skipped, tn, k, f, have, want)
					}
				}
			}
		}
		// GCU refuses a config with an empty table (§7.2): a table that
		// loses all its keys is removed whole.
		if removedKeys > 0 && removedKeys == len(s.running[tn]) && len(s.desired[tn]) == 0 {
			tableOps = []*op{{Op: "remove", Path: pointer(tn), table: tn}}
		}
		ops = append(ops, tableOps...)
	}
	for _, o := range ops {
		o.phase, o.rank = o.order()
	}
	// compareOps is a total order (no two ops share table, key and
	// field), so the map order above does not show.
	slices.SortFunc(ops, compareOps)
	slices.Sort(skipped)
	return ops, skipped
}

// fieldOp appends the op that makes field f of tn|k what want says, or
// the reason it is left out (a change apply-patch refuses).
func fieldOp(ops []*op, skipped []string, tn, k, f string, have, want map[string]string) ([]*op, []string) {
	hv, hok := have[f]
	wv, wok := want[f]
	var o *op
	switch {
	case wok && !hok:
		o = &op{Op: "add", Path: pointer(tn, k, f), Value: wv}
	case wok && hv != wv:
		o = &op{Op: "replace", Path: pointer(tn, k, f), Value: wv}
		if tn == "SCHEDULER" && f == "weight" {
			o.shrink = atoi(wv) < atoi(hv)
		}
	case !wok && hok:
		o = &op{Op: "remove", Path: pointer(tn, k, f)}
	default:
		return ops, skipped
	}
	o.table, o.key, o.field = tn, k, f
	if tn == "BUFFER_PROFILE" && !(o.Op == "replace" && bufferProfileInPlace[f]) {
		return ops, append(skipped, fmt.Sprintf("BUFFER_PROFILE|%s %s: %s; config apply-patch refuses this change to an existing profile "+
			"(only dynamic_th and xoff may be replaced, reference/sonic.md §7.2), so it is not in the patch: it needs a config reload", k, f, change(hv, hok, wv, wok)))
	}
	return append(ops, o), skipped
}

func change(hv string, hok bool, wv string, wok bool) string {
	switch {
	case !hok:
		return fmt.Sprintf("add %q", wv)
	case !wok:
		return fmt.Sprintf("remove %q", hv)
	}
	return fmt.Sprintf("running %q, desired %q", hv, wv)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// bufferNote says why a patch that touches buffers or PFC may disturb
// traffic: buffermgrd and orchagent reprogram the port's PGs and queues
// while it applies (reference/sonic.md §1, §2.13) [I].
func bufferNote(ops []*op) string {
	var touched []string
	for _, o := range ops {
		t := o.table
		if o.table == "PORT_QOS_MAP" && o.field == "pfc_enable" {
			t = "PORT_QOS_MAP pfc_enable"
		}
		if (strings.HasPrefix(t, "BUFFER_") || t == "CABLE_LENGTH" || t == "PORT_QOS_MAP pfc_enable") && !slices.Contains(touched, t) {
			touched = append(touched, t)
		}
	}
	if len(touched) == 0 {
		return ""
	}
	return strings.Join(touched, ", ") + ": buffermgrd and orchagent reprogram the ports' priority groups and buffers as these change, which may drop or pause traffic on those ports while they do"
}

// portDownNote says which ports GCU takes admin down while it applies the
// patch: it changes a port's BUFFER_PG, BUFFER_QUEUE, QUEUE and
// PORT_QOS_MAP rows only with the port admin down, turning it down before
// and up after, one port after the other (sonic-utilities 691b1bbc
// generic_config_updater/patch_sorter.py RequiredValueIdentifier,
// RequiredValueMoveExtender; PR #1998). A port already admin down stays
// down.
func portDownNote(ops []*op) string {
	var ports []string
	for _, o := range ops {
		if !portCritical[o.table] || o.table == "PORT_QOS_MAP" && o.key == globalQoS {
			continue
		}
		if p := portOf(o.table, o.key); !slices.Contains(ports, p) {
			ports = append(ports, p)
		}
	}
	if len(ports) == 0 {
		return ""
	}
	slices.SortFunc(ports, sonicyang.NaturalCompare)
	return "ports " + strings.Join(ports, ", ") + ": config apply-patch turns each admin down while it changes the port's BUFFER_PG, BUFFER_QUEUE, QUEUE or PORT_QOS_MAP rows and up again after, one port at a time (GCU's RequiredValueIdentifier, sonic-utilities PR #1998), so their links go down during the apply"
}

// patchJSON prints ops as a JSON Patch, one operation per line (each line
// stays far below bash's 4095-byte line limit when uploaded). Values are
// CONFIG_DB strings, or an entry's fields in sorted order.
func patchJSON(ops []*op) json.RawMessage {
	var b strings.Builder
	b.Grow(80 * (len(ops) + 1)) // an op is one line of 60 to 150 bytes
	b.WriteString("[\n")
	for i, o := range ops {
		b.WriteString(`  {"op": "`)
		b.WriteString(o.Op)
		b.WriteString(`", "path": `)
		quote(&b, o.Path)
		switch v := o.Value.(type) {
		case string:
			b.WriteString(`, "value": `)
			quote(&b, v)
		case map[string]string:
			b.WriteString(`, "value": {`)
			for j, f := range sortedKeys(v) {
				if j > 0 {
					b.WriteString(", ")
				}
				quote(&b, f)
				b.WriteString(": ")
				quote(&b, v[f])
			}
			b.WriteString("}")
		}
		b.WriteString("}")
		if i < len(ops)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return json.RawMessage(b.String())
}

// quote writes s as a JSON string.
func quote(b *strings.Builder, s string) {
	if plain(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	b.WriteString(jsonString(s))
}

// union returns the keys of a and b in natural order.
func union[V any](a, b map[string]V) []string {
	u := keysOf(a, b)
	slices.SortFunc(u, sonicyang.NaturalCompare)
	return u
}

// keysOf returns the keys of a and b, each once, in no order.
func keysOf[V any](a, b map[string]V) []string {
	u := make([]string, 0, len(a)+len(b))
	for k := range a {
		u = append(u, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			u = append(u, k)
		}
	}
	return u
}

func sortedKeys[V any](m map[string]V) []string { return union(m, map[string]V(nil)) }
