package render

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/load"
	registry "github.com/lossless-net/lossless/vendors"
)

// benchIntent is the canonical intent (golden/canonical) as one profile per
// vendor, assigned by role, so that a generated inventory of any size
// resolves without per-device overrides.
const benchIntent = `
qos_profile "nxos" {
  trust = "dscp"
  traffic_class "default" {
    id        = 0
    dscp      = "default"
    bandwidth = "50%"
  }
  traffic_class "ROCEv2" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "50%"
    mtu       = 9216
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 7
      weight          = 0
    }
  }
  traffic_class "CNP" {
    id       = 7
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  pfc {
    watchdog {}
  }
}

qos_profile "eos" {
  trust = "dscp"
  traffic_class "default" {
    id   = 0
    dscp = "default"
  }
  traffic_class "ROCEv2" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 100
    }
  }
  traffic_class "CNP" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  pfc {
    watchdog {
      detection_time   = "200ms"
      restoration_time = "400ms"
      polling_interval = "100ms"
      action           = "drop"
    }
  }
}

qos_profile "ce" {
  trust = "dscp"
  traffic_class "default" {
    id     = 0
    dscp   = "default"
    weight = 40
  }
  traffic_class "ROCEv2" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    weight   = 60
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 10
    }
  }
  traffic_class "CNP" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  pfc {
    watchdog {
      detection_time   = "100ms"
      restoration_time = "100ms"
      polling_interval = "10ms"
    }
  }
}

qos_profile "sonic" {
  trust = "dscp"
  traffic_class "default" {
    id     = 0
    dscp   = "default"
    weight = 14
  }
  traffic_class "ROCEv2" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    weight   = 15
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 5
    }
  }
  traffic_class "CNP" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  pfc {
    watchdog {
      detection_time   = "200ms"
      restoration_time = "200ms"
      polling_interval = "200ms"
      action           = "drop"
    }
  }
}

buffer_profile "auto" {
  headroom = "auto"
}

buffer_profile "ce" {
  headroom      = "auto"
  headroom_pool = "4MB"
}

buffer_profile "sonic" {
  headroom = {
    xoff = "165568B"
    xon  = "2288B"
    size = "1248B"
  }
  alpha = 0
}

assign "nxos" {
  devices = { role = "nxos" }
  qos     = qos_profile.nxos
  buffers = buffer_profile.auto
}
assign "eos" {
  devices = { role = "eos" }
  qos     = qos_profile.eos
  buffers = buffer_profile.auto
}
assign "ce" {
  devices = { role = "huawei-ce" }
  qos     = qos_profile.ce
  buffers = buffer_profile.ce
}
assign "sonic" {
  devices = { role = "sonic" }
  qos     = qos_profile.sonic
  buffers = buffer_profile.sonic
}
`

// benchVendors are the vendors of the generated fabric, with the platform
// and the port range of each (as in golden/canonical/inventory.hcl).
var benchVendors = []struct{ vendor, platform, ports string }{
	{"nxos", "N9K-C93600CD-GX", "Ethernet1/1-32"},
	{"eos", "DCS-7060CX-32S", "Ethernet1-32"},
	{"huawei-ce", "CE8855", "100GE1/0/1-32"},
	{"sonic", "Arista-7060CX-32S", "Ethernet0-124 step 4"},
}

// benchPorts is the number of ports each of benchVendors' ranges expands
// to.
const benchPorts = 32

// writeFabric writes the benchmark intent and an inventory of n devices,
// spread evenly over the vendors that have a registered renderer.
func writeFabric(tb testing.TB, dir string, n int) []string {
	tb.Helper()
	var vendors []string
	var inv strings.Builder
	inv.WriteString("credentials \"lab\" {\n  username_env = \"LOSSLESS_USER\"\n  password_env = \"LOSSLESS_PASSWORD\"\n  known_hosts  = \"~/.ssh/known_hosts\"\n}\n")
	var use []int
	for i, v := range benchVendors {
		if _, ok := registry.Lookup(v.vendor); ok {
			use = append(use, i)
			vendors = append(vendors, v.vendor)
		}
	}
	for i := range n {
		v := benchVendors[use[i%len(use)]]
		fmt.Fprintf(&inv, "device %q {\n  vendor = %q\n  platform = %q\n  address = \"10.%d.%d.%d\"\n  credentials = credentials.lab\n  roles = [%q]\n  ports %q {\n    speed = \"100G\"\n    cable = \"%dm\"\n  }\n}\n",
			fmt.Sprintf("%s-%05d", strings.ReplaceAll(v.vendor, "-", ""), i), v.vendor, v.platform, i>>16, (i>>8)&255, i&255, v.vendor, v.ports, 3+i%5)
	}
	for name, data := range map[string]string{"intent.hcl": benchIntent, "inventory.hcl": inv.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return vendors
}

// BenchmarkRender renders a generated fabric (every vendor with a
// registered renderer, 32 ports a device) to a directory, at 2,500 and
// 10,000 devices. Loading and resolution happen before the timer starts;
// heap-after-resolve-MB is the live heap holding the resolved fabric and
// heap-after-render-MB the live heap once rendering is done (equal: ToDir
// keeps nothing per device). Peak RSS is measured outside Go (see
// BenchmarkLoad).
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{2_500, 10_000} {
		b.Run(fmt.Sprintf("devices=%d", n), func(b *testing.B) {
			devs, vendors := benchFabric(b, n)
			b.Logf("%d devices of %s", len(devs), strings.Join(vendors, ", "))
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			out := b.TempDir()
			user0, sys0 := cpuTimes()
			b.ResetTimer()
			for b.Loop() {
				if _, err := ToDir(context.Background(), devs, Native, out, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			// CPU time (user + system) is what a shared, loaded machine
			// cannot distort: on 2 idle cores wall time ≈ cpu-s/op ÷ 2.
			user, sys := cpuTimes()
			b.ReportMetric((user-user0+sys-sys0).Seconds()/float64(b.N), "cpu-s/op")
			// System time is mostly the file writes (and the kernel side
			// of the GC's memory); user time is rendering.
			b.ReportMetric((sys-sys0).Seconds()/float64(b.N), "sys-s/op")
			if entries, _ := os.ReadDir(out); len(entries) != len(devs) {
				b.Fatalf("%d files for %d devices", len(entries), len(devs))
			}
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-after-resolve-MB")
			// Nothing a rendering allocates outlives it: after a GC the
			// live heap is the resolved fabric again.
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-after-render-MB")
			runtime.KeepAlive(devs)
		})
	}
}

// BenchmarkLoad only generates, loads and resolves the fabrics of
// BenchmarkRender: the peak RSS of
//
//	render.test -test.run '^$' -test.bench 'BenchmarkLoad/devices=10000' -test.benchtime 1x
//
// against that of BenchmarkRender/devices=10000 (with /usr/bin/time -v) is
// what rendering adds on top of resolution.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{2_500, 10_000} {
		b.Run(fmt.Sprintf("devices=%d", n), func(b *testing.B) {
			for b.Loop() {
				benchFabric(b, n)
			}
		})
	}
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	user, sys := cpuTimes()
	return user + sys
}

// cpuTimes is the process's user and system CPU time so far.
func cpuTimes() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

func benchFabric(b *testing.B, n int) ([]*intent.Device, []string) {
	b.Helper()
	src := b.TempDir()
	vendors := writeFabric(b, src, n)
	if !slices.Contains(vendors, "nxos") || !slices.Contains(vendors, "eos") {
		b.Fatalf("renderers registered: %v", vendors)
	}
	f, diags := load.Fabric(src, load.Options{})
	if diags.HasErrors() {
		b.Fatalf("load: %s", diags.Error())
	}
	devs := f.Devices
	for _, d := range devs {
		if len(d.Ports) != benchPorts {
			b.Fatalf("%s has %d ports, want %d: fix its range in benchVendors", d.Name, len(d.Ports), benchPorts)
		}
	}
	return devs, vendors
}

// BenchmarkRenderVendor renders, in memory, the devices of one vendor of
// the 10,000-device fabric of BenchmarkRender (2,500 each when all four
// renderers are registered), to show where rendering time goes.
func BenchmarkRenderVendor(b *testing.B) {
	devs, vendors := benchFabric(b, 10_000)
	for _, v := range vendors {
		b.Run("vendor="+v, func(b *testing.B) {
			var mine []*intent.Device
			for _, d := range devs {
				if d.Vendor == v {
					mine = append(mine, d)
				}
			}
			cpu0 := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				if _, err := All(mine, Native, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
