package huaweice

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// canonicalText is reference/huawei-ce.md §1.1 (family B), the desired
// config of these tests.
func canonicalText(t testing.TB) string {
	return string(vendortest.Testdata(t, "canonical.cfg"))
}

func commands(t *testing.T, running, desired string) []string {
	t.Helper()
	ch, err := Diff("leaf1", []byte(running), document(t, desired))
	if err != nil {
		t.Fatal(err)
	}
	return ch.Commands
}

func indexOf(t *testing.T, cmds []string, line string) int {
	t.Helper()
	i := slices.Index(cmds, line)
	if i < 0 {
		t.Fatalf("%q not sent; commands:\n%s", line, strings.Join(cmds, "\n"))
	}
	return i
}

// TestIdenticalIsEmpty: the same config, printed differently (the header,
// hidden default lines, a lower-case interface name with a space, a DSCP
// map without its default colour, another section order, priority list
// order), needs no change.
func TestIdenticalIsEmpty(t *testing.T) {
	want := canonicalText(t)
	running := "!Software Version V300R023C00\n!Last configuration was updated at 2026-11-29 10:00:00+00:00\n#\nsysname leaf1\n" + strings.NewReplacer(
		"dcb pfc deadlock-detect interval 10\n#\n", "",
		" priority 3\n", "",
		" priority 3 deadlock-recovery time 10\n", "",
		"ip-dscp-inbound 48 phb cs6 green", "ip-dscp-inbound 48 phb cs6",
		"interface 100GE1/0/2", "interface 100ge 1/0/2",
	).Replace(want)
	// drop-profile before the domain.
	dom := "#\ndiffserv domain roce\n ip-dscp-inbound 24 phb af3 green\n ip-dscp-inbound 26 phb af3 green\n ip-dscp-inbound 48 phb cs6\n"
	running = strings.Replace(running, dom, "", 1)
	running = strings.Replace(running, "#\ninterface 100GE1/0/1\n", dom+"#\ninterface 100GE1/0/1\n", 1)
	if cmds := commands(t, running, want); len(cmds) != 0 {
		t.Errorf("equal configs give commands:\n%s", strings.Join(cmds, "\n"))
	}
	desired := strings.Replace(want, " priority 3\n", " priority 4 3\n", 1)
	if cmds := commands(t, strings.Replace(want, " priority 3\n", " priority 3 4\n", 1), desired); len(cmds) != 0 {
		t.Errorf("equal priority sets give commands:\n%s", strings.Join(cmds, "\n"))
	}
}

// TestDoubleSpaceKeepsDepth: a line with two spaces inside it (an
// operator's description) stays at the depth of its indentation, and the
// config diffs as the single-spaced one does.
func TestDoubleSpaceKeepsDepth(t *testing.T) {
	want := canonicalText(t)
	spaced := strings.Replace(want, "interface 100GE1/0/1\n", "interface 100GE1/0/1\n description  to  host\n", 1)
	if spaced == want {
		t.Fatal("canonical config has no interface 100GE1/0/1")
	}
	nodes, err := Parse([]byte(spaced))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n.Text == "interface 100GE1/0/1" && (len(n.Children) == 0 || n.Children[0].Text != "description to host") {
			t.Errorf("description not the first line of its interface: %+v", n.Children)
		}
	}
	if cmds := commands(t, spaced, want); len(cmds) != 0 {
		t.Errorf("a description outside the scope gives commands:\n%s", strings.Join(cmds, "\n"))
	}
}

// TestECNReplacedInOneStep: changed ECN thresholds are sent as the full new
// `ecn buffer-size` line, which replaces the old one; the queue is never
// without ECN (no "undo ecn", no undo of the wred or ecn port lines).
func TestECNReplacedInOneStep(t *testing.T) {
	want := canonicalText(t)
	running := strings.Replace(want, "low-limit 153600 high-limit 3072000 discard-percentage 10", "low-limit 102400 high-limit 2048000 discard-percentage 5", 1)
	got := commands(t, running, want)
	wantCmds := []string{
		"drop-profile roce-ecn",
		"ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10",
		"quit",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// TestECNPercentAndColours: ECN thresholds moving from bytes to percent
// of the queue are the one new `ecn low-limit` line (the same `ecn`
// command, V300R023 command page "ecn"); a new colour is its `color`
// line and a colour no longer wanted is `undo color red` (command page
// "color"), a changed one its new line alone.
func TestECNPercentAndColours(t *testing.T) {
	want := canonicalText(t)
	old := " ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n"
	running := strings.Replace(want, old, old+" color red low-limit 40 high-limit 60 discard-percentage 40\n color yellow low-limit 50 high-limit 80 discard-percentage 20\n", 1)
	desired := strings.Replace(want, old, " ecn low-limit 50 high-limit 80 discard-percentage 30\n color yellow low-limit 60 high-limit 80 discard-percentage 20\n", 1)
	got := commands(t, running, desired)
	slices.Sort(got[1 : len(got)-1])
	wantCmds := []string{
		"drop-profile roce-ecn",
		"color yellow low-limit 60 high-limit 80 discard-percentage 20",
		"ecn low-limit 50 high-limit 80 discard-percentage 30",
		"undo color red",
		"quit",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	if cmds := commands(t, desired, desired); len(cmds) != 0 {
		t.Errorf("equal configs give commands:\n%s", strings.Join(cmds, "\n"))
	}
}

// TestDSCPRemapInOneStep: a DSCP moving to another queue is one
// ip-dscp-inbound line, never an undo first (which would send it to its
// default queue for a moment); a stale DSCP is undone. When the desired
// mapping is the built-in default (DSCP 26 → af3 green, §1.1), the undo
// is itself the one step that restores it.
func TestDSCPRemapInOneStep(t *testing.T) {
	want := strings.Replace(canonicalText(t), "ip-dscp-inbound 26 phb af3 green", "ip-dscp-inbound 26 phb af4 green", 1)
	running := strings.Replace(want, "ip-dscp-inbound 26 phb af4 green", "ip-dscp-inbound 26 phb af2 green\n ip-dscp-inbound 10 phb af3 green", 1)
	got := commands(t, running, want)
	wantCmds := []string{
		"diffserv domain roce",
		"undo ip-dscp-inbound 10",
		"ip-dscp-inbound 26 phb af4 green",
		"quit",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	got = commands(t, running, canonicalText(t))
	wantCmds = []string{
		"diffserv domain roce",
		"undo ip-dscp-inbound 26",
		"undo ip-dscp-inbound 10",
		"quit",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("back to the default mapping (-want +got):\n%s", d)
	}
}

// TestPortsCleanedBeforeDelete: a stale drop-profile and domain are deleted
// only after every port stopped using them (reference Errata: clean
// interfaces before undo diffserv domain / undo drop-profile), and a
// queue's ECN goes before its WRED (§2.5: ecn needs wred).
func TestPortsCleanedBeforeDelete(t *testing.T) {
	want := canonicalText(t)
	running := strings.Replace(want, "#\ninterface 100GE1/0/1\n", "#\ndrop-profile roce-ecn-4\n ecn buffer-size low-limit 204800 high-limit 1024000 discard-percentage 20\n#\ninterface 100GE1/0/1\n", 1)
	running = strings.ReplaceAll(running, " qos queue 3 ecn\n", " qos queue 3 ecn\n qos queue 4 wred roce-ecn-4\n qos queue 4 ecn\n")
	running = strings.Replace(running, "diffserv domain roce\n", "diffserv domain roce-2\n ip-dscp-inbound 10 phb af1 green\n#\ndiffserv domain roce\n", 1)
	running = strings.Replace(running, "interface 100GE1/0/2\n trust dscp\n trust upstream roce\n", "interface 100GE1/0/2\n trust dscp\n trust upstream roce-2\n", 1)
	got := commands(t, running, want)
	delDrop := indexOf(t, got, "undo drop-profile roce-ecn-4")
	delDom := indexOf(t, got, "undo diffserv domain roce-2")
	for i, c := range got {
		if (c == "undo qos queue 4 wred" && i > delDrop) || (c == "trust upstream roce" && i > delDom) {
			t.Errorf("%q sent after the object it stops using was deleted:\n%s", c, strings.Join(got, "\n"))
		}
	}
	for _, port := range []string{"interface 100GE1/0/1", "interface 100GE1/0/2"} {
		at := indexOf(t, got[indexOf(t, got, port):], "undo qos queue 4 ecn")
		wred := indexOf(t, got[indexOf(t, got, port):], "undo qos queue 4 wred")
		if at > wred {
			t.Errorf("%s: wred removed before ecn:\n%s", port, strings.Join(got, "\n"))
		}
	}
	if n := strings.Count(strings.Join(got, "\n"), "undo qos queue 4 wred"); n != 2 {
		t.Errorf("undo qos queue 4 wred sent %d times, want once per port:\n%s", n, strings.Join(got, "\n"))
	}
}

// TestUndoDRRTakesWeights: `undo qos drr A to B` also removes the weights
// of queues A..B (reference Errata), so they are never undone again, and
// desired weights in the new range are sent again after the new range.
func TestUndoDRRTakesWeights(t *testing.T) {
	want := canonicalText(t)
	// Running: queues 0..6 in DRR with a weight on the stale queue 5.
	running := strings.ReplaceAll(want, " qos drr 0 to 5\n qos queue 0 drr weight 40\n qos queue 3 drr weight 60\n",
		" qos drr 0 to 6\n qos queue 0 drr weight 40\n qos queue 3 drr weight 60\n qos queue 5 drr weight 20\n")
	got := commands(t, running, want)
	wantPort := []string{
		"undo qos drr 0 to 6",
		"qos drr 0 to 5",
		"qos queue 0 drr weight 40",
		"qos queue 3 drr weight 60",
		"quit",
	}
	for _, port := range []string{"interface 100GE1/0/1", "interface 100GE1/0/2"} {
		i := indexOf(t, got, port)
		if d := cmp.Diff(wantPort, got[i+1:i+1+len(wantPort)]); d != "" {
			t.Errorf("%s commands (-want +got):\n%s", port, d)
		}
	}
	for _, c := range got {
		if strings.HasPrefix(c, "undo qos queue") && strings.HasSuffix(c, "drr weight") {
			t.Errorf("%q undoes a weight undo qos drr already removed", c)
		}
	}
	// A port leaving lossless: its range goes, its weights go with it.
	running = want + "#\ninterface 100GE1/0/9\n trust upstream roce\n qos drr 0 to 5\n qos queue 0 drr weight 40\n qos queue 7 drr weight 5\n"
	got = commands(t, running, want)
	wantCmds := []string{"interface 100GE1/0/9", "undo trust upstream", "undo qos queue 7 drr weight", "undo qos drr 0 to 5", "quit"}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("port leaving (-want +got):\n%s", d)
	}
}

// TestWeightReplacedInOneStep: a changed DRR weight is one line that
// replaces the old weight; the range is untouched.
func TestWeightReplacedInOneStep(t *testing.T) {
	want := canonicalText(t)
	running := strings.ReplaceAll(want, "qos queue 3 drr weight 60", "qos queue 3 drr weight 50")
	got := commands(t, running, want)
	wantCmds := []string{"interface 100GE1/0/1", "qos queue 3 drr weight 60", "quit", "interface 100GE1/0/2", "qos queue 3 drr weight 60", "quit"}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// TestRemovedPortReset: a port that leaves the intent but still uses
// lossless' domain gets its QoS and PFC lines reset one by one; its other
// lines stay, and the interface is never removed (a physical port).
func TestRemovedPortReset(t *testing.T) {
	want := canonicalText(t)
	running := want + "#\ninterface 100GE1/0/3\n trust dscp\n trust upstream roce\n dcb pfc enable mode manual\n dcb pfc buffer 3 hdrm 300 kbytes\n port pfc-deadlock trigger error-down\n qos queue 3 wred roce-ecn\n qos queue 3 ecn\n"
	got := commands(t, running, want)
	wantCmds := []string{
		"interface 100GE1/0/3",
		"undo dcb pfc buffer 3 hdrm",
		"undo qos queue 3 ecn",
		"undo trust",
		"undo trust upstream",
		"undo dcb pfc enable",
		"undo qos queue 3 wred",
		"quit",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	for _, c := range got {
		if strings.HasPrefix(c, "undo interface") || strings.Contains(c, "pfc-deadlock") {
			t.Errorf("%q touches the port beyond lossless' lines", c)
		}
	}
}

// TestPFCPriorities: priorities that leave are undone (with their
// deadlock lines first), then the whole desired list is sent, since
// `priority` adds to the set (§2.1); deadlock lines follow their priority.
func TestPFCPriorities(t *testing.T) {
	want := strings.Replace(canonicalText(t), " priority 3\n", " priority 3 4\n priority 4 deadlock-detect time 5\n", 1)
	running := strings.Replace(canonicalText(t), " priority 3\n", " priority 3 5\n priority 5 deadlock-detect time 5\n", 1)
	got := commands(t, running, want)
	wantCmds := []string{
		"dcb pfc",
		"undo priority 5 deadlock-detect",
		"undo priority 5",
		"priority 3 4",
		"priority 4 deadlock-detect time 5",
		"quit",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// TestOutOfScopeUntouched: config lossless does not own (another team's
// domain and drop-profile and the unmanaged port using them, a named PFC
// profile, port-groups, LLDP and deadlock triggers, buffers) is never in
// the change.
func TestOutOfScopeUntouched(t *testing.T) {
	want := canonicalText(t)
	running := "#\nlldp enable\n#\ndcb pfc storage\n priority 4\n" + want +
		"#\ndiffserv domain storage\n 8021p-inbound 1 phb af1 green\n#\ndrop-profile bulk\n color green buffer-size low-limit 1024000 high-limit 2048000 discard-percentage 20\n" +
		"#\ninterface 100GE1/0/9\n trust upstream storage\n qos queue 1 wred bulk\n qos drr 0 to 3\n#\nport-group all\n group-member 100GE1/0/9\n"
	running = strings.Replace(running, "interface 100GE1/0/1\n", "interface 100GE1/0/1\n lldp tlv-enable dcbx\n qos buffer queue 3 shared-threshold dynamic 5\n", 1)
	ch := change(t, running, want, false)
	if len(ch.Commands) != 0 {
		t.Errorf("out-of-scope config changed:\n%s", strings.Join(ch.Commands, "\n"))
	}
	// The objects of the managed families it does not render are listed,
	// with the port that uses them; LLDP, port-groups and buffers are not
	// objects of those families.
	wantKept := []string{
		`dcb pfc storage: not rendered by lossless; unmanaged = "prune" removes it`,
		"diffserv domain storage: not rendered by lossless; used outside its scope by interface 100GE1/0/9 (trust upstream storage)",
		"drop-profile bulk: not rendered by lossless; used outside its scope by interface 100GE1/0/9 (qos queue 1 wred bulk)",
	}
	if d := cmp.Diff(wantKept, keptObjects(ch.Kept)); d != "" {
		t.Errorf("kept (-want +got):\n%s", d)
	}
}

// TestFromFactory: an empty device gets objects before their users: the
// headroom pool and globals, the domain, the drop-profile, then ports with
// wred before ecn; default-equal lines are not sent.
func TestFromFactory(t *testing.T) {
	got := commands(t, "#\nsysname leaf1\n#\nreturn\n", canonicalText(t))
	pool := indexOf(t, got, "qos buffer headroom-pool size 4 mbytes slot 1")
	dom := indexOf(t, got, "diffserv domain roce")
	drop := indexOf(t, got, "drop-profile roce-ecn")
	port := indexOf(t, got, "interface 100GE1/0/1")
	if !(pool < dom && dom < drop && drop < port) {
		t.Errorf("objects not created before their users:\n%s", strings.Join(got, "\n"))
	}
	if indexOf(t, got[port:], "qos queue 3 wred roce-ecn") > indexOf(t, got[port:], "qos queue 3 ecn") {
		t.Errorf("ecn before wred:\n%s", strings.Join(got, "\n"))
	}
	for _, c := range got {
		if c == "priority 3" || strings.HasSuffix(c, " time 10") || c == "dcb pfc deadlock-detect interval 10" {
			t.Errorf("default-equal line %q sent", c)
		}
	}
}

// TestHeadroomReplacedInOneStep: a changed PFC buffer threshold is one
// line; default-equal thresholds (§1.1: xoff dynamic 3, hdrm 256 KB,
// guaranteed 1600 B) equal their absence, and units the device fills in
// (hdrm in kbytes) are not a change.
func TestHeadroomReplacedInOneStep(t *testing.T) {
	want := strings.ReplaceAll(canonicalText(t), " dcb pfc enable mode manual\n", " dcb pfc enable mode manual\n dcb pfc buffer 3 hdrm 300 kbytes\n dcb pfc buffer 3 guaranteed 1600 bytes\n")
	running := strings.ReplaceAll(canonicalText(t), " dcb pfc enable mode manual\n", " dcb pfc enable mode manual\n dcb pfc buffer 3 hdrm 200\n")
	got := commands(t, running, want)
	wantCmds := []string{"interface 100GE1/0/1", "dcb pfc buffer 3 hdrm 300 kbytes", "quit", "interface 100GE1/0/2", "dcb pfc buffer 3 hdrm 300 kbytes", "quit"}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	if got := commands(t, strings.ReplaceAll(running, "hdrm 200", "hdrm 300"), want); len(got) != 0 {
		t.Errorf("equal headroom gives commands:\n%s", strings.Join(got, "\n"))
	}
}

// TestRecoveryBehaviorDefault: the deadlock recovery behaviour a family
// defaults to (A discard, B forwarding: reference §2.2) is hidden by the
// device, so a rendering that states it needs no change on either family,
// and the other behaviour is set.
func TestRecoveryBehaviorDefault(t *testing.T) {
	a, err := os.ReadFile("testdata/canonical-family-a.cfg")
	if err != nil {
		t.Fatal(err)
	}
	famA := string(a)
	hidden := strings.Replace(famA, "#\ndcb pfc deadlock recovery-behavior discard slot 1\n", "", 1)
	if got := commands(t, hidden, famA); len(got) != 0 {
		t.Errorf("family A default discard gives commands:\n%s", strings.Join(got, "\n"))
	}
	// Family A without ECN or timers is still known by PFC without
	// dscp-mapping.
	noECN := strings.NewReplacer("#\nqos ecn enable\n", "", "#\ndcb pfc deadlock-detect timer 100\n", "", "#\ndcb pfc deadlock-recovery timer 100\n", "").Replace(famA)
	if got := commands(t, strings.Replace(noECN, "#\ndcb pfc deadlock recovery-behavior discard slot 1\n", "", 1), noECN); len(got) != 0 {
		t.Errorf("family A (no ECN) default discard gives commands:\n%s", strings.Join(got, "\n"))
	}
	famB := strings.Replace(canonicalText(t), "#\ndcb pfc\n", "#\ndcb pfc deadlock recovery-behavior discard slot 1\n#\ndcb pfc\n", 1)
	if got := commands(t, canonicalText(t), famB); !slices.Equal(got, []string{"dcb pfc deadlock recovery-behavior discard slot 1"}) {
		t.Errorf("family B discard: %q", got)
	}
}

// weightOrders are the two orders a drop-profile can print its ECN
// thresholds line and `ecn weight` in. No device output read shows which
// one a CloudEngine prints (the lab prints the weight second, after
// annetutil/annet's drop-profile cases), so the driver must take both.
func weightOrders(ecn string) map[string]string {
	return map[string]string{
		"weight first": " ecn weight 10\n " + ecn + "\n",
		"weight last":  " " + ecn + "\n ecn weight 10\n",
	}
}

// canonicalECN is the ECN line of the canonical drop-profile.
const canonicalECN = "ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10"

// TestECNWeightOwnLine: `ecn weight` is a line of its own (reference
// Errata; Huawei EDOC1100198444): whichever order the device prints it in,
// an equal profile needs no command, changed thresholds re-send only the
// thresholds line (never `undo ecn`), and a weight the rendering lacks is
// removed with `undo ecn weight` alone.
func TestECNWeightOwnLine(t *testing.T) {
	want := canonicalText(t)
	withWeight := strings.Replace(want, " "+canonicalECN+"\n", " "+canonicalECN+"\n ecn weight 10\n", 1)
	const stale = "ecn buffer-size low-limit 102400 high-limit 2048000 discard-percentage 5"
	for name, lines := range weightOrders(canonicalECN) {
		t.Run(name, func(t *testing.T) {
			running := strings.Replace(want, " "+canonicalECN+"\n", lines, 1)
			if got := commands(t, running, withWeight); len(got) != 0 {
				t.Errorf("equal profile gives commands:\n%s", strings.Join(got, "\n"))
			}
			got := commands(t, strings.Replace(running, canonicalECN, stale, 1), withWeight)
			if d := cmp.Diff([]string{"drop-profile roce-ecn", canonicalECN, "quit"}, got); d != "" {
				t.Errorf("changed thresholds (-want +got):\n%s", d)
			}
			got = commands(t, running, want)
			if d := cmp.Diff([]string{"drop-profile roce-ecn", "undo ecn weight", "quit"}, got); d != "" {
				t.Errorf("weight removed (-want +got):\n%s", d)
			}
		})
	}
	got := commands(t, want, withWeight)
	if d := cmp.Diff([]string{"drop-profile roce-ecn", "ecn weight 10", "quit"}, got); d != "" {
		t.Errorf("weight added (-want +got):\n%s", d)
	}
}

// change diffs running against desired text, with unmanaged = "prune" when
// prune is set.
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

// keptObjects is Kept as "object: reason" lines.
func keptObjects(ks []vendors.Kept) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.Object+": "+k.Reason)
	}
	return out
}

// foreign are objects of the families lossless manages that it does not
// render and that carry no lossless name: an operator's drop-profile,
// another team's DiffServ domain and PFC profile.
const foreign = "#\ndrop-profile ops\n color green buffer-size low-limit 1024000 high-limit 2048000 discard-percentage 20\n" +
	"#\ndiffserv domain storage\n 8021p-inbound 1 phb af1 green\n#\ndcb pfc storage\n priority 4\n"

// TestKeptNotRendered: an object of a managed family that lossless does not
// render is left alone and listed in Kept (why: not rendered); with
// unmanaged = "prune" it is removed, after the ports stopped using it;
// the built-in default domain, which cannot be deleted, stays either way.
func TestKeptNotRendered(t *testing.T) {
	want := canonicalText(t)
	running := want + foreign + "#\ndiffserv domain default\n ip-dscp-inbound 10 phb af2 green\n"
	ch := change(t, running, want, false)
	if len(ch.Commands) != 0 {
		t.Errorf("keep: commands sent:\n%s", strings.Join(ch.Commands, "\n"))
	}
	notRendered := `not rendered by lossless; unmanaged = "prune" removes it`
	builtin := "diffserv domain default: built-in, cannot be deleted (reference/huawei-ce.md §2.1, §2.4, §2.5); lossless renders its own"
	wantKept := []string{
		"dcb pfc storage: " + notRendered,
		builtin,
		"diffserv domain storage: " + notRendered,
		"drop-profile ops: " + notRendered,
	}
	if d := cmp.Diff(wantKept, keptObjects(ch.Kept)); d != "" {
		t.Errorf("keep: kept (-want +got):\n%s", d)
	}

	ch = change(t, running, want, true)
	wantCmds := []string{"undo drop-profile ops", "undo diffserv domain storage", "undo dcb pfc storage"}
	if d := cmp.Diff(wantCmds, ch.Commands); d != "" {
		t.Errorf("prune: commands (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{builtin}, keptObjects(ch.Kept)); d != "" {
		t.Errorf("prune: kept (-want +got):\n%s", d)
	}
	for _, gone := range []string{"-drop-profile ops", "-diffserv domain storage", "-dcb pfc storage"} {
		if !strings.Contains(ch.Diff, "\n"+gone+"\n") {
			t.Errorf("prune: the diff does not show %q:\n%s", gone, ch.Diff)
		}
	}

	// Used only by a managed port, whose QoS lossless renders whole: the
	// port stops using it; Prune then deletes it, after the port.
	used := strings.Replace(running, " qos queue 3 ecn\n", " qos queue 3 ecn\n qos queue 1 wred ops\n dcb pfc enable storage mode manual\n", 1)
	used = strings.Replace(used, " dcb pfc enable mode manual\n", "", 1)
	ch = change(t, used, want, false)
	wantCmds = []string{"interface 100GE1/0/1", "undo qos queue 1 wred", "dcb pfc enable mode manual", "quit"}
	if d := cmp.Diff(wantCmds, ch.Commands); d != "" {
		t.Errorf("keep, used by a managed port: commands (-want +got):\n%s", d)
	}
	if d := cmp.Diff(wantKept, keptObjects(ch.Kept)); d != "" {
		t.Errorf("keep, used by a managed port: kept (-want +got):\n%s", d)
	}
	ch = change(t, used, want, true)
	got := strings.Join(ch.Commands, "\n")
	for _, pair := range [][2]string{{"undo qos queue 1 wred", "undo drop-profile ops"}, {"dcb pfc enable mode manual", "undo dcb pfc storage"}} {
		if !strings.Contains(got, pair[1]) || strings.Index(got, pair[0]) > strings.Index(got, pair[1]) {
			t.Errorf("prune, used by a managed port: %q not before %q:\n%s", pair[0], pair[1], got)
		}
	}
}

// TestKeptUsedOutside: an object lossless does not render that a port
// outside the scope uses is never removed, Prune or not, and the reason
// names the port and the line.
func TestKeptUsedOutside(t *testing.T) {
	want := canonicalText(t)
	running := want + foreign + "#\ninterface 100GE1/0/9\n trust upstream storage\n qos queue 1 wred ops\n dcb pfc enable storage mode manual\n"
	for _, prune := range []bool{false, true} {
		ch := change(t, running, want, prune)
		if len(ch.Commands) != 0 {
			t.Errorf("prune=%v: commands sent:\n%s", prune, strings.Join(ch.Commands, "\n"))
		}
		why := "not rendered by lossless; used outside its scope by "
		if prune {
			why = `not removed (unmanaged = "prune"): used outside lossless' scope by `
		}
		wantKept := []string{
			"dcb pfc storage: " + why + "interface 100GE1/0/9 (dcb pfc enable storage mode manual)",
			"diffserv domain storage: " + why + "interface 100GE1/0/9 (trust upstream storage)",
			"drop-profile ops: " + why + "interface 100GE1/0/9 (qos queue 1 wred ops)",
		}
		if d := cmp.Diff(wantKept, keptObjects(ch.Kept)); d != "" {
			t.Errorf("prune=%v: kept (-want +got):\n%s", prune, d)
		}
	}
}

// TestSharedPortKeepsOthersLines: a port lossless does not manage that uses
// a stale lossless drop-profile and another team's domain loses only the
// lines using lossless' objects (the queue's ecn first, §2.5); its other
// QoS lines stay, the stale profile is deleted after it, and the plan says
// why the port keeps the rest.
func TestSharedPortKeepsOthersLines(t *testing.T) {
	want := canonicalText(t)
	running := want + foreign +
		"#\ndrop-profile roce-ecn-4\n ecn buffer-size low-limit 204800 high-limit 1024000 discard-percentage 20\n" +
		"#\ninterface 100GE1/0/9\n trust dscp\n trust upstream storage\n qos queue 4 wred roce-ecn-4\n qos drr 0 to 3\n qos queue 4 ecn\n"
	ch := change(t, running, want, false)
	wantCmds := []string{"interface 100GE1/0/9", "undo qos queue 4 ecn", "undo qos queue 4 wred", "quit", "undo drop-profile roce-ecn-4"}
	if d := cmp.Diff(wantCmds, ch.Commands); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	kept := strings.Join(keptObjects(ch.Kept), "\n")
	for _, k := range []string{
		"interface 100GE1/0/9: not managed by lossless and also using objects it does not render: only its lines using lossless' objects are removed",
		"diffserv domain storage: not rendered by lossless; used outside its scope by interface 100GE1/0/9 (trust upstream storage)",
	} {
		if !strings.Contains(kept, k) {
			t.Errorf("kept lacks %q:\n%s", k, kept)
		}
	}
}

// TestScopedSeesUsers: what Running keeps (Scoped) is enough to see which
// ports outside the scope use the objects lossless keeps, so the change
// made from it is the one made from the whole config; and it is the same
// text when only lines no diff reads change (a description, LLDP), so a
// saved plan does not go stale for them.
func TestScopedSeesUsers(t *testing.T) {
	want := canonicalText(t)
	full := want + foreign + "#\nlldp enable\n#\ninterface 100GE1/0/9\n description storage\n trust upstream storage\n qos queue 1 wred ops\n lldp tlv-enable dcbx\n"
	scoped, err := Scoped([]byte(full))
	if err != nil {
		t.Fatal(err)
	}
	for _, prune := range []bool{false, true} {
		a, b := change(t, full, want, prune), change(t, string(scoped), want, prune)
		if d := cmp.Diff(a.Commands, b.Commands); d != "" {
			t.Errorf("prune=%v: commands from Scoped (-full +scoped):\n%s", prune, d)
		}
		if d := cmp.Diff(a.Kept, b.Kept); d != "" {
			t.Errorf("prune=%v: kept from Scoped (-full +scoped):\n%s", prune, d)
		}
	}
	// `lldp enable` is in the scope since PFC mode auto renders it (DCBX).
	edited := strings.NewReplacer(" description storage\n", " description storage array\n").Replace(full)
	again, err := Scoped([]byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(scoped) {
		t.Errorf("Scoped changed with lines outside every diff:\n%s", textdiff.Unified("before", "after", string(scoped), string(again)))
	}
}
