package eos

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
)

// Scope is the part of an EOS running config lossless reads and may
// change; the plan prints it.
const Scope = "show running-config: the qos profiles lossless renders or its managed ports apply; every `qos map dscp` line (EOS has one " +
	"system-wide DSCP map); the global priority-flow-control lines; and of the managed ports and the ports applying those profiles, " +
	"the service-profile, qos trust and priority-flow-control lines and, inside tx-queue and uc-tx-queue blocks, the priority, bandwidth percent and " +
	"random-detect ecn threshold lines. Everything else (descriptions, mtu, random-detect ecn count, other ports) is never touched."

// Phases of a remediation, in the order the commands are sent: DSCP
// values the intent no longer maps go back to EOS's default map first
// (before the queue and PFC settings of their class go), qos profiles are
// created or changed before ports apply them, ports before the DSCP map
// sends traffic to their queues, and a profile is deleted only after no
// port applies it (reference/eos.md §3.1).
const (
	phaseMapRemove = iota
	phaseProfile
	phaseInterface
	phaseMap
	phaseGlobal
	phaseDeleteProfile
)

// Steps inside one top-level stanza. Every bandwidth share that shrinks
// (or goes) is sent before any that grows, so that the shares of a port
// never add up to more than 100 % while the commands run. Removals come
// after the lines that replace them (a port's direct lines before its
// `no service-profile`), PFC ones in the order of reference/eos.md §3.1:
// watchdog, then priorities, then PFC itself.
const (
	stepShrink = iota
	stepSet
	stepGrow
	stepRemove       // + removeRank
	stepRemoveStanza = stepRemove + 4
)

// hidden are lines EOS does not print because they equal the default:
// the watchdog's default action is errdisable (reference/eos.md §1a
// [C:avd doc tables]).
var hidden = map[string]bool{
	"priority-flow-control pause watchdog action errdisable": true,
}

// node is a canonical config line with its identity among its siblings
// computed once.
type node struct {
	text, key string
	kids      []*node
	// extra is set on a scoped tx-queue block whose running config also
	// holds lines outside the scope (random-detect ecn count): the block
	// is then emptied line by line, never removed whole.
	extra bool
}

func newNode(text string, kids []*node) *node {
	return &node{text: text, key: keyOf(text), kids: kids}
}

// child returns the child with key k, or nil.
func (n *node) child(k string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.kids {
		if c.key == k {
			return c
		}
	}
	return nil
}

func isInterface(text string) bool { return strings.HasPrefix(text, "interface ") }
func isProfile(text string) bool   { return strings.HasPrefix(text, "qos profile ") }
func isMapLine(text string) bool   { return strings.HasPrefix(text, "qos map dscp ") }

// isQueue reports a tx-queue block (uc- and mc- ones are outside the
// scope but are blocks too).
func isQueue(text string) bool {
	return strings.HasPrefix(text, "tx-queue ") || strings.HasPrefix(text, "uc-tx-queue ") || strings.HasPrefix(text, "mc-tx-queue ")
}

func isStanza(text string) bool { return isInterface(text) || isProfile(text) || isQueue(text) }

// isPFCGlobal reports a global priority-flow-control line (watchdog
// defaults and action, `priority-flow-control all off`).
func isPFCGlobal(n *node) bool {
	return len(n.kids) == 0 && (strings.HasPrefix(n.text, "priority-flow-control ") || strings.HasPrefix(n.text, "no priority-flow-control "))
}

// portLine reports an interface or qos profile line inside the scope.
func portLine(text string) bool {
	t := strings.TrimPrefix(text, "no ")
	return strings.HasPrefix(t, "service-profile ") || t == "qos trust" || strings.HasPrefix(t, "qos trust ") ||
		strings.HasPrefix(t, "priority-flow-control") || scopedQueue(t)
}

// scopedQueue reports a queue block the renderer writes: `tx-queue N`, or
// `uc-tx-queue N` on platforms with separate unicast queues (option
// eos.tx-queue of renderers/eos; reference/eos.md §1a, §7). Multicast
// queues are outside the scope.
func scopedQueue(text string) bool {
	return strings.HasPrefix(text, "tx-queue ") || strings.HasPrefix(text, "uc-tx-queue ")
}

// queueLine reports a tx-queue line inside the scope: the lines the
// renderer writes there.
func queueLine(key string) bool {
	return key == "priority" || key == "bandwidth percent" || key == "random-detect ecn"
}

// keyOf is a line's identity among its siblings: lines with the same key
// hold one setting, and a new value replaces the old line in one step.
// "no X" (untrusted, PFC off, round-robin) is a value of X's setting.
func keyOf(text string) string {
	t := strings.TrimPrefix(text, "no ")
	word, rest, _ := strings.Cut(t, " ")
	switch word {
	case "interface", "tx-queue", "uc-tx-queue", "mc-tx-queue":
		return t
	case "qos":
		switch {
		case rest == "trust" || strings.HasPrefix(rest, "trust "):
			return "qos trust"
		case strings.HasPrefix(rest, "profile "):
			return t
		case strings.HasPrefix(rest, "map dscp "):
			if i := strings.Index(t, " to "); i >= 0 {
				return "qos map dscp" + t[i:]
			}
		}
	case "service-profile":
		return "service-profile"
	case "priority-flow-control":
		switch {
		case rest == "" || rest == "on" || rest == "mode on":
			return "priority-flow-control"
		case strings.HasPrefix(rest, "priority "):
			return firstWords(t, 3)
		case strings.HasPrefix(rest, "pause watchdog default "), strings.HasPrefix(rest, "pause watchdog port action"),
			strings.HasPrefix(rest, "pause watchdog port timer"):
			return firstWords(t, 5)
		case strings.HasPrefix(rest, "pause watchdog action"):
			return firstWords(t, 4)
		}
	case "priority":
		return "priority"
	case "bandwidth":
		if strings.HasPrefix(rest, "percent") {
			return "bandwidth percent"
		}
	case "random-detect":
		if rest == "ecn" || strings.HasPrefix(rest, "ecn minimum-threshold") {
			return "random-detect ecn"
		}
	}
	return text
}

// firstWords returns the first n words of s (all of s if it has fewer).
func firstWords(s string, n int) string {
	i := 0
	for range n {
		j := strings.IndexByte(s[i:], ' ')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i-1]
}

// canon returns a line's canonical text: full interface names, the legacy
// `priority-flow-control mode on` as `priority-flow-control on` (§3),
// DSCP lists sorted, watchdog seconds without trailing zeros ("0.20" →
// "0.2", §9 item 4). Lines arrive single-spaced (lines).
func canon(text string) string {
	if text == "" {
		return text
	}
	switch text[0] {
	case 'i':
		if isInterface(text) && !strings.HasPrefix(text, "interface Ethernet") {
			return "interface " + ifName(text[len("interface "):])
		}
	case 'p':
		switch {
		case text == "priority-flow-control mode on":
			return "priority-flow-control on"
		case strings.HasPrefix(text, "priority-flow-control pause watchdog default "):
			i := strings.LastIndexByte(text, ' ')
			return text[:i+1] + decimal(text[i+1:])
		}
	case 'q':
		if isMapLine(text) {
			return mapLine(text)
		}
	}
	return text
}

// canonTree copies nodes with canonical text, without hidden lines.
func canonTree(nodes []*config.Node) []*node {
	var a arena
	return a.canonTree(nodes)
}

func (a *arena) canonTree(nodes []*config.Node) []*node {
	out := make([]*node, 0, len(nodes))
	for _, n := range nodes {
		t := canon(n.Text)
		if hidden[t] && len(n.Children) == 0 {
			continue
		}
		nd := a.node(t)
		if len(n.Children) > 0 {
			nd.kids = a.canonTree(n.Children)
		}
		out = append(out, nd)
	}
	return out
}

// arena hands out nodes from slabs: one allocation per slab instead of
// one per line.
type arena struct{ slab []node }

const slabSize = 256

func (a *arena) node(text string) *node {
	if len(a.slab) == cap(a.slab) {
		a.slab = make([]node, 0, slabSize)
	}
	a.slab = append(a.slab, node{text: text, key: keyOf(text)})
	return &a.slab[len(a.slab)-1]
}

// ifName spells an interface name out as EOS prints it ("et1" →
// "Ethernet1", "po10" → "Port-Channel10"; reference/eos.md §4).
func ifName(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i <= 0 {
		return s
	}
	word := strings.ToLower(s[:i])
	for _, full := range []string{"Ethernet", "Port-Channel", "Loopback", "Management"} {
		if strings.HasPrefix(strings.ToLower(full), word) {
			return full + s[i:]
		}
	}
	return s
}

// decimal writes a number of seconds ("0.20") without trailing zeros
// ("0.2"); anything but digits, a dot and digits is returned unchanged.
func decimal(s string) string {
	whole, frac, ok := strings.Cut(s, ".")
	if !ok || !digits(whole) || !digits(frac) {
		return s
	}
	if frac = strings.TrimRight(frac, "0"); frac == "" {
		return whole
	}
	return whole + "." + frac
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// mapLine sorts the DSCP values of a `qos map dscp D… to …` line; a line
// it cannot read is returned unchanged.
func mapLine(text string) string {
	vals, target, ok := parseMap(text)
	if !ok {
		return text
	}
	return "qos map dscp " + joinInts(vals) + " to " + target
}

// parseMap returns the DSCP values (sorted, unique) of a map line and
// what they map to ("traffic-class 3").
func parseMap(text string) ([]int, string, bool) {
	rest := strings.TrimPrefix(text, "qos map dscp ")
	list, target, ok := strings.Cut(rest, " to ")
	if !ok {
		return nil, "", false
	}
	var vals []int
	for _, f := range strings.Fields(list) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 || v > 63 {
			return nil, "", false
		}
		vals = append(vals, v)
	}
	sort.Ints(vals)
	return slices.Compact(vals), target, true
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}

// Diff returns the change that takes the running config (a `show
// running-config` output or a Running result) to desired, inside Scope.
// It is pure.
func Diff(device string, running []byte, desired *config.Document) (*vendors.Change, error) {
	if desired == nil || desired.Format != config.CLI {
		return nil, fmt.Errorf("diff %s: desired config is not an EOS CLI document", device)
	}
	all, err := parse(running)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", device, err)
	}
	want := canonTree(desired.Tree)
	sc := newScope(want, all)
	have := sc.filter(all, want)
	d := &differ{}
	d.diff(want, have)

	ch := &vendors.Change{Device: device, Vendor: Vendor, Scope: Scope, Desired: desired}
	ch.Commands = d.commands()
	if len(ch.Commands) > 0 {
		// The diff shows the stanzas that change, whole: on a switch
		// with many ports the rest is noise (and time).
		ch.Diff = textdiff.Unified(device+" running (scope)", device+" desired", print(ordered(d.only(have), want)), print(d.only(want)))
		ch.Disruptive = d.disruptive(d.pfcChanges(sc, have, want))
	}
	return ch, nil
}

// scope knows which running stanzas lossless owns.
type scope struct {
	ifs      map[string]bool // interface stanza texts
	profiles map[string]bool // "qos profile NAME" texts
}

// newScope: the managed ports and profiles of the rendering, the profiles
// those ports apply now, and every other port applying a profile of the
// rendering.
func newScope(want, have []*node) *scope {
	sc := &scope{ifs: map[string]bool{}, profiles: map[string]bool{}}
	wanted := map[string]bool{}
	for _, n := range want {
		switch {
		case isInterface(n.text):
			sc.ifs[n.text] = true
		case isProfile(n.text):
			sc.profiles[n.text] = true
			wanted[n.text] = true
		}
	}
	for _, n := range have {
		if !isInterface(n.text) {
			continue
		}
		if sp := n.child("service-profile"); sp != nil && strings.HasPrefix(sp.text, "service-profile ") {
			p := "qos profile " + strings.TrimPrefix(sp.text, "service-profile ")
			if sc.ifs[n.text] {
				sc.profiles[p] = true
			}
		}
	}
	// A port outside the rendering that applies one of its profiles is a
	// port that left the intent: it joins the scope and is detached. A
	// profile the rendering no longer has but another port still applies
	// is that port's: both stay untouched.
	var kept []string
	for _, n := range have {
		if !isInterface(n.text) || sc.ifs[n.text] {
			continue
		}
		sp := n.child("service-profile")
		if sp == nil {
			continue
		}
		p := "qos profile " + strings.TrimPrefix(sp.text, "service-profile ")
		switch {
		case wanted[p]:
			sc.ifs[n.text] = true
		case sc.profiles[p]:
			kept = append(kept, p)
		}
	}
	for _, p := range kept {
		delete(sc.profiles, p)
	}
	return sc
}

// filter keeps the running stanzas and lines inside the scope for the
// rendering want.
func (sc *scope) filter(have, want []*node) []*node {
	wantBy := index(want)
	var out []*node
	for _, n := range have {
		switch {
		case isProfile(n.text) && sc.profiles[n.text], isInterface(n.text) && sc.ifs[n.text]:
			out = append(out, scoped(n, wantBy[n.key]))
		case isProfile(n.text), isInterface(n.text):
		case isMapLine(n.text), isPFCGlobal(n), wantBy[n.key] != nil:
			out = append(out, n)
		}
	}
	return out
}

// scoped copies a port or profile stanza with its in-scope lines only:
// the kinds of line the renderer writes, and any other line the
// rendering w (nil: none) has for it, so that a rendering never fights a
// line the scope cannot see. A stanza that has nothing else is returned
// as it is.
func scoped(n, w *node) *node {
	if allScoped(n, w) {
		return n
	}
	c := &node{text: n.text, key: n.key, kids: make([]*node, 0, len(n.kids))}
	for _, l := range n.kids {
		if !portLine(l.text) && w.child(l.key) == nil {
			continue
		}
		if scopedQueue(l.text) {
			wq := w.child(l.key)
			q := l
			if !allQueue(l, wq) {
				q = &node{text: l.text, key: l.key, extra: true, kids: make([]*node, 0, len(l.kids))}
				for _, k := range l.kids {
					if queueLine(k.key) || wq.child(k.key) != nil {
						q.kids = append(q.kids, k)
					}
				}
			}
			if len(q.kids) == 0 {
				continue // only lines outside the scope
			}
			l = q
		}
		c.kids = append(c.kids, l)
	}
	return c
}

// allQueue reports whether every line of a queue block is inside the
// scope (wq is the rendering's block, nil when it has none).
func allQueue(q, wq *node) bool {
	for _, k := range q.kids {
		if !queueLine(k.key) && wq.child(k.key) == nil {
			return false
		}
	}
	return true
}

// allScoped reports whether every line of a port or profile stanza is
// inside the scope.
func allScoped(n, w *node) bool {
	for _, l := range n.kids {
		if !portLine(l.text) && w.child(l.key) == nil {
			return false
		}
		if scopedQueue(l.text) && (len(l.kids) == 0 || !allQueue(l, w.child(l.key))) {
			return false
		}
	}
	return true
}

// equal reports whether two trees are the same line for line.
func equal(a, b *node) bool {
	if a.text != b.text || len(a.kids) != len(b.kids) {
		return false
	}
	for i := range a.kids {
		if !equal(a.kids[i], b.kids[i]) {
			return false
		}
	}
	return true
}

// op is one command of the remediation: the stanzas to be in, then line.
type op struct {
	phase, group, step int
	path               []string
	line               string
}

type differ struct {
	ops     []op
	group   int
	reasons map[string]bool
	// touched are the top-level keys of the stanzas and lines that change.
	touched map[string]bool
}

func (d *differ) add(phase, step int, path []string, line string) {
	d.ops = append(d.ops, op{phase: phase, group: d.group, step: step, path: path, line: line})
	top := line
	if len(path) > 0 {
		top = path[0]
	}
	if d.touched == nil {
		d.touched = map[string]bool{}
		d.reasons = map[string]bool{}
	}
	d.touched[keyOf(strings.TrimPrefix(top, "no "))] = true
	if phase == phaseMap || phase == phaseMapRemove {
		d.reasons["the system-wide DSCP → traffic-class map changes: the moved DSCP values change queue on every port at once"] = true
	}
}

// disruptive lists the reasons, with the ports whose PFC changes.
func (d *differ) disruptive(pfcPorts []string) []string {
	out := make([]string, 0, len(d.reasons)+1)
	for r := range d.reasons {
		out = append(out, r)
	}
	if len(pfcPorts) > 0 {
		const show = 8
		names := strings.Join(pfcPorts[:min(len(pfcPorts), show)], ", ")
		if len(pfcPorts) > show {
			names += fmt.Sprintf(" and %d more", len(pfcPorts)-show)
		}
		out = append(out, "PFC changes on "+names+": traffic of the priorities that change may drop while the port's PFC is reprogrammed")
	}
	sort.Strings(out)
	return out
}

// pfcChanges returns the managed ports whose PFC settings differ between
// the scoped running config and the rendering, each port read with its
// `service-profile` expanded (the profile's lines, then the port's own,
// which win; reference/eos.md §1b). A port that only moves between the
// direct and the profile layout with the same settings is not listed.
func (d *differ) pfcChanges(sc *scope, have, want []*node) []string {
	var out []string
	haveProf, wantProf := profilesOf(have), profilesOf(want)
	haveIf, wantIf := index(have), index(want)
	// A port can change only if its stanza or its profile does.
	changes := func(n *node) bool {
		if n == nil {
			return false
		}
		sp := n.child("service-profile")
		return d.touched[n.key] || sp != nil && d.touched["qos profile "+strings.TrimPrefix(sp.text, "service-profile ")]
	}
	for _, n := range want {
		if !isInterface(n.text) || !changes(n) && !changes(haveIf[n.key]) {
			continue
		}
		if !maps.Equal(pfc(n, wantProf), pfc(haveIf[n.key], haveProf)) {
			out = append(out, n.text[len("interface "):])
		}
	}
	for _, n := range have {
		if isInterface(n.text) && sc.ifs[n.text] && wantIf[n.key] == nil && len(pfc(n, haveProf)) > 0 {
			out = append(out, n.text[len("interface "):])
		}
	}
	return out
}

func profilesOf(nodes []*node) map[string]*node {
	m := map[string]*node{}
	for _, n := range nodes {
		if isProfile(n.text) {
			m[strings.TrimPrefix(n.text, "qos profile ")] = n
		}
	}
	return m
}

// pfc is a port's effective PFC lines by key: its profile's, overlaid
// by its own.
func pfc(port *node, profiles map[string]*node) map[string]string {
	out := map[string]string{}
	if port == nil {
		return out
	}
	add := func(n *node) {
		for _, l := range n.kids {
			if strings.HasPrefix(strings.TrimPrefix(l.text, "no "), "priority-flow-control") {
				out[l.key] = l.text
			}
		}
	}
	if sp := port.child("service-profile"); sp != nil {
		if p := profiles[strings.TrimPrefix(sp.text, "service-profile ")]; p != nil {
			add(p)
		}
	}
	add(port)
	return out
}

// phaseOf is the phase of a top-level stanza or line that is set.
func phaseOf(text string) int {
	switch {
	case isProfile(text):
		return phaseProfile
	case isInterface(text):
		return phaseInterface
	case isMapLine(text):
		return phaseMap
	}
	return phaseGlobal
}

func index(nodes []*node) map[string]*node {
	m := make(map[string]*node, len(nodes))
	for _, n := range nodes {
		m[n.key] = n
	}
	return m
}

func (d *differ) diff(want, have []*node) {
	d.qosMap(want, have)
	haveBy := index(have)
	wantBy := index(want)
	for _, w := range want {
		if isMapLine(w.text) {
			continue
		}
		d.group++
		h := haveBy[w.key]
		phase := phaseOf(w.text)
		if !isStanza(w.text) {
			if h == nil || h.text != w.text {
				d.add(phase, stepSet, nil, w.text)
			}
			continue
		}
		if h == nil {
			d.add(phase, stepSet, nil, w.text)
		} else if equal(h, w) {
			continue
		}
		d.stanza(phase, []string{w.text}, h, w)
	}
	for _, h := range have {
		if wantBy[h.key] != nil || isMapLine(h.text) {
			continue
		}
		d.group++
		switch {
		case isInterface(h.text):
			// A port that is no longer managed keeps its other config:
			// its QoS lines go back to their defaults one by one, and
			// the interface itself is never removed or defaulted.
			for _, l := range h.kids {
				d.remove(phaseInterface, []string{h.text}, l)
			}
		case isProfile(h.text):
			d.add(phaseDeleteProfile, stepRemove, nil, "no "+h.text)
		default:
			d.add(phaseGlobal, stepRemove, nil, removal(h))
		}
	}
}

// qosMap diffs the system-wide DSCP map by DSCP value: a desired line is
// sent whole when one of its values maps elsewhere now (the values it
// already holds stay mapped throughout), and only values no desired line
// holds are negated, back to the default map. No DSCP the intent maps is
// ever unmapped on the way.
func (d *differ) qosMap(want, have []*node) {
	haveTo := map[int]string{}
	var haveLines []*node
	for _, h := range have {
		if vals, to, ok := parseMap(h.text); ok {
			haveLines = append(haveLines, h)
			for _, v := range vals {
				haveTo[v] = to
			}
		}
	}
	wantTo := map[int]string{}
	for _, w := range want {
		vals, to, ok := parseMap(w.text)
		if !ok {
			continue
		}
		d.group++
		for _, v := range vals {
			wantTo[v] = to
		}
		for _, v := range vals {
			if haveTo[v] != to {
				d.add(phaseMap, stepSet, nil, w.text)
				break
			}
		}
	}
	for _, h := range haveLines {
		vals, to, _ := parseMap(h.text)
		var stale []int
		for _, v := range vals {
			if _, ok := wantTo[v]; !ok {
				stale = append(stale, v)
			}
		}
		if len(stale) > 0 {
			d.group++
			d.add(phaseMapRemove, stepRemove, nil, "no qos map dscp "+joinInts(stale)+" to "+to)
		}
	}
}

// stanza diffs the children of one stanza; have is nil when it is new.
func (d *differ) stanza(phase int, path []string, have, want *node) {
	if have != nil {
		for _, h := range have.kids {
			if want.child(h.key) == nil {
				d.remove(phase, path, h)
			}
		}
	}
	for _, w := range want.kids {
		h := have.child(w.key)
		switch {
		case isQueue(w.text):
			if h == nil {
				d.add(phase, stepSet, path, w.text)
			} else if equal(h, w) {
				continue
			}
			d.stanza(phase, append(slices.Clip(path), w.text), h, w)
		case h != nil && h.text == w.text:
		case w.key == "bandwidth percent":
			step := stepGrow
			if h != nil && percent(w.text) < percent(h.text) {
				step = stepShrink
			}
			d.add(phase, step, path, w.text)
		default:
			d.add(phase, stepSet, path, w.text)
		}
	}
}

// remove sends the removal of line h under path.
func (d *differ) remove(phase int, path []string, h *node) {
	switch {
	case isQueue(h.text) && h.extra:
		// Lines outside the scope stay: empty the block line by line.
		inner := append(slices.Clip(path), h.text)
		for _, l := range h.kids {
			d.remove(phase, inner, l)
		}
	case isQueue(h.text):
		step := stepRemoveStanza
		if h.child("bandwidth percent") != nil {
			step = stepShrink // its share goes before others grow
		}
		d.add(phase, step, path, "no "+h.text)
	case h.key == "bandwidth percent":
		d.add(phase, stepShrink, path, removal(h))
	default:
		d.add(phase, stepRemove+removeRank(h.key), path, removal(h))
	}
}

// removeRank orders PFC removals as reference/eos.md §3.1 does: the
// watchdog line, then the priorities, then PFC itself; service-profile
// last, after the direct lines that replace it are in.
func removeRank(key string) int {
	switch {
	case strings.HasPrefix(key, "priority-flow-control pause watchdog"):
		return 0
	case strings.HasPrefix(key, "priority-flow-control priority "):
		return 1
	case key == "priority-flow-control":
		return 2
	}
	return 3
}

// removal is the command that takes a line back to the factory default
// (reference/eos.md §3, §3.1). Where `no` is itself a setting (`no qos
// trust` is untrusted, `no priority-flow-control` is PFC off, `no
// priority` is round-robin) it is `default`.
func removal(h *node) string {
	switch h.key {
	case "qos trust", "priority-flow-control", "priority":
		return "default " + h.key
	}
	if strings.HasPrefix(h.text, "no ") {
		return "default " + strings.TrimPrefix(h.text, "no ")
	}
	return "no " + h.key
}

// percent is the share of a bandwidth line, 0 when it has none.
func percent(line string) int {
	n, err := strconv.Atoi(line[strings.LastIndexByte(line, ' ')+1:])
	if err != nil {
		return 0
	}
	return n
}

// commands orders the ops and writes them as the lines typed in the
// configuration session, entering each op's stanzas and leaving them with
// exit, so that no line lands in a sub-mode where it also parses.
func (d *differ) commands() []string {
	slices.SortStableFunc(d.ops, func(a, b op) int {
		if a.phase != b.phase {
			return a.phase - b.phase
		}
		if a.group != b.group {
			return a.group - b.group
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

// ordered returns have with its stanzas and lines in the order of want;
// a line want lacks stays right after the line it follows in have, for
// a readable diff (a stale PFC priority beside the others).
func ordered(have, want []*node) []*node {
	pos := make(map[string]int, len(want))
	for i, w := range want {
		pos[w.key] = 2 * (i + 1)
	}
	rank := make(map[*node]int, len(have))
	last := 0
	for _, n := range have {
		if p, ok := pos[n.key]; ok {
			last = p
		}
		rank[n] = last
		if _, ok := pos[n.key]; !ok {
			rank[n] = last + 1
		}
	}
	out := slices.Clone(have)
	slices.SortStableFunc(out, func(a, b *node) int { return rank[a] - rank[b] })
	for i, n := range out {
		if p, ok := pos[n.key]; ok && len(n.kids) > 0 {
			out[i] = &node{text: n.text, key: n.key, extra: n.extra, kids: ordered(n.kids, want[p/2-1].kids)}
		}
	}
	return out
}

// only keeps the top-level nodes that change.
func (d *differ) only(nodes []*node) []*node {
	var out []*node
	for _, n := range nodes {
		if d.touched[n.key] {
			out = append(out, n)
		}
	}
	return out
}
