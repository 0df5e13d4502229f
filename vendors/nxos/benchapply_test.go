package nxos

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/lab"
	_ "github.com/lossless-net/lossless/internal/lab/nxos"
	"github.com/lossless-net/lossless/vendors"
)

// BenchmarkApply: one apply over SSH to a lab switch, from the plan's
// change to the verified and saved result, each turn switching the
// canonical policies between two ECN thresholds (the change a tuning
// rollout makes: one random-detect line). The lab answers at once, so
// the time is the driver's round trips and the lab's work.
func BenchmarkApply(b *testing.B) {
	ctx := b.Context()
	l, err := lab.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = l.Close() })
	base := canonicalText(b)
	n, err := l.Add(Vendor, "leaf1", []byte(base))
	if err != nil {
		b.Fatal(err)
	}
	kh := filepath.Join(b.TempDir(), "known_hosts")
	if err := l.WriteKnownHosts(kh); err != nil {
		b.Fatal(err)
	}
	tgt := vendors.Target{Device: "leaf1", Vendor: Vendor, Address: "127.0.0.1", Port: n.Port(),
		Login: vendors.Login{User: lab.DefaultUser, Password: lab.DefaultPassword, KnownHosts: kh}}
	const ecn = "minimum-threshold 150 kbytes maximum-threshold 3000 kbytes"
	if !strings.Contains(base, ecn) {
		b.Fatal("canonical.cfg lacks the ECN line the benchmark changes")
	}
	docs := []*config.Document{
		document(b, strings.Replace(base, ecn, "minimum-threshold 200 kbytes maximum-threshold 3000 kbytes", 1)),
		document(b, base),
	}
	drv, err := Dial(ctx, tgt)
	if err != nil {
		b.Fatal(err)
	}
	defer drv.Close()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		run, err := drv.Running(ctx)
		if err != nil {
			b.Fatal(err)
		}
		ch, err := drv.Diff(run, docs[i%2])
		if err != nil || ch.Empty() {
			b.Fatal(err, ch.Empty())
		}
		b.StartTimer()
		if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil {
			b.Fatal(res.Err)
		}
	}
}
