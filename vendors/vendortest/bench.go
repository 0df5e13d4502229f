package vendortest

import (
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
)

// BenchTextDiffShare measures, under name, the plan of running against
// desired (name/plan, as BenchDiff); textdiff.Unified alone on have and
// want, the two texts that plan's human diff compares (name/textdiff);
// and the two in turn, reporting the text diff's share of the plan
// (name/share, turn by turn, so that a loaded machine slows both alike).
// It first fails b unless have and want give the plan's own human diff.
func BenchTextDiffShare(b *testing.B, name string, diff vendors.DiffFunc, running []byte, desired *config.Document, have, want string) {
	b.Helper()
	ch, err := diff(DeviceName, running, desired)
	if err != nil {
		b.Fatal(err)
	}
	aName, bName := DeviceName+" running (scope)", DeviceName+" desired"
	if got := textdiff.Unified(aName, bName, have, want); got != ch.Diff {
		b.Fatalf("%s: the texts rebuilt here are not those Diff compares: Diff printed %d lines, they give %d",
			name, strings.Count(ch.Diff, "\n"), strings.Count(got, "\n"))
	}
	b.Run(name+"/plan", func(b *testing.B) {
		b.ReportAllocs()
		BenchDiff(b, diff, running, desired)
	})
	b.Run(name+"/textdiff", func(b *testing.B) {
		b.ReportAllocs()
		cpu := CPUTime()
		for b.Loop() {
			textdiff.Unified(aName, bName, have, want)
		}
		b.ReportMetric(float64(CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
	b.Run(name+"/share", func(b *testing.B) {
		var plan, text time.Duration
		for b.Loop() {
			t0 := time.Now()
			if _, err := diff(DeviceName, running, desired); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			textdiff.Unified(aName, bName, have, want)
			plan, text = plan+t1.Sub(t0), text+time.Since(t1)
		}
		b.ReportMetric(100*float64(text)/float64(plan), "textdiff-%")
	})
}
