package lab_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/sync/errgroup"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/eos"
	"github.com/lossless-net/lossless/internal/lab/nxos"
)

// BenchmarkLab1000 starts 1,000 emulated devices (half NX-OS, half EOS)
// in one process, then logs in to all of them at once and runs show
// running-config on each. It reports the start time, the heap in use
// with every device up, the memory the Go runtime holds from the OS (after
// start and after the logins), and the time of the concurrent login + show.
//
//	go test -run '^$' -bench BenchmarkLab1000 -benchtime 1x ./internal/lab
func BenchmarkLab1000(b *testing.B) {
	const devices = 1000
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		l, err := lab.New()
		if err != nil {
			b.Fatal(err)
		}
		nodes := make([]*lab.Node, devices)
		for i := range nodes {
			kind := nxos.Name
			if i%2 == 1 {
				kind = eos.Name
			}
			if nodes[i], err = l.Add(kind, fmt.Sprintf("%s%d", kind, i), nil); err != nil {
				b.Fatal(err)
			}
		}
		startTime := time.Since(start)
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)

		start = time.Now()
		var g errgroup.Group
		for _, n := range nodes {
			g.Go(func() error {
				c, err := ssh.Dial("tcp", n.Addr(), &ssh.ClientConfig{User: lab.DefaultUser,
					Auth: []ssh.AuthMethod{ssh.Password(lab.DefaultPassword)}, HostKeyCallback: ssh.FixedHostKey(n.HostKey())})
				if err != nil {
					return fmt.Errorf("%s: %w", n.Name(), err)
				}
				defer c.Close()
				s, err := c.NewSession()
				if err != nil {
					return fmt.Errorf("%s: %w", n.Name(), err)
				}
				out, err := s.Output("show running-config")
				if err != nil || !strings.Contains(string(out), "hostname "+n.Name()) {
					return fmt.Errorf("%s: show running-config: %v %q", n.Name(), err, out)
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
		showTime := time.Since(start)
		var peak runtime.MemStats
		runtime.ReadMemStats(&peak)
		if err := l.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(startTime.Seconds(), "start-s")
		b.ReportMetric(float64(after.HeapInuse-min(before.HeapInuse, after.HeapInuse))/(1<<20), "heap-MiB")
		b.ReportMetric(float64(after.Sys)/(1<<20), "sys-MiB")
		b.ReportMetric(float64(peak.Sys)/(1<<20), "sys-after-show-MiB")
		b.ReportMetric(showTime.Seconds(), "login+show-s")
	}
}
