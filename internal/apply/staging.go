package apply

import (
	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
)

// withIntent fills in the settings s leaves unset from the intent's
// rollout block ro (nil: none) of the intent at src: the audit log (a
// relative audit_log is relative to the intent directory; never for the
// embedded lab) and the gate, on with the intent's limits when it has a
// gate block.
func (s Staging) withIntent(ro *intent.Rollout, src *plan.Source) Staging {
	if ro == nil {
		return s
	}
	if s.Audit == "" && !src.Lab {
		s.Audit = ro.AuditPath(src.Dir)
	}
	g := ro.Gate
	if g == nil {
		return s
	}
	if s.Gate == nil {
		on := true
		s.Gate = &on
	}
	if s.MaxPause == nil {
		s.MaxPause = g.MaxPause
	}
	if s.MaxDrops == nil {
		s.MaxDrops = g.MaxDrops
	}
	if s.MaxWatchdog == nil {
		s.MaxWatchdog = g.MaxWatchdog
	}
	return s
}

// gated reports whether the health gates are on.
func (s Staging) gated() bool { return s.Gate != nil && *s.Gate }

// staged reports whether apply rolls out in stages.
func (s Staging) staged() bool {
	return s.Canary > 0 || s.Batch != (rollout.Size{}) || s.MaxFailures > 0 || s.Pause > 0 || len(s.Order) > 0 || s.Window != "" ||
		s.gated() || s.Audit != "" || s.State != ""
}

// rollout returns the rollout's staging, with the gate's limits defaulted.
func (s Staging) rollout() rollout.Staging {
	st := rollout.Staging{Canary: s.Canary, Batch: s.Batch, MaxFailures: s.MaxFailures, Pause: s.Pause, Order: s.Order, Window: s.Window}
	if s.gated() {
		st.Gate = &rollout.Gate{MaxPausePerSec: DefaultMaxPause}
		if s.MaxPause != nil {
			st.Gate.MaxPausePerSec = *s.MaxPause
		}
		if s.MaxDrops != nil {
			st.Gate.MaxDropsPerSec = *s.MaxDrops
		}
		if s.MaxWatchdog != nil {
			st.Gate.MaxWatchdog = *s.MaxWatchdog
		}
	}
	return st
}
