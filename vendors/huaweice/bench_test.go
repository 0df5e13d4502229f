package huaweice

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/vendors/vendortest"
)

// BenchmarkDiff10k parses a 10,000-line display current-configuration
// and computes the diff and remediation against a rendering of the same
// ports.
func BenchmarkDiff10k(b *testing.B) {
	running, desired := bigConfigs(b, 10_000)
	doc := document(b, desired)
	vendortest.BenchDiff(b, Diff, running, doc)
}

// TestBigConfig: the benchmark's input is what it claims, and its change
// is exactly the stale lines.
func TestBigConfig(t *testing.T) {
	running, desired := bigConfigs(t, 10_000)
	if n := strings.Count(string(running), "\n"); n < 10_000 {
		t.Fatalf("running config has %d lines", n)
	}
	ch, err := Diff("leaf1", running, document(t, desired))
	if err != nil {
		t.Fatal(err)
	}
	// Stale: the ECN line (3 commands) and every 50th port's weight (3).
	stale := 0
	for _, c := range ch.Commands {
		if c == "qos queue 3 drr weight 60" {
			stale++
		}
	}
	if stale == 0 || len(ch.Commands) != 3+3*stale {
		t.Errorf("%d commands, %d stale ports:\n%s", len(ch.Commands), stale, strings.Join(ch.Commands, "\n"))
	}
}

// bigConfigs returns a running config of about lines lines (display
// current-configuration with its header: the canonical globals with a
// stale ECN profile, then ports with lossless' and unrelated lines, every
// 50th port with a stale DRR weight) and its desired config.
func bigConfigs(b testing.TB, lines int) ([]byte, string) {
	want := canonicalText(b)
	globals, _, _ := strings.Cut(want, "#\ninterface ")
	var run, des strings.Builder
	run.WriteString("!Software Version V300R023C00\n!Last configuration was updated at 2026-11-29 10:00:00+00:00\n#\nsysname leaf1\n")
	run.WriteString(strings.Replace(globals, "low-limit 153600", "low-limit 102400", 1))
	des.WriteString(globals)
	n := strings.Count(run.String(), "\n")
	for port := 0; n < lines; port++ {
		name := fmt.Sprintf("interface 100GE%d/0/%d", port/48+1, port%48+1)
		weight := 60
		if port%50 == 0 {
			weight = 50
		}
		body := " trust dscp\n trust upstream roce\n dcb pfc enable mode manual\n qos queue 3 wred roce-ecn\n qos drr 0 to 5\n qos queue 0 drr weight 40\n"
		fmt.Fprintf(&run, "#\n%s\n description host-%d\n lldp tlv-enable dcbx\n%s qos queue 3 drr weight %d\n qos queue 3 ecn\n", name, port, body, weight)
		fmt.Fprintf(&des, "#\n%s\n%s qos queue 3 drr weight 60\n qos queue 3 ecn\n", name, body)
		n += 12
	}
	run.WriteString("#\nreturn\n")
	des.WriteString("#\nreturn\n")
	return []byte(run.String()), des.String()
}
