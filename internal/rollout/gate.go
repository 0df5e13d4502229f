package rollout

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/vendors"
)

// Gate is a health gate: counters of the managed ports are read before
// and after each batch, and the batch passes only when their growth stays
// within the limits (reference/*.md "Counters for health checks": use
// deltas of two polls, never clear counters).
type Gate struct {
	// MaxPausePerSec is the most PFC pause frames (sent plus received,
	// all priorities) per second per port; 0 means no limit.
	MaxPausePerSec float64
	// MaxDropsPerSec is the most no-buffer/queue drops per second per
	// port; 0 means no limit.
	MaxDropsPerSec float64
	// MaxWatchdog is the most PFC watchdog events per port during a
	// batch (the usual limit is 0).
	MaxWatchdog uint64
	// MinInterval is the least time the rates are computed over, so that
	// a batch applied in milliseconds does not divide by almost nothing;
	// 0 means one second.
	MinInterval time.Duration
}

// snapshot is one read of a batch's counters: device → port → counters.
type snapshot struct {
	at   time.Time
	devs map[string]map[string]vendors.PortCounters
}

// sessions are the connections of a gated batch, one per device, kept
// from the counters before the batch to the counters after it (and a
// restore): a device is dialled once per batch, not once per read.
type sessions struct {
	devs        []plan.Device
	parallelism int
	clock       plan.Clock
	// drvs and marks are by index in devs, each written by its device's
	// job only; a nil driver was not dialled, an empty mark not saved.
	drvs  []vendors.Driver
	marks []string
}

func newSessions(devs []plan.Device, parallelism int, clock plan.Clock) *sessions {
	return &sessions{devs: devs, parallelism: parallelism, clock: clock,
		drvs: make([]vendors.Driver, len(devs)), marks: make([]string, len(devs))}
}

// driver returns the session to device i of the batch; nil without a gate
// (ss nil), so that the apply dials its own.
func (ss *sessions) driver(i int) vendors.Driver {
	if ss == nil {
		return nil
	}
	return ss.drvs[i]
}

// mark returns the restore point saved on device for the batch; "" when
// none was (no gate: ss nil).
func (ss *sessions) mark(device string) string {
	if ss == nil {
		return ""
	}
	for i, d := range ss.devs {
		if d.Intent.Name == device {
			return ss.marks[i]
		}
	}
	return ""
}

// each runs f for every device of the batch through the fleet runner and
// returns the first error in batch order: every device is tried, so that
// each one opened is in a known state.
func (ss *sessions) each(ctx context.Context, f func(ctx context.Context, i int, d plan.Device) error) error {
	errs := make([]error, len(ss.devs))
	_ = plan.Each(ctx, ss.devs, plan.Options{Parallelism: ss.parallelism}, func(ctx context.Context, i int, d plan.Device) error {
		errs[i] = f(ctx, i, d)
		return errs[i]
	}, func(i int, _ plan.Device, err error) { errs[i] = err })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// before dials every device of the batch, reads its counters through its
// driver's Health interface and saves its config through its Reverter. A
// device whose driver lacks either, or whose read fails, is an error: a
// gate never passes on counters it could not see, and never starts a
// batch it could not undo.
func (ss *sessions) before(ctx context.Context) (snapshot, error) {
	got := make([]map[string]vendors.PortCounters, len(ss.devs))
	err := ss.each(ctx, func(ctx context.Context, i int, d plan.Device) error {
		drv, err := plan.Dial(ctx, d)
		if err != nil {
			return err // drivers name the device
		}
		ss.drvs[i] = drv
		if got[i], err = counters(ctx, d, drv); err != nil {
			return err
		}
		rv, ok := drv.(vendors.Reverter)
		if !ok {
			return fmt.Errorf("%s: the %s driver cannot save the config to restore it", d.Intent.Name, d.Intent.Vendor)
		}
		if ss.marks[i], err = rv.Mark(ctx); err != nil {
			return fmt.Errorf("%s: save a restore point before the batch: %w", d.Intent.Name, err)
		}
		return nil
	})
	return ss.snapshot(got), err
}

// after reads the counters of every device of the batch again, over the
// sessions before opened.
func (ss *sessions) after(ctx context.Context) (snapshot, error) {
	got := make([]map[string]vendors.PortCounters, len(ss.devs))
	err := ss.each(ctx, func(ctx context.Context, i int, d plan.Device) error {
		var err error
		got[i], err = counters(ctx, d, ss.drvs[i])
		return err
	})
	return ss.snapshot(got), err
}

// snapshot stamps the counters read (by index in the batch) with the
// time.
func (ss *sessions) snapshot(got []map[string]vendors.PortCounters) snapshot {
	s := snapshot{at: ss.clock.Now(), devs: map[string]map[string]vendors.PortCounters{}}
	for i, c := range got {
		if c != nil {
			s.devs[ss.devs[i].Intent.Name] = c
		}
	}
	return s
}

// counters reads the counters of d's managed ports over drv.
func counters(ctx context.Context, d plan.Device, drv vendors.Driver) (map[string]vendors.PortCounters, error) {
	h, ok := drv.(vendors.Health)
	if !ok {
		return nil, fmt.Errorf("%s: the %s driver cannot read health counters", d.Intent.Name, d.Intent.Vendor)
	}
	ports := make([]string, len(d.Intent.Ports))
	for i, p := range d.Intent.Ports {
		ports[i] = p.Name
	}
	return h.Counters(ctx, ports)
}

// forget drops the configs saved before the batch, best effort: a mark
// left behind costs a checkpoint slot, not a change.
func (ss *sessions) forget(ctx context.Context) {
	_ = ss.each(ctx, func(ctx context.Context, i int, _ plan.Device) error {
		rv, ok := ss.drvs[i].(vendors.Reverter)
		if !ok || ss.marks[i] == "" {
			return nil
		}
		return rv.Forget(ctx, ss.marks[i])
	})
}

// close ends every session of the batch, in parallel: a polite SSH close
// waits for the device's answer.
func (ss *sessions) close(ctx context.Context) {
	_ = ss.each(ctx, func(_ context.Context, i int, _ plan.Device) error {
		if ss.drvs[i] != nil {
			_ = ss.drvs[i].Close()
		}
		return nil
	})
}

// Trip is one limit a port went over, or (Device "") why the counters
// could not be read.
type Trip struct {
	Device, Port string
	// Why says which counter grew by how much.
	Why string
}

func (t Trip) String() string {
	if t.Device == "" {
		return t.Why
	}
	return t.Device + " " + t.Port + ": " + t.Why
}

// check compares two snapshots and returns every limit exceeded, in
// device and port order.
func (g *Gate) check(before, after snapshot) []Trip {
	secs := after.at.Sub(before.at)
	minI := g.MinInterval
	if minI <= 0 {
		minI = time.Second
	}
	secs = max(secs, minI)
	var trips []Trip
	for _, dev := range slices.Sorted(maps.Keys(after.devs)) {
		for _, port := range slices.Sorted(maps.Keys(after.devs[dev])) {
			a, b := after.devs[dev][port], before.devs[dev][port]
			if n := delta(a.Pause(), b.Pause()); g.MaxPausePerSec > 0 && rate(n, secs) > g.MaxPausePerSec {
				trips = append(trips, Trip{dev, port, fmt.Sprintf("%d PFC pause frames in %s (%.0f/s, limit %.0f/s)", n, secs.Round(time.Millisecond), rate(n, secs), g.MaxPausePerSec)})
			}
			if n := delta(a.Drops, b.Drops); g.MaxDropsPerSec > 0 && rate(n, secs) > g.MaxDropsPerSec {
				trips = append(trips, Trip{dev, port, fmt.Sprintf("%d queue/no-buffer drops in %s (%.0f/s, limit %.0f/s)", n, secs.Round(time.Millisecond), rate(n, secs), g.MaxDropsPerSec)})
			}
			if n := delta(a.Watchdog, b.Watchdog); n > g.MaxWatchdog {
				trips = append(trips, Trip{dev, port, fmt.Sprintf("%d PFC watchdog events (limit %d)", n, g.MaxWatchdog)})
			}
		}
	}
	return trips
}

// delta is a counter's growth; a counter that went down was cleared, and
// its new value is the growth.
func delta(after, before uint64) uint64 {
	if after < before {
		return after
	}
	return after - before
}

func rate(n uint64, d time.Duration) float64 { return float64(n) / d.Seconds() }

func trips(ts []Trip) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, "; ")
}
