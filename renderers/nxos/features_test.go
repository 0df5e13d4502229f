package nxos

import (
	"errors"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/renderers"
)

// TestFeatures renders each intent feature NX-OS declares (vendors/nxos
// register.go) and checks its exact lines: each want block appears in the
// rendering as written, each absent line nowhere.
func TestFeatures(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(d *intent.Device)
		want   []string
		absent []string
	}{
		{"trust cos", func(d *intent.Device) {
			// The Azure Local ToR classification (testdata/realworld/nxos/
			// azure-local-storage-tor): RDMA on CoS 3, cluster on CoS 7.
			q := d.QoS
			q.Trust = intent.TrustCoS
			q.Classes[0].Default, q.Classes[0].DefaultCoS = false, true
			q.Classes[1].Name, q.Classes[1].DSCP, q.Classes[1].CoS = "RDMA", nil, []int{3}
			q.Classes[2].Name, q.Classes[2].DSCP, q.Classes[2].CoS = "CLUSTER", nil, []int{7}
		}, []string{
			"class-map type qos match-any RDMA\n  match cos 3\nclass-map type qos match-any CLUSTER\n  match cos 7\n",
			"policy-map type qos QOS_CLASSIFICATION\n  class RDMA\n    set qos-group 3\n  class CLUSTER\n    set qos-group 7\n  class class-default\n    set qos-group 0\n",
		}, []string{"match dscp"}},
		{"trust cos, a list and a default class that is not 0", func(d *intent.Device) {
			q := d.QoS
			q.Trust = intent.TrustCoS
			q.Classes[0].Default, q.Classes[0].CoS = false, []int{0, 1, 2}
			q.Classes[1].DSCP, q.Classes[1].CoS, q.Classes[1].DefaultCoS = nil, []int{3, 4}, true
			q.Classes[2].DSCP, q.Classes[2].CoS = nil, []int{6, 7}
		}, []string{
			"class-map type qos match-any bulk\n  match cos 0,1,2\n",
			"class-map type qos match-any CNP\n  match cos 6,7\n",
			"  class class-default\n    set qos-group 3\n",
		}, []string{"class-map type qos match-any ROCEv2"}},
		{"match all", func(d *intent.Device) {
			d.QoS.Class(3).MatchAll = true
		}, []string{
			"class-map type qos match-all ROCEv2\n  match dscp 24,26\nclass-map type qos match-any CNP\n",
		}, nil},
		{"match all on a CoS class", func(d *intent.Device) {
			q := d.QoS
			q.Trust = intent.TrustCoS
			q.Classes[0].Default, q.Classes[0].DefaultCoS = false, true
			q.Classes[1].DSCP, q.Classes[1].CoS, q.Classes[1].MatchAll = nil, []int{3}, true
			q.Classes[2].DSCP, q.Classes[2].CoS = nil, []int{7}
		}, []string{"class-map type qos match-all ROCEv2\n  match cos 3\n"}, nil},
		{"min bandwidth", func(d *intent.Device) {
			// The Azure Local cluster queue: `bandwidth percent 1`.
			d.QoS.Class(7).Scheduling = intent.Scheduling{MinBandwidth: 1}
			d.QoS.Classes[0].Scheduling.Bandwidth = 48
		}, []string{
			"  class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n",
			"  class type queuing c-out-8q-q-default\n    bandwidth remaining percent 48\n  class type queuing c-out-8q-q7\n    bandwidth percent 1\n",
		}, []string{"priority level"}},
		{"min bandwidth on a lossy queue", func(d *intent.Device) {
			d.QoS.Classes = append(d.QoS.Classes, intent.Class{Name: "storage", ID: 4, DSCP: []int{16}, Scheduling: intent.Scheduling{MinBandwidth: 20}})
		}, []string{"  class type queuing c-out-8q-q4\n    bandwidth percent 20\n"}, nil},
		{"pfc mode on", func(d *intent.Device) {
			d.QoS.PFC.Mode = intent.PFCOn
		}, []string{"interface Ethernet1/1\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n"}, nil},
		{"pfc mode off", func(d *intent.Device) {
			d.QoS.PFC.Mode = intent.PFCOff
		}, []string{"interface Ethernet1/1\n  priority-flow-control mode off\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION\n"},
			[]string{"priority-flow-control mode on"}},
		{"pfc mode auto: NX-OS's default, not displayed", func(d *intent.Device) {
			d.QoS.PFC.Mode = intent.PFCAuto
			d.QoS.PFC.Watchdog = nil
		}, []string{"interface Ethernet1/1\n  service-policy type qos input QOS_CLASSIFICATION\n"},
			[]string{"priority-flow-control"}},
		// The options, for what the Azure Local ToR configs show.
		{"option pfc-tlv send-tlv", func(d *intent.Device) {
			d.Options = map[string]string{OptionPFCTLV: PFCTLVSend}
		}, []string{"interface Ethernet1/2\n  priority-flow-control mode on send-tlv\n"}, []string{"priority-flow-control mode on\n"}},
		{"option pfc-tlv send-tlv leaves mode off alone", func(d *intent.Device) {
			d.Options = map[string]string{OptionPFCTLV: PFCTLVSend}
			d.QoS.PFC.Mode = intent.PFCOff
		}, []string{"  priority-flow-control mode off\n"}, []string{"send-tlv"}},
		{"option class-default implicit", func(d *intent.Device) {
			d.Options = map[string]string{OptionClassDefault: ClassDefaultImplicit}
		}, []string{"policy-map type qos QOS_CLASSIFICATION\n  class ROCEv2\n    set qos-group 3\n  class CNP\n    set qos-group 7\n\n"}, []string{"class-default"}},
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
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("rendering lacks\n%s\ngot:\n%s", w, text)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(text, a) {
					t.Errorf("rendering has %q:\n%s", a, text)
				}
			}
		})
	}
}

// TestFeaturesRefused: the values of a declared feature NX-OS cannot take
// are refused, naming the limit.
func TestFeaturesRefused(t *testing.T) {
	tests := []struct {
		name            string
		edit            func(d *intent.Device)
		feature, reason string
	}{
		{"min bandwidth beside a share", func(d *intent.Device) {
			d.QoS.Class(3).Scheduling.MinBandwidth = 10
		}, "min_bandwidth of class ROCEv2", "one scheduling line"},
		{"min bandwidth beside strict priority", func(d *intent.Device) {
			d.QoS.Class(7).Scheduling.MinBandwidth = 10
		}, "min_bandwidth of class CNP", "one scheduling line"},
		{"min bandwidths above the port", func(d *intent.Device) {
			d.QoS.Class(7).Scheduling = intent.Scheduling{MinBandwidth: 60}
			d.QoS.Classes = append(d.QoS.Classes, intent.Class{Name: "storage", ID: 4, DSCP: []int{16}, Scheduling: intent.Scheduling{MinBandwidth: 50}})
		}, "minimum bandwidths", "add up to 110%"},
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
			if ue.Feature != tt.feature || !strings.Contains(ue.Reason, tt.reason) {
				t.Errorf("got feature %q reason %q, want %q containing %q", ue.Feature, ue.Reason, tt.feature, tt.reason)
			}
		})
	}
}
