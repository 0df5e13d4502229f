package nxos

import (
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/vendors"
)

// Ownership on NX-OS: which objects of the families lossless manages
// (class-map type qos; policy-map type qos, queuing and network-qos; the
// service-policy lines that attach them) it may change or delete, and
// which it keeps.
//
//   - lossless changes what it renders, and deletes what carries its
//     names and nothing outside the scope uses: the policies named
//     QOS_CLASSIFICATION*, QOS_EGRESS_PORT* or qos_network, the
//     class-maps those policies use, and the service-policy lines that
//     attach those policies;
//   - any other object of those families (another team's class-map or
//     policy, a hand-added attachment on a managed port) is left alone
//     and listed in Change.Kept; with the intent's unmanaged = "prune"
//     it is deleted, unless something outside the scope uses it;
//   - nothing that something outside the scope uses is ever deleted
//     (NX-OS refuses to delete a class-map a policy uses or a policy that
//     is attached, reference/nxos.md §3): the class leaves lossless'
//     policy, the class-map stays, and Kept names the user;
//   - the PFC settings (the global priority-flow-control lines, those of
//     the ports in the scope) are lossless' whole: a line it does not
//     render goes back to its default.
//
// The running config Diff reads is the whole of `show running-config
// ipqos`: every class-map, policy-map and service-policy line, on every
// port and under system qos, so the uses from outside the scope are
// seen; only the scope below is ever changed.

// Reasons of Change.Kept.
const (
	notRendered = "not rendered by lossless"
	usedByFmt   = "used by %s"
)

// maxPlaces is how many attachment places a reason names before it
// counts the rest.
const maxPlaces = 4

// family returns "class-map" or "policy-map" for the top-level line of
// an object of a family lossless manages, "" for any other line.
func family(text string) string {
	switch {
	case strings.HasPrefix(text, "class-map type qos "):
		return "class-map"
	case strings.HasPrefix(text, "policy-map type qos "), strings.HasPrefix(text, "policy-map type queuing "),
		strings.HasPrefix(text, "policy-map type network-qos "):
		return "policy-map"
	}
	return ""
}

// policyName splits "policy-map type T NAME".
func policyName(text string) (typ, name string, ok bool) {
	rest, ok := strings.CutPrefix(text, "policy-map type ")
	if !ok {
		return "", "", false
	}
	typ, name, ok = strings.Cut(rest, " ")
	return typ, name, ok && !strings.Contains(name, " ")
}

// losslessName reports whether a policy-map carries the name the
// renderer gives lossless' policies of its type (ownedPolicyBases).
func losslessName(text string) bool {
	typ, name, ok := policyName(text)
	base := ownedPolicyBases[typ]
	return ok && base != "" && (name == base || strings.HasPrefix(name, base+"_"))
}

// policyRef names a policy-map by its type and name, substrings of the
// line that holds them, so that a lookup allocates nothing (a switch has
// thousands of service-policy lines).
type policyRef struct{ typ, name string }

// policyOf returns the policy-map a top-level line declares.
func policyOf(text string) (policyRef, bool) {
	typ, name, ok := policyName(text)
	return policyRef{typ, name}, ok
}

// attaches returns the policy-map a service-policy line attaches; false
// for any other line.
func attaches(text string) (policyRef, bool) {
	rest, ok := strings.CutPrefix(text, "service-policy type ")
	if !ok {
		return policyRef{}, false
	}
	typ, rest, ok := strings.Cut(rest, " ")
	if !ok {
		return policyRef{}, false
	}
	return policyRef{typ, rest[strings.LastIndexByte(rest, ' ')+1:]}, true
}

// lineRef is a line of a stanza, as a map key.
type lineRef struct{ stanza, line string }

// className is the name of a class-map ("class-map type qos match-any
// NAME").
func className(text string) string { return text[strings.LastIndexByte(text, ' ')+1:] }

// classes returns the class-map names a type qos policy's classes use
// (class-default is no class-map).
func classes(p *node) []string {
	if !strings.HasPrefix(p.Text, "policy-map type qos ") {
		return nil
	}
	var out []string
	for _, c := range p.Kids {
		if name, ok := strings.CutPrefix(c.Text, "class "); ok && name != "class-default" {
			out = append(out, name)
		}
	}
	return out
}

// scope is lossless' part of one running config: what it may change, and
// the objects of its families it leaves on the device, with why.
type scope struct {
	// want indexes the desired top-level nodes: whatever lossless renders
	// is in the scope.
	want map[string]*node
	// owned are the keys of the running class-maps and policy-maps
	// lossless may delete.
	owned map[string]bool
	// ifs are the texts of the interface stanzas in the scope: managed
	// ports, and ports that attach lossless' policies.
	ifs map[string]bool
	// keepLines are the service-policy lines of stanzas in the scope that
	// stay.
	keepLines map[lineRef]bool
	// uses maps the policy-maps that are not lossless' to where they stay
	// attached after the change ("Ethernet1/9", "system qos"), in the
	// running config's order.
	uses map[policyRef][]string
	// kept is what stays in lossless' families, and why.
	kept []vendors.Kept
}

// newScope decides lossless' part of the running top level have for the
// rendering want (both canonical); prune is the intent's unmanaged =
// "prune" (config.Document.Prune).
func newScope(want, have []*node, prune bool) *scope {
	return newScopeIndexed(want, clidiff.Index(want), have, prune)
}

// newScopeIndexed is newScope given wantBy, the index of want.
func newScopeIndexed(want []*node, wantBy map[string]*node, have []*node, prune bool) *scope {
	sc := &scope{want: wantBy, owned: map[string]bool{}, ifs: make(map[string]bool, len(want)),
		keepLines: map[lineRef]bool{}, uses: map[policyRef][]string{}}
	// Lossless' policies: rendered, or named as lossless names them.
	ours := map[policyRef]bool{}
	for _, n := range want {
		switch {
		case family(n.Text) == "policy-map":
			p, _ := policyOf(n.Text)
			ours[p] = true
		case strings.HasPrefix(n.Text, "interface "):
			sc.ifs[n.Text] = true
		}
	}
	for _, n := range have {
		if family(n.Text) == "policy-map" && losslessName(n.Text) {
			p, _ := policyOf(n.Text)
			ours[p] = true
		}
	}
	// A port that attaches one of lossless' policies is in the scope.
	for _, n := range have {
		if !strings.HasPrefix(n.Text, "interface ") || sc.ifs[n.Text] {
			continue
		}
		for _, l := range n.Kids {
			if p, ok := attaches(l.Text); ok && ours[p] {
				sc.ifs[n.Text] = true
				break
			}
		}
	}
	// The service-policy lines of the stanzas in the scope that lossless
	// neither renders nor names stay, unless pruned.
	for _, n := range have {
		if !sc.stanza(n) {
			continue
		}
		w := wantBy[n.Key]
		for _, l := range n.Kids {
			if p, ok := attaches(l.Text); !ok || w.Child(l.Key) != nil || ours[p] || prune {
				continue
			}
			sc.keepLines[lineRef{n.Text, l.Text}] = true
			sc.kept = append(sc.kept, vendors.Kept{Object: n.Text + ": " + l.Text, Reason: notRendered})
		}
	}
	sc.attachments(want, have, ours)
	sc.objects(want, wantBy, have, ours, prune)
	return sc
}

// stanza reports whether n is a stanza of the scope whose lines are
// sorted one by one: system qos, or an interface in the scope.
func (sc *scope) stanza(n *node) bool {
	return n.Text == "system qos" || sc.ifs[n.Text]
}

// attachments fills uses: where each policy that is not lossless' (ours)
// stays attached after the change. In the stanzas of the scope that is
// the rendering and the lines that stay; everywhere else (ports outside
// the scope, VLANs) the running config. Lossless' policies are attached
// only inside the scope, which is what pulls a port into it.
func (sc *scope) attachments(want, have []*node, ours map[policyRef]bool) {
	place := func(stanza string) string { return strings.TrimPrefix(stanza, "interface ") }
	add := func(p policyRef, at string) {
		if ps := sc.uses[p]; len(ps) == 0 || ps[len(ps)-1] != at {
			sc.uses[p] = append(ps, at)
		}
	}
	for _, n := range want {
		for _, l := range n.Kids {
			if p, ok := attaches(l.Text); ok && !ours[p] {
				add(p, place(n.Text))
			}
		}
	}
	for _, n := range have {
		in := sc.stanza(n)
		for _, l := range n.Kids {
			if in && len(sc.keepLines) == 0 {
				break
			}
			if p, ok := attaches(l.Text); ok && !ours[p] && (!in || sc.keepLines[lineRef{n.Text, l.Text}]) {
				add(p, place(n.Text))
			}
		}
	}
}

// objects decides the fate of every running class-map and policy-map
// lossless does not render: deleted when it is lossless' (or pruned) and
// nothing that stays uses it, kept otherwise. Keeping one keeps what it
// uses, so the decision runs until nothing changes.
func (sc *scope) objects(want []*node, wantBy map[string]*node, have []*node, ours map[policyRef]bool, prune bool) {
	// The class-maps lossless' running policies use are lossless'.
	ourClasses := map[string]bool{}
	for _, n := range have {
		if p, ok := policyOf(n.Text); ok && ours[p] {
			for _, c := range classes(n) {
				ourClasses[c] = true
			}
		}
	}
	// users maps a class-map name to the policy-maps that use it after
	// the change: the rendered ones as rendered, the others as running.
	users := map[string][]string{}
	for _, n := range want {
		for _, c := range classes(n) {
			users[c] = append(users[c], n.Key)
		}
	}
	var objs []*node
	own := map[string]bool{}
	removing := map[string]bool{}
	for _, n := range have {
		f := family(n.Text)
		if f == "" || wantBy[n.Key] != nil {
			continue
		}
		objs = append(objs, n)
		for _, c := range classes(n) {
			users[c] = append(users[c], n.Key)
		}
		p, _ := policyOf(n.Text)
		own[n.Key] = f == "policy-map" && ours[p] || f == "class-map" && ourClasses[className(n.Text)]
		removing[n.Key] = own[n.Key] || prune
	}
	by := map[string]string{}
	for changed := true; changed; {
		changed = false
		for _, n := range objs {
			if !removing[n.Key] {
				continue
			}
			if u := sc.usedBy(n, users[className(n.Text)], removing); u != "" {
				removing[n.Key], by[n.Key], changed = false, u, true
			}
		}
	}
	for _, n := range objs {
		switch {
		case removing[n.Key]:
			sc.owned[n.Key] = true
		case own[n.Key] || prune:
			sc.kept = append(sc.kept, vendors.Kept{Object: n.Text, Reason: fmt.Sprintf(usedByFmt, by[n.Key])})
		default:
			reason := notRendered
			if u := sc.usedBy(n, users[className(n.Text)], removing); u != "" {
				reason += "; " + fmt.Sprintf(usedByFmt, u)
			}
			sc.kept = append(sc.kept, vendors.Kept{Object: n.Text, Reason: reason})
		}
	}
}

// usedBy says what that stays uses n, "" for nothing: the attachments of
// a policy-map, or the policy-maps among users of a class-map that are
// not being deleted.
func (sc *scope) usedBy(n *node, users []string, removing map[string]bool) string {
	if p, ok := policyOf(n.Text); ok {
		if ps := sc.uses[p]; len(ps) > 0 {
			return "service-policy on " + places(ps)
		}
		return ""
	}
	var out []string
	for _, p := range users {
		if !removing[p] {
			out = append(out, sc.describe(p))
		}
	}
	return strings.Join(out, "; ")
}

// describe names a policy-map (its key) and where it is attached:
// "policy-map type qos OTHER (service-policy on Ethernet1/9)".
func (sc *scope) describe(policy string) string {
	p, _ := policyOf(policy)
	if ps := sc.uses[p]; len(ps) > 0 {
		return policy + " (service-policy on " + places(ps) + ")"
	}
	return policy + " (not attached)"
}

// places lists attachment places, the first maxPlaces of them by name.
func places(ps []string) string {
	if len(ps) <= maxPlaces {
		return strings.Join(ps, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ps[:maxPlaces], ", "), len(ps)-maxPlaces)
}

// ownsTop reports whether a running top-level node is in the scope.
func (sc *scope) ownsTop(n *node) bool {
	switch {
	case strings.HasPrefix(n.Text, "interface "), n.Text == "system qos":
		return sc.stanza(n)
	case sc.want[n.Key] != nil:
		return true
	case family(n.Text) != "":
		return sc.owned[n.Key]
	}
	return strings.HasPrefix(n.Text, "priority-flow-control ") && len(n.Kids) == 0
}

// ownsLine reports whether a line of a stanza of the scope (system qos,
// an interface) is in the scope: the rendering has its key, or it is a
// PFC or service-policy line that does not stay.
func (sc *scope) ownsLine(stanza, l *node) bool {
	if sc.want[stanza.Key].Child(l.Key) != nil {
		return true
	}
	return ownedLine(l.Text) && (len(sc.keepLines) == 0 || !sc.keepLines[lineRef{stanza.Text, l.Text}])
}

// ownedLine reports whether a line inside an interface or system qos is
// of lossless' families (the QoS and PFC lines).
func ownedLine(text string) bool {
	return strings.HasPrefix(text, "priority-flow-control ") || strings.HasPrefix(text, "service-policy ")
}

// filter keeps the running stanzas and lines inside the scope. The lines
// of system qos and interfaces are filtered in place.
func (sc *scope) filter(have []*node) []*node {
	out := make([]*node, 0, len(have))
	for _, n := range have {
		switch {
		case sc.stanza(n):
			kids := n.Kids[:0]
			for _, l := range n.Kids {
				if sc.ownsLine(n, l) {
					kids = append(kids, l)
				}
			}
			n.Kids = kids
			out = append(out, n)
		case sc.ownsTop(n):
			out = append(out, n)
		}
	}
	return out
}
