package nxos

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// Counters returns the device's health counters (device.CounterDevice);
// tests add to them, and Faults.ClimbAfterChange makes them climb.
func (d *Device) Counters() *device.Counters { return &d.counters }

// pfcRule is the rule line of show interface priority-flow-control detail.
var pfcRule = "    " + strings.Repeat("-", 117) + "\n"

// doShowPFC prints `show interface [IFS] priority-flow-control detail` for
// the named ports or every front-panel port, in the layout of reference/nxos.md "Counters for
// health checks" (Nexus 93180FX2 transcript [C:hc-zartbot]). Admin and
// Oper Mode follow the port's priority-flow-control mode line; the VL
// bitmap is CoS 3 (8) when PFC is on [I: bitmap meaning per the
// reference].
func doShowPFC(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	var b strings.Builder
	for _, name := range s.shown(m) {
		mode, bitmap := "Auto", "0"
		if pfcOn(s.d.tree, "interface "+name) {
			mode, bitmap = "On", "8"
		}
		c := s.d.counters.Read(name)
		var rx, tx uint64
		for i := range 8 {
			rx += c.PauseRx[i]
			tx += c.PauseTx[i]
		}
		fmt.Fprintf(&b, "%s\n    Admin Mode: %s\n    Oper Mode: %s\n    VL bitmap: (%s)\n    Total Rx PFC Frames: %d\n    Total Tx PFC Frames: %d\n", name, mode, mode, bitmap, rx, tx)
		b.WriteString(pfcRule)
		b.WriteString("        |")
		for i := range 8 {
			fmt.Fprintf(&b, "  Priority%d  |", i)
		}
		b.WriteString("\n" + pfcRule)
		row := func(label string, v [8]uint64) {
			b.WriteString("    " + label + "  ")
			for i := range 8 {
				cell := fmt.Sprintf("|%-13d", v[i])
				if i == 7 {
					cell = strings.TrimRight(cell, " ")
				}
				b.WriteString(cell)
			}
			b.WriteString("\n")
		}
		row("Rx", c.PauseRx)
		b.WriteString(pfcRule)
		row("Tx", c.PauseTx)
	}
	return b.String(), false
}

// checkCounterIfs is checkIfs for the counter commands, whose interface
// argument is followed by more words: the word after "interface".
func checkCounterIfs(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) string {
	if s.d.ports >= ports {
		return ""
	}
	toks := grammar.Split(s.line)
	for i, tok := range toks[:max(len(toks)-1, 0)] {
		if tok.Text != "interface" {
			continue
		}
		arg := toks[i+1]
		_, err := expandIfsMax(arg.Text, s.d.ports)
		switch {
		case err == nil:
			return ""
		case errors.Is(err, errRangeBad):
			return caret(s.linePrompt, arg.Pos) + errBadRange
		}
		return caret(s.linePrompt, arg.Pos) + errInvalid
	}
	return ""
}

// shown returns the ports a counter show command names (its "if"
// argument), or every front-panel port.
func (s *session) shown(m grammar.Match) []string {
	if m.Has("if") {
		return strings.Split(m.Args["if"], ",")
	}
	out := make([]string, s.d.ports)
	for p := range s.d.ports {
		out[p] = fmt.Sprintf("Ethernet1/%d", p+1)
	}
	return out
}

// pfcOn reports whether the stanza has priority-flow-control mode on.
func pfcOn(t *grammar.Tree, stanza string) bool {
	for _, n := range t.Root.Sorted() {
		if n.Text != stanza {
			continue
		}
		for _, k := range n.Sorted() {
			if k.Text == "priority-flow-control mode on" {
				return true
			}
		}
	}
	return false
}

// doShowPFCQueue prints `show queuing pfc-queue [interface IFS] detail`:
// per port the
// watchdog block of reference/nxos.md "Counters for health checks" for
// qos-group 3 (the RoCE class), its Shutdown row the watchdog events
// [C:hc-gotest layout]; drained and dropped packets follow the drops
// counter [I].
func doShowPFCQueue(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	var b strings.Builder
	rule := "+----------------------------------------------------+\n"
	for _, name := range s.shown(m) {
		c := s.d.counters.Read(name)
		state := "Enabled"
		if c.Watchdog > 0 {
			state = "Shutdown"
		}
		fmt.Fprintf(&b, "%s Interface PFC watchdog: [Enabled]\nDisable-action                     : No\nPFC watch-dog interface-multiplier : 0\n", name)
		b.WriteString(rule)
		fmt.Fprintf(&b, "| QOS GROUP 3 [%s] PFC [YES] PFC-COS [3]\n", state)
		b.WriteString(rule)
		b.WriteString("|                               |  Stats             |\n")
		b.WriteString(rule)
		for _, r := range []struct {
			label string
			v     uint64
		}{
			{"Shutdown", c.Watchdog}, {"Restored", c.Watchdog}, {"Total pkts drained", c.Drops}, {"Total pkts dropped", 0},
			{"Total pkts drained + dropped", c.Drops}, {"Aggregate pkts dropped", 0}, {"Total Ingress pkts dropped", 0}, {"Aggregate Ingress pkts dropped", 0},
		} {
			fmt.Fprintf(&b, "|%31s|%20d|\n", r.label, r.v)
		}
		b.WriteString(rule)
	}
	return b.String(), false
}
