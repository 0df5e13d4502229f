package intent_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/fabricgen"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all"
)

var benchSizes = []struct{ devices, ports int }{{1000, 64}, {10000, 64}}

// BenchmarkResolve resolves and validates a generated fabric (see
// package fabricgen) whose intent and inventory are already loaded: the
// cost of Resolve alone, every check included. The goal for 10,000
// devices × 64 ports is ≤ 2 s and ≤ 1 GiB peak memory.
func BenchmarkResolve(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(fmt.Sprintf("%dx%d", s.devices, s.ports), func(b *testing.B) {
			intentSrc, invSrc := fabricgen.Fabric(s.devices, s.ports)
			inv, diags := inventory.Parse(invSrc, "gen-inventory.hcl", vendors.Accepted())
			if diags.HasErrors() {
				b.Fatal(diags.Error())
			}
			fab, diags := intent.LoadSources(map[string][]byte{"gen.hcl": intentSrc}, nil)
			if diags.HasErrors() {
				b.Fatal(diags.Error())
			}
			b.ReportAllocs()
			b.ResetTimer()
			start := cpuTime()
			for b.Loop() {
				devs, diags := intent.Resolve(fab, inv)
				if len(diags) > 0 || len(devs) != s.devices {
					b.Fatalf("%d devices, diagnostics: %s", len(devs), diags.Error())
				}
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkLoadResolve is the whole of `lossless validate` on a generated
// fabric: parse and decode the intent and the inventory, then resolve and
// validate.
func BenchmarkLoadResolve(b *testing.B) {
	for _, s := range benchSizes {
		b.Run(fmt.Sprintf("%dx%d", s.devices, s.ports), func(b *testing.B) {
			intentSrc, invSrc := fabricgen.Fabric(s.devices, s.ports)
			b.ReportAllocs()
			b.ResetTimer()
			start := cpuTime()
			for b.Loop() {
				inv, diags := inventory.Parse(invSrc, "gen-inventory.hcl", vendors.Accepted())
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				fab, diags := intent.LoadSources(map[string][]byte{"gen.hcl": intentSrc}, nil)
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				devs, diags := intent.Resolve(fab, inv)
				if len(diags) > 0 || len(devs) != s.devices {
					b.Fatalf("%d devices, diagnostics: %s", len(devs), diags.Error())
				}
			}
			reportCPU(b, start)
		})
	}
}

// reportCPU adds the process CPU time per operation (GC included) as
// "cpu-ns/op": on a machine shared with other work, wall time per op
// measures the neighbours as much as the code.
func reportCPU(b *testing.B, start time.Duration) {
	if used := cpuTime() - start; used > 0 && b.N > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
