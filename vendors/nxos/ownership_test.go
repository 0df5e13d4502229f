package nxos

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/clidiff"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// seeded is the canonical config with extra lines: after the line that
// ends with each key of at, the value; then tail at the end.
func seeded(t *testing.T, at map[string]string, tail string) string {
	t.Helper()
	text := canonicalText(t)
	for after, add := range at {
		if !strings.Contains(text, after) {
			t.Fatalf("canonical config lacks %q", after)
		}
		text = strings.Replace(text, after, after+add, 1)
	}
	return text + tail
}

// pruned is d with the intent's unmanaged = "prune".
func pruned(d *config.Document) *config.Document {
	c := *d
	c.Prune = true
	return &c
}

// apply applies ch and fails the test unless the device took it.
func apply(t *testing.T, ctx context.Context, drv vendors.Driver, ch *vendors.Change) {
	t.Helper()
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
	}
}

func keptDiff(t *testing.T, want []vendors.Kept, ch *vendors.Change) {
	t.Helper()
	if d := cmp.Diff(want, ch.Kept); d != "" {
		t.Errorf("Kept (-want +got):\n%s", d)
	}
}

// TestKeepsUnrendered: objects of the families lossless manages that it
// does not render (a class-map and policies of other teams, an
// attachment added by hand on a managed port) stay and are listed; with
// unmanaged = "prune" they are deleted, in an order the switch accepts,
// except the policy a port outside the scope uses.
func TestKeepsUnrendered(t *testing.T) {
	ctx := t.Context()
	seed := seeded(t, map[string]string{
		"class-map type qos match-any CNP\n  match dscp 48\n": "class-map type qos match-all MGMT\n  match dscp 16\n",
		"interface Ethernet1/1\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION\n": "  service-policy type queuing output TEAM_Q\n",
	}, "policy-map type qos HAND\n  class MGMT\n    set qos-group 2\n"+
		"policy-map type queuing TEAM_Q\n  class type queuing c-out-8q-q1\n    bandwidth remaining percent 10\n"+
		"interface Ethernet1/9\n  service-policy type queuing output TEAM_Q\n")
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, []byte(seed))

	_, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	if !ch.Empty() {
		t.Errorf("objects lossless does not render are changed:\n%s", strings.Join(ch.Commands, "\n"))
	}
	keptDiff(t, []vendors.Kept{
		{Object: "class-map type qos match-all MGMT", Reason: "not rendered by lossless; used by policy-map type qos HAND (not attached)"},
		{Object: "interface Ethernet1/1: service-policy type queuing output TEAM_Q", Reason: "not rendered by lossless"},
		{Object: "policy-map type qos HAND", Reason: "not rendered by lossless"},
		{Object: "policy-map type queuing TEAM_Q", Reason: "not rendered by lossless; used by service-policy on Ethernet1/1, Ethernet1/9"},
	}, ch)

	// Pruned: the attachment on the managed port, then the policy nobody
	// uses, then its class-map go; TEAM_Q stays for Ethernet1/9.
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, pruned(want))
	wantCmds := []string{
		"interface Ethernet1/1", "no service-policy type queuing output TEAM_Q", "exit",
		"no policy-map type qos HAND",
		"no class-map type qos match-all MGMT",
	}
	if d := cmp.Diff(wantCmds, ch.Commands); d != "" {
		t.Errorf("pruning commands (-want +got):\n%s", d)
	}
	teamQ := []vendors.Kept{{Object: "policy-map type queuing TEAM_Q", Reason: "used by service-policy on Ethernet1/9"}}
	keptDiff(t, teamQ, ch)
	apply(t, ctx, drv, ch)
	_, again := vendortest.Plan(t, ctx, Dial, tgt, pruned(want))
	vendortest.Converged(t, again)
	keptDiff(t, teamQ, again)
	after := body(n)
	for _, gone := range []string{"MGMT", "HAND", "output TEAM_Q\n\ninterface Ethernet1/2"} {
		if strings.Contains(after, gone) {
			t.Errorf("%q is still on the device:\n%s", gone, after)
		}
	}
	if !strings.Contains(after, "interface Ethernet1/9\n  service-policy type queuing output TEAM_Q\n") {
		t.Errorf("the port outside the scope lost its policy:\n%s", after)
	}
}

// sharedSeed is the canonical config with a class BULK in lossless'
// classification policy that the rendering no longer has, whose
// class-map another team's policy OTHER, attached to Ethernet1/9 outside
// the scope, also uses: the measured case.
func sharedSeed(t *testing.T) string {
	return seeded(t, map[string]string{
		"class-map type qos match-any CNP\n  match dscp 48\n": "class-map type qos match-any BULK\n  match dscp 10\n",
		"  class CNP\n    set qos-group 7\n":                  "  class BULK\n    set qos-group 1\n",
	}, "policy-map type qos OTHER\n  class BULK\n    set qos-group 2\ninterface Ethernet1/9\n  service-policy type qos input OTHER\n")
}

// TestSharedClassMapStays: a class-map lossless' policy no longer wants
// but another policy still uses is not deleted (the switch would refuse
// it, and the plan could never apply): the class leaves lossless'
// policy, the class-map stays, and the plan says who uses it.
func TestSharedClassMapStays(t *testing.T) {
	t.Run("the switch refuses the deletion", func(t *testing.T) {
		_, tgt := vendortest.StartLab(t, Vendor, []byte(sharedSeed(t)))
		drv, err := Dial(t.Context(), tgt)
		if err != nil {
			t.Fatal(err)
		}
		defer drv.Close()
		old := []string{"policy-map type qos QOS_CLASSIFICATION", "no class BULK", "exit", "no class-map type qos match-any BULK"}
		err = drv.(*Driver).Session.Configure(t.Context(), old)
		var de *vendors.DeviceError
		if !errors.As(err, &de) || de.Line != old[3] || !strings.Contains(de.Reply, "is being referenced") {
			t.Errorf("deleting a class-map OTHER uses: got %v, want a rejection of %q", err, old[3])
		}
	})
	for _, prune := range []bool{false, true} {
		name := map[bool]string{false: "keep", true: "prune"}[prune]
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			want := canonical(t)
			if prune {
				want = pruned(want)
			}
			n, tgt := vendortest.StartLab(t, Vendor, []byte(sharedSeed(t)))
			before := body(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			if d := cmp.Diff([]string{"policy-map type qos QOS_CLASSIFICATION", "no class BULK"}, ch.Commands); d != "" {
				t.Errorf("commands (-want +got):\n%s", d)
			}
			other := "not rendered by lossless; used by service-policy on Ethernet1/9"
			if prune {
				other = "used by service-policy on Ethernet1/9"
			}
			keptDiff(t, []vendors.Kept{
				{Object: "class-map type qos match-any BULK", Reason: "used by policy-map type qos OTHER (service-policy on Ethernet1/9)"},
				{Object: "policy-map type qos OTHER", Reason: other},
			}, ch)
			apply(t, ctx, drv, ch)
			after := body(n)
			vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
			for _, stays := range []string{"class-map type qos match-any BULK\n  match dscp 10\n", "policy-map type qos OTHER\n  class BULK\n", "interface Ethernet1/9\n  service-policy type qos input OTHER\n"} {
				if !strings.Contains(after, stays) {
					t.Errorf("%q left the device:\n%s", stays, after)
				}
			}
			_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			vendortest.Converged(t, again)
			bulk := "not rendered by lossless; used by policy-map type qos OTHER (service-policy on Ethernet1/9)"
			if prune {
				bulk = "used by policy-map type qos OTHER (service-policy on Ethernet1/9)"
			}
			keptDiff(t, []vendors.Kept{
				{Object: "class-map type qos match-any BULK", Reason: bulk},
				{Object: "policy-map type qos OTHER", Reason: other},
			}, again)
		})
	}
}

// retyped is text with the class-map ROCEv2 of the other match type.
func retyped(text, from, to string) string {
	return strings.Replace(text, "class-map type qos "+from+" ROCEv2\n", "class-map type qos "+to+" ROCEv2\n", 1)
}

// TestMatchTypeChange: a change of match-all ↔ match-any alone is seen,
// and applied through a twin class-map, so that the lab (which refuses a
// match type changed in place, a class-map deleted while a policy uses
// it and a class without its class-map) takes every command, and the
// RoCE DSCPs are classified into qos-group 3 after every one of them.
func TestMatchTypeChange(t *testing.T) {
	for _, tc := range []struct{ from, to string }{{"match-all", "match-any"}, {"match-any", "match-all"}} {
		t.Run(tc.from+" to "+tc.to, func(t *testing.T) {
			ctx := t.Context()
			canon := canonicalText(t)
			seed := retyped(canon, "match-any", tc.from)
			want := document(t, retyped(canon, "match-any", tc.to))
			n, tgt := vendortest.StartLab(t, Vendor, []byte(seed))
			before := body(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			if ch.Empty() {
				t.Fatal("the match type change is not seen")
			}
			for _, l := range []string{"no class-map type qos " + tc.from + " ROCEv2", "class-map type qos " + tc.to + " ROCEv2"} {
				if !slices.Contains(ch.Commands, l) {
					t.Errorf("%q not sent:\n%s", l, strings.Join(ch.Commands, "\n"))
				}
			}
			if len(ch.Kept) > 0 {
				t.Errorf("kept: %+v", ch.Kept)
			}
			classifiedAtEveryStep(t, seed, ch.Commands)
			apply(t, ctx, drv, ch)
			after := body(n)
			vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
			if !strings.Contains(after, "class-map type qos "+tc.to+" ROCEv2\n  match dscp 24,26\n") || strings.Contains(after, twinSuffix) {
				t.Errorf("running config after the change:\n%s", after)
			}
			_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			vendortest.Converged(t, again)
		})
	}
	t.Run("used outside the scope", func(t *testing.T) {
		// Another team's attached policy uses ROCEv2: it cannot be
		// deleted, so its match type stays (and Kept says why) while its
		// DSCPs change in place.
		ctx := t.Context()
		canon := canonicalText(t)
		seed := strings.Replace(retyped(canon, "match-any", "match-all"), "match dscp 24,26", "match dscp 24", 1) +
			"policy-map type qos OTHER\n  class ROCEv2\n    set qos-group 3\ninterface Ethernet1/9\n  service-policy type qos input OTHER\n"
		want := canonical(t)
		_, tgt := vendortest.StartLab(t, Vendor, []byte(seed))
		drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
		wantCmds := []string{"class-map type qos match-all ROCEv2", "match dscp 24,26", "no match dscp 24"}
		if d := cmp.Diff(wantCmds, ch.Commands); d != "" {
			t.Errorf("commands (-want +got):\n%s", d)
		}
		roce := vendors.Kept{Object: "class-map type qos match-all ROCEv2", Reason: "the rendering's match-any needs it deleted and created anew " +
			"(NX-OS cannot change a class-map's match type in place), but policy-map type qos OTHER (service-policy on Ethernet1/9) uses it"}
		other := vendors.Kept{Object: "policy-map type qos OTHER", Reason: "not rendered by lossless; used by service-policy on Ethernet1/9"}
		keptDiff(t, []vendors.Kept{roce, other}, ch)
		apply(t, ctx, drv, ch)
		_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
		vendortest.Converged(t, again)
		keptDiff(t, []vendors.Kept{roce, other}, again)
	})
}

// classifiedAtEveryStep types cmds one by one into a lab switch seeded
// with seed and checks, after each, that the switch took it and that
// QOS_CLASSIFICATION still puts DSCP 24 and 26 in qos-group 3 through a
// class whose class-map matches them.
func classifiedAtEveryStep(t *testing.T, seed string, cmds []string) {
	t.Helper()
	n, _ := vendortest.StartLab(t, Vendor, []byte(seed))
	s := n.Device().NewSession(lab.DefaultUser, nil)
	defer s.Close()
	s.Handle("configure terminal")
	for i, c := range cmds {
		if out, _ := s.Handle(c); out != "" {
			t.Fatalf("command %d %q refused: %s", i+1, c, out)
		}
		nodes, err := Parse(n.Device().Running())
		if err != nil {
			t.Fatal(err)
		}
		top := canonTree(nodes)
		if !classifies(top, "QOS_CLASSIFICATION", "24,26", "3") {
			t.Fatalf("after command %d %q DSCP 24,26 is not classified into qos-group 3:\n%s", i+1, c, print(top))
		}
	}
}

// classifies reports whether policy has a class whose class-map matches
// dscps on one line and that sets qos-group group.
func classifies(top []*node, policy, dscps, group string) bool {
	by := clidiff.Index(top)
	p := by["policy-map type qos "+policy]
	for _, c := range p.Kids {
		name, ok := strings.CutPrefix(c.Text, "class ")
		if !ok || c.Child("set qos-group") == nil || c.Child("set qos-group").Text != "set qos-group "+group {
			continue
		}
		if by["class-map type qos "+name].Child("match dscp "+dscps) != nil {
			return true
		}
	}
	return false
}

// TestRetypeOrder: the commands of a match type change, in order: the
// twin is created and joins the policy before the class leaves, the
// class-map is deleted only once no policy uses it and comes back before
// its class does, and the twin goes last.
func TestRetypeOrder(t *testing.T) {
	want := canonicalText(t)
	got := commands(t, retyped(want, "match-any", "match-all"), want)
	wantCmds := []string{
		"class-map type qos match-any ROCEv2-lossless", "match dscp 24,26", "exit",
		"policy-map type qos QOS_CLASSIFICATION", "class ROCEv2-lossless", "set qos-group 3", "exit", "no class ROCEv2", "exit",
		"no class-map type qos match-all ROCEv2",
		"class-map type qos match-any ROCEv2", "match dscp 24,26", "exit",
		"policy-map type qos QOS_CLASSIFICATION", "class ROCEv2", "set qos-group 3", "exit", "no class ROCEv2-lossless", "exit",
		"no class-map type qos match-any ROCEv2-lossless",
	}
	if d := cmp.Diff(wantCmds, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// TestLabSeedPruned: on the lab's seed, unmanaged = "prune" deletes the
// class-map nobody uses (after the stale classes leave lossless'
// policy) and keeps what the uplink, outside the scope, uses.
func TestLabSeedPruned(t *testing.T) {
	want := canonical(t)
	ch, err := Diff("leaf1", LabSeed(want.Text), pruned(want))
	if err != nil {
		t.Fatal(err)
	}
	del := indexOf(t, ch.Commands, "no class-map type qos match-all MGMT")
	if leave := indexOf(t, ch.Commands, "no class BULK"); leave > del {
		t.Errorf("class-map deleted before the classes left:\n%s", strings.Join(ch.Commands, "\n"))
	}
	for _, c := range ch.Commands {
		if strings.Contains(c, "OTHER") || c == "no class-map type qos match-any BULK" {
			t.Errorf("%q deletes what the uplink uses", c)
		}
	}
	keptDiff(t, []vendors.Kept{
		{Object: "class-map type qos match-any BULK", Reason: "used by policy-map type qos OTHER (service-policy on Ethernet1/3)"},
		{Object: "policy-map type qos OTHER", Reason: "used by service-policy on Ethernet1/3"},
	}, ch)
}
