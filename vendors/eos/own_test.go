package eos

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/vendors"
)

// TestKeptNotRendered: objects of the families lossless manages that its
// rendering lacks (testdata/others.cfg: a second qos profile, hand-added
// policy-maps and class-maps, MMU queue profiles, a stale no-drop
// priority, an extra tx-queue and a service-policy on managed ports, a
// DSCP and a traffic-class map value, global PFC lines) are left alone
// and each is listed with why. With unmanaged = "prune" they go, in an
// order EOS accepts (a port's reference before the object, a qos profile
// before the policy-map it applies, a policy-map before its class-maps),
// except what a port outside the scope uses, directly or through another
// object: the qos profile Ethernet9 applies, the policy-map Ethernet10
// and that profile apply, the class-map of that policy-map, and the MMU
// profile the global apply line applies; the reason names the user.
func TestKeptNotRendered(t *testing.T) {
	running, want := readFile(t, "others.cfg"), readFile(t, "canonical.cfg")
	ch := change(t, running, want, false)
	if !ch.Empty() || ch.Diff != "" {
		t.Errorf("changes sent without unmanaged = \"prune\":\n%s\n%s", ch.Diff, strings.Join(ch.Commands, "\n"))
	}
	objects := make([]string, len(ch.Kept))
	for i, k := range ch.Kept {
		objects[i] = k.Object
	}
	wantKept := []string{
		"class-map type qos match-any OPS_BULK",
		"class-map type qos match-any OPS_MGMT",
		"class-map type qos match-any OPS_UNUSED",
		"interface Ethernet1-2: priority-flow-control priority 4 no-drop",
		"interface Ethernet1: service-policy type qos input OPS_MARK",
		"interface Ethernet1: tx-queue 4: random-detect ecn minimum-threshold 100 kbytes maximum-threshold 2000 kbytes max-mark-probability 50",
		"platform trident mmu queue profile OPS_BUFFERS",
		"platform trident mmu queue profile OPS_SPARE_MMU",
		"policy-map type quality-of-service OPS_EDGE",
		"policy-map type quality-of-service OPS_MARK",
		"priority-flow-control all off",
		"priority-flow-control pause watchdog override action drop",
		"qos map dscp 40 to traffic-class 4",
		"qos map traffic-class 3 to tx-queue 5",
		"qos profile OPS",
		"qos profile OPS_SPARE",
	}
	if d := cmp.Diff(wantKept, objects); d != "" {
		t.Errorf("kept (-want +got):\n%s", d)
	}
	for obj, why := range map[string]string{
		"qos profile OPS": "used by service-profile on Ethernet9, outside lossless' scope: never removed",
		"policy-map type quality-of-service OPS_MARK":                     `used by service-policy on Ethernet1 (unmanaged = "prune" removes it)`,
		"class-map type qos match-any OPS_MGMT":                           "used by policy-map type quality-of-service OPS_EDGE, outside lossless' scope: never removed",
		"platform trident mmu queue profile OPS_BUFFERS":                  "`platform trident mmu queue profile OPS_BUFFERS apply`, outside lossless' scope: never removed",
		"qos profile OPS_SPARE":                                           "nothing uses it",
		"interface Ethernet1-2: priority-flow-control priority 4 no-drop": "not rendered by lossless on this managed port",
	} {
		if k := kept(t, ch, obj); !strings.Contains(k.Reason, why) {
			t.Errorf("%s: reason %q lacks %q", obj, k.Reason, why)
		}
	}

	ch = change(t, running, want, true)
	wantCmds := []string{
		"no qos map dscp 40 to traffic-class 4",
		"interface Ethernet1",
		"no priority-flow-control priority 4",
		"no service-policy type qos input OPS_MARK",
		"no tx-queue 4",
		"exit",
		"interface Ethernet2",
		"no priority-flow-control priority 4",
		"exit",
		"no qos map traffic-class 3 to tx-queue 5",
		"no priority-flow-control all off",
		"no priority-flow-control pause watchdog override action drop",
		"no qos profile OPS_SPARE",
		"no policy-map type quality-of-service OPS_MARK",
		"no class-map type qos match-any OPS_BULK",
		"no class-map type qos match-any OPS_UNUSED",
		"no platform trident mmu queue profile OPS_SPARE_MMU",
	}
	if d := cmp.Diff(wantCmds, ch.Commands); d != "" {
		t.Errorf("pruned commands (-want +got):\n%s", d)
	}
	objects = objects[:0]
	for _, k := range ch.Kept {
		objects = append(objects, k.Object)
		if !strings.Contains(k.Reason, "never removed") {
			t.Errorf("%s kept with unmanaged = \"prune\": %s", k.Object, k.Reason)
		}
	}
	wantKept = []string{
		"class-map type qos match-any OPS_MGMT",
		"platform trident mmu queue profile OPS_BUFFERS",
		"policy-map type quality-of-service OPS_EDGE",
		"qos profile OPS",
	}
	if d := cmp.Diff(wantKept, objects); d != "" {
		t.Errorf("kept with unmanaged = \"prune\" (-want +got):\n%s", d)
	}
	for _, why := range []string{"priority-flow-control all off goes", "traffic-class → tx-queue map changes", "DSCP → traffic-class map changes", "PFC changes on Ethernet1, Ethernet2:"} {
		if !slices.ContainsFunc(ch.Disruptive, func(r string) bool { return strings.Contains(r, why) }) {
			t.Errorf("disruptive %q lacks %q", ch.Disruptive, why)
		}
	}
}

// TestGlobalsOwned: the system-wide lines (reference/eos.md §0, §3):
// lossless owns a global PFC line whose key it renders, also at a
// default EOS hides (`action errdisable`: the running `action drop`
// goes); one it does not render is kept (or pruned); a map value at
// EOS's default (DSCP 25 → traffic-class 3, traffic-class 4 → tx-queue
// 4) is neither removed nor listed, in either mode: EOS hides defaults
// (§2.1), there is nothing to restore.
func TestGlobalsOwned(t *testing.T) {
	base := readFile(t, "canonical.cfg")
	desired := strings.Replace(base, "priority-flow-control pause watchdog default timeout 0.2\n", "", 1)
	desired = strings.Replace(desired, "action drop", "action errdisable", 1)
	running := strings.Replace(base, "default timeout 0.2", "default timeout 0.5", 1)
	running = strings.Replace(running, "qos map dscp 24 26 to traffic-class 3\n", "qos map dscp 24 25 26 to traffic-class 3\nqos map traffic-class 4 to tx-queue 4\n", 1)
	ch := change(t, running, desired, false)
	if d := cmp.Diff([]string{"no priority-flow-control pause watchdog action"}, ch.Commands); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	if len(ch.Kept) != 1 || ch.Kept[0].Object != "priority-flow-control pause watchdog default timeout 0.5" {
		t.Errorf("kept %q, want the timeout only", ch.Kept)
	}
	want := []string{"no priority-flow-control pause watchdog default timeout", "no priority-flow-control pause watchdog action"}
	if d := cmp.Diff(want, pruned(t, running, desired)); d != "" {
		t.Errorf("pruned commands (-want +got):\n%s", d)
	}
}

// TestDiffShowsEveryCommand: the human diff shows what the commands
// change, also when a removal is typed `default …` (a top-level `no X`
// line goes back with `default X`, which the diff used to miss: the
// first two cases sent `default priority-flow-control pause watchdog…`
// with an empty diff), and is empty exactly when there are no commands;
// a line kept is never shown as removed.
func TestDiffShowsEveryCommand(t *testing.T) {
	canonical, profile := readFile(t, "canonical.cfg"), readFile(t, "profile.cfg")
	tests := []struct {
		name, running, desired string
		keep                   bool
		shows                  []string // lines of the diff
	}{
		{"top-level no line", canonical + "no priority-flow-control pause watchdog\n", canonical, false, []string{"-no priority-flow-control pause watchdog"}},
		{"top-level no line of a watchdog key", strings.Replace(canonical, "priority-flow-control pause watchdog default timeout 0.2", "no priority-flow-control pause watchdog default timeout 0.2", 1),
			strings.Replace(canonical, "priority-flow-control pause watchdog default timeout 0.2\n", "", 1), false, []string{"-no priority-flow-control pause watchdog default timeout 0.2"}},
		{"hidden default action", canonical, strings.Replace(canonical, "action drop", "action errdisable", 1), false, []string{"-priority-flow-control pause watchdog action drop"}},
		{"DSCP moved", strings.Replace(canonical, "qos map dscp 48 to", "qos map dscp 26 48 to", 1), canonical, false,
			[]string{"-qos map dscp 24 to traffic-class 3", "+qos map dscp 24 26 to traffic-class 3", "-qos map dscp 26 48 to traffic-class 6", "+qos map dscp 48 to traffic-class 6"}},
		{"kept lines are no removal", string(LabSeed([]byte(canonical))), canonical, true, []string{"-      " + staleECN}},
		{"profile deleted", strings.ReplaceAll(profile, "ROCE_LOSSLESS", "ROCE_OLD"), profile, false, []string{"-qos profile ROCE_OLD", "+qos profile ROCE_LOSSLESS"}},
		{"order only", strings.Replace(canonical, "   qos trust dscp\n   priority-flow-control on\n", "   priority-flow-control on\n   qos trust dscp\n", 1), canonical, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ch := change(t, tc.running, tc.desired, !tc.keep)
			checkDiff(t, ch)
			lines := strings.Split(ch.Diff, "\n")
			for _, s := range tc.shows {
				if !slices.Contains(lines, s) {
					t.Errorf("diff lacks %q:\n%s\ncommands:\n%s", s, ch.Diff, strings.Join(ch.Commands, "\n"))
				}
			}
			for _, k := range ch.Kept {
				if l := strings.TrimSpace(k.Object[strings.LastIndex(k.Object, ": ")+1:]); strings.Contains(ch.Diff, "-   "+l) {
					t.Errorf("kept %q shown as removed:\n%s", l, ch.Diff)
				}
			}
			if tc.shows == nil && !ch.Empty() {
				t.Errorf("commands for a reorder:\n%s", strings.Join(ch.Commands, "\n"))
			}
		})
	}
}

// checkDiff: a change has a human diff exactly when it has commands.
func checkDiff(t *testing.T, ch *vendors.Change) {
	t.Helper()
	if (len(ch.Commands) > 0) != (ch.Diff != "") {
		t.Errorf("commands %q but diff %q", ch.Commands, ch.Diff)
	}
}

// TestIfRanges: port lists are written as EOS takes a range.
func TestIfRanges(t *testing.T) {
	for in, want := range map[string]string{
		"Ethernet1": "Ethernet1",
		"Ethernet2,Ethernet1,Ethernet3,Ethernet30":     "Ethernet1-3,30",
		"Ethernet1/2,Ethernet1/1,Ethernet2/1":          "Ethernet1/1-2,2/1",
		"Port-Channel10,Ethernet4,Ethernet5,Ethernet5": "Ethernet4-5,Port-Channel10",
	} {
		if got := ifRanges(strings.Split(in, ",")); got != want {
			t.Errorf("ifRanges(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestDiffIffCommands: on 2,000 running configs made of lines of the
// test configs in random order and nesting (seeded, so reproducible),
// with and without unmanaged = "prune", the human diff is empty exactly
// when there are no commands (FuzzParseRunning checks the same on what
// the fuzzer finds).
func TestDiffIffCommands(t *testing.T) {
	var lines []string
	for _, name := range []string{"canonical.cfg", "profile.cfg", "others.cfg"} {
		lines = append(lines, strings.Split(readFile(t, name), "\n")...)
	}
	keep := document(t, readFile(t, "canonical.cfg"))
	prune := document(t, readFile(t, "profile.cfg"))
	prune.Prune = true
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(60) {
			l := lines[r.IntN(len(lines))]
			if r.IntN(5) == 0 {
				l = strings.TrimLeft(l, " ")
			}
			b.WriteString(l + "\n")
		}
		for _, doc := range []*config.Document{keep, prune} {
			ch, err := Diff("leaf1", []byte(b.String()), doc)
			if err != nil {
				continue
			}
			if (len(ch.Commands) > 0) != (ch.Diff != "") {
				t.Fatalf("prune=%v: commands %q, diff %q, running:\n%s", doc.Prune, ch.Commands, ch.Diff, b.String())
			}
		}
	}
}

// TestRenderedUseKeeps: an object the rendering names (here a rendering
// with a service-policy line on a port) stays with unmanaged = "prune"
// although the rendering does not hold the object itself.
func TestRenderedUseKeeps(t *testing.T) {
	canonical := readFile(t, "canonical.cfg")
	desired := strings.Replace(canonical, "interface Ethernet1\n", "interface Ethernet1\n   service-policy type qos input OPS_MARK\n", 1)
	running := desired + "policy-map type quality-of-service OPS_MARK\n   class class-default\n      set traffic-class 1\n"
	ch := change(t, running, desired, true)
	if !ch.Empty() {
		t.Errorf("commands:\n%s", strings.Join(ch.Commands, "\n"))
	}
	if k := kept(t, ch, "policy-map type quality-of-service OPS_MARK"); !strings.Contains(k.Reason, "which the rendering has: never removed") {
		t.Errorf("reason %q", k.Reason)
	}
}
