package huaweice

import (
	"strings"
	"testing"
)

// FuzzHandle types arbitrary lines into every view: the session must never
// panic, and a refused line must never reach the running config.
func FuzzHandle(f *testing.F) {
	for _, l := range readLinesF(f, "testdata/push-family-b.txt") {
		f.Add(l)
	}
	for _, s := range []string{"qos b", "dcb pfc d", "interface 100ge 1/0/1", "display current-configuration | include (",
		"undo qos drr 0 to 9", "priority 0 1 2 3 4 5", "commit trial 59", "rollback configuration last 0", "| include x", "dis cu | no-more x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		d := newTestDevice(t, "")
		for _, setup := range [][]string{nil, {"system-view"}, {"system-view", "interface 100GE1/0/1"}, {"system-view", "dcb pfc"},
			{"system-view", "drop-profile p"}, {"system-view", "diffserv domain d"}, {"system-view", "ai-service", "ai-ecn"},
			{"system-view", "port-group g", "group-member 100GE1/0/1 to 100GE1/0/3"}, {"system-view", "dcb ets-profile e"}} {
			s := d.NewSession("fuzz", nil)
			transcript(s, setup...)
			before := string(d.Running())
			out, _ := s.Handle(line)
			if strings.Contains(out, "Error") && string(d.Running()) != before {
				t.Fatalf("refused line %q changed the running config", line)
			}
			s.Close()
		}
	})
}

func readLinesF(f *testing.F, path string) []string {
	f.Helper()
	return strings.Split(strings.TrimRight(readFileF(f, path), "\n"), "\n")
}
