package nxos

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// ports is the most front-panel ports of any model in models (the
// Nexus 9000v's 128): the grammar's interface type accepts up to it, and
// a device of a smaller model refuses the ports it lacks (checkIfs).
const ports = 128

// models are the Nexus 9300 models the lab emulates, with their number of
// front-panel ports, Ethernet1/1 to Ethernet1/N [I: from Cisco's Nexus
// 9300 data sheets: N9K-C9364D-GX2A 64 x 400G QSFP-DD; N9K-C93600CD-GX
// 28 x 100G QSFP28 then 8 x 400G QSFP-DD; N9K-C93180YC-FX 48 x 25G SFP28
// then 6 x 100G QSFP28; breakout ports are not emulated]; and the Nexus
// 9000v virtual switch of scrapligo's recording (testdata/scrapligo-show-run.txt,
// NX-OS 9.2(4): Ethernet1/1-128). The grammar is the same on all of them.
var models = map[string]int{
	"N9K-C9364D-GX2A": 64,
	"N9K-C93600CD-GX": 36,
	"N9K-C93180YC-FX": 54,
	"N9K-9000v":       128,
}

// dscpNames are the DSCP names NX-OS accepts in match dscp
// (reference/nxos.md §2: names such as cs3, af31 [I]).
var dscpNames = map[string]bool{
	"default": true, "ef": true,
	"cs1": true, "cs2": true, "cs3": true, "cs4": true, "cs5": true, "cs6": true, "cs7": true,
	"af11": true, "af12": true, "af13": true, "af21": true, "af22": true, "af23": true,
	"af31": true, "af32": true, "af33": true, "af41": true, "af42": true, "af43": true,
}

// precNames are the IP precedence names NX-OS accepts for 0-7 (Nexus
// 9000 QoS Configuration Guide 7.x, Table "Precedence Values": routine,
// priority, immediate, flash, flash-override, critical, internet,
// network).
var precNames = map[string]bool{
	"routine": true, "priority": true, "immediate": true, "flash": true,
	"flash-override": true, "critical": true, "internet": true, "network": true,
}

// numList is a Type for NX-OS value lists: comma-separated values and
// ranges ("24,26", "24-31") within [0, hi], plus names when names is set.
func numList(hi int64, names map[string]bool) grammar.Type {
	return func(tok string) (string, *grammar.Error) {
		for _, part := range strings.Split(tok, ",") {
			if names[strings.ToLower(part)] {
				continue
			}
			vals := []string{part}
			if lo, up, isRange := strings.Cut(part, "-"); isRange {
				vals = []string{lo, up}
			}
			for _, v := range vals {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return "", &grammar.Error{Kind: grammar.Invalid}
				}
				if n < 0 || n > hi {
					return "", &grammar.Error{Kind: grammar.OutOfRange, Lo: 0, Hi: hi}
				}
			}
		}
		return strings.ToLower(tok), nil
	}
}

// ifPrefixes are the interface-type words NX-OS accepts, abbreviated to
// any prefix ("e1/1", "eth1/1", "int lo0").
var ifPrefixes = []string{"ethernet", "loopback", "port-channel", "vlan", "mgmt"}

// ifNames spell the types as show running-config does ([leaf93]:
// Ethernet1/1, Vlan100, mgmt0, loopback0).
var ifNames = map[string]string{"ethernet": "Ethernet", "loopback": "loopback", "port-channel": "port-channel", "vlan": "Vlan", "mgmt": "mgmt"}

// ifNumbers bound the number of each type that is not slot/port:
// loopback 0-1023, port-channel 1-4096, Vlan 1-4094, mgmt0 only
// (Nexus 9000 Interfaces Configuration Guide).
var ifNumbers = map[string][2]int{"loopback": {0, 1023}, "port-channel": {1, 4096}, "Vlan": {1, 4094}, "mgmt": {0, 0}}

// splitIf cuts "eth1/1-2" into the spelled-out type and the number part.
func splitIf(tok string) (typ, num string, ok bool) {
	i := strings.IndexFunc(tok, func(r rune) bool { return r >= '0' && r <= '9' })
	if i <= 0 {
		return "", "", false
	}
	word := strings.ToLower(tok[:i])
	var hit string
	for _, p := range ifPrefixes {
		if strings.HasPrefix(p, word) {
			if hit != "" {
				return "", "", false
			}
			hit = p
		}
	}
	if hit == "" {
		return "", "", false
	}
	return ifNames[hit], tok[i:], true
}

// ifType is the Type of an interface type typed apart from its number
// ("ethernet", "Eth", "port-channel"): any case, any unambiguous prefix;
// the value is the type as show running-config spells it.
func ifType(tok string) (string, *grammar.Error) {
	if tok == "" || strings.IndexFunc(tok, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	typ, _, ok := splitIf(tok + "0")
	if !ok {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	return typ, nil
}

// ifNumber is the Type of an interface number typed apart from its type
// ("1/21", "1/1-4", "10"); ifList checks it against the type.
func ifNumber(tok string) (string, *grammar.Error) {
	if tok == "" || tok[0] < '0' || tok[0] > '9' || strings.Trim(tok, "0123456789/-,") != "" {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	return tok, nil
}

// expandIfs turns an interface list ("Ethernet1/1-2,Eth1/5", "lo0") into
// interface names, or reports it as a bad range.
func expandIfs(tok string) ([]string, error) { return expandIfsMax(tok, ports) }

// expandIfsMax is expandIfs on a switch with count front-panel ports.
func expandIfsMax(tok string, count int) ([]string, error) {
	var out []string
	typ := ""
	for _, part := range strings.Split(tok, ",") {
		t, num, ok := splitIf(part)
		if !ok {
			if typ == "" {
				return nil, fmt.Errorf("bad interface %q", part)
			}
			t, num = typ, part
		}
		typ = t
		if t == "Ethernet" {
			slotPort, last, isRange := strings.Cut(num, "-")
			slot, first, ok := strings.Cut(slotPort, "/")
			if !ok || slot != "1" {
				return nil, fmt.Errorf("bad interface %q", part)
			}
			a, err := strconv.Atoi(first)
			if err != nil || a < 1 || a > count {
				return nil, fmt.Errorf("bad interface %q", part)
			}
			b := a
			if isRange {
				b, err = strconv.Atoi(last)
				if err != nil || b < a || b > count {
					return nil, fmt.Errorf("interface %q: %w", part, errRangeBad)
				}
			}
			for p := a; p <= b; p++ {
				out = append(out, fmt.Sprintf("Ethernet1/%d", p))
			}
			continue
		}
		n, err := strconv.Atoi(num)
		if b := ifNumbers[t]; err != nil || n < b[0] || n > b[1] {
			return nil, fmt.Errorf("bad interface %q", part)
		}
		out = append(out, fmt.Sprintf("%s%d", t, n))
	}
	return out, nil
}

// errRangeBad marks an interface range whose end is before its start or
// beyond the last port.
var errRangeBad = errors.New("bad range")

// detailRange is the grammar.Error detail of a bad interface range.
const detailRange = "range"

// ifList is the Type of an interface (range) argument, normalized to the
// comma-joined list of interfaces.
func ifList(tok string) (string, *grammar.Error) {
	ifs, err := expandIfs(tok)
	if errors.Is(err, errRangeBad) {
		return "", &grammar.Error{Kind: grammar.Invalid, Detail: detailRange}
	}
	if err != nil {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	return strings.Join(ifs, ","), nil
}

// bytesOf converts an NX-OS threshold to bytes; packets do not convert.
func bytesOf(v, unit string) (int64, bool) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	switch unit {
	case "bytes":
		return n, true
	case "kbytes":
		return n * 1024, true
	case "mbytes":
		return n * 1024 * 1024, true
	}
	return 0, false
}

// bootflash is the Type of a "bootflash:FILE" argument; the value is FILE.
func bootflash(tok string) (string, *grammar.Error) {
	name, ok := strings.CutPrefix(tok, "bootflash:")
	name = strings.TrimPrefix(name, "/")
	if !ok || name == "" || strings.ContainsAny(name, "/:") {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	return name, nil
}
