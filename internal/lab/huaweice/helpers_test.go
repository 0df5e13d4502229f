package huaweice

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// fixedTime stamps every commit in tests, so output is byte-stable.
var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// header is what display current-configuration prints first with fixedTime.
const header = "!Software Version V300R023C00\n!Last configuration was updated at 2026-01-02 03:04:05+00:00\n"

func newTestDevice(t *testing.T, seed string, opts ...Option) *Device {
	t.Helper()
	k, err := NewKind(append([]Option{WithClock(func() time.Time { return fixedTime })}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	d, err := k.newDevice("HUAWEI", []byte(seed))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// transcript types each line and returns what a terminal would show:
// prompt, the echoed line, then the output.
func transcript(s device.Session, lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(s.Prompt() + l + "\n")
		out, _ := s.Handle(l)
		b.WriteString(out)
	}
	return b.String()
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

func readLinesB(b *testing.B, path string) []string {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}

func readFileF(f *testing.F, path string) string {
	f.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return string(b)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
