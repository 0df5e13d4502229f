package intent

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/inventory"
)

// watchdogIntent is a profile whose watchdog asks for detection_time, and
// action when not empty, on every device.
func watchdogIntent(detection, action string) []byte {
	wd := `detection_time = "` + detection + `"`
	if action != "" {
		wd += "\n      action = \"" + action + `"`
	}
	return []byte(`qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
  }
  pfc {
    watchdog {
      ` + wd + `
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
`)
}

// TestWatchdogFromCatalog checks the watchdog against the catalog entry of
// each device's platform as written in the inventory: the range named is
// the platform's, and devices whose platforms share limits (two SONiC
// models here) share one report.
func TestWatchdogFromCatalog(t *testing.T) {
	inv := []byte(`
device "s1" {
  vendor   = "sonic"
  platform = "SN4700"
  address  = "192.0.2.1"
}
device "s2" {
  vendor   = "sonic"
  platform = "SN5600"
  address  = "192.0.2.2"
}
device "e1" {
  vendor   = "eos"
  platform = "DCS-7060CX-32S"
  address  = "192.0.2.3"
}
device "n1" {
  vendor   = "nxos"
  platform = "N9K-C93600CD-GX"
  address  = "192.0.2.4"
}
device "ha" {
  vendor   = "huawei-ce"
  platform = "CE8850-HAM"
  address  = "192.0.2.5"
}
device "hb" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.6"
}
`)
	for _, tt := range []struct {
		name, detection, action string
		want                    []string // one entry per diagnostic: rule and a fragment of its detail
	}{
		{"inside every range", "1s", "drop", nil},
		{"above SONiC and family A", "6s", "", []string{
			"LL060 outside 100ms–5s, the range device \"s1\" (platform SN4700) accepts (reference/sonic.md §2.16",
			"LL060 outside 10ms–1.5s, the range device \"ha\" (platform CE8850-HAM) accepts (reference/huawei-ce.md §2.2 (family A",
		}},
		{"above every range but NX-OS's (no detection time)", "61s", "", []string{
			"LL060 outside 100ms–5s, the range device \"s1\"",
			"LL060 outside 10ms–1m0s, the range device \"e1\" (platform DCS-7060CX-32S)",
			"LL060 outside 10ms–1.5s, the range device \"ha\"",
			"LL060 outside 10ms–15s, the range device \"hb\" (platform CE8855)",
		}},
		{"forward only on SONiC and Huawei", "1s", "forward", []string{
			"LL061 action \"forward\" is not available on device \"e1\" (platform DCS-7060CX-32S) (eos); it supports drop, errdisable, notify-only.",
			"LL061 action \"forward\" is not available on device \"n1\" (platform N9K-C93600CD-GX) (nxos); it supports drop, notify-only.",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, diags := inventory.Parse(inv, "inventory.hcl", inventory.Vendors{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			fab, diags := LoadSources(map[string][]byte{"intent.hcl": watchdogIntent(tt.detection, tt.action)}, nil)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			_, diags = Resolve(fab, in)
			var got []string
			for _, d := range diags {
				if r := diag.RuleOf(d); r == RuleWatchdogRange || r == RuleWatchdogAction {
					got = append(got, string(r)+" "+d.Detail)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d watchdog diagnostics, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				rule, frag, _ := strings.Cut(w, " ")
				if !strings.HasPrefix(got[i], rule+" ") || !strings.Contains(got[i], frag) {
					t.Errorf("diagnostic %d:\n got %s\nwant %s … %s …", i, got[i], rule, frag)
				}
			}
		})
	}
}

// TestWatchdogWithoutLimits checks that a platform without watchdog facts
// (one built by hand, not from the catalog) leaves the watchdog unchecked.
func TestWatchdogWithoutLimits(t *testing.T) {
	p, _ := platform.Lookup("SN4700")
	bare := p.Clone()
	bare.Watchdog = nil
	in := &inventory.Inventory{Devices: []*inventory.Device{{Name: "s1", Vendor: "sonic", Model: "SN4700", Platform: bare, Address: "192.0.2.1", Transport: "ssh", Port: 22}}}
	fab, diags := LoadSources(map[string][]byte{"intent.hcl": watchdogIntent("6s", "errdisable")}, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if _, diags := Resolve(fab, in); len(diags) != 0 {
		t.Errorf("want no diagnostic, got %s", diags.Error())
	}
}
