package eos

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
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
type node = clidiff.Node

func newNode(text string, kids []*node) *node {
	return &node{Text: text, Key: keyOf(text), Kids: kids}
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
	return len(n.Kids) == 0 && (strings.HasPrefix(n.Text, "priority-flow-control ") || strings.HasPrefix(n.Text, "no priority-flow-control "))
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

// line is a line's canonical text and key.
func line(text string) (string, string) {
	t := canon(text)
	return t, keyOf(t)
}

// isHidden reports a line of hidden.
func isHidden(text string) bool { return hidden[text] }

// canonTree copies nodes with canonical text, without hidden lines.
func canonTree(nodes []*config.Node) []*node {
	return clidiff.Prune(clidiff.Canonical(nodes, line), isHidden)
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
	clidiff.PairByKey(want, have, clidiff.Index(want), clidiff.Index(have))
	d := clidiff.New(rules{sc}, dialect)
	// The DSCP map is diffed by value (qosMap), the rest line by line.
	qosMap(d, want, have)
	d.Diff(withoutMap(want), withoutMap(have))

	ch := &vendors.Change{Device: device, Vendor: Vendor, Scope: Scope, Desired: desired}
	ch.Commands = d.Commands()
	if len(ch.Commands) > 0 {
		// The diff shows the stanzas that change, whole: on a switch
		// with many ports the rest is noise (and time).
		ch.Diff = textdiff.Unified(device+" running (scope)", device+" desired", print(ordered(d.Only(have), want)), print(d.Only(want)))
		if ports := pfcChanges(d, sc, have, want); len(ports) > 0 {
			d.Disrupt(pfcReason(ports))
		}
		ch.Disruptive = d.Disruptive()
	}
	return ch, nil
}

// withoutMap returns nodes without the `qos map dscp` lines.
func withoutMap(nodes []*node) []*node {
	out := make([]*node, 0, len(nodes))
	for _, n := range nodes {
		if !isMapLine(n.Text) {
			out = append(out, n)
		}
	}
	return out
}

// scope knows which running stanzas lossless owns.
type scope struct {
	ifs      map[string]bool // interface stanza texts
	profiles map[string]bool // "qos profile NAME" texts
	// partial are the scoped tx-queue blocks whose running config also
	// holds lines outside the scope (random-detect ecn count): such a
	// block is emptied line by line, never removed whole.
	partial map[*node]bool
}

// newScope: the managed ports and profiles of the rendering, the profiles
// those ports apply now, and every other port applying a profile of the
// rendering.
func newScope(want, have []*node) *scope {
	sc := &scope{ifs: map[string]bool{}, profiles: map[string]bool{}}
	wanted := map[string]bool{}
	for _, n := range want {
		switch {
		case isInterface(n.Text):
			sc.ifs[n.Text] = true
		case isProfile(n.Text):
			sc.profiles[n.Text] = true
			wanted[n.Text] = true
		}
	}
	for _, n := range have {
		if !isInterface(n.Text) {
			continue
		}
		if sp := n.Child("service-profile"); sp != nil && strings.HasPrefix(sp.Text, "service-profile ") {
			p := "qos profile " + strings.TrimPrefix(sp.Text, "service-profile ")
			if sc.ifs[n.Text] {
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
		if !isInterface(n.Text) || sc.ifs[n.Text] {
			continue
		}
		sp := n.Child("service-profile")
		if sp == nil {
			continue
		}
		p := "qos profile " + strings.TrimPrefix(sp.Text, "service-profile ")
		switch {
		case wanted[p]:
			sc.ifs[n.Text] = true
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
	wantBy := clidiff.Index(want)
	var out []*node
	for _, n := range have {
		switch {
		case isProfile(n.Text) && sc.profiles[n.Text], isInterface(n.Text) && sc.ifs[n.Text]:
			out = append(out, sc.scoped(n, wantBy[n.Key]))
		case isProfile(n.Text), isInterface(n.Text):
		case isMapLine(n.Text), isPFCGlobal(n), wantBy[n.Key] != nil:
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
func (sc *scope) scoped(n, w *node) *node {
	if allScoped(n, w) {
		return n
	}
	c := &node{Text: n.Text, Key: n.Key, Kids: make([]*node, 0, len(n.Kids))}
	for _, l := range n.Kids {
		if !portLine(l.Text) && w.Child(l.Key) == nil {
			continue
		}
		if scopedQueue(l.Text) {
			wq := w.Child(l.Key)
			q := l
			if !allQueue(l, wq) {
				q = &node{Text: l.Text, Key: l.Key, Kids: make([]*node, 0, len(l.Kids))}
				if sc.partial == nil {
					sc.partial = map[*node]bool{}
				}
				sc.partial[q] = true
				for _, k := range l.Kids {
					if queueLine(k.Key) || wq.Child(k.Key) != nil {
						q.Kids = append(q.Kids, k)
					}
				}
			}
			if len(q.Kids) == 0 {
				continue // only lines outside the scope
			}
			l = q
		}
		c.Kids = append(c.Kids, l)
	}
	return c
}

// allQueue reports whether every line of a queue block is inside the
// scope (wq is the rendering's block, nil when it has none).
func allQueue(q, wq *node) bool {
	for _, k := range q.Kids {
		if !queueLine(k.Key) && wq.Child(k.Key) == nil {
			return false
		}
	}
	return true
}

// allScoped reports whether every line of a port or profile stanza is
// inside the scope.
func allScoped(n, w *node) bool {
	for _, l := range n.Kids {
		if !portLine(l.Text) && w.Child(l.Key) == nil {
			return false
		}
		if scopedQueue(l.Text) && (len(l.Kids) == 0 || !allQueue(l, w.Child(l.Key))) {
			return false
		}
	}
	return true
}

// dialect is how EOS commands are typed and ordered: each top-level
// line or stanza keeps its commands together within a phase.
var dialect = clidiff.Dialect{Negation: "no ", Exit: "exit", Group: clidiff.ByTopLine, SetStep: stepSet}

// pfcReason says that the PFC of ports changes.
func pfcReason(ports []string) string {
	const show = 8
	names := strings.Join(ports[:min(len(ports), show)], ", ")
	if len(ports) > show {
		names += fmt.Sprintf(" and %d more", len(ports)-show)
	}
	return "PFC changes on " + names + ": traffic of the priorities that change may drop while the port's PFC is reprogrammed"
}

// pfcChanges returns the managed ports whose PFC settings differ between
// the scoped running config and the rendering, each port read with its
// `service-profile` expanded (the profile's lines, then the port's own,
// which win; reference/eos.md §1b). A port that only moves between the
// direct and the profile layout with the same settings is not listed.
func pfcChanges(d *clidiff.Differ, sc *scope, have, want []*node) []string {
	var out []string
	haveProf, wantProf := profilesOf(have), profilesOf(want)
	haveIf, wantIf := clidiff.Index(have), clidiff.Index(want)
	// A port can change only if its stanza or its profile does.
	changes := func(n *node) bool {
		if n == nil {
			return false
		}
		sp := n.Child("service-profile")
		return d.Touched(n.Key) || sp != nil && d.Touched("qos profile "+strings.TrimPrefix(sp.Text, "service-profile "))
	}
	for _, n := range want {
		if !isInterface(n.Text) || !changes(n) && !changes(haveIf[n.Key]) {
			continue
		}
		if !maps.Equal(pfc(n, wantProf), pfc(haveIf[n.Key], haveProf)) {
			out = append(out, n.Text[len("interface "):])
		}
	}
	for _, n := range have {
		if isInterface(n.Text) && sc.ifs[n.Text] && wantIf[n.Key] == nil && len(pfc(n, haveProf)) > 0 {
			out = append(out, n.Text[len("interface "):])
		}
	}
	return out
}

func profilesOf(nodes []*node) map[string]*node {
	m := map[string]*node{}
	for _, n := range nodes {
		if isProfile(n.Text) {
			m[strings.TrimPrefix(n.Text, "qos profile ")] = n
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
		for _, l := range n.Kids {
			if strings.HasPrefix(strings.TrimPrefix(l.Text, "no "), "priority-flow-control") {
				out[l.Key] = l.Text
			}
		}
	}
	if sp := port.Child("service-profile"); sp != nil {
		if p := profiles[strings.TrimPrefix(sp.Text, "service-profile ")]; p != nil {
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

// qosMap diffs the system-wide DSCP map by DSCP value: a desired line is
// sent whole when one of its values maps elsewhere now (the values it
// already holds stay mapped throughout), and only values no desired line
// holds are negated, back to the default map. No DSCP the intent maps is
// ever unmapped on the way.
func qosMap(d *clidiff.Differ, want, have []*node) {
	haveTo := map[int]string{}
	var haveLines []*node
	for _, h := range have {
		if vals, to, ok := parseMap(h.Text); ok {
			haveLines = append(haveLines, h)
			for _, v := range vals {
				haveTo[v] = to
			}
		}
	}
	wantTo := map[int]string{}
	for _, w := range want {
		vals, to, ok := parseMap(w.Text)
		if !ok {
			continue
		}
		d.NextGroup()
		for _, v := range vals {
			wantTo[v] = to
		}
		for _, v := range vals {
			if haveTo[v] != to {
				d.Add(phaseMap, stepSet, nil, w.Text)
				break
			}
		}
	}
	for _, h := range haveLines {
		vals, to, _ := parseMap(h.Text)
		var stale []int
		for _, v := range vals {
			if _, ok := wantTo[v]; !ok {
				stale = append(stale, v)
			}
		}
		if len(stale) > 0 {
			d.NextGroup()
			d.Add(phaseMapRemove, stepRemove, nil, "no qos map dscp "+joinInts(stale)+" to "+to)
		}
	}
}

// rules are EOS's answers to the diff engine (reference/eos.md §3,
// §3.1).
type rules struct{ sc *scope }

// Key is keyOf.
func (rules) Key(text string) string { return keyOf(text) }

// Phase is phaseOf.
func (rules) Phase(text string) int { return phaseOf(text) }

// Opens: ports and profiles at the top level, queue blocks inside them.
func (rules) Opens(path []string, text string) bool {
	if len(path) == 0 {
		return isStanza(text)
	}
	return isQueue(text)
}

// Enters: typing a stanza's line enters it.
func (rules) Enters(line string) bool { return isStanza(line) }

// Disrupts: a change of the system-wide DSCP map.
func (rules) Disrupts(phase int, _ []string, _ string) string {
	if phase == phaseMap || phase == phaseMapRemove {
		return "the system-wide DSCP → traffic-class map changes: the moved DSCP values change queue on every port at once"
	}
	return ""
}

// Set sends the full new line, which replaces the old one in one step; a
// bandwidth share that shrinks goes before those that grow.
func (rules) Set(d *clidiff.Differ, phase int, path []string, have, want *node) {
	if want.Key == "bandwidth percent" {
		step := stepGrow
		if have != nil && percent(want.Text) < percent(have.Text) {
			step = stepShrink
		}
		d.Add(phase, step, path, want.Text)
		return
	}
	d.Add(phase, stepSet, path, want.Text)
}

// Remove sends the removal of line h under path.
func (r rules) Remove(d *clidiff.Differ, phase int, path []string, h *node) {
	switch {
	case isQueue(h.Text) && r.sc.partial[h]:
		// Lines outside the scope stay: empty the block line by line.
		inner := append(slices.Clip(path), h.Text)
		for _, l := range h.Kids {
			r.Remove(d, phase, inner, l)
		}
	case isQueue(h.Text):
		step := stepRemoveStanza
		if h.Child("bandwidth percent") != nil {
			step = stepShrink // its share goes before others grow
		}
		d.Add(phase, step, path, "no "+h.Text)
	case h.Key == "bandwidth percent":
		d.Add(phase, stepShrink, path, removal(h))
	default:
		d.Add(phase, stepRemove+removeRank(h.Key), path, removal(h))
	}
}

// Drop: a port that is no longer managed keeps its other config: its QoS
// lines go back to their defaults one by one, and the interface itself
// is never removed or defaulted. A profile is deleted after no port
// applies it.
func (rules) Drop(d *clidiff.Differ, h *node) {
	switch {
	case isInterface(h.Text):
		d.Mode(phaseInterface, []string{h.Text}, h, nil)
	case isProfile(h.Text):
		d.Add(phaseDeleteProfile, stepRemove, nil, "no "+h.Text)
	default:
		d.Add(phaseGlobal, stepRemove, nil, removal(h))
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
	switch h.Key {
	case "qos trust", "priority-flow-control", "priority":
		return "default " + h.Key
	}
	if strings.HasPrefix(h.Text, "no ") {
		return "default " + strings.TrimPrefix(h.Text, "no ")
	}
	return "no " + h.Key
}

// percent is the share of a bandwidth line, 0 when it has none.
func percent(line string) int {
	n, err := strconv.Atoi(line[strings.LastIndexByte(line, ' ')+1:])
	if err != nil {
		return 0
	}
	return n
}

// ordered returns have with its stanzas and lines in the order of want;
// a line want lacks stays right after the line it follows in have, for
// a readable diff (a stale PFC priority beside the others).
func ordered(have, want []*node) []*node {
	pos := make(map[string]int, len(want))
	for i, w := range want {
		pos[w.Key] = 2 * (i + 1)
	}
	rank := make(map[*node]int, len(have))
	last := 0
	for _, n := range have {
		if p, ok := pos[n.Key]; ok {
			last = p
		}
		rank[n] = last
		if _, ok := pos[n.Key]; !ok {
			rank[n] = last + 1
		}
	}
	out := slices.Clone(have)
	slices.SortStableFunc(out, func(a, b *node) int { return rank[a] - rank[b] })
	for i, n := range out {
		if p, ok := pos[n.Key]; ok && len(n.Kids) > 0 {
			c := *n
			c.Kids = ordered(n.Kids, want[p/2-1].Kids)
			out[i] = &c
		}
	}
	return out
}
