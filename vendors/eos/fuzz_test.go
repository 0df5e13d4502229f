package eos

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/config"
)

// FuzzParseRunning: any running-config text either fails to parse with
// an error or gives a change, with and without unmanaged = "prune";
// nothing panics, no interface is removed, and the human diff is empty
// exactly when there are no commands.
func FuzzParseRunning(f *testing.F) {
	for _, name := range []string{"canonical.cfg", "profile.cfg", "others.cfg"} {
		b := readFile(f, name)
		f.Add(b)
		f.Add(string(LabSeed([]byte(b))))
	}
	f.Add("interface Et1\n    tx-queue 3\n  priority strict\n qos trust dscp\n")
	f.Add("qos map dscp 99 x to traffic-class\nno priority-flow-control\n   \n!\n")
	f.Add("no priority-flow-control pause watchdog\nqos map traffic-class 3 4 to tx-queue 4\nqos map dscp 8 40 to traffic-class 0\n")
	desired := document(f, readFile(f, "canonical.cfg"))
	prune := document(f, readFile(f, "profile.cfg"))
	prune.Prune = true
	f.Fuzz(func(t *testing.T, text string) {
		for _, doc := range []*config.Document{desired, prune} {
			ch, err := Diff("leaf1", []byte(text), doc)
			if err != nil {
				return
			}
			for _, c := range ch.Commands {
				if strings.HasPrefix(c, "no interface") || strings.HasPrefix(c, "default interface") {
					t.Errorf("%q sent", c)
				}
			}
			if (len(ch.Commands) > 0) != (ch.Diff != "") {
				t.Errorf("commands %q, diff %q", ch.Commands, ch.Diff)
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

// FuzzImport: any text either fails to import with an error or gives an
// Imported whose lines are lines of the text, sorted; nothing panics,
// and Saved never panics either. Seeded with the driver's fixtures,
// their lab seeds and the real-world corpus.
func FuzzImport(f *testing.F) {
	for _, name := range []string{"canonical.cfg", "profile.cfg", "others.cfg"} {
		b := readFile(f, name)
		f.Add(b)
		f.Add(string(LabSeed([]byte(b))))
	}
	if files, _ := filepath.Glob("../../testdata/realworld/eos/*/running.cfg"); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Add("interface Et1\n   service-profile X\nqos profile X\n   tx-queue 9\n      bandwidth percent 200\n   priority-flow-control priority 3 drop\n")
	f.Add("qos map dscp 1 2 to traffic-class 7\npriority-flow-control pause watchdog default timeout x\ninterface Ethernet1\n   priority-flow-control pause watchdog\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, _ = Saved([]byte(text))
		im, err := Import(nil, []byte(text))
		if err != nil {
			return
		}
		lines := strings.Count(text, "\n") + 1
		for i, u := range im.Unexpressed {
			if u.Line < 1 || u.Line > lines || u.Reason == "" {
				t.Fatalf("unexpressed %+v outside the text's %d lines", u, lines)
			}
			if i > 0 && im.Unexpressed[i-1].Line > u.Line {
				t.Fatalf("unexpressed not sorted: %+v", im.Unexpressed)
			}
		}
	})
}
