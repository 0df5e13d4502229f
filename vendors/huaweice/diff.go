package huaweice

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
)

// Scope is the part of a CloudEngine running config lossless reads and may
// change; the plan prints it.
const Scope = "display current-configuration: the PFC deadlock, dscp-mapping, headroom-pool, qos ecn enable and dcb pfc global lines; " +
	"the default PFC profile (dcb pfc); the DiffServ domains and drop-profiles lossless renders, their -N variants and <domain>-ecn* profiles; " +
	"the trust, dcb pfc enable, dcb pfc buffer, qos drr/wfq/pq/lpq and qos queue wred/ecn/weight lines of managed ports and of ports using only lossless' domains or drop-profiles, " +
	"and on ports that also use others' the lines using lossless' ones. " +
	"Other DiffServ domains, drop-profiles and PFC profiles are kept and listed; unmanaged = \"prune\" removes those no port outside the scope uses. " +
	"Everything else (port-groups, ETS profiles, MQC traffic classifiers, behaviors and policies, queue buffers and burst modes, LLDP, other interface lines) is never touched."

// Phases of a remediation, in the order the commands are typed into the
// candidate. The candidate checks each line on entry (reference/huawei-ce.md
// §1.2), so objects exist before they are referenced and are deleted only
// after no port uses them (Errata: clean interfaces before `undo diffserv
// domain` / `undo drop-profile`); the headroom pool comes before
// `dcb pfc enable` (§0, family B) and the PFC deadlock lines after the
// interface blocks (§1.2: the safe order).
const (
	phaseGlobalSet = iota
	phaseDomain
	phaseDrop
	phaseInterface
	phasePFC
	phaseDeleteDrop
	phaseDeleteDomain
	phaseGlobalRemove
)

// Steps inside a section.
const (
	// stepUndoDep removes lines others depend on being removed first:
	// `qos queue Q ecn` before its wred (§2.5), deadlock lines before
	// their priority (§1.2).
	stepUndoDep = iota
	stepUndo
	// stepUndoSched removes a scheduling range (`undo qos drr A to B`,
	// which also removes the weights of A..B: Errata) and PFC priorities.
	stepUndoSched
	stepSet
	// stepSetDep sets lines that need a line of stepSet (deadlock times
	// after `priority P`).
	stepSetDep
)

// node is a canonical config line with its identity among its siblings.
type node = clidiff.Node

// isSection reports whether a top-level line opens a view.
func isSection(text string) bool {
	return text == "dcb pfc" || strings.HasPrefix(text, "interface ") || strings.HasPrefix(text, "diffserv domain ") ||
		strings.HasPrefix(text, "drop-profile ") || (strings.HasPrefix(text, "dcb pfc ") && !strings.Contains(text[len("dcb pfc "):], " "))
}

// keyOf is a line's identity among its siblings: a new line with the same
// key replaces the old one on the device, so a changed value is one
// command (reference/huawei-ce.md §2 tables). The key is a prefix or a
// rewrite of the text.
func keyOf(text string) string {
	sp := strings.IndexByte(text, ' ')
	if sp < 0 {
		return text
	}
	switch text[:sp] {
	case "priority", "ip-dscp-inbound", "8021p-inbound", "ip-dscp-outbound", "ecn", "color", "trust", "qos", "dcb":
	default:
		return text
	}
	var buf [maxWords]string
	f := fields(text, &buf)
	if len(f) < 2 {
		return text
	}
	join := func(n int) string { return prefixWords(text, f, n) }
	switch f[0] {
	case "priority":
		if len(f) >= 3 && (f[2] == "deadlock-detect" || f[2] == "deadlock-recovery" || f[2] == "turn-off" || f[2] == "error-down") {
			return join(3)
		}
		return "priority"
	case "ip-dscp-inbound", "8021p-inbound":
		return join(2)
	case "ip-dscp-outbound":
		if len(f) >= 3 {
			return join(3)
		}
	case "ecn":
		// `ecn weight W` is a line of its own beside the ECN thresholds
		// line: `undo ecn` leaves it (reference Errata; Huawei
		// EDOC1100198444 as annetutil/annet's drop-profile cases quote it).
		if f[1] == "weight" {
			return "ecn weight"
		}
		return "ecn"
	case "color":
		return join(2)
	case "trust":
		if f[1] == "upstream" {
			return "trust upstream"
		}
		return "trust"
	case "qos":
		switch {
		case f[1] == "drr" || f[1] == "wfq" || f[1] == "pq" || f[1] == "lpq":
			return join(2)
		case f[1] == "queue" && len(f) >= 4 && (f[3] == "wred" || f[3] == "shaping"):
			// qos queue Q shaping …: the last run wins (V300R023 command
			// page "qos queue shaping"), undo qos queue Q shaping.
			return join(4)
		case f[1] == "queue" && len(f) >= 5 && f[4] == "weight":
			return join(5)
		case len(f) >= 3 && f[1] == "buffer" && f[2] == "headroom-pool":
			return "qos buffer headroom-pool slot " + f[len(f)-1]
		}
	case "dcb":
		switch {
		case len(f) >= 3 && f[1] == "pfc" && f[2] == "enable":
			return "dcb pfc enable"
		case len(f) >= 5 && f[1] == "pfc" && f[2] == "buffer":
			// dcb pfc buffer Q {xoff|hdrm|guaranteed|xon} … (§2.1).
			return join(5)
		case len(f) == 5 && f[1] == "pfc" && (f[2] == "deadlock-detect" || f[2] == "deadlock-recovery"):
			return join(4)
		case len(f) == 7 && f[1] == "pfc" && f[2] == "deadlock" && f[3] == "recovery-behavior":
			return "dcb pfc deadlock recovery-behavior slot " + f[6]
		}
	}
	return text
}

// maxWords is the most words fields splits off; the rest stays in the
// last one.
const maxWords = 10

// fields splits single-spaced text into words, as strings.Fields does,
// into buf without allocating (keys are computed for every line of a
// running config).
func fields(text string, buf *[maxWords]string) []string {
	n, start := 0, 0
	for i := 0; i < len(text) && n < maxWords-1; i++ {
		if text[i] == ' ' {
			buf[n] = text[start:i]
			n++
			start = i + 1
		}
	}
	if start < len(text) {
		buf[n] = text[start:]
		n++
	}
	return buf[:n]
}

// prefixWords is the first n words of single-spaced text, as a substring.
func prefixWords(text string, f []string, n int) string {
	l := n - 1
	for _, w := range f[:n] {
		l += len(w)
	}
	return text[:l]
}

// undo is the negation of a line (reference/huawei-ce.md §2 tables,
// "Negation" column, in the forms the V300R023 pages give; `undo ecn
// weight` from Huawei's EDOC1100198444, `undo ecn weight [ weight-value ]`,
// as annetutil/annet tests/annet/test_patch/huawei_drop_profile.yaml
// @bf752eae quotes it, the reference naming the line only in its Errata).
func undo(n *node) string {
	switch {
	case strings.HasPrefix(n.Key, "qos buffer headroom-pool slot "):
		return "undo qos buffer headroom-pool slot " + n.Key[strings.LastIndexByte(n.Key, ' ')+1:]
	case n.Key == "dcb pfc deadlock-detect interval", // undo … interval (no value)
		strings.HasPrefix(n.Key, "priority ") && (strings.HasSuffix(n.Key, " deadlock-detect") || strings.HasSuffix(n.Key, " deadlock-recovery")),
		n.Key == "ecn", n.Key == "ecn weight", strings.HasPrefix(n.Key, "color "),
		strings.HasPrefix(n.Key, "ip-dscp-inbound "), strings.HasPrefix(n.Key, "8021p-inbound "),
		n.Key == "trust", n.Key == "trust upstream", n.Key == "dcb pfc enable",
		strings.HasPrefix(n.Key, "dcb pfc buffer ") && !strings.HasSuffix(n.Key, " xon"),
		strings.HasPrefix(n.Key, "qos queue ") && n.Key != n.Text:
		return "undo " + n.Key
	case strings.HasPrefix(n.Key, "dcb pfc buffer ") && strings.HasSuffix(n.Key, " xon"):
		// Family A's xon/xoff pair has no partial undo: undo dcb pfc
		// buffer Q removes the queue's thresholds (§2.1).
		return strings.TrimSuffix("undo "+n.Key, " xon")
	}
	return "undo " + n.Text
}

// canon returns a line's canonical text: single spaces, interface names as
// the device prints them, the defaults the device fills in written out.
func canon(text string) string {
	if strings.Contains(text, "  ") || strings.IndexByte(text, '\t') >= 0 {
		text = strings.Join(strings.Fields(text), " ")
	}
	if text == "" {
		return text
	}
	switch text[0] {
	case 'i', 'd', 'p', '8':
	default:
		return text // no rewrite below starts otherwise
	}
	switch {
	case strings.HasPrefix(text, "interface "):
		if n := ifName(text[len("interface "):]); n != text[len("interface "):] {
			return "interface " + n
		}
		return text
	case text == "dcb pfc default":
		return "dcb pfc"
	case text == "dcb pfc enable", text == "dcb pfc enable default", text == "dcb pfc enable default mode manual":
		// §2.1: omitted mode = manual; the profile default is the default.
		return "dcb pfc enable mode manual"
	case strings.HasPrefix(text, "dcb pfc enable default "):
		return "dcb pfc enable " + text[len("dcb pfc enable default "):]
	case strings.HasPrefix(text, "priority ") && !strings.Contains(text, "-"):
		// priority P [P …]: a set, printed in ascending order.
		f := strings.Fields(text)[1:]
		sort.Slice(f, func(i, j int) bool { a, _ := strconv.Atoi(f[i]); b, _ := strconv.Atoi(f[j]); return a < b })
		return "priority " + strings.Join(slices.Compact(f), " ")
	case strings.HasPrefix(text, "dcb pfc buffer "):
		// §2.1: hdrm defaults to kbytes, guaranteed to bytes.
		f := strings.Fields(text)
		if len(f) == 6 && f[4] == "hdrm" {
			return text + " kbytes"
		}
		if len(f) == 6 && f[4] == "guaranteed" {
			return text + " bytes"
		}
		if len(f) == 7 && f[4] == "guaranteed" && f[6] == "kbytes" {
			if v, err := strconv.Atoi(f[5]); err == nil {
				return fmt.Sprintf("dcb pfc buffer %s guaranteed %d bytes", f[3], v*1024)
			}
		}
	case strings.HasPrefix(text, "ip-dscp-inbound ") || strings.HasPrefix(text, "8021p-inbound "):
		// §2.4: colour default green.
		if f := strings.Fields(text); len(f) == 4 {
			return text + " green"
		}
	}
	return text
}

// ifName writes an interface name as CloudEngine prints it: "100ge 1/0/1"
// → "100GE1/0/1" (reference Counters: names print without a space).
func ifName(s string) string {
	if strings.Contains(s, " ") {
		s = strings.ReplaceAll(s, " ", "")
	}
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i > 0 && len(s) > i+2 && s[i:i+2] != "GE" && strings.EqualFold(s[i:i+2], "ge") {
		return s[:i] + "GE" + s[i+2:]
	}
	return s
}

// defaultLine reports a line equal to the device default, which
// `display current-configuration` does not show (V300R023) and which means
// the same as its absence. Dropping such lines on both sides keeps a
// default-equal rendering line from showing a change on every plan. The
// defaults are those of reference/huawei-ce.md's tables: §2.1 priority 3,
// family B buffer defaults (§1.1: xoff dynamic 3, xon offset 6 KB, hdrm
// 256 KB, guaranteed 1600 B) and family A xon 100 / xoff 125 KB; §2.2
// deadlock interval 10 and times 10 ticks (B), timers 100 ms (A),
// recovery behaviour discard (A) / forwarding (B), turn-off and error-down
// thresholds 30; §2.4 trust 8021p outer, trust upstream default and the
// built-in DiffServ map §1.1 confirms; §2.6 DRR/WFQ weight 1. famA says
// the device is family A (reference §0).
func defaultLine(parent, text string, famA bool) bool {
	var buf [maxWords]string
	var f []string
	switch {
	case strings.HasPrefix(text, "dcb pfc deadlock"), strings.HasPrefix(text, "priority "), strings.HasPrefix(text, "ip-dscp-inbound "), strings.HasPrefix(text, "8021p-inbound "),
		strings.HasPrefix(text, "dcb pfc buffer "):
		f = fields(text, &buf)
	}
	switch {
	case parent == "":
		switch {
		case text == "dcb pfc deadlock-detect interval 10",
			text == "dcb pfc deadlock-detect timer 100", text == "dcb pfc deadlock-recovery timer 100":
			return true
		case len(f) == 7 && f[2] == "deadlock" && f[3] == "recovery-behavior":
			return (f[4] == "discard") == famA
		}
	case parent == "dcb pfc":
		if text == "priority 3" {
			return true
		}
		if len(f) == 5 && f[0] == "priority" {
			switch f[2] {
			case "deadlock-detect", "deadlock-recovery":
				return f[4] == "10"
			case "turn-off", "error-down":
				return f[4] == "30"
			}
		}
	case strings.HasPrefix(parent, "diffserv domain "):
		if len(f) == 5 && f[0] == "8021p-inbound" {
			// The built-in 802.1p map: p → queue p, green (V300R023
			// configuration guide, Default_Settings_for_Priority_Mapping.md
			// Table 2, WheaterW/INTA-project @ 9308062d). The device
			// shows such a line when typed, but it means its absence.
			p, err := strconv.Atoi(f[1])
			return err == nil && p >= 0 && p < 8 && f[3] == queuePHB[p] && f[4] == "green"
		}
		if len(f) == 5 && f[0] == "ip-dscp-inbound" {
			d, err := strconv.Atoi(f[1])
			return err == nil && defaultDSCP(d) == f[3]+" "+f[4]
		}
	case strings.HasPrefix(parent, "interface "):
		switch {
		case text == "trust 8021p outer", text == "trust upstream default":
			return true
		case strings.HasPrefix(text, "qos queue "):
			return strings.HasSuffix(text, " drr weight 1") || strings.HasSuffix(text, " wfq weight 1")
		case strings.HasPrefix(text, "dcb pfc buffer ") && len(f) > 4:
			switch strings.Join(f[4:], " ") {
			case "xoff dynamic 3", "xoff dynamic 3 xon offset 6", "xoff dynamic 3 xon offset 6 kbytes", "hdrm 256 kbytes", "guaranteed 1600 bytes",
				"xon static 100 kbytes xoff static 125 kbytes":
				return true
			}
		}
	}
	return false
}

// defaultDSCP is the built-in DiffServ inbound map a new domain starts
// with, as far as reference/huawei-ce.md §1.1 confirms it: DSCP 24–27,
// 29, 31 → af3 green, 28 → af3 yellow, 30 → af3 red, 48–55 → cs6 green;
// "" for the DSCPs whose default the reference does not give.
func defaultDSCP(d int) string {
	switch {
	case d == 28:
		return "af3 yellow"
	case d == 30:
		return "af3 red"
	case d >= 24 && d <= 31:
		return "af3 green"
	case d >= 48 && d <= 55:
		return "cs6 green"
	}
	return ""
}

// dropDefaults removes default lines, and a `dcb pfc` section left empty
// (the default profile always exists, reference §2.1).
func dropDefaults(nodes []*node, famA bool) []*node {
	out := nodes[:0]
	for _, n := range nodes {
		if defaultLine("", n.Text, famA) {
			continue
		}
		if len(n.Kids) > 0 {
			kids := n.Kids[:0]
			for _, c := range n.Kids {
				if !defaultLine(n.Text, c.Text, famA) {
					kids = append(kids, c)
				}
			}
			n.Kids = kids
		}
		if (n.Text == "dcb pfc" || n.Text == "diffserv domain "+builtinName) && len(n.Kids) == 0 {
			// Built-in: the default PFC profile and DiffServ domain
			// always exist (reference §2.1, §2.4).
			continue
		}
		out = append(out, n)
	}
	return out
}

// line is a line's canonical text and key.
func line(text string) (string, string) {
	t := canon(text)
	return t, keyOf(t)
}

// canonTree copies a document's nodes with canonical text, without default
// lines.
func canonTree(nodes []*config.Node, famA bool) []*node {
	return dropDefaults(clidiff.Canonical(nodes, line), famA)
}

// ownedGlobal reports whether a top-level line without children is
// lossless': the DCB/PFC globals and the system-view QoS lines the
// renderer writes (reference §1.1, §1.3, §2.1, §2.2).
func ownedGlobal(text string) bool {
	return strings.HasPrefix(text, "dcb pfc deadlock") || strings.HasPrefix(text, "dcb pfc dscp-mapping ") ||
		text == "dcb pfc global disable" || strings.HasPrefix(text, "qos buffer headroom-pool ") || text == "qos ecn enable"
}

// dcbxLine enables DCBX on a port (reference §2.1).
const dcbxLine = "lldp tlv-enable dcbx"

// ownedIfLine reports whether an interface line is lossless' (trust, PFC,
// scheduling, WRED/ECN; reference §1.1 interface block).
func ownedIfLine(text string) bool {
	switch {
	case text == "trust" || strings.HasPrefix(text, "trust "):
		return true
	case strings.HasPrefix(text, "dcb pfc enable"), strings.HasPrefix(text, "dcb pfc buffer "):
		return true
	case strings.HasPrefix(text, "qos drr ") || strings.HasPrefix(text, "qos wfq ") || strings.HasPrefix(text, "qos pq ") || strings.HasPrefix(text, "qos lpq "):
		return true
	case strings.HasPrefix(text, "qos queue "):
		var buf [maxWords]string
		f := fields(text, &buf)
		return len(f) >= 4 && (f[3] == "wred" || f[3] == "ecn" || f[3] == "shaping" || (len(f) >= 5 && f[4] == "weight"))
	}
	return false
}

// scope knows which running sections and lines lossless owns, and what
// it leaves in the families it manages and why.
//
// Ownership (reference/huawei-ce.md §2.4–§2.6 for what references what):
// lossless changes or removes a DiffServ domain, drop-profile or PFC
// profile only when it renders it, or when it carries lossless' names
// (renderers/huaweice's "<profile>-N" domains and "<domain>-ecn[-N]"
// drop-profiles) and nothing outside the scope uses it. Any other object of
// these families (another team's, an operator's, the built-in `default`
// ones) is left alone and listed in Kept; with Document.Prune it is
// removed, unless something outside the scope uses it (never removed, the
// reason names the user). The users are interface lines: `trust upstream
// D`, `qos queue Q wred P`, `dcb pfc enable P` (a port-group's lines land
// on its members, §1.2). A managed port's trust, PFC, scheduling and
// WRED/ECN lines are lossless': it renders the port's QoS whole. A port
// lossless does not manage but that uses its objects (one that left the
// inventory) is reset; if it also uses objects lossless does not render,
// someone else configures it too, and only its lines using lossless'
// objects go.
type scope struct {
	domains map[string]bool // domain names
	drops   map[string]bool // drop-profile names
	ifs     map[string]ifOwner
	bases   []string // the desired domain names
	// gone are the objects lossless does not render that Prune removes.
	gone map[string]bool
	kept []vendors.Kept
}

// ifOwner is how much of an unmanaged interface is lossless'.
type ifOwner int

const (
	ifNone ifOwner = iota
	// ifShared: it uses lossless' objects and others' too; only its lines
	// using lossless' objects (and the `qos queue Q ecn` of such a queue)
	// are lossless'.
	ifShared
	// ifAll: it uses lossless' objects only; its QoS lines are lossless'.
	ifAll
)

// builtinName names the built-in objects, which always exist and cannot
// be deleted (reference §2.1 default PFC profile, §2.4 domain `default`,
// §2.5 drop-profile `default`).
const builtinName = "default"

// newScope finds what of have (the running top level, paired with want,
// the rendering) is lossless', and what it keeps and why; prune is
// Document.Prune.
func newScope(want, have []*node, prune bool) *scope {
	sc := &scope{domains: map[string]bool{}, drops: map[string]bool{}, ifs: map[string]ifOwner{}, gone: map[string]bool{}}
	for _, n := range want {
		switch {
		case strings.HasPrefix(n.Text, "diffserv domain "):
			name := n.Text[len("diffserv domain "):]
			sc.domains[name] = true
			sc.bases = append(sc.bases, name)
		case strings.HasPrefix(n.Text, "drop-profile "):
			sc.drops[n.Text[len("drop-profile "):]] = true
		}
	}
	for _, n := range have {
		switch {
		case strings.HasPrefix(n.Text, "diffserv domain "):
			if name := n.Text[len("diffserv domain "):]; sc.ownedDomain(name) {
				sc.domains[name] = true
			}
		case strings.HasPrefix(n.Text, "drop-profile "):
			if name := n.Text[len("drop-profile "):]; sc.ownedDrop(name) {
				sc.drops[name] = true
			}
		}
	}
	// users maps each object lossless does not render to the interface
	// lines that keep using it after the change: lines of interfaces
	// outside the scope, and a shared port's lines using it.
	users := map[string][]string{}
	for _, n := range have {
		if !strings.HasPrefix(n.Text, "interface ") || n.Peer != nil {
			continue
		}
		mine, theirs := false, false
		for _, c := range n.Kids {
			if obj := uses(c); obj != "" {
				mine = mine || sc.owned(obj)
				theirs = theirs || !sc.owned(obj)
			}
		}
		switch {
		case mine && theirs:
			sc.ifs[n.Text] = ifShared
			sc.kept = append(sc.kept, vendors.Kept{Object: n.Text, Reason: "not managed by lossless and also using objects it does not render: only its lines using lossless' objects are removed"})
		case mine:
			sc.ifs[n.Text] = ifAll
		}
		if sc.ifs[n.Text] == ifAll {
			continue
		}
		for _, c := range n.Kids {
			if obj := uses(c); obj != "" && !sc.owned(obj) {
				users[obj] = append(users[obj], n.Text+" ("+c.Text+")")
			}
		}
	}
	for _, n := range have {
		obj := n.Text
		var name string
		switch {
		case strings.HasPrefix(obj, "diffserv domain "):
			name = obj[len("diffserv domain "):]
		case strings.HasPrefix(obj, "drop-profile "):
			name = obj[len("drop-profile "):]
		case strings.HasPrefix(obj, "dcb pfc ") && isSection(obj):
			name = obj[len("dcb pfc "):]
		default:
			continue
		}
		switch {
		case sc.owned(obj):
		case name == builtinName:
			sc.kept = append(sc.kept, vendors.Kept{Object: obj, Reason: "built-in, cannot be deleted (reference/huawei-ce.md §2.1, §2.4, §2.5); lossless renders its own"})
		case len(users[obj]) > 0:
			reason := "not rendered by lossless; used outside its scope by " + usersText(users[obj])
			if prune {
				reason = "not removed (unmanaged = \"prune\"): used outside lossless' scope by " + usersText(users[obj])
			}
			sc.kept = append(sc.kept, vendors.Kept{Object: obj, Reason: reason})
		case prune:
			sc.gone[obj] = true
		default:
			sc.kept = append(sc.kept, vendors.Kept{Object: obj, Reason: "not rendered by lossless; unmanaged = \"prune\" removes it"})
		}
	}
	sc.kept = vendors.SortKept(sc.kept)
	return sc
}

// usersText names at most three users, then how many more.
func usersText(users []string) string {
	if len(users) <= 3 {
		return strings.Join(users, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(users[:3], ", "), len(users)-3)
}

// uses returns the object an interface line uses, as its section is
// written ("diffserv domain D", "drop-profile P", "dcb pfc P"), or "":
// `trust upstream D` (§2.4), `qos queue Q wred P` (§2.5), `dcb pfc enable
// P …` (§2.1; the default profile is written `dcb pfc`).
func uses(l *node) string {
	var buf [maxWords]string
	f := fields(l.Text, &buf)
	switch {
	case l.Key == "trust upstream" && len(f) == 3 && f[2] != "none":
		return "diffserv domain " + f[2]
	case strings.HasSuffix(l.Key, " wred") && len(f) == 5:
		return "drop-profile " + f[4]
	case l.Key == "dcb pfc enable" && len(f) >= 4 && f[3] != "mode":
		return "dcb pfc " + f[3]
	}
	return ""
}

// owned reports whether an object (its section line) is lossless': a
// rendered or lossless-named domain or drop-profile, or the default PFC
// profile, which lossless renders.
func (sc *scope) owned(obj string) bool {
	switch {
	case obj == "dcb pfc":
		return true
	case strings.HasPrefix(obj, "diffserv domain "):
		return sc.domains[obj[len("diffserv domain "):]]
	case strings.HasPrefix(obj, "drop-profile "):
		return sc.drops[obj[len("drop-profile "):]]
	}
	return false
}

// ownedDomain: a rendered domain name or its per-port override variant
// "<name>-N" (renderers/huaweice names domains that way); never the
// built-in default.
func (sc *scope) ownedDomain(name string) bool {
	if name == builtinName {
		return false
	}
	for _, b := range sc.bases {
		if name == b || digitSuffix(name, b+"-") {
			return true
		}
	}
	return false
}

// ownedDrop: "<domain>-ecn" and "<domain>-ecn-N" of an owned domain name
// (renderers/huaweice's drop-profile names).
func (sc *scope) ownedDrop(name string) bool {
	if name == builtinName {
		return false
	}
	base, ok := strings.CutSuffix(name, "-ecn")
	if !ok {
		i := strings.LastIndex(name, "-ecn-")
		if i < 0 || !digitSuffix(name, name[:i+len("-ecn-")]) {
			return false
		}
		base = name[:i]
	}
	return sc.ownedDomain(base)
}

// digitSuffix reports whether s is prefix followed by digits only.
func digitSuffix(s, prefix string) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ownsIf reports whether a running interface is in the scope: managed
// (it has a desired peer) or using lossless' domain or drop-profiles.
func (sc *scope) ownsIf(n *node) bool { return n.Peer != nil || sc.ifs[n.Text] != ifNone }

// ownsLines returns the lines of a running interface that are lossless'
// (none for an interface outside the scope).
func (sc *scope) ownsLines(n *node) []*node {
	var out []*node
	switch {
	case n.Peer != nil || sc.ifs[n.Text] == ifAll:
		for _, l := range n.Kids {
			// DCBX on the port serves more than PFC: lossless adds it
			// for PFC mode auto (reference §2.1) and never removes it.
			if ownedIfLine(l.Text) || l.Text == dcbxLine && n.Peer.Child(dcbxLine) != nil {
				out = append(out, l)
			}
		}
	case sc.ifs[n.Text] == ifShared:
		// The lines using lossless' objects, and the ECN of a queue whose
		// WRED profile is lossless' (§2.5: ecn needs its wred).
		mine := map[string]bool{}
		for _, l := range n.Kids {
			if obj := uses(l); obj != "" && sc.owned(obj) {
				mine[l.Key] = true
			}
		}
		for _, l := range n.Kids {
			q, isECN := strings.CutSuffix(l.Text, " ecn")
			if mine[l.Key] || isECN && strings.HasPrefix(q, "qos queue ") && mine[q+" wred"] {
				out = append(out, l)
			}
		}
	}
	return out
}

// filter keeps the running sections and lines inside the scope, and the
// objects Prune removes.
func (sc *scope) filter(have []*node) []*node {
	var out []*node
	for _, n := range have {
		switch {
		case n.Text == "dcb pfc":
			out = append(out, n)
		case strings.HasPrefix(n.Text, "diffserv domain "), strings.HasPrefix(n.Text, "drop-profile "),
			strings.HasPrefix(n.Text, "dcb pfc ") && isSection(n.Text):
			if sc.owned(n.Text) || sc.gone[n.Text] {
				out = append(out, n)
			}
		case strings.HasPrefix(n.Text, "interface "):
			if !sc.ownsIf(n) {
				continue
			}
			// The parsed tree is this call's own: filter in place.
			n.Kids = sc.ownsLines(n)
			out = append(out, n)
		case len(n.Kids) == 0 && ownedGlobal(n.Text):
			out = append(out, n)
		case n.Text == "lldp enable" && n.Peer != nil:
			// LLDP serves more than DCBX: lossless adds it for PFC mode
			// auto (reference §2.1) and never removes it.
			out = append(out, n)
		}
	}
	return out
}

// Diff returns the change that takes the running config (a Running result
// or the full `display current-configuration`) to desired, inside Scope.
// Commands are the lines typed into the candidate in system view; Apply
// adds the review, `commit trial` and confirm around them. It is pure.
func Diff(device string, running []byte, desired *config.Document) (*vendors.Change, error) {
	if desired == nil || desired.Format != config.CLI {
		return nil, fmt.Errorf("diff %s: desired config is not a CloudEngine CLI document", device)
	}
	famA := familyA(desired.Tree)
	have, err := parse(running, famA)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", device, err)
	}
	want := canonTree(desired.Tree, famA)
	clidiff.PairInOrder(want, have)
	sc := newScope(want, have, desired.Prune)
	have = sc.filter(have)
	d := clidiff.New(rules{}, dialect)
	d.Diff(want, have)
	ch := &vendors.Change{Device: device, Vendor: Vendor, Scope: Scope, Desired: desired, Kept: sc.kept}
	ch.Commands = d.Commands()
	if len(ch.Commands) > 0 {
		ch.Diff = textdiff.Unified(device+" running (scope)", device+" desired", print(clidiff.Ordered(d.Only(have), want)), print(d.Only(want)))
		ch.Disruptive = d.Disruptive()
	}
	return ch, nil
}

// dialect is how CloudEngine commands are typed and ordered: a section
// is entered by its header and left with quit (system view at the end),
// and its commands stay together within a phase (reference/huawei-ce.md
// §1.2).
var dialect = clidiff.Dialect{Negation: "undo ", Exit: "quit", ExitLast: true, Group: clidiff.ByMode, SetStep: stepSet}

// disruptive says why a command can disturb traffic when committed, or "".
func disruptive(path, line string) string {
	l := strings.TrimPrefix(line, "undo ")
	switch {
	case strings.HasPrefix(l, "dcb pfc enable"), strings.HasPrefix(l, "dcb pfc buffer"):
		return "PFC enable/disable or PFC buffer thresholds on a port change its pause behaviour at commit, and may fail while the port is congested (reference/huawei-ce.md §1.2: configure on idle ports)"
	case strings.HasPrefix(l, "qos buffer headroom-pool"):
		return "headroom pool change re-carves the lossless buffer (reference/huawei-ce.md §0)"
	case strings.HasPrefix(path, "interface ") && (strings.HasPrefix(l, "qos drr") || strings.HasPrefix(l, "qos wfq") || strings.HasPrefix(l, "qos pq") || strings.HasPrefix(l, "qos lpq") || strings.Contains(l, " weight")):
		return "egress scheduling change takes effect at commit on the port"
	case strings.HasPrefix(path, "drop-profile ") || strings.Contains(l, " wred") || strings.HasSuffix(l, " ecn"):
		return "WRED/ECN change takes effect at commit on every port using the drop-profile"
	}
	return ""
}

// phaseOf is the create/modify phase of a top-level line.
func phaseOf(text string) int {
	switch {
	case strings.HasPrefix(text, "diffserv domain "):
		return phaseDomain
	case strings.HasPrefix(text, "drop-profile "):
		return phaseDrop
	case strings.HasPrefix(text, "interface "):
		return phaseInterface
	case text == "dcb pfc":
		return phasePFC
	}
	return phaseGlobalSet
}

// rules are CloudEngine's answers to the diff engine (reference/huawei-ce.md
// §1.2, §2 tables, Errata).
type rules struct{}

// Key is keyOf.
func (rules) Key(text string) string { return keyOf(text) }

// Phase is phaseOf.
func (rules) Phase(text string) int { return phaseOf(text) }

// Opens: the sections of system view; their lines are compared whole.
func (rules) Opens(path []string, text string) bool { return len(path) == 0 && isSection(text) }

// Creates: a new domain or drop-profile whose lines all equal the
// defaults is created by entering its view; ports and the default PFC
// profile always exist.
func (rules) Creates(want *node) bool {
	return len(want.Kids) == 0 && want.Text != "dcb pfc" && !strings.HasPrefix(want.Text, "interface ")
}

// Disrupts is disruptive.
func (rules) Disrupts(_ int, path []string, line string) string {
	section := ""
	if len(path) > 0 {
		section = path[0]
	}
	return disruptive(section, line)
}

// AlsoRemoves: `undo qos drr|wfq A to B` takes the weights of queues A-B
// with it (Errata): they are not undone again, and desired weights there
// are re-sent.
func (rules) AlsoRemoves(have *node) []string {
	mode, lo, hi, ok := schedRange(have.Text)
	if !ok || mode != "drr" && mode != "wfq" {
		return nil
	}
	var keys []string
	for q := lo; q <= hi; q++ {
		keys = append(keys, fmt.Sprintf("qos queue %d %s weight", q, mode))
	}
	return keys
}

// Remove undoes a line (undo), lines others depend on first.
func (rules) Remove(d *clidiff.Differ, phase int, path []string, h *node) {
	switch {
	case h.Key == "priority":
		priorities(d, phase, path, h, nil)
	case strings.HasPrefix(h.Text, "qos queue ") && strings.HasSuffix(h.Text, " ecn"),
		strings.HasPrefix(h.Key, "dcb pfc buffer "), strings.HasPrefix(h.Key, "priority "):
		d.Add(phase, stepUndoDep, path, undo(h))
	case strings.HasPrefix(h.Key, "qos drr"), strings.HasPrefix(h.Key, "qos wfq"), strings.HasPrefix(h.Key, "qos pq"), strings.HasPrefix(h.Key, "qos lpq"):
		d.Add(phase, stepUndoSched, path, undo(h))
	default:
		d.Add(phase, stepUndo, path, undo(h))
	}
}

// Set sends the new line, which replaces the old one of its key.
func (rules) Set(d *clidiff.Differ, phase int, path []string, h, w *node) {
	switch {
	case w.Key == "priority":
		priorities(d, phase, path, h, w)
	case h != nil && w.Key != w.Text && (strings.HasPrefix(w.Key, "qos drr") || strings.HasPrefix(w.Key, "qos wfq")):
		// A changed scheduling range is undone (which takes the
		// weights of its queues with it) and set anew.
		d.Add(phase, stepUndoSched, path, undo(h))
		d.Add(phase, stepSet, path, w.Text)
	case strings.HasPrefix(w.Key, "priority "):
		d.Add(phase, stepSetDep, path, w.Text)
	default:
		d.Add(phase, stepSet, path, w.Text)
	}
}

// Drop: a port that is no longer managed keeps its other config: its QoS
// and PFC lines go back to their defaults one by one (a physical
// interface cannot be deleted). The default PFC profile cannot be deleted
// either (§2.1). Domains and drop-profiles are deleted after no port uses
// them.
func (rules) Drop(d *clidiff.Differ, h *node) {
	switch {
	case strings.HasPrefix(h.Text, "interface "), h.Text == "dcb pfc":
		d.Mode(phaseOf(h.Text), []string{h.Text}, h, nil)
	case strings.HasPrefix(h.Text, "diffserv domain "):
		d.Add(phaseDeleteDomain, stepUndo, nil, undo(h))
	case strings.HasPrefix(h.Text, "drop-profile "):
		d.Add(phaseDeleteDrop, stepUndo, nil, undo(h))
	default:
		d.Add(phaseGlobalRemove, stepUndo, nil, undo(h))
	}
}

// schedRange returns the queues a `qos drr|wfq A to B` line covers.
func schedRange(text string) (mode string, lo, hi int, ok bool) {
	f := strings.Fields(text)
	if len(f) < 3 || f[0] != "qos" {
		return "", 0, 0, false
	}
	lo, err := strconv.Atoi(f[2])
	if err != nil {
		return "", 0, 0, false
	}
	hi = lo
	if len(f) == 5 && f[3] == "to" {
		if hi, err = strconv.Atoi(f[4]); err != nil {
			return "", 0, 0, false
		}
	}
	return f[1], lo, hi, true
}

// priorities changes the PFC priority set of `dcb pfc`: `priority P …`
// adds to the set (§2.1: "repeated runs accumulate"), so priorities that
// leave are undone first, then the full desired list is sent; no line
// means the default, priority 3.
func priorities(d *clidiff.Differ, phase int, path []string, have, want *node) {
	set := func(n *node) []string {
		if n == nil {
			return []string{"3"}
		}
		return strings.Fields(n.Text)[1:]
	}
	h, w := set(have), set(want)
	var gone []string
	for _, p := range h {
		if !slices.Contains(w, p) {
			gone = append(gone, p)
		}
	}
	added := false
	for _, p := range w {
		if !slices.Contains(h, p) {
			added = true
		}
	}
	if len(gone) > 0 {
		d.Add(phase, stepUndoSched, path, "undo priority "+strings.Join(gone, " "))
	}
	if added {
		d.Add(phase, stepSet, path, "priority "+strings.Join(w, " "))
	}
}

// print writes nodes as display current-configuration does, without the
// closing return.
func print(nodes []*node) string { return clidiff.Print(nodes, " ", "#") }
