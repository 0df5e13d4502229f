package eos

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openconfig/ygot/ygot"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	gnmitarget "github.com/lossless-net/lossless/internal/lab/gnmi"
	"github.com/lossless-net/lossless/internal/ocqos"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// startGNMI starts a lab EOS device reachable over SSH (the node) and
// over gNMI (a lab target serving the same device with the node's
// faults); it returns the node, the gNMI target and the SSH target.
func startGNMI(t *testing.T, seed []byte) (*lab.Node, vendors.Target, vendors.Target) {
	t.Helper()
	n, ssh := vendortest.StartLab(t, Vendor, seed)
	return n, serveGNMI(t, n, n.Device(), ssh), ssh
}

// serveGNMI serves dev (n's device, maybe wrapped) on a lab gNMI target
// of its own and returns the inventory target for it.
func serveGNMI(t *testing.T, n *lab.Node, dev device.Device, ssh vendors.Target) vendors.Target {
	t.Helper()
	tg, err := gnmitarget.New(gnmitarget.WithCredentials(lab.DefaultUser, lab.DefaultPassword))
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Add("leaf1", dev, n.Faults()); err != nil {
		t.Fatal(err)
	}
	if err := tg.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tg.Close() })
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, tg.CA().CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	_, port, _ := strings.Cut(tg.Addr(), ":")
	g := ssh
	g.Port, _ = strconv.Atoi(port)
	g.Transport = "gnmi"
	g.Login = vendors.Login{User: lab.DefaultUser, Password: lab.DefaultPassword, TLSCA: ca}
	return g
}

// gnmiPlan dials through the registry (transport gnmi picks DialGNMI),
// reads and diffs.
func gnmiPlan(t *testing.T, tgt vendors.Target, desired string) (vendors.Driver, *vendors.Change) {
	t.Helper()
	v, _ := vendors.Lookup(Vendor)
	drv, err := v.Dial(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = drv.Close() })
	if _, ok := drv.(*GNMIDriver); !ok {
		t.Fatalf("transport gnmi dialled a %T", drv)
	}
	run, err := drv.Running(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ch, err := drv.Diff(run, document(t, desired))
	if err != nil {
		t.Fatal(err)
	}
	return drv, ch
}

// The SSH convergence table, over gNMI: the same running bytes and the
// same commands as over SSH, one cli Set, a read-back through OpenConfig,
// and an empty plan afterwards over both transports.
func TestGNMIConverges(t *testing.T) {
	tests := []struct {
		name          string
		seed, desired string
	}{
		{"per-interface (§1a)", "", "canonical.cfg"},
		{"qos profile (§1b)", "", "profile.cfg"},
		{"per-interface to qos profile", "canonical.cfg", "profile.cfg"},
		{"qos profile to per-interface", "profile.cfg", "canonical.cfg"},
		{"ai-fabric leaf2", "", "../../../golden/ai-fabric/want/leaf2.cfg"},
		{"ai-fabric spine2 from leaf2", "../../../golden/ai-fabric/want/leaf2.cfg", "../../../golden/ai-fabric/want/spine2.cfg"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			text := readFile(t, tc.desired)
			want := document(t, text)
			seed := LabSeed(want.Text)
			if tc.seed != "" {
				seed = LabSeed([]byte(readFile(t, tc.seed)))
			}
			n, tgt, ssh := startGNMI(t, seed)
			before := running(n)
			drv, ch := gnmiPlan(t, tgt, text)
			_, sshCh := vendortest.Plan(t, ctx, Dial, ssh, want)
			if strings.Join(ch.Commands, "\n") != strings.Join(sshCh.Commands, "\n") || ch.Diff != sshCh.Diff {
				t.Fatalf("the gNMI change differs from the SSH one:\ngnmi:\n%s\nssh:\n%s", strings.Join(ch.Commands, "\n"), strings.Join(sshCh.Commands, "\n"))
			}
			if ch.Empty() {
				t.Fatal("plan is empty against a stale device")
			}
			var oc struct {
				Delete []string
				Update []struct{ Path string }
			}
			if err := json.Unmarshal(ch.OpenConfig, &oc); err != nil || len(oc.Delete)+len(oc.Update) == 0 {
				t.Errorf("OpenConfig view of the change: %v %s", err, ch.OpenConfig)
			}
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			if res.Err != nil || !res.Applied {
				t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
			}
			after := running(n)
			if got, want := outside(t, after, want), outside(t, before, want); got != want {
				t.Errorf("config outside the scope changed:\n%s", textdiff.Unified("before", "after", want, got))
			}
			if got, want := inside(t, after, want); got != want {
				t.Errorf("scoped running config differs from the rendering:\n%s", textdiff.Unified("running", "rendering", got, want))
			}
			if _, again := gnmiPlan(t, tgt, text); !again.Empty() {
				t.Errorf("gNMI plan after apply is not empty:\n%s", again.Diff)
			}
			if _, again := vendortest.Plan(t, ctx, Dial, ssh, want); !again.Empty() {
				t.Errorf("SSH plan after the gNMI apply is not empty:\n%s", again.Diff)
			}
			// Idempotence: the empty change sends nothing.
			drv2, again := gnmiPlan(t, tgt, text)
			if res := drv2.Apply(ctx, again, vendors.ApplyOptions{}); res.Err != nil || res.Applied || running(n) != after {
				t.Errorf("empty apply: %+v", res)
			}
		})
	}
}

// noCommitConfirmed serves an EOS device without its Checkpointer, so the
// target does not advertise Commit Confirmed.
// With lie, it silently drops the last line of the first session.
type noCommitConfirmed struct {
	device.Device
	cli device.CLIConfig
	lie *bool
}

func (d noCommitConfirmed) ConfigureAtomic(lines []string) error {
	if d.lie != nil && *d.lie && len(lines) > 1 {
		*d.lie = false
		return d.cli.ConfigureAtomic(lines[:len(lines)-1])
	}
	return d.cli.ConfigureAtomic(lines)
}

// The SSH fault table, over gNMI: whatever fails, the device ends at
// exactly its pre-apply running config and the error names the device and
// the reason.
func TestGNMIApplyFaults(t *testing.T) {
	tests := []struct {
		name   string
		fault  func(f *device.Faults)
		reason string
		rolled bool
	}{
		// A line EOS refuses (PFC priority out of range) aborts the
		// session: nothing changes.
		{"command rejected", nil, `rejected "gnmi Set (cli)"`, false},
		{"commit failure", func(f *device.Faults) { f.FailCommit = true }, "% Cannot commit", true},
		{"commit timer not confirmed", func(f *device.Faults) { f.ExpireCommitTimer = true }, "commit timer run out", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			text := readFile(t, "canonical.cfg")
			n, tgt, _ := startGNMI(t, LabSeed([]byte(text)))
			before := running(n)
			if tc.fault == nil {
				text = strings.Replace(text, "priority-flow-control priority 3 no-drop", "priority-flow-control priority 9 no-drop", 1)
			} else {
				n.Faults().Update(tc.fault)
			}
			drv, ch := gnmiPlan(t, tgt, text)
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			n.Faults().Update(func(f *device.Faults) { f.RejectPattern, f.FailCommit, f.ExpireCommitTimer = "", false, false })
			if res.Err == nil || res.Applied {
				t.Fatalf("apply succeeded despite the fault: %+v", res)
			}
			t.Logf("result: %v", res.Err)
			if res.RolledBack != tc.rolled {
				t.Errorf("rolled back = %v, want %v", res.RolledBack, tc.rolled)
			}
			if msg := res.Err.Error(); !strings.Contains(msg, "leaf1") || !strings.Contains(msg, tc.reason) {
				t.Errorf("error %q does not name the device and %q", msg, tc.reason)
			}
			if got := running(n); got != before {
				t.Errorf("device not back at its pre-apply config:\n%s", textdiff.Unified("before", "after", before, got))
			}
		})
	}
}

// Without Commit Confirmed the apply still converges, and -confirm-timeout
// reaches the target's commit when it is advertised (a timer that runs out
// at once rolls the change back: covered above).
func TestGNMIWithoutCommitConfirmed(t *testing.T) {
	text := readFile(t, "canonical.cfg")
	n, _, ssh := startGNMI(t, LabSeed([]byte(text)))
	tgt := serveGNMI(t, n, noCommitConfirmed{Device: n.Device(), cli: n.Device().(device.CLIConfig)}, ssh)
	drv, ch := gnmiPlan(t, tgt, text)
	if res := drv.Apply(t.Context(), ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("apply: %+v", res)
	}
	if _, again := gnmiPlan(t, tgt, text); !again.Empty() {
		t.Errorf("plan after apply is not empty:\n%s", again.Diff)
	}
}

// The OpenConfig read-back follows references, so it accepts any names
// but catches any difference in what they resolve to.
func TestCheckOpenConfig(t *testing.T) {
	want := document(t, readFile(t, "canonical.cfg"))
	tests := []struct {
		name   string
		change func(d *ocqos.Device)
		err    string // "" for accepted
	}{
		{"same view", func(*ocqos.Device) {}, ""},
		{"renamed profile", func(d *ocqos.Device) {
			q := d.GetQos()
			for name, p := range q.QueueManagementProfile {
				delete(q.QueueManagementProfile, name)
				p.Name = ygot.String("renamed")
				q.QueueManagementProfile["renamed"] = p
			}
			for _, i := range q.Interface {
				for _, oq := range i.GetOutput().Queue {
					if oq.QueueManagementProfile != nil {
						oq.QueueManagementProfile = ygot.String("renamed")
					}
				}
			}
		}, ""},
		{"threshold differs", func(d *ocqos.Device) {
			for _, p := range d.GetQos().QueueManagementProfile {
				p.GetWred().GetUniform().MaxThreshold = ygot.Uint64(1)
			}
		}, "queue 3"},
		{"DSCP in another group", func(d *ocqos.Device) {
			d.GetQos().GetClassifier("dscp-ipv4").GetTerm("tc3").GetConditions().GetIpv4().DscpSet = []uint8{24}
		}, "DSCP to output queue"},
		{"strict priority lost", func(d *ocqos.Device) {
			for _, sp := range d.GetQos().SchedulerPolicy {
				for _, s := range sp.Scheduler {
					s.Priority = ocqos.Scheduler_Priority_UNSET
				}
			}
		}, "queue 6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := OpenConfig(want.Tree, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := got.Validate(); err != nil {
				t.Fatalf("the view is not valid OpenConfig: %v", err)
			}
			tc.change(got)
			err = checkOpenConfig(got, want.Tree)
			if tc.err == "" && err != nil {
				t.Errorf("refused: %v", err)
			}
			if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("got %v, want an error about %q", err, tc.err)
			}
		})
	}
}

// Without Commit Confirmed, a verification that fails (the device dropped
// a line) is undone by the reverse change, in one more Set.
func TestGNMIReverseWithoutCommitConfirmed(t *testing.T) {
	text := readFile(t, "canonical.cfg")
	n, _, ssh := startGNMI(t, LabSeed([]byte(text)))
	before := running(n)
	lie := true
	tgt := serveGNMI(t, n, noCommitConfirmed{Device: n.Device(), cli: n.Device().(device.CLIConfig), lie: &lie}, ssh)
	drv, ch := gnmiPlan(t, tgt, text)
	res := drv.Apply(t.Context(), ch, vendors.ApplyOptions{})
	if res.Err == nil || res.Applied || !res.RolledBack || !strings.Contains(res.Err.Error(), "reverse change sent") {
		t.Fatalf("apply: %+v", res)
	}
	if got := running(n); got != before {
		t.Errorf("device not back at its pre-apply config:\n%s", textdiff.Unified("before", "after", before, got))
	}
}
