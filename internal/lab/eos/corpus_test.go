package eos_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/eos"
)

// deviceRe is the second line of EOS's show running-config: "! device:
// HOST (MODEL, EOS-VERSION)" (scrapligo's cEOS recording; every fixture
// of the corpus).
var deviceRe = regexp.MustCompile(`^! device: (\S+) \(([^,]+), (EOS-\S+)\)$`)

// corpusNormal is a show running-config text with EOS's own
// normalisation taken out, so that a fixture of the corpus and the lab's
// print of it compare; applied to both sides:
//   - the "! device:" line names the device's EOS version (scrapligo's
//     cEOS recording: "(cEOSLab, EOS-4.28.0F-26924507.4280F (engineering
//     build))"), which is the lab's own (EOS-4.32.2F), not the fixture's:
//     the version is dropped; host and model stay, the model the lab's
//     Model when the lab does not emulate the fixture's (model below);
//   - an unconfigured front-panel port prints as an empty "interface
//     EthernetN" stanza followed by "!" (the same recording: Ethernet1
//     and Ethernet2 of a fresh cEOS), and the published configs leave
//     those out: an empty Ethernet stanza is dropped;
//   - the hostname line is the device's own (eos.md §2.1): the lab prints
//     its inventory name, which the test takes from the fixture's
//     hostname line, so it must be equal as is.
//
// Everything else (the "! Command:" line, the order of stanzas and of
// lines inside them, the 3-space indentation, "!" separators, the final
// "end") must be equal byte for byte.
func corpusNormal(t *testing.T, show, model string) string {
	t.Helper()
	lines := strings.SplitAfter(show, "\n")
	if len(lines) < 2 {
		t.Fatalf("no device line:\n%s", show)
	}
	m := deviceRe.FindStringSubmatch(strings.TrimSuffix(lines[1], "\n"))
	if m == nil {
		t.Fatalf("device line %q", lines[1])
	}
	if model == "" {
		model = m[2]
	}
	lines[1] = "! device: " + m[1] + " (" + model + ")\n"
	var kept []string
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "interface Ethernet") && i+1 < len(lines) && lines[i+1] == "!\n" {
			i++
			continue
		}
		kept = append(kept, lines[i])
	}
	return strings.Join(kept, "")
}

// TestCorpusPrintsBack: every fixture of testdata/realworld/eos (each
// SOURCE.md names its public source) loads unedited into the emulator,
// as the model its device line names when the lab emulates it, and its
// whole running config prints back equal, modulo corpusNormal.
func TestCorpusPrintsBack(t *testing.T) {
	files, err := filepath.Glob("../../../testdata/realworld/eos/*/running.cfg")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixture")
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			seed := readFile(t, f)
			host, model := "", ""
			for _, l := range strings.Split(seed, "\n") {
				if h, ok := strings.CutPrefix(l, "hostname "); ok {
					host = h
				}
				if m := deviceRe.FindStringSubmatch(l); m != nil && model == "" {
					model = m[2]
				}
			}
			if host == "" || model == "" {
				t.Fatal("fixture names no hostname or model")
			}
			var opts []eos.Option
			labModel := eos.Model
			if d, err := eos.New(host, nil, eos.WithModel(model)); err == nil && d != nil {
				opts, labModel = append(opts, eos.WithModel(model)), model
			}
			d, err := eos.New(host, []byte(seed), opts...)
			if err != nil {
				t.Fatal(err)
			}
			want := corpusNormal(t, seed, labModel)
			if diff := cmp.Diff(want, corpusNormal(t, string(d.Running()), "")); diff != "" {
				t.Errorf("printed back (-fixture +running):\n%s", diff)
			}
		})
	}
}
