package plan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	_ "github.com/lossless-net/lossless/internal/lab/nxos"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/plan/plantest"
	nxosdrv "github.com/lossless-net/lossless/vendors/nxos"
)

// BenchmarkPlanLab plans n NX-OS lab devices (seeded with a stale config,
// 5 ms of latency before every reply) at -parallelism 100; the goal is
// that 500 devices take at most 1.5 × (500/100) × one device's time. The
// lab starts before the timed loop; both sizes are timed the same way.
// Besides the wall time it reports the CPU the whole process (lab SSH
// servers, emulated CLIs and clients together) spends per device planned,
// cpu-ms/device: on 2 cores, 500 devices cannot take less than
// 500 × cpu-ms/device / 2.
//
//	go test -run '^$' -bench PlanLab -benchtime 2x ./internal/plan
func BenchmarkPlanLab(b *testing.B) {
	for _, n := range []int{1, 500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			devs := labFleet(b, n, 5*time.Millisecond)
			cpu0, cpuOK := processCPU()
			for b.Loop() {
				p, err := plan.Make(b.Context(), devs, plan.Options{Parallelism: 100})
				if err != nil {
					b.Fatal(err)
				}
				if c := p.Counts(); c.Change != n {
					b.Fatalf("%s; first error: %v", c, firstErr(p))
				}
			}
			if cpu1, ok := processCPU(); ok && cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N*n), "cpu-ms/device")
			}
		})
	}
}

func firstErr(p *plan.Plan) string {
	for _, d := range p.Devices {
		if d.Error != "" {
			return d.Error
		}
	}
	return ""
}

// labFleet starts n NX-OS lab devices and loads the NX-OS intent of
// cmd/lossless/testdata/plan for them.
func labFleet(b *testing.B, n int, latency time.Duration) []plan.Device {
	b.Helper()
	l, err := lab.New(lab.WithCredentials("ops", "bench-pw"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = l.Close() })
	canon, err := os.ReadFile("../../vendors/nxos/testdata/canonical.cfg")
	if err != nil {
		b.Fatal(err)
	}
	seed := nxosdrv.LabSeed(canon)
	dir := b.TempDir()
	intent, err := os.ReadFile("../../cmd/lossless/testdata/plan/intent.hcl")
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "intent.hcl"), intent, 0o644); err != nil {
		b.Fatal(err)
	}
	kh := filepath.Join(dir, "known_hosts")
	var inv strings.Builder
	fmt.Fprintf(&inv, "credentials \"lab\" {\n  username_env = \"U\"\n  password_env = \"P\"\n  known_hosts  = %q\n}\n", kh)
	for i := range n {
		name := fmt.Sprintf("leaf%03d", i)
		node, err := l.Add("nxos", name, seed)
		if err != nil {
			b.Fatal(err)
		}
		node.Faults().Update(func(f *device.Faults) { f.Latency = latency })
		fmt.Fprintf(&inv, "device %q {\n  vendor = \"nxos\"\n  platform = \"N9K-C93600CD-GX\"\n  address = \"127.0.0.1\"\n  port = %d\n  credentials = credentials.lab\n  ports \"Ethernet1/1-2\" {\n    speed = \"100G\"\n    cable = \"5m\"\n  }\n}\n", name, node.Port())
	}
	if err := l.WriteKnownHosts(kh); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte(inv.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"U": "ops", "P": "bench-pw"}
	devs := plantest.Load(b, dir, env)
	return devs
}
