package eos

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/vendors"
)

// This file decides which objects of a running config lossless owns.
// lossless changes or removes an object only when its rendering has it
// (a qos profile it renders is its own whole: it carries lossless' name),
// and an object of a family lossless manages that the rendering lacks is
// left alone and listed in Change.Kept with the reason, or, with the
// intent's unmanaged = "prune" (Document.Prune), removed, unless
// something lossless does not manage still uses it. The families:
//
//   - qos profiles (`qos profile NAME`), used by `service-profile NAME`
//     on interfaces;
//   - the QoS lines of managed ports, the interfaces the rendering has:
//     a line is lossless' when the rendering sets its key on the port,
//     directly or through the qos profile it applies (reference/eos.md
//     §1b: a port's lines win over its profile's, so a direct line of a
//     key the profile sets shadows lossless' setting and goes);
//   - the system-wide maps `qos map dscp … to traffic-class N` and `qos
//     map traffic-class … to tx-queue Q`, value by value (map.go);
//   - the global priority-flow-control lines (watchdog timers and
//     action, `priority-flow-control all off`, the override action);
//   - `policy-map type quality-of-service NAME`, used by `service-policy
//     type qos input NAME` on interfaces and in qos profiles, and the
//     `class-map type qos … NAME` its `class NAME` lines use (syntax of
//     AVD's class-maps.j2 and policy-maps-qos.j2 templates, aristanetworks/avd
//     python-avd/pyavd/_eos_cli_config_gen/j2templates/eos/; reference/eos.md §2.1
//     item 7 and §3 `service-policy`);
//   - `platform trident mmu queue profile NAME`, used by the global
//     `platform trident mmu queue profile NAME apply` (reference/eos.md
//     §3; AVD platform-trident.j2 and platform-apply.j2), which lossless
//     never changes: applying or changing the MMU profile may disturb
//     traffic (§3.1).
//
// Interfaces the rendering does not have are outside the scope: never
// changed, in either mode; what they apply (a qos profile, a policy-map)
// is never removed. EOS refuses to delete a qos profile that a
// service-profile still applies (reference/eos.md §3.1), so a profile is
// deleted only in the phase after every port that applied it has moved
// away, and only when no port outside the scope applies it.

// Removal phases of the objects ports and profiles use, after the ports
// and profiles that stop using them (see the phase constants in diff.go).
const (
	phaseDeletePolicy = phaseDeleteProfile + 1 + iota
	phaseDeleteClass
	phaseDeleteMMU
)

// prunes is the end of a Kept reason for what unmanaged = "prune" would
// remove.
const prunes = ` (unmanaged = "prune" removes it)`

func isDSCPMap(text string) bool { return strings.HasPrefix(text, "qos map dscp ") }

// isCoSMap reports a `qos map cos C… to traffic-class N` line: the
// classification of the ports that trust CoS.
func isCoSMap(text string) bool {
	return strings.HasPrefix(text, "qos map cos ") && strings.Contains(text, " to traffic-class ")
}

// isTCMap reports a `qos map traffic-class … to tx-queue Q` line; the
// other targets (cos, dscp: rewrite maps) are outside the scope, as is
// `qos map exp`.
func isTCMap(text string) bool {
	return strings.HasPrefix(text, "qos map traffic-class ") && strings.Contains(text, " to tx-queue ")
}

func isClassMap(text string) bool { return strings.HasPrefix(text, "class-map type qos ") }
func isPolicyMap(text string) bool {
	return strings.HasPrefix(text, "policy-map type quality-of-service ")
}

const mmuPrefix = "platform trident mmu queue profile "

// isMMUProfile reports a `platform trident mmu queue profile NAME` stanza
// (not its `… NAME apply` line).
func isMMUProfile(text string) bool {
	return strings.HasPrefix(text, mmuPrefix) && !strings.Contains(text[len(mmuPrefix):], " ")
}

// isMMUApply reports a `platform trident mmu queue profile NAME apply`
// line.
func isMMUApply(text string) bool {
	name, ok := strings.CutSuffix(strings.TrimPrefix(text, mmuPrefix), " apply")
	return strings.HasPrefix(text, mmuPrefix) && ok && name != "" && !strings.Contains(name, " ")
}

// lastWord is the name at the end of a line ("class-map type qos match-any
// BULK" → "BULK").
func lastWord(text string) string { return text[strings.LastIndexByte(text, ' ')+1:] }

// ref is one user of an object after the change: who, and whether it
// stays whatever the intent says, being outside lossless' scope (a port
// the rendering does not have, or an object kept because such a port
// uses it) or rendered (a line of the rendering names the object): then
// the object stays too.
type ref struct {
	by                string
	outside, rendered bool
}

// owner is the ownership of one running config against one rendering:
// what the diff engine compares, what stays and why.
type owner struct {
	prune bool
	// want and have are the desired and the scoped running top levels
	// the engine compares, without the map lines; want holds the kept
	// lines of managed ports, so that the engine leaves them.
	want, have []*node
	// wantMaps and haveMaps are the `qos map` lines (map.go).
	wantMaps, haveMaps []*node
	// rendering is the rendering's top level, map lines included.
	rendering []*node
	kept      []vendors.Kept
	// partial are the scoped tx-queue blocks whose running config also
	// holds lines outside the scope (random-detect ecn count): such a
	// block is emptied line by line, never removed whole.
	partial map[*node]bool
	// profiles are the running qos profiles by name; after, those after
	// the change (rendered ones as rendered, pruned ones gone).
	profiles, after map[string]*node
	// users are the ports outside the scope that apply a rendered qos
	// profile, by profile name: the profile's changes reach them.
	users map[string][]string
	// portKept are the managed ports' kept lines by line and reason.
	portKept      map[string]*portKept
	portKeptOrder []string
}

// own reads the running top level all against the rendering desired.
func own(desired *config.Document, all []*node) *owner {
	o := &owner{prune: desired.Prune, users: map[string][]string{}}
	// The keys of the top-level lines the rendering has, also those at a
	// default EOS hides: lossless renders them too.
	rendered := make(map[string]bool, len(desired.Tree))
	for _, n := range desired.Tree {
		_, k := line(n.Text)
		rendered[k] = true
	}
	want := clidiff.Prune(clidiff.Canonical(desired.Tree, line), isHidden)
	o.rendering = want
	wantBy := clidiff.Index(want)
	for _, n := range want {
		if isMapLine(n.Text) {
			o.wantMaps = append(o.wantMaps, n)
		}
	}
	o.profiles = profilesOf(all)
	wantProf := profilesOf(want)

	// Who uses what after the change, object by object.
	uses := map[string][]ref{}
	use := func(obj string, r ref) { uses[obj] = append(uses[obj], r) }
	ports := map[string]*node{} // managed ports' effective desired stanzas
	for _, h := range all {
		switch {
		case isInterface(h.Text) && wantBy[h.Key] != nil:
			hs, ws := o.port(h, wantBy[h.Key], wantProf)
			if hs != nil {
				o.have = append(o.have, hs)
			}
			ports[h.Key] = ws
			name := h.Text[len("interface "):]
			w := wantBy[h.Key]
			for _, l := range ws.Kids {
				rendered := w.Child(l.Key) != nil && w.Child(l.Key).Text == l.Text
				switch {
				case strings.HasPrefix(l.Text, "service-profile "):
					use("qos profile "+strings.TrimPrefix(l.Text, "service-profile "), ref{by: "service-profile on " + name, rendered: rendered})
				case strings.HasPrefix(l.Text, "service-policy type qos input "):
					use("policy-map type quality-of-service "+lastWord(l.Text), ref{by: "service-policy on " + name, rendered: rendered})
				}
			}
		case isInterface(h.Text):
			name := h.Text[len("interface "):]
			for _, l := range h.Kids {
				switch {
				case strings.HasPrefix(l.Text, "service-profile "):
					p := strings.TrimPrefix(l.Text, "service-profile ")
					use("qos profile "+p, ref{by: "service-profile on " + name, outside: true})
					if wantProf[p] != nil {
						o.users[p] = append(o.users[p], name)
					}
				case strings.HasPrefix(l.Text, "service-policy type qos input "):
					use("policy-map type quality-of-service "+lastWord(l.Text), ref{by: "service-policy on " + name, outside: true})
				}
			}
		case isMMUApply(h.Text):
			use(strings.TrimSuffix(h.Text, " apply"), ref{by: "`" + h.Text + "`", outside: true})
		}
	}
	// What the rendered qos profiles apply stays.
	for _, p := range want {
		if !isProfile(p.Text) {
			continue
		}
		for _, l := range p.Kids {
			if strings.HasPrefix(l.Text, "service-policy type qos input ") {
				use("policy-map type quality-of-service "+lastWord(l.Text), ref{by: "service-policy in " + p.Text, rendered: true})
			}
		}
	}
	for p, names := range o.users {
		o.kept = append(o.kept, vendors.Kept{Object: "interface " + ifRanges(names) + ": service-profile " + p,
			Reason: "outside lossless' ports, applies lossless' qos profile " + p + ", so the profile's changes reach these ports too"})
	}

	// The top level, family by family; stanzas that use others come
	// first, so that their uses after the change are known.
	o.after = map[string]*node{}
	for name, p := range o.profiles {
		o.after[name] = p
	}
	for name, p := range wantProf {
		o.after[name] = p
	}
	var policies, classes []*node
	for _, h := range all {
		switch {
		case isInterface(h.Text), isMMUApply(h.Text):
		case isMapLine(h.Text):
			o.haveMaps = append(o.haveMaps, h)
		case wantBy[h.Key] != nil && isProfile(h.Text):
			o.have = append(o.have, pfcOffShown(o.scoped(h, wantBy[h.Key]), wantBy[h.Key]))
		case wantBy[h.Key] != nil:
			o.have = append(o.have, h)
		case isProfile(h.Text):
			if o.stays(h, uses[h.Text]) {
				for _, l := range h.Kids {
					if strings.HasPrefix(l.Text, "service-policy type qos input ") {
						use("policy-map type quality-of-service "+lastWord(l.Text), via("service-policy in "+h.Text, uses[h.Text]))
					}
				}
			} else {
				delete(o.after, lastWord(h.Text))
			}
		case isPolicyMap(h.Text):
			policies = append(policies, h)
		case isClassMap(h.Text):
			classes = append(classes, h)
		case isMMUProfile(h.Text):
			o.stays(h, uses[h.Text])
		case isPFCGlobal(h):
			switch {
			case rendered[h.Key]:
				o.have = append(o.have, h)
			case o.prune:
				o.have = append(o.have, h)
			default:
				why := "not rendered by lossless" + prunes
				if h.Text == "priority-flow-control all off" {
					why = "not rendered by lossless; it turns PFC off on every port, the managed ones included" + prunes
				}
				o.kept = append(o.kept, vendors.Kept{Object: h.Text, Reason: why})
			}
		}
	}
	for _, h := range policies {
		if o.stays(h, uses[h.Text]) {
			for _, c := range h.Kids {
				if name, ok := strings.CutPrefix(c.Text, "class "); ok && name != "class-default" {
					use("class-map "+name, via(h.Text, uses[h.Text]))
				}
			}
		}
	}
	for _, h := range classes {
		o.stays(h, uses["class-map "+lastWord(h.Text)])
	}

	for _, k := range o.portKeptOrder {
		pk := o.portKept[k]
		o.kept = append(o.kept, vendors.Kept{Object: "interface " + ifRanges(pk.ports) + ": " + pk.what, Reason: pk.why})
	}

	// The desired top level: managed ports with their kept lines.
	for _, w := range want {
		switch {
		case isMapLine(w.Text):
		case isInterface(w.Text) && ports[w.Key] != nil:
			o.want = append(o.want, ports[w.Key])
		default:
			o.want = append(o.want, w)
		}
	}
	return o
}

// usedOutside reports whether any user of an object is outside the scope.
func usedOutside(refs []ref) bool {
	return slices.ContainsFunc(refs, func(r ref) bool { return r.outside })
}

// usedRendered reports whether a line of the rendering uses an object.
func usedRendered(refs []ref) bool {
	return slices.ContainsFunc(refs, func(r ref) bool { return r.rendered })
}

// via is the use of an object by by, an object that stays used by refs:
// it stays for the same reasons.
func via(by string, refs []ref) ref {
	return ref{by: by, outside: usedOutside(refs), rendered: usedRendered(refs)}
}

// stays decides on an object of a managed family the rendering lacks,
// used after the change by refs: it stays, listed in kept, unless the
// intent prunes and nothing outside the scope or in the rendering uses
// it; then it joins the running top level the engine compares, which
// removes it.
func (o *owner) stays(h *node, refs []ref) bool {
	if o.prune && !usedOutside(refs) && !usedRendered(refs) {
		o.have = append(o.have, h)
		return false
	}
	o.kept = append(o.kept, vendors.Kept{Object: h.Text, Reason: keptReason(refs)})
	return true
}

// keptReason says why an object the rendering lacks stays.
func keptReason(refs []ref) string {
	if len(refs) == 0 {
		return "not rendered by lossless; nothing uses it" + prunes
	}
	by := make([]string, len(refs))
	for i, r := range refs {
		by[i] = r.by
	}
	slices.Sort(by)
	used := "not rendered by lossless; used by " + shortList(compactUsers(slices.Compact(by)))
	switch {
	case usedOutside(refs):
		return used + ", outside lossless' scope: never removed"
	case usedRendered(refs):
		return used + ", which the rendering has: never removed"
	}
	return used + prunes
}

// compactUsers writes the ports of "service-profile on EthernetN" users
// as one range ("service-profile on Ethernet1-4,7").
func compactUsers(by []string) []string {
	var out []string
	ports := map[string][]string{}
	var kinds []string
	for _, b := range by {
		kind, port, ok := strings.Cut(b, " on ")
		if !ok {
			out = append(out, b)
			continue
		}
		if ports[kind] == nil {
			kinds = append(kinds, kind)
		}
		ports[kind] = append(ports[kind], port)
	}
	for _, k := range kinds {
		out = append(out, k+" on "+ifRanges(ports[k]))
	}
	return out
}

// shortList joins names, the first 8 of them and how many more.
func shortList(names []string) string {
	const show = 8
	s := strings.Join(names[:min(len(names), show)], ", ")
	if len(names) > show {
		s += fmt.Sprintf(" and %d more", len(names)-show)
	}
	return s
}

// port returns a managed port's scoped running stanza (nil: no line in
// scope) and the desired stanza the engine compares it with: the
// rendering's w, with the running lines lossless does not own kept
// unless the intent prunes. A line is lossless' when the rendering sets
// its key on the port, directly or through the rendered qos profile the
// port applies (wantProf). A port's queue scheduling is one setting:
// when the rendering schedules any queue of the port, every `priority`
// and `bandwidth percent` line of its queues is lossless' (the shares of
// the round-robin queues add up to at most 100 %, and a round-robin
// queue makes the lower ones round-robin too: reference/eos.md §3).
func (o *owner) port(h, w *node, wantProf map[string]*node) (have, want *node) {
	have = pfcOffShown(o.scoped(h, w), w)
	var prof *node
	if sp := w.Child("service-profile"); sp != nil {
		prof = wantProf[strings.TrimPrefix(sp.Text, "service-profile ")]
	}
	want = w
	if have == nil || o.prune {
		return have, want
	}
	schedules := schedulesQueues(w) || schedulesQueues(prof)
	name := h.Text[len("interface "):]
	for i, l := range have.Kids {
		wl, pl := w.Child(l.Key), prof.Child(l.Key)
		rendered := wl != nil || pl != nil
		if !scopedQueue(l.Text) {
			if !rendered {
				o.keep(name, l.Text, l)
				want = withLine(want, have.Kids, i, l)
			}
			continue
		}
		// A queue block: the lines of it the rendering lacks.
		var block *node
		for j, k := range l.Kids {
			if wl.Child(k.Key) != nil || pl.Child(k.Key) != nil || schedules && isScheduling(k.Key) {
				continue
			}
			o.keep(name, l.Text+": "+k.Text, k)
			if block == nil {
				block = want.Child(l.Key)
				if block == nil {
					block = &node{Text: l.Text, Key: l.Key}
				}
			}
			block = withLine(block, l.Kids, j, k)
		}
		switch {
		case block == nil:
		case want.Child(l.Key) == nil:
			want = withLine(want, have.Kids, i, block)
		default:
			want = replaced(want, block)
		}
	}
	return have, want
}

// pfcOffShown returns have (a scoped port or qos profile stanza; nil for
// a port with no line in scope) with the `no priority-flow-control` line
// of the rendering w when have sets no PFC line: PFC is off by default
// (reference/eos.md §3 [C:eosdoc]), so a switch may show nothing for it,
// which is the same setting.
func pfcOffShown(have, w *node) *node {
	off := w.Child("priority-flow-control")
	if off == nil || off.Text != "no priority-flow-control" || have != nil && have.Child(off.Key) != nil {
		return have
	}
	if have == nil {
		return &node{Text: w.Text, Key: w.Key, Kids: []*node{off}}
	}
	c := &node{Text: have.Text, Key: have.Key, Kids: make([]*node, 0, len(have.Kids)+1)}
	c.Kids = append(c.Kids, off)
	c.Kids = append(c.Kids, have.Kids...)
	return c
}

// isScheduling reports a tx-queue line of the port's scheduler.
func isScheduling(key string) bool { return key == "priority" || key == "bandwidth percent" }

// schedulesQueues reports whether a port or profile stanza sets the
// scheduling of any of its queues.
func schedulesQueues(n *node) bool {
	if n == nil {
		return false
	}
	for _, q := range n.Kids {
		if scopedQueue(q.Text) && slices.ContainsFunc(q.Kids, func(k *node) bool { return isScheduling(k.Key) }) {
			return true
		}
	}
	return false
}

// keep lists a line of a managed port lossless does not render. The
// same line on several ports is one entry naming them all.
func (o *owner) keep(port, what string, l *node) {
	why := "not rendered by lossless on this managed port" + prunes
	switch {
	case strings.HasPrefix(l.Text, "service-profile "):
		why = "applies qos profile " + strings.TrimPrefix(l.Text, "service-profile ") + ", which lossless does not render; the port's own lines win over it" + prunes
	case strings.HasPrefix(l.Text, "service-policy type qos input "):
		why = "applies policy-map " + lastWord(l.Text) + ", which lossless does not render and which may reclassify the port's traffic" + prunes
	}
	k := what + "\x00" + why
	pk := o.portKept[k]
	if pk == nil {
		if o.portKept == nil {
			o.portKept = map[string]*portKept{}
		}
		pk = &portKept{what: what, why: why}
		o.portKept[k] = pk
		o.portKeptOrder = append(o.portKeptOrder, k)
	}
	pk.ports = append(pk.ports, port)
}

// portKept is one line kept on managed ports.
type portKept struct {
	what, why string
	ports     []string
}

// withLine returns a copy of n with line l added after the last of its
// lines that precedes l in src (src[i] is l, or the block holding it),
// so that the desired stanza keeps the running order.
func withLine(n *node, src []*node, i int, l *node) *node {
	c := &node{Text: n.Text, Key: n.Key, Kids: make([]*node, 0, len(n.Kids)+1)}
	at := 0
	for j := i - 1; j >= 0; j-- {
		if k := slices.IndexFunc(n.Kids, func(x *node) bool { return x.Key == src[j].Key }); k >= 0 {
			at = k + 1
			break
		}
	}
	c.Kids = append(c.Kids, n.Kids[:at]...)
	c.Kids = append(c.Kids, l)
	c.Kids = append(c.Kids, n.Kids[at:]...)
	return c
}

// replaced returns a copy of n whose line with b's key is b.
func replaced(n, b *node) *node {
	c := &node{Text: n.Text, Key: n.Key, Kids: slices.Clone(n.Kids)}
	for i, k := range c.Kids {
		if k.Key == b.Key {
			c.Kids[i] = b
		}
	}
	return c
}

// scoped copies a port or profile stanza with its in-scope lines only:
// the kinds of line the renderer writes, and any other line the
// rendering w (nil: none) has for it, so that a rendering never fights a
// line the scope cannot see. A stanza that has nothing else is returned
// as it is; one with no line in scope is nil for a port.
func (o *owner) scoped(n, w *node) *node {
	if allScoped(n, w) {
		if len(n.Kids) == 0 && isInterface(n.Text) {
			return nil
		}
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
				if o.partial == nil {
					o.partial = map[*node]bool{}
				}
				o.partial[q] = true
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
	if len(c.Kids) == 0 && isInterface(n.Text) {
		return nil
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

// ifRanges writes interface names as EOS takes a range of them
// (reference/eos.md §4: `interface Ethernet1-2`; a list continues with
// the numbers only, "Ethernet1-4,29,31-32"), in order.
func ifRanges(names []string) string {
	type port struct {
		kind, prefix string // "Ethernet", "1/" of Ethernet1/3
		n            int
		name         string
	}
	ps := make([]port, 0, len(names))
	for _, s := range names {
		i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
		j := strings.LastIndexByte(s, '/') + 1
		n, err := strconv.Atoi(s[max(i, j):])
		if i <= 0 || err != nil {
			ps = append(ps, port{name: s, n: -1})
			continue
		}
		ps = append(ps, port{kind: s[:i], prefix: s[i:max(i, j)], n: n, name: s})
	}
	slices.SortStableFunc(ps, func(a, b port) int {
		if c := strings.Compare(a.kind, b.kind); c != 0 {
			return c
		}
		if c := strings.Compare(a.prefix, b.prefix); c != 0 {
			return c
		}
		return a.n - b.n
	})
	ps = slices.CompactFunc(ps, func(a, b port) bool { return a.name == b.name })
	var b strings.Builder
	kind := ""
	for i := 0; i < len(ps); {
		p := ps[i]
		if i > 0 {
			b.WriteByte(',')
		}
		if p.n < 0 {
			b.WriteString(p.name)
			kind = ""
			i++
			continue
		}
		if p.kind != kind {
			b.WriteString(p.kind)
			kind = p.kind
		}
		j := i
		for j+1 < len(ps) && ps[j+1].n >= 0 && ps[j+1].kind == p.kind && ps[j+1].prefix == p.prefix && ps[j+1].n == ps[j].n+1 {
			j++
		}
		b.WriteString(p.prefix + strconv.Itoa(p.n))
		if j > i {
			b.WriteString("-" + strconv.Itoa(ps[j].n))
		}
		i = j + 1
	}
	return b.String()
}

// afterTree is the config a change from running to desired leaves inside
// the scope: the rendering with the lines of managed ports it keeps, the
// qos profiles it keeps, and the maps as they will be. The gNMI driver's
// OpenConfig view compares with it.
func afterTree(running []byte, desired *config.Document) ([]*config.Node, error) {
	all, err := parse(running)
	if err != nil {
		return nil, err
	}
	o := own(desired, all)
	mc := o.diffMaps(clidiff.New(rules{o}, dialect))
	var out []*config.Node
	for _, n := range o.want {
		out = append(out, configNode(n))
	}
	wanted := profilesOf(o.want)
	for _, name := range slices.Sorted(maps.Keys(o.after)) {
		if wanted[name] == nil {
			out = append(out, configNode(o.after[name]))
		}
	}
	for _, n := range mc.all {
		out = append(out, configNode(n))
	}
	return out, nil
}

// configNode copies a canonical node as a config node.
func configNode(n *node) *config.Node {
	c := &config.Node{Text: n.Text}
	for _, k := range n.Kids {
		c.Children = append(c.Children, configNode(k))
	}
	return c
}
