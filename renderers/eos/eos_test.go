package eos

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/renderers"
)

// canonical is the intent of reference/eos.md §1, built in Go.
func canonical() *intent.Device {
	q := &intent.QoS{
		Profile: "roce_lossless",
		Trust:   "dscp",
		Classes: []intent.Class{
			{Name: "bulk", ID: 0, Default: true},
			{Name: "ROCEv2", ID: 3, DSCP: []int{24, 26}, Lossless: true,
				ECN: &intent.ECN{Min: intent.Threshold{Bytes: 150 * units.KB}, Max: intent.Threshold{Bytes: 3000 * units.KB}, MaxProbability: 100}},
			{Name: "CNP", ID: 6, DSCP: []int{48}, CNP: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}},
		},
		PFC: intent.PFC{Watchdog: &intent.Watchdog{Detection: 200 * time.Millisecond, Restoration: 400 * time.Millisecond, Polling: 100 * time.Millisecond, Action: "drop"}},
	}
	return &intent.Device{
		Name:     "eos1",
		Vendor:   "eos",
		Platform: &platform.Platform{Model: "7060X5", MaxLossless: 2},
		QoS:      q,
		Buffers:  &intent.Buffers{Profile: "default", Headroom: intent.HeadroomPolicy{Auto: true}},
		Ports: []intent.Port{
			{Name: "Ethernet1", Speed: 400 * units.Gbps, QoS: q},
			{Name: "Ethernet2", Speed: 400 * units.Gbps, QoS: q},
		},
	}
}

func render(t *testing.T, d *intent.Device) *config.Document {
	t.Helper()
	doc, err := Render(d)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestCanonical(t *testing.T) {
	want, err := os.ReadFile("testdata/canonical.cfg")
	if err != nil {
		t.Fatal(err)
	}
	doc := render(t, canonical())
	if diff := cmp.Diff(string(want), string(doc.Text)); diff != "" {
		t.Errorf("rendering differs from reference/eos.md §1a (-want +got):\n%s", diff)
	}
	wantWarn := []string{"eos1: class bulk takes the DSCPs no class claims, but EOS keeps its default DSCP map for those outside traffic class 0: 0-7 → 1, 16-23 → 2, 25 27-31 → 3, 32-39 → 4, 40-47 → 5, 49-55 → 6, 56-63 → 7 (option \"eos.default-map\" = \"explicit\" maps them)"}
	if diff := cmp.Diff(wantWarn, config.Messages(doc.Warnings)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// Tree holds the same lines as Text without the `!` separators.
	var tree []string
	for _, n := range doc.Tree {
		tree = append(tree, flatten(n, 0)...)
	}
	var text []string
	for _, l := range strings.Split(strings.TrimSuffix(string(doc.Text), "\n"), "\n") {
		if strings.TrimSpace(l) != "!" {
			text = append(text, l)
		}
	}
	if diff := cmp.Diff(text, tree); diff != "" {
		t.Errorf("Tree and Text differ (-text +tree):\n%s", diff)
	}
}

// TestCanonicalQoSProfile checks variant B: the reference's §1b block, then
// the same global lines as §1a.
func TestCanonicalQoSProfile(t *testing.T) {
	profile, err := os.ReadFile("testdata/canonical-qos-profile.cfg")
	if err != nil {
		t.Fatal(err)
	}
	a, err := os.ReadFile("testdata/canonical.cfg")
	if err != nil {
		t.Fatal(err)
	}
	globals := string(a[strings.Index(string(a), "qos map dscp"):])
	d := canonical()
	d.Options = map[string]string{"eos.style": "qos-profile"}
	doc := render(t, d)
	want := string(profile) + "!\n" + globals
	if diff := cmp.Diff(want, string(doc.Text)); diff != "" {
		t.Errorf("rendering differs from reference/eos.md §1b + globals (-want +got):\n%s", diff)
	}
}

func flatten(n *config.Node, depth int) []string {
	out := []string{strings.Repeat("   ", depth) + n.Text}
	for _, c := range n.Children {
		out = append(out, flatten(c, depth+1)...)
	}
	return out
}

func TestConversions(t *testing.T) {
	w := func(v int) *int { return &v }
	tests := []struct {
		name     string
		edit     func(d *intent.Device)
		find     string
		wantLine []string
		wantWarn []string
	}{
		{"bytes rounded up to kbytes", func(d *intent.Device) {
			d.QoS.Class(3).ECN.Min = intent.Threshold{Bytes: 150000}
			d.QoS.Class(3).ECN.Max = intent.Threshold{Bytes: 3 * units.MB}
		}, "random-detect", []string{"random-detect ecn minimum-threshold 147 kbytes maximum-threshold 3072 kbytes max-mark-probability 100"},
			[]string{"eos1: ECN minimum threshold of class ROCEv2: 150000B rounded up to 147 kbytes (150528B)"}},
		{"time at each port's speed", func(d *intent.Device) {
			d.QoS.Class(3).ECN.Min = intent.Threshold{Time: 8 * time.Microsecond}
			d.Ports[1].Speed = 100 * units.Gbps
		}, "random-detect", []string{
			// 400G × 8 µs / 8 = 400000 B → 391 kbytes; 100G → 100000 B → 98 kbytes.
			"random-detect ecn minimum-threshold 391 kbytes maximum-threshold 3000 kbytes max-mark-probability 100",
			"random-detect ecn minimum-threshold 98 kbytes maximum-threshold 3000 kbytes max-mark-probability 100"},
			[]string{"eos1: ECN minimum threshold of class ROCEv2: 8µs at 400G on Ethernet1 (400000B) rounded up to 391 kbytes (400384B)",
				"eos1: ECN minimum threshold of class ROCEv2: 8µs at 100G on Ethernet2 (100000B) rounded up to 98 kbytes (100352B)"}},
		{"weight", func(d *intent.Device) { d.QoS.Class(3).ECN.Weight = w(0) }, "random-detect",
			[]string{"random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100 weight 0"}, nil},
		{"watchdog rounded up", func(d *intent.Device) {
			d.QoS.PFC.Watchdog.Detection = 205 * time.Millisecond
			d.QoS.PFC.Watchdog.Polling = 2500 * time.Microsecond * 2 // 5ms
		}, "watchdog default", []string{"priority-flow-control pause watchdog default timeout 0.21", "priority-flow-control pause watchdog default recovery-time 0.4", "priority-flow-control pause watchdog default polling-interval 0.005"},
			[]string{"eos1: PFC watchdog timeout: 205ms rounded up to 0.21 s"}},
		{"watchdog whole seconds", func(d *intent.Device) {
			d.QoS.PFC.Watchdog = &intent.Watchdog{Detection: 2 * time.Second, Restoration: 30 * time.Second}
		}, "watchdog", []string{"priority-flow-control pause watchdog", "priority-flow-control pause watchdog default timeout 2", "priority-flow-control pause watchdog default recovery-time 30"}, nil},
		{"DWRR bandwidth", func(d *intent.Device) {
			d.QoS.Class(3).Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 50}
		}, "      ", []string{"no priority", "bandwidth percent 50", "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100", "priority strict"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := canonical()
			tt.edit(d)
			doc := render(t, d)
			var got []string
			for _, l := range strings.Split(string(doc.Text), "\n") {
				if strings.Contains(l, tt.find) && !strings.HasPrefix(strings.TrimSpace(l), "!") {
					got = append(got, strings.TrimSpace(l))
				}
			}
			got = dedupAdjacentPorts(got, len(tt.wantLine))
			if diff := cmp.Diff(tt.wantLine, got); diff != "" {
				t.Errorf("lines with %q (-want +got):\n%s", tt.find, diff)
			}
			var warns []string // the default-map note is TestCanonical's
			for _, w := range config.Messages(doc.Warnings) {
				if !strings.Contains(w, "default DSCP map") {
					warns = append(warns, w)
				}
			}
			if diff := cmp.Diff(tt.wantWarn, warns); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// dedupAdjacentPorts drops the second port's copy of per-interface lines
// when the test expects only one port's worth.
func dedupAdjacentPorts(got []string, want int) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range got {
		if len(got) > want && seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	return out
}

func TestUnsupported(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(d *intent.Device)
		feature string
		reason  string
	}{
		{"too many lossless classes", func(d *intent.Device) {
			d.QoS.Classes[0].Lossless = true
			d.QoS.Classes[2].Lossless = true
		}, "lossless classes", "3 lossless classes (priorities 0, 3, 6) exceed the 2 that 7060X5 supports"},
		{"traffic class 7", func(d *intent.Device) { d.QoS.Classes[2].ID = 7 }, "class CNP", "reserved for control traffic"},
		{"class MTU", func(d *intent.Device) { d.QoS.Class(3).MTU = 9216 }, "MTU of class ROCEv2", "no per-class MTU"},
		{"DWRR weight", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 14}
		}, "DWRR weight of class bulk", "not by weight"},
		{"time threshold on a profile shared by two speeds", func(d *intent.Device) {
			d.Options = map[string]string{"eos.style": "qos-profile"}
			d.QoS.Class(3).ECN.Max = intent.Threshold{Time: 100 * time.Microsecond}
			d.Ports[1].Speed = 100 * units.Gbps
		}, "ECN maximum threshold of class ROCEv2", "shared by ports of different speeds (400G on Ethernet1, 100G on Ethernet2)"},
		{"time threshold on a port without speed", func(d *intent.Device) {
			d.QoS.Class(3).ECN.Max = intent.Threshold{Time: 100 * time.Microsecond}
			d.Ports[0].Speed = 0
		}, "ECN maximum threshold of class ROCEv2", "port Ethernet1 has none"},
		{"min above max", func(d *intent.Device) {
			d.QoS.Class(3).ECN.Min = intent.Threshold{Bytes: 4 * units.MB}
		}, "ECN thresholds of class ROCEv2", "minimum 4096 kbytes is above maximum 3000 kbytes"},
		{"probability 0", func(d *intent.Device) { d.QoS.Class(3).ECN.MaxProbability = 0 }, "ECN probability of class ROCEv2", "outside EOS's 1–100%"},
		{"watchdog timeout too long", func(d *intent.Device) { d.QoS.PFC.Watchdog.Detection = 61 * time.Second }, "PFC watchdog timeout 1m1s", "EOS takes 0.01 to 60"},
		{"polling too slow", func(d *intent.Device) { d.QoS.PFC.Watchdog.Polling = 150 * time.Millisecond }, "PFC watchdog polling-interval 0.15", "at most half"},
		{"watchdog action forward", func(d *intent.Device) { d.QoS.PFC.Watchdog.Action = "forward" }, `PFC watchdog action "forward"`, "drop, errdisable or notify-only"},
		{"unknown option", func(d *intent.Device) { d.Options = map[string]string{"eos.colour": "blue"} }, `option "eos.colour"`, "knows only"},
		{"bad default-map", func(d *intent.Device) { d.Options = map[string]string{"eos.default-map": "yes"} }, `option "eos.default-map"`, `value "yes"`},
		{"bad queue keyword", func(d *intent.Device) { d.Options = map[string]string{"eos.tx-queue": "mc-tx-queue"} }, `option "eos.tx-queue"`, `value "mc-tx-queue"`},
		{"bad style", func(d *intent.Device) { d.Options = map[string]string{"eos.style": "profile"} }, `option "eos.style"`, `value "profile"`},
		{"buffer pool", func(d *intent.Device) { d.Buffers.LossyPool = units.MB }, "lossy pool size", "platform trident mmu"},
		{"strict levels against queue order", func(d *intent.Device) {
			d.QoS.Class(3).Scheduling = intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}
			d.QoS.Classes[2].Scheduling.Level = 2
		}, "priority level of class CNP", "queue 6 cannot have a lower priority (level 2) than queue 3 (level 1)"},
		{"per-port DSCP map differs", func(d *intent.Device) {
			q := *d.QoS
			q.Profile = "other"
			q.Classes = append([]intent.Class(nil), q.Classes...)
			q.Classes[1].DSCP = []int{24}
			d.Ports[1].QoS = &q
		}, "DSCP map of profile other", "one system-wide"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := canonical()
			tt.edit(d)
			_, err := Render(d)
			var ue *renderers.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("got %v, want an UnsupportedError", err)
			}
			if ue.Device != "eos1" || ue.Vendor != "eos" || ue.Feature != tt.feature || !strings.Contains(ue.Reason, tt.reason) {
				t.Errorf("got %q / %q / %q\nwant eos1 / %q / containing %q", ue.Device, ue.Feature, ue.Reason, tt.feature, tt.reason)
			}
		})
	}
}

func TestPerPortOverride(t *testing.T) {
	d := canonical()
	q := *d.QoS
	q.Profile = "hot"
	q.Classes = append([]intent.Class(nil), q.Classes...)
	e := *q.Classes[1].ECN
	e.Min = intent.Threshold{Bytes: 300 * units.KB}
	q.Classes[1].ECN = &e
	d.Ports[1].QoS = &q

	doc := render(t, d)
	text := string(doc.Text)
	for _, want := range []string{
		"interface Ethernet1\n   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\n   !\n   tx-queue 3\n      random-detect ecn minimum-threshold 150 kbytes",
		"interface Ethernet2\n   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\n   !\n   tx-queue 3\n      random-detect ecn minimum-threshold 300 kbytes",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}

	d.Options = map[string]string{"eos.style": "qos-profile"}
	text = string(render(t, d).Text)
	for _, want := range []string{"qos profile HOT\n", "qos profile ROCE_LOSSLESS\n", "interface Ethernet1\n   service-profile ROCE_LOSSLESS\n", "interface Ethernet2\n   service-profile HOT\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	if strings.Index(text, "qos profile HOT") > strings.Index(text, "qos profile ROCE_LOSSLESS") {
		t.Errorf("qos profiles not sorted by name:\n%s", text)
	}
}

func TestLossyRoCE(t *testing.T) {
	d := canonical()
	d.QoS.Class(3).Lossless = false
	d.QoS.PFC.Watchdog = nil
	text := string(render(t, d).Text)
	if strings.Contains(text, "priority-flow-control") {
		t.Errorf("lossy profile renders PFC lines:\n%s", text)
	}
	if !strings.Contains(text, "tx-queue 3\n      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100\n") {
		t.Errorf("ECN missing:\n%s", text)
	}
}

func TestSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		200 * time.Millisecond: "0.2", 5 * time.Millisecond: "0.005", 1220 * time.Millisecond: "1.22",
		10001 * time.Millisecond: "10.001", 2 * time.Second: "2", 50 * time.Millisecond: "0.05",
	} {
		if got := seconds(d); got != want {
			t.Errorf("seconds(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestPortOverrideOfDeviceProfile(t *testing.T) {
	d := canonical()
	d.Options = map[string]string{"eos.style": "qos-profile"}
	q := *d.QoS // same profile name, as resolution gives a port override
	q.Classes = append([]intent.Class(nil), q.Classes...)
	q.Classes[2].Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 10}
	d.Ports[1].QoS = &q
	text := string(render(t, d).Text)
	for _, want := range []string{"qos profile ROCE_LOSSLESS\n", "qos profile ROCE_LOSSLESS_ETHERNET2\n", "interface Ethernet2\n   service-profile ROCE_LOSSLESS_ETHERNET2\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
}

func TestUnicastQueues(t *testing.T) {
	for _, style := range []string{"interface", "qos-profile"} {
		d := canonical()
		d.Options = map[string]string{"eos.tx-queue": "uc-tx-queue", "eos.style": style}
		text := string(render(t, d).Text)
		if strings.Contains(text, "\n   tx-queue") || !strings.Contains(text, "   !\n   uc-tx-queue 3\n      random-detect ecn minimum-threshold 150 kbytes") || !strings.Contains(text, "   uc-tx-queue 6\n      priority strict\n") {
			t.Errorf("style %s: want uc-tx-queue blocks only:\n%s", style, text)
		}
	}
}

// TestDegenerateInput renders devices with missing parts: an error or a
// document, never a panic.
func TestDegenerateInput(t *testing.T) {
	empty := &intent.QoS{}
	for name, d := range map[string]*intent.Device{
		"no QoS":            {Name: "x"},
		"empty QoS":         {Name: "x", QoS: empty},
		"no platform":       {Name: "x", QoS: canonical().QoS},
		"port without QoS":  {Name: "x", QoS: canonical().QoS, Ports: []intent.Port{{Name: "Ethernet1"}}},
		"ECN without ports": {Name: "x", QoS: canonical().QoS, Buffers: &intent.Buffers{}},
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := Render(d)
			if err == nil && doc == nil {
				t.Error("nil document without an error")
			}
		})
	}
}

// TestExplicitDefaultMap: "explicit" maps every DSCP no class claims to
// the default class, those EOS's default map already sends there (8-15)
// included, so that the rendering holds all 64 values and the driver
// owns each of them.
func TestExplicitDefaultMap(t *testing.T) {
	d := canonical()
	d.Options = map[string]string{"eos.default-map": "explicit"}
	doc := render(t, d)
	want := "qos map dscp 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 25 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 to traffic-class 0\n" +
		"qos map dscp 24 26 to traffic-class 3\nqos map dscp 48 to traffic-class 6\n"
	if !strings.Contains(string(doc.Text), "!\n"+want+"!\n") {
		t.Errorf("want every unclaimed DSCP mapped to class bulk:\n%s", doc.Text)
	}
	if len(config.Messages(doc.Warnings)) != 0 {
		t.Errorf("warnings %q", config.Messages(doc.Warnings))
	}
}
