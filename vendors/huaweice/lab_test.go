package huaweice

import (
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	_ "github.com/lossless-net/lossless/internal/lab/huaweice"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// canonical is the rendering of reference/huawei-ce.md §1.1 (family B, the
// lab's default model CE8855) as a desired document.
func canonical(t testing.TB) *config.Document {
	return document(t, canonicalText(t))
}

// document is text as a desired CLI document.
func document(t testing.TB, text string) *config.Document {
	return vendortest.CLIDocument(t, Parse, text)
}

// body is the lab's full running config without its header.
func body(n *lab.Node) string { return string(Body(n.Device().Running())) }

// outside is the running config with everything in lossless' scope for
// desired removed: what apply must leave byte-identical.
func outside(t *testing.T, running string, desired *config.Document) string {
	t.Helper()
	famA := familyA(desired.Tree)
	have, err := parse([]byte(running), famA)
	if err != nil {
		t.Fatal(err)
	}
	want := canonTree(desired.Tree, famA)
	clidiff.PairInOrder(want, have)
	sc := newScope(want, have, desired.Prune)
	var keep []*node
	for _, n := range have {
		switch {
		case strings.HasPrefix(n.Text, "interface "):
			c := &node{Text: n.Text, Key: n.Key}
			mine := sc.ownsLines(n)
			for _, l := range n.Kids {
				if !slices.Contains(mine, l) {
					c.Kids = append(c.Kids, l)
				}
			}
			if len(c.Kids) > 0 {
				keep = append(keep, c)
			}
		case n.Text == "dcb pfc", len(n.Kids) == 0 && ownedGlobal(n.Text), sc.owned(n.Text), sc.gone[n.Text]:
		default:
			keep = append(keep, n)
		}
	}
	return print(keep)
}

// desiredCases are the renderings the convergence test drives the lab to:
// reference §1.1 (family B), the same with explicit PFC headroom
// (renderers/huaweice, family B dcb pfc buffer lines), and §1.3 (family A).
func desiredCases(t *testing.T) map[string]*config.Document {
	b := canonicalText(t)
	a, err := os.ReadFile("testdata/canonical-family-a.cfg")
	if err != nil {
		t.Fatal(err)
	}
	headroom := strings.ReplaceAll(b, " dcb pfc enable mode manual\n",
		" dcb pfc enable mode manual\n dcb pfc buffer 3 xoff dynamic 3 xon offset 10 kbytes\n dcb pfc buffer 3 hdrm 300 kbytes\n dcb pfc buffer 3 guaranteed 3200 bytes\n")
	return map[string]*config.Document{
		"family B":          document(t, b),
		"family B headroom": document(t, headroom),
		"family A":          document(t, string(a)),
	}
}

// TestApplyConverges: from a running config with stale thresholds, an
// extra class, another DRR split, a tuned deadlock timer and unrelated
// config, apply converges: inside the scope the device equals the
// rendering, outside it nothing changed, and the next plan is empty.
func TestApplyConverges(t *testing.T) {
	for name, want := range desiredCases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
			before := body(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			if ch.Empty() {
				t.Fatal("plan is empty against a stale device")
			}
			if before != body(n) {
				t.Fatal("planning changed the device")
			}
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			if res.Err != nil || !res.Applied {
				t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
			}
			after := body(n)
			vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
			_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			vendortest.Converged(t, again)
			famA := familyA(want.Tree)
			have, _ := parse([]byte(after), famA)
			wantTree := canonTree(want.Tree, famA)
			clidiff.PairInOrder(wantTree, have)
			scoped := newScope(wantTree, have, want.Prune).filter(have)
			if got := print(clidiff.Ordered(scoped, wantTree)); got != print(wantTree) {
				t.Errorf("scoped running config differs from the rendering:\n%s", textdiff.Unified("running", "rendering", got, print(wantTree)))
			}
			if strings.Contains(after, "ecn-4") {
				t.Errorf("stale class left in the config:\n%s", after)
			}
		})
	}
}

// TestApplyFaults: whatever fails during an apply, the device ends at
// exactly its pre-apply running config and the error names the device and
// the reason.
func TestApplyFaults(t *testing.T) {
	want := canonical(t)
	tests := []struct {
		name   string
		fault  func(f *device.Faults)
		reason string
	}{
		// The plan took 6 lines (scrapligo's prompt probes count; Running
		// reads the trial status first), the apply reads the config and
		// the trial status: the connection drops among the change lines.
		{"connection dropped mid-apply", func(f *device.Faults) { f.CloseAfter = 12 }, "configure: connection lost"},
		{"command rejected", func(f *device.Faults) { f.RejectPattern = "^ecn buffer-size" }, `rejected "ecn buffer-size`},
		{"commit failure", func(f *device.Faults) { f.FailCommit = true }, "Failed to commit"},
		{"commit timer not confirmed", func(f *device.Faults) { f.ExpireCommitTimer = true }, "commit timer expired"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
			before := body(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			n.Faults().Update(tc.fault)
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			vendortest.Failed(t, res, tc.reason, true)
			vendortest.Restored(t, before, body(n))
		})
	}
}

// TestDropAnywhere: wherever the connection drops during an apply (among
// the change lines, after commit trial, during the verification, after the
// confirm), the device ends either at the desired config, reported
// applied, or at exactly its pre-apply config, reported failed; a trial
// left by the dropped session is aborted from a new one.
func TestDropAnywhere(t *testing.T) {
	want := canonical(t)
	var aborted, confirmed bool
	for k := 1; ; k++ {
		if k > 200 {
			t.Fatal("apply never succeeded")
		}
		var logs strings.Builder
		n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
		tgt.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		before := body(n)
		ctx := t.Context()
		drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
		n.Faults().Update(func(f *device.Faults) { f.CloseAfter = k })
		res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
		n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 0 })
		_ = drv.Close()
		aborted = aborted || strings.Contains(logs.String(), "trial aborted")
		after := body(n)
		if res.Err == nil {
			if _, again := vendortest.Plan(t, ctx, Dial, tgt, want); !again.Empty() {
				t.Errorf("after %d lines: apply reported success but the device differs:\n%s", k, again.Diff)
			}
			if strings.Contains(logs.String(), "confirmed before the session dropped") {
				confirmed = true
				continue
			}
			break
		}
		// A drop before the first change line leaves nothing to roll back.
		if !strings.Contains(res.Err.Error(), "leaf1") || res.Applied || (!res.RolledBack && !strings.Contains(res.Err.Error(), ": read: ")) {
			t.Errorf("after %d lines: %+v", k, res)
		}
		if after != before {
			t.Errorf("after %d lines: failed apply (%v) left the device changed:\n%s", k, res.Err, textdiff.Unified("before", "after", before, after))
		}
	}
	if !aborted {
		t.Error("no drop left a trial to abort")
	}
	if !confirmed {
		t.Error("no drop came after the confirm")
	}
}

// TestHostKey: an unknown or changed host key is refused unless the
// insecure option is set.
func TestHostKey(t *testing.T) {
	vendortest.HostKey(t, Vendor, Dial, false)
}

// TestECNWeightConverges: against the lab, a drop-profile holding `ecn
// weight` converges in one apply and the next plan is empty, whichever
// order the device prints the weight and the ECN line in (the lab prints
// one; the driver is also handed the other, as a device printing it so
// would show it), both when the rendering lacks the weight (apply sends
// `undo ecn weight`, the ECN line stays) and when it has it beside changed
// thresholds (only the thresholds line is sent).
func TestECNWeightConverges(t *testing.T) {
	base := canonicalText(t)
	withWeight := strings.Replace(base, " "+canonicalECN+"\n", " "+canonicalECN+"\n ecn weight 10\n", 1)
	const stale = "ecn buffer-size low-limit 102400 high-limit 2048000 discard-percentage 5"
	cases := []struct {
		name          string
		seed, desired string
		send          []string
	}{
		{"weight removed", withWeight, base, []string{"drop-profile roce-ecn", "undo ecn weight", "quit"}},
		{"weight kept, thresholds changed", strings.Replace(withWeight, canonicalECN, stale, 1), withWeight, []string{"drop-profile roce-ecn", canonicalECN, "quit"}},
	}
	for _, tc := range cases {
		for order := range weightOrders(canonicalECN) {
			t.Run(tc.name+"/"+order, func(t *testing.T) {
				ctx := t.Context()
				desired := document(t, tc.desired)
				n, tgt := vendortest.StartLab(t, Vendor, []byte(tc.seed))
				drv, err := Dial(ctx, tgt)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = drv.Close() })
				running := string(n.Device().Running())
				shown := running
				if order == "weight first" {
					ecn := canonicalECN
					if !strings.Contains(running, " "+ecn+"\n ecn weight 10\n") {
						ecn = stale
					}
					shown = strings.Replace(running, " "+ecn+"\n ecn weight 10\n", " ecn weight 10\n "+ecn+"\n", 1)
					if shown == running {
						t.Fatalf("the lab does not print the weight after the ECN line:\n%s", running)
					}
				}
				ch, err := Diff("leaf1", []byte(shown), desired)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tc.send, ch.Commands); d != "" {
					t.Fatalf("commands (-want +got):\n%s", d)
				}
				if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
					t.Fatalf("apply: %+v", res)
				}
				_, again := vendortest.Plan(t, ctx, Dial, tgt, desired)
				vendortest.Converged(t, again)
			})
		}
	}
}

// TestKeptAgainstLab: on the lab, objects of the managed families that
// lossless does not render (another team's domain and drop-profile used by
// an unmanaged port, an operator's drop-profile and a PFC profile nothing
// uses) survive an apply and are listed with why; with unmanaged =
// "prune" the unused ones are deleted in the same apply and the used ones
// stay, the plan naming the port that uses them. Either way the next plan
// is empty.
func TestKeptAgainstLab(t *testing.T) {
	for _, prune := range []bool{false, true} {
		t.Run(fmt.Sprintf("prune=%v", prune), func(t *testing.T) {
			ctx := t.Context()
			want := canonical(t)
			want.Prune = prune
			// LabSeed holds another team's domain and drop-profile on an
			// unmanaged port; nothing uses the operator's profiles added.
			unusedObjects := "#\ndrop-profile ops\n color green buffer-size low-limit 1024000 high-limit 2048000 discard-percentage 20\n#\ndcb pfc storage\n priority 4\n"
			seed := strings.TrimSuffix(string(LabSeed(want.Text)), "#\nreturn\n") + unusedObjects + "#\nreturn\n"
			n, tgt := vendortest.StartLab(t, Vendor, []byte(seed))
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			var used, unused []string
			for _, k := range ch.Kept {
				if strings.Contains(k.Reason, "used outside") {
					used = append(used, k.Object)
				} else {
					unused = append(unused, k.Object)
				}
			}
			if d := cmp.Diff([]string{"diffserv domain storage", "drop-profile bulk"}, used); d != "" {
				t.Errorf("kept as used outside the scope (-want +got):\n%s", d)
			}
			wantUnused := []string{"dcb pfc storage", "drop-profile ops"}
			if prune {
				wantUnused = nil
			}
			if d := cmp.Diff(wantUnused, unused); d != "" {
				t.Errorf("kept as not rendered (-want +got):\n%s", d)
			}
			for _, k := range ch.Kept {
				if strings.Contains(k.Reason, "used outside") && !strings.Contains(k.Reason, "interface 100GE1/0/32 (") {
					t.Errorf("%s: reason %q does not name the port using it", k.Object, k.Reason)
				}
			}
			if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
				t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
			}
			after := body(n)
			for _, obj := range []string{"diffserv domain storage", "drop-profile bulk", "drop-profile ops", "dcb pfc storage"} {
				stays := !prune || obj == "diffserv domain storage" || obj == "drop-profile bulk"
				if has := strings.Contains(after, "\n"+obj+"\n"); has != stays {
					t.Errorf("after apply: %s present = %v, want %v", obj, has, stays)
				}
			}
			_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			vendortest.Converged(t, again)
		})
	}
}

// TestFeaturesConverge: on the lab, the renderings of golden
// features-huaweice (CoS trust and maps, a strict queue 0 below DRR,
// queue shaping, PFC auto with DCBX and PFC off, ECN at the default
// probability, WRED drop of yellow and red, ECN thresholds in percent of
// the queue) apply over the canonical config and the next plan is empty;
// going back to the canonical rendering converges too (the features
// removed: undo trust, undo qos queue Q shaping, mode manual, the
// drop-profile of the colours and percent thresholds).
func TestFeaturesConverge(t *testing.T) {
	base := canonical(t)
	for _, name := range []string{"ce-dscp", "ce-cos"} {
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile("../../golden/features-huaweice/want/" + name + ".cfg")
			if err != nil {
				t.Fatal(err)
			}
			want := document(t, string(text))
			ctx := t.Context()
			_, tgt := vendortest.StartLab(t, Vendor, base.Text)
			for i, d := range []*config.Document{want, base, want} {
				drv, ch := vendortest.Plan(t, ctx, Dial, tgt, d)
				if ch.Empty() {
					t.Fatalf("step %d: plan is empty", i)
				}
				if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
					t.Fatalf("step %d: apply: %+v\ncommands:\n%s", i, res, strings.Join(ch.Commands, "\n"))
				}
				_, again := vendortest.Plan(t, ctx, Dial, tgt, d)
				vendortest.Converged(t, again)
			}
		})
	}
}

// TestColoursConverge: on the lab, one drop-profile moving from byte ECN
// thresholds to percent with WRED drop of yellow and red, then losing
// yellow and changing red, then back to the canonical byte line alone:
// each applies and the next plan is empty (the ecn line replaced in
// place, undo color yellow|red).
func TestColoursConverge(t *testing.T) {
	base := canonicalText(t)
	old := " ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n"
	if !strings.Contains(base, old) {
		t.Fatal("canonical config has no byte ECN line")
	}
	both := strings.Replace(base, old, " ecn low-limit 50 high-limit 80 discard-percentage 30\n"+
		" color yellow low-limit 60 high-limit 80 discard-percentage 20\n color red buffer-size low-limit 102400 high-limit 1048576 discard-percentage 40\n", 1)
	red := strings.Replace(base, old, " ecn low-limit 50 high-limit 80 discard-percentage 30\n color red low-limit 40 high-limit 60 discard-percentage 40\n", 1)
	ctx := t.Context()
	_, tgt := vendortest.StartLab(t, Vendor, []byte(base))
	for i, text := range []string{both, red, base} {
		d := document(t, text)
		drv, ch := vendortest.Plan(t, ctx, Dial, tgt, d)
		if ch.Empty() {
			t.Fatalf("step %d: plan is empty", i)
		}
		if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
			t.Fatalf("step %d: apply: %+v\ncommands:\n%s", i, res, strings.Join(ch.Commands, "\n"))
		}
		_, again := vendortest.Plan(t, ctx, Dial, tgt, d)
		vendortest.Converged(t, again)
	}
}
