package eos

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// onPorts is the rendering text moved onto ports: its interface stanzas,
// in order, renamed to ports' names; those beyond len(ports) dropped.
func onPorts(t *testing.T, text string, ports []string) string {
	t.Helper()
	nodes, err := parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var out []*node
	i := 0
	for _, n := range nodes {
		if isInterface(n.Text) {
			if i == len(ports) {
				continue
			}
			n = &node{Text: "interface " + ports[i], Key: "interface " + ports[i], Kids: n.Kids}
			i++
		}
		out = append(out, n)
	}
	return print(out)
}

// ethernets are the Ethernet ports a running config has a stanza for, in
// its order.
func ethernets(text string) []string {
	var ports []string
	for _, l := range strings.Split(text, "\n") {
		if p, ok := strings.CutPrefix(l, "interface "); ok && strings.HasPrefix(p, "Ethernet") {
			ports = append(ports, p)
		}
	}
	return ports
}

// TestConvergeFromCorpus: seeded with each real running config of
// testdata/realworld/eos (everything outside QoS included, and the
// operator's own QoS), the lab converges to the golden renderings of an
// EOS device (examples/ai-fabric leaf2, per-interface with round-robin
// shares; eos-qos-profile eos1, a qos profile), moved onto the fixture's
// ports: the apply goes through, the next plan is empty, and everything
// outside lossless' scope is byte for byte what the seed had.
func TestConvergeFromCorpus(t *testing.T) {
	files, err := filepath.Glob("../../testdata/realworld/eos/*/running.cfg")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixture")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seed := string(b)
		for _, g := range []string{"../../../golden/ai-fabric/want/leaf2.cfg", "../../../golden/eos-qos-profile/want/eos1.cfg"} {
			t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(filepath.Dir(filepath.Dir(g))), func(t *testing.T) {
				ctx := t.Context()
				want := document(t, onPorts(t, readFile(t, g), ethernets(seed)))
				n, tgt := vendortest.StartLab(t, Vendor, []byte(seed))
				before := running(n)
				drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
				if ch.Empty() {
					t.Fatal("plan is empty against a seed that is not the rendering")
				}
				t.Logf("%d commands, %d kept", len(ch.Commands), len(ch.Kept))
				if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
					t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
				}
				after := running(n)
				vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
				if got, want := inside(t, after, want); got != want {
					t.Errorf("scoped running config differs from the rendering:\n%s", textdiff.Unified("running", "rendering", got, want))
				}
				_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
				vendortest.Converged(t, again)
			})
		}
	}
}
