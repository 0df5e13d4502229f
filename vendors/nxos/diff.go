package nxos

import (
	"bytes"
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

// Policy names the NX-OS renderer gives the objects lossless owns
// (renderers/nxos: the Cisco AI/ML blueprint names of reference/nxos.md
// §1); per-port override policies append "_" and a suffix.
var ownedPolicyBases = map[string]string{
	"qos":         "QOS_CLASSIFICATION",
	"queuing":     "QOS_EGRESS_PORT",
	"network-qos": "qos_network",
}

// Scope is the part of an NX-OS running config lossless reads and may
// change; the plan prints it (scope.go holds the rules).
const Scope = "show running-config ipqos, all of it, so that what uses lossless' objects from outside the scope is seen. " +
	"lossless changes the PFC global lines; the class-maps and policy-maps it renders; policy-maps QOS_CLASSIFICATION*, " +
	"QOS_EGRESS_PORT* and qos_network and the class-maps they use; the service-policy lines under system qos and the " +
	"priority-flow-control and service-policy lines of managed ports and of ports using lossless' policies. Other class-maps, " +
	"policy-maps and service-policy lines stay and are listed (unmanaged = \"prune\" deletes them); nothing used from outside " +
	"the scope is deleted. Everything else is never touched."

// Phases of a remediation, in the order the commands are sent: creates in
// dependency order (class-maps, policies, system attachments, interfaces,
// globals), then removals in reverse (reference/nxos.md §3). A class-map
// whose match type changes is deleted and created anew between the
// class-maps and the policies (retype.go).
const (
	phaseClassMap = iota
	phaseRetypeLeave
	phaseRetype
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
type node = clidiff.Node

// dialect is how NX-OS commands are typed and ordered: a phase is
// ordered by step alone, across stanzas, so that every bandwidth share
// of a policy shrinks before any grows.
var dialect = clidiff.Dialect{Negation: "no ", Exit: "exit", Group: clidiff.ByStep, SetStep: stepSet}

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
	want, wantBy := canonTreeIndex(desired.Tree)
	sc := newScopeIndexed(want, wantBy, have, desired.Prune)
	all := have
	have = sc.filter(have)
	// haveBy indexes have before filter, which keeps the stanzas of
	// every key of want.
	clidiff.PairByKey(want, have, wantBy, haveBy)
	d := clidiff.New(rules{spelled: spelledMatches(running)}, dialect)
	engineWant, engineHave := sc.retype(d, want, have, all)
	d.Diff(engineWant, engineHave)

	ch := &vendors.Change{Device: device, Vendor: Vendor, Scope: Scope, Desired: desired, Kept: vendors.SortKept(sc.kept)}
	ch.Commands = d.Commands()
	if len(ch.Commands) > 0 {
		// The diff shows the stanzas that change, whole: on a switch
		// with thousands of ports the rest is noise (and time).
		ch.Diff = textdiff.Unified(device+" running (scope)", device+" desired", print(clidiff.Ordered(d.Only(have), want)), print(d.Only(want)))
		ch.Disruptive = d.Disruptive()
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

// line is a desired line's canonical text and key.
func line(text string) (string, string) {
	t := canon(text)
	k, _ := keyOf(t)
	return t, k
}

// lineSpaced is line of a running line, which scan has single-spaced.
func lineSpaced(text string) (string, string) {
	t := canonSpaced(text)
	k, _ := keyOf(t)
	return t, k
}

// single reports whether a line holds the one value of its key (keyOf).
func single(n *node) bool {
	_, s := keyOf(n.Text)
	return s
}

// canonTree copies nodes with canonical text, without hidden lines, a
// repeated setting kept once.
func canonTree(nodes []*config.Node) []*node {
	return clidiff.Dedupe(clidiff.Prune(clidiff.Canonical(nodes, line), isHidden), single)
}

// canonTreeIndex is canonTree and the index of its top level.
func canonTreeIndex(nodes []*config.Node) ([]*node, map[string]*node) {
	return clidiff.DedupeIndex(clidiff.Prune(clidiff.Canonical(nodes, line), isHidden), single)
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

// rules are NX-OS's answers to the diff engine (reference/nxos.md §3).
// spelled holds the match dscp lines the running config spells otherwise
// than canon (a range "24-31", names "cs3"), by class-map and canonical
// line: a removal negates the line as the device shows it, which is the
// line it stores, not the canonical list (a switch seeded with
// `match dscp 24-31` kept it under `no match dscp 24,25,…,31`).
type rules struct{ spelled map[string]string }

// spelledMatches finds the match dscp lines of running whose text is
// not their canonical one, keyed as rules.spelled: the canonical
// class-map line, a newline, the canonical match line. It reads running
// in place: a diff of a large switch copies nothing.
func spelledMatches(running []byte) map[string]string {
	var m map[string]string
	match := []byte("\n  match dscp ")
	for off := 0; ; {
		i := bytes.Index(running[off:], match)
		if i < 0 {
			return m
		}
		i += off + 1
		end := bytes.IndexByte(running[i:], '\n')
		if end < 0 {
			end = len(running) - i
		}
		off = i + end
		raw := strings.Join(strings.Fields(string(running[i:off])), " ")
		c := canonSpaced(raw)
		if c == raw {
			continue
		}
		top := bytes.LastIndex(running[:i], []byte("\nclass-map ")) + 1
		if top == 0 && !bytes.HasPrefix(running, []byte("class-map ")) {
			continue
		}
		topEnd := top + bytes.IndexByte(running[top:], '\n')
		if m == nil {
			m = map[string]string{}
		}
		m[canon(string(running[top:topEnd]))+"\n"+c] = raw
	}
}

// Key is keyOf's identity.
func (rules) Key(text string) string {
	k, _ := keyOf(text)
	return k
}

// Phase is phaseOf.
func (rules) Phase(text string) int { return phaseOf(text) }

// Opens: a stanza is diffed line by line at any depth.
func (rules) Opens(_ []string, text string) bool { return isStanza(text) }

// Enters: typing a stanza's line enters it.
func (rules) Enters(line string) bool { return isStanza(line) }

// Creates: ports and system qos always exist.
func (rules) Creates(want *node) bool {
	return want.Text != "system qos" && !strings.HasPrefix(want.Text, "interface ")
}

// Disrupts is disruptive.
func (rules) Disrupts(phase int, path []string, line string) string {
	return disruptive(phase, path, line)
}

// Set sends the full new line, which replaces the old one in one step
// (keyed); a bandwidth share that shrinks goes before those that grow.
func (rules) Set(d *clidiff.Differ, phase int, path []string, have, want *node) {
	switch {
	case want.Key == "bandwidth":
		step := stepGrow
		if have != nil && percent(want.Text) < percent(have.Text) {
			step = stepShrink
		}
		d.Add(phase, step, path, want.Text)
	case single(want):
		d.Add(phase, stepSet, path, want.Text)
	default:
		d.Add(phase, stepAddMulti, path, want.Text)
	}
}

// Remove negates the line with "no", as the device spells it.
func (r rules) Remove(d *clidiff.Differ, phase int, path []string, have *node) {
	switch {
	case isStanza(have.Text):
		// A class leaves its policy (before any class-map it uses
		// is deleted, in a later phase).
		d.Add(phase, stepRemoveStanza, path, "no "+have.Text)
	case path[0] == "system qos":
		// Detach only after the new attachments and before the
		// policies are deleted.
		d.Add(phaseSystemRemove, stepRemove, path, "no "+have.Text)
	case have.Key == "bandwidth":
		d.Add(phase, stepShrink, path, "no "+have.Text)
	case single(have):
		d.Add(phase, stepRemove, path, "no "+have.Text)
	case len(path) == 1 && r.spelled[path[0]+"\n"+have.Text] != "":
		d.Add(phase, stepRemoveMulti, path, "no "+r.spelled[path[0]+"\n"+have.Text])
	default:
		d.Add(phase, stepRemoveMulti, path, "no "+have.Text)
	}
}

// Drop resets the QoS lines of a port or system qos the rendering no
// longer has, and deletes its policies and class-maps in the Cisco
// teardown order.
func (rules) Drop(d *clidiff.Differ, have *node) {
	switch {
	case strings.HasPrefix(have.Text, "interface "), have.Text == "system qos":
		// A port that is no longer managed keeps its other config:
		// its QoS and PFC lines go back to their defaults one by
		// one, and the interface itself is never removed.
		phase := phaseInterface
		if have.Text == "system qos" {
			phase = phaseSystemRemove
		}
		path := []string{have.Text}
		for _, l := range have.Kids {
			d.Add(phase, stepRemove, path, "no "+l.Text)
		}
	case strings.HasPrefix(have.Text, "policy-map "):
		d.Add(phaseDeletePolicy, deleteOrder(have.Text), nil, "no "+have.Text)
	case strings.HasPrefix(have.Text, "class-map "):
		d.Add(phaseDeleteClassMap, 0, nil, "no "+have.Text)
	default:
		d.Add(phaseGlobalRemove, stepRemove, nil, "no "+have.Text)
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

// print writes nodes as NX-OS indents them.
func print(nodes []*node) string { return clidiff.Print(nodes, "  ", "") }
