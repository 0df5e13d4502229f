package sonicyang

import (
	"bufio"
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/sonicyang/yangtest"
)

// relYANG is the YANG folder as gen.go names it, relative to this package.
const relYANG = "../../../shared/yang/sonic"

// TestGeneratedUpToDate runs the generator command of gen.go's
// //go:generate line into a temporary file and compares the gofmt'd result
// with the committed sonic.go: the structs match the YANG in shared/.
func TestGeneratedUpToDate(t *testing.T) {
	yangtest.GeneratedCheck(t)
	dir := yangtest.SonicDir(t)
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	args := generateArgs(t)
	out := filepath.Join(t.TempDir(), "sonic.go")
	for i, a := range args {
		a = strings.ReplaceAll(a, relYANG, abs)
		if a == "-output_file=sonic.go" {
			a = "-output_file=" + out
		}
		args[i] = a
	}
	cmd := exec.CommandContext(t.Context(), "go", args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got = bytes.ReplaceAll(got, []byte(abs), []byte(relYANG))
	if got, err = format.Source(got); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("sonic.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("sonic.go is out of date with the YANG or the generator command: run `go generate ./internal/sonicyang`")
	}
}

// generateArgs returns the arguments of gen.go's generator line after "go".
func generateArgs(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("gen.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "//go:generate go run "); ok {
			return append([]string{"run"}, strings.Fields(rest)...)
		}
	}
	t.Fatal("gen.go has no //go:generate go run line")
	return nil
}
