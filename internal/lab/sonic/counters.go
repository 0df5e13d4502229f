package sonic

import (
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// Counters returns the device's health counters (device.CounterDevice).
func (d *Device) Counters() *device.Counters { return &d.counters }

// showCounters runs the counter commands of reference/sonic.md "Counters
// for health checks": `show pfc counters` (pfcstat: an Rx and a Tx table,
// thousands separators) and `show pfcwd stats` (rows of queues that saw
// an event, Ethernet0:3 style). Ports are CONFIG_DB's PORT keys in natural
// order. ok is false for any other show command.
func (s *Session) showCounters(args []string) (string, bool) {
	cmd := strings.Join(args, " ")
	if cmd != "pfc counters" && cmd != "pfcwd stats" {
		return "", false
	}
	s.d.mu.Lock()
	ports := make([]string, 0, len(s.d.db["PORT"]))
	for p := range s.d.db["PORT"] {
		ports = append(ports, p)
	}
	s.d.mu.Unlock()
	sortNatural(ports)
	s.status = 0
	cs := make([]device.PortCounters, len(ports))
	for i, p := range ports {
		cs[i] = s.d.counters.Read(p)
	}
	var b strings.Builder
	if cmd == "pfc counters" {
		for _, dir := range []string{"Rx", "Tx"} {
			fmt.Fprintf(&b, "  Port %s    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n", dir)
			b.WriteString("---------  ------  ------  ------  ------  ------  ------  ------  ------\n")
			for i, p := range ports {
				v := cs[i].PauseRx
				if dir == "Tx" {
					v = cs[i].PauseTx
				}
				fmt.Fprintf(&b, "%9s", p)
				for _, n := range v {
					fmt.Fprintf(&b, "  %6s", thousands(n))
				}
				b.WriteString("\n")
			}
			if dir == "Rx" {
				b.WriteString("\n")
			}
		}
		return b.String(), true
	}
	b.WriteString("      QUEUE       STATUS    STORM DETECTED/RESTORED    TX OK/DROP    RX OK/DROP    TX LAST OK/DROP    RX LAST OK/DROP\n")
	b.WriteString("-----------  -----------  -------------------------  ------------  ------------  -----------------  -----------------\n")
	for i, p := range ports {
		c := cs[i]
		if c.Watchdog == 0 && c.Drops == 0 {
			continue // all pairs 0/0: dropped without -e
		}
		status := "operational"
		if c.Watchdog > 0 {
			status = "stormed"
		}
		fmt.Fprintf(&b, "%11s  %11s  %25s  %12s  %12s  %17s  %17s\n", fmt.Sprintf("%s:%d", p, device.ClimbPriority), status,
			fmt.Sprintf("%d/%d", c.Watchdog, 0), fmt.Sprintf("%d/%d", 0, c.Drops), "0/0", fmt.Sprintf("%d/%d", 0, c.Drops), "0/0")
	}
	return b.String(), true
}

// thousands prints n with comma separators, as pfcstat does.
func thousands(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
