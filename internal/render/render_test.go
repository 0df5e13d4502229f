package render

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
	_ "github.com/lossless-net/lossless/vendors/all"
)

// device builds a RoCE device of the given vendor with n ports, in Go (the
// renderers' own tests check the content; these check the plumbing).
func device(name, vendor string, n int) *intent.Device {
	q := &intent.QoS{
		Profile: "roce",
		Trust:   "dscp",
		Classes: []intent.Class{
			{Name: "bulk", ID: 0, Default: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 50}},
			{Name: "ROCEv2", ID: 3, DSCP: []int{24, 26}, Lossless: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: 50},
				ECN: &intent.ECN{Min: intent.Threshold{Bytes: 150 * units.KB}, Max: intent.Threshold{Bytes: 3000 * units.KB}, MaxProbability: 7}},
			{Name: "CNP", ID: 6, DSCP: []int{48}, CNP: true, Scheduling: intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}},
		},
		PFC: intent.PFC{Watchdog: &intent.Watchdog{Action: "drop"}},
	}
	d := &intent.Device{Name: name, Vendor: vendor, Platform: &platform.Platform{Model: "test", MaxLossless: 2}, QoS: q}
	for i := 1; i <= n; i++ {
		port := fmt.Sprintf("Ethernet%d", i)
		if vendor == "nxos" {
			port = fmt.Sprintf("Ethernet1/%d", i)
		}
		d.Ports = append(d.Ports, intent.Port{Name: port, Speed: 400 * units.Gbps, Cable: 3 * units.Metre, QoS: q})
	}
	return d
}

func TestAll(t *testing.T) {
	devs := []*intent.Device{device("a-nx", "nxos", 2), device("b-bad", "junos", 1), device("c-eos", "eos", 2)}
	bad := device("d-eos", "eos", 1)
	bad.QoS.Classes[2].ID = 7 // reserved on EOS
	devs = append(devs, bad)

	files, err := All(devs, Native, 2)
	if err == nil {
		t.Fatal("no error for an unknown vendor and an unsupported feature")
	}
	for _, want := range []string{`render b-bad: no renderer for vendor "junos" (registered: `, "render d-eos (eos): class CNP: traffic class 7"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, " "); got != "a-nx.cfg c-eos.cfg" {
		t.Errorf("files %q, want the two that render, in device order", got)
	}
	if _, err := One(devs[0], YANG); err == nil || !strings.Contains(err.Error(), `vendor "nxos" has no "yang" format`) {
		t.Errorf("yang on nxos: %v", err)
	}
}

func TestToDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	devs := []*intent.Device{device("nx", "nxos", 2), device("eos", "eos", 2)}
	files, err := ToDir(context.Background(), devs, Native, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := All(devs, Native, 1)
	for i, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want[i].Data) || f.Data != nil {
			t.Errorf("%s: written file differs from the rendering, or Data kept", f.Name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ToDir(ctx, devs, Native, dir, 1); err == nil {
		t.Error("cancelled context renders anyway")
	}
}

// fleet is n devices, alternating vendors, 64 ports each.
func fleet(n int, vendors []string) []*intent.Device {
	devs := make([]*intent.Device, n)
	for i := range devs {
		v := vendors[i%len(vendors)]
		devs[i] = device(fmt.Sprintf("%s-%05d", v, i), v, 64)
	}
	return devs
}

// BenchmarkRenderDevices renders 10,000 NX-OS and EOS devices of 64 ports
// built in Go (no intent loading) to a directory.
func BenchmarkRenderDevices(b *testing.B) {
	devs := fleet(10_000, []string{"nxos", "eos"})
	dir := b.TempDir()
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := ToDir(context.Background(), devs, Native, dir, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(devs))/time.Since(start).Seconds()*float64(b.N), "devices/s")
}
