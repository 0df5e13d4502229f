package nxos

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	_ "github.com/lossless-net/lossless/internal/lab/nxos"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// canonical is the rendering of reference/nxos.md §1 as a desired
// document.
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
	nodes, err := Parse([]byte(running))
	if err != nil {
		t.Fatal(err)
	}
	have := canonTree(nodes)
	sc := newScope(canonTree(desired.Tree), have, desired.Prune)
	var keep []*node
	for _, n := range have {
		switch {
		case sc.stanza(n):
			c := &node{Text: n.Text, Key: n.Key}
			for _, l := range n.Kids {
				if !sc.ownsLine(n, l) {
					c.Kids = append(c.Kids, l)
				}
			}
			if len(c.Kids) > 0 {
				keep = append(keep, c)
			}
		case !sc.ownsTop(n):
			keep = append(keep, n)
		}
	}
	return print(keep)
}

// staleWatchdog is a tuned PFC global the intent cannot say: apply puts
// it back to its default.
const staleWatchdog = "priority-flow-control watch-dog interval 200"

// TestApplyConverges: from a running config with stale thresholds, an
// extra class, an extra PFC global and unrelated config, apply converges:
// inside the scope the device equals the rendering, outside it nothing
// changed, and the next plan is empty.
func TestApplyConverges(t *testing.T) {
	ctx := t.Context()
	want := canonical(t)
	n, tgt := vendortest.StartLab(t, Vendor, append(LabSeed(want.Text), staleWatchdog+"\n"...))
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
		t.Fatalf("apply: %+v", res)
	}
	after := body(n)
	vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
	_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, again)
	// Inside the scope the device prints the rendering line for line.
	nodes, _ := Parse([]byte(after))
	have := canonTree(nodes)
	wantTree := canonTree(want.Tree)
	scoped := newScope(wantTree, have, false).filter(have)
	if got := print(clidiff.Ordered(scoped, wantTree)); got != print(wantTree) {
		t.Errorf("scoped running config differs from the rendering:\n%s", textdiff.Unified("running", "rendering", got, print(wantTree)))
	}
	if strings.Contains(after, "lossless-") {
		t.Errorf("checkpoint name left in the config:\n%s", after)
	}
}

// TestApplyFaults: whatever fails during an apply, the device ends at
// exactly its pre-apply running config and the error names the device and
// the reason.
func TestApplyFaults(t *testing.T) {
	tests := []struct {
		name     string
		fault    func(f *device.Faults)
		reason   string
		rollback bool // false: the failure came before any change
	}{
		// Lines the lab counts (each Enter, a prompt probe's too): on
		// open terminal width and length, the plan's show ipqos; then
		// the sessions and checkpoints listed, show ipqos, copy run
		// start, checkpoint, configure session, and the change lines
		// from the 15th on: the 20th is one of them.
		{"connection dropped mid-apply", func(f *device.Faults) { f.CloseAfter = 20 }, "connection lost", true},
		{"command rejected", func(f *device.Faults) { f.RejectPattern = "^random-detect" }, "rejected \"random-detect", true},
		// The lab fails saves and rollbacks alike: the save before the
		// change catches it with nothing changed.
		{"commit failure", func(f *device.Faults) { f.FailCommit = true }, "Configuration update aborted; nothing was changed", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			want := canonical(t)
			n, tgt := vendortest.StartLab(t, Vendor, LabSeed(want.Text))
			before := body(n)
			n.Faults().Update(tc.fault)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			vendortest.Failed(t, res, tc.reason, tc.rollback)
			vendortest.Restored(t, before, body(n))
		})
	}
}

// TestHostKey: an unknown or changed host key is refused unless the
// insecure option is set.
func TestHostKey(t *testing.T) {
	vendortest.HostKey(t, Vendor, Dial, true)
}

// TestDropAnywhere: wherever the connection drops during an apply (in
// the cleanup, after the save, the checkpoint, any change line, verify,
// commit, the check after it, the save), the driver reconnects and the
// device ends at exactly its pre-apply config with the apply reported
// failed, or at exactly the applied config with the apply reported a
// success; either way none of lossless' sessions or checkpoints remain.
func TestDropAnywhere(t *testing.T) {
	want := canonical(t)
	seed := LabSeed(want.Text)
	after := appliedConfig(t, seed, want)
	for k := 1; k <= applyLines; k++ {
		t.Run(fmt.Sprint("after ", k), func(t *testing.T) {
			ctx := t.Context()
			n, tgt := vendortest.StartLab(t, Vendor, seed)
			before := body(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			n.Faults().Update(func(f *device.Faults) { f.CloseAfter = k })
			res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
			n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 0 })
			t.Logf("result: applied=%v rolled back=%v err=%v", res.Applied, res.RolledBack, res.Err)
			switch got := body(n); {
			case res.Err == nil && got != after:
				t.Errorf("apply reported success but the device is not at the applied config:\n%s", textdiff.Unified("applied", "now", after, got))
			case res.Err != nil && got != before:
				t.Errorf("failed apply (%v) left the device changed:\n%s", res.Err, textdiff.Unified("before", "now", before, got))
			case res.Err != nil && !strings.Contains(res.Err.Error(), vendortest.DeviceName):
				t.Errorf("error does not name the device: %v", res.Err)
			}
			d := labDevice(t, n)
			if s, c := own(d.Sessions()), own(d.Checkpoints()); len(s)+len(c) > 0 {
				t.Errorf("lossless' sessions %q and checkpoints %q remain", s, c)
			}
		})
	}
}

// TestKeyAuth: a key file and an ssh-agent authenticate; no password is
// needed.
func TestKeyAuth(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.New(lab.WithAuthorizedKey(signer.PublicKey()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	n, err := l.Add(Vendor, "leaf1", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	kh := filepath.Join(dir, "known_hosts")
	if err := l.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	pemBlock, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(pemBlock), 0o600); err != nil {
		t.Fatal(err)
	}
	keyring := agent.NewKeyring()
	if err := keyring.Add(agent.AddedKey{PrivateKey: priv}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = agent.ServeAgent(keyring, c)
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close(); <-done })
	for name, login := range map[string]vendors.Login{
		"key file":  {User: lab.DefaultUser, KeyFile: keyFile, KnownHosts: kh},
		"ssh-agent": {User: lab.DefaultUser, AgentSocket: sock, KnownHosts: kh},
	} {
		t.Run(name, func(t *testing.T) {
			drv, err := Dial(t.Context(), vendors.Target{Device: "leaf1", Address: "127.0.0.1", Port: n.Port(), Login: login})
			if err != nil {
				t.Fatal(err)
			}
			defer drv.Close()
			if _, err := drv.Running(t.Context()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestErrorsAreRejections: the NX-OS errors scrapligo's stock platform
// misses (reference/nxos.md §4: range and in-use policy errors) are
// rejections naming the line, through this package's platform definition.
func TestErrorsAreRejections(t *testing.T) {
	want := canonical(t)
	_, tgt := vendortest.StartLab(t, Vendor, want.Text)
	drv, err := Dial(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	s := drv.(*Driver).Session
	for _, tc := range []struct{ lines []string }{
		{[]string{"policy-map type qos QOS_CLASSIFICATION", "class class-default", "set qos-group 9"}},
		{[]string{"no policy-map type queuing QOS_EGRESS_PORT"}},
	} {
		err := s.Configure(t.Context(), tc.lines)
		var de *vendors.DeviceError
		if !errors.As(err, &de) || de.Line != tc.lines[len(tc.lines)-1] || de.Device != "leaf1" {
			t.Errorf("%q: got %v, want a DeviceError for the last line", tc.lines, err)
		}
	}
}
