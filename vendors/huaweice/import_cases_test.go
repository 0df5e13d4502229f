package huaweice

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/huaweice"
	"github.com/lossless-net/lossless/vendors"
)

// ports is the interface sections of a running config: one per body,
// 100GE1/0/1, 100GE1/0/2 …
func ports(bodies ...string) string {
	var b strings.Builder
	for i, body := range bodies {
		fmt.Fprintf(&b, "#\ninterface 100GE1/0/%d\n%s", i+1, body)
	}
	return b.String()
}

const roceDomain = "#\ndiffserv domain roce\n ip-dscp-inbound 24 phb af3 green\n ip-dscp-inbound 26 phb af3 green\n ip-dscp-inbound 48 phb cs6 green\n"

const rocePort = " trust dscp\n trust upstream roce\n dcb pfc enable mode manual\n qos queue 3 wred ecn\n qos drr 0 to 5\n qos queue 0 drr weight 40\n qos queue 3 drr weight 60\n qos queue 3 ecn\n"

const roceB = "#\ndcb pfc\n priority 3\n#\ndcb pfc dscp-mapping enable slot 1\n#\nqos buffer headroom-pool size 4 mbytes slot 1\n" + roceDomain +
	"#\ndrop-profile ecn\n ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n"

// TestImportCases reads running configs the renderer's own output does
// not cover: what the intent can say must re-render to no change, and
// what it cannot must be listed.
func TestImportCases(t *testing.T) {
	for _, tc := range []struct {
		name    string
		family  string
		running string
		// unexpressed are substrings of the reasons, one per listed line;
		// none: the import must re-render to no change.
		unexpressed []string
		check       func(t *testing.T, imp *vendors.Imported)
	}{
		{"canonical with a named drop-profile", "B", roceB + ports(rocePort, rocePort), nil, func(t *testing.T, imp *vendors.Imported) {
			if n := imp.QoS.Class(3).Names.DropProfile; n != "ecn" {
				t.Errorf("drop-profile name %q, want ecn", n)
			}
			if imp.QoS.Names.Classifier != "roce" || !imp.QoS.Class(6).CNP || !imp.QoS.Class(0).Default || imp.Buffers.HeadroomPool != 4<<20 {
				t.Errorf("imported %+v / %+v", imp.QoS, imp.Buffers)
			}
		}},
		{"default drop-profile name left empty", "B", strings.ReplaceAll(strings.ReplaceAll(roceB+ports(rocePort), "drop-profile ecn\n", "drop-profile roce-ecn-3\n"), "wred ecn\n", "wred roce-ecn-3\n"), nil, func(t *testing.T, imp *vendors.Imported) {
			if n := imp.QoS.Class(3).Names.DropProfile; n != "" {
				t.Errorf("drop-profile name %q, want empty (the default)", n)
			}
		}},
		{"DRR over all queues", "B", roceB + ports(strings.Replace(rocePort, "qos drr 0 to 5", "qos drr 0 to 7", 1)), nil, nil},
		{"DRR below a queue no class names", "B", roceB + ports(strings.Replace(rocePort, "qos drr 0 to 5", "qos drr 0 to 3", 1)), nil, func(t *testing.T, imp *vendors.Imported) {
			if c := imp.QoS.Class(4); c == nil || c.Scheduling.Mode != intent.SchedulingStrict {
				t.Errorf("queue 4 is not a strict class: %+v", imp.QoS.Classes)
			}
		}},
		{"deadlock times", "B", "#\ndcb pfc deadlock-detect interval 100\n" + strings.Replace(roceB, " priority 3\n", " priority 3\n priority 3 deadlock-detect time 5\n priority 3 deadlock-recovery time 8\n", 1) + ports(rocePort), nil, func(t *testing.T, imp *vendors.Imported) {
			if w := imp.QoS.PFC.Watchdog; w == nil || w.Detection.Milliseconds() != 500 || w.Restoration.Milliseconds() != 800 || w.Polling.Milliseconds() != 100 {
				t.Errorf("watchdog %+v", w)
			}
		}},
		{"per-port QoS in its own domain", "B", roceB + "#\ndiffserv domain roce-2\n ip-dscp-inbound 26 phb af3 green\n" + ports(rocePort, rocePort, strings.ReplaceAll(rocePort, "upstream roce", "upstream roce-2")), nil, func(t *testing.T, imp *vendors.Imported) {
			if len(imp.Ports) != 3 || imp.Ports[2].QoS == nil || imp.Ports[2].QoS.Names.Classifier != "roce-2" || imp.Ports[0].QoS != nil {
				t.Errorf("ports %+v", imp.Ports)
			}
		}},
		{"family A", "A", "#\ndcb pfc deadlock-detect timer 200\n#\ndcb pfc\n priority 3\n#\nqos ecn enable\n" + roceDomain +
			"#\ndrop-profile roce-ecn-3\n ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n" + ports(strings.ReplaceAll(rocePort, "wred ecn", "wred roce-ecn-3")), nil, nil},
		{"full DSCP map", "B", fullMap() + ports(rocePort), nil, func(t *testing.T, imp *vendors.Imported) {
			if imp.Options[render.OptionDSCPMap] != render.DSCPMapFull {
				t.Errorf("options %v", imp.Options)
			}
		}},
		{"one domain, two port QoS", "B", roceB + ports(rocePort, strings.Replace(rocePort, "weight 60", "weight 50", 1)), []string{"with other port QoS", "with other port QoS", "with other port QoS", "with other port QoS", "with other port QoS", "with other port QoS", "with other port QoS", "with other port QoS"}, nil},
		{"deadlock times differ", "B", "#\ndcb pfc deadlock-detect interval 10\n" + strings.Replace(roceB, " priority 3\n", " priority 3 4\n priority 3 deadlock-detect time 5\n", 1) + ports(rocePort),
			[]string{"differ between PFC priorities"}, nil},
		{"family A ECN without the global switch", "A", "#\ndcb pfc\n priority 3\n" + roceDomain +
			"#\ndrop-profile ecn\n ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n" + ports(rocePort), []string{"without `qos ecn enable`"}, nil},
		{"family B PFC without the DSCP mapping", "B", strings.Replace(roceB, "#\ndcb pfc dscp-mapping enable slot 1\n", "", 1) + ports(rocePort), []string{"dscp-mapping"}, nil},
		{"WRED drop, colours, 802.1p, WFQ", "B", roceB + "#\ndrop-profile wred\n color green low-limit 80 high-limit 100 discard-percentage 10\n" +
			ports(rocePort+" qos queue 1 wred wred\n qos queue 2 wfq weight 5\n", strings.Replace(rocePort, "trust dscp", "trust 8021p inner", 1)),
			[]string{"which no imported port uses", "WRED drop thresholds per colour", "WFQ weight", "WRED drop without ECN", "802.1p trust", "does not trust DSCP"}, nil},
		{"more PFC priorities than family A takes", "A", "#\ndcb pfc\n priority 1 2 3 4\n#\nqos ecn enable\n" + roceDomain +
			"#\ndrop-profile ecn\n ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n" + ports(rocePort), []string{"cannot render the imported QoS"}, nil},
		{"a routed port without a domain", "B", roceB + ports(rocePort, " undo portswitch\n dcb pfc enable mode manual\n"), []string{"routed port"}, nil},
		// A Layer 2 port without a domain of its own classifies by the
		// outer 802.1p through the built-in domain (reference §2.4).
		{"a Layer 2 port through the built-in domain", "B", roceB + ports(rocePort, " dcb pfc enable mode manual\n"), nil, func(t *testing.T, imp *vendors.Imported) {
			q := imp.Ports[1].QoS
			if q == nil || q.Trust != intent.TrustCoS || q.Names.Classifier != "default" || len(q.Classes) != 8 || !q.Classes[3].Lossless || !q.Classes[0].DefaultCoS {
				t.Errorf("port 2 QoS %+v, want trust cos on domain default, 8 classes, 3 lossless", q)
			}
		}},
		{"802.1p map, shaping, PFC auto, strict queue 0 below DRR", "B", "#\ndcb pfc\n priority 3\n#\nqos buffer headroom-pool size 4 mbytes slot 1\n" +
			"#\ndiffserv domain cos\n 8021p-inbound 0 phb af1 green\n 8021p-inbound 5 phb cs6 green\n" +
			ports(" trust upstream cos\n lldp tlv-enable dcbx\n dcb pfc enable mode auto\n qos queue 1 shaping cir 2000000 kbps\n qos drr 1 to 5\n qos queue 1 drr weight 40\n qos queue 3 drr weight 60\n") +
			"#\nlldp enable\n", nil, func(t *testing.T, imp *vendors.Imported) {
			q := imp.QoS
			if q.Trust != intent.TrustCoS || q.PFC.Mode != intent.PFCAuto {
				t.Errorf("trust %q, pfc mode %q, want cos, auto", q.Trust, q.PFC.Mode)
			}
			c1, c0 := q.Class(1), q.Class(0)
			if c1 == nil || c1.Scheduling.Shape != 2*units.Gbps || !c1.DefaultCoS || c0 == nil || c0.Scheduling.Mode != intent.SchedulingStrict {
				t.Errorf("classes %+v, want queue 1 shaped at 2G taking the default CoS, queue 0 strict", q.Classes)
			}
		}},
		// V300R023 command pages "ecn" and "color": thresholds in percent
		// of the queue, WRED drop of yellow and red packets.
		{"ECN in percent of the queue", "B", strings.Replace(roceB, "ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10", "ecn low-limit 50 high-limit 80 discard-percentage 30", 1) + ports(rocePort, rocePort), nil, func(t *testing.T, imp *vendors.Imported) {
			if e := imp.QoS.Class(3).ECN; e == nil || e.Min.Percent != 50 || e.Max.Percent != 80 || e.MaxProbability != 30 || e.Min.Bytes != 0 {
				t.Errorf("ECN %+v, want 50%%–80%% at 30%%", e)
			}
		}},
		{"WRED drop of yellow and red", "B", roceB + " color red buffer-size low-limit 102400 high-limit 1048576 discard-percentage 40\n color yellow low-limit 60 high-limit 80 discard-percentage 20\n" + ports(rocePort), nil, func(t *testing.T, imp *vendors.Imported) {
			e := imp.QoS.Class(3).ECN
			if e == nil || e.Yellow == nil || e.Red == nil {
				t.Fatalf("ECN %+v, want yellow and red", e)
			}
			if *e.Yellow != (intent.ColorWRED{Min: intent.Threshold{Percent: 60}, Max: intent.Threshold{Percent: 80}, MaxProbability: 20, Drop: true}) ||
				*e.Red != (intent.ColorWRED{Min: intent.Threshold{Bytes: 102400}, Max: intent.Threshold{Bytes: 1048576}, MaxProbability: 40, Drop: true}) {
				t.Errorf("yellow %+v, red %+v", *e.Yellow, *e.Red)
			}
		}},
		{"WRED drop of green beside ECN", "B", roceB + " color green low-limit 80 high-limit 100 discard-percentage 10\n" + ports(rocePort), []string{"no WRED drop of green packets"}, nil},
		{"ECN low limit 0 %", "B", strings.Replace(roceB, "ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10", "ecn low-limit 0 high-limit 80 discard-percentage 30", 1) + ports(rocePort),
			[]string{"a low limit of 0 %", "has no ECN thresholds the intent can say", "has no ECN thresholds the intent can say"}, nil},
		{"two-rate queue shaping", "B", roceB + ports(rocePort+" qos queue 0 shaping cir 2000 kbps pir 3000 kbps\n"), []string{"one maximum rate"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := map[string]string{"A": "CE8850-HAM", "B": "CE8855"}[tc.family]
			dev := &inventory.Device{Name: "ce1", Vendor: Vendor, Platform: &platform.Platform{Model: model, Family: tc.family, PFCPriorities: []int{0, 1, 2, 3, 4, 5}}}
			running := []byte(tc.running + "#\nreturn\n")
			imp, err := Import(dev, running)
			if err != nil {
				t.Fatal(err)
			}
			if len(imp.Unexpressed) != len(tc.unexpressed) {
				t.Fatalf("unexpressed %d, want %d:\n%s", len(imp.Unexpressed), len(tc.unexpressed), unexpressedText(imp.Unexpressed))
			}
			for _, want := range tc.unexpressed {
				found := false
				for _, u := range imp.Unexpressed {
					found = found || strings.Contains(u.Reason, want)
				}
				if !found {
					t.Errorf("no unexpressed line says %q:\n%s", want, unexpressedText(imp.Unexpressed))
				}
			}
			if imp.QoS == nil {
				t.Fatal("nothing imported")
			}
			if tc.check != nil {
				tc.check(t, imp)
			}
			doc, err := render.Render(importedDevice(dev, imp))
			if err != nil {
				if len(tc.unexpressed) > 0 {
					return // listed: the imported intent does not render
				}
				t.Fatalf("render the import: %v", err)
			}
			ch, err := Diff("ce1", running, doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(tc.unexpressed) == 0 && len(ch.Commands) > 0 {
				t.Errorf("change after importing: %q\nrendered:\n%s", ch.Commands, doc.Text)
			}
		})
	}
}

// fullMap is roceB with all 64 DSCPs listed (huawei-ce.dscp-map = full):
// 24, 26 → af3, 48 → cs6, every other → be.
func fullMap() string {
	var b strings.Builder
	b.WriteString("#\ndcb pfc\n priority 3\n#\ndcb pfc dscp-mapping enable slot 1\n#\nqos buffer headroom-pool size 4 mbytes slot 1\n#\ndiffserv domain roce\n")
	for v := range 64 {
		phb := "be"
		switch v {
		case 24, 26:
			phb = "af3"
		case 48:
			phb = "cs6"
		}
		fmt.Fprintf(&b, " ip-dscp-inbound %d phb %s green\n", v, phb)
	}
	b.WriteString("#\ndrop-profile ecn\n ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n")
	return b.String()
}
