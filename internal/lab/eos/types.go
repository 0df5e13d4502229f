package eos

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// ports is the most front-panel ports of any model in models: the
// grammar's interface type accepts up to it, and a device of a smaller
// model refuses the ports it lacks (checkIfs).
const ports = 64

// models are the Arista models the lab emulates, with their number of
// front-panel ports, Ethernet1 to EthernetN [I: from Arista's data sheets:
// DCS-7050CX3-32S 32 x 100G QSFP; DCS-7060CX-32S 32 x 100G QSFP;
// DCS-7060DX4-32 32 x 400G QSFP-DD; DCS-7060DX5-64S 64 x 400G QSFP-DD;
// each also has two SFP+ ports, Ethernet33-34 or Ethernet65-66, not
// emulated]. The grammar is the same on all of them.
var models = map[string]int{
	"DCS-7050CX3-32S": 32,
	"DCS-7060CX-32S":  32,
	"DCS-7060DX4-32":  32,
	"DCS-7060DX5-64S": 64,
}

// ifTypes are the interface types EOS accepts, typed in any case and
// abbreviated to any unambiguous prefix ("et1", "Eth1", "lo0"); short is
// the prompt form (eos.md §4: Ethernet1 → Et1).
var ifTypes = []struct{ long, short string }{
	{"Ethernet", "Et"},
	{"Loopback", "Lo"},
	{"Management", "Ma"},
	{"Port-Channel", "Po"},
	{"Vlan", "Vl"},
	{"Vxlan", "Vx"},
}

// splitIf cuts "et1-2" into the interface type and the number part.
func splitIf(tok string) (long, short, num string, ok bool) {
	i := strings.IndexFunc(tok, func(r rune) bool { return r >= '0' && r <= '9' })
	if i <= 0 {
		return "", "", "", false
	}
	word := strings.ToLower(tok[:i])
	hits := 0
	for _, t := range ifTypes {
		if strings.HasPrefix(strings.ToLower(t.long), word) {
			long, short = t.long, t.short
			hits++
		}
	}
	return long, short, tok[i:], hits == 1
}

// expandIfs turns an interface list ("Ethernet1-2,5", "Et1/1", "lo0")
// into interface names.
func expandIfs(tok string) ([]string, error) { return expandIfsMax(tok, ports) }

// expandIfsMax is expandIfs on a switch with count front-panel ports.
func expandIfsMax(tok string, count int) ([]string, error) {
	var out []string
	long := ""
	for _, part := range strings.Split(tok, ",") {
		l, _, num, ok := splitIf(part)
		if !ok {
			if long == "" {
				return nil, fmt.Errorf("bad interface %q", part)
			}
			l, num = long, part
		}
		long = l
		first, last, isRange := strings.Cut(num, "-")
		prefix, a, err := splitNum(first)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(last); err != nil || b < a {
				return nil, fmt.Errorf("bad range %q", part)
			}
		}
		if l == "Ethernet" && prefix == "" && b > count {
			return nil, fmt.Errorf("no interface %q", part)
		}
		for p := a; p <= b; p++ {
			out = append(out, fmt.Sprintf("%s%s%d", l, prefix, p))
		}
	}
	return out, nil
}

// splitNum cuts "1/3" into "1/" and 3.
func splitNum(s string) (string, int, error) {
	i := strings.LastIndexByte(s, '/')
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 0 {
		return "", 0, fmt.Errorf("bad interface number %q", s)
	}
	return s[:i+1], n, nil
}

// ifArg is the Type of an interface (range) argument: it keeps the list
// as typed with the type spelled out ("Ethernet1-2").
func ifArg(tok string) (string, *grammar.Error) {
	if _, err := expandIfs(tok); err != nil {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	var parts []string
	for _, part := range strings.Split(tok, ",") {
		if l, _, num, ok := splitIf(part); ok {
			part = l + num
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ","), nil
}

// shortIf is the prompt form of an interface list ("Et1-2").
func shortIf(list string) string {
	var parts []string
	for _, part := range strings.Split(list, ",") {
		if _, s, num, ok := splitIf(part); ok {
			part = s + num
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ",")
}

// seconds is a Type for a time in seconds with at most places decimals
// within [lo, hi] (eos.md §1a watchdog timers), kept as typed.
func seconds(lo, hi float64, places int) grammar.Type {
	return func(tok string) (string, *grammar.Error) {
		v, err := strconv.ParseFloat(tok, 64)
		if err != nil || strings.ContainsAny(tok, "eE+-") {
			return "", &grammar.Error{Kind: grammar.Invalid}
		}
		if _, frac, ok := strings.Cut(tok, "."); ok && len(frac) > places {
			return "", &grammar.Error{Kind: grammar.Invalid}
		}
		if v < lo || v > hi {
			return "", &grammar.Error{Kind: grammar.OutOfRange}
		}
		return tok, nil
	}
}

// hms is a Type for a commit timer hh:mm:ss.
func hms(tok string) (string, *grammar.Error) {
	if _, err := parseHMS(tok); err != nil {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	return tok, nil
}

func parseHMS(tok string) (int, error) {
	f := strings.Split(tok, ":")
	if len(f) != 3 {
		return 0, fmt.Errorf("bad timer %q", tok)
	}
	var secs int
	for i, lim := range []int{1 << 20, 59, 59} {
		n, err := strconv.Atoi(f[i])
		if err != nil || n < 0 || n > lim || len(f[i]) != 2 {
			return 0, fmt.Errorf("bad timer %q", tok)
		}
		secs = secs*60 + n
	}
	return secs, nil
}

// prefixed is a Type for "PREFIX:NAME" file URLs ("checkpoint:c1",
// "flash:rollback-0"); the value is NAME.
func prefixed(prefix string) grammar.Type {
	return func(tok string) (string, *grammar.Error) {
		name, ok := strings.CutPrefix(tok, prefix+":")
		if !ok || name == "" || strings.ContainsAny(name, "/:") {
			return "", &grammar.Error{Kind: grammar.Invalid}
		}
		return name, nil
	}
}

var types = map[string]grammar.Type{
	"checkpoint": prefixed("checkpoint"),
	"flash":      prefixed("flash"),
	"ifs":        ifArg,
	"timeout":    seconds(0.01, 60, 2),
	"recover":    seconds(0.01, 60, 2),
	"poll":       seconds(0.005, 30, 3),
	"hms":        hms,
	"big":        grammar.IntRange(1, 256000000),
	"reserved":   grammar.IntRange(0, 256000000),
	"vlans":      vlanList,
	"rate":       grammar.IntRange(1, 1<<40),
}
