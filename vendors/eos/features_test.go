package eos_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/vendors/eos"
)

// TestUndeclaredFeatures: the features EOS does not render are refused
// at load (LL133) on an EOS device, naming the feature: CoS beside DSCP
// trust and match = "all" (EOS classifies by its system-wide qos maps,
// reference/eos.md §0, which have neither), a watchdog on some
// priorities (EOS's watchdog watches every no-drop queue of a port; no
// source shows a subset), ECN probability 0 (max-mark-probability is
// 1–100, AVD qos_profiles schema), WRED of yellow or red packets (EOS's
// `random-detect drop … drop-precedence N` is a WRED drop profile per
// drop precedence, AVD qos_profiles schema, not ECN marking by colour:
// no source shows EOS marking ECN by colour) and thresholds as shares of
// the queue's limit (EOS's ECN units are segments, bytes, kbytes,
// mbytes, milliseconds and microseconds, AVD qos_profiles schema: no
// percent). The declared ones load.
func TestUndeclaredFeatures(t *testing.T) {
	src, err := os.ReadFile("../../golden/eos-qos-profile/intent.hcl")
	if err != nil {
		t.Fatal(err)
	}
	invSrc, err := os.ReadFile("../../golden/eos-qos-profile/inventory.hcl")
	if err != nil {
		t.Fatal(err)
	}
	inv := string(invSrc)
	for _, tt := range []struct {
		name, from, to, want string
	}{
		{"core intent", "", "", ""},
		{"cos beside dscp", `dscp = "default"`, "dscp = \"default\"\n    cos  = \"default\"", "cos-map"},
		{"match all", `dscp     = [48]`, "dscp     = [48]\n    match    = \"all\"", "match-all"},
		{"watchdog on some priorities", `action           = "drop"`, "action           = \"drop\"\n      priorities       = [3]", "watchdog-priorities"},
		{"ECN probability 0", `max_probability = 100`, `max_probability = 0`, "ecn-zero-probability"},
		{"WRED colours", `max_probability = 100`, "max_probability = 100\n      yellow {\n        min_threshold = \"1MB\"\n        max_threshold = \"2MB\"\n        max_probability = 5\n      }", "wred-colors"},
		{"ECN thresholds as shares of the queue limit", "min_threshold   = \"150KB\"\n      max_threshold   = \"3000KB\"", "min_threshold   = \"10%\"\n      max_threshold   = \"50%\"", "ecn-percent"},
		{"declared: shape", `dscp     = [48]`, "dscp     = [48]\n    shape    = \"10G\"", ""},
		{"declared: pfc mode", `pfc {`, "pfc {\n    mode = \"off\"", ""},
		{"declared: default probability", `max_probability = 100`, ``, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			intentSrc := strings.Replace(string(src), tt.from, tt.to, 1)
			if tt.from != "" && intentSrc == string(src) {
				t.Fatalf("%q not in the canonical intent", tt.from)
			}
			for name, b := range map[string]string{"intent.hcl": intentSrc, "inventory.hcl": inv} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, diags := load.Fabric(dir, load.Options{})
			var got []string
			for _, d := range diags {
				if diag.RuleOf(d) == load.RuleFeature {
					got = append(got, d.Detail)
				}
			}
			switch {
			case tt.want == "" && (len(got) > 0 || diags.HasErrors()):
				t.Errorf("diagnostics on an intent EOS renders: %v", diags)
			case tt.want != "" && (len(got) != 2 || !strings.Contains(got[0], tt.want) || !strings.Contains(got[1], tt.want)):
				t.Errorf("LL133 = %q, want one per device naming %q (all: %v)", got, tt.want, diags)
			}
		})
	}
}

// TestImportFeatures reads the lines of each declared feature back.
func TestImportFeatures(t *testing.T) {
	running := `qos profile P
   qos trust cos
   !
   tx-queue 1
      no priority
      bandwidth percent 40
      shape rate 50000000 kbps
   !
   tx-queue 3
      no priority
      bandwidth percent 60
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes
   !
   tx-queue 6
      priority strict
      bandwidth guaranteed percent 5
   !
   priority-flow-control priority 3 no-drop
!
interface Ethernet1
   service-profile P
!
qos map cos 3 to traffic-class 3
qos map cos 6 to traffic-class 6
`
	im, err := eos.Import(nil, []byte(running))
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Unexpressed) > 0 {
		t.Errorf("unexpressed: %+v", im.Unexpressed)
	}
	q := im.QoS
	type class struct {
		ID           int
		CoS          []int
		DefaultCoS   bool
		MinBandwidth int
		Shape        int64
		DefaultProb  bool
	}
	var got []class
	for _, c := range q.Classes {
		got = append(got, class{c.ID, c.CoS, c.DefaultCoS, int(c.Scheduling.MinBandwidth), int64(c.Scheduling.Shape), c.ECN != nil && c.ECN.DefaultProbability})
	}
	want := []class{{1, nil, true, 0, 50_000_000_000, false}, {3, []int{3}, false, 0, 0, true}, {6, []int{6}, false, 5, 0, false}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("classes (-want +got):\n%s", diff)
	}
	if q.Trust != "cos" || q.PFC.Mode != "off" {
		t.Errorf("trust %q, pfc mode %q; want cos, off", q.Trust, q.PFC.Mode)
	}
	// A guarantee beside a round-robin share, in kbps, and a shape in
	// percent stay unexpressed.
	im, err = eos.Import(nil, []byte("interface Ethernet1\n   qos trust dscp\n   !\n   tx-queue 2\n      no priority\n      bandwidth percent 10\n      bandwidth guaranteed percent 5\n   !\n   tx-queue 3\n      bandwidth guaranteed 100\n      shape rate 15 percent\n"))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, u := range im.Unexpressed {
		texts = append(texts, u.Text)
	}
	if diff := cmp.Diff([]string{"bandwidth guaranteed percent 5", "bandwidth guaranteed 100", "shape rate 15 percent"}, texts); diff != "" {
		t.Errorf("unexpressed (-want +got):\n%s", diff)
	}
}

// TestImportPortWatchdog: per-port watchdog lines read into the profile's
// watchdog over the global one where renderers/eos writes them (a qos
// profile other than the device's, differing from the global lines);
// elsewhere, and what the intent cannot say (`forced`), they are listed.
func TestImportPortWatchdog(t *testing.T) {
	const profiles = `qos profile A
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   priority-flow-control pause watchdog
!
qos profile B
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   priority-flow-control pause watchdog
   priority-flow-control pause watchdog port action %s
   priority-flow-control pause watchdog port timer timeout 0.50 polling-interval %s
!
interface Ethernet1
   service-profile A
!
interface Ethernet2
   service-profile A
!
interface Ethernet3
   service-profile B
!
priority-flow-control pause watchdog default timeout 0.2
priority-flow-control pause watchdog default recovery-time 0.4
priority-flow-control pause watchdog action drop
`
	for _, tt := range []struct {
		name, action, rest string // rest: the timer line after polling-interval
		want               intent.Watchdog
		unexpressed        []string
	}{
		{"action and timers", "notify-only", "auto recovery-time 1", intent.Watchdog{Detection: 500 * time.Millisecond, Restoration: time.Second, Action: "notify-only"}, nil},
		{"polling given", "notify-only", "0.1 recovery-time 1", intent.Watchdog{Detection: 500 * time.Millisecond, Restoration: time.Second, Polling: 100 * time.Millisecond, Action: "notify-only"}, nil},
		{"forced, the global action restated", "drop", "auto recovery-time 1 forced", intent.Watchdog{Detection: 200 * time.Millisecond, Restoration: 400 * time.Millisecond, Action: "drop"},
			[]string{"priority-flow-control pause watchdog port action drop", "priority-flow-control pause watchdog port timer timeout 0.5 polling-interval auto recovery-time 1 forced"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			running := fmt.Sprintf(profiles, tt.action, tt.rest)
			im, err := eos.Import(nil, []byte(running))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range im.Unexpressed {
				got = append(got, u.Text)
			}
			if diff := cmp.Diff(tt.unexpressed, got); diff != "" {
				t.Errorf("unexpressed (-want +got):\n%s", diff)
			}
			if w := im.QoS.PFC.Watchdog; w == nil || w.Action != "drop" || w.Detection != 200*time.Millisecond {
				t.Errorf("device watchdog %+v, want the global one", w)
			}
			if len(im.Ports) != 3 || im.Ports[2].QoS == nil || im.Ports[2].QoS.PFC.Watchdog == nil {
				t.Fatalf("ports %+v: Ethernet3 has no profile of its own with a watchdog", im.Ports)
			}
			if diff := cmp.Diff(tt.want, *im.Ports[2].QoS.PFC.Watchdog); diff != "" {
				t.Errorf("Ethernet3's watchdog (-want +got):\n%s", diff)
			}
		})
	}
	// Under an interface (no source shows the lines there) they are listed.
	im, err := eos.Import(nil, []byte("interface Ethernet1\n   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\n   priority-flow-control pause watchdog port action notify-only\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Unexpressed) != 1 || im.Unexpressed[0].Text != "priority-flow-control pause watchdog port action notify-only" || !strings.Contains(im.Unexpressed[0].Reason, "only in a qos profile") {
		t.Errorf("unexpressed %+v, want the interface's port action", im.Unexpressed)
	}
}

// TestImportTrustInterface: qos profiles without a trust line applied by
// interfaces that trust on their own read as option eos.trust =
// "interface" (renderers/eos TrustInterface); one port without its own
// trust line leaves the others' listed.
func TestImportTrustInterface(t *testing.T) {
	b, err := os.ReadFile("testdata/trust-interface.cfg")
	if err != nil {
		t.Fatal(err)
	}
	im, err := eos.Import(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Unexpressed) > 0 || im.Options["eos.trust"] != "interface" || im.QoS.Trust != "dscp" {
		t.Errorf("unexpressed %+v, options %v, trust %q; want none, eos.trust = interface, dscp", im.Unexpressed, im.Options, im.QoS.Trust)
	}
	mixed := strings.Replace(string(b), "   service-profile ROCE_LOSSLESS\n   qos trust dscp\n", "   service-profile ROCE_LOSSLESS\n", 1)
	im, err = eos.Import(nil, []byte(mixed))
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Unexpressed) != 1 || im.Unexpressed[0].Text != "qos trust dscp" || im.Options["eos.trust"] != "port-default" {
		t.Errorf("unexpressed %+v, options %v; want Ethernet2's trust listed, eos.trust = port-default", im.Unexpressed, im.Options)
	}
}
