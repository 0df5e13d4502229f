package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompareAndUpdate(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("same.cfg", "a\n")
	write("changed.cfg", "a\nb\n")
	write("gone.json", "{}\n")
	write("README.md", "not a golden file\n")
	got := map[string][]byte{
		"same.cfg":    []byte("a\n"),
		"changed.cfg": []byte("a\nc\n"),
		"new.cfg":     []byte("n\n"),
	}
	ms, err := Compare(dir, got)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, m := range ms {
		kinds = append(kinds, m.File+" "+m.Kind.String())
	}
	if diff := cmp.Diff([]string{"changed.cfg differs", "gone.json extra", "new.cfg missing"}, kinds); diff != "" {
		t.Fatalf("mismatches (-want +got):\n%s", diff)
	}
	if !strings.Contains(ms[0].Diff, "-b\n+c\n") || !strings.HasPrefix(ms[0].Diff, "--- "+filepath.Join(dir, "changed.cfg")+"\n+++ changed.cfg (rendered)\n") {
		t.Errorf("diff:\n%s", ms[0].Diff)
	}
	var report strings.Builder
	Report(&report, dir, ms)
	for _, want := range []string{"-b\n+c\n", "missing: " + dir + " has no new.cfg", "extra: " + filepath.Join(dir, "gone.json")} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, report.String())
		}
	}

	if err := Update(dir, got); err != nil {
		t.Fatal(err)
	}
	if ms, err := Compare(dir, got); err != nil || len(ms) != 0 {
		t.Fatalf("after Update: %v, %v", ms, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Errorf("Update removed a file that is not a golden file: %v", err)
	}
	if err := Update(dir, map[string][]byte{"../escape.cfg": nil}); err == nil {
		t.Error("Update accepted a path outside dir")
	}
	// A directory that does not exist yet is empty.
	ms, err = Compare(filepath.Join(dir, "none"), map[string][]byte{"x.cfg": nil})
	if err != nil || len(ms) != 1 || ms[0].Kind != Missing {
		t.Errorf("Compare on a missing dir: %v, %v", ms, err)
	}
}
