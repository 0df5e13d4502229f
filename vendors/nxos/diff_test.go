package nxos

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// canonicalText is reference/nxos.md §1, the desired config of these tests.
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

// TestIdenticalIsEmpty: the same config, printed differently (other
// class order, DSCP names and order, abbreviated interface, hidden
// defaults), needs no change.
func TestIdenticalIsEmpty(t *testing.T) {
	want := canonicalText(t)
	running := strings.NewReplacer(
		"match dscp 24,26", "match dscp 26,cs3",
		"interface Ethernet1/2", "interface eth1/2",
		"    pause pfc-cos 3\n", "    pause pfc-cos 3\n  class type network-qos c-8q-nq-default\n",
	).Replace(want)
	// Move q7 first in the queuing policy.
	running = strings.Replace(running, "  class type queuing c-out-8q-q7\n    priority level 1\n", "", 1)
	running = strings.Replace(running, "policy-map type queuing QOS_EGRESS_PORT\n", "policy-map type queuing QOS_EGRESS_PORT\n  class type queuing c-out-8q-q7\n    priority level 1\n", 1)
	desired := strings.Replace(want, "    pause pfc-cos 3\n", "    pause pfc-cos 3\n  class type network-qos c-8q-nq-default\n    mtu 1500\n", 1)
	if cmds := commands(t, running, desired); len(cmds) != 0 {
		t.Errorf("equal configs give commands:\n%s", strings.Join(cmds, "\n"))
	}
}

// TestECNReplacedInOneStep: a changed random-detect value is sent as the
// full new line, which replaces the old one; the queue is never without
// ECN (no "no random-detect").
func TestECNReplacedInOneStep(t *testing.T) {
	want := canonicalText(t)
	running := strings.Replace(want, "minimum-threshold 150 kbytes", "minimum-threshold 100 kbytes", 1)
	got := commands(t, running, want)
	wantCmds := []string{
		"policy-map type queuing QOS_EGRESS_PORT",
		"class type queuing c-out-8q-q3",
		"random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// TestMatchNeverEmpty: a changed DSCP list is added before the old line is
// removed, so the RoCE class matches its traffic at every step.
func TestMatchNeverEmpty(t *testing.T) {
	want := canonicalText(t)
	running := strings.Replace(want, "match dscp 24,26", "match dscp 24", 1)
	got := commands(t, running, want)
	add := indexOf(t, got, "match dscp 24,26")
	del := indexOf(t, got, "no match dscp 24")
	if add > del {
		t.Errorf("old match removed before the new one is added:\n%s", strings.Join(got, "\n"))
	}
	for _, c := range got[:add] {
		if strings.HasPrefix(c, "no match") {
			t.Errorf("%q sent before the new match line", c)
		}
	}
}

// TestClassLeavesPolicyFirst: a stale class leaves the classification
// policy before its class-map is deleted (reference/nxos.md §3).
func TestClassLeavesPolicyFirst(t *testing.T) {
	want := canonicalText(t)
	running := strings.Replace(want, "class-map type qos match-any CNP\n", "class-map type qos match-any OLD\n  match dscp 10\nclass-map type qos match-any CNP\n", 1)
	running = strings.Replace(running, "  class class-default\n", "  class OLD\n    set qos-group 1\n  class class-default\n", 1)
	got := commands(t, running, want)
	leave := indexOf(t, got, "no class OLD")
	del := indexOf(t, got, "no class-map type qos match-any OLD")
	if leave > del {
		t.Errorf("class-map deleted before the class left its policy:\n%s", strings.Join(got, "\n"))
	}
	if got[leave-1] != "policy-map type qos QOS_CLASSIFICATION" {
		t.Errorf("no class OLD sent outside its policy:\n%s", strings.Join(got, "\n"))
	}
}

// TestBandwidthNeverAbove100: shares move so that the sum of a queuing
// policy's bandwidth stays ≤ 100 % after every command.
func TestBandwidthNeverAbove100(t *testing.T) {
	want := canonicalText(t)
	// Desired: q3 70 %, q-default 30 %; running q3 50, q-default 50.
	desired := strings.Replace(want, "c-out-8q-q3\n    bandwidth remaining percent 50", "c-out-8q-q3\n    bandwidth remaining percent 70", 1)
	desired = strings.Replace(desired, "c-out-8q-q-default\n    bandwidth remaining percent 50", "c-out-8q-q-default\n    bandwidth remaining percent 30", 1)
	for _, tc := range []struct{ name, running, desired string }{
		{"grow q3", want, desired},
		{"shrink q3", desired, want},
	} {
		t.Run(tc.name, func(t *testing.T) {
			share := shares(tc.running)
			got := commands(t, tc.running, tc.desired)
			class := ""
			for _, c := range got {
				if n, ok := strings.CutPrefix(c, "class type queuing "); ok {
					class = n
				}
				if p, ok := strings.CutPrefix(c, "bandwidth remaining percent "); ok {
					share[class], _ = strconv.Atoi(p)
				}
				if sum := total(share); sum > 100 {
					t.Fatalf("after %q the shares add up to %d%%:\n%s", c, sum, strings.Join(got, "\n"))
				}
			}
			if d := cmp.Diff(shares(tc.desired), share); d != "" {
				t.Errorf("final shares (-want +got):\n%s", d)
			}
		})
	}
}

func shares(cfg string) map[string]int {
	m := map[string]int{}
	class := ""
	for _, l := range strings.Split(cfg, "\n") {
		l = strings.TrimSpace(l)
		if n, ok := strings.CutPrefix(l, "class type queuing "); ok {
			class = n
		}
		if p, ok := strings.CutPrefix(l, "bandwidth remaining percent "); ok {
			m[class], _ = strconv.Atoi(p)
		}
	}
	return m
}

func total(m map[string]int) int {
	s := 0
	for _, v := range m {
		s += v
	}
	return s
}

// TestRemovedPortReset: a port that leaves the intent but still uses
// lossless' policy gets its QoS and PFC lines reset to their defaults one
// by one; its other lines stay, and the interface is never removed ("no
// interface" deletes the config of a physical port).
func TestRemovedPortReset(t *testing.T) {
	want := canonicalText(t)
	running := want + "interface Ethernet1/3\n  description gpu-7\n  priority-flow-control mode on\n  service-policy type qos input QOS_CLASSIFICATION\n"
	got := commands(t, running, want)
	wantCmds := []string{
		"interface Ethernet1/3",
		"no priority-flow-control mode on",
		"no service-policy type qos input QOS_CLASSIFICATION",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	for _, c := range got {
		if strings.HasPrefix(c, "no interface") || strings.Contains(c, "description") {
			t.Errorf("%q touches the port beyond lossless' lines", c)
		}
	}
}

// TestOutOfScopeUntouched: config lossless does not own (another team's
// class-map and policy, an unmanaged port's QoS) is never in the change.
func TestOutOfScopeUntouched(t *testing.T) {
	want := canonicalText(t)
	running := want + "class-map type qos match-all MGMT\n  match dscp 16\npolicy-map type qos OTHER\n  class MGMT\n    set qos-group 2\ninterface Ethernet1/9\n  service-policy type qos input OTHER\n  priority-flow-control mode on\n"
	if got := commands(t, running, want); len(got) != 0 {
		t.Errorf("out-of-scope config changed:\n%s", strings.Join(got, "\n"))
	}
	// Even pruned: Ethernet1/9 is outside the scope and uses both.
	ch, err := Diff("leaf1", []byte(running), pruned(document(t, want)))
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Commands) != 0 {
		t.Errorf("pruning deletes what a port outside the scope uses:\n%s", strings.Join(ch.Commands, "\n"))
	}
	wantKept := []vendors.Kept{
		{Object: "class-map type qos match-all MGMT", Reason: "used by policy-map type qos OTHER (service-policy on Ethernet1/9)"},
		{Object: "policy-map type qos OTHER", Reason: "used by service-policy on Ethernet1/9"},
	}
	if d := cmp.Diff(wantKept, ch.Kept); d != "" {
		t.Errorf("Kept (-want +got):\n%s", d)
	}
}

// TestRemovalOrder: tearing everything down follows nxos.md §3: detach
// from interfaces, the global watchdog, detach from system qos, delete
// queuing, network-qos and qos policies, then the class-maps.
func TestRemovalOrder(t *testing.T) {
	want := canonicalText(t)
	// Desired: only the class-maps' neighbours gone. Use a minimal
	// desired config with no lossless objects but one port kept plain.
	got := commands(t, want, "system qos\n")
	order := []string{
		"no priority-flow-control mode on",
		"no priority-flow-control watch-dog-interval on",
		"no service-policy type queuing output QOS_EGRESS_PORT",
		"no policy-map type queuing QOS_EGRESS_PORT",
		"no policy-map type network-qos qos_network",
		"no policy-map type qos QOS_CLASSIFICATION",
		"no class-map type qos match-any ROCEv2",
	}
	last := -1
	for _, l := range order {
		i := indexOf(t, got, l)
		if i < last {
			t.Errorf("%q sent out of order:\n%s", l, strings.Join(got, "\n"))
		}
		last = i
	}
}

// BenchmarkDiff10k parses a 10,000-line running config and computes the
// diff and remediation against a rendering of the same size.
func BenchmarkDiff10k(b *testing.B) {
	running, desired := bigConfigs(b, 10_000)
	doc := document(b, desired)
	vendortest.BenchDiff(b, Diff, running, doc)
}

// bigConfigs returns a running config of about lines lines (the canonical
// policies, then ports with lossless and unrelated lines, every 50th port
// with a stale PFC mode) and its desired config.
func bigConfigs(b testing.TB, lines int) ([]byte, string) {
	want := canonicalText(b)
	var run, des strings.Builder
	run.WriteString(strings.Replace(want, "minimum-threshold 150", "minimum-threshold 100", 1))
	des.WriteString(want)
	n := strings.Count(want, "\n")
	for port := 3; n < lines; port++ {
		name := fmt.Sprintf("interface Ethernet%d/%d", port/64+1, port%64+1)
		mode := "on"
		if port%50 == 0 {
			mode = "off"
		}
		fmt.Fprintf(&run, "%s\n  description host-%d\n  priority-flow-control mode %s\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION\n", name, port, mode)
		fmt.Fprintf(&des, "%s\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION\n", name)
		n += 5
	}
	return []byte(run.String()), des.String()
}

// TestRealDeviceOutput: the show running-config of a real Nexus 9000v
// (scrapligo's recording) parses; its header is not part of the body; and
// planning the canonical intent on it creates lossless' objects without a
// single command for the config lossless does not own.
func TestRealDeviceOutput(t *testing.T) {
	raw, err := os.ReadFile("testdata/sessions/n9kv-show-running-config.txt")
	if err != nil {
		t.Fatal(err)
	}
	body := Body(raw)
	if strings.Contains(string(body), "!Time:") || strings.Contains(string(body), "version 9.2(4)") {
		t.Errorf("header left in the body:\n%.300s", body)
	}
	if _, err := Parse(raw); err != nil {
		t.Fatal(err)
	}
	ch, err := Diff("n9kv", body, document(t, canonicalText(t)))
	if err != nil {
		t.Fatal(err)
	}
	if ch.Empty() {
		t.Fatal("no change on a switch without lossless' config")
	}
	for _, c := range ch.Commands {
		if strings.HasPrefix(c, "no ") {
			t.Errorf("%q removes config lossless does not own", c)
		}
	}
}

// keyOfReference is keyOf as first written: every keyed prefix tried in
// order. keyOf must give the same identity for every line.
func keyOfReference(text string) (string, bool) {
	word, _, _ := strings.Cut(text, " ")
	switch word {
	case "class-map":
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
		if i := strings.LastIndexByte(text, ' '); i >= 0 {
			return text[:i], true
		}
		return text, true
	case "bandwidth", "mtu", "priority", "queue-limit":
		return word, true
	}
	aliases := map[string]string{"bandwidth remaining percent": "bandwidth", "bandwidth percent": "bandwidth"}
	for _, k := range keyed {
		if strings.HasPrefix(text, k) && (len(text) == len(k) || text[len(k)] == ' ') {
			if a, ok := aliases[k]; ok {
				k = a
			}
			return k, true
		}
	}
	return text, false
}

// TestKeyOfIdentity: the identity of every keyed line, of lines that only
// start like one, and of every line of the test configs is the one the
// keyed list gives.
func TestKeyOfIdentity(t *testing.T) {
	running, desired := bigConfigs(t, 600)
	texts := strings.Split(string(running)+desired, "\n")
	for _, k := range keyed {
		texts = append(texts, k, k+" 1", k+"x 1", k+"-x", strings.TrimSuffix(k, k[strings.LastIndexByte(k, ' ')+1:]), "no "+k)
	}
	texts = append(texts, "priority-flow-control", "random-detect", "set", "pause", "set cos 3", "pause pfc-cos", "description priority-flow-control mode on")
	for _, raw := range texts {
		text := strings.TrimSpace(raw)
		wk, ws := keyOfReference(text)
		gk, gs := keyOf(text)
		if gk != wk || gs != ws {
			t.Errorf("keyOf(%q) = %q, %v; want %q, %v", text, gk, gs, wk, ws)
		}
	}
}
