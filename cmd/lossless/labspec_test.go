package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/load"
)

// TestPlanLabExample: plan -lab on the README's example builds every lab
// device as its inventory model with its ports, so no device's seed is
// refused (the Huawei CE leaf and spine take their 400GE ports and the
// CE8850-HAM its family A commands) and every device plans.
func TestPlanLabExample(t *testing.T) {
	r := cli(t, "plan", "-lab", "-log-level", "warn", "../../examples/ai-fabric")
	if r.code != 0 {
		t.Fatalf("plan -lab:\n%s", r)
	}
	if !regexp.MustCompile(`(?m)^\d+ to change, \d+ unchanged, 0 failed\n$`).MatchString(r.stdout) {
		t.Errorf("plan does not end with 0 failed:\n%s", r)
	}
	refused := map[string]string{}
	for _, line := range strings.Split(r.stderr, "\n") {
		if !strings.Contains(line, "lab refused the seed") {
			continue
		}
		m := regexp.MustCompile(`device=(\S+)`).FindStringSubmatch(line)
		if m == nil {
			t.Errorf("refusal without a device: %s", line)
			continue
		}
		refused[m[1]] = line
	}
	for _, dev := range []string{"leaf1", "leaf2", "leaf3", "leaf4", "spine1", "spine2", "spine3", "spine4"} {
		if got, ok := refused[dev]; ok {
			t.Errorf("%s: %s", dev, got)
		}
	}
	for _, dev := range []string{"leaf3", "spine3"} {
		if !strings.Contains(r.stdout, "# "+dev+" (huawei-ce): to change") {
			t.Errorf("no plan for %s:\n%s", dev, r.stdout)
		}
	}
}

// TestLabUpInventoryModels: lab up -inventory starts each device as the
// inventory's model (the canonical catalog name) and says so in the
// inventory it writes.
func TestLabUpInventoryModels(t *testing.T) {
	t.Setenv(lab.UserEnv, "")
	t.Setenv(lab.PasswordEnv, "")
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	src := "../../examples/ai-fabric/inventory.hcl"
	go func() {
		code := run(ctx, []string{"lab", "up", "-inventory", src, "-out", dir}, pw, &stderr)
		_ = pw.Close()
		done <- code
	}()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "Running until interrupted") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	want, diags := load.Inventory(src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got, diags := load.Inventory(filepath.Join(dir, "inventory.hcl"))
	if diags.HasErrors() {
		t.Fatalf("written inventory: %v\nstderr:\n%s", diags, stderr.String())
	}
	for _, w := range want.Devices {
		g := got.Device(w.Name)
		if g == nil {
			t.Errorf("%s not started", w.Name)
			continue
		}
		if g.Platform == nil || w.Platform == nil || g.Platform.Model != w.Platform.Model {
			t.Errorf("%s: lab platform %q, inventory %q", w.Name, g.Model, w.Model)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit code %d, stderr:\n%s", code, stderr.String())
	}
}
