package eos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

func commands(t *testing.T, running, desired string) []string {
	t.Helper()
	return change(t, running, desired, false).Commands
}

// change is the change from running to desired, with the intent's
// unmanaged = "prune" when prune is set.
func change(t *testing.T, running, desired string, prune bool) *vendors.Change {
	t.Helper()
	doc := document(t, desired)
	doc.Prune = prune
	ch, err := Diff("leaf1", []byte(running), doc)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// pruned is the commands of change with unmanaged = "prune".
func pruned(t *testing.T, running, desired string) []string {
	t.Helper()
	return change(t, running, desired, true).Commands
}

// kept returns the Kept entry for object, or fails.
func kept(t *testing.T, ch *vendors.Change, object string) vendors.Kept {
	t.Helper()
	for _, k := range ch.Kept {
		if k.Object == object {
			return k
		}
	}
	t.Fatalf("%q not listed as kept; kept: %q", object, ch.Kept)
	return vendors.Kept{}
}

func indexOf(t *testing.T, cmds []string, line string) int {
	t.Helper()
	i := slices.Index(cmds, line)
	if i < 0 {
		t.Fatalf("%q not sent; commands:\n%s", line, strings.Join(cmds, "\n"))
	}
	return i
}

// TestIdenticalIsEmpty: the same config printed differently (header,
// other block order, DSCP order, legacy PFC keyword, trailing zeros,
// the hidden default watchdog action) and with config outside the scope
// needs no change.
func TestIdenticalIsEmpty(t *testing.T) {
	want := readFile(t, "canonical.cfg")
	running := "! Command: show running-config\n! device: leaf1 (DCS-7050CX3-32S, EOS-4.32.2F)\n!\nhostname leaf1\n!\n" + strings.NewReplacer(
		"qos map dscp 24 26 to", "qos map dscp 26 24 to",
		"interface Ethernet2\n   qos trust dscp\n   priority-flow-control on\n", "interface Ethernet2\n   description host-2\n   qos trust dscp\n   priority-flow-control mode on\n",
		"default timeout 0.2\n", "default timeout 0.20\n",
		"max-mark-probability 100\n", "max-mark-probability 100\n      random-detect ecn count\n",
	).Replace(want) + "!\ninterface Ethernet9\n   qos trust cos\n   priority-flow-control on\n!\nend\n"
	// tx-queue 6 before tx-queue 3 on Ethernet1.
	running = strings.Replace(running, "   !\n   tx-queue 6\n      priority strict\n!\ninterface Ethernet2", "!\ninterface Ethernet2", 1)
	running = strings.Replace(running, "   priority-flow-control pause watchdog\n   !\n   tx-queue 3", "   priority-flow-control pause watchdog\n   !\n   tx-queue 6\n      priority strict\n   !\n   tx-queue 3", 1)
	desired := want + "priority-flow-control pause watchdog action errdisable\n"
	desired = strings.Replace(desired, "priority-flow-control pause watchdog action drop\n", "", 1)
	running = strings.Replace(running, "priority-flow-control pause watchdog action drop\n", "", 1)
	if cmds := commands(t, running, desired); len(cmds) != 0 {
		t.Errorf("equal configs give commands:\n%s", strings.Join(cmds, "\n"))
	}
}

// TestECNReplacedInOneStep: a changed random-detect ecn value is sent as
// the full new line, which replaces the old one; the queue is never
// without ECN (no "no random-detect ecn").
func TestECNReplacedInOneStep(t *testing.T) {
	want := readFile(t, "canonical.cfg")
	running := strings.ReplaceAll(want, "minimum-threshold 150 kbytes", "minimum-threshold 100 kbytes")
	ecn := "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100"
	wantCmds := []string{"interface Ethernet1", "tx-queue 3", ecn, "exit", "exit", "interface Ethernet2", "tx-queue 3", ecn}
	if d := cmp.Diff(wantCmds, commands(t, running, want)); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// TestDSCPNeverUnmapped: a changed DSCP map is sent as the full desired
// line (moving 26 from another class, keeping 24); the value 40, which
// the intent does not map and which is not at EOS's default (5), is
// kept and listed, or with unmanaged = "prune" negated, back to the
// default map, first (before the queue settings of a class it leaves
// could go); 25, shown at its default (3), is never negated: there is
// nothing to restore. No command unmaps a value the intent keeps.
func TestDSCPNeverUnmapped(t *testing.T) {
	want := readFile(t, "canonical.cfg")
	running := strings.Replace(want, "qos map dscp 24 26 to traffic-class 3\n", "qos map dscp 24 25 40 to traffic-class 3\nqos map dscp 26 to traffic-class 5\n", 1)
	ch := change(t, running, want, false)
	if d := cmp.Diff([]string{"qos map dscp 24 26 to traffic-class 3"}, ch.Commands); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	if k := kept(t, ch, "qos map dscp 40 to traffic-class 3"); !strings.Contains(k.Reason, "not rendered by lossless") {
		t.Errorf("reason %q", k.Reason)
	}
	if len(ch.Kept) != 1 {
		t.Errorf("kept %q, want only DSCP 40", ch.Kept)
	}
	wantCmds := []string{"no qos map dscp 40 to traffic-class 3", "qos map dscp 24 26 to traffic-class 3"}
	if d := cmp.Diff(wantCmds, pruned(t, running, want)); d != "" {
		t.Errorf("pruned commands (-want +got):\n%s", d)
	}
}

// TestMapDefaultsHidden: EOS hides values at their default (reference/
// eos.md §2.1, §9 item 2), so a running config without the canonical
// `qos map dscp 24 26 to traffic-class 3` (the default map) needs no
// change, while one without `… 48 to traffic-class 6` (also the
// default) needs none either; a value the intent moves off its default
// is sent.
func TestMapDefaultsHidden(t *testing.T) {
	want := readFile(t, "canonical.cfg")
	running := strings.Replace(want, "qos map dscp 24 26 to traffic-class 3\nqos map dscp 48 to traffic-class 6\n", "", 1)
	if ch := change(t, running, want, true); !ch.Empty() || ch.Diff != "" {
		t.Errorf("hidden default map lines give a change:\n%s\n%q", ch.Diff, ch.Commands)
	}
	moved := strings.Replace(want, "qos map dscp 48 to traffic-class 6", "qos map dscp 40 48 to traffic-class 6", 1)
	got := commands(t, running, moved)
	if d := cmp.Diff([]string{"qos map dscp 40 48 to traffic-class 6"}, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// TestProfileDetachedBeforeDelete: the new qos profile exists before a
// port applies it, a port's service-profile is replaced in one step (no
// `no service-profile` in between), and the old profile is deleted only
// after no port applies it (reference/eos.md §3.1).
func TestProfileDetachedBeforeDelete(t *testing.T) {
	want := readFile(t, "profile.cfg")
	running := strings.ReplaceAll(want, "ROCE_LOSSLESS", "ROCE_OLD")
	// lossless does not render ROCE_OLD: by default it stays, listed.
	ch := change(t, running, want, false)
	if slices.Contains(ch.Commands, "no qos profile ROCE_OLD") {
		t.Errorf("unrendered profile deleted without unmanaged = \"prune\":\n%s", strings.Join(ch.Commands, "\n"))
	}
	if k := kept(t, ch, "qos profile ROCE_OLD"); !strings.Contains(k.Reason, "nothing uses it") {
		t.Errorf("reason %q", k.Reason)
	}
	got := pruned(t, running, want)
	create := indexOf(t, got, "qos profile ROCE_LOSSLESS")
	del := indexOf(t, got, "no qos profile ROCE_OLD")
	for _, port := range []string{"interface Ethernet1", "interface Ethernet2"} {
		i := indexOf(t, got, port)
		if got[i+1] != "service-profile ROCE_LOSSLESS" {
			t.Errorf("%s: %q after it, want the new service-profile", port, got[i+1])
		}
		if i < create || i > del {
			t.Errorf("%s switched before the profile exists or after the old one is deleted:\n%s", port, strings.Join(got, "\n"))
		}
	}
	if slices.Contains(got, "no service-profile") {
		t.Errorf("a port is left without a profile:\n%s", strings.Join(got, "\n"))
	}
	if del != len(got)-1 {
		t.Errorf("old profile not deleted last:\n%s", strings.Join(got, "\n"))
	}
}

// TestDirectLinesBeforeProfileLeaves: a port moving from a qos profile
// to direct lines gets its lines before `no service-profile`, and the
// profile is deleted after that.
func TestDirectLinesBeforeProfileLeaves(t *testing.T) {
	// By default the ports keep the profile lossless no longer renders
	// (their own lines win over it), and the plan says so.
	ch := change(t, readFile(t, "profile.cfg"), readFile(t, "canonical.cfg"), false)
	if slices.Contains(ch.Commands, "no service-profile") || slices.Contains(ch.Commands, "no qos profile ROCE_LOSSLESS") {
		t.Errorf("profile detached or deleted without unmanaged = \"prune\":\n%s", strings.Join(ch.Commands, "\n"))
	}
	kept(t, ch, "interface Ethernet1-2: service-profile ROCE_LOSSLESS")
	if k := kept(t, ch, "qos profile ROCE_LOSSLESS"); !strings.Contains(k.Reason, "service-profile on Ethernet1-2") {
		t.Errorf("reason %q", k.Reason)
	}
	got := pruned(t, readFile(t, "profile.cfg"), readFile(t, "canonical.cfg"))
	for _, port := range []string{"interface Ethernet1", "interface Ethernet2"} {
		i := indexOf(t, got, port)
		j := i + slices.Index(got[i:], "no service-profile")
		if j < i || !slices.Contains(got[i:j], "priority-flow-control priority 3 no-drop") {
			t.Errorf("%s: no service-profile before its direct PFC lines:\n%s", port, strings.Join(got, "\n"))
		}
	}
	if indexOf(t, got, "no qos profile ROCE_LOSSLESS") != len(got)-1 {
		t.Errorf("profile not deleted last:\n%s", strings.Join(got, "\n"))
	}
}

// bandwidths replays commands and calls check with each port's bandwidth
// shares after every command.
func bandwidths(t *testing.T, running string, cmds []string, check func(port string, sum int, after string)) {
	t.Helper()
	share := map[string]map[string]int{} // port → queue → percent
	nodes, err := parse([]byte(running))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		share[n.Text] = map[string]int{}
		for _, q := range n.Kids {
			if b := q.Child("bandwidth percent"); b != nil {
				share[n.Text][q.Text] = percent(b.Text)
			}
		}
	}
	var ctx []string
	for _, c := range cmds {
		switch {
		case c == "exit":
			ctx = ctx[:len(ctx)-1]
		case isStanza(c):
			ctx = append(ctx, c)
			if share[c] == nil && len(ctx) == 1 {
				share[c] = map[string]int{}
			}
		case strings.HasPrefix(c, "no tx-queue "):
			delete(share[ctx[0]], c[3:])
		case strings.HasPrefix(c, "bandwidth percent "):
			share[ctx[0]][ctx[1]] = percent(c)
		case c == "no bandwidth percent":
			delete(share[ctx[0]], ctx[1])
		}
		if len(ctx) > 0 {
			sum := 0
			for _, v := range share[ctx[0]] {
				sum += v
			}
			check(ctx[0], sum, c)
		}
	}
}

// TestBandwidthNeverAbove100: shares move so that a port's bandwidth
// percentages add up to at most 100 after every command, also when a
// queue with a share is removed while another grows.
func TestBandwidthNeverAbove100(t *testing.T) {
	queues := func(shares ...int) string {
		var b strings.Builder
		b.WriteString("interface Ethernet1\n   qos trust dscp\n")
		for i, s := range shares {
			if s > 0 {
				fmt.Fprintf(&b, "   !\n   tx-queue %d\n      no priority\n      bandwidth percent %d\n", i+2, s)
			}
		}
		return b.String()
	}
	tests := []struct {
		name          string
		running, want string
	}{
		{"swap", queues(0, 70, 30), queues(0, 30, 70)},
		{"queue removed", queues(40, 30, 30), queues(0, 60, 40)},
		{"queue added", queues(0, 50, 50), queues(20, 40, 40)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds := commands(t, tc.running, tc.want)
			if len(cmds) == 0 {
				t.Fatal("no commands")
			}
			bandwidths(t, tc.running, cmds, func(port string, sum int, after string) {
				if sum > 100 {
					t.Errorf("%s: bandwidth sum %d%% after %q:\n%s", port, sum, after, strings.Join(cmds, "\n"))
				}
			})
			bandwidths(t, tc.running, cmds, func(string, int, string) {})
			if again := commands(t, apply(t, tc.running, cmds), tc.want); len(again) != 0 {
				t.Errorf("commands do not converge; left:\n%s", strings.Join(again, "\n"))
			}
		})
	}
}

// noLine are the "no" forms EOS keeps as lines of their own (a value,
// not a removal; reference/eos.md §3).
var noLine = map[string]bool{"no qos trust": true, "no priority-flow-control": true, "no priority": true}

// apply is a small model of a device for the pure tests: it runs
// commands on a running config text the way EOS edits it (set by key,
// no/default removes) and prints the result.
func apply(t *testing.T, running string, cmds []string) string {
	t.Helper()
	roots, err := parse([]byte(running))
	if err != nil {
		t.Fatal(err)
	}
	top := &node{Kids: roots}
	stack := []*node{top}
	for _, c := range cmds {
		cur := stack[len(stack)-1]
		switch {
		case c == "exit":
			stack = stack[:len(stack)-1]
		case noLine[c]:
			n := newNode(c, nil)
			if old := cur.Child(n.Key); old != nil {
				old.Text = c
			} else {
				cur.Kids = append(cur.Kids, n)
			}
		case strings.HasPrefix(c, "no "), strings.HasPrefix(c, "default "):
			_, rest, _ := strings.Cut(c, " ")
			k := keyOf(rest)
			cur.Kids = slices.DeleteFunc(cur.Kids, func(n *node) bool { return n.Key == k })
		default:
			n := newNode(c, nil)
			if old := cur.Child(n.Key); old != nil {
				old.Text = n.Text
				n = old
			} else {
				cur.Kids = append(cur.Kids, n)
			}
			if isStanza(c) {
				stack = append(stack, n)
			}
		}
	}
	return print(top.Kids)
}

// TestStaleProfileOfAnotherPort: a profile the rendering no longer has,
// which a port outside the intent still applies, is never deleted, even
// with unmanaged = "prune", and the plan names the port; the port is not
// touched. Unused, it is deleted after the managed ports move away from
// it when the intent prunes.
func TestStaleProfileOfAnotherPort(t *testing.T) {
	want := readFile(t, "profile.cfg")
	old := strings.ReplaceAll(want, "ROCE_LOSSLESS", "ROCE_OLD")
	running := strings.Replace(old, "qos map dscp 24 26", "interface Ethernet9\n   service-profile ROCE_OLD\n!\nqos map dscp 24 26", 1)
	for _, prune := range []bool{false, true} {
		ch := change(t, running, want, prune)
		for _, c := range ch.Commands {
			if c == "no qos profile ROCE_OLD" || c == "interface Ethernet9" {
				t.Errorf("prune=%v: %q sent; Ethernet9 still applies ROCE_OLD:\n%s", prune, c, strings.Join(ch.Commands, "\n"))
			}
		}
		indexOf(t, ch.Commands, "service-profile ROCE_LOSSLESS")
		k := kept(t, ch, "qos profile ROCE_OLD")
		if !strings.Contains(k.Reason, "service-profile on Ethernet9") || !strings.Contains(k.Reason, "never removed") {
			t.Errorf("prune=%v: reason %q does not name Ethernet9", prune, k.Reason)
		}
	}
	if got := pruned(t, old, want); !slices.Contains(got, "no qos profile ROCE_OLD") {
		t.Errorf("unused stale profile kept with unmanaged = \"prune\":\n%s", strings.Join(got, "\n"))
	}
}

// TestRenderedLineInScope: a line the rendering has joins the scope even
// if its kind is not one lossless renders today (here `dcbx mode ieee`
// and `random-detect ecn count`): it is sent when missing and then stays
// equal, while the lines beside it stay outside.
func TestRenderedLineInScope(t *testing.T) {
	want := strings.Replace(readFile(t, "canonical.cfg"), "interface Ethernet1\n", "interface Ethernet1\n   dcbx mode ieee\n", 1)
	want = strings.Replace(want, "max-mark-probability 100\n", "max-mark-probability 100\n      random-detect ecn count\n", 1)
	running := strings.Replace(readFile(t, "canonical.cfg"), "interface Ethernet1\n", "interface Ethernet1\n   description host-1\n", 1)
	got := commands(t, running, want)
	wantCmds := []string{"interface Ethernet1", "dcbx mode ieee", "tx-queue 3", "random-detect ecn count"}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	if again := commands(t, apply(t, running, got), want); len(again) != 0 {
		t.Errorf("not converged: %q", again)
	}
}

// TestPortOutsideKeepsItsConfig: a port outside the intent that applies
// lossless' profile (one that left the inventory, or an operator's) is
// outside the scope: nothing is sent to it in either mode, and the plan
// says that the profile's changes reach it, and names it among the
// ports whose PFC changes when the profile's does.
func TestPortOutsideKeepsItsConfig(t *testing.T) {
	want := readFile(t, "profile.cfg")
	running := strings.Replace(want, "qos map dscp 24 26", "interface Ethernet3\n   description storage\n   mtu 9214\n   service-profile ROCE_LOSSLESS\n   priority-flow-control on\n!\nqos map dscp 24 26", 1)
	for _, prune := range []bool{false, true} {
		ch := change(t, running, want, prune)
		if len(ch.Commands) != 0 {
			t.Errorf("prune=%v: commands sent:\n%s", prune, strings.Join(ch.Commands, "\n"))
		}
		if k := kept(t, ch, "interface Ethernet3: service-profile ROCE_LOSSLESS"); !strings.Contains(k.Reason, "reach") {
			t.Errorf("reason %q", k.Reason)
		}
	}
	stale := strings.Replace(running, "priority 3 no-drop", "priority 4 no-drop", 1)
	ch := change(t, stale, want, false)
	if len(ch.Disruptive) != 1 || !strings.Contains(ch.Disruptive[0], "PFC changes on Ethernet1, Ethernet2, Ethernet3:") {
		t.Errorf("disruptive %q, want Ethernet3 named with the managed ports", ch.Disruptive)
	}
	for _, c := range ch.Commands {
		if c == "interface Ethernet3" {
			t.Errorf("%q sent:\n%s", c, strings.Join(ch.Commands, "\n"))
		}
	}
}

// TestNegations: lines leave with the negation that restores the factory
// default, not one that sets another value (`no qos trust` is
// untrusted, `no priority` round-robin, reference/eos.md §3), PFC in the
// order of §3.1, and a tx-queue block holding lines outside the scope is
// emptied line by line instead of removed.
func TestNegations(t *testing.T) {
	want := readFile(t, "canonical.cfg")
	running := strings.Replace(want, "      priority strict\n!\ninterface Ethernet2", "      priority strict\n      random-detect ecn count\n!\ninterface Ethernet2", 1)
	desired := strings.Replace(want, "interface Ethernet1\n   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\n", "interface Ethernet1\n", 1)
	desired = strings.Replace(desired, "   !\n   tx-queue 6\n      priority strict\n!\ninterface Ethernet2", "!\ninterface Ethernet2", 1)
	// The lines the rendering drops are kept without unmanaged = "prune"
	// (TestKeptNotRendered).
	got := pruned(t, running, desired)
	wantCmds := []string{
		"interface Ethernet1",
		"no priority-flow-control pause watchdog",
		"no priority-flow-control priority 3",
		"default priority-flow-control",
		"default qos trust",
		"tx-queue 6",
		"default priority",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// TestParseIndentation: nesting follows relative indentation, so AVD's
// 4-space blocks read as well as EOS's 3 (reference/eos.md §2.1).
func TestParseIndentation(t *testing.T) {
	nodes, err := Parse([]byte("platform trident mmu queue profile P\n    egress unicast queue 3 threshold 1/8\n!\ninterface Ethernet1\n   tx-queue 3\n      priority strict\n   qos trust dscp\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 || len(nodes[0].Children) != 1 || len(nodes[1].Children) != 2 || len(nodes[1].Children[0].Children) != 1 {
		t.Errorf("wrong tree: %+v", nodes)
	}
	if _, err := Parse([]byte("   tx-queue 3\n")); err == nil {
		t.Error("an indented first line parsed")
	}
}

// BenchmarkDiff10k: parse, scope, diff and remediation of a 10,000-line
// running config (goal ≤ 5 ms per device, issue 5).
func BenchmarkDiff10k(b *testing.B) {
	running, desired := bigConfigs(b, 10_000)
	doc := document(b, desired)
	vendortest.BenchDiff(b, Diff, running, doc)
}

// bigConfigs returns a running config of about lines lines (ports with
// the canonical lossless lines and unrelated ones, every 50th port with
// stale ECN thresholds, the DSCP map and watchdog globals) and its
// desired config.
func bigConfigs(b testing.TB, lines int) ([]byte, string) {
	var run, des strings.Builder
	n := 0
	for port := 1; n < lines; port++ {
		name := "interface Ethernet" + strconv.Itoa(port/48+1) + "/" + strconv.Itoa(port%48+1)
		ecn := "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100"
		stale := ecn
		if port%50 == 0 {
			stale = strings.Replace(ecn, "150", "100", 1)
		}
		const body = "   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\n   !\n   tx-queue 3\n      %s\n   !\n   tx-queue 6\n      priority strict\n!\n"
		fmt.Fprintf(&run, "%s\n   description host-%d\n   mtu 9214\n"+body, name, port, stale)
		fmt.Fprintf(&des, "%s\n"+body, name, ecn)
		n += 13
	}
	globals := "qos map dscp 24 26 to traffic-class 3\nqos map dscp 48 to traffic-class 6\n!\npriority-flow-control pause watchdog default timeout 0.2\npriority-flow-control pause watchdog action drop\n"
	run.WriteString(globals)
	des.WriteString(globals)
	return []byte(run.String()), des.String()
}

// TestLabSeedSplitPriorities: a stanza whose PFC priority lines are not
// together gets a stale priority after each run of them (LabSeed indexed
// the stanza by its growing copy and ran off its end).
func TestLabSeedSplitPriorities(t *testing.T) {
	const desired = "interface Ethernet1\n   priority-flow-control priority 3 no-drop\n   qos trust dscp\n   priority-flow-control priority 5 no-drop\n!\n"
	got := string(LabSeed([]byte(desired)))
	if n := strings.Count(got, stalePFC); n != 2 {
		t.Errorf("%d stale priorities, want 2:\n%s", n, got)
	}
}

// TestDisruptive: the plan names the ports whose PFC settings change,
// reading each port with its service-profile expanded: a port moving
// between the direct and the profile layout with the same settings is
// not named, a profile change names every port applying it.
func TestDisruptive(t *testing.T) {
	canonical, profile := readFile(t, "canonical.cfg"), readFile(t, "profile.cfg")
	const pfcPorts = "PFC changes on Ethernet1, Ethernet2:"
	tests := []struct {
		name, running, desired string
		prune                  bool
		want                   []string // substrings, one per reason
	}{
		{"layout only", canonical, profile, false, nil},
		{"layout only, back", profile, canonical, true, nil},
		// Kept, the stale priority and DSCP change nothing.
		{"stale priority kept", string(LabSeed([]byte(canonical))), canonical, false, nil},
		{"stale priority on ports", string(LabSeed([]byte(canonical))), canonical, true, []string{pfcPorts, "DSCP → traffic-class map"}},
		{"profile change", strings.Replace(profile, "priority 3 no-drop", "priority 4 no-drop", 1), profile, false, []string{pfcPorts}},
		{"ECN only", strings.Replace(profile, "150 kbytes", "100 kbytes", 1), profile, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ch := change(t, tc.running, tc.desired, tc.prune)
			if ch.Empty() {
				t.Fatal("no change")
			}
			if len(ch.Disruptive) != len(tc.want) {
				t.Fatalf("disruptive %q, want %d reasons %q", ch.Disruptive, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(ch.Disruptive[i], w) && !strings.Contains(ch.Disruptive[(i+1)%len(tc.want)], w) {
					t.Errorf("disruptive %q lacks %q", ch.Disruptive, w)
				}
			}
		})
	}
}

// TestFeatureDiffs: the lines of the intent's features beyond the core
// change in one step each, and a switch that shows no PFC line has PFC
// off, the same as the rendering's `no priority-flow-control`.
func TestFeatureDiffs(t *testing.T) {
	port := func(lines ...string) string {
		return "interface Ethernet1\n   " + strings.Join(lines, "\n   ") + "\n"
	}
	off := port("qos trust cos", "no priority-flow-control", "priority-flow-control priority 3 no-drop")
	tests := []struct {
		name, running, desired string
		want                   []string
	}{
		{"PFC off shown as nothing", port("qos trust cos", "priority-flow-control priority 3 no-drop"), off, nil},
		{"PFC off shown", off, off, nil},
		{"PFC on to off", port("qos trust cos", "priority-flow-control on", "priority-flow-control priority 3 no-drop"), off,
			[]string{"interface Ethernet1", "no priority-flow-control"}},
		{"trust dscp to cos", port("qos trust dscp"), port("qos trust cos"), []string{"interface Ethernet1", "qos trust cos"}},
		{"guarantee and shape change", port("tx-queue 6", "   priority strict", "   bandwidth guaranteed percent 5", "   shape rate 10000000 kbps"),
			port("tx-queue 6", "   priority strict", "   bandwidth guaranteed percent 10", "   shape rate 20000000 kbps"),
			[]string{"interface Ethernet1", "tx-queue 6", "bandwidth guaranteed percent 10", "shape rate 20000000 kbps"}},
		{"CoS map value moves", "qos map cos 3 4 to traffic-class 3\n", "qos map cos 3 to traffic-class 3\nqos map cos 4 to traffic-class 4\n",
			[]string{"qos map cos 4 to traffic-class 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := commands(t, tt.running, tt.desired)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("commands (-want +got):\n%s", diff)
			}
		})
	}
	// Lines the rendering no longer sets are someone else's (own.go):
	// kept, and with unmanaged = "prune" removed.
	had := port("tx-queue 6", "   priority strict", "   bandwidth guaranteed percent 5", "   shape rate 10000000 kbps")
	if got := commands(t, had, port("tx-queue 6", "   priority strict")); got != nil {
		t.Errorf("commands %q, want none (kept)", got)
	}
	want := []string{"interface Ethernet1", "tx-queue 6", "no bandwidth guaranteed", "no shape rate"}
	if diff := cmp.Diff(want, pruned(t, had, port("tx-queue 6", "   priority strict"))); diff != "" {
		t.Errorf("pruned (-want +got):\n%s", diff)
	}
}
