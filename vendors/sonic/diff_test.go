package sonic

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/textdiff"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors"
)

// testOp is one decoded operation of a Change's patch.
type testOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

func decodePatch(t *testing.T, p json.RawMessage) []testOp {
	t.Helper()
	if len(p) == 0 {
		return nil
	}
	var ops []testOp
	if err := json.Unmarshal(p, &ops); err != nil {
		t.Fatalf("patch is not a JSON Patch: %v\n%s", err, p)
	}
	return ops
}

// tokens splits a JSON Pointer (RFC 6901).
func tokens(p string) []string {
	toks := strings.Split(p[1:], "/")
	for i, s := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return toks
}

// step applies one operation to db in place, as GCU's applier applies
// one change, failing the test on an operation RFC 6902 does not allow.
func step(t *testing.T, db config.DB, o testOp) {
	t.Helper()
	toks := tokens(o.Path)
	switch {
	case o.Op == "remove" && len(toks) == 1:
		if db[toks[0]] == nil {
			t.Fatalf("%s: no such table", o.Path)
		}
		delete(db, toks[0])
	case o.Op == "remove" && len(toks) == 2:
		if db[toks[0]][toks[1]] == nil {
			t.Fatalf("%s: no such key", o.Path)
		}
		delete(db[toks[0]], toks[1])
	case o.Op == "remove" && len(toks) == 3:
		if _, ok := db[toks[0]][toks[1]][toks[2]]; !ok {
			t.Fatalf("%s: no such field", o.Path)
		}
		delete(db[toks[0]][toks[1]], toks[2])
	case len(toks) == 2 && o.Op == "add":
		var f map[string]string
		if err := json.Unmarshal(o.Value, &f); err != nil {
			t.Fatalf("%s: %v", o.Path, err)
		}
		if db[toks[0]] == nil {
			db[toks[0]] = map[string]map[string]string{} // GCU adds missing tables (§7.2)
		}
		db[toks[0]][toks[1]] = f
	case len(toks) == 3 && (o.Op == "add" || o.Op == "replace"):
		var v string
		if err := json.Unmarshal(o.Value, &v); err != nil {
			t.Fatalf("%s: value is not a CONFIG_DB string: %v", o.Path, err)
		}
		if db[toks[0]][toks[1]] == nil {
			t.Fatalf("%s: no such key", o.Path)
		}
		if _, ok := db[toks[0]][toks[1]][toks[2]]; ok != (o.Op == "replace") {
			t.Fatalf("%s: %s of a field that does %sexist", o.Path, o.Op, map[bool]string{true: "", false: "not "}[ok])
		}
		db[toks[0]][toks[1]][toks[2]] = v
	default:
		t.Fatalf("unexpected operation %+v", o)
	}
}

// dangling returns the references in db whose object is missing, and the
// empty tables: what must never exist between two steps of a patch.
func dangling(db config.DB) []string {
	var bad []string
	for tn, fields := range refs {
		for k, entry := range db[tn] {
			for f, target := range fields {
				v, ok := entry[f]
				if !ok {
					continue
				}
				for _, name := range strings.Split(v, ",") {
					if db[target][name] == nil {
						bad = append(bad, tn+"|"+k+" "+f+" → "+target+"|"+name)
					}
				}
			}
		}
	}
	for tn, keys := range db {
		if len(keys) == 0 {
			bad = append(bad, "empty table "+tn)
		}
	}
	slices.Sort(bad)
	return bad
}

// base is a whole CONFIG_DB: the platform rows of a 32-port switch, want's
// tables, then edit applied.
func base(t *testing.T, want config.DB, edit func(db config.DB)) []byte {
	t.Helper()
	db := cloneDB(want)
	platform(func(tn, k, f, v string) {
		if db[tn] == nil {
			db[tn] = map[string]map[string]string{}
		}
		if db[tn][k] == nil {
			db[tn][k] = map[string]string{}
		}
		db[tn][k][f] = v
	}, nil, false)
	if edit != nil {
		edit(db)
	}
	b := render.Text(db)
	// show runningconfiguration all adds bgpraw (reference/sonic.md §7.4).
	return append(b[:len(b)-2], []byte(",\n    \"bgpraw\": \"\"\n}\n")...)
}

// walk applies a change's patch to running step by step, checking after
// every step that no reference dangles and no table is empty, and returns
// the result.
func walk(t *testing.T, running []byte, ops []testOp) config.DB {
	t.Helper()
	var all map[string]json.RawMessage
	if err := json.Unmarshal(running, &all); err != nil {
		t.Fatal(err)
	}
	delete(all, "bgpraw")
	db := config.DB{}
	for tn, raw := range all {
		var keys map[string]map[string]string
		if err := json.Unmarshal(raw, &keys); err != nil {
			t.Fatal(err)
		}
		db[tn] = keys
	}
	if bad := dangling(db); len(bad) > 0 {
		t.Fatalf("running config already dangles: %v", bad)
	}
	for i, o := range ops {
		step(t, db, o)
		if bad := dangling(db); len(bad) > 0 {
			t.Errorf("after step %d (%s %s): %v", i, o.Op, o.Path, bad)
		}
	}
	return db
}

func diff(t *testing.T, running []byte, want config.DB) (*config.Document, []testOp, []string, string) {
	t.Helper()
	doc := &config.Document{Device: "leaf1", Format: config.ConfigDB, DB: want, Text: render.Text(want)}
	ch, err := Diff("leaf1", running, doc)
	if err != nil {
		t.Fatal(err)
	}
	return doc, decodePatch(t, ch.Patch), ch.Disruptive, ch.Diff
}

// diffChange is Diff of running against want, with the intent's unmanaged =
// "prune" when prune.
func diffChange(t *testing.T, running []byte, want config.DB, prune bool) *vendors.Change {
	t.Helper()
	doc := &config.Document{Device: "leaf1", Format: config.ConfigDB, DB: want, Text: render.Text(want), Prune: prune}
	ch, err := Diff("leaf1", running, doc)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// kept prints a change's Kept list, one "object: reason" per line.
func kept(ch *vendors.Change) []string {
	var out []string
	for _, k := range ch.Kept {
		out = append(out, k.Object+": "+k.Reason)
	}
	return out
}

// missing returns the lines of want missing from got.
func missing(got, want []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(got, w) {
			out = append(out, w)
		}
	}
	return out
}

func paths(ops []testOp) []string {
	var p []string
	for _, o := range ops {
		p = append(p, o.Op+" "+o.Path)
	}
	return p
}

// TestIdenticalIsEmpty: a device already at the rendering, with platform
// rows and references in the old [TABLE|name] form, gives no patch and no
// diff: no push, no churn.
func TestIdenticalIsEmpty(t *testing.T) {
	want := canonical(t).DB
	for name, edit := range map[string]func(config.DB){
		"same": nil,
		"old reference form": func(db config.DB) {
			db["QUEUE"]["Ethernet0|3"]["wred_profile"] = "[WRED_PROFILE|ROCE_LOSSLESS]"
			db["QUEUE"]["Ethernet0|3"]["scheduler"] = "[SCHEDULER|ROCE_LOSSLESS]"
			db["PORT_QOS_MAP"]["Ethernet4"]["dscp_to_tc_map"] = "[DSCP_TO_TC_MAP|ROCE]"
			db["BUFFER_PG"]["Ethernet4|3"]["profile"] = "[BUFFER_PROFILE|pg_lossless_100000_5m_profile]"
		},
		"other ports and tables": func(db config.DB) {
			db["QUEUE"]["Ethernet8|0"] = map[string]string{"scheduler": "scheduler.0"}
			db["SCHEDULER"]["scheduler.0"] = map[string]string{"type": "DWRR", "weight": "14"}
			db["CABLE_LENGTH"]["AZURE"]["Ethernet8"] = "40m"
			db["NTP_SERVER"] = map[string]map[string]string{"10.0.0.1": {}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, ops, dis, d := diff(t, base(t, want, edit), want)
			if len(ops) != 0 || d != "" || len(dis) != 0 {
				t.Errorf("want no change, got patch %v, disruptive %v, diff:\n%s", paths(ops), dis, d)
			}
		})
	}
}

// TestReplaceInOneStep: a changed value is replaced where it is, never
// removed and re-added: the RoCE queue keeps its WRED profile and the
// DSCP map keeps classifying while the patch runs.
func TestReplaceInOneStep(t *testing.T) {
	want := canonical(t).DB
	running := base(t, want, func(db config.DB) {
		db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"] = "1048576"
		db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_max_threshold"] = "2097152"
		db["DSCP_TO_TC_MAP"]["ROCE"]["26"] = "0"
		db["DSCP_TO_TC_MAP"]["ROCE"]["10"] = "3"
		db["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] = "3,4"
	})
	_, ops, _, _ := diff(t, running, want)
	wantOps := []string{
		"replace /DSCP_TO_TC_MAP/ROCE/10",
		"replace /DSCP_TO_TC_MAP/ROCE/26",
		"replace /WRED_PROFILE/ROCE_LOSSLESS/green_max_threshold",
		"replace /WRED_PROFILE/ROCE_LOSSLESS/green_min_threshold",
		"replace /PORT_QOS_MAP/Ethernet0/pfc_enable",
	}
	if d := cmp.Diff(wantOps, paths(ops)); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	got := walk(t, running, ops)
	if d := cmp.Diff(want, newScope(want, got, false).scoped()); d != "" {
		t.Errorf("patched config (-want +got):\n%s", d)
	}
}

// TestReferrersBeforeObjects: a scheduler and a WRED profile an earlier
// rendering named (lossless' names, renderers/sonic OwnName) and objects
// of other names: the new objects are created before any queue points at
// them, and the queues leave the old ones before they are removed, so no
// reference dangles and no table empties at any step. What lossless does
// not render stays and is listed, with what still uses it.
func TestReferrersBeforeObjects(t *testing.T) {
	want := canonical(t).DB
	running := base(t, want, func(db config.DB) {
		for _, p := range []string{"Ethernet0", "Ethernet4"} {
			db["QUEUE"][p+"|3"] = map[string]string{"scheduler": "ROCE_LOSSLESS_3", "wred_profile": "ROCE_LOSSLESS_100G"}
			db["QUEUE"][p+"|1"] = map[string]string{"scheduler": "scheduler.0"}
			db["PORT_QOS_MAP"][p]["pfc_to_pg_map"] = "OLD"
		}
		db["QUEUE"]["Ethernet8|1"] = map[string]string{"scheduler": "scheduler.0"}
		db["SCHEDULER"]["ROCE_LOSSLESS_3"] = map[string]string{"type": "DWRR", "weight": "15"}
		db["SCHEDULER"]["scheduler.0"] = map[string]string{"type": "DWRR", "weight": "14"}
		db["WRED_PROFILE"] = map[string]map[string]string{"ROCE_LOSSLESS_100G": {"ecn": "ecn_all", "wred_green_enable": "true", "green_min_threshold": "1", "green_max_threshold": "2"}}
		db["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"] = map[string]map[string]string{"OLD": {"3": "3"}}
		delete(db["SCHEDULER"], "ROCE_LOSSLESS")
	})
	ch := diffChange(t, running, want, false)
	ops := decodePatch(t, ch.Patch)
	wantOps := []string{
		"add /SCHEDULER/ROCE_LOSSLESS",
		"add /WRED_PROFILE/ROCE_LOSSLESS",
		"replace /QUEUE/Ethernet0|3/scheduler",
		"replace /QUEUE/Ethernet0|3/wred_profile",
		"replace /QUEUE/Ethernet4|3/scheduler",
		"replace /QUEUE/Ethernet4|3/wred_profile",
		"remove /WRED_PROFILE/ROCE_LOSSLESS_100G",
		"remove /SCHEDULER/ROCE_LOSSLESS_3",
	}
	if d := cmp.Diff(wantOps, paths(ops)); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	got := walk(t, running, ops)
	if got["SCHEDULER"]["scheduler.0"] == nil || got["QUEUE"]["Ethernet8|1"] == nil || got["QUEUE"]["Ethernet0|1"] == nil {
		t.Error("removed an object or queue lossless does not render")
	}
	if m := missing(kept(ch), []string{
		"Ethernet8 (QUEUE): a port lossless does not manage: outside the scope, never changed",
		"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP|OLD: used by PORT_QOS_MAP|Ethernet0, PORT_QOS_MAP|Ethernet4",
		"PORT_QOS_MAP|Ethernet0 pfc_to_pg_map: not rendered by lossless",
		"QUEUE|Ethernet0|1: not rendered by lossless",
		"QUEUE|Ethernet4|1: not rendered by lossless",
		"SCHEDULER|scheduler.0: used by QUEUE|Ethernet0|1, QUEUE|Ethernet4|1, QUEUE|Ethernet8|1",
		"BUFFER_PROFILE|egress_lossy_profile: used by lossless' rendering (SONiC's buffer template)",
	}); len(m) > 0 {
		t.Errorf("Kept lacks %q; it is:\n%s", m, strings.Join(kept(ch), "\n"))
	}
}

// TestWeightsNeverPass100: scheduler weights are bandwidth shares in
// percent; the shares that shrink are replaced before the ones that grow,
// so their sum never passes 100 while the patch runs.
func TestWeightsNeverPass100(t *testing.T) {
	want := canonical(t).DB
	want = cloneDB(want)
	want["SCHEDULER"]["ROCE_LOSSY"]["weight"] = "70"
	want["SCHEDULER"]["ROCE_LOSSLESS"]["weight"] = "30"
	running := base(t, want, func(db config.DB) {
		db["SCHEDULER"]["ROCE_LOSSY"]["weight"] = "40"
		db["SCHEDULER"]["ROCE_LOSSLESS"]["weight"] = "60"
	})
	_, ops, _, _ := diff(t, running, want)
	if d := cmp.Diff([]string{"replace /SCHEDULER/ROCE_LOSSLESS/weight", "replace /SCHEDULER/ROCE_LOSSY/weight"}, paths(ops)); d != "" {
		t.Fatalf("patch (-want +got):\n%s", d)
	}
	db := walk(t, running, nil)
	for _, o := range ops {
		step(t, db, o)
		sum := 0
		for _, s := range db["SCHEDULER"] {
			n, _ := strconv.Atoi(s["weight"])
			sum += n
		}
		if sum > 100 {
			t.Errorf("after %s the weights sum to %d", o.Path, sum)
		}
	}
}

// TestNeverTouched: PORT and BUFFER_POOL are never patched (apply-patch
// refuses BUFFER_POOL; PORT is the platform's), PFC_WD GLOBAL and its
// other fields are never removed, a port the intent does not list keeps
// its config, and a refused change to an existing buffer profile is left
// out and reported.
func TestNeverTouched(t *testing.T) {
	canon := canonical(t).DB
	want := cloneDB(canon)
	want["PORT"] = map[string]map[string]string{"Ethernet0": {"mtu": "9216"}}
	want["BUFFER_POOL"] = map[string]map[string]string{"ingress_lossless_pool": {"size": "1"}}
	want["BUFFER_PROFILE"]["pg_lossless_100000_5m_profile"]["size"] = "2000"
	want["BUFFER_PROFILE"]["pg_lossless_100000_5m_profile"]["dynamic_th"] = "1"
	running := base(t, canon, func(db config.DB) {
		db["PFC_WD"]["GLOBAL"]["BIG_RED_SWITCH"] = "enable"
		db["PORT_QOS_MAP"]["Ethernet8"] = map[string]string{"dscp_to_tc_map": "ROCE", "pfc_enable": "3"}
		db["QUEUE"]["Ethernet8|3"] = map[string]string{"scheduler": "ROCE_LOSSLESS"}
	})
	_, ops, dis, _ := diff(t, running, want)
	if d := cmp.Diff([]string{"replace /BUFFER_PROFILE/pg_lossless_100000_5m_profile/dynamic_th"}, paths(ops)); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	for _, w := range []string{"BUFFER_POOL: not pushed", "PORT: not pushed", "BUFFER_PROFILE|pg_lossless_100000_5m_profile size"} {
		if !slices.ContainsFunc(dis, func(s string) bool { return strings.HasPrefix(s, w) }) {
			t.Errorf("disruptive does not report %q: %q", w, dis)
		}
	}

	// Without a watchdog in the intent, PFC_WD GLOBAL is left alone.
	noWD := cloneDB(canon)
	delete(noWD["PFC_WD"], "GLOBAL")
	_, ops, _, _ = diff(t, running, noWD)
	for _, o := range ops {
		if strings.HasPrefix(o.Path, "/PFC_WD/GLOBAL") || strings.HasPrefix(o.Path, "/PORT/") || strings.Contains(o.Path, "Ethernet8") {
			t.Errorf("patch touches %s", o.Path)
		}
	}
}

// TestEmptiedTableRemovedWhole: GCU refuses a config with an empty table,
// so a table whose every key goes is removed as a table. The intent's
// unmanaged = "prune" removes what lossless does not render: the
// watchdog of an intent without one (never GLOBAL), a PFC priority → PG
// map on an ASIC whose template has none.
func TestEmptiedTableRemovedWhole(t *testing.T) {
	want := canonical(t).DB
	noWD := cloneDB(want)
	delete(noWD, "PFC_WD")
	running := base(t, want, nil)
	if ops := decodePatch(t, diffChange(t, running, noWD, false).Patch); len(ops) != 0 {
		t.Errorf("without prune, the watchdog lossless does not render is kept; patch %v", paths(ops))
	}
	// GLOBAL is not lossless' to remove once the intent has no watchdog:
	// the port entries go, key by key.
	ops := decodePatch(t, diffChange(t, running, noWD, true).Patch)
	if d := cmp.Diff([]string{"remove /PFC_WD/Ethernet0", "remove /PFC_WD/Ethernet4"}, paths(ops)); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	running = base(t, want, func(db config.DB) {
		db["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"] = map[string]map[string]string{"ROCE": {"3": "3"}}
		db["PORT_QOS_MAP"]["Ethernet0"]["pfc_to_pg_map"] = "ROCE"
	})
	ch := diffChange(t, running, want, false)
	if ops := decodePatch(t, ch.Patch); len(ops) != 0 {
		t.Errorf("without prune, the map the rendering has not on this ASIC is kept; patch %v", paths(ops))
	}
	if m := missing(kept(ch), []string{"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP|ROCE: used by PORT_QOS_MAP|Ethernet0"}); len(m) > 0 {
		t.Errorf("Kept lacks %q: %q", m, kept(ch))
	}
	ops = decodePatch(t, diffChange(t, running, want, true).Patch)
	if d := cmp.Diff([]string{"remove /PORT_QOS_MAP/Ethernet0/pfc_to_pg_map", "remove /PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"}, paths(ops)); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	walk(t, running, ops)
}

// TestHumanDiff: the diff shows the scoped running tables against the
// rendering, in config_db.json form, and nothing outside the scope.
func TestHumanDiff(t *testing.T) {
	want := canonical(t).DB
	running := base(t, want, func(db config.DB) {
		db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"] = "1048576"
		db["SCHEDULER"]["scheduler.0"] = map[string]string{"type": "DWRR", "weight": "14"}
	})
	_, _, _, d := diff(t, running, want)
	for _, w := range []string{"--- leaf1 running (scope)", "+++ leaf1 desired", `-            "green_min_threshold": "1048576",`, `+            "green_min_threshold": "153600",`} {
		if !strings.Contains(d, w) {
			t.Errorf("diff lacks %q:\n%s", w, d)
		}
	}
	if strings.Contains(d, "scheduler.0") || strings.Contains(d, "BUFFER_POOL") {
		t.Errorf("diff shows config outside the scope:\n%s", d)
	}
}

// TestParseRunning: the multi-ASIC form is read from its localhost scope,
// leaf-lists are joined, bad input is an error.
func TestParseRunning(t *testing.T) {
	db, err := ParseRunning([]byte(`{"localhost": {"PORT": {}, "BUFFER_PORT_INGRESS_PROFILE_LIST": {"Ethernet0": {"profile_list": ["a", "b"]}}}, "asic0": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := db["BUFFER_PORT_INGRESS_PROFILE_LIST"]["Ethernet0"]["profile_list"]; got != "a,b" {
		t.Errorf("profile_list = %q, want a,b", got)
	}
	for _, bad := range []string{``, `[]`, `{"QUEUE": []}`, `{"QUEUE": {"Ethernet0|3": {"scheduler": 3}}}`} {
		if _, err := ParseRunning([]byte(bad)); err == nil {
			t.Errorf("ParseRunning(%q) did not fail", bad)
		}
	}
}

// FuzzParseRunning: no input makes the parser or the diff panic.
func FuzzParseRunning(f *testing.F) {
	canon := canonical(f)
	f.Add(canon.Text)
	f.Add(LabSeed(canon.Text))
	f.Add([]byte(`{"QUEUE": {"Ethernet0|3": {"scheduler": "[SCHEDULER|X]"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := ParseRunning(b); err != nil {
			return
		}
		if _, err := Diff("leaf1", b, canon); err != nil {
			t.Fatalf("a parsed config failed to diff: %v", err)
		}
	})
}

// TestLineDiff: the kept and removed lines of the line diff print the
// running side exactly as config_db.json, the kept and added lines the
// desired side; the hunks are textdiff.Unified's.
func TestLineDiff(t *testing.T) {
	canon := canonical(t).DB
	seeded, err := ParseRunning(LabSeed(canonical(t).Text))
	if err != nil {
		t.Fatal(err)
	}
	one := cloneDB(canon)
	one["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"] = "1"
	pairs := map[string][2]config.DB{
		"seeded":       {newScope(canon, seeded, false).scoped(), canon},
		"one change":   {one, canon},
		"empty":        {config.DB{}, canon},
		"table gone":   {canon, config.DB{"QUEUE": canon["QUEUE"]}},
		"table empty":  {config.DB{"QUEUE": {}}, config.DB{"QUEUE": {"Ethernet0|1": {}}}},
		"both empty":   {config.DB{}, config.DB{}},
		"seeded whole": {seeded, canon},
	}
	for name, p := range pairs {
		t.Run(name, func(t *testing.T) {
			w := lineDiff(p[0], p[1], nil)
			var a, b strings.Builder
			for _, l := range w.text() {
				if l.op != '+' {
					a.WriteString(l.text + "\n")
				}
				if l.op != '-' {
					b.WriteString(l.text + "\n")
				}
			}
			if d := cmp.Diff(string(render.Text(p[0])), a.String()); d != "" {
				t.Errorf("running side (-Text +diff):\n%s", d)
			}
			if d := cmp.Diff(string(render.Text(p[1])), b.String()); d != "" {
				t.Errorf("desired side (-Text +diff):\n%s", d)
			}
		})
	}
	// Where go-diff's alignment is the natural one, the text is
	// textdiff.Unified's byte for byte.
	three := cloneDB(one)
	three["QUEUE"]["Ethernet4|6"]["scheduler"] = "X"
	three["PFC_WD"]["Ethernet0"]["action"] = "alert"
	for name, p := range map[string][2]config.DB{"one change": {one, canon}, "three changes": {three, canon}, "seeded": pairs["seeded"]} {
		want := textdiff.Unified("a", "b", string(render.Text(p[0])), string(render.Text(p[1])))
		if d := cmp.Diff(want, unified("a", "b", p[0], p[1], nil)); d != "" {
			t.Errorf("%s (-textdiff.Unified +unified):\n%s", name, d)
		}
	}
}

// TestWatchdogGlobalCreated: a patch that creates PFC_WD GLOBAL says a
// rollback could not remove it.
func TestWatchdogGlobalCreated(t *testing.T) {
	want := canonical(t).DB
	running := base(t, want, func(db config.DB) { delete(db["PFC_WD"], "GLOBAL") })
	_, ops, dis, _ := diff(t, running, want)
	if d := cmp.Diff([]string{"add /PFC_WD/GLOBAL"}, paths(ops)); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	if !slices.ContainsFunc(dis, func(s string) bool { return strings.HasPrefix(s, "PFC_WD|GLOBAL is created") }) {
		t.Errorf("disruptive does not warn about PFC_WD GLOBAL: %q", dis)
	}
}

// TestReason: a refusal is reported by SONiC's summary and detail, without
// GCU's progress lines and Click's usage text (reference/sonic.md §8).
func TestReason(t *testing.T) {
	for _, tc := range []struct{ reply, want string }{
		{"** DRY RUN EXECUTION **\nPatch Applier: localhost: Patch application starting.\nFailed to apply patch due to: Failed to apply patch on the following scopes:\n- localhost: Given patch will produce invalid config. Error: x\nUsage: config apply-patch [OPTIONS] PATCH_FILE_PATH\nTry 'config apply-patch -h' for help.\n\nError: x",
			"Failed to apply patch due to: Failed to apply patch on the following scopes: - localhost: Given patch will produce invalid config. Error: x"},
		{"Failed to rollback config\nUsage: config rollback [OPTIONS] CHECKPOINT_NAME\n\nError: Checkpoint 'a' does not exist", "Failed to rollback config: Checkpoint 'a' does not exist"},
		{"-bash: sudo: command not found\n", "-bash: sudo: command not found"},
	} {
		if got := reason(tc.reply); got != tc.want {
			t.Errorf("reason(%q) = %q, want %q", tc.reply, got, tc.want)
		}
	}
}

// TestRenamedMap: maps renamed under the ports and the global binding are
// created first, bound, and the old ones removed last when they carry
// lossless' names (ROCE_2, an earlier per-port variant); a map of another
// name is kept and listed (removed with prune); a map another port still
// uses stays either way.
func TestRenamedMap(t *testing.T) {
	want := canonical(t).DB
	seed := func(old string) []byte {
		return base(t, want, func(db config.DB) {
			db["DSCP_TO_TC_MAP"][old] = db["DSCP_TO_TC_MAP"]["ROCE"]
			delete(db["DSCP_TO_TC_MAP"], "ROCE")
			db["DSCP_TO_TC_MAP"]["AZURE"] = map[string]string{"0": "0"}
			for _, k := range []string{"Ethernet0", "Ethernet4", "global"} {
				db["PORT_QOS_MAP"][k]["dscp_to_tc_map"] = old
			}
			db["PORT_QOS_MAP"]["Ethernet8"] = map[string]string{"dscp_to_tc_map": "AZURE"}
		})
	}
	bind := []string{
		"add /DSCP_TO_TC_MAP/ROCE",
		"replace /PORT_QOS_MAP/Ethernet0/dscp_to_tc_map",
		"replace /PORT_QOS_MAP/Ethernet4/dscp_to_tc_map",
		"replace /PORT_QOS_MAP/global/dscp_to_tc_map",
	}
	for _, tc := range []struct {
		old   string
		prune bool
		ops   []string
		kept  string
	}{
		{"ROCE_2", false, append(slices.Clone(bind), "remove /DSCP_TO_TC_MAP/ROCE_2"), ""},
		{"OLD", false, bind, "DSCP_TO_TC_MAP|OLD: not rendered by lossless"},
		{"OLD", true, append(slices.Clone(bind), "remove /DSCP_TO_TC_MAP/OLD"), ""},
	} {
		t.Run(fmt.Sprintf("%s prune=%v", tc.old, tc.prune), func(t *testing.T) {
			running := seed(tc.old)
			ch := diffChange(t, running, want, tc.prune)
			ops := decodePatch(t, ch.Patch)
			if d := cmp.Diff(tc.ops, paths(ops)); d != "" {
				t.Errorf("patch (-want +got):\n%s", d)
			}
			walk(t, running, ops)
			wantKept := []string{"DSCP_TO_TC_MAP|AZURE: used by PORT_QOS_MAP|Ethernet8"}
			if tc.kept != "" {
				wantKept = append(wantKept, tc.kept)
			}
			if m := missing(kept(ch), wantKept); len(m) > 0 {
				t.Errorf("Kept lacks %q: %q", m, kept(ch))
			}
		})
	}
}

// TestKeptAndPruned: rows and objects in the tables lossless manages that
// it does not render (a hand-added PG, SONiC's template WRED profile and
// buffer profile, an operator's queue and the WRED profile it uses, even
// one with lossless' name) are left alone and listed, each with why; a
// template queue range that holds a rendered queue is lossless' and goes.
// With unmanaged = "prune" they are removed, except what a port lossless
// does not manage still uses.
func TestKeptAndPruned(t *testing.T) {
	want := canonical(t).DB
	running := base(t, want, func(db config.DB) {
		db["BUFFER_PG"]["Ethernet0|6"] = map[string]string{"profile": "pg_lossless_100000_5m_profile"}
		db["BUFFER_QUEUE"]["Ethernet0|5-6"] = map[string]string{"profile": "egress_lossy_profile"}
		db["WRED_PROFILE"]["AZURE_LOSSLESS"] = map[string]string{"ecn": "ecn_all", "wred_green_enable": "true", "green_min_threshold": "1048576", "green_max_threshold": "2097152", "green_drop_probability": "5"}
		db["WRED_PROFILE"]["ROCE_LOSSLESS_5"] = map[string]string{"ecn": "ecn_green", "wred_green_enable": "true", "green_min_threshold": "1", "green_max_threshold": "2"}
		db["QUEUE"]["Ethernet0|5"] = map[string]string{"wred_profile": "ROCE_LOSSLESS_5"}
		db["BUFFER_PROFILE"]["ingress_lossless_profile"] = map[string]string{"pool": "ingress_lossless_pool", "size": "0", "dynamic_th": "7"}
		db["SCHEDULER"]["scheduler.0"] = map[string]string{"type": "DWRR", "weight": "14"}
		db["QUEUE"]["Ethernet8|0"] = map[string]string{"scheduler": "scheduler.0"}
	})
	keep := diffChange(t, running, want, false)
	ops := decodePatch(t, keep.Patch)
	if d := cmp.Diff([]string{"remove /BUFFER_QUEUE/Ethernet0|5-6"}, paths(ops)); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	walk(t, running, ops)
	used := []string{
		"SCHEDULER|scheduler.0: used by QUEUE|Ethernet8|0",
		"Ethernet8 (QUEUE): a port lossless does not manage: outside the scope, never changed",
	}
	if m := missing(kept(keep), append([]string{
		"BUFFER_PG|Ethernet0|6: not rendered by lossless",
		"WRED_PROFILE|AZURE_LOSSLESS: not rendered by lossless (SONiC's QoS template)",
		"BUFFER_PROFILE|ingress_lossless_profile: not rendered by lossless (SONiC's buffer template)",
		"QUEUE|Ethernet0|5: not rendered by lossless",
		"WRED_PROFILE|ROCE_LOSSLESS_5: used by QUEUE|Ethernet0|5",
	}, used...)); len(m) > 0 {
		t.Errorf("Kept lacks %q; it is:\n%s", m, strings.Join(kept(keep), "\n"))
	}

	prune := diffChange(t, running, want, true)
	ops = decodePatch(t, prune.Patch)
	wantOps := []string{
		"remove /BUFFER_QUEUE/Ethernet0|5-6",
		"remove /QUEUE/Ethernet0|5",
		"remove /BUFFER_PG/Ethernet0|6",
		"remove /BUFFER_PROFILE/ingress_lossless_profile",
		"remove /WRED_PROFILE/AZURE_LOSSLESS",
		"remove /WRED_PROFILE/ROCE_LOSSLESS_5",
	}
	if d := cmp.Diff(wantOps, paths(ops)); d != "" {
		t.Errorf("pruning patch (-want +got):\n%s", d)
	}
	got := walk(t, running, ops)
	if got["SCHEDULER"]["scheduler.0"] == nil || got["QUEUE"]["Ethernet8|0"] == nil {
		t.Error("pruned what a port lossless does not manage uses")
	}
	if m := missing(kept(prune), used); len(m) > 0 {
		t.Errorf("pruning Kept lacks %q; it is:\n%s", m, strings.Join(kept(prune), "\n"))
	}
	for _, k := range kept(prune) {
		if strings.Contains(k, "not rendered by lossless") {
			t.Errorf("with prune, %q is still kept", k)
		}
	}
}

// TestRangeRekey: when the lossless priorities of a port change, the PG
// and queue ranges that held them are removed just before the rendered
// ranges that take their indices are added, in the order GCU applies them
// (it offers removals first), and the plan says GCU takes the port down
// for it.
func TestRangeRekey(t *testing.T) {
	canon := canonical(t).DB
	want := cloneDB(canon)
	want["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] = "3,4"
	delete(want["BUFFER_PG"], "Ethernet0|3")
	want["BUFFER_PG"]["Ethernet0|3-4"] = map[string]string{"profile": "pg_lossless_100000_5m_profile"}
	delete(want["BUFFER_QUEUE"], "Ethernet0|3")
	delete(want["BUFFER_QUEUE"], "Ethernet0|4-6")
	want["BUFFER_QUEUE"]["Ethernet0|3-4"] = map[string]string{"profile": "egress_lossless_profile"}
	want["BUFFER_QUEUE"]["Ethernet0|5-6"] = map[string]string{"profile": "egress_lossy_profile"}
	running := base(t, canon, nil)
	ch := diffChange(t, running, want, false)
	ops := decodePatch(t, ch.Patch)
	wantOps := []string{
		"remove /BUFFER_PG/Ethernet0|3",
		"add /BUFFER_PG/Ethernet0|3-4",
		"remove /BUFFER_QUEUE/Ethernet0|3",
		"remove /BUFFER_QUEUE/Ethernet0|4-6",
		"add /BUFFER_QUEUE/Ethernet0|3-4",
		"add /BUFFER_QUEUE/Ethernet0|5-6",
		"replace /PORT_QOS_MAP/Ethernet0/pfc_enable",
	}
	if d := cmp.Diff(wantOps, paths(ops)); d != "" {
		t.Errorf("patch (-want +got):\n%s", d)
	}
	walk(t, running, ops)
	if !slices.ContainsFunc(ch.Disruptive, func(s string) bool {
		return strings.HasPrefix(s, "ports Ethernet0: config apply-patch turns each admin down")
	}) {
		t.Errorf("disruptive does not say GCU takes Ethernet0 down: %q", ch.Disruptive)
	}
	if len(ch.Kept) > 0 && slices.ContainsFunc(ch.Kept, func(k vendors.Kept) bool {
		return strings.HasPrefix(k.Object, "BUFFER_") && strings.Contains(k.Object, "Ethernet0|")
	}) {
		t.Errorf("an overlapped range is kept: %q", kept(ch))
	}
}

// TestTrustChangeRebinds: when the intent's trust changes, the port's
// other classifier binding goes (a port binds its DSCP map or, trusting
// CoS, its 802.1p map); the switch-wide DSCP binding stays, as it always
// does, and so does a map no longer of the rendering's tables.
func TestTrustChangeRebinds(t *testing.T) {
	dscp := canonical(t).DB
	cos := cloneDB(dscp)
	cos["DOT1P_TO_TC_MAP"] = map[string]map[string]string{"ROCE": {"0": "0", "1": "0", "2": "0", "3": "3", "4": "0", "5": "0", "6": "6", "7": "0"}}
	for _, p := range []string{"Ethernet0", "Ethernet4"} {
		delete(cos["PORT_QOS_MAP"][p], "dscp_to_tc_map")
		cos["PORT_QOS_MAP"][p]["dot1p_to_tc_map"] = "ROCE"
	}
	delete(cos["PORT_QOS_MAP"], "global")
	delete(cos, "DSCP_TO_TC_MAP")
	for _, tc := range []struct {
		name          string
		from, to      config.DB
		ops           []string
		keptSubstring string
	}{
		{"dscp to cos", dscp, cos, []string{
			"add /DOT1P_TO_TC_MAP/ROCE",
			"add /PORT_QOS_MAP/Ethernet0/dot1p_to_tc_map",
			"add /PORT_QOS_MAP/Ethernet4/dot1p_to_tc_map",
			"remove /PORT_QOS_MAP/Ethernet0/dscp_to_tc_map",
			"remove /PORT_QOS_MAP/Ethernet4/dscp_to_tc_map",
		}, "PORT_QOS_MAP|global: not rendered by lossless"},
		// The 802.1p map is not of the rendering's tables any more, so
		// nothing tells it is lossless': kept and listed, as a renamed
		// map is (TestRenamedMap).
		{"cos to dscp", cos, dscp, []string{
			"add /DSCP_TO_TC_MAP/ROCE",
			"add /PORT_QOS_MAP/Ethernet0/dscp_to_tc_map",
			"add /PORT_QOS_MAP/Ethernet4/dscp_to_tc_map",
			"add /PORT_QOS_MAP/global",
			"remove /PORT_QOS_MAP/Ethernet0/dot1p_to_tc_map",
			"remove /PORT_QOS_MAP/Ethernet4/dot1p_to_tc_map",
		}, "DOT1P_TO_TC_MAP|ROCE: not rendered by lossless"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			running := base(t, tc.from, func(config.DB) {})
			ch := diffChange(t, running, tc.to, false)
			ops := decodePatch(t, ch.Patch)
			if d := cmp.Diff(tc.ops, paths(ops)); d != "" {
				t.Errorf("patch (-want +got):\n%s", d)
			}
			walk(t, running, ops)
			if tc.keptSubstring != "" && !slices.ContainsFunc(kept(ch), func(k string) bool { return strings.Contains(k, tc.keptSubstring) }) {
				t.Errorf("Kept lacks %q: %q", tc.keptSubstring, kept(ch))
			}
		})
	}
}

// TestWREDColours: WRED colours come and go field by field in the
// profile, which the queues keep using: turning yellow WRED on (marked)
// adds its four fields and replaces the ecn mode; turning SONiC's
// AZURE_LOSSLESS-like colours off (reference/sonic.md §3) removes
// theirs.
func TestWREDColours(t *testing.T) {
	plain := canonical(t).DB
	coloured := cloneDB(plain)
	w := coloured["WRED_PROFILE"]["ROCE_LOSSLESS"]
	w["ecn"] = "ecn_green_yellow"
	w["wred_yellow_enable"], w["yellow_min_threshold"], w["yellow_max_threshold"], w["yellow_drop_probability"] = "true", "1048576", "2097152", "5"
	all := cloneDB(coloured)
	w = all["WRED_PROFILE"]["ROCE_LOSSLESS"]
	w["ecn"] = "ecn_all"
	w["wred_red_enable"], w["red_min_threshold"], w["red_max_threshold"], w["red_drop_probability"] = "true", "1048576", "2097152", "5"
	for _, tc := range []struct {
		name     string
		from, to config.DB
		want     []string
	}{
		{"yellow on", plain, coloured, []string{
			"replace /WRED_PROFILE/ROCE_LOSSLESS/ecn",
			"add /WRED_PROFILE/ROCE_LOSSLESS/wred_yellow_enable",
			"add /WRED_PROFILE/ROCE_LOSSLESS/yellow_drop_probability",
			"add /WRED_PROFILE/ROCE_LOSSLESS/yellow_max_threshold",
			"add /WRED_PROFILE/ROCE_LOSSLESS/yellow_min_threshold",
		}},
		{"red on", coloured, all, []string{
			"replace /WRED_PROFILE/ROCE_LOSSLESS/ecn",
			"add /WRED_PROFILE/ROCE_LOSSLESS/red_drop_probability",
			"add /WRED_PROFILE/ROCE_LOSSLESS/red_max_threshold",
			"add /WRED_PROFILE/ROCE_LOSSLESS/red_min_threshold",
			"add /WRED_PROFILE/ROCE_LOSSLESS/wred_red_enable",
		}},
		{"colours off", all, plain, []string{
			"replace /WRED_PROFILE/ROCE_LOSSLESS/ecn",
			"remove /WRED_PROFILE/ROCE_LOSSLESS/wred_yellow_enable",
			"remove /WRED_PROFILE/ROCE_LOSSLESS/wred_red_enable",
			"remove /WRED_PROFILE/ROCE_LOSSLESS/yellow_min_threshold",
			"remove /WRED_PROFILE/ROCE_LOSSLESS/yellow_max_threshold",
			"remove /WRED_PROFILE/ROCE_LOSSLESS/yellow_drop_probability",
			"remove /WRED_PROFILE/ROCE_LOSSLESS/red_min_threshold",
			"remove /WRED_PROFILE/ROCE_LOSSLESS/red_max_threshold",
			"remove /WRED_PROFILE/ROCE_LOSSLESS/red_drop_probability",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			running := base(t, tc.from, nil)
			_, ops, disruptive, _ := diff(t, running, tc.to)
			if d := cmp.Diff(tc.want, paths(ops), cmpopts.SortSlices(func(a, b string) bool { return a < b })); d != "" {
				t.Errorf("patch (-want +got):\n%s", d)
			}
			if len(disruptive) > 0 {
				t.Errorf("a WRED profile change is disruptive: %v", disruptive)
			}
			got := walk(t, running, ops)
			if d := cmp.Diff(tc.to, newScope(tc.to, got, false).scoped()); d != "" {
				t.Errorf("patched config (-want +got):\n%s", d)
			}
		})
	}
}
