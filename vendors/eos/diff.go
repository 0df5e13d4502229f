package eos

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
)

// Scope is the part of an EOS running config lossless reads and may
// change; the plan prints it.
const Scope = "show running-config: the qos profiles lossless renders; the QoS lines of the managed ports (service-profile, " +
	"service-policy type qos input, qos trust, priority-flow-control, and inside tx-queue and uc-tx-queue blocks the priority, " +
	"bandwidth percent, bandwidth guaranteed, shape rate and random-detect ecn threshold lines) whose keys the rendering sets on the port or in its qos profile; " +
	"the CoS → traffic-class, DSCP → traffic-class and traffic-class → tx-queue map values it renders; the global priority-flow-control lines it renders. " +
	"Other qos profiles, policy-maps type quality-of-service, class-maps type qos, platform trident mmu queue profiles, map values, " +
	"global PFC lines and managed-port QoS lines are kept and listed (unmanaged = \"prune\" removes those nothing outside the scope uses); " +
	"everything else (descriptions, mtu, random-detect ecn count, ports lossless does not manage) is never touched."

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

// isQueue reports a tx-queue block (uc- and mc- ones are outside the
// scope but are blocks too).
func isQueue(text string) bool {
	return strings.HasPrefix(text, "tx-queue ") || strings.HasPrefix(text, "uc-tx-queue ") || strings.HasPrefix(text, "mc-tx-queue ")
}

// isStanza reports a line that opens a mode the diff compares line by
// line, and that typing enters.
func isStanza(text string) bool {
	return isInterface(text) || isProfile(text) || isQueue(text) || isPolicyMap(text) || isClassMap(text) || isMMUProfile(text)
}

// isPFCGlobal reports a global priority-flow-control line (watchdog
// defaults and action, `priority-flow-control all off`).
func isPFCGlobal(n *node) bool {
	return len(n.Kids) == 0 && (strings.HasPrefix(n.Text, "priority-flow-control ") || strings.HasPrefix(n.Text, "no priority-flow-control "))
}

// portLine reports an interface or qos profile line inside the scope:
// the kinds the renderer writes, and `service-policy type qos input`,
// whose policy-map classifies before the DSCP map does.
func portLine(text string) bool {
	t := strings.TrimPrefix(text, "no ")
	return strings.HasPrefix(t, "service-profile ") || t == "qos trust" || strings.HasPrefix(t, "qos trust ") ||
		strings.HasPrefix(t, "priority-flow-control") || scopedQueue(t) || strings.HasPrefix(t, "service-policy type qos input ")
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
	return key == "priority" || key == "bandwidth percent" || key == "bandwidth guaranteed" || key == "shape rate" || key == "random-detect ecn"
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
		case isCoSMap(t):
			return "qos map cos" + t[strings.Index(t, " to "):]
		case isTCMap(t):
			return "qos map traffic-class" + t[strings.Index(t, " to "):]
		}
	case "service-profile":
		return "service-profile"
	case "service-policy":
		if strings.HasPrefix(rest, "type qos input ") {
			return "service-policy type qos input"
		}
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
		switch {
		case strings.HasPrefix(rest, "percent"):
			return "bandwidth percent"
		case strings.HasPrefix(rest, "guaranteed"):
			// `bandwidth guaranteed percent P` and `bandwidth
			// guaranteed N` (kbps) are one setting.
			return "bandwidth guaranteed"
		}
	case "shape":
		if strings.HasPrefix(rest, "rate") {
			return "shape rate"
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
// DSCP lists sorted, watchdog seconds (global and per-port) without trailing zeros ("0.20" →
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
		case strings.HasPrefix(text, "priority-flow-control pause watchdog port timer "):
			f := strings.Fields(text)
			for i := range f {
				f[i] = decimal(f[i])
			}
			return strings.Join(f, " ")
		}
	case 'q':
		if m := mapOf(text); m != nil {
			if vals, to, ok := m.parse(text); ok {
				return m.line(vals, to)
			}
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

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}

// Diff returns the change that takes the running config (a `show
// running-config` output or a Running result) to desired, inside Scope,
// with what it leaves of the families lossless manages in Kept (own.go).
// It is pure.
func Diff(device string, running []byte, desired *config.Document) (*vendors.Change, error) {
	if desired == nil || desired.Format != config.CLI {
		return nil, fmt.Errorf("diff %s: desired config is not an EOS CLI document", device)
	}
	all, err := parse(running)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", device, err)
	}
	o := own(desired, all)
	clidiff.PairByKey(o.want, o.have, clidiff.Index(o.want), clidiff.Index(o.have))
	d := clidiff.New(rules{o}, dialect)
	// The maps are diffed by value (map.go), the rest line by line.
	mc := o.diffMaps(d)
	d.Diff(o.want, o.have)

	ch := &vendors.Change{Device: device, Vendor: Vendor, Scope: Scope, Desired: desired, Kept: vendors.SortKept(o.kept)}
	ch.Commands = d.Commands()
	if len(ch.Commands) > 0 {
		// The diff shows the stanzas and lines that change, whole: on a
		// switch with many ports the rest is noise (and time).
		before, after := o.changed(mc)
		ch.Diff = textdiff.Unified(device+" running (scope)", device+" desired", print(before), print(after))
		if ports := o.pfcChanges(d); len(ports) > 0 {
			d.Disrupt(pfcReason(ports))
		}
		ch.Disruptive = d.Disruptive()
	}
	return ch, nil
}

// changed returns the top-level stanzas and lines that differ between
// the scoped running config and what the change leaves (the rendering
// with the kept lines), each side in the rendering's order: exactly what
// the commands change, so that the human diff is never empty when there
// are commands (a stanza whose lines differ only in order sends none and
// is not shown).
// The nodes' peers must be set.
func (o *owner) changed(mc mapChange) (before, after []*node) {
	for _, w := range o.want {
		if w.Peer == nil || !clidiff.Equal(w.Peer, w) && differs(w.Peer, w) {
			after = append(after, w)
		}
	}
	for _, h := range o.have {
		if h.Peer == nil || !clidiff.Equal(h, h.Peer) && differs(h, h.Peer) {
			before = append(before, h)
		}
	}
	// The map lines go where the rendering has them: after the stanzas,
	// before the global lines (reference/eos.md §2.1).
	before = ordered(insertMaps(before, mc.before), o.rendering)
	after = ordered(insertMaps(after, mc.after), o.rendering)
	return before, after
}

// insertMaps puts map lines after the last port or qos profile of
// nodes.
func insertMaps(nodes, maps []*node) []*node {
	if len(maps) == 0 {
		return nodes
	}
	at := 0
	for i, n := range nodes {
		if isInterface(n.Text) || isProfile(n.Text) {
			at = i + 1
		}
	}
	out := make([]*node, 0, len(nodes)+len(maps))
	out = append(out, nodes[:at]...)
	out = append(out, maps...)
	return append(out, nodes[at:]...)
}

// differs reports whether the engine records a command to take have to
// want (lines with the same key): a line is compared by its text, a mode
// line by line, by key, in any order.
func differs(have, want *node) bool {
	if have.Text != want.Text {
		return true
	}
	for _, k := range have.Kids {
		if want.Child(k.Key) == nil {
			return true
		}
	}
	for _, k := range want.Kids {
		if h := have.Child(k.Key); h == nil || differs(h, k) {
			return true
		}
	}
	return false
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

// pfcChanges returns the ports whose PFC settings differ between the
// scoped running config and what the change leaves, each port read with
// its `service-profile` expanded (the profile's lines, then the port's
// own, which win; reference/eos.md §1b): the managed ports, and the ports
// outside the scope that apply a rendered profile whose PFC changes. A
// port that only moves between the direct and the profile layout with
// the same settings is not listed.
func (o *owner) pfcChanges(d *clidiff.Differ) []string {
	var out []string
	haveIf := clidiff.Index(o.have)
	// A port can change only if its stanza or its profile does.
	changes := func(n *node) bool {
		if n == nil {
			return false
		}
		sp := n.Child("service-profile")
		return d.Touched(n.Key) || sp != nil && d.Touched("qos profile "+strings.TrimPrefix(sp.Text, "service-profile "))
	}
	for _, n := range o.want {
		if !isInterface(n.Text) || !changes(n) && !changes(haveIf[n.Key]) {
			continue
		}
		if !maps.Equal(pfc(n, o.after), pfc(haveIf[n.Key], o.profiles)) {
			out = append(out, n.Text[len("interface "):])
		}
	}
	for _, p := range slices.Sorted(maps.Keys(o.users)) {
		prof := &node{Kids: []*node{newNode("service-profile "+p, nil)}}
		if d.Touched("qos profile "+p) && !maps.Equal(pfc(prof, o.after), pfc(prof, o.profiles)) {
			out = append(out, o.users[p]...)
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

// rules are EOS's answers to the diff engine (reference/eos.md §3,
// §3.1).
type rules struct{ o *owner }

// Key is keyOf; a `default X` command changes the line of X.
func (rules) Key(text string) string { return keyOf(strings.TrimPrefix(text, "default ")) }

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

// Disrupts: a change of a system-wide map, and PFC coming back on every
// port that configures it.
func (rules) Disrupts(_ int, path []string, line string) string {
	if len(path) > 0 {
		return ""
	}
	t := strings.TrimPrefix(line, "no ")
	switch {
	case isDSCPMap(t):
		return "the system-wide DSCP → traffic-class map changes: the moved DSCP values change queue on every port at once"
	case isTCMap(t):
		return "the system-wide traffic-class → tx-queue map changes: the moved traffic classes change queue on every port at once"
	case line == "no priority-flow-control all off":
		return "priority-flow-control all off goes: PFC starts on every port that configures it"
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
	case isQueue(h.Text) && r.o.partial[h]:
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

// Drop removes a top-level line or stanza the change leaves out (own.go
// decides which): a port's QoS lines go back to their defaults one by
// one, and the interface itself is never removed or defaulted; a qos
// profile is deleted after no port applies it, then the policy-maps no
// port or profile applies, then the class-maps no policy-map uses, then
// the MMU queue profiles.
func (rules) Drop(d *clidiff.Differ, h *node) {
	switch {
	case isInterface(h.Text):
		d.Mode(phaseInterface, []string{h.Text}, h, nil)
	case isProfile(h.Text):
		d.Add(phaseDeleteProfile, stepRemove, nil, "no "+h.Text)
	case isPolicyMap(h.Text):
		d.Add(phaseDeletePolicy, stepRemove, nil, "no "+h.Text)
	case isClassMap(h.Text):
		d.Add(phaseDeleteClass, stepRemove, nil, "no "+h.Text)
	case isMMUProfile(h.Text):
		d.Add(phaseDeleteMMU, stepRemove, nil, "no "+h.Text)
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
	case "service-policy type qos input":
		return "no " + h.Text
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
