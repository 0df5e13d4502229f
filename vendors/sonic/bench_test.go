package sonic

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/config"
	render "github.com/lossless-net/lossless/renderers/sonic"
)

// fleetRendering is the canonical rendering spread over ports managed
// ports (Ethernet0, Ethernet4, …): every per-port entry of Ethernet0
// repeated for each.
func fleetRendering(t testing.TB, ports int) *config.Document {
	t.Helper()
	canon := canonical(t).DB
	db := config.DB{}
	for tn, keys := range canon {
		db[tn] = map[string]map[string]string{}
		for k, f := range keys {
			switch {
			case tn == "CABLE_LENGTH":
				g := map[string]string{}
				for i := range ports {
					g["Ethernet"+strconv.Itoa(4*i)] = f["Ethernet0"]
				}
				db[tn][k] = g
			case slices.Contains(referrerTables, tn) && k != globalQoS && k != globalWD:
				p := portOf(tn, k)
				if p != "Ethernet0" {
					continue
				}
				for i := range ports {
					db[tn]["Ethernet"+strconv.Itoa(4*i)+strings.TrimPrefix(k, p)] = f
				}
			default:
				db[tn][k] = f
			}
		}
	}
	return &config.Document{Device: "leaf1", Format: config.ConfigDB, DB: db, Text: render.Text(db)}
}

// BenchmarkDiff10k: parse + diff + remediation of a `show
// runningconfiguration all` of about 10,000 lines (190 managed ports
// seeded by LabSeed: stale thresholds, weights, watchdog times, an extra
// class and map on every port, unrelated config), goal ≤ 5 ms.
func BenchmarkDiff10k(b *testing.B) {
	want := fleetRendering(b, 190)
	running := LabSeed(want.Text)
	ch, err := Diff("leaf1", running, want)
	if err != nil || ch.Empty() {
		b.Fatalf("diff: %v, empty %v", err, ch.Empty())
	}
	b.SetBytes(int64(len(running)))
	b.ReportAllocs()
	// The machine may be shared: CPU time per op (all threads, GC
	// included) says what the work costs apart from waiting for a core.
	cpu0 := cpuTime()
	n := 0
	for b.Loop() {
		if _, err := Diff("leaf1", running, want); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	}
	b.ReportMetric(float64(bytes.Count(running, []byte("\n"))), "lines")
}
