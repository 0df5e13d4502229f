package nxos

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

// hidden are lines NX-OS does not print because they equal the default
// (reference/nxos.md §1b; `show running-config ipqos all` shows them).
var hidden = map[string]bool{
	"mtu 1500":                        true,
	"priority-flow-control mode auto": true,
	"priority-flow-control watch-dog interval 100":          true,
	"priority-flow-control watch-dog shutdown-multiplier 1": true,
}

// isHidden reports whether a line is one of hidden, looking the map up
// only for the lines that can be.
func isHidden(text string) bool {
	return (strings.HasPrefix(text, "mtu ") || strings.HasPrefix(text, "priority-flow-control ")) && hidden[text]
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

// keyOf is a line's identity among its siblings, and whether the line
// holds the one value of a setting (false: it is one value of a set). The
// key is a substring of text, so computing it allocates nothing.
func keyOf(text string) (key string, single bool) {
	word, _, _ := strings.Cut(text, " ")
	switch word {
	case "class-map":
		// class-map type qos [match-any|match-all] NAME: the match type
		// is a value, the name the identity.
		const prefix = "class-map type qos "
		if rest, ok := strings.CutPrefix(text, prefix); ok {
			if i := strings.LastIndexByte(rest, ' '); i >= 0 {
				return text[:len(prefix)] + rest[i+1:], true
			}
		}
		return text, true
	case "policy-map", "class", "system", "interface":
		return text, true
	case "match":
		return text, false
	case "service-policy":
		// service-policy type T [input|output] NAME: one per direction.
		if i := strings.LastIndexByte(text, ' '); i >= 0 {
			return text[:i], true
		}
		return text, true
	case "bandwidth":
		// Every bandwidth form is one setting: a class has one
		// bandwidth, whichever way it is written.
		return word, true
	case "mtu", "priority", "queue-limit":
		return word, true
	}
	var rests []string
	switch word {
	case "random-detect":
		rests = keyedRest.randomDetect
	case "priority-flow-control":
		rests = keyedRest.pfc
	case "set":
		rests = keyedRest.set
	case "pause":
		rests = keyedRest.pause
	default:
		// Every other keyed line starts with a word handled above.
		return text, false
	}
	// The keyed entries of word, in the order of keyed, compared after
	// the word: text is word, or word, a space and the rest.
	rest := text[len(word):]
	for _, r := range rests {
		if strings.HasPrefix(rest, r) && (len(rest) == len(r) || rest[len(r)] == ' ') {
			return text[:len(word)+len(r)], true
		}
	}
	return text, false
}

// keyedRest holds the keyed entries that start with the words keyOf
// does not resolve itself, without the word, in the order of keyed
// (longer prefixes first): "" for the word alone, else a space and the
// rest.
var keyedRest = func() (r struct{ randomDetect, pfc, set, pause []string }) {
	for _, k := range keyed {
		word, _, _ := strings.Cut(k, " ")
		rest := k[len(word):]
		switch word {
		case "random-detect":
			r.randomDetect = append(r.randomDetect, rest)
		case "priority-flow-control":
			r.pfc = append(r.pfc, rest)
		case "set":
			r.set = append(r.set, rest)
		case "pause":
			r.pause = append(r.pause, rest)
		}
	}
	return r
}()

// node is a canonical config line with its identity computed once.
type node struct {
	text, key string
	single    bool
	kids      []*node
}

// child returns the child with key k, or nil. Stanzas have few children,
// so a scan beats a map.
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

// Diff returns the change that takes the running config (the body of
// `show running-config ipqos`) to desired, inside Scope. It is pure.
func Diff(device string, running []byte, desired *config.Document) (*vendors.Change, error) {
	if desired == nil || desired.Format != config.CLI {
		return nil, fmt.Errorf("diff %s: desired config is not an NX-OS CLI document", device)
	}
	have, haveBy, err := parse(running)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", device, err)
	}
	d := &differ{}
	want, wantBy := canonTreeIndex(desired.Tree)
	sc := newScopeIndexed(want, wantBy, have)
	have = sc.filter(have)
	// haveBy indexes have before filter; diff looks up only the keys of
	// want, whose stanzas filter keeps.
	d.diff(want, have, wantBy, haveBy)

	ch := &vendors.Change{Device: device, Vendor: Vendor, Scope: Scope, Desired: desired}
	ch.Commands = d.commands()
	if len(ch.Commands) > 0 {
		// The diff shows the stanzas that change, whole: on a switch
		// with thousands of ports the rest is noise (and time).
		ch.Diff = textdiff.Unified(device+" running (scope)", device+" desired", print(ordered(d.only(have), want)), print(d.only(want)))
		ch.Disruptive = d.disruptive()
	}
	return ch, nil
}

// canon returns a line's canonical text: single spaces, full interface
// names, DSCP lists sorted and numeric, class-map match type spelled out.
func canon(text string) string {
	if strings.Contains(text, "  ") || strings.ContainsAny(text, "\t") {
		text = strings.Join(strings.Fields(text), " ")
	}
	return canonSpaced(text)
}

// canonSpaced is canon of a line already single-spaced.
func canonSpaced(text string) string {
	switch {
	case strings.HasPrefix(text, "interface "):
		if strings.HasPrefix(text, "interface Ethernet") {
			return text
		}
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

// canonTree copies nodes with canonical text, without hidden lines. The
// nodes of the whole tree share one slab and their child lists one slice
// of pointers, so the copy costs two allocations, not two per stanza.
func canonTree(nodes []*config.Node) []*node {
	return dedupe(newTreeBuilder(nodes).levelRaw(nodes))
}

// canonTreeIndex is canonTree and the index of its top level.
func canonTreeIndex(nodes []*config.Node) ([]*node, map[string]*node) {
	return dedupeIndex(newTreeBuilder(nodes).levelRaw(nodes))
}

func newTreeBuilder(nodes []*config.Node) *treeBuilder {
	n := countNodes(nodes)
	return &treeBuilder{slab: make([]node, 0, n), ptrs: make([]*node, n)}
}

// countNodes is the number of nodes in a tree.
func countNodes(nodes []*config.Node) int {
	n := len(nodes)
	for _, c := range nodes {
		n += countNodes(c.Children)
	}
	return n
}

// treeBuilder hands out the nodes and child lists of canonTree from
// buffers sized for the whole tree (countNodes): slab never grows, so
// pointers into it stay valid.
type treeBuilder struct {
	slab []node
	ptrs []*node // not yet handed out
}

// levelRaw copies one level of a tree and, depth first, the levels
// below; the levels below are deduplicated, this one is left to the
// caller.
func (b *treeBuilder) levelRaw(nodes []*config.Node) []*node {
	// The level's list is reserved whole before its children take
	// theirs, capped so that an append can never reach a neighbour's.
	out := b.ptrs[:0:len(nodes)]
	b.ptrs = b.ptrs[len(nodes):]
	for _, n := range nodes {
		t := canon(n.Text)
		if len(n.Children) == 0 && isHidden(t) {
			continue
		}
		k, single := keyOf(t)
		b.slab = append(b.slab, node{text: t, key: k, single: single})
		nd := &b.slab[len(b.slab)-1]
		out = append(out, nd)
		if len(n.Children) > 0 {
			if kids := b.levelRaw(n.Children); len(kids) > 0 {
				nd.kids = dedupe(kids)
			}
		}
	}
	return out
}

// smallDup reports whether a short list repeats a single-valued key.
func smallDup(nodes []*node) bool {
	for i, a := range nodes {
		for _, b := range nodes[i+1:] {
			if a.single && b.single && a.key == b.key {
				return true
			}
		}
	}
	return false
}

// dedupe keeps the last of siblings with the same single-valued key: a
// later line replaces an earlier one, as on the device (which never
// prints both).
func dedupe(nodes []*node) []*node {
	if len(nodes) < 2 {
		return nodes
	}
	if len(nodes) <= 8 && !smallDup(nodes) {
		return nodes
	}
	last := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if n.single {
			last[n.key] = i
		}
	}
	if len(last) == len(nodes) {
		return nodes
	}
	out := nodes[:0:0]
	for i, n := range nodes {
		if !n.single || last[n.key] == i {
			out = append(out, n)
		}
	}
	return out
}

// dedupeIndex is dedupe(nodes) and index of the result, in one map when
// no single-valued key repeats (the usual case).
func dedupeIndex(nodes []*node) ([]*node, map[string]*node) {
	m := make(map[string]*node, len(nodes))
	for _, n := range nodes {
		// A line with one value and a line of a set never share a
		// key (see keyOf), so a repeated key is a duplicate to drop
		// when the line has one value.
		if prev, ok := m[n.key]; ok && n.single && prev.single {
			out := dedupe(nodes)
			return out, index(out)
		}
		m[n.key] = n
	}
	return nodes, m
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
	// want indexes the desired top-level nodes: whatever lossless renders
	// is in the scope.
	want      map[string]*node
	policies  map[string]bool // "policy-map type T NAME" keys
	classMaps map[string]bool // class-map keys
	ifs       map[string]bool // interface stanza texts
}

func policyName(text string) (typ, name string, ok bool) {
	rest, ok := strings.CutPrefix(text, "policy-map type ")
	if !ok {
		return "", "", false
	}
	typ, name, ok = strings.Cut(rest, " ")
	return typ, name, ok && !strings.Contains(name, " ")
}

func newScope(want, have []*node) *scope { return newScopeIndexed(want, index(want), have) }

// newScopeIndexed is newScope given wantBy, index(want).
func newScopeIndexed(want []*node, wantBy map[string]*node, have []*node) *scope {
	sc := &scope{want: wantBy, policies: map[string]bool{}, classMaps: map[string]bool{}, ifs: make(map[string]bool, len(want))}
	names := map[string]bool{}
	for _, n := range want {
		switch {
		case strings.HasPrefix(n.text, "policy-map "):
			sc.policies[n.key] = true
			if _, name, ok := policyName(n.text); ok {
				names[name] = true
			}
		case strings.HasPrefix(n.text, "class-map "):
			sc.classMaps[n.key] = true
		case strings.HasPrefix(n.text, "interface "):
			sc.ifs[n.text] = true
		}
	}
	for _, n := range have {
		typ, name, ok := policyName(n.text)
		if !ok {
			continue
		}
		if base := ownedPolicyBases[typ]; base != "" && (name == base || strings.HasPrefix(name, base+"_")) {
			sc.policies[n.key] = true
		}
		if !sc.policies[n.key] {
			continue
		}
		names[name] = true
		if typ == "qos" {
			// The class-maps an owned classification policy uses are
			// lossless' too, so a stale class is removed.
			for _, c := range n.kids {
				if cm, ok := strings.CutPrefix(c.text, "class "); ok && cm != "class-default" {
					sc.classMaps["class-map type qos "+cm] = true
				}
			}
		}
	}
	for _, n := range have {
		if !strings.HasPrefix(n.text, "interface ") || sc.ifs[n.text] {
			continue
		}
		for _, c := range n.kids {
			if strings.HasPrefix(c.text, "service-policy ") && names[c.text[strings.LastIndexByte(c.text, ' ')+1:]] {
				sc.ifs[n.text] = true
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

// filter keeps the running stanzas and lines inside the scope: what the
// desired config has, and what lossless owns by the rules of Scope.
func (sc *scope) filter(have []*node) []*node {
	out := make([]*node, 0, len(have))
	for _, n := range have {
		w := sc.want[n.key]
		switch {
		case strings.HasPrefix(n.text, "interface "), n.text == "system qos":
			if n.text != "system qos" && !sc.ifs[n.text] {
				continue
			}
			// The parsed tree is ours: filter the lines in place.
			kids := n.kids[:0]
			for _, l := range n.kids {
				if ownedLine(l.text) || w.child(l.key) != nil {
					kids = append(kids, l)
				}
			}
			n.kids = kids
			out = append(out, n)
		case w != nil:
			out = append(out, n)
		case strings.HasPrefix(n.text, "policy-map "):
			if sc.policies[n.key] {
				out = append(out, n)
			}
		case strings.HasPrefix(n.text, "class-map "):
			if sc.classMaps[n.key] {
				out = append(out, n)
			}
		case strings.HasPrefix(n.text, "priority-flow-control ") && len(n.kids) == 0:
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
	// touched are the top-level keys of the stanzas and lines that change.
	touched map[string]bool
}

func (d *differ) add(phase, step int, path []string, line string) {
	d.ops = append(d.ops, op{phase: phase, step: step, path: path, line: line})
	top := strings.TrimPrefix(line, "no ")
	if len(path) > 0 {
		top = path[0]
	}
	if d.touched == nil {
		d.touched = map[string]bool{}
	}
	k, _ := keyOf(top)
	d.touched[k] = true
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
	return slices.Sorted(maps.Keys(d.disrupts))
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

func index(nodes []*node) map[string]*node {
	m := make(map[string]*node, len(nodes))
	for _, n := range nodes {
		m[n.key] = n
	}
	return m
}

// diff adds the ops that take have to want; wantBy is index(want), and
// haveBy has the node of have of every key of want.
func (d *differ) diff(want, have []*node, wantBy, haveBy map[string]*node) {
	// The one-stanza paths of the top level, cut from one slice.
	tops := make([]string, len(want))
	for i, w := range want {
		h := haveBy[w.key]
		phase := phaseOf(w.text)
		if !isStanza(w.text) {
			if h == nil || h.text != w.text {
				d.add(phase, stepSet, nil, w.text)
			}
			continue
		}
		if h == nil && w.text != "system qos" && !strings.HasPrefix(w.text, "interface ") {
			d.add(phase, stepSet, nil, w.text)
		}
		tops[i] = w.text
		d.stanza(phase, tops[i:i+1:i+1], h, w)
	}
	for _, h := range have {
		if wantBy[h.key] != nil {
			continue
		}
		switch {
		case strings.HasPrefix(h.text, "interface "), h.text == "system qos":
			// A port that is no longer managed keeps its other config:
			// its QoS and PFC lines go back to their defaults one by
			// one, and the interface itself is never removed.
			phase := phaseInterface
			if h.text == "system qos" {
				phase = phaseSystemRemove
			}
			for _, l := range h.kids {
				d.add(phase, stepRemove, []string{h.text}, "no "+l.text)
			}
		case strings.HasPrefix(h.text, "policy-map "):
			d.add(phaseDeletePolicy, deleteOrder(h.text), nil, "no "+h.text)
		case strings.HasPrefix(h.text, "class-map "):
			d.add(phaseDeleteClassMap, 0, nil, "no "+h.text)
		default:
			d.add(phaseGlobalRemove, stepRemove, nil, "no "+h.text)
		}
	}
}

// stanza diffs the children of one stanza; have is nil when it is new.
func (d *differ) stanza(phase int, path []string, have, want *node) {
	var haveKids []*node
	if have != nil {
		haveKids = have.kids
	}
	for _, h := range haveKids {
		if want.child(h.key) != nil {
			continue
		}
		switch {
		case isStanza(h.text):
			// A class leaves its policy (before any class-map it uses
			// is deleted, in a later phase).
			d.add(phase, stepRemoveStanza, path, "no "+h.text)
		case path[0] == "system qos":
			// Detach only after the new attachments and before the
			// policies are deleted.
			d.add(phaseSystemRemove, stepRemove, path, "no "+h.text)
		case h.key == "bandwidth":
			d.add(phase, stepShrink, path, "no "+h.text)
		case h.single:
			d.add(phase, stepRemove, path, "no "+h.text)
		default:
			d.add(phase, stepRemoveMulti, path, "no "+h.text)
		}
	}
	for _, w := range want.kids {
		h := have.child(w.key)
		switch {
		case isStanza(w.text):
			if h == nil {
				d.add(phase, stepSet, path, w.text)
			}
			d.stanza(phase, append(slices.Clip(path), w.text), h, w)
		case h != nil && h.text == w.text:
		case w.key == "bandwidth":
			step := stepGrow
			if h != nil && percent(w.text) < percent(h.text) {
				step = stepShrink
			}
			d.add(phase, step, path, w.text)
		case w.single:
			d.add(phase, stepSet, path, w.text)
		default:
			d.add(phase, stepAddMulti, path, w.text)
		}
	}
}

// percent is the share of a bandwidth line, 0 when it has none.
func percent(line string) int {
	if !strings.Contains(line, "percent") {
		return 0
	}
	n, err := strconv.Atoi(line[strings.LastIndexByte(line, ' ')+1:])
	if err != nil {
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
func ordered(have, want []*node) []*node {
	pos := make(map[string]int, len(want))
	for i, w := range want {
		pos[w.key] = i
	}
	rank := func(n *node) int {
		if p, ok := pos[n.key]; ok {
			return p
		}
		return len(pos)
	}
	out := slices.Clone(have)
	slices.SortStableFunc(out, func(a, b *node) int { return rank(a) - rank(b) })
	for i, n := range out {
		if p, ok := pos[n.key]; ok && len(n.kids) > 1 {
			out[i] = &node{text: n.text, key: n.key, single: n.single, kids: ordered(n.kids, want[p].kids)}
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

// print writes nodes as NX-OS indents them.
func print(nodes []*node) string {
	var b strings.Builder
	b.Grow(64 * len(nodes))
	var walk func(ns []*node, depth int)
	walk = func(ns []*node, depth int) {
		for _, n := range ns {
			for range depth * indentWidth {
				b.WriteByte(' ')
			}
			b.WriteString(n.text)
			b.WriteByte('\n')
			walk(n.kids, depth+1)
		}
	}
	walk(nodes, 0)
	return b.String()
}
