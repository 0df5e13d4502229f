package sonic

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openconfig/goyang/pkg/yang"
)

// yanglint runs libyang's yanglint on CONFIG_DB converted to the RFC 7951
// instance shape of reference/sonic.md §6, and returns its first error
// message (without libyang's data location) or "" when the data is valid.
// It skips when yanglint is not installed, unless CI=true.
func yanglint(t *testing.T, s *schema, d db) string {
	t.Helper()
	bin, err := exec.LookPath("yanglint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("yanglint not installed (apt-get install libyang2-tools)")
		}
		t.Skip("yanglint not installed")
	}
	inst, err := json.MarshalIndent(instance(s, d), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "data.json")
	if err := os.WriteFile(f, inst, 0o600); err != nil {
		t.Fatal(err)
	}
	mods, _ := filepath.Glob("yang/*.yang")
	out, err := exec.Command(bin, append(append([]string{"-Q", "-i", "-t", "config", "-p", "yang"}, mods...), f)...).CombinedOutput()
	if err == nil {
		return ""
	}
	for _, l := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(l, "libyang err : "); ok {
			msg, _, _ := strings.Cut(m, " (Data location")
			return msg
		}
	}
	return strings.TrimSpace(string(out))
}

// instance converts CONFIG_DB to the yanglint instance: list entries with
// their key leaves split out, map tables as inner lists, and values typed
// per RFC 7951 (numbers for 8–32-bit integers, booleans, strings for the
// rest), as shared/yang/sonic/examples/README.md describes.
func instance(s *schema, d db) map[string]any {
	out := map[string]any{}
	for tn, keys := range d {
		t := s.tables[tn]
		if t == nil {
			continue
		}
		mod, _ := out[t.module+":"+t.module].(map[string]any)
		if mod == nil {
			mod = map[string]any{}
			out[t.module+":"+t.module] = mod
		}
		if t.list == nil {
			c := map[string]any{}
			for k, fields := range keys {
				e := map[string]any{}
				for f, v := range fields {
					e[f] = typed(t.containers.Dir[k], f, v)
				}
				c[k] = e
			}
			mod[t.module+":"+tn] = c
			continue
		}
		var list []any
		for _, k := range sortedKeys(keys) {
			e := map[string]any{}
			for i, part := range strings.Split(k, "|") {
				if i < len(t.keys) {
					e[t.keys[i]] = typed(t.list, t.keys[i], part)
				}
			}
			if t.inner != nil {
				var inner []any
				for _, f := range sortedKeys(keys[k]) {
					inner = append(inner, map[string]any{t.innerKey: typed(t.inner, t.innerKey, f), t.innerVal: typed(t.inner, t.innerVal, keys[k][f])})
				}
				e[tn] = inner
			} else {
				for f, v := range keys[k] {
					e[f] = typed(t.list, f, v)
				}
			}
			list = append(list, e)
		}
		mod[t.module+":"+tn] = map[string]any{tn + "_LIST": list}
	}
	return out
}

func typed(parent *yang.Entry, leaf, v string) any {
	if parent == nil || parent.Dir[leaf] == nil || parent.Dir[leaf].Type == nil {
		return v
	}
	switch parent.Dir[leaf].Type.Kind {
	case yang.Yint8, yang.Yint16, yang.Yint32, yang.Yuint8, yang.Yuint16, yang.Yuint32:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	case yang.Ybool:
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
	}
	return v
}

// The lab's validator agrees with libyang: the canonical config and every
// refusal of TestYANGRefusals give the same verdict and, where libyang
// words the failure, the same message.
func TestValidatorAgreesWithYanglint(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	if got := yanglint(t, d.schema, d.db); got != "" {
		t.Fatalf("yanglint rejects the canonical config: %s", got)
	}
	for _, p := range []string{
		`[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/green_max_threshold","value":"153600"}]`,
		`[{"op":"add","path":"/SCHEDULER/EXTRA","value":{"type":"DWRR","weight":"100","cir":"1000","pir":"1000","cbs":"10","pbs":"10"}}]`,
		`[{"op":"add","path":"/BUFFER_PG/Ethernet4|3-4","value":{"profile":"pg_lossless_100000_5m_profile"}}]`,
		`[{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0/pfc_enable","value":"3,4"},{"op":"add","path":"/QUEUE/CPU|0","value":{"scheduler":"ROCE_LOSSY"}}]`,
	} {
		target, err := applyPatch(d.db, mustOps(t, p))
		if err != nil {
			t.Fatal(err)
		}
		if mine, lint := d.schema.validate(target), yanglint(t, d.schema, target); mine != "" || lint != "" {
			t.Errorf("%s: lab %q, yanglint %q; both should accept", p, mine, lint)
		}
	}
	for _, tt := range yangRefusals {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := parsePatch([]byte(tt.patch))
			if err != nil {
				t.Fatal(err)
			}
			target, err := applyPatch(d.db, ops)
			if err != nil {
				t.Fatal(err)
			}
			mine := d.schema.validate(target)
			lint := yanglint(t, d.schema, target)
			if mine == "" || lint == "" {
				t.Fatalf("verdicts differ: lab %q, yanglint %q", mine, lint)
			}
			if msg, _, _ := strings.Cut(mine, " (Data location"); tt.sameText && msg != lint {
				t.Errorf("lab says %q, libyang %q", msg, lint)
			}
		})
	}
}

func mustOps(t *testing.T, p string) []op {
	t.Helper()
	ops, err := parsePatch([]byte(p))
	if err != nil {
		t.Fatal(err)
	}
	return ops
}
