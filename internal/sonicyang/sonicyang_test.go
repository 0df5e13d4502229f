package sonicyang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/sonicyang/yangtest"
)

// example reads the canonical CONFIG_DB of reference/sonic.md §5 from the
// YANG folder's examples.
func example(t *testing.T) (config.DB, string) {
	t.Helper()
	dir := yangtest.SonicDir(t)
	b, err := os.ReadFile(filepath.Join(dir, "examples", "config_db.json"))
	if err != nil {
		t.Fatal(err)
	}
	var db config.DB
	if err := json.Unmarshal(b, &db); err != nil {
		t.Fatal(err)
	}
	return db, dir
}

// TestInstanceMatchesExample converts the reference CONFIG_DB and compares
// it with the hand-checked instance good.json (same data, RFC 7951 types).
func TestInstanceMatchesExample(t *testing.T) {
	db, dir := example(t)
	got, err := Instance(db)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "examples", "good.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalise(w), normalise(g)); diff != "" {
		t.Errorf("instance differs from good.json (-want +got):\n%s", diff)
	}
}

// normalise sorts lists by their JSON text so list order does not count.
func normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalise(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalise(e)
		}
		sort.Slice(x, func(i, j int) bool {
			a, _ := json.Marshal(x[i])
			b, _ := json.Marshal(x[j])
			return string(a) < string(b)
		})
	}
	return v
}

func clone(db config.DB) config.DB {
	b, _ := json.Marshal(db)
	var c config.DB
	_ = json.Unmarshal(b, &c)
	return c
}

// TestValidate checks that the reference CONFIG_DB passes and that each
// broken variant is rejected in-process with the reason.
func TestValidate(t *testing.T) {
	db, _ := example(t)
	if err := Validate(db); err != nil {
		t.Fatalf("reference CONFIG_DB rejected: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(config.DB)
		want string
	}{
		{"DSCP 64", func(db config.DB) { db["DSCP_TO_TC_MAP"]["ROCE"]["64"] = "0" }, `"64" does not match regular expression`},
		{"TC 16", func(db config.DB) { db["DSCP_TO_TC_MAP"]["ROCE"]["24"] = "16" }, "outside specified ranges"},
		{"WRED min above max", func(db config.DB) {
			db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"] = "3072000"
			db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_max_threshold"] = "153600"
		}, "Green max threshold must be greater than or equal to min threshold"},
		{"WRED max without min", func(db config.DB) { delete(db["WRED_PROFILE"]["ROCE_LOSSLESS"], "green_min_threshold") }, "Green max threshold"},
		{"drop probability 101", func(db config.DB) { db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_drop_probability"] = "101" }, "outside specified ranges"},
		{"pfc_enable 3,8", func(db config.DB) { db["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] = "3,8" }, `"3,8" does not match`},
		{"comma port list", func(db config.DB) {
			db["PORT_QOS_MAP"]["Ethernet0,Ethernet4"] = db["PORT_QOS_MAP"]["Ethernet0"]
		}, `"Ethernet0,Ethernet4" refers to PORT|Ethernet0,Ethernet4`},
		{"cable length without unit", func(db config.DB) { db["CABLE_LENGTH"]["AZURE"]["Ethernet0"] = "5" }, `"5" does not match`},
		{"watchdog detection below poll", func(db config.DB) { db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"] = "300" }, "detection_time must be greater than or equal to POLL_INTERVAL"},
		{"scheduler weight 0", func(db config.DB) { db["SCHEDULER"]["ROCE_LOSSY"]["weight"] = "0" }, "outside specified ranges"},
		{"scheduler type", func(db config.DB) { db["SCHEDULER"]["ROCE_LOSSY"]["type"] = "WFQ" }, "WFQ"},
		{"missing scheduler", func(db config.DB) { delete(db["SCHEDULER"], "ROCE_CNP") }, `"ROCE_CNP" refers to SCHEDULER|ROCE_CNP`},
		{"unknown port", func(db config.DB) { db["QUEUE"]["Ethernet8|3"] = map[string]string{"scheduler": "ROCE_LOSSLESS"} }, `"Ethernet8" refers to PORT|Ethernet8`},
		{"profile without size", func(db config.DB) { delete(db["BUFFER_PROFILE"]["pg_lossless_100000_5m_profile"], "size") }, "mandatory field size is missing"},
		{"unknown field", func(db config.DB) { db["QUEUE"]["Ethernet0|3"]["colour"] = "x" }, `field "colour" is not in the QUEUE YANG model`},
		{"non-number weight", func(db config.DB) { db["SCHEDULER"]["ROCE_LOSSY"]["weight"] = "heavy" }, `"heavy" is not a uint8`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := clone(db)
			tc.edit(bad)
			err := Validate(bad)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestRefsIntoAbsentTables: a rendering holds no PORT or BUFFER_POOL rows
// (the switch's); references into them are not checked, the rest are.
func TestRefsIntoAbsentTables(t *testing.T) {
	db, _ := example(t)
	delete(db, "PORT")
	delete(db, "BUFFER_POOL")
	if err := Validate(db); err != nil {
		t.Fatalf("rendering without PORT rows rejected: %v", err)
	}
}

// TestYanglintAgrees runs yanglint on the instance of the reference and of
// the two broken variants the README keeps: it must agree with Validate.
func TestYanglintAgrees(t *testing.T) {
	db, dir := example(t)
	yangtest.Yanglint(t)
	tmp := t.TempDir()
	for _, tc := range []struct {
		name  string
		edit  func(config.DB)
		valid bool
		msg   string
	}{
		{"reference", func(config.DB) {}, true, ""},
		{"DSCP 64", func(db config.DB) { db["DSCP_TO_TC_MAP"]["ROCE"]["64"] = "0" }, false, "Invalid DSCP"},
		{"WRED min above max", func(db config.DB) {
			db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"] = "3072000"
			db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_max_threshold"] = "153600"
		}, false, "Green max threshold must be greater than or equal to min threshold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := clone(db)
			tc.edit(c)
			inst, err := Instance(c)
			if err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(tmp, strings.ReplaceAll(tc.name, " ", "-")+".json")
			if err := os.WriteFile(f, inst, 0o644); err != nil {
				t.Fatal(err)
			}
			out, lintErr := yangtest.Run(t.Context(), t, dir, f)
			verr := Validate(c)
			if tc.valid {
				if lintErr != nil || verr != nil {
					t.Fatalf("valid instance rejected: yanglint %v %s; ygot %v", lintErr, out, verr)
				}
				return
			}
			if lintErr == nil || !strings.Contains(out, tc.msg) {
				t.Errorf("yanglint = %v %q, want a rejection with %q", lintErr, out, tc.msg)
			}
			if verr == nil {
				t.Errorf("ygot validation accepted what yanglint rejects")
			}
		})
	}
}

// TestMustCoverage fails when a bundled module has a `must` that Validate
// neither evaluates nor lists as out of scope.
func TestMustCoverage(t *testing.T) {
	dir := yangtest.SonicDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "sonic-*.yang"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)\bmust\s+"((?:[^"\\]|\\.)*)"`)
	covered := map[string]bool{}
	for _, m := range musts() {
		covered[m.Module+"\x00"+m.Expr] = true
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		mod := strings.TrimSuffix(filepath.Base(f), ".yang")
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				if covered[mod+"\x00"+m[1]] {
					continue
				}
				if _, ok := mustsOutOfScope()[mod]; ok {
					continue
				}
				t.Errorf("%s: must %q is not evaluated by Validate", mod, m[1])
			}
		}
	}
}

func TestNaturalLess(t *testing.T) {
	in := []string{"Ethernet12|3", "global", "10", "Ethernet4|0-2", "9", "Ethernet4|3", "GLOBAL", "Ethernet0"}
	sort.Slice(in, func(i, j int) bool { return NaturalLess(in[i], in[j]) })
	want := []string{"9", "10", "Ethernet0", "Ethernet4|0-2", "Ethernet4|3", "Ethernet12|3", "GLOBAL", "global"}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Error(diff)
	}
}

// TestNaturalCompareAgainstSlowPath checks the fast path against a plain
// split-into-runs comparison on many pairs.
func TestNaturalCompareAgainstSlowPath(t *testing.T) {
	words := []string{"", "0", "00", "007", "1", "9", "10", "010", "Ethernet", "Ethernet0", "Ethernet00", "Ethernet4", "Ethernet12",
		"Ethernet4|0-2", "Ethernet4|3", "Ethernet4|10", "Ethernet12|3", "a1b2", "a1b10", "a01b2", "GLOBAL", "global", "x", "x1", "x1y"}
	for _, a := range words {
		for _, b := range words {
			if got, want := NaturalCompare(a, b), slowCompare(a, b); got != want {
				t.Errorf("NaturalCompare(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// slowCompare splits both strings into digit and non-digit runs and
// compares run by run: numbers by value, then by leading zeros; text by
// bytes; a string that runs out first is smaller.
func slowCompare(a, b string) int {
	ra, rb := splitRuns(a), splitRuns(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		x, y := ra[i], rb[i]
		if isDigit(x[0]) && isDigit(y[0]) {
			tx, ty := strings.TrimLeft(x, "0"), strings.TrimLeft(y, "0")
			if len(tx) != len(ty) {
				return cmpInt(len(tx), len(ty))
			}
			if c := strings.Compare(tx, ty); c != 0 {
				return c
			}
			if len(x) != len(y) {
				return cmpInt(len(x), len(y))
			}
			continue
		}
		if c := strings.Compare(x, y); c != 0 {
			// Text against text or number: bytewise on the runs, which
			// differ at their first differing byte.
			n := 0
			for n < len(x) && n < len(y) && x[n] == y[n] {
				n++
			}
			if n < len(x) && n < len(y) {
				return cmpInt(int(x[n]), int(y[n]))
			}
			// One run is a prefix of the other: the next byte of the
			// longer string decides against the next run of the other.
			return naturalTail(a, b, ra, rb, i, n)
		}
	}
	return cmpInt(len(ra), len(rb))
}

func naturalTail(a, b string, ra, rb []string, i, n int) int {
	pa, pb := 0, 0
	for k := 0; k < i; k++ {
		pa += len(ra[k])
		pb += len(rb[k])
	}
	pa += n
	pb += n
	if pa == len(a) || pb == len(b) {
		return cmpInt(len(a)-pa, len(b)-pb)
	}
	return cmpInt(int(a[pa]), int(b[pb]))
}

func splitRuns(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && isDigit(s[j]) == isDigit(s[i]) {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}
