package sonic

import (
	"os"
	"runtime"
	"testing"
)

func BenchmarkLoadSchema(b *testing.B) {
	for b.Loop() {
		if _, err := loadSchema(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateCanonical(b *testing.B) {
	s, err := loadSchema()
	if err != nil {
		b.Fatal(err)
	}
	d, err := parseDB(mustRead(b, "testdata/config_db.json"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if msg := s.validate(d); msg != "" {
			b.Fatal(msg)
		}
	}
}

func mustRead(b *testing.B, p string) []byte {
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkNewDevice reports the heap each factory device holds, for the
// lab's 1,000-device goal (issue 4); the YANG schema is the kind's, shared.
func BenchmarkNewDevice(b *testing.B) {
	k, err := NewKind()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := k.newDevice("warm", nil); err != nil { // parse the YANG outside the measure
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

// BenchmarkApplyPatch applies a four-operation patch through every check.
func BenchmarkApplyPatch(b *testing.B) {
	k, err := NewKind()
	if err != nil {
		b.Fatal(err)
	}
	d, err := k.newDevice("leaf", mustRead(b, "testdata/config_db.json"))
	if err != nil {
		b.Fatal(err)
	}
	p := []byte(`[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/green_max_threshold","value":"2048000"},
{"op":"remove","path":"/QUEUE/Ethernet4|6"},{"op":"add","path":"/QUEUE/Ethernet4|6","value":{"scheduler":"ROCE_CNP"}},
{"op":"add","path":"/SCHEDULER/EXTRA","value":{"type":"DWRR","weight":"20"}}]`)
	for b.Loop() {
		if err := d.Patch(p); err != nil {
			b.Fatal(err)
		}
	}
}
