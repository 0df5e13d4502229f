package nxos_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/nxos"
)

// normalised is show running-config text modulo what the device prints
// of itself or NX-OS varies on its own: the ! lines (the header's times,
// and the fixture's source comments), the version line (the lab's own
// software version), and runs of blank lines, which count as one (NX-OS
// prints two before the first interface in [leaf93] and [spine92], one
// in others).
func normalised(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "!"), strings.HasPrefix(l, "version "):
			continue
		case l == "" && (len(out) == 0 || out[len(out)-1] == ""):
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestWholeConfig: a leaf's whole running config (testdata/whole-leaf.txt,
// from the public configs whole.go names) seeds the lab unedited, and
// show running-config prints it back equal; typed line by line it builds
// the same config.
func TestWholeConfig(t *testing.T) {
	seed := readFile(t, "testdata/whole-leaf.txt")
	d, err := nxos.New("leaf-1", []byte(seed))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalised(seed), normalised(string(d.Running()))); diff != "" {
		t.Errorf("show running-config (-seed +lab):\n%s", diff)
	}
	// The same config typed in configure terminal, indentation and all.
	d2, err := nxos.New("leaf-1", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := d2.NewSession("admin", nil)
	s.Handle("configure terminal")
	for _, l := range strings.Split(seed, "\n") {
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "!") || strings.HasPrefix(t, "version ") {
			continue
		}
		if l == strings.TrimLeft(l, " ") {
			// Top-level line: back to config mode first, as a paste from
			// show running-config relies on parent-mode fallback.
			for strings.Contains(s.Prompt(), "(config-") {
				s.Handle("exit")
			}
		}
		if out, _ := s.Handle(strings.TrimSpace(l)); out != "" {
			t.Fatalf("%s%s\n%s", s.Prompt(), l, out)
		}
	}
	if diff := cmp.Diff(normalised(seed), normalised(string(d2.Running()))); diff != "" {
		t.Errorf("typed (-seed +lab):\n%s", diff)
	}
}
