package nxos

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// TestDriftOperator: on the lab at the rendering, an operator edits the
// switch in configure terminal, as reference/nxos.md §2 types it (the
// ECN threshold of the RoCE queue and a port's PFC line); plan sees
// exactly that drift, apply reverts it, and the next plan is empty.
func TestDriftOperator(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, want.Text)
	_, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, ch)
	before := body(n)

	// priority-flow-control mode auto is the default: the line leaves
	// the running config (nxos.md §2).
	s := n.Device().NewSession("operator", nil)
	defer s.Close()
	for _, l := range []string{
		"configure terminal",
		"policy-map type queuing QOS_EGRESS_PORT",
		"class type queuing c-out-8q-q3",
		"random-detect minimum-threshold 200 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn",
		"interface Ethernet1/2",
		"priority-flow-control mode auto",
		"end",
	} {
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter configuration") {
			t.Fatalf("%s: %s", l, out)
		}
	}
	if body(n) == before {
		t.Fatal("the operator's edit changed nothing")
	}

	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	wantCmds := []string{
		"policy-map type queuing QOS_EGRESS_PORT",
		"class type queuing c-out-8q-q3",
		"random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn",
		"exit", "exit",
		"interface Ethernet1/2",
		"priority-flow-control mode on",
	}
	if diff := cmp.Diff(wantCmds, ch.Commands); diff != "" {
		t.Errorf("plan of the drift (-want +got):\n%s", diff)
	}
	var changed []string
	for _, l := range strings.Split(ch.Diff, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed = append(changed, l)
		}
	}
	wantDiff := []string{
		"-    random-detect minimum-threshold 200 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn",
		"+    random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn",
		"+  priority-flow-control mode on",
	}
	if diff := cmp.Diff(wantDiff, changed); diff != "" {
		t.Errorf("diff of the drift (-want +got):\n%s", diff)
	}
	res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
	if res.Err != nil || !res.Applied {
		t.Fatalf("apply: %+v", res)
	}
	if got := body(n); got != before {
		t.Errorf("apply did not bring the switch back:\n%s", textdiff.Unified("before", "after", before, got))
	}
	_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, again)
}
