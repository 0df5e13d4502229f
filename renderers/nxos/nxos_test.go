package nxos

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

func intp(v int) *int { return &v }

// canonical is the intent of reference/nxos.md §1, built in Go.
func canonical() *intent.Device {
	q := &intent.QoS{
		Profile: "roce",
		Trust:   "dscp",
		Classes: []intent.Class{
			{Name: "bulk", ID: 0, Default: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 50}},
			{Name: "ROCEv2", ID: 3, DSCP: []int{24, 26}, Lossless: true, MTU: 9216,
				Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 50},
				ECN:        &intent.ECN{Min: intent.Threshold{Bytes: 150 * units.KB}, Max: intent.Threshold{Bytes: 3000 * units.KB}, MaxProbability: 7, Weight: intp(0)}},
			{Name: "CNP", ID: 7, DSCP: []int{48}, CNP: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}},
		},
		PFC: intent.PFC{Watchdog: &intent.Watchdog{}},
	}
	return &intent.Device{
		Name:     "nxos1",
		Vendor:   "nxos",
		Platform: &platform.Platform{Model: "N9K-C9364D-GX2A", MaxLossless: 3, MTUMin: 576, MTUMax: 9216},
		QoS:      q,
		Buffers:  &intent.Buffers{Profile: "default", Headroom: intent.HeadroomPolicy{Auto: true}},
		Ports: []intent.Port{
			{Name: "Ethernet1/1", Speed: 400 * units.Gbps, Cable: 3 * units.Metre, QoS: q},
			{Name: "Ethernet1/2", Speed: 400 * units.Gbps, Cable: 3 * units.Metre, QoS: q},
		},
	}
}

func TestCanonical(t *testing.T) {
	want, err := os.ReadFile("testdata/canonical.cfg")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Render(canonical())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(doc.Text)); diff != "" {
		t.Errorf("canonical rendering differs from reference/nxos.md §1 (-want +got):\n%s", diff)
	}
	if len(config.Messages(doc.Warnings)) != 0 {
		t.Errorf("unexpected warnings: %q", config.Messages(doc.Warnings))
	}
	// Tree holds the same lines as Text.
	var lines []string
	for _, n := range doc.Tree {
		lines = append(lines, flatten(n, 0)...)
	}
	var textLines []string
	for _, l := range strings.Split(string(doc.Text), "\n") {
		if l != "" {
			textLines = append(textLines, l)
		}
	}
	if diff := cmp.Diff(textLines, lines); diff != "" {
		t.Errorf("Tree and Text differ (-text +tree):\n%s", diff)
	}
}

func flatten(n *config.Node, depth int) []string {
	out := []string{strings.Repeat("  ", depth) + n.Text}
	for _, c := range n.Children {
		out = append(out, flatten(c, depth+1)...)
	}
	return out
}

// ecnLine renders d and returns its random-detect line.
func ecnLine(t *testing.T, doc string) string {
	t.Helper()
	for _, l := range strings.Split(doc, "\n") {
		if strings.Contains(l, "random-detect") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func TestUnitConversions(t *testing.T) {
	tests := []struct {
		name     string
		min, max intent.Threshold
		speed    units.BitRate
		weight   *int
		wantLine string
		wantWarn []string
	}{
		{
			name: "whole kbytes", min: intent.Threshold{Bytes: 150 * units.KB}, max: intent.Threshold{Bytes: 3 * units.MB},
			wantLine: "random-detect minimum-threshold 150 kbytes maximum-threshold 3072 kbytes drop-probability 7 weight 0 ecn",
		},
		{
			name: "bytes rounded up to kbytes", min: intent.Threshold{Bytes: 150000}, max: intent.Threshold{Bytes: 3000 * units.KB},
			wantLine: "random-detect minimum-threshold 147 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn",
			wantWarn: []string{"nxos1: ECN minimum threshold of class ROCEv2: 150000B rounded up to 147 kbytes (150528B)"},
		},
		{
			name: "time at port speed", min: intent.Threshold{Time: 10 * time.Microsecond}, max: intent.Threshold{Time: 80 * time.Microsecond}, speed: 100 * units.Gbps,
			// 100G × 10 µs / 8 = 125000 B → 123 kbytes (125952 B); × 80 µs = 1000000 B → 977 kbytes.
			wantLine: "random-detect minimum-threshold 123 kbytes maximum-threshold 977 kbytes drop-probability 7 weight 0 ecn",
			wantWarn: []string{
				"nxos1: ECN minimum threshold of class ROCEv2: 10µs at 100G (125000B) rounded up to 123 kbytes (125952B)",
				"nxos1: ECN maximum threshold of class ROCEv2: 80µs at 100G (1000000B) rounded up to 977 kbytes (1000448B)",
			},
		},
		{
			name: "unset weight", min: intent.Threshold{Bytes: 300 * units.KB}, max: intent.Threshold{Bytes: 300 * units.KB}, weight: nil,
			wantLine: "random-detect minimum-threshold 300 kbytes maximum-threshold 300 kbytes drop-probability 7 weight 0 ecn",
			wantWarn: []string{"nxos1: ECN weight of class ROCEv2 is unset; NX-OS requires one, written as 0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := canonical()
			c := d.QoS.Class(3)
			c.ECN.Min, c.ECN.Max = tt.min, tt.max
			if tt.name == "unset weight" {
				c.ECN.Weight = nil
			}
			if tt.speed != 0 {
				for i := range d.Ports {
					d.Ports[i].Speed = tt.speed
				}
			}
			doc, err := Render(d)
			if err != nil {
				t.Fatal(err)
			}
			if got := ecnLine(t, string(doc.Text)); got != tt.wantLine {
				t.Errorf("random-detect line\n got %q\nwant %q", got, tt.wantLine)
			}
			if diff := cmp.Diff(tt.wantWarn, config.Messages(doc.Warnings)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnsupported(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(d *intent.Device)
		feature string
		reason  string // substring
	}{
		{"too many lossless classes", func(d *intent.Device) {
			d.Platform.MaxLossless = 1
			d.QoS.Classes[0].Lossless = true
		}, "lossless classes", "2 lossless classes (priorities 0, 3) exceed the 1 that N9K-C9364D-GX2A supports"},
		{"time threshold with mixed speeds", func(d *intent.Device) {
			d.QoS.Class(3).ECN.Min = intent.Threshold{Time: 10 * time.Microsecond}
			d.Ports[1].Speed = 100 * units.Gbps
		}, "ECN minimum threshold of class ROCEv2", "ports run at different speeds (400G on Ethernet1/1, 100G on Ethernet1/2)"},
		{"time threshold without ports", func(d *intent.Device) {
			d.QoS.Class(3).ECN.Max = intent.Threshold{Time: 10 * time.Microsecond}
			d.Ports = nil
		}, "ECN maximum threshold of class ROCEv2", "no managed ports"},
		{"watchdog detection time", func(d *intent.Device) {
			d.QoS.PFC.Watchdog.Detection = 200 * time.Millisecond
		}, "PFC watchdog detection time 200ms", "multipliers of a fixed 100 ms poll"},
		{"watchdog polling", func(d *intent.Device) {
			d.QoS.PFC.Watchdog.Polling = 10 * time.Millisecond
		}, "PFC watchdog polling interval 10ms", "multipliers"},
		{"watchdog action", func(d *intent.Device) {
			d.QoS.PFC.Watchdog.Action = "errdisable"
		}, `PFC watchdog action "errdisable"`, "always drops"},
		{"DWRR weight", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 14}
		}, "DWRR weight of class bulk", "not by weight"},
		{"bandwidth over 100", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling.Bandwidth = 60
		}, "bandwidth shares", "add up to 110%"},
		{"MTU above 9216", func(d *intent.Device) {
			d.QoS.Class(3).MTU = 9300
		}, "MTU of class ROCEv2", "9300 is outside the 576–9216"},
		{"min above max", func(d *intent.Device) {
			d.QoS.Class(3).ECN.Min = intent.Threshold{Bytes: 4000 * units.KB}
		}, "ECN thresholds of class ROCEv2", "minimum 4000 kbytes is above maximum 3000 kbytes"},
		{"WRED weight", func(d *intent.Device) {
			d.QoS.Class(3).ECN.Weight = intp(16)
		}, "ECN weight of class ROCEv2", "16 is outside 0–15"},
		{"buffer pool", func(d *intent.Device) {
			d.Buffers.LosslessPool = 10 * units.MB
		}, "lossless pool size", "no confirmed CLI form"},
		{"explicit headroom", func(d *intent.Device) {
			d.Buffers.Headroom = intent.HeadroomPolicy{Xoff: 100 * units.KB, Xon: 10 * units.KB}
		}, "explicit headroom", "no confirmed CLI form"},
		{"unknown option", func(d *intent.Device) {
			d.Options = map[string]string{"nxos.style": "x", "eos.style": "qos-profile"}
		}, `option "nxos.style"`, "knows only"},
		{"bad option value", func(d *intent.Device) {
			d.Options = map[string]string{"nxos.pfc-tlv": "yes"}
		}, `option "nxos.pfc-tlv"`, `neither "send-tlv" nor "none"`},
		{"implicit class-default with a default class not 0", func(d *intent.Device) {
			d.Options = map[string]string{"nxos.class-default": "implicit"}
			d.QoS.Classes[0].Default = false
			d.QoS.Class(3).Default = true
		}, `option "nxos.class-default"`, "default class is traffic class 3"},
		{"unknown trust", func(d *intent.Device) {
			d.QoS.Trust = "ip-precedence"
		}, `trust "ip-precedence"`, "DSCP or CoS"},
		{"port override reuses a class name with other DSCPs", func(d *intent.Device) {
			q := *d.QoS
			q.Profile = "hot"
			q.Classes = append([]intent.Class(nil), q.Classes...)
			q.Classes[1].DSCP = []int{24}
			d.Ports[1].QoS = &q
		}, "class-map ROCEv2", "NX-OS class-maps are global"},
		{"port override changes network-qos", func(d *intent.Device) {
			q := *d.QoS
			q.Profile = "hot"
			q.Classes = append([]intent.Class(nil), q.Classes...)
			q.Classes[1].MTU = 4200
			d.Ports[1].QoS = &q
		}, "QoS override on port Ethernet1/2", "system-wide only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := canonical()
			tt.edit(d)
			doc, err := Render(d)
			var ue *renderers.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("got %v (doc %v), want an UnsupportedError", err, doc != nil)
			}
			if ue.Device != "nxos1" || ue.Feature != tt.feature || !strings.Contains(ue.Reason, tt.reason) {
				t.Errorf("got device %q feature %q reason %q\nwant nxos1, %q, containing %q", ue.Device, ue.Feature, ue.Reason, tt.feature, tt.reason)
			}
		})
	}
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(d *intent.Device)
		want    []string // lines that must appear, in this order
		notWant []string
	}{
		{"lossy RoCE has no PFC or network-qos", func(d *intent.Device) {
			d.QoS.Class(3).Lossless = false
			d.QoS.Class(3).MTU = 0
			d.QoS.PFC.Watchdog = nil
		}, []string{"system qos\n  service-policy type queuing output QOS_EGRESS_PORT\n", "interface Ethernet1/1\n  service-policy type qos input QOS_CLASSIFICATION\n"},
			[]string{"priority-flow-control", "network-qos", "pause pfc-cos"}},
		{"two lossless classes", func(d *intent.Device) {
			d.QoS.Classes = append(d.QoS.Classes[:2], append([]intent.Class{{Name: "RDMA2", ID: 4, DSCP: []int{32}, Lossless: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 0}}}, d.QoS.Classes[2:]...)...)
		}, []string{"class-map type qos match-any RDMA2\n  match dscp 32\n", "  class type queuing c-out-8q-q4\n    bandwidth remaining percent 0\n",
			"  class type network-qos c-8q-nq3\n    mtu 9216\n    pause pfc-cos 3\n  class type network-qos c-8q-nq4\n    pause pfc-cos 4\n"}, nil},
		{"unset scheduling keeps NX-OS defaults", func(d *intent.Device) {
			for i := range d.QoS.Classes {
				d.QoS.Classes[i].Scheduling = intent.Scheduling{}
			}
		}, []string{"c-out-8q-q-default\n    bandwidth remaining percent 100\n  class type queuing c-out-8q-q7\n    priority level 1\n"}, nil},
		{"per-port override gets its own policies", func(d *intent.Device) {
			q := *d.QoS
			q.Profile = "hot"
			q.Classes = append([]intent.Class(nil), q.Classes...)
			e := *q.Classes[1].ECN
			e.MaxProbability = 20
			q.Classes[1].ECN = &e
			d.Ports[1].QoS = &q
		}, []string{"policy-map type queuing QOS_EGRESS_PORT_hot\n",
			"drop-probability 20 weight 0 ecn",
			"interface Ethernet1/1\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION\n\n",
			"interface Ethernet1/2\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION\n  service-policy type queuing output QOS_EGRESS_PORT_hot\n"},
			[]string{"QOS_CLASSIFICATION_hot"}},
		{"per-port classification override", func(d *intent.Device) {
			q := *d.QoS
			q.Profile = "hot"
			q.Classes = append([]intent.Class(nil), q.Classes...)
			q.Classes[1].Name = "ROCEv2_HOT"
			q.Classes[1].DSCP = []int{24, 26, 28}
			d.Ports[1].QoS = &q
		}, []string{"class-map type qos match-any ROCEv2\n  match dscp 24,26\nclass-map type qos match-any CNP\n  match dscp 48\nclass-map type qos match-any ROCEv2_HOT\n  match dscp 24,26,28\n",
			"policy-map type qos QOS_CLASSIFICATION_hot\n  class ROCEv2_HOT\n    set qos-group 3\n",
			"interface Ethernet1/2\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION_hot\n"},
			[]string{"QOS_EGRESS_PORT_hot"}},
		{"equal per-port profile shares the device's policies", func(d *intent.Device) {
			q := *d.QoS
			q.Profile = "same"
			d.Ports[1].QoS = &q
		}, nil, []string{"_same"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := canonical()
			tt.edit(d)
			doc, err := Render(d)
			if err != nil {
				t.Fatal(err)
			}
			text := string(doc.Text)
			rest := text
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, text)
				}
				rest = rest[i+len(w):]
			}
			for _, nw := range tt.notWant {
				if strings.Contains(text, nw) {
					t.Errorf("unexpected %q in:\n%s", nw, text)
				}
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	a, err := Render(canonical())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		b, err := Render(canonical())
		if err != nil {
			t.Fatal(err)
		}
		if string(a.Text) != string(b.Text) {
			t.Fatal("two renderings of the same device differ")
		}
	}
}

func TestPortOverrideOfDeviceProfile(t *testing.T) {
	d := canonical()
	q := *d.QoS // same profile name, as resolution gives a port override
	q.Classes = append([]intent.Class(nil), q.Classes...)
	e := *q.Classes[1].ECN
	e.MaxProbability = 20
	q.Classes[1].ECN = &e
	d.Ports[1].QoS = &q
	doc, err := Render(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"policy-map type queuing QOS_EGRESS_PORT_Ethernet1-2\n", "  service-policy type queuing output QOS_EGRESS_PORT_Ethernet1-2\n"} {
		if !strings.Contains(string(doc.Text), want) {
			t.Errorf("missing %q in:\n%s", want, doc.Text)
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
