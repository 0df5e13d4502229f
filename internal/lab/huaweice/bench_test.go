package huaweice

import (
	"runtime"
	"testing"
)

// BenchmarkNewDevice reports the heap each factory device holds, for the
// lab's 1,000-device goal (issue 4).
func BenchmarkNewDevice(b *testing.B) {
	k, err := NewKind()
	if err != nil {
		b.Fatal(err)
	}
	devs := make([]*Device, 0, b.N)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for b.Loop() {
		d, err := k.newDevice("leaf", nil)
		if err != nil {
			b.Fatal(err)
		}
		devs = append(devs, d)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(devs)), "heap-B/device")
}

// BenchmarkCanonicalPush types the §1.2 push sequence and commits it.
func BenchmarkCanonicalPush(b *testing.B) {
	k, err := NewKind()
	if err != nil {
		b.Fatal(err)
	}
	lines := readLinesB(b, "testdata/push-family-b.txt")
	for b.Loop() {
		d, err := k.newDevice("leaf", nil)
		if err != nil {
			b.Fatal(err)
		}
		s := d.NewSession("admin", nil)
		for _, l := range append(lines, "commit") {
			s.Handle(l)
		}
	}
}
