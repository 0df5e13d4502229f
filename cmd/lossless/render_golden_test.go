package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRenderGoldenWorkflow uses -golden the way a network team's CI does on
// examples/ai-fabric: approve the renderings, change the intent, see CI
// fail with each affected device's diff, approve again, pass.
func TestRenderGoldenWorkflow(t *testing.T) {
	src := filepath.Join("..", "..", "examples", "ai-fabric")
	repo := t.TempDir()
	fabric := filepath.Join(repo, "fabric")
	copyDir(t, src, fabric)
	approved := filepath.Join(repo, "approved")

	if code, out, stderr := lossless(t, "render", "-golden", approved, "-update", fabric); code != 0 || !strings.Contains(out, "updated "+approved) {
		t.Fatalf("first -update: exit %d\n%s%s", code, out, stderr)
	}
	entries, _ := os.ReadDir(approved)
	if len(entries) < 4 {
		t.Fatalf("approved holds %d files, want one per device", len(entries))
	}
	if code, out, stderr := lossless(t, "render", "-golden", approved, fabric); code != 0 {
		t.Fatalf("unchanged intent: exit %d\n%s%s", code, out, stderr)
	}

	// The change under review: another ECN marking probability.
	changeIntent(t, fabric, regexp.MustCompile(`max_probability\s*=\s*\d+`), "max_probability = 42")
	code, out, stderr := lossless(t, "render", "-golden", approved, fabric)
	if code != 1 {
		t.Fatalf("changed intent: exit %d, want 1\n%s%s", code, out, stderr)
	}
	if !regexp.MustCompile(`(?m)^--- .*approved/[^ ]+\.(cfg|json)\n\+\+\+ [^ ]+ \(rendered\)\n@@ `).MatchString(out) || !strings.Contains(out, "42") {
		t.Errorf("no per-device unified diff showing the change:\n%s", out)
	}
	if !strings.Contains(stderr, "run with -update to approve") {
		t.Errorf("stderr does not say how to approve: %s", stderr)
	}

	// A file nobody renders is reported as extra.
	if err := os.WriteFile(filepath.Join(approved, "retired-leaf.cfg"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := lossless(t, "render", "-golden", approved, fabric); !strings.Contains(out, "extra: "+filepath.Join(approved, "retired-leaf.cfg")) {
		t.Errorf("extra file not listed:\n%s", out)
	}

	if code, out, stderr := lossless(t, "render", "-golden", approved, "-update", fabric); code != 0 {
		t.Fatalf("approving: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := lossless(t, "render", "-golden", approved, fabric); code != 0 {
		t.Fatalf("after approval: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(approved, "retired-leaf.cfg")); err == nil {
		t.Error("-update kept a file no device renders")
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// changeIntent replaces every match of re in the intent files of dir (not
// the inventory) and fails when nothing matched.
func changeIntent(t *testing.T, dir string, re *regexp.Regexp, repl string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
	changed := false
	for _, f := range files {
		if filepath.Base(f) == "inventory.hcl" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		nb := re.ReplaceAll(b, []byte(repl))
		if string(nb) != string(b) {
			changed = true
			if err := os.WriteFile(f, nb, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !changed {
		t.Fatalf("no intent file in %s matches %s", dir, re)
	}
}
