package nxos_test

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/nxos"
)

// FuzzSession types arbitrary lines: the device never panics, and its
// running config always seeds an identical device (what it prints, it
// accepts).
func FuzzSession(f *testing.F) {
	f.Add("configure terminal\ninterface e1/1-2\npriority-flow-control mode on\nend")
	f.Add("conf\npolicy-map type queuing Q\nclass type queuing c-out-8q-q3\nrandom-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn\nno random-detect")
	f.Add("conf\nclass-map type qos match-any X\nmatch dscp 24,26\nmatch dscp 10-12\nexit\nno class-map type qos X")
	f.Add("checkpoint a\nconf\ninterface e1/3\ndescription a b  c\nmtu 9216\nend\nrollback running-config checkpoint a")
	f.Fuzz(func(t *testing.T, input string) {
		d, err := nxos.New("switch", nil)
		if err != nil {
			t.Fatal(err)
		}
		s := d.NewSession("admin", nil)
		for i, line := range strings.Split(input, "\n") {
			if i > 60 {
				break
			}
			s.Handle(line)
			_ = s.Prompt()
		}
		s.Close()
		run := d.Checkpoint()
		d2, err := nxos.New("switch", run)
		if err != nil {
			t.Fatalf("its own running config does not seed a device: %v\n%s", err, run)
		}
		if got := d2.Checkpoint(); string(got) != string(run) {
			t.Fatalf("re-seeded config differs:\n%s\nvs\n%s", run, got)
		}
	})
}
