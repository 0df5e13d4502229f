package sonic

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/config"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors/vendortest"
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
	benchDiff(b, want, LabSeed(want.Text))
}

// BenchmarkDiff10kOneChange: the same config where only the ECN
// thresholds differ (the usual change window): the cost is the read and
// the scope, not the size of the change.
func BenchmarkDiff10kOneChange(b *testing.B) {
	want := fleetRendering(b, 206)
	old := cloneDB(want.DB)
	for _, f := range old["WRED_PROFILE"] {
		f["green_min_threshold"] = "1048576"
	}
	seeded, err := ParseRunning(LabSeed(want.Text))
	if err != nil {
		b.Fatal(err)
	}
	// The seeded switch with every owned table at the rendering but the
	// thresholds: platform and unrelated rows stay.
	whole := LabSeed(render.Text(old))
	all, err := parseWhole(whole)
	if err != nil {
		b.Fatal(err)
	}
	for tn := range seeded {
		if _, ok := old[tn]; ok {
			all[tn] = old[tn]
		}
	}
	for _, k := range []string{"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"} {
		delete(all, k)
	}
	for k := range all["QUEUE"] {
		if strings.HasSuffix(k, "|1") && all["QUEUE"][k]["scheduler"] != "" && old["QUEUE"][k] == nil {
			delete(all["QUEUE"], k)
		}
	}
	for _, f := range all["PORT_QOS_MAP"] {
		delete(f, "pfc_to_pg_map")
	}
	delete(all["SCHEDULER"], "ROCE_BULK")
	benchDiff(b, want, render.Text(all))
}

// parseWhole reads every table of a config_db.json.
func parseWhole(b []byte) (config.DB, error) {
	var db config.DB
	err := json.Unmarshal(b, &db)
	return db, err
}

func benchDiff(b *testing.B, want *config.Document, running []byte) {
	ch, err := Diff("leaf1", running, want)
	if err != nil || ch.Empty() {
		b.Fatalf("diff: %v, empty %v", err, ch.Empty())
	}
	b.SetBytes(int64(len(running)))
	b.ReportAllocs()
	// The machine may be shared: CPU time per op (all threads, GC
	// included) says what the work costs apart from waiting for a core.
	cpu0 := vendortest.CPUTime()
	n := 0
	for b.Loop() {
		if _, err := Diff("leaf1", running, want); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if cpu := vendortest.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	}
	b.ReportMetric(float64(bytes.Count(running, []byte("\n"))), "lines")
	b.ReportMetric(float64(strings.Count(string(ch.Patch), `"op"`)), "ops")
}
