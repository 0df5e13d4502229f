package huaweice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// Counters returns the device's health counters (device.CounterDevice).
func (d *Device) Counters() *device.Counters { return &d.counters }

// dcbRule is the rule of display dcb pfc.
var dcbRule = strings.Repeat("-", 89) + "\n"

// displayDCBPFC prints `display dcb pfc [interface IF]` in the layout of
// reference/huawei-ce.md "Counters for health checks" [C:hc-S1]: two
// lines per PFC queue, frames and pps received and DeadlockNum, then
// frames and pps sent and RecoveryNum. Queue 3 (the reference intent's
// lossless queue) is always shown, other queues when they counted
// anything [I: one row per PFC-enabled queue].
func (s *Session) displayDCBPFC(a args) string {
	var ports []string
	if a["if"] != "" {
		s.d.mu.Lock()
		ok := s.d.ports[a["if"]]
		s.d.mu.Unlock()
		if !ok {
			return "Error: The interface does not exist.\n"
		}
		ports = []string{a["if"]}
	} else {
		s.d.mu.Lock()
		for p := range s.d.ports {
			ports = append(ports, p)
		}
		s.d.mu.Unlock()
		slices.SortFunc(ports, func(x, y string) int {
			switch {
			case naturalLess(x, y):
				return -1
			case naturalLess(y, x):
				return 1
			}
			return 0
		})
	}
	var b strings.Builder
	b.WriteString(dcbRule)
	b.WriteString("Interface         Queue         Received(Frames)        ReceivedRate(pps)     DeadlockNum\n")
	b.WriteString("                             Transmitted(Frames)     TransmittedRate(pps)     RecoveryNum\n")
	b.WriteString(dcbRule)
	for _, p := range ports {
		c := s.d.counters.Read(p)
		for q := range 8 {
			if q != device.ClimbPriority && c.PauseRx[q] == 0 && c.PauseTx[q] == 0 {
				continue
			}
			var dead uint64
			if q == device.ClimbPriority {
				dead = c.Watchdog
			}
			fmt.Fprintf(&b, "%s%*d%24d%25d%16d\n", p, max(24-len(p), 2), q, c.PauseRx[q], 0, dead)
			fmt.Fprintf(&b, "%48d%25d%16d\n", c.PauseTx[q], 0, dead)
		}
		b.WriteString(dcbRule)
	}
	return b.String()
}
