package nxos

import (
	"slices"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/nxos"
	"github.com/lossless-net/lossless/vendors"
)

// base is a small running config of lossless' shape with user names.
const base = `priority-flow-control watch-dog-interval on

class-map type qos match-any RDMA
  match dscp 26
class-map type qos match-any CNP
  match dscp 48

policy-map type qos IN
  class RDMA
    set qos-group 3
  class CNP
    set qos-group 7
  class class-default
    set qos-group 0

policy-map type queuing OUT
  class type queuing c-out-8q-q6
    bandwidth remaining percent 0
  class type queuing c-out-8q-q5
    bandwidth remaining percent 0
  class type queuing c-out-8q-q4
    bandwidth remaining percent 0
  class type queuing c-out-8q-q3
    bandwidth remaining percent 60
    random-detect minimum-threshold 100 kbytes maximum-threshold 1000 kbytes drop-probability 10 weight 0 ecn
  class type queuing c-out-8q-q2
    bandwidth remaining percent 0
  class type queuing c-out-8q-q1
    bandwidth remaining percent 0
  class type queuing c-out-8q-q-default
    bandwidth remaining percent 40
  class type queuing c-out-8q-q7
    priority level 1

policy-map type network-qos NQ
  class type network-qos c-8q-nq3
    mtu 9216
    pause pfc-cos 3

system qos
  service-policy type network-qos NQ
  service-policy type queuing output OUT

interface Ethernet1/1
  priority-flow-control mode on
  priority-flow-control watch-dog-interval on
  service-policy type qos input IN

interface Ethernet1/2
  priority-flow-control mode on
  priority-flow-control watch-dog-interval on
  service-policy type qos input IN
`

// TestImportCases: what Import reads from configs of the shapes real
// fabrics have, what it lists as unexpressed, and that its result always
// renders.
func TestImportCases(t *testing.T) {
	gx := &platform.Platform{Model: "N9K-C93600CD-GX", MaxLossless: 3, MTUMin: 576, MTUMax: 9216}
	for _, tc := range []struct {
		name    string
		running string
		plat    *platform.Platform
		check   func(t *testing.T, im *vendors.Imported)
		// unexpressed are substrings of the unexpressed lines' texts, in
		// order; nil: none.
		unexpressed []string
	}{
		{name: "user names kept", running: base, check: func(t *testing.T, im *vendors.Imported) {
			n := im.QoS.Names
			if n.Classifier != "IN" || n.Queuing != "OUT" || n.NetworkQoS != "NQ" {
				t.Errorf("names %+v", n)
			}
			if c := im.QoS.Class(3); c == nil || c.Name != "RDMA" || c.Names.ClassMap != "" || !c.Lossless || c.MTU != 9216 || c.Scheduling.Bandwidth != 60 {
				t.Errorf("class 3: %+v", c)
			}
			if im.QoS.PFC.Watchdog == nil || len(im.Ports) != 2 || im.Ports[0].QoS != nil {
				t.Errorf("watchdog %v, ports %+v", im.QoS.PFC.Watchdog, im.Ports)
			}
		}},
		{name: "default names left empty", running: strings.NewReplacer(" IN\n", " QOS_CLASSIFICATION\n", " OUT\n", " QOS_EGRESS_PORT\n", " NQ\n", " qos_network\n").Replace(base),
			check: func(t *testing.T, im *vendors.Imported) {
				if im.QoS.Names != (intent.Names{}) {
					t.Errorf("names %+v, want the defaults (empty)", im.QoS.Names)
				}
			}},
		{name: "a port with its own queuing policy", running: base + `
policy-map type queuing OUT-EDGE
  class type queuing c-out-8q-q6
    bandwidth remaining percent 0
  class type queuing c-out-8q-q5
    bandwidth remaining percent 0
  class type queuing c-out-8q-q4
    bandwidth remaining percent 0
  class type queuing c-out-8q-q3
    bandwidth remaining percent 60
    random-detect minimum-threshold 50 kbytes maximum-threshold 500 kbytes drop-probability 20 weight 0 ecn
  class type queuing c-out-8q-q2
    bandwidth remaining percent 0
  class type queuing c-out-8q-q1
    bandwidth remaining percent 0
  class type queuing c-out-8q-q-default
    bandwidth remaining percent 40
  class type queuing c-out-8q-q7
    priority level 1

interface Ethernet1/3
  priority-flow-control mode on
  priority-flow-control watch-dog-interval on
  service-policy type qos input IN
  service-policy type queuing output OUT-EDGE
`, check: func(t *testing.T, im *vendors.Imported) {
			p := im.Ports[2]
			if p.Name != "Ethernet1/3" || p.QoS == nil || p.QoS.Names.Queuing != "OUT-EDGE" || p.QoS.Names.Classifier != "IN" {
				t.Fatalf("port 3: %+v", p)
			}
			if e := p.QoS.Class(3).ECN; e == nil || e.MaxProbability != 20 {
				t.Errorf("port 3 ECN %+v", e)
			}
		}},
		{name: "two class-maps on one qos-group", running: strings.Replace(base, "  class CNP\n    set qos-group 7\n", "  class CNP\n    set qos-group 3\n", 1),
			unexpressed: []string{"class CNP", "set qos-group 3", "priority level 1"}},
		{name: "global watchdog without port lines", running: strings.ReplaceAll(base, "  priority-flow-control watch-dog-interval on\n", ""),
			unexpressed: []string{"priority-flow-control watch-dog-interval on"}},
		{name: "port watchdog without the global line", running: strings.Replace(base, "priority-flow-control watch-dog-interval on\n\n", "", 1),
			unexpressed: []string{"priority-flow-control watch-dog-interval on", "priority-flow-control watch-dog-interval on"}},
		{name: "a stale policy of lossless' names", running: base + "\npolicy-map type qos QOS_CLASSIFICATION_old\n  class RDMA\n    set qos-group 3\n",
			unexpressed: []string{"policy-map type qos QOS_CLASSIFICATION_old", "class RDMA", "set qos-group 3"}},
		{name: "another team's policy on an uplink stays outside", running: base + "\npolicy-map type qos MARK\n  class CNP\n    set qos-group 7\n\ninterface Ethernet1/9\n  service-policy type qos input MARK\n",
			check: func(t *testing.T, im *vendors.Imported) {
				if len(im.Ports) != 2 {
					t.Errorf("ports %+v, want the two PFC ports", im.Ports)
				}
			}},
		{name: "a port with only the system queuing policy", running: base + "\ninterface Ethernet1/9\n  service-policy type queuing output OUT\n",
			unexpressed: []string{"service-policy type queuing output OUT"}},
		{name: "PFC tuning and buffer lines", running: "priority-flow-control watch-dog interval 200\nhardware qos ns-buffer-profile mesh\n" + base,
			unexpressed: []string{"priority-flow-control watch-dog interval 200", "hardware qos ns-buffer-profile mesh"}},
		{name: "a lossless MTU below RoCE's", running: strings.Replace(base, "    mtu 9216\n    pause pfc-cos 3\n", "    mtu 2240\n    pause pfc-cos 3\n", 1),
			unexpressed: []string{"mtu 2240"}},
		{name: "a default queue with no share", running: strings.NewReplacer("c-out-8q-q-default\n    bandwidth remaining percent 40", "c-out-8q-q-default\n    bandwidth remaining percent 0",
			"bandwidth remaining percent 60", "bandwidth remaining percent 100").Replace(base),
			unexpressed: []string{"bandwidth remaining percent 100", "bandwidth remaining percent 0"}},
		{name: "more lossless classes than the platform runs", plat: gx, running: strings.NewReplacer(
			"class-map type qos match-any CNP\n", "class-map type qos match-any A\n  match dscp 10\nclass-map type qos match-any B\n  match dscp 12\nclass-map type qos match-any C\n  match dscp 14\nclass-map type qos match-any CNP\n",
			"  class CNP\n", "  class A\n    set qos-group 1\n  class B\n    set qos-group 2\n  class C\n    set qos-group 4\n  class CNP\n",
			"policy-map type network-qos NQ\n", "policy-map type network-qos NQ\n  class type network-qos c-8q-nq1\n    pause pfc-cos 1\n  class type network-qos c-8q-nq2\n    pause pfc-cos 2\n  class type network-qos c-8q-nq4\n    pause pfc-cos 4\n").Replace(base),
			unexpressed: []string{"policy-map type qos IN"}},
		// The features renderers/nxos renders: each imports and
		// round-trips (nothing unexpressed, an empty diff).
		{name: "trust cos", running: strings.NewReplacer("match dscp 26", "match cos 3", "match dscp 48", "match cos 7").Replace(base),
			check: func(t *testing.T, im *vendors.Imported) {
				q := im.QoS
				if q.Trust != intent.TrustCoS || !slices.Equal(q.Class(3).CoS, []int{3}) || q.Class(3).DSCP != nil || !slices.Equal(q.Class(7).CoS, []int{7}) {
					t.Errorf("trust %q, class 3 %+v, class 7 %+v", q.Trust, q.Class(3), q.Class(7))
				}
				if d := q.Class(0); d == nil || !d.DefaultCoS || d.Default {
					t.Errorf("default class %+v, want the default CoS class", d)
				}
			}},
		{name: "match all", running: strings.Replace(base, "class-map type qos match-any RDMA", "class-map type qos match-all RDMA", 1),
			check: func(t *testing.T, im *vendors.Imported) {
				if !im.QoS.Class(3).MatchAll || im.QoS.Class(7).MatchAll {
					t.Errorf("class 3 match all %v, class 7 %v", im.QoS.Class(3).MatchAll, im.QoS.Class(7).MatchAll)
				}
			}},
		{name: "min bandwidth, shares below 100 %", running: strings.NewReplacer("    priority level 1", "    bandwidth percent 1", "bandwidth remaining percent 40", "bandwidth remaining percent 38").Replace(base),
			check: func(t *testing.T, im *vendors.Imported) {
				if s := im.QoS.Class(7).Scheduling; s != (intent.Scheduling{MinBandwidth: 1}) {
					t.Errorf("class 7 scheduling %+v", s)
				}
				if s := im.QoS.Class(0).Scheduling; s.Bandwidth != 38 {
					t.Errorf("class 0 scheduling %+v", s)
				}
			}},
		{name: "pfc mode off", running: strings.ReplaceAll(base, "priority-flow-control mode on", "priority-flow-control mode off"),
			check: func(t *testing.T, im *vendors.Imported) {
				if im.QoS.PFC.Mode != intent.PFCOff {
					t.Errorf("PFC mode %q", im.QoS.PFC.Mode)
				}
			}},
		{name: "pfc mode auto: no mode line", running: strings.ReplaceAll(base, "  priority-flow-control mode on\n", ""),
			check: func(t *testing.T, im *vendors.Imported) {
				if im.QoS.PFC.Mode != intent.PFCAuto {
					t.Errorf("PFC mode %q", im.QoS.PFC.Mode)
				}
			}},
		{name: "one port off, one on", running: strings.Replace(base, "priority-flow-control mode on", "priority-flow-control mode off", 1),
			check: func(t *testing.T, im *vendors.Imported) {
				if len(im.Ports) != 2 || (im.Ports[0].QoS == nil) == (im.Ports[1].QoS == nil) {
					t.Fatalf("ports %+v, want one with its own QoS", im.Ports)
				}
			}},
		{name: "send-tlv on one port", running: strings.Replace(base, "priority-flow-control mode on", "priority-flow-control mode on send-tlv", 1),
			unexpressed: []string{"priority-flow-control mode on send-tlv"}},
		{name: "send-tlv on every port: the option", running: strings.ReplaceAll(base, "priority-flow-control mode on", "priority-flow-control mode on send-tlv"),
			check: func(t *testing.T, im *vendors.Imported) {
				if im.Options[render.OptionPFCTLV] != render.PFCTLVSend {
					t.Errorf("options %v", im.Options)
				}
			}},
		{name: "no class-default: the option", running: strings.Replace(base, "  class class-default\n    set qos-group 0\n", "", 1),
			check: func(t *testing.T, im *vendors.Imported) {
				if im.Options[render.OptionClassDefault] != render.ClassDefaultImplicit || !im.QoS.Class(0).Default {
					t.Errorf("options %v, class 0 %+v", im.Options, im.QoS.Class(0))
				}
			}},
		{name: "no class-default but a class on qos-group 0", running: strings.NewReplacer("  class class-default\n    set qos-group 0\n", "", "    set qos-group 7\n", "    set qos-group 0\n").Replace(base),
			unexpressed: []string{"policy-map type qos IN", "priority level 1"}},
		{name: "DSCP and CoS in one policy", running: strings.Replace(base, "match dscp 48", "match cos 7", 1),
			unexpressed: []string{"class CNP", "priority level 1"}},
		{name: "CoS and DSCP in one class-map", running: strings.Replace(base, "  match dscp 26\n", "  match dscp 26\n  match cos 3\n", 1),
			// The class is lost, and with it what its queue and
			// network-qos class say.
			unexpressed: []string{"priority-flow-control watch-dog-interval on", "match cos 3", "class RDMA", "bandwidth remaining percent 60", "random-detect",
				"policy-map type network-qos NQ", "class type network-qos c-8q-nq3", "mtu 9216", "pause pfc-cos 3", "service-policy type network-qos NQ",
				"priority-flow-control mode on", "priority-flow-control watch-dog-interval on", "priority-flow-control mode on", "priority-flow-control watch-dog-interval on"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dev := &inventory.Device{Name: "leaf1", Vendor: Vendor, Platform: tc.plat}
			im, err := Import(dev, []byte(tc.running))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range im.Unexpressed {
				got = append(got, u.Text)
			}
			if len(got) != len(tc.unexpressed) {
				t.Fatalf("unexpressed %q, want %q (%+v)", got, tc.unexpressed, im.Unexpressed)
			}
			for i, w := range tc.unexpressed {
				if !strings.Contains(got[i], w) {
					t.Errorf("unexpressed[%d] = %q, want %q", i, got[i], w)
				}
			}
			if tc.check != nil {
				tc.check(t, im)
			}
			if im.QoS == nil {
				return
			}
			d := fixtureIntent(dev, im)
			if tc.plat == nil {
				d.Platform = nil
			}
			doc, err := render.Render(d)
			if tc.plat != nil && len(im.Unexpressed) > 0 {
				return // the platform refuses what the config has
			}
			if err != nil {
				t.Fatalf("the import does not render: %v", err)
			}
			if len(im.Unexpressed) == 0 {
				ch, err := Diff(dev.Name, []byte(tc.running), doc)
				if err != nil {
					t.Fatal(err)
				}
				if !ch.Empty() {
					t.Errorf("nothing unexpressed, but the diff is %q", ch.Commands)
				}
			}
		})
	}
}

// TestSavedRefuses: a file that is not an NX-OS show running-config is
// refused with a reason.
func TestSavedRefuses(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"empty", "\n\n", "empty"},
		{"config_db.json", `{"PORT": {}}`, "JSON"},
		{"EOS, 3-space indentation", "! Command: show running-config\ninterface Ethernet1\n   description x\n", "odd number of spaces"},
		{"nothing NX-OS", "sysname CE1\n#\n", "no NX-OS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Saved([]byte(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Saved: %v, want an error with %q", err, tc.want)
			}
		})
	}
}
