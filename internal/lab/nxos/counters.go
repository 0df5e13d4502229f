package nxos

import (
	"errors"
	"fmt"
	"strconv"
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
// health checks" (Nexus 93180FX2 transcript [C:hc-zartbot]). Admin Mode
// is the port's priority-flow-control mode line (On, Off, or Auto
// without one); Oper Mode is On or Off: the lab has no DCBX peer to
// agree PFC with, so Auto operates Off (the reference's summary row
// "Ethernet1/47  Auto Off" [C:hc-n5k]). The VL bitmap is the PFC CoS set
// in hex, from the pause pfc-cos lines of the network-qos policy under
// system qos, when PFC operates (nxos.md: "20" = CoS 5, CoS 3 → "8" [I]).
func doShowPFC(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	var b strings.Builder
	vl := pfcBitmap(s.d.tree)
	for _, name := range s.shown(m) {
		admin, oper, bitmap := pfcModes(s.d.tree, "interface "+name, vl)
		c := s.d.counters.Read(name)
		var rx, tx uint64
		for i := range 8 {
			rx += c.PauseRx[i]
			tx += c.PauseTx[i]
		}
		fmt.Fprintf(&b, "%s\n    Admin Mode: %s\n    Oper Mode: %s\n    VL bitmap: (%s)\n    Total Rx PFC Frames: %d\n    Total Tx PFC Frames: %d\n", name, admin, oper, bitmap, rx, tx)
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

// pfcSummaryRule is the rule of show interface priority-flow-control.
var pfcSummaryRule = strings.Repeat("=", 60) + "\n"

// doShowPFCSummary prints `show interface [IFS] priority-flow-control`:
// per port its mode, oper state with the VL bitmap, and the PFC frames
// received and sent, between "====" rules (reference/nxos.md "Counters
// for health checks": "Port  Mode Oper(VL bmap)  RxPPP  TxPPP", rows like
// "Ethernet1/47  Auto Off  7316  762946" [C:hc-n5k]; the column widths
// and "On (8)" for an operating port's bitmap are [I]).
func doShowPFCSummary(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	var b strings.Builder
	vl := pfcBitmap(s.d.tree)
	b.WriteString(pfcSummaryRule)
	fmt.Fprintf(&b, "%-19s%-5s%-15s%-11s%s\n", "Port", "Mode", "Oper(VL bmap)", "RxPPP", "TxPPP")
	b.WriteString(pfcSummaryRule + "\n")
	for _, name := range s.shown(m) {
		admin, oper, bitmap := pfcModes(s.d.tree, "interface "+name, vl)
		if oper == "On" {
			oper += " (" + bitmap + ")"
		}
		c := s.d.counters.Read(name)
		var rx, tx uint64
		for i := range 8 {
			rx += c.PauseRx[i]
			tx += c.PauseTx[i]
		}
		fmt.Fprintf(&b, "%-19s%-5s%-15s%-11d%d\n", name, admin, oper, rx, tx)
	}
	return b.String(), false
}

// pfcModes are a port's admin and oper PFC modes and its VL bitmap (vl
// when PFC operates, else 0): see doShowPFC.
func pfcModes(t *grammar.Tree, stanza, vl string) (admin, oper, bitmap string) {
	admin, oper, bitmap = "Auto", "Off", "0"
	for _, n := range t.Root.Sorted() {
		if n.Text != stanza {
			continue
		}
		for _, k := range n.Sorted() {
			switch {
			case strings.HasPrefix(k.Text, "priority-flow-control mode on"):
				admin, oper, bitmap = "On", "On", vl
			case k.Text == "priority-flow-control mode off":
				admin = "Off"
			}
		}
	}
	return admin, oper, bitmap
}

// pfcBitmap is the PFC CoS set of the network-qos policy system qos
// attaches, in hex ("8" for CoS 3), "0" when there is none.
func pfcBitmap(t *grammar.Tree) string {
	policy := ""
	for _, n := range t.Root.Children {
		if n.Text != "system qos" {
			continue
		}
		for _, k := range n.Children {
			if v, ok := strings.CutPrefix(k.Text, "service-policy type network-qos "); ok {
				policy = "policy-map type network-qos " + v
			}
		}
	}
	bits := 0
	for _, n := range t.Root.Children {
		if policy == "" || n.Text != policy {
			continue
		}
		for _, c := range n.Children {
			for _, l := range c.Children {
				f := strings.Fields(l.Text)
				for i, w := range f {
					if w == "pfc-cos" && i+1 < len(f) {
						bits |= cosBits(f[i+1])
					}
				}
			}
		}
	}
	return strconv.FormatInt(int64(bits), 16)
}

// listPart reads one part of an NX-OS value list ("3" or "2-4", as in
// VLAN and CoS lists): its first and last value, ok false when either is
// not a number.
func listPart(part string) (first, last int, ok bool) {
	lo, hi, isRange := strings.Cut(part, "-")
	a, err := strconv.Atoi(lo)
	if err != nil {
		return 0, 0, false
	}
	if !isRange {
		return a, a, true
	}
	b, err := strconv.Atoi(hi)
	return a, b, err == nil
}

// cosBits is a CoS list ("3", "3,4", "2-4") as a bit mask.
func cosBits(list string) int {
	bits := 0
	for _, part := range strings.Split(list, ",") {
		a, b, ok := listPart(part)
		if !ok {
			continue
		}
		for v := a; v <= b && v >= 0 && v < 8; v++ {
			bits |= 1 << v
		}
	}
	return bits
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
