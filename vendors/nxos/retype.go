package nxos

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/vendors"
)

// A class-map whose match type changes (match-all ↔ match-any) is a new
// class-map: NX-OS has no command that changes the match type of an
// existing one, and the lab refuses the class-map line with the other
// type [I: no public source was found on what a switch does; deleting
// and creating works whichever way it behaves]. NX-OS refuses to delete
// a class-map a policy uses (reference/nxos.md §2, §3), so the change is
// made through a twin, a class-map of the new type and matches under a
// name of its own, and every policy stays valid and classifies the
// traffic at every step:
//
//  1. the twin is created (phaseClassMap);
//  2. in each policy of the scope that uses the class-map, the twin's
//     class joins with the class's desired lines, then the class leaves
//     (phaseRetypeLeave): its traffic is caught by the twin, a class
//     added after the others and before class-default, which NX-OS
//     always evaluates last [I];
//  3. the class-map is deleted and created with its new match type
//     (phaseRetype);
//  4. the class comes back in each policy and the twin's class leaves
//     (phasePolicyQoS, the ordinary diff), and the twin is deleted
//     (phaseDeleteClassMap).
//
// When a policy outside the scope uses the class-map, lossless cannot
// delete it: the match type stays, Change.Kept says why, and the rest of
// the class-map (its match lines) is changed in place, under its running
// class-map line.

// twinSuffix ends the name of a retyped class-map's twin.
const twinSuffix = "-lossless"

// retyping is one class-map whose match type changes.
type retyping struct {
	want, have *node
	// users are the running type qos policies of the scope that use it.
	users []*node
}

// retype records the commands of every class-map of want whose match
// type differs from its running peer's, and returns the trees the
// ordinary diff then compares: without those class-maps, and with the
// policies that use them as they are after step 2. all is the whole
// running config, have its part in the scope; the peers are set.
func (sc *scope) retype(d *clidiff.Differ, want, have, all []*node) (engineWant, engineHave []*node) {
	var rs []retyping
	// kept are the class-maps whose match type stays: the ordinary diff
	// changes their lines under the running class-map line.
	kept := map[*node]*node{}
	taken := map[string]bool{}
	for _, n := range all {
		if family(n.Text) == "class-map" {
			taken[className(n.Text)] = true
		}
	}
	for _, w := range want {
		h := w.Peer
		if family(w.Text) != "class-map" {
			continue
		}
		taken[className(w.Text)] = true
		if h == nil || h.Text == w.Text {
			continue
		}
		r := retyping{want: w, have: h}
		var blockers []string
		for _, p := range all {
			if !slices.Contains(classes(p), className(w.Text)) {
				continue
			}
			if sc.ownsTop(p) {
				r.users = append(r.users, p)
			} else {
				blockers = append(blockers, sc.describe(p.Key))
			}
		}
		if len(blockers) > 0 {
			sc.kept = append(sc.kept, vendors.Kept{Object: h.Text, Reason: "the rendering's " + matchType(w.Text) +
				" needs it deleted and created anew (NX-OS cannot change a class-map's match type in place), but " +
				strings.Join(blockers, "; ") + " uses it"})
			c := &node{Text: h.Text, Key: w.Key, Kids: w.Kids, Peer: h}
			h.Peer, kept[w] = c, c
			continue
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 && len(kept) == 0 {
		return want, have
	}
	skip := map[*node]bool{}
	copies := map[*node]*node{}
	for _, r := range rs {
		name := className(r.want.Text)
		twin := ""
		for _, p := range r.users {
			path := []string{p.Text}
			wc := p.Peer.Child("class " + name)
			if wc != nil {
				if twin == "" {
					twin = twinName(name, taken)
					t := "class-map type qos " + matchType(r.want.Text) + " " + twin
					d.Add(phaseClassMap, stepSet, nil, t)
					for _, k := range r.want.Kids {
						d.Add(phaseClassMap, stepSet, []string{t}, k.Text)
					}
					d.Add(phaseDeleteClassMap, 0, nil, "no "+t)
				}
				d.Add(phaseRetypeLeave, stepSet, path, "class "+twin)
				for _, k := range wc.Kids {
					d.Add(phaseRetypeLeave, stepSet, []string{p.Text, "class " + twin}, k.Text)
				}
			}
			d.Add(phaseRetypeLeave, stepRemoveStanza, path, "no class "+name)
			if p.Peer == nil {
				continue // a policy lossless deletes: it only had to let go
			}
			c := copies[p]
			if c == nil {
				c = &node{Text: p.Text, Key: p.Key, Kids: slices.Clone(p.Kids), Peer: p.Peer}
				copies[p] = c
				p.Peer.Peer = c
			}
			c.Kids = slices.DeleteFunc(c.Kids, func(k *node) bool { return k.Key == "class "+name })
			if wc != nil {
				c.Kids = append(c.Kids, &node{Text: "class " + twin, Key: "class " + twin, Kids: wc.Kids})
			}
		}
		d.Add(phaseRetype, stepRemove, nil, "no "+r.have.Text)
		d.Add(phaseRetype, stepSet, nil, r.want.Text)
		for _, k := range r.want.Kids {
			d.Add(phaseRetype, stepSet, []string{r.want.Text}, k.Text)
		}
		skip[r.want], skip[r.have] = true, true
	}
	for _, w := range want {
		switch {
		case skip[w]:
		case kept[w] != nil:
			engineWant = append(engineWant, kept[w])
		default:
			engineWant = append(engineWant, w)
		}
	}
	for _, h := range have {
		switch {
		case skip[h]:
		case copies[h] != nil:
			engineHave = append(engineHave, copies[h])
		default:
			engineHave = append(engineHave, h)
		}
	}
	return engineWant, engineHave
}

// matchType is the match type of a canonical class-map line.
func matchType(text string) string {
	f := strings.Fields(text)
	if len(f) == 5 {
		return f[3]
	}
	return "match-all"
}

// twinName is a class-map name for name's twin that no class-map has,
// and marks it taken.
func twinName(name string, taken map[string]bool) string {
	t := name + twinSuffix
	for i := 2; taken[t]; i++ {
		t = name + twinSuffix + strconv.Itoa(i)
	}
	taken[t] = true
	return t
}
