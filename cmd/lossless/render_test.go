package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lossless runs the CLI in-process and returns exit code, stdout, stderr.
func lossless(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRenderFlags(t *testing.T) {
	code, out, stderr := lossless(t, "render", "-help")
	if code != 0 || stderr != "" || strings.Count(out, "Usage: lossless render") != 1 {
		t.Errorf("-help: exit %d, stderr %q, usage printed %d times", code, stderr, strings.Count(out, "Usage: lossless render"))
	}
	for _, want := range []string{"Usage: lossless render", "Examples:", "-o DIR", "-device NAME", "-format FORMAT", "-golden DIR", "-update", "-inventory FILE", "-var NAME=VALUE", "-var-file FILE", "-parallelism N"} {
		if !strings.Contains(out, want) {
			t.Errorf("-help lacks %q", want)
		}
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"render", "-bogus"}, "flag provided but not defined"},
		{[]string{"render", "-update", "."}, "-update needs -golden DIR"},
		{[]string{"render", "-format", "xml", "."}, `-format "xml"`},
		{[]string{"render", "-golden", "g", "-device", "x", "."}, "cannot be combined"},
		{[]string{"render", "a", "b"}, "one intent directory expected"},
		{[]string{"render", filepath.Join(t.TempDir(), "none")}, "Error"},
	} {
		code, _, stderr := lossless(t, tc.args...)
		if code != 1 || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.msg)
		}
	}
}

func TestRenderCanonical(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "canonical")
	want, err := os.ReadFile(filepath.Join(dir, "want", "nxos1.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := lossless(t, "render", "-device", "nxos1", dir)
	if code != 0 || out != string(want) {
		t.Errorf("render -device nxos1: exit %d, stderr %s\nstdout:\n%s\nwant:\n%s", code, stderr, out, want)
	}
	if code, _, stderr := lossless(t, "render", "-device", "nope", dir); code != 1 || !strings.Contains(stderr, `no device "nope"`) {
		t.Errorf("unknown device: exit %d, %s", code, stderr)
	}
	if code, _, stderr := lossless(t, "render", dir); code != 1 || !strings.Contains(stderr, "give -o DIR") {
		t.Errorf("several devices to stdout: exit %d, %s", code, stderr)
	}
	outDir := t.TempDir()
	code, out, _ = lossless(t, "render", "-device", "eos1", "-o", outDir, dir)
	got, err := os.ReadFile(filepath.Join(outDir, "eos1.cfg"))
	wantEOS, _ := os.ReadFile(filepath.Join(dir, "want", "eos1.cfg"))
	if code != 0 || err != nil || string(got) != string(wantEOS) || strings.TrimSpace(out) != filepath.Join(outDir, "eos1.cfg") {
		t.Errorf("render -o: exit %d, %v, stdout %q", code, err, out)
	}
}

func TestRenderFormatYANG(t *testing.T) {
	dir := filepath.Join("..", "..", "golden", "canonical")
	code, out, stderr := lossless(t, "render", "-format", "yang", "-device", "sonic1", dir)
	if code != 0 || !strings.HasPrefix(out, "{") {
		t.Errorf("yang for sonic1: exit %d, stderr %s, stdout starts %.40q", code, stderr, out)
	}
	code, _, stderr = lossless(t, "render", "-format", "yang", "-device", "nxos1", dir)
	if code != 1 || !strings.Contains(stderr, `vendor "nxos" has no "yang" format`) {
		t.Errorf("yang for nxos1: exit %d, stderr %s", code, stderr)
	}
}
