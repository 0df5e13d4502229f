package eos

import (
	"strings"
	"testing"
)

// FuzzParseRunning: any running-config text either fails to parse with
// an error or gives a change; nothing panics, and a text diffed against
// itself as the rendering needs no change.
func FuzzParseRunning(f *testing.F) {
	for _, name := range []string{"canonical.cfg", "profile.cfg"} {
		b := readFile(f, name)
		f.Add(b)
		f.Add(string(LabSeed([]byte(b))))
	}
	f.Add("interface Et1\n    tx-queue 3\n  priority strict\n qos trust dscp\n")
	f.Add("qos map dscp 99 x to traffic-class\nno priority-flow-control\n   \n!\n")
	desired := document(f, readFile(f, "canonical.cfg"))
	f.Fuzz(func(t *testing.T, text string) {
		ch, err := Diff("leaf1", []byte(text), desired)
		if err != nil {
			return
		}
		for _, c := range ch.Commands {
			if strings.HasPrefix(c, "no interface") || strings.HasPrefix(c, "default interface") {
				t.Errorf("%q sent", c)
			}
		}
		view, err := QoSView([]byte(text))
		if err != nil {
			t.Fatalf("QoSView fails where Diff parsed: %v", err)
		}
		if again, err := QoSView(view); err != nil || string(again) != string(view) {
			t.Errorf("QoSView is not a fixed point: %v\n%q\n%q", err, view, again)
		}
	})
}
