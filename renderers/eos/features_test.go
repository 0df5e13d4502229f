package eos

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/renderers"
)

// TestFeatures renders each intent feature beyond the core that EOS
// declares (vendors/eos Features) and wants its exact lines, in the
// forms of AVD's templates and molecule configs (reference/eos.md §8
// [C:avd]): qos-profiles.j2, ethernet-interfaces.j2,
// ethernet-interface-tx-queues.j2, qos.j2 and intended/configs/qos.cfg.
func TestFeatures(t *testing.T) {
	tests := []struct {
		name string
		edit func(d *intent.Device)
		want []string // lines of the rendering, in order, without the others
		not  []string // lines it must not have
	}{
		{"trust cos", func(d *intent.Device) {
			d.QoS.Trust = intent.TrustCoS
			for i := range d.QoS.Classes {
				c := &d.QoS.Classes[i]
				c.CoS, c.DefaultCoS = map[int][]int{3: {3, 4}, 6: {6}}[c.ID], c.Default
				c.DSCP, c.Default = nil, false
			}
		}, []string{"interface Ethernet1", "   qos trust cos", "qos map cos 3 4 to traffic-class 3", "qos map cos 6 to traffic-class 6"},
			[]string{"   qos trust dscp", "qos map dscp 24 26 to traffic-class 3"}},
		{"trust cos, every value mapped", func(d *intent.Device) {
			d.Options = map[string]string{OptionDefaultMap: "explicit"}
			d.QoS.Trust = intent.TrustCoS
			for i := range d.QoS.Classes {
				c := &d.QoS.Classes[i]
				c.CoS, c.DefaultCoS = map[int][]int{3: {3}, 6: {6}}[c.ID], c.Default
				c.DSCP, c.Default = nil, false
			}
		}, []string{"qos map cos 0 1 2 4 5 7 to traffic-class 0", "qos map cos 3 to traffic-class 3", "qos map cos 6 to traffic-class 6"}, nil},
		{"min_bandwidth on a strict queue", func(d *intent.Device) { d.QoS.Class(6).Scheduling.MinBandwidth = 10 },
			[]string{"   tx-queue 6", "      priority strict", "      bandwidth guaranteed percent 10"}, nil},
		{"min_bandwidth on a queue left to EOS", func(d *intent.Device) { d.QoS.Class(3).Scheduling.MinBandwidth = 20 },
			[]string{"   tx-queue 3", "      bandwidth guaranteed percent 20", "      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100"}, nil},
		{"shape after the share", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 40, Shape: 25 * units.Gbps}
		}, []string{"   tx-queue 0", "      no priority", "      bandwidth percent 40", "      shape rate 25000000 kbps"}, nil},
		{"shape and guarantee on a strict queue", func(d *intent.Device) {
			d.QoS.Class(6).Scheduling.MinBandwidth = 5
			d.QoS.Class(6).Scheduling.Shape = 500 * units.BitRate(1_000_000)
		}, []string{"      priority strict", "      bandwidth guaranteed percent 5", "      shape rate 500000 kbps"}, nil},
		{"pfc mode off", func(d *intent.Device) { d.QoS.PFC.Mode = intent.PFCOff },
			[]string{"   no priority-flow-control", "   priority-flow-control priority 3 no-drop", "   priority-flow-control pause watchdog"},
			[]string{"   priority-flow-control on"}},
		{"pfc mode off in a qos profile", func(d *intent.Device) {
			d.Options = map[string]string{OptionStyle: StyleQoSProfile}
			d.QoS.PFC.Mode = intent.PFCOff
		}, []string{"qos profile ROCE_LOSSLESS", "   no priority-flow-control", "   priority-flow-control priority 3 no-drop"}, []string{"   priority-flow-control on"}},
		{"ECN at EOS's default probability", func(d *intent.Device) {
			e := d.QoS.Class(3).ECN
			e.MaxProbability, e.DefaultProbability = 0, true
		}, []string{"      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes"}, nil},
		{"ECN at the default probability with a weight", func(d *intent.Device) {
			e := d.QoS.Class(3).ECN
			w := 10
			e.MaxProbability, e.DefaultProbability, e.Weight = 0, true, &w
		}, []string{"      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes weight 10"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := canonical()
			tt.edit(d)
			lines := strings.Split(string(render(t, d).Text), "\n")
			var got []string
			at := 0
			for _, w := range tt.want {
				for at < len(lines) && lines[at] != w {
					at++
				}
				if at == len(lines) {
					break
				}
				got = append(got, w)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines missing or out of order (-want +found):\n%s\nrendering:\n%s", diff, strings.Join(lines, "\n"))
			}
			for _, n := range tt.not {
				for _, l := range lines {
					if l == n {
						t.Errorf("rendering has %q", n)
					}
				}
			}
		})
	}
}

// TestFeatureLimits: what EOS cannot take of a declared feature is the
// renderer's unsupported error, naming the limit and its source.
func TestFeatureLimits(t *testing.T) {
	tests := []struct {
		name, feature, reason string
		edit                  func(d *intent.Device)
	}{
		{"pfc mode auto", `pfc mode "auto"`, "no EOS source", func(d *intent.Device) { d.QoS.PFC.Mode = intent.PFCAuto }},
		{"min_bandwidth beside a round-robin share", "min_bandwidth of class bulk", "no source shows both", func(d *intent.Device) {
			d.QoS.Classes[0].Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 40, MinBandwidth: 10}
		}},
		{"shape below a kbps", "shape of class CNP", "whole kbps", func(d *intent.Device) { d.QoS.Class(6).Scheduling.Shape = 1500 }},
		{"ECN probability 0", "ECN probability of class ROCEv2", "1–100%", func(d *intent.Device) { d.QoS.Class(3).ECN.MaxProbability = 0 }},
		{"port watchdog under an interface", "PFC watchdog of profile roce_lossless", "only inside a qos profile", portWatchdog(true, func(w *intent.Watchdog) { w.Action = "notify-only" })},
		{"port watchdog errdisable", "PFC watchdog of profile roce_lossless", "drop or notify-only only", portWatchdog(false, func(w *intent.Watchdog) { w.Action = "errdisable" })},
		{"port watchdog timers without a restoration", "PFC watchdog of profile roce_lossless", "both required", portWatchdog(false, func(w *intent.Watchdog) { w.Restoration = 0 })},
		{"port watchdog polling too slow", "profile roce_lossless: PFC watchdog polling-interval 0.15", "at most half", portWatchdog(false, func(w *intent.Watchdog) { w.Polling = 150 * time.Millisecond })},
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
			if ue.Feature != tt.feature || !strings.Contains(ue.Reason, tt.reason) {
				t.Errorf("got %q / %q, want %q / containing %q", ue.Feature, ue.Reason, tt.feature, tt.reason)
			}
		})
	}
}

// portWatchdog gives port Ethernet2 an override of the device's profile
// whose watchdog edit changes, in the qos-profile style unless iface.
func portWatchdog(iface bool, edit func(w *intent.Watchdog)) func(d *intent.Device) {
	return func(d *intent.Device) {
		if !iface {
			d.Options = map[string]string{OptionStyle: StyleQoSProfile}
		}
		q := *d.QoS
		w := *q.PFC.Watchdog
		edit(&w)
		q.PFC.Watchdog = &w
		d.Ports[1].QoS = &q
	}
}

// TestPortWatchdog: a port whose watchdog differs from the device's says
// its own action and timers in its qos profile, in the forms of AVD's
// qos_profiles schema and molecule output (`priority-flow-control pause
// watchdog port action drop`, `… port timer timeout 0.05 polling-interval
// auto recovery-time 1.11 forced`; corpus avd-qos-profiles), the global
// lines staying the device's.
func TestPortWatchdog(t *testing.T) {
	tests := []struct {
		name string
		edit func(w *intent.Watchdog)
		want []string
	}{
		{"action", func(w *intent.Watchdog) { w.Action = "notify-only" }, []string{
			"qos profile ROCE_LOSSLESS_ETHERNET2", "   priority-flow-control pause watchdog", "   priority-flow-control pause watchdog port action notify-only",
			"priority-flow-control pause watchdog action drop"}},
		{"timers", func(w *intent.Watchdog) {
			w.Detection, w.Restoration, w.Polling = 50*time.Millisecond, 1110*time.Millisecond, 0
		}, []string{
			"qos profile ROCE_LOSSLESS_ETHERNET2", "   priority-flow-control pause watchdog",
			"   priority-flow-control pause watchdog port timer timeout 0.05 polling-interval auto recovery-time 1.11",
			"priority-flow-control pause watchdog default timeout 0.2"}},
		{"both, polling given", func(w *intent.Watchdog) { w.Action, w.Polling = "drop", 5*time.Millisecond; w.Detection = time.Second }, []string{
			"   priority-flow-control pause watchdog port timer timeout 1 polling-interval 0.005 recovery-time 0.4"}},
		{"action drop over errdisable", func(w *intent.Watchdog) { w.Action = "drop" }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := canonical()
			if tt.want == nil {
				d.QoS.PFC.Watchdog.Action = "errdisable"
				tt.want = []string{"   priority-flow-control pause watchdog port action drop", "priority-flow-control pause watchdog action errdisable"}
			}
			portWatchdog(false, tt.edit)(d)
			text := string(render(t, d).Text)
			lines := strings.Split(text, "\n")
			at := 0
			for _, w := range tt.want {
				for at < len(lines) && lines[at] != w {
					at++
				}
				if at == len(lines) {
					t.Fatalf("missing %q (in order) in:\n%s", w, text)
				}
			}
			// The device's own profile has no per-port line.
			own := text[strings.Index(text, "qos profile ROCE_LOSSLESS\n"):strings.Index(text, "qos profile ROCE_LOSSLESS_ETHERNET2")]
			if strings.Contains(own, "watchdog port") {
				t.Errorf("the device's profile has a per-port watchdog line:\n%s", own)
			}
		})
	}
}
