package sonic

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// corpusFixtures are the config_db.json files of the SONiC real-world
// corpus, testdata/realworld/sonic/<fixture>/config_db.json.
func corpusFixtures(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "realworld", "sonic", "*", "config_db.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return files
}

// TestCorpusPrintsBack: every fixture of the SONiC corpus loads unedited
// into a device (New(hostname, seed), the config_db.json as `config load`
// writes it), and `show runningconfiguration all` prints the whole
// CONFIG_DB back equal to the fixture, as `config save` then writes it to
// /etc/sonic/config_db.json byte for byte. The device's own normalisation,
// each rule from its source:
//
//   - `show runningconfiguration all` adds one top-level key after the
//     tables, "bgpraw": the text of `rvtysh -c 'show running-config'`, or ""
//     when that command fails (sonic-utilities show/main.py, `all`:
//     `output['bgpraw'] = bgpraw` after json.loads of `sonic-cfggen -d
//     --print-data`, then json.dumps(output, indent=4)). The lab runs no
//     FRR, so the key is always "" (reference/sonic.md §7.4); `config save`
//     (sonic-cfggen -d --print-data alone) has no such key.
//   - The JSON form is json.dumps(…, indent=4): four-space indent, ", " /
//     ": " separators, ASCII escapes, a trailing newline from print
//     (sonic-cfggen main, `--print-data`).
//   - Tables and keys print in the order the device sorts them into,
//     whatever the order of the file that was loaded: natural order at the
//     first two levels (reference/sonic.md §7.4 [C]), and the fields of a
//     key in natural order too, as the reference's §5 form prints them
//     (DSCP_TO_TC_MAP "2" before "10"), not in the order they were
//     written. The corpus
//     fixtures are already in that order, so they print back byte for
//     byte; the same content loaded in another order and form (compact,
//     Go's byte order) prints back as the fixture.
//   - A key loaded as {} is stored as the placeholder field NULL=NULL and
//     prints as {} again: get_config reads every hash through raw_to_typed,
//     which skips NULL (swss-common common/configdb.h). The corpus has no
//     such key; TestConfigLoadMergesWithoutValidation checks it.
//   - Nothing else: no default is added or dropped (redis keeps what
//     sonic-cfggen -j wrote, every value a string, reference/sonic.md §1,
//     §7.1).
func TestCorpusPrintsBack(t *testing.T) {
	for _, f := range corpusFixtures(t) {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			seed, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			dev, err := defaultKind.New("", seed)
			if err != nil {
				t.Fatalf("the fixture does not load unedited: %v", err)
			}
			d := dev.(*Device)
			s := d.NewSession("admin", nil)
			out, _ := s.Handle("show runningconfiguration all")
			const bgpraw = ",\n    \"bgpraw\": \"\"\n}\n"
			got, ok := strings.CutSuffix(out, bgpraw)
			if !ok {
				t.Fatalf("show runningconfiguration all does not end in the bgpraw key:\n%s", tail(out))
			}
			if diff := cmp.Diff(string(seed), got+"\n}\n"); diff != "" {
				t.Errorf("show runningconfiguration all differs from the fixture (-fixture +shown):\n%s", diff)
			}
			// The same CONFIG_DB, whatever text it was shown as.
			var want, shown map[string]any
			if err := json.Unmarshal(seed, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(out), &shown); err != nil {
				t.Fatalf("show runningconfiguration all is not JSON: %v", err)
			}
			delete(shown, "bgpraw")
			if diff := cmp.Diff(want, shown); diff != "" {
				t.Errorf("CONFIG_DB differs from the fixture (-fixture +shown):\n%s", diff)
			}
			if out := transcript(s, "sudo config save -y"); !strings.Contains(out, cfggenSave) {
				t.Fatalf("config save: %s", out)
			}
			if saved, _ := s.Handle("cat /etc/sonic/config_db.json"); saved != string(seed) {
				t.Errorf("config save wrote another file than the fixture (-fixture +saved):\n%s", cmp.Diff(string(seed), saved))
			}

			// Loaded in another order and form, it prints back the same.
			compact, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			other, err := defaultKind.New("", compact)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(other.Running()); got != out {
				t.Errorf("the fixture re-encoded (compact, byte order) prints back otherwise (-fixture's +re-encoded's):\n%s", cmp.Diff(out, got))
			}
		})
	}
}

// tail is the end of a long output, for a failure message.
func tail(s string) string {
	if len(s) > 400 {
		return "…" + s[len(s)-400:]
	}
	return s
}
