package device

import "sync"

// PortCounters are one port's health counters, vendor-neutral; each
// personality prints them in its own show command's format.
type PortCounters struct {
	// PauseRx and PauseTx are PFC pause frames per priority (CoS 0-7).
	PauseRx, PauseTx [8]uint64
	// ECNMarked is the number of packets marked CE.
	ECNMarked uint64
	// Drops are no-buffer and queue drops.
	Drops uint64
	// Watchdog is the number of PFC watchdog events (queue shutdowns).
	Watchdog uint64
}

// What one read of a climbing port adds (Faults.ClimbAfterChange): a pause
// storm on the RoCE priority, drops, and a watchdog shutdown.
const (
	ClimbPriority = 3
	ClimbPause    = 250_000
	ClimbECN      = 50_000
	ClimbDrops    = 10_000
	ClimbWatchdog = 1
)

// Counters are a device's health counters. The zero value is ready: every
// port reads zero until Add. Safe for concurrent use.
type Counters struct {
	mu       sync.Mutex
	ports    map[string]*PortCounters
	climbing bool
}

// CounterDevice is implemented by devices that keep health counters.
type CounterDevice interface {
	Counters() *Counters
}

// Add adds d to port's counters.
func (c *Counters) Add(port string, d PortCounters) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.port(port)
	for i := range 8 {
		p.PauseRx[i] += d.PauseRx[i]
		p.PauseTx[i] += d.PauseTx[i]
	}
	p.ECNMarked += d.ECNMarked
	p.Drops += d.Drops
	p.Watchdog += d.Watchdog
}

func (c *Counters) port(name string) *PortCounters {
	if c.ports == nil {
		c.ports = map[string]*PortCounters{}
	}
	p, ok := c.ports[name]
	if !ok {
		p = &PortCounters{}
		c.ports[name] = p
	}
	return p
}

// Changed is called by a personality when its config changed: with
// f.ClimbAfterChange set, the counters climb from now on.
func (c *Counters) Changed(f *Faults) {
	if !f.Load().ClimbAfterChange {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.climbing = true
}

// Climbing reports whether the counters climb on every read.
func (c *Counters) Climbing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.climbing
}

// Read returns port's counters as a show command prints them; when the
// counters climb, the read first adds the Climb amounts.
func (c *Counters) Read(port string) PortCounters {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.port(port)
	if c.climbing {
		p.PauseRx[ClimbPriority] += ClimbPause
		p.PauseTx[ClimbPriority] += ClimbPause
		p.ECNMarked += ClimbECN
		p.Drops += ClimbDrops
		p.Watchdog += ClimbWatchdog
	}
	return *p
}
