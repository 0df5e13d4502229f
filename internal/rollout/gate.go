package rollout

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

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

// snapshot is one read of a batch's counters: device → port → counters,
// and the mark each device's config was saved under (before a batch).
type snapshot struct {
	at    time.Time
	devs  map[string]map[string]vendors.PortCounters
	marks map[string]string
}

// read reads the counters of every device of a batch through its driver's
// Health interface, and before the batch (mark) saves each device's config
// through its Reverter; after the batch it drops the saved configs when
// forget is set. A device whose driver lacks either, or whose read fails,
// is an error: a gate never passes on counters it could not see, and
// never starts a batch it could not undo.
func read(ctx context.Context, devs []plan.Device, now func() time.Time, parallelism int, mark bool, forget map[string]string) (snapshot, error) {
	s := snapshot{devs: map[string]map[string]vendors.PortCounters{}, marks: map[string]string{}}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(parallelism, 1))
	for _, d := range devs {
		g.Go(func() error {
			err := withDriver(gctx, d, func(drv vendors.Driver) error {
				h, ok := drv.(vendors.Health)
				if !ok {
					return fmt.Errorf("%s: the %s driver cannot read health counters", d.Intent.Name, d.Intent.Vendor)
				}
				ports := make([]string, len(d.Intent.Ports))
				for i, p := range d.Intent.Ports {
					ports[i] = p.Name
				}
				c, err := h.Counters(gctx, ports)
				if err != nil {
					return err
				}
				mu.Lock()
				s.devs[d.Intent.Name] = c
				mu.Unlock()
				rv, ok := drv.(vendors.Reverter)
				switch {
				case mark && !ok:
					return fmt.Errorf("%s: the %s driver cannot save the config to restore it", d.Intent.Name, d.Intent.Vendor)
				case mark:
					m, err := rv.Mark(gctx)
					if err != nil {
						return err
					}
					mu.Lock()
					s.marks[d.Intent.Name] = m
					mu.Unlock()
				case ok && forget[d.Intent.Name] != "":
					return rv.Forget(gctx, forget[d.Intent.Name])
				}
				return nil
			})
			return err // drivers name the device
		})
	}
	err := g.Wait()
	s.at = now()
	return s, err
}

// withDriver runs f with a session to d.
func withDriver(ctx context.Context, d plan.Device, f func(vendors.Driver) error) error {
	v, ok := vendors.Lookup(d.Intent.Vendor)
	if !ok {
		return fmt.Errorf("no driver for vendor %q", d.Intent.Vendor)
	}
	drv, err := v.Dial(ctx, d.Target)
	if err != nil {
		return err
	}
	defer drv.Close()
	return f(drv)
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
