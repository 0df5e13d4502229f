package rollout_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
)

// BenchmarkRollout1000 rolls a plan out to 1,000 NX-OS lab devices with
// -batch 10% and health gates on, and reports the rollout's wall time
// against the sum of its batch times (the gap is the work between
// batches: state saves, window checks). Run with -benchtime=1x: each
// iteration needs a fresh fleet.
//
//	go test ./internal/rollout -run '^$' -bench Rollout1000 -benchtime=1x
func BenchmarkRollout1000(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		devs, _ := labFleet(b, 1000)
		st := newState(b, devs)
		b.StartTimer()
		start := time.Now()
		rep, err := rollout.Run(b.Context(), devs, st, rollout.Options{
			Staging: rollout.Staging{Batch: rollout.Size{Percent: 10}, Gate: &rollout.Gate{MaxPausePerSec: 1000}},
			Plan:    plan.Options{Parallelism: 100}, StatePath: filepath.Join(b.TempDir(), "state.json"),
		})
		total := time.Since(start)
		if err != nil || rep.Stopped != "" || len(rep.Results) != 1000 {
			b.Fatalf("rollout: %v, stopped %q, %d results", err, rep.Stopped, len(rep.Results))
		}
		var sum time.Duration
		for _, bt := range rep.Batches {
			sum += bt.Elapsed
		}
		b.ReportMetric(total.Seconds(), "total-s")
		b.ReportMetric(sum.Seconds(), "batches-s")
		b.ReportMetric(total.Seconds()/sum.Seconds(), "total/batches")
		b.ReportMetric(float64(len(rep.Batches)), "batches")
	}
}
