package sonic

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	gnmitarget "github.com/lossless-net/lossless/internal/lab/gnmi"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// startGNMI starts a lab SONiC device reachable both over SSH (the node)
// and over gNMI (a lab target serving the same device, with the node's
// faults), and returns the node and the gNMI target of the inventory.
func startGNMI(t *testing.T, seed []byte) (*lab.Node, vendors.Target) {
	n, g, _ := startBoth(t, seed)
	return n, g
}

// startBoth is startGNMI that also returns the node's SSH target.
func startBoth(t *testing.T, seed []byte) (*lab.Node, vendors.Target, vendors.Target) {
	t.Helper()
	n, ssh := vendortest.StartLab(t, Vendor, seed)
	tg, err := gnmitarget.New(gnmitarget.WithCredentials(lab.DefaultUser, lab.DefaultPassword))
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Add("leaf1", n.Device(), n.Faults()); err != nil {
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
	p, _ := strconv.Atoi(port)
	g := ssh
	g.Port, g.Transport = p, "gnmi"
	g.Login = vendors.Login{User: lab.DefaultUser, Password: lab.DefaultPassword, TLSCA: ca}
	return n, g, ssh
}

// gnmiPlan dials through the registry (transport "gnmi" picks DialGNMI),
// reads and diffs.
func gnmiPlan(t *testing.T, tgt vendors.Target, desired *config.Document) (vendors.Driver, *vendors.Change) {
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
	ch, err := drv.Diff(run, desired)
	if err != nil {
		t.Fatal(err)
	}
	return drv, ch
}

// Over gNMI, plan reads the same bytes as over SSH (so a saved plan's
// fingerprint and the change are the same), shows the change as a table
// diff and as the gNMI operations, and apply converges in one Set: inside
// the scope CONFIG_DB equals the rendering, outside nothing changed, and
// the next plan, over either transport, is empty.
func TestGNMIConverges(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt, sshTgt := startBoth(t, LabSeed(want.Text))
	before := dbOf(n)

	drv, ch := gnmiPlan(t, tgt, want)
	_, sshCh := vendortest.Plan(t, ctx, Dial, sshTgt, want)
	sshRun, _ := func() ([]byte, error) { d, _ := vendortest.Plan(t, ctx, Dial, sshTgt, want); return d.Running(ctx) }()
	gRun, err := drv.Running(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(sshRun), string(gRun)); d != "" {
		t.Errorf("Running over gNMI differs from over SSH (-ssh +gnmi):\n%s", d)
	}
	if ch.Diff != sshCh.Diff || string(ch.Patch) != string(sshCh.Patch) {
		t.Errorf("the gNMI change differs from the SSH one")
	}
	if len(ch.Commands) == 0 {
		t.Fatal("no gNMI operations listed")
	}
	for _, l := range ch.Commands {
		if !strings.HasPrefix(l, "delete sonic-db:/CONFIG_DB/localhost/") && !strings.HasPrefix(l, "update sonic-db:/CONFIG_DB/localhost/") &&
			!strings.HasPrefix(l, "replace sonic-db:/CONFIG_DB/localhost/") {
			t.Errorf("operation line %q", l)
		}
	}
	t.Logf("gNMI operations:\n%s", strings.Join(ch.Commands, "\n"))
	if got := dbOf(n); !cmp.Equal(before, got) {
		t.Fatal("planning changed the device")
	}
	res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
	if res.Err != nil || !res.Applied {
		t.Fatalf("apply: %+v", res)
	}
	after := dbOf(n)
	if got, want := outside(t, after, want), outside(t, before, want); got != want {
		t.Errorf("config outside the scope changed (-before +after):\n%s", cmp.Diff(want, got))
	}
	if d := cmp.Diff(want.DB, newScope(want.DB, after, false).scoped()); d != "" {
		t.Errorf("scoped CONFIG_DB differs from the rendering (-want +got):\n%s", d)
	}
	if _, again := gnmiPlan(t, tgt, want); !again.Empty() || again.Diff != "" {
		t.Errorf("gNMI plan after apply is not empty:\n%s", again.Diff)
	}
	if _, again := vendortest.Plan(t, ctx, Dial, sshTgt, want); !again.Empty() {
		t.Errorf("SSH plan after the gNMI apply is not empty:\n%s", again.Diff)
	}
	// Idempotence: applying the empty change sends nothing.
	drv2, again := gnmiPlan(t, tgt, want)
	if res := drv2.Apply(ctx, again, vendors.ApplyOptions{}); res.Err != nil || res.Applied {
		t.Errorf("empty apply: %+v", res)
	}
	if got := dbOf(n); !cmp.Equal(after, got) {
		t.Error("an empty apply changed the device")
	}
}

// stripCheckpointer hides a device's Checkpointer, so the lab target does
// not advertise Commit Confirmed, and (with lie) changes CONFIG_DB after
// every accepted patch, so the verification fails.
type stripCheckpointer struct {
	device.Device
	db  device.ConfigDB
	lie bool
}

func (s *stripCheckpointer) DB() map[string]map[string]map[string]string { return s.db.DB() }

func (s *stripCheckpointer) Patch(p []byte) error {
	if !s.lie {
		return s.db.Patch(p)
	}
	s.lie = false // only the apply's Set, not the restore
	// A device that silently drops the last operation it was sent.
	var ops []json.RawMessage
	if err := json.Unmarshal(p, &ops); err != nil || len(ops) < 2 {
		return errors.New("no patch to lie about")
	}
	short, err := json.Marshal(ops[:len(ops)-1])
	if err != nil {
		return err
	}
	return s.db.Patch(short)
}

// Whatever fails during a gNMI apply, the device ends at exactly its
// pre-apply config and the error names the device and the reason: a
// refused Set changes nothing, a failed commit changes nothing, a commit
// timer that runs out before the confirm is rolled back by the target, and
// without Commit Confirmed a failed verification restores the previous
// values in one Set.
func TestGNMIApplyFaults(t *testing.T) {
	tests := []struct {
		name     string
		fault    func(f *device.Faults)
		wrap     bool // serve the device without Commit Confirmed, lying
		bad      bool // a rendering the YANG refuses
		reason   string
		rollback bool
	}{
		{name: "set rejected", bad: true, reason: "rejected \"gnmi Set\"", rollback: false},
		{name: "commit failure", fault: func(f *device.Faults) { f.FailCommit = true }, reason: "commit failed", rollback: true},
		{name: "commit timer ran out", fault: func(f *device.Faults) { f.ExpireCommitTimer = true }, reason: "verify", rollback: true},
		{name: "verification fails without commit confirmed", wrap: true, reason: "previous values restored", rollback: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			want := canonical(t)
			n, tgt := startGNMI(t, LabSeed(want.Text))
			if tc.wrap {
				tgt = serveWrapped(t, n, tgt)
			}
			before := string(n.Device().Running())
			desired := want
			if tc.bad {
				bad := *want
				bad.DB = cloneDB(want.DB)
				bad.DB["PFC_WD"]["Ethernet0"]["detection_time"] = "50"
				desired = &bad
			}
			drv, ch := gnmiPlan(t, tgt, desired)
			if tc.fault != nil {
				n.Faults().Update(tc.fault)
			}
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			n.Faults().Update(func(f *device.Faults) { f.FailCommit, f.ExpireCommitTimer = false, false })
			if res.Err == nil || res.Applied {
				t.Fatalf("apply succeeded despite the fault: %+v", res)
			}
			t.Logf("result: %v", res.Err)
			if res.RolledBack != tc.rollback {
				t.Errorf("rolled back = %v, want %v", res.RolledBack, tc.rollback)
			}
			if msg := res.Err.Error(); !strings.Contains(msg, "leaf1") || !strings.Contains(msg, tc.reason) {
				t.Errorf("error %q does not name the device and %q", msg, tc.reason)
			}
			if got := string(n.Device().Running()); got != before {
				t.Errorf("device not back at its pre-apply config (-before +after):\n%s", cmp.Diff(before, got))
			}
		})
	}
}

// serveWrapped serves n's device without Commit Confirmed and lying about
// its patches, on a target of its own.
func serveWrapped(t *testing.T, n *lab.Node, tgt vendors.Target) vendors.Target {
	t.Helper()
	tg, err := gnmitarget.New(gnmitarget.WithCredentials(lab.DefaultUser, lab.DefaultPassword))
	if err != nil {
		t.Fatal(err)
	}
	w := &stripCheckpointer{Device: n.Device(), db: n.Device().(device.ConfigDB), lie: true}
	if err := tg.Add("leaf1", w, n.Faults()); err != nil {
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
	tgt.Port, _ = strconv.Atoi(port)
	tgt.Login.TLSCA = ca
	return tgt
}
