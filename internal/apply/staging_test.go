package apply

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
)

// TestStagingWithIntent: the intent's rollout block gives the defaults
// of the gate and the audit log, a setting given wins, and the lab never
// takes the intent's audit log.
func TestStagingWithIntent(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	u := func(v uint64) *uint64 { return &v }
	b := func(v bool) *bool { return &v }
	ro := &intent.Rollout{AuditLog: "audit.jsonl", Gate: &intent.RolloutGate{MaxDrops: f(50), MaxWatchdog: u(2)}}
	dir := &plan.Source{Dir: "/fabric"}
	for _, tc := range []struct {
		name   string
		given  Staging
		ro     *intent.Rollout
		src    *plan.Source
		staged bool
		want   rollout.Staging
		audit  string
	}{
		{name: "no block", src: dir},
		{name: "intent", ro: ro, src: dir, staged: true, audit: "/fabric/audit.jsonl",
			want: rollout.Staging{Gate: &rollout.Gate{MaxPausePerSec: DefaultMaxPause, MaxDropsPerSec: 50, MaxWatchdog: 2}}},
		{name: "given wins", given: Staging{MaxWatchdog: u(0), MaxPause: f(10), Audit: "/var/log/x.jsonl"}, ro: ro, src: dir, staged: true, audit: "/var/log/x.jsonl",
			want: rollout.Staging{Gate: &rollout.Gate{MaxPausePerSec: 10, MaxDropsPerSec: 50}}},
		{name: "gate off", given: Staging{Gate: b(false)}, ro: ro, src: dir, staged: true, audit: "/fabric/audit.jsonl"},
		{name: "lab", ro: &intent.Rollout{AuditLog: "audit.jsonl"}, src: &plan.Source{Dir: "/fabric", Lab: true}},
		{name: "batches", given: Staging{Canary: 1, Batch: rollout.Size{Percent: 10}}, src: dir, staged: true,
			want: rollout.Staging{Canary: 1, Batch: rollout.Size{Percent: 10}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.given.withIntent(tc.ro, tc.src)
			if s.staged() != tc.staged || s.Audit != tc.audit {
				t.Errorf("staged %v, audit %q; want %v, %q", s.staged(), s.Audit, tc.staged, tc.audit)
			}
			if d := cmp.Diff(tc.want, s.rollout()); d != "" {
				t.Errorf("staging (-want +got):\n%s", d)
			}
		})
	}
}
