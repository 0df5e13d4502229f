package nxos

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/lab"
	render "github.com/lossless-net/lossless/renderers/nxos"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// startModel is vendortest.StartLab on the switch model m.
func startModel(t *testing.T, m string, seed []byte) (*lab.Node, vendors.Target) {
	t.Helper()
	l, err := lab.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	n, err := l.Add(Vendor, vendortest.DeviceName, seed, lab.AddModel(m))
	if err != nil {
		t.Fatal(err)
	}
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := l.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	return n, vendors.Target{Device: vendortest.DeviceName, Vendor: Vendor, Address: "127.0.0.1", Port: n.Port(),
		Login: vendors.Login{User: lab.DefaultUser, Password: lab.DefaultPassword, KnownHosts: kh}}
}

// TestConvergeFromCorpus: for each fixture of the real-world corpus (a
// published running config, with everything outside QoS), the lab,
// seeded with it on the fixture's platform, takes the rendering of
// golden canonical's NX-OS device on the fixture's ports: the plan after
// the apply is empty, and everything outside lossless' scope is byte for
// byte what the seed had. (cisco-ai-blueprint is that rendering: its
// plan is empty from the start.)
func TestConvergeFromCorpus(t *testing.T) {
	golden := goldenDevices(t)["canonical/nxos1"]
	if golden == nil {
		t.Fatal("golden canonical has no device nxos1")
	}
	dirs, err := filepath.Glob(filepath.Join(realWorld, "*", "running.cfg"))
	if err != nil || len(dirs) < 6 {
		t.Fatalf("corpus: %v (%d fixtures)", err, len(dirs))
	}
	for _, p := range dirs {
		dir := filepath.Dir(p)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			seed, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			dev := fixtureDevice(t, dir)
			d := *golden
			d.Platform, d.Ports = dev.Platform, nil
			for _, ip := range dev.Ports {
				d.Ports = append(d.Ports, intent.Port{Name: ip.Name, QoS: golden.QoS, Speed: ip.Speed, Cable: ip.Cable})
			}
			want, err := render.Render(&d)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			ctx := t.Context()
			n, tgt := startModel(t, dev.Platform.Model, seed)
			before := body(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			if !ch.Empty() {
				res := drv.Apply(ctx, ch, vendors.ApplyOptions{})
				if res.Err != nil || !res.Applied {
					t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
				}
			}
			after := body(n)
			vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
			_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			vendortest.Converged(t, again)
			t.Logf("%d commands", len(ch.Commands))
		})
	}
}

// TestRemoveAsSpelled: a match dscp line the device shows as a range or
// by name is removed as it shows it, not by its canonical list (the
// cisco-tme-roce-enable fixture's `match dscp 24-31` stayed on the lab
// under `no match dscp 24,25,26,27,28,29,30,31`).
func TestRemoveAsSpelled(t *testing.T) {
	running := "class-map type qos match-any ROCEv2\n  match dscp 24-31\n  match dscp  cs6\n"
	want := document(t, "class-map type qos match-any ROCEv2\n  match dscp 24,26\n")
	ch, err := Diff("leaf1", []byte(running), want)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"no match dscp 24-31", "no match dscp cs6"} {
		if !slices.Contains(ch.Commands, c) {
			t.Errorf("commands lack %q: %q", c, ch.Commands)
		}
	}
}
