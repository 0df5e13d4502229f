package bounded

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/internal/diag"
)

// TestReadFile checks the size limit: a file over it is refused before it
// is read, with its first line kept for the snippet.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.hcl")
	if err := os.WriteFile(small, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := ReadFile(small); err != nil || string(src) != "x = 1\n" {
		t.Fatalf("ReadFile = %q, %v", src, err)
	}
	big := filepath.Join(dir, "big.hcl")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: MaxFileSize+1 bytes without writing them.
	if _, err := f.WriteString("locals { # the first line\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadFile(big)
	d := SizeDiagnostic(err)
	if d == nil || diag.RuleOf(d) != RuleFileSize || d.Subject.Filename != big || d.Subject.Start.Line != 1 {
		t.Fatalf("ReadFile(big) = %v, diagnostic %v", err, d)
	}
	var se *SizeError
	if !strings.Contains(err.Error(), "larger than") || !errors.As(err, &se) || string(se.Head) != "locals { # the first line\n" {
		t.Errorf("error %v, head %q", err, se.Head)
	}
	if _, err := ReadFile(filepath.Join(dir, "none.hcl")); err == nil || SizeDiagnostic(err) != nil {
		t.Errorf("missing file: %v", err)
	}
}

// TestBudgetTotal checks that the files of one load count together.
func TestBudgetTotal(t *testing.T) {
	var b Budget
	half := []byte("# " + strings.Repeat("x", MaxFileSize/2) + "\n")
	if _, diags := b.Parse(half, "a.hcl"); diags.HasErrors() {
		t.Fatal(diags)
	}
	_, diags := b.Parse(half, "b.hcl")
	if len(diags) != 1 || diag.RuleOf(diags[0]) != RuleFileSize || diags[0].Subject.Filename != "b.hcl" {
		t.Fatalf("second half: %v", diags)
	}
	if _, diags := b.ParseExpression([]byte("[[1]]"), "v", hcl.InitialPos); !diags.HasErrors() {
		t.Error("a -var over the total is read")
	}
}

// TestParseExpressionPosition checks that a -var value over a limit is
// reported where the value starts.
func TestParseExpressionPosition(t *testing.T) {
	var b Budget
	start := hcl.Pos{Line: 3, Column: 5, Byte: 40}
	_, diags := b.ParseExpression([]byte(strings.Repeat("[", MaxNesting+1)), "<value for var.x>", start)
	if len(diags) != 1 || diag.RuleOf(diags[0]) != RuleNesting {
		t.Fatalf("diagnostics %v", diags)
	}
	if got := diags[0].Subject.Start; got.Line != 3 || got.Column != 5+MaxNesting || got.Byte != 40+MaxNesting {
		t.Errorf("subject starts at %#v", got)
	}
}
