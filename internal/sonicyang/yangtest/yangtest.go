// Package yangtest helps tests check SONiC instances with yanglint: it
// finds the SONiC YANG folder and runs the command of
// shared/yang/sonic/examples/README.md. Without yanglint or the folder a
// test is skipped with a message, except when CI=true, where both must be
// present and their absence fails the test.
package yangtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// sonicYANG is the SONiC YANG folder next to the repository;
// $LOSSLESS_YANG_DIR stands for its parent, shared/yang.
const sonicYANG = "shared/yang/sonic"

// SonicDir returns the folder holding the SONiC YANG modules: $LOSSLESS_YANG_DIR/sonic,
// or shared/yang/sonic found next to the repository by walking up from the
// working directory.
func SonicDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("LOSSLESS_YANG_DIR"); d != "" {
		dir := filepath.Join(d, filepath.Base(sonicYANG))
		if _, err := os.Stat(filepath.Join(dir, "sonic-types.yang")); err != nil {
			missing(t, "LOSSLESS_YANG_DIR="+d+" has no sonic/sonic-types.yang")
		}
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		for _, c := range []string{filepath.Join(d, filepath.FromSlash(sonicYANG)), filepath.Join(d, "..", filepath.FromSlash(sonicYANG))} {
			if _, err := os.Stat(filepath.Join(c, "sonic-types.yang")); err == nil {
				return filepath.Clean(c)
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	missing(t, "no shared/yang/sonic next to the repository above "+wd+" and LOSSLESS_YANG_DIR is unset")
	return ""
}

// Yanglint returns the yanglint binary's path.
func Yanglint(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("yanglint")
	if err != nil {
		missing(t, "yanglint is not on PATH (apt-get install libyang2-tools)")
	}
	return p
}

// Run validates the instance files against every module in dir, and
// returns yanglint's output and error; a nil error means valid. yanglint
// 2.1 validates each data file on its own before merging them, so rows a
// file refers to must be in the same file.
func Run(ctx context.Context, t testing.TB, dir string, files ...string) (string, error) {
	t.Helper()
	bin := Yanglint(t)
	mods, err := filepath.Glob(filepath.Join(dir, "*.yang"))
	if err != nil || len(mods) == 0 {
		t.Fatalf("no YANG modules in %s", dir)
	}
	args := append([]string{"-Q", "-i", "-t", "config", "-p", dir}, mods...)
	args = append(args, files...)
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	return string(out), err
}

func missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s; CI=true requires it", why)
	}
	t.Skip(why)
}

// GeneratedEnv names the environment variable that turns on the
// generated-code freshness tests (TestGeneratedUpToDate in
// internal/sonicyang and internal/ocqos). They build and run the ygot
// generator, which costs more than the rest of the suite, so a plain
// `go test ./...` skips them and .ci/run runs them once in their own step.
const GeneratedEnv = "LOSSLESS_CHECK_GENERATED"

// GeneratedCheck skips t unless GeneratedEnv is set to 1.
func GeneratedCheck(t testing.TB) {
	t.Helper()
	if os.Getenv(GeneratedEnv) != "1" {
		t.Skip("generated-code freshness check: runs with " + GeneratedEnv + "=1 (.ci/run's generated-code step)")
	}
}
