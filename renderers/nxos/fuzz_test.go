package nxos

import (
	"errors"
	"testing"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/renderers"
)

// FuzzRender varies the numbers of the canonical device: the renderer
// returns a document or an *renderers.UnsupportedError, never panics, and
// renders the same device to the same bytes.
func FuzzRender(f *testing.F) {
	f.Add(3, 7, 24, int64(150*1024), int64(3000*1024), int64(0), 7, 50, 9216, 1, int64(200))
	f.Add(7, 0, 63, int64(150000), int64(1), int64(10000), 100, 0, 0, 9, int64(0))
	f.Add(-1, 8, 64, int64(-5), int64(1<<40), int64(-1), -3, 101, 70000, -2, int64(-7))
	f.Fuzz(func(t *testing.T, id, cnp, dscp int, min, max, minTime int64, prob, bw, mtu, level int, wdMS int64) {
		d := canonical()
		c := d.QoS.Class(3)
		c.ID, c.DSCP, c.MTU = id, []int{dscp}, mtu
		c.ECN.Min = intent.Threshold{Bytes: units.Bytes(min), Time: time.Duration(minTime)}
		c.ECN.Max = intent.Threshold{Bytes: units.Bytes(max)}
		c.ECN.MaxProbability = units.Percent(prob)
		c.Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: units.Percent(bw)}
		last := &d.QoS.Classes[len(d.QoS.Classes)-1]
		last.ID, last.Scheduling.Level = cnp, level
		d.QoS.PFC.Watchdog.Detection = time.Duration(wdMS) * time.Millisecond
		a, errA := Render(d)
		b, errB := Render(d)
		var ue *renderers.UnsupportedError
		switch {
		case errA != nil && !errors.As(errA, &ue):
			t.Fatalf("error is not an UnsupportedError: %v", errA)
		case (errA == nil) != (errB == nil):
			t.Fatal("two renderings disagree on failing")
		case errA == nil && string(a.Text) != string(b.Text):
			t.Fatal("two renderings differ")
		}
	})
}
