package eos

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// TestDriftOperator: on a switch lossless has converged, an operator
// logs in over SSH and, in `configure terminal` (reference/eos.md §1c),
// edits the ECN thresholds of a tx-queue on one port and removes the
// no-drop line of priority 3 on another, and saves. The plan sees
// exactly those two changes, apply reverts them, the device is back at
// the config lossless left it in, and the next plan is empty.
func TestDriftOperator(t *testing.T) {
	ctx := t.Context()
	want := document(t, readFile(t, "canonical.cfg"))
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("first apply: %+v", res)
	}
	_, ch = vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, ch)
	converged := running(n)

	op, err := dialSSH(ctx, tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = op.Close() }()
	if err := op.Configure(ctx, []string{
		"interface Ethernet1",
		"tx-queue 3",
		"random-detect ecn minimum-threshold 200 kbytes maximum-threshold 2000 kbytes max-mark-probability 100",
		"interface Ethernet2",
		"no priority-flow-control priority 3 no-drop",
	}); err != nil {
		t.Fatalf("operator's configure terminal: %v", err)
	}
	if _, err := op.Command(ctx, saveConfig); err != nil {
		t.Fatalf("operator's %s: %v", saveConfig, err)
	}
	// the edit lands as typed, and nowhere else: the first tx-queue 3
	// (Ethernet1's) has the new thresholds, Ethernet2 lost priority 3.
	const ecn = "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100\n"
	const pfc3 = "   priority-flow-control priority 3 no-drop\n"
	head, tail, _ := strings.Cut(converged, "\ninterface Ethernet2\n")
	wantDrift := strings.Replace(head, ecn, "random-detect ecn minimum-threshold 200 kbytes maximum-threshold 2000 kbytes max-mark-probability 100\n", 1) +
		"\ninterface Ethernet2\n" + strings.Replace(tail, pfc3, "", 1)
	if drifted := running(n); drifted != wantDrift {
		t.Fatalf("the operator's edit:\n%s", textdiff.Unified("want", "running", wantDrift, drifted))
	}

	drv, ch = vendortest.Plan(t, ctx, Dial, tgt, want)
	wantCommands := []string{
		"interface Ethernet1",
		"tx-queue 3",
		"random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100",
		"exit",
		"exit",
		"interface Ethernet2",
		"priority-flow-control priority 3 no-drop",
	}
	if got := strings.Join(ch.Commands, "\n"); got != strings.Join(wantCommands, "\n") {
		t.Errorf("plan after the drift:\n%s", textdiff.Unified("got", "want", got+"\n", strings.Join(wantCommands, "\n")+"\n"))
	}
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
	}
	if after := running(n); after != converged {
		t.Errorf("apply did not revert the drift:\n%s", textdiff.Unified("converged", "after", converged, after))
	}
	_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, again)
}
