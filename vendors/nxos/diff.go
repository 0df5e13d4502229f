package nxos

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/config"
	"github.com/lossless-net/lossless/golden"
	"github.com/lossless-net/lossless/vendors"
)

// Policy names the NX-OS renderer gives the objects lossless owns
// (renderers/nxos: the Cisco AI/ML blueprint names of reference/nxos.md
// §1); per-port override policies append "_" and a suffix.
var ownedPolicyBases = map[string]string{
	"qos":         "QOS_CLASSIFICATION",
	"queuing":     "QOS_EGRESS_PORT",
	"network-qos": "qos_network",
}

// Scope is the part of an NX-OS running config lossless reads and may
// change; the plan prints it.
const Scope = "show running-config ipqos: the PFC global lines; the class-maps lossless renders or its policies use; " +
	"policy-maps QOS_CLASSIFICATION*, QOS_EGRESS_PORT* and qos_network; the service-policy lines under system qos; " +
	"the priority-flow-control and service-policy lines of managed ports and of ports using lossless' policies. " +
	"Everything else is never touched."

// Phases of a remediation, in the order the commands are sent: creates in
// dependency order (class-maps, policies, system attachments, interfaces,
// globals), then removals in reverse (reference/nxos.md §3).
const (
	phaseClassMap = iota
	phasePolicyQoS
	phasePolicyQueuing
	phasePolicyNetwork
	phaseSystemSet
	phaseInterface
	phaseGlobalSet
	phaseGlobalRemove
	phaseSystemRemove
	phaseDeletePolicy
	phaseDeleteClassMap
)

// Steps inside a phase. Bandwidth changes are split so that the sum of a
// queuing policy's shares never passes 100 % while the commands run:
// every share that shrinks is sent before any share that grows.
const (
	stepShrink = iota
	stepRemove
	stepSet
	stepAddMulti
	stepRemoveMulti
	stepGrow
	stepRemoveStanza
)

// keyed lines hold one value per stanza: the same key with another value
// is a change of value, sent as the full new line, which replaces the old
// one in one step (reference/nxos.md §3: random-detect is re-issued whole).
// Longer prefixes come first. Lines without a key (match dscp, match cos)
// are values of a set.
var keyed = []string{
	"random-detect non-ecn", "random-detect",
	"bandwidth remaining percent", "bandwidth percent", "bandwidth",
	"priority-flow-control watch-dog-interval", "priority-flow-control watch-dog interval",
	"priority-flow-control watch-dog shutdown-multiplier", "priority-flow-control watch-dog interface-multiplier",
	"priority-flow-control watch-dog disable-action",
	"priority-flow-control auto-restore multiplier", "priority-flow-control fixed-restore multiplier",
	"priority-flow-control mode", "priority",
	"queue-limit", "set qos-group", "mtu", "pause pfc-cos", "pause buffer-size",
	"service-policy type qos input", "service-policy type queuing output", "service-policy type queuing input",
	"service-policy type network-qos",
}

// keyAliases make the bandwidth forms one setting: a class has one
// bandwidth, whichever way it is written.
var keyAliases = map[string]string{"bandwidth remaining percent": "bandwidth", "bandwidth percent": "bandwidth"}

// hidden are lines NX-OS does not print because they equal the default
// (reference/nxos.md §1b; `show running-config ipqos all` shows them).
var hidden = map[string]bool{
	"mtu 1500":                        true,
	"priority-flow-control mode auto": true,
	"priority-flow-control watch-dog interval 100":          true,
	"priority-flow-control watch-dog shutdown-multiplier 1": true,
}

// stanzaPrefixes start lines that enter a sub-mode.
var stanzaPrefixes = []string{"class-map ", "policy-map ", "class ", "system qos", "interface "}

func isStanza(text string) bool {
	for _, p := range stanzaPrefixes {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// keyOf is a line's identity among its siblings.
func keyOf(text string) (key string, single bool) {
	if strings.HasPrefix(text, "class-map type qos ") {
		f := strings.Fields(text)
		return "class-map type qos " + f[len(f)-1], true
	}
	if isStanza(text) {
		return text, true
	}
	for _, k := range keyed {
		if text == k || strings.HasPrefix(text, k+" ") {
			if a, ok := keyAliases[k]; ok {
				k = a
			}
			return k, true
		}
	}
	return text, false
}

// Diff returns the change that takes the running config (the body of
// `show running-config ipqos`) to desired, inside Scope. It is pure.
func Diff(device string, running []byte, desired *config.Document) (*vendors.Change, error) {
	if desired == nil || desired.Format != config.CLI {
		return nil, fmt.Errorf("diff %s: desired config is not an NX-OS CLI document", device)
	}
	run, err := Parse(running)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", device, err)
	}
	d := &differ{}
	want := canonTree(desired.Tree)
	have := canonTree(run)
	sc := newScope(want, have)
	have = sc.filter(have)
	d.diff(want, have, sc)

	ch := &vendors.Change{Device: device, Vendor: Vendor, Scope: Scope, Desired: desired}
	ch.Commands = d.commands()
	if len(ch.Commands) > 0 {
		ch.Diff = golden.Unified(device+" running (scope)", device+" desired", print(ordered(have, want)), print(want))
		ch.Disruptive = d.disruptive()
	}
	return ch, nil
}

// canon returns a line's canonical text: single spaces, full interface
// names, DSCP lists sorted and numeric, class-map match type spelled out.
func canon(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	switch {
	case strings.HasPrefix(text, "interface "):
		return "interface " + ifName(strings.TrimPrefix(text, "interface "))
	case strings.HasPrefix(text, "match dscp "):
		return "match dscp " + dscpList(strings.TrimPrefix(text, "match dscp "))
	case strings.HasPrefix(text, "class-map type qos "):
		f := strings.Fields(text)
		if len(f) == 4 {
			// The default match type is match-all (reference/nxos.md §2).
			return "class-map type qos match-all " + f[3]
		}
	}
	return text
}

// canonTree copies nodes with canonical text, without hidden lines.
func canonTree(nodes []*config.Node) []*config.Node {
	out := make([]*config.Node, 0, len(nodes))
	for _, n := range nodes {
		t := canon(n.Text)
		if hidden[t] && len(n.Children) == 0 {
			continue
		}
		out = append(out, &config.Node{Text: t, Children: canonTree(n.Children)})
	}
	return out
}

// ifName spells an interface name out ("eth1/1" → "Ethernet1/1").
func ifName(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i <= 0 {
		return s
	}
	word := strings.ToLower(s[:i])
	for _, full := range []string{"Ethernet", "port-channel", "loopback"} {
		if strings.HasPrefix(strings.ToLower(full), word) {
			return full + s[i:]
		}
	}
	return s
}

// dscpNames are the DSCP names NX-OS accepts (RFC 2474/2597/3246 values).
var dscpNames = map[string]int{
	"default": 0, "cs1": 8, "cs2": 16, "cs3": 24, "cs4": 32, "cs5": 40, "cs6": 48, "cs7": 56, "ef": 46,
	"af11": 10, "af12": 12, "af13": 14, "af21": 18, "af22": 20, "af23": 22,
	"af31": 26, "af32": 28, "af33": 30, "af41": 34, "af42": 36, "af43": 38,
}

// dscpList sorts a DSCP list and writes names and ranges as numbers; a list
// it cannot read is returned unchanged.
func dscpList(s string) string {
	var vals []int
	for _, part := range strings.Split(s, ",") {
		if v, ok := dscpNames[strings.ToLower(part)]; ok {
			vals = append(vals, v)
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a > b || a < 0 || b > 63 {
			return s
		}
		for v := a; v <= b; v++ {
			vals = append(vals, v)
		}
	}
	sort.Ints(vals)
	vals = slices.Compact(vals)
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}

// scope knows which running stanzas lossless owns.
type scope struct {
	policies  map[string]bool // "policy-map type T NAME" keys
	classMaps map[string]bool // class-map keys
	ifs       map[string]bool // interface stanza texts
}

func policyName(text string) (typ, name string, ok bool) {
	f := strings.Fields(text)
	if len(f) != 4 || f[0] != "policy-map" || f[1] != "type" {
		return "", "", false
	}
	return f[2], f[3], true
}

func newScope(want, have []*config.Node) *scope {
	sc := &scope{policies: map[string]bool{}, classMaps: map[string]bool{}, ifs: map[string]bool{}}
	for _, n := range want {
		k, _ := keyOf(n.Text)
		switch {
		case strings.HasPrefix(n.Text, "policy-map "):
			sc.policies[k] = true
		case strings.HasPrefix(n.Text, "class-map "):
			sc.classMaps[k] = true
		case strings.HasPrefix(n.Text, "interface "):
			sc.ifs[n.Text] = true
		}
	}
	names := map[string]bool{}
	for _, n := range have {
		if typ, name, ok := policyName(n.Text); ok {
			base := ownedPolicyBases[typ]
			if base != "" && (name == base || strings.HasPrefix(name, base+"_")) {
				sc.policies[n.Text] = true
			}
		}
	}
	for _, n := range want {
		if _, name, ok := policyName(n.Text); ok {
			names[name] = true
		}
	}
	for _, n := range have {
		if _, name, ok := policyName(n.Text); ok && sc.policies[n.Text] {
			names[name] = true
			if strings.HasPrefix(n.Text, "policy-map type qos ") {
				// The class-maps an owned classification policy uses
				// are lossless' too, so a stale class is removed.
				for _, c := range n.Children {
					if cm, ok := strings.CutPrefix(c.Text, "class "); ok && cm != "class-default" {
						sc.classMaps["class-map type qos "+cm] = true
					}
				}
			}
		}
	}
	for _, n := range have {
		if !strings.HasPrefix(n.Text, "interface ") || sc.ifs[n.Text] {
			continue
		}
		for _, c := range n.Children {
			f := strings.Fields(c.Text)
			if f[0] == "service-policy" && names[f[len(f)-1]] {
				sc.ifs[n.Text] = true
			}
		}
	}
	return sc
}

// ownedLine reports whether a line inside an interface or system qos is
// lossless' (the QoS and PFC lines).
func ownedLine(text string) bool {
	return strings.HasPrefix(text, "priority-flow-control ") || strings.HasPrefix(text, "service-policy ")
}

// filter keeps the running stanzas and lines inside the scope.
func (sc *scope) filter(have []*config.Node) []*config.Node {
	var out []*config.Node
	for _, n := range have {
		k, _ := keyOf(n.Text)
		switch {
		case strings.HasPrefix(n.Text, "policy-map "):
			if sc.policies[k] {
				out = append(out, n)
			}
		case strings.HasPrefix(n.Text, "class-map "):
			if sc.classMaps[k] {
				out = append(out, n)
			}
		case strings.HasPrefix(n.Text, "interface "), n.Text == "system qos":
			if n.Text != "system qos" && !sc.ifs[n.Text] {
				continue
			}
			c := &config.Node{Text: n.Text}
			for _, l := range n.Children {
				if ownedLine(l.Text) {
					c.Children = append(c.Children, l)
				}
			}
			out = append(out, c)
		case strings.HasPrefix(n.Text, "priority-flow-control ") && len(n.Children) == 0:
			out = append(out, n)
		}
	}
	return out
}

// op is one command of the remediation: the stanzas to be in, then line.
type op struct {
	phase, step int
	path        []string
	line        string
}

type differ struct {
	ops      []op
	disrupts map[string]bool
}

func (d *differ) add(phase, step int, path []string, line string) {
	d.ops = append(d.ops, op{phase: phase, step: step, path: path, line: line})
	if reason := disruptive(phase, path, line); reason != "" {
		if d.disrupts == nil {
			d.disrupts = map[string]bool{}
		}
		d.disrupts[reason] = true
	}
}

// disruptive says why an op can disturb traffic, or "".
func disruptive(phase int, path []string, line string) string {
	switch {
	case phase == phasePolicyNetwork || strings.Contains(line, "service-policy type network-qos"):
		return "network-qos change (MTU, PFC no-drop classes): some Nexus platforms briefly disrupt traffic; use a maintenance window (reference/nxos.md §3)"
	case phase == phasePolicyQueuing && len(path) > 0 || strings.Contains(line, "service-policy type queuing"):
		return "egress queuing change (scheduling, WRED/ECN) takes effect at once on every port using the policy"
	case strings.Contains(line, "priority-flow-control mode"):
		return "PFC mode change on a port renegotiates PFC on that link"
	}
	return ""
}

func (d *differ) disruptive() []string {
	var out []string
	for r := range d.disrupts {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// phaseOf is the create/modify phase of a top-level stanza.
func phaseOf(text string) int {
	switch {
	case strings.HasPrefix(text, "class-map "):
		return phaseClassMap
	case strings.HasPrefix(text, "policy-map type qos "):
		return phasePolicyQoS
	case strings.HasPrefix(text, "policy-map type queuing "):
		return phasePolicyQueuing
	case strings.HasPrefix(text, "policy-map type network-qos "):
		return phasePolicyNetwork
	case text == "system qos":
		return phaseSystemSet
	case strings.HasPrefix(text, "interface "):
		return phaseInterface
	}
	return phaseGlobalSet
}

// deleteOrder orders policy deletions as the Cisco teardown does:
// queuing, network-qos, then qos (reference/nxos.md §3).
func deleteOrder(text string) int {
	switch {
	case strings.HasPrefix(text, "policy-map type queuing "):
		return 0
	case strings.HasPrefix(text, "policy-map type network-qos "):
		return 1
	}
	return 2
}

func index(nodes []*config.Node) map[string]*config.Node {
	m := make(map[string]*config.Node, len(nodes))
	for _, n := range nodes {
		k, _ := keyOf(n.Text)
		m[k] = n
	}
	return m
}

func (d *differ) diff(want, have []*config.Node, sc *scope) {
	haveBy := index(have)
	wantBy := index(want)
	for _, w := range want {
		k, _ := keyOf(w.Text)
		h := haveBy[k]
		phase := phaseOf(w.Text)
		if !isStanza(w.Text) {
			if h == nil || h.Text != w.Text {
				d.add(phase, stepSet, nil, w.Text)
			}
			continue
		}
		if h == nil && w.Text != "system qos" && !strings.HasPrefix(w.Text, "interface ") {
			d.add(phase, stepSet, nil, w.Text)
		}
		d.stanza(phase, []string{w.Text}, h, w)
	}
	for _, h := range have {
		k, _ := keyOf(h.Text)
		if wantBy[k] != nil {
			continue
		}
		switch {
		case strings.HasPrefix(h.Text, "interface "), h.Text == "system qos":
			// A port that is no longer managed keeps its other config:
			// its QoS and PFC lines go back to their defaults one by
			// one, and the interface itself is never removed.
			phase := phaseInterface
			if h.Text == "system qos" {
				phase = phaseSystemRemove
			}
			for _, l := range h.Children {
				d.add(phase, stepRemove, []string{h.Text}, "no "+l.Text)
			}
		case strings.HasPrefix(h.Text, "policy-map "):
			d.add(phaseDeletePolicy, deleteOrder(h.Text), nil, "no "+h.Text)
		case strings.HasPrefix(h.Text, "class-map "):
			d.add(phaseDeleteClassMap, 0, nil, "no "+h.Text)
		default:
			d.add(phaseGlobalRemove, stepRemove, nil, "no "+h.Text)
		}
	}
}

// stanza diffs the children of one stanza; have is nil when it is new.
func (d *differ) stanza(phase int, path []string, have, want *config.Node) {
	var haveKids []*config.Node
	if have != nil {
		haveKids = have.Children
	}
	haveBy := index(haveKids)
	wantBy := index(want.Children)
	for _, h := range haveKids {
		k, single := keyOf(h.Text)
		if wantBy[k] != nil {
			continue
		}
		switch {
		case isStanza(h.Text):
			// A class leaves its policy (before any class-map it uses
			// is deleted, in a later phase).
			d.add(phase, stepRemoveStanza, path, "no "+h.Text)
		case h.Text == "system qos" || strings.HasPrefix(path[0], "system qos"):
			// Detach only after the new attachments and before the
			// policies are deleted.
			d.add(phaseSystemRemove, stepRemove, path, "no "+h.Text)
		case k == "bandwidth":
			d.add(phase, stepShrink, path, "no "+h.Text)
		case single:
			d.add(phase, stepRemove, path, "no "+h.Text)
		default:
			d.add(phase, stepRemoveMulti, path, "no "+h.Text)
		}
	}
	for _, w := range want.Children {
		k, single := keyOf(w.Text)
		h := haveBy[k]
		switch {
		case isStanza(w.Text):
			if h == nil {
				d.add(phase, stepSet, path, w.Text)
			}
			d.stanza(phase, append(slices.Clip(path), w.Text), h, w)
		case h != nil && h.Text == w.Text:
		case k == "bandwidth":
			step := stepGrow
			if h != nil && percent(w.Text) < percent(h.Text) {
				step = stepShrink
			}
			d.add(phase, step, path, w.Text)
		case single:
			d.add(phase, stepSet, path, w.Text)
		default:
			d.add(phase, stepAddMulti, path, w.Text)
		}
	}
}

// percent is the share of a bandwidth line, 0 when it has none.
func percent(line string) int {
	f := strings.Fields(line)
	n, err := strconv.Atoi(f[len(f)-1])
	if err != nil || !strings.Contains(line, "percent") {
		return 0
	}
	return n
}

// commands orders the ops and writes them as the lines typed in config
// mode, entering each op's stanzas and leaving with exit, so that no line
// lands in a sub-mode where it also parses (a global PFC line inside an
// interface).
func (d *differ) commands() []string {
	slices.SortStableFunc(d.ops, func(a, b op) int {
		if a.phase != b.phase {
			return a.phase - b.phase
		}
		return a.step - b.step
	})
	var out, ctx []string
	for _, o := range d.ops {
		common := 0
		for common < len(ctx) && common < len(o.path) && ctx[common] == o.path[common] {
			common++
		}
		for range len(ctx) - common {
			out = append(out, "exit")
		}
		ctx = ctx[:common]
		for _, p := range o.path[common:] {
			out = append(out, p)
			ctx = append(ctx, p)
		}
		out = append(out, o.line)
		if isStanza(o.line) {
			ctx = append(ctx, o.line)
		}
	}
	return out
}

// ordered returns have with top-level stanzas and their lines in the order
// of want, lines want lacks after them, for a readable diff.
func ordered(have, want []*config.Node) []*config.Node {
	pos := map[string]int{}
	for i, w := range want {
		k, _ := keyOf(w.Text)
		pos[k] = i
	}
	wantBy := index(want)
	out := slices.Clone(have)
	slices.SortStableFunc(out, func(a, b *config.Node) int {
		return rank(pos, a) - rank(pos, b)
	})
	for i, n := range out {
		k, _ := keyOf(n.Text)
		if w := wantBy[k]; w != nil && len(n.Children) > 0 {
			out[i] = &config.Node{Text: n.Text, Children: ordered(n.Children, w.Children)}
		}
	}
	return out
}

func rank(pos map[string]int, n *config.Node) int {
	k, _ := keyOf(n.Text)
	if p, ok := pos[k]; ok {
		return p
	}
	return len(pos)
}

// print writes nodes as NX-OS indents them.
func print(nodes []*config.Node) string {
	var b strings.Builder
	var walk func(ns []*config.Node, depth int)
	walk = func(ns []*config.Node, depth int) {
		for _, n := range ns {
			b.WriteString(strings.Repeat(" ", depth*indentWidth))
			b.WriteString(n.Text)
			b.WriteByte('\n')
			walk(n.Children, depth+1)
		}
	}
	walk(nodes, 0)
	return b.String()
}
