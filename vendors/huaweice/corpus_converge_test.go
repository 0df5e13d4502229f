package huaweice

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// startCorpusLab starts a lab with one device of the fixture's model,
// seeded with its running config unedited, and a target trusting it.
func startCorpusLab(t *testing.T, model string, seed []byte) (*lab.Node, vendors.Target) {
	t.Helper()
	l, err := lab.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	n, err := l.Add(Vendor, vendortest.DeviceName, seed, lab.AddModel(model))
	if err != nil {
		t.Fatalf("the lab refuses the fixture: %v", err)
	}
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := l.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	return n, vendors.Target{Device: vendortest.DeviceName, Vendor: Vendor, Address: "127.0.0.1", Port: n.Port(),
		Login: vendors.Login{User: lab.DefaultUser, Password: lab.DefaultPassword, KnownHosts: kh}}
}

// TestConvergeFromCorpus (issue 14): each fixture of the real-world
// corpus (testdata/realworld/huaweice, a whole running config with
// everything outside QoS) seeds the lab unedited, on its inventory's
// model; the rendering of golden huawei-families for that model's family
// (ce-a.cfg or ce-b.cfg) applies, the next plan is empty, and everything
// outside lossless' scope is byte for byte what the seed had. The
// rendering's two ports move to the first two 100GE ports the seed has
// bound to no ETS profile: an ETS profile is outside lossless' scope
// (the driver never touches it), and the device refuses WRED and DRR on
// a port that has one (reference/huawei-ce.md §1.1, §2.6), so Huawei's
// DCB example, whose 100GE1/0/1-2 run ETS, takes lossless on 1/0/3-4.
func TestConvergeFromCorpus(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(realWorldDir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 13 {
		t.Fatalf("%d fixtures in %s, want at least 13", len(dirs), realWorldDir)
	}
	renderings := map[string]string{}
	for fam, file := range map[string]string{"A": "ce-a.cfg", "B": "ce-b.cfg"} {
		text, err := os.ReadFile(filepath.Join("..", "..", "golden", "huawei-families", "want", file))
		if err != nil {
			t.Fatal(err)
		}
		renderings[fam] = string(text)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			seed, err := os.ReadFile(filepath.Join(dir, "running.cfg"))
			if err != nil {
				t.Fatal(err)
			}
			dev := fixtureDevice(t, dir)
			fam := "B"
			if dev.Platform.Family == "A" {
				fam = "A"
			}
			want := document(t, onPorts(renderings[fam], etsFree(string(seed))))
			ctx := t.Context()
			n, tgt := startCorpusLab(t, dev.Model, seed)
			before := body(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			if ch.Empty() {
				t.Fatal("plan is empty against a corpus seed")
			}
			if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
				t.Fatalf("apply: %+v\ncommands:\n%s", res, strings.Join(ch.Commands, "\n"))
			}
			after := body(n)
			vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
			_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			vendortest.Converged(t, again)
		})
	}
}

// etsFree returns the first two ports 100GE1/0/N whose interface
// section in the running config binds no ETS profile.
func etsFree(running string) [2]string {
	var free []string
	for i := 1; len(free) < 2; i++ {
		name := fmt.Sprintf("100GE1/0/%d", i)
		sec := ""
		if j := strings.Index(running, "\ninterface "+name+"\n"); j >= 0 {
			sec = running[j+1:]
			sec = sec[:strings.Index(sec, "\n#")]
		}
		if !strings.Contains(sec, " dcb ets enable ") {
			free = append(free, name)
		}
	}
	return [2]string{free[0], free[1]}
}

// onPorts moves a rendering on 100GE1/0/1-2 to the two ports.
func onPorts(text string, ports [2]string) string {
	text = strings.ReplaceAll(text, "interface 100GE1/0/1\n", "interface PORT-A\n")
	text = strings.ReplaceAll(text, "interface 100GE1/0/2\n", "interface PORT-B\n")
	text = strings.ReplaceAll(text, "interface PORT-A\n", "interface "+ports[0]+"\n")
	return strings.ReplaceAll(text, "interface PORT-B\n", "interface "+ports[1]+"\n")
}
