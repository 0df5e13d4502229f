package huaweice

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// TestDriftOperator (issue 14): on the lab, the canonical rendering is
// applied, then an operator changes the switch with its own CLI, the way
// reference/huawei-ce.md §3–§4 types it: system-view, a new ECN threshold
// in the drop-profile, PFC taken off one port, commit. The plan sees
// exactly that drift (its diff names both lines and nothing else, its
// commands put both back), apply reverts it, and the next plan is empty;
// what the operator did not touch stays byte for byte.
func TestDriftOperator(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("first apply: %+v", res)
	}
	_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, again)
	applied := body(n)

	const drifted = "ecn buffer-size low-limit 102400 high-limit 2048000 discard-percentage 20"
	s := n.Device().NewSession("operator", nil)
	for _, l := range []string{
		"system-view",
		"drop-profile roce-ecn",
		drifted,
		"quit",
		"interface 100GE1/0/2",
		"undo dcb pfc enable",
		"quit",
		"commit",
		"return",
	} {
		if out, _ := s.Handle(l); strings.Contains(out, "Error") {
			t.Fatalf("operator's %q refused:\n%s", l, out)
		}
	}
	s.Close()
	edited := body(n)
	if !strings.Contains(edited, " "+drifted+"\n") || strings.Count(edited, "dcb pfc enable mode manual") != strings.Count(applied, "dcb pfc enable mode manual")-1 {
		t.Fatalf("the operator's commit did not reach the running config:\n%s", edited)
	}

	drv, ch = vendortest.Plan(t, ctx, Dial, tgt, want)
	var minus, plus []string
	for _, l := range strings.Split(ch.Diff, "\n") {
		switch {
		case strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			minus = append(minus, strings.TrimSpace(l[1:]))
		case strings.HasPrefix(l, "+"):
			plus = append(plus, strings.TrimSpace(l[1:]))
		}
	}
	if d := cmp.Diff([]string{drifted}, minus); d != "" {
		t.Errorf("plan's removed lines (-want +got):\n%s\ndiff:\n%s", d, ch.Diff)
	}
	if d := cmp.Diff([]string{canonicalECN, "dcb pfc enable mode manual"}, plus); d != "" {
		t.Errorf("plan's added lines (-want +got):\n%s\ndiff:\n%s", d, ch.Diff)
	}
	wantCmds := []string{"drop-profile roce-ecn", canonicalECN, "quit", "interface 100GE1/0/2", "dcb pfc enable mode manual", "quit"}
	if d := cmp.Diff(wantCmds, ch.Commands); d != "" {
		t.Errorf("plan's commands (-want +got):\n%s", d)
	}
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("revert apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
	}
	if got := body(n); got != applied {
		t.Errorf("after the revert the device is not as applied:\n%s", cmp.Diff(applied, got))
	}
	_, again = vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, again)
}
