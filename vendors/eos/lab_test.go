package eos

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	_ "github.com/lossless-net/lossless/internal/lab/eos"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// running is the lab's full running config, as show running-config
// prints it.
func running(n *lab.Node) string { return string(n.Device().Running()) }

// outside is the running config without everything the change to
// desired may touch: what apply must leave byte-identical. The objects
// and lines lossless keeps are in it.
func outside(t *testing.T, text string, desired *config.Document) string {
	t.Helper()
	all, err := parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	o := own(desired, all)
	haveBy := clidiff.Index(o.have)
	var keep []*node
	for _, n := range all {
		h := haveBy[n.Key]
		switch {
		case isMapLine(n.Text):
		case h == nil:
			keep = append(keep, n)
		case isInterface(n.Text) || isProfile(n.Text):
			c := &node{Text: n.Text, Key: n.Key}
			for _, l := range n.Kids {
				hl := h.Child(l.Key)
				switch {
				case hl == nil:
					c.Kids = append(c.Kids, l)
				case scopedQueue(l.Text):
					q := &node{Text: l.Text, Key: l.Key}
					for _, k := range l.Kids {
						if hl.Child(k.Key) == nil {
							q.Kids = append(q.Kids, k)
						}
					}
					if len(q.Kids) > 0 {
						c.Kids = append(c.Kids, q)
					}
				}
			}
			if len(c.Kids) > 0 || isInterface(n.Text) {
				keep = append(keep, c)
			}
		}
	}
	return print(keep)
}

// inside is the scoped running config in the rendering's order, and what
// the change leaves (the rendering with the lines kept), both printed
// canonically; the map lines are left to the plan after the apply.
func inside(t *testing.T, text string, desired *config.Document) (got, want string) {
	t.Helper()
	all, err := parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	o := own(desired, all)
	return print(ordered(o.have, o.want)), print(o.want)
}

// TestApplyConverges: from a running config with stale thresholds, an
// extra lossless priority and DSCP map entry, another watchdog timeout
// and unrelated config, apply converges: inside the scope the device
// equals the rendering, outside it nothing changed, and the next plan is
// empty. Both layouts of reference/eos.md §1a and §1b, and the move from
// one to the other.
func TestApplyConverges(t *testing.T) {
	tests := []struct {
		name          string
		seed, desired string
	}{
		{"per-interface (§1a)", "", "canonical.cfg"},
		{"qos profile (§1b)", "", "profile.cfg"},
		{"per-interface to qos profile", "canonical.cfg", "profile.cfg"},
		{"qos profile to per-interface", "profile.cfg", "canonical.cfg"},
		// Approved renderings of examples/ai-fabric (golden/): more
		// ports, round-robin queues with bandwidth shares.
		{"ai-fabric leaf2", "", "../../../golden/ai-fabric/want/leaf2.cfg"},
		{"ai-fabric spine2", "", "../../../golden/ai-fabric/want/spine2.cfg"},
		{"ai-fabric spine2 from leaf2", "../../../golden/ai-fabric/want/leaf2.cfg", "../../../golden/ai-fabric/want/spine2.cfg"},
		// uc-tx-queue blocks and the explicit default DSCP map.
		{"uc-tx-queue", "", "../../../golden/eos-qos-profile/want/eos2.cfg"},
		{"tx-queue to uc-tx-queue", "../../../golden/eos-qos-profile/want/eos1.cfg", "../../../golden/eos-qos-profile/want/eos2.cfg"},
		// The intent's features beyond the core (golden/features-eos):
		// CoS trust and map, guaranteed bandwidth, shape, ECN at EOS's
		// default probability, PFC off; and the changes between them and
		// the canonical DSCP rendering (trust, map, PFC on → off).
		{"features per-interface", "", "../../../golden/features-eos/want/eos1.cfg"},
		{"features qos profile, PFC off", "", "../../../golden/features-eos/want/eos2.cfg"},
		{"canonical to features", "canonical.cfg", "../../../golden/features-eos/want/eos1.cfg"},
		{"features to canonical", "../../../golden/features-eos/want/eos1.cfg", "canonical.cfg"},
		{"PFC on to off", "../../../golden/features-eos/want/eos1.cfg", "../../../golden/features-eos/want/eos2.cfg"},
		{"PFC off to on", "../../../golden/features-eos/want/eos2.cfg", "../../../golden/features-eos/want/eos1.cfg"},
		// PFC on → off on the same ports (features-pfc-off.cfg is
		// features-eos eos1 with `no priority-flow-control`), and back.
		{"PFC on to off per interface", "../../../golden/features-eos/want/eos1.cfg", "features-pfc-off.cfg"},
		{"PFC off to on per interface", "features-pfc-off.cfg", "../../../golden/features-eos/want/eos1.cfg"},
		// The trust line from the qos profile to its interfaces
		// (eos.trust = "interface", corpus blog-roce-spine) and back.
		{"trust to the interfaces", "profile.cfg", "trust-interface.cfg"},
		{"trust back to the qos profile", "trust-interface.cfg", "profile.cfg"},
		// A qos profile's per-port watchdog lines (renderers/eos
		// portWatchdog): added with the profile, changed, removed.
		{"port watchdog added", "profile.cfg", "port-watchdog.cfg"},
		{"port watchdog changed", "port-watchdog.cfg", "port-watchdog2.cfg"},
		{"port watchdog removed", "port-watchdog.cfg", "profile.cfg"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			want := document(t, readFile(t, tc.desired))
			seed := LabSeed(want.Text)
			if tc.seed != "" {
				seed = LabSeed([]byte(readFile(t, tc.seed)))
			}
			n, tgt := vendortest.StartLab(t, Vendor, seed)
			before := running(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			if ch.Empty() {
				t.Fatal("plan is empty against a stale device")
			}
			if running(n) != before {
				t.Fatal("planning changed the device")
			}
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			if res.Err != nil || !res.Applied {
				t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
			}
			after := running(n)
			vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
			if got, want := inside(t, after, want); got != want {
				t.Errorf("scoped running config differs from the rendering:\n%s", textdiff.Unified("running", "rendering", got, want))
			}
			_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			vendortest.Converged(t, again)
			if strings.Contains(after, "lossless_") {
				t.Errorf("session name left in the config:\n%s", after)
			}
		})
	}
}

// TestApplyFaults: whatever fails during an apply, the device ends at
// exactly its pre-apply running config and the error names the device and
// the reason.
func TestApplyFaults(t *testing.T) {
	const beforeChange = linesBeforeChange
	tests := []struct {
		name   string
		fault  func(f *device.Faults, commands int)
		reason string
	}{
		{"connection dropped mid-apply", func(f *device.Faults, _ int) { f.CloseAfter = beforeChange + 3 }, "connection lost"},
		// After the change lines: end, the diffs review, the commit timer,
		// then the drop cuts the verification read; the timed commit is
		// running and must be rolled back over a new connection.
		{"connection dropped after the timed commit", func(f *device.Faults, commands int) { f.CloseAfter = beforeChange + commands + 8 }, "connection lost: errConnectionError; timed commit rolled back"},
		{"command rejected", func(f *device.Faults, _ int) { f.RejectPattern = "^random-detect" }, `rejected "random-detect`},
		{"commit failure", func(f *device.Faults, _ int) { f.FailCommit = true }, "% Cannot commit"},
		{"commit timer not confirmed", func(f *device.Faults, _ int) { f.ExpireCommitTimer = true }, "commit timer run out"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			want := document(t, readFile(t, "canonical.cfg"))
			n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
			before := running(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			n.Faults().Update(func(f *device.Faults) { tc.fault(f, len(ch.Commands)) })
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			n.Faults().Update(func(f *device.Faults) {
				f.CloseAfter, f.RejectPattern, f.FailCommit, f.ExpireCommitTimer = 0, "", false, false
			})
			vendortest.Failed(t, res, tc.reason, true)
			vendortest.Restored(t, before, running(n))
		})
	}
}

// TestDropAroundConfirm: a connection dropped just before the confirm
// leaves the timed commit armed, and the driver rolls it back over a new
// connection; dropped just after it, the change is confirmed and the
// apply succeeds (the new connection finds the device at the desired
// config and saves it).
func TestDropAroundConfirm(t *testing.T) {
	// The change lines, end, the diffs review, the commit timer and the
	// verification read; then the confirm and the read after it.
	const beforeChange, beforeConfirm = linesBeforeChange, 5
	for _, tc := range []struct {
		name    string
		after   int
		applied bool
	}{
		{"before the confirm", beforeConfirm, false},
		{"after the confirm", beforeConfirm + 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			want := document(t, readFile(t, "canonical.cfg"))
			n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
			var log bytes.Buffer
			tgt.Logger = slog.New(slog.NewTextHandler(&log, nil))
			before := running(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			n.Faults().Update(func(f *device.Faults) { f.CloseAfter = beforeChange + len(ch.Commands) + tc.after + 4 })
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 0 })
			t.Logf("result: %+v", res)
			got, wantIn := inside(t, running(n), want)
			if tc.applied {
				if res.Err != nil || !res.Applied || got != wantIn {
					t.Errorf("not applied: %+v", res)
				}
				if !strings.Contains(log.String(), "the connection dropped after the confirm") {
					t.Errorf("the connection did not drop after the confirm; log:\n%s", log.String())
				}
				return
			}
			if res.Err == nil || res.Applied || !res.RolledBack || !strings.Contains(res.Err.Error(), "connection lost") {
				t.Errorf("not rolled back: %+v", res)
			}
			if after := running(n); after != before {
				t.Errorf("device not back at its pre-apply config:\n%s", textdiff.Unified("before", "after", before, after))
			}
		})
	}
}

// TestNoOpChangeRefused: a change EOS finds nothing to do for (its
// session diff is empty) is aborted and reported, not committed: the
// plan must have read the device wrongly.
func TestNoOpChangeRefused(t *testing.T) {
	ctx := t.Context()
	want := document(t, readFile(t, "canonical.cfg"))
	n, tgt := vendortest.StartLab(t, Vendor, want.Text)
	before := running(n)
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	ch.Commands = []string{"qos map dscp 48 to traffic-class 6"}
	res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
	if res.Err == nil || res.Applied || !res.RolledBack || !strings.Contains(res.Err.Error(), "changes nothing") {
		t.Errorf("no-op change: %+v", res)
	}
	if running(n) != before {
		t.Error("the device changed")
	}
}

// TestConfirmTimeout: -confirm-timeout reaches the device as the commit
// timer, in hh:mm:ss.
func TestConfirmTimeout(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "00:02:00"}, {90 * time.Second, "00:01:30"}, {1500 * time.Millisecond, "00:00:02"}, {26 * time.Hour, "26:00:00"}, {1000 * time.Hour, "99:59:59"},
	} {
		if got := timer(tc.d); got != tc.want {
			t.Errorf("timer(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestHostKey: an unknown or changed host key is refused unless the
// insecure option is set.
func TestHostKey(t *testing.T) {
	vendortest.HostKey(t, Vendor, Dial, false)
}

// TestRunning: two reads of an unchanged device give the same bytes (the
// fingerprint of a saved plan), without the header or lines outside any
// scope, and diff the same as the full show running-config.
func TestRunning(t *testing.T) {
	ctx := t.Context()
	want := document(t, readFile(t, "canonical.cfg"))
	n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	again, err := drv.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := drv.Running(ctx)
	if string(first) != string(again) {
		t.Errorf("two reads differ:\n%s", textdiff.Unified("first", "second", string(first), string(again)))
	}
	for _, s := range []string{"! Command", "hostname", "description", "mtu", "uplink-to-core", "\nend"} {
		if strings.Contains(string(first), s) {
			t.Errorf("Running holds %q:\n%s", s, first)
		}
	}
	// What a port outside the scope applies, and what applies the MMU
	// profile, are read: they keep objects lossless would otherwise prune.
	for _, s := range []string{"\n   service-policy type qos input " + opsPolicy + "\n", "\npolicy-map type quality-of-service " + opsPolicy + "\n",
		"\nclass-map type qos match-any OPS_MGMT\n", "\n" + mmuPrefix + opsMMU + " apply\n"} {
		if !strings.Contains(string(first), s) {
			t.Errorf("Running lacks %q:\n%s", strings.TrimSpace(s), first)
		}
	}
	full, err := Diff("leaf1", n.Device().Running(), want)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(full.Commands, ch.Commands) || full.Diff != ch.Diff {
		t.Errorf("the QoS view diffs differently from the full running config:\n%q\n%q", full.Commands, ch.Commands)
	}
}

// TestEmptyChangeSendsNothing: an empty change is not pushed: no session
// is opened and the result is a success.
func TestEmptyChangeSendsNothing(t *testing.T) {
	ctx := t.Context()
	want := document(t, readFile(t, "canonical.cfg"))
	n, tgt := vendortest.StartLab(t, Vendor, want.Text)
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	if !ch.Empty() {
		t.Fatalf("plan not empty on a converged device: %q", ch.Commands)
	}
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 1 })
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || res.RolledBack {
		t.Errorf("empty apply: %+v", res)
	}
}

// TestDialRefusesGNMI: the driver speaks ssh only, and says so before
// connecting.
func TestDialRefusesGNMI(t *testing.T) {
	_, err := Dial(t.Context(), vendors.Target{Device: "leaf1", Vendor: Vendor, Address: "127.0.0.1", Transport: "gnmi"})
	if err == nil || !strings.Contains(err.Error(), "leaf1") || !strings.Contains(err.Error(), `"gnmi"`) {
		t.Errorf("got %v, want a refusal naming the device and the transport", err)
	}
}

// TestKeptOnLab: on a switch holding QoS objects lossless does not render
// (testdata/others.cfg), the default plan changes nothing and lists them;
// with unmanaged = "prune" the apply goes through in one configuration
// session (EOS refuses nothing: no object is deleted while something
// applies it), what ports outside the scope use is still there, nothing
// outside the scope changed, and the next plan is empty.
func TestKeptOnLab(t *testing.T) {
	ctx := t.Context()
	seed := readFile(t, "others.cfg")
	n, tgt := vendortest.StartLab(t, Vendor, []byte(seed))
	want := document(t, readFile(t, "canonical.cfg"))
	_, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, ch)
	if len(ch.Kept) == 0 {
		t.Fatal("nothing listed as kept")
	}
	want.Prune = true
	before := running(n)
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
	}
	after := running(n)
	vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
	for _, stays := range []string{"\nqos profile OPS\n", "\npolicy-map type quality-of-service OPS_EDGE\n", "\nclass-map type qos match-any OPS_MGMT\n",
		"\nplatform trident mmu queue profile OPS_BUFFERS\n", "\nplatform trident mmu queue profile OPS_BUFFERS apply\n", "\n   service-profile OPS\n"} {
		if !strings.Contains(after, stays) {
			t.Errorf("%q is gone:\n%s", strings.TrimSpace(stays), after)
		}
	}
	for _, gone := range []string{"OPS_SPARE", "OPS_MARK", "OPS_BULK", "OPS_UNUSED", "all off", "to tx-queue 5"} {
		if strings.Contains(after, gone) {
			t.Errorf("%q left:\n%s", gone, after)
		}
	}
	_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, again)
}
