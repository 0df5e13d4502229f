package intent

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/lossless-net/lossless/internal/diag"
)

// TestRollout: the rollout block's values reach Fabric.Rollout as
// written, values left out stay nil for apply's defaults, and each value
// outside its range is refused with its rule.
func TestRollout(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	u64 := func(v uint64) *uint64 { return &v }
	for _, tc := range []struct {
		name, src string
		want      *Rollout // ranges are not compared
		rules     []diag.Rule
	}{
		{name: "none", src: ``},
		{name: "audit only", src: `rollout { audit_log = "audit/lossless.jsonl" }`,
			want: &Rollout{AuditLog: "audit/lossless.jsonl"}},
		{name: "full", src: `rollout {
  audit_log = "/var/log/lossless.jsonl"
  gate {
    max_pause    = 1000
    max_drops    = 0.5
    max_watchdog = 0
  }
}`, want: &Rollout{AuditLog: "/var/log/lossless.jsonl", Gate: &RolloutGate{MaxPause: f64(1000), MaxDrops: f64(0.5), MaxWatchdog: u64(0)}}},
		{name: "empty gate", src: "rollout {\n  gate {}\n}", want: &Rollout{Gate: &RolloutGate{}}},
		{name: "from a variable", src: `variable "p" { default = 250 }
rollout {
  gate { max_pause = var.p }
}`, want: &Rollout{Gate: &RolloutGate{MaxPause: f64(250)}}},
		{name: "limits at the bounds", src: `rollout {
  gate {
    max_pause    = 1e9
    max_drops    = 0.001
    max_watchdog = 2147483648
  }
}`, want: &Rollout{Gate: &RolloutGate{MaxPause: f64(1e9), MaxDrops: f64(0.001), MaxWatchdog: u64(1 << 31)}}},
		{name: "negative", src: `rollout {
  gate {
    max_pause    = -1
    max_watchdog = -1
  }
}`, want: &Rollout{Gate: &RolloutGate{}}, rules: []diag.Rule{RuleRolloutGate, RuleRolloutGate}},
		{name: "over the bounds", src: `rollout {
  gate {
    max_pause    = 1000000001
    max_watchdog = 2147483649
  }
}`, want: &Rollout{Gate: &RolloutGate{}}, rules: []diag.Rule{RuleRolloutGate, RuleRolloutGate}},
		{name: "not a number", src: `rollout {
  gate { max_drops = "many" }
}`, want: &Rollout{Gate: &RolloutGate{}}, rules: []diag.Rule{RuleRolloutGate}},
		{name: "blank audit log", src: `rollout { audit_log = "  " }`, want: &Rollout{}, rules: []diag.Rule{RuleRolloutAuditLog}},
		{name: "audit log is a directory", src: `rollout { audit_log = "logs/.." }`, want: &Rollout{}, rules: []diag.Rule{RuleRolloutAuditLog}},
		{name: "audit log not a string", src: `rollout { audit_log = ["a"] }`, want: &Rollout{}, rules: []diag.Rule{RuleBadValue}},
		{name: "unknown attribute", src: "rollout {\n  gate { max_pauses = 1 }\n}", want: &Rollout{Gate: &RolloutGate{}}, rules: []diag.Rule{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fab, diags := LoadSources(map[string][]byte{"rollout.hcl": []byte(tc.src)}, nil)
			var rules []diag.Rule
			for _, d := range diags {
				rules = append(rules, diag.RuleOf(d))
			}
			if diff := cmp.Diff(tc.rules, rules); diff != "" {
				t.Errorf("rules (-want +got):\n%s\n%s", diff, diagText(diags))
			}
			ranges := cmp.Options{cmpopts.IgnoreFields(Rollout{}, "DeclRange", "AuditLogRange"), cmpopts.IgnoreFields(RolloutGate{}, "DeclRange")}
			if diff := cmp.Diff(tc.want, fab.Rollout, ranges); diff != "" {
				t.Errorf("Rollout (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRolloutAuditPath: a relative audit_log is relative to the intent
// directory, an absolute one is kept, and none gives "".
func TestRolloutAuditPath(t *testing.T) {
	dir := filepath.Join("/", "srv", "fabric")
	for _, tc := range []struct {
		r    *Rollout
		want string
	}{
		{nil, ""},
		{&Rollout{}, ""},
		{&Rollout{AuditLog: "audit/lossless.jsonl"}, filepath.Join(dir, "audit", "lossless.jsonl")},
		{&Rollout{AuditLog: "../logs/a.jsonl"}, filepath.Join("/", "srv", "logs", "a.jsonl")},
		{&Rollout{AuditLog: filepath.Join("/", "var", "log", "a.jsonl")}, filepath.Join("/", "var", "log", "a.jsonl")},
	} {
		if got := tc.r.AuditPath(dir); got != tc.want {
			t.Errorf("AuditPath(%v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
