package sonic

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// TestDriftFromVendorTools: on a switch lossless has converged, an
// operator changes the ECN thresholds with ecnconfig, enables a PFC
// priority with `pfc config priority on` and restarts the watchdog on a
// port with pfcwd, then does the same through config/main.py's wrappers:
// `config ecn -profile … -gdrop` (the drop probability), `config pfcwd
// interval` (the watchdog's polling interval) and `config interface pfc
// priority … on` (a PFC priority on the other port), over SSH as they
// would on the box (the tools write CONFIG_DB as sonic-utilities'
// scripts/ecnconfig, pfc/main.py and pfcwd/main.py do). The plan sees
// each change, apply reverts it, and the next plan is empty.
func TestDriftFromVendorTools(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("first apply: %+v", res)
	}
	_, ch = vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, ch)

	op, err := dialSSH(ctx, tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	for _, line := range []string{
		"sudo ecnconfig -p ROCE_LOSSLESS -gmin 204800 -gmax 4096000",
		"pfc config priority on Ethernet0 4",
		"sudo pfcwd start --action alert --restoration-time 400 Ethernet4 400",
		"sudo config ecn -profile ROCE_LOSSLESS -gdrop 9",
		"sudo config pfcwd interval 150",
		"sudo config interface pfc priority Ethernet4 4 on",
	} {
		if out, err := op.Command(ctx, line); err != nil || out != "" {
			t.Fatalf("%s: %q %v", line, out, err)
		}
	}
	db := dbOf(n)
	if w := db["WRED_PROFILE"]["ROCE_LOSSLESS"]; w["green_min_threshold"] != "204800" || w["green_max_threshold"] != "4096000" {
		t.Fatalf("ecnconfig did not land: %v", w)
	}
	if v := db["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"]; v != "3,4" {
		t.Fatalf("pfc config priority did not land: pfc_enable %q", v)
	}
	if wd := db["PFC_WD"]["Ethernet4"]; wd["action"] != "alert" || wd["detection_time"] != "400" {
		t.Fatalf("pfcwd start did not land: %v", wd)
	}
	if v := db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_drop_probability"]; v != "9" {
		t.Fatalf("config ecn did not land: green_drop_probability %q", v)
	}
	if v := db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"]; v != "150" {
		t.Fatalf("config pfcwd interval did not land: POLL_INTERVAL %q", v)
	}
	if v := db["PORT_QOS_MAP"]["Ethernet4"]["pfc_enable"]; v != "3,4" {
		t.Fatalf("config interface pfc priority did not land: pfc_enable %q", v)
	}

	drv, ch = vendortest.Plan(t, ctx, Dial, tgt, want)
	if ch.Empty() {
		t.Fatal("plan is empty after the operator's drift")
	}
	for _, path := range []string{
		"/WRED_PROFILE/ROCE_LOSSLESS/green_min_threshold",
		"/WRED_PROFILE/ROCE_LOSSLESS/green_max_threshold",
		"/PORT_QOS_MAP/Ethernet0/pfc_enable",
		"/PFC_WD/Ethernet4/action",
		"/PFC_WD/Ethernet4/detection_time",
		"/PFC_WD/Ethernet4/restoration_time",
		"/WRED_PROFILE/ROCE_LOSSLESS/green_drop_probability",
		"/PFC_WD/GLOBAL/POLL_INTERVAL",
		"/PORT_QOS_MAP/Ethernet4/pfc_enable",
	} {
		if !strings.Contains(string(ch.Patch), `"`+path+`"`) {
			t.Errorf("patch does not revert %s:\n%s", path, ch.Patch)
		}
	}
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("apply: %+v", res)
	}
	db = dbOf(n)
	for _, c := range []struct{ tn, k, f, v string }{
		{"WRED_PROFILE", "ROCE_LOSSLESS", "green_min_threshold", want.DB["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"]},
		{"WRED_PROFILE", "ROCE_LOSSLESS", "green_max_threshold", want.DB["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_max_threshold"]},
		{"PORT_QOS_MAP", "Ethernet0", "pfc_enable", want.DB["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"]},
		{"PFC_WD", "Ethernet4", "action", want.DB["PFC_WD"]["Ethernet4"]["action"]},
		{"PFC_WD", "Ethernet4", "detection_time", want.DB["PFC_WD"]["Ethernet4"]["detection_time"]},
		{"WRED_PROFILE", "ROCE_LOSSLESS", "green_drop_probability", want.DB["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_drop_probability"]},
		{"PFC_WD", "GLOBAL", "POLL_INTERVAL", want.DB["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"]},
		{"PORT_QOS_MAP", "Ethernet4", "pfc_enable", want.DB["PORT_QOS_MAP"]["Ethernet4"]["pfc_enable"]},
	} {
		if got := db[c.tn][c.k][c.f]; got != c.v {
			t.Errorf("after apply %s|%s %s = %q, want %q", c.tn, c.k, c.f, got, c.v)
		}
	}
	_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, again)
}
