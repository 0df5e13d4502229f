package bounded

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
)

// A Budget is what one load (the intent with its variable files, or an
// inventory) may read and build: MaxFileSize bytes of source holding
// MaxItems items, and MaxBuilt values and MaxBuiltBytes bytes of strings
// built by evaluating it. Parse, ParseJSON and
// ParseExpression charge it with what they read and put guards in the
// syntax tree they return that charge it with what evaluating it builds;
// Functions gives function tables that do the same. Once it is spent,
// evaluation goes on with unknown values and no further diagnostic, so
// the first one stays the one that names the limit. The zero value is
// ready to use; a Budget is not safe for concurrent use.
type Budget struct {
	read, items, values, bytes int
	spent                      bool
}

// charge adds what an expression at rng built. It returns false when the
// budget is spent, with a diagnostic the first time.
func (b *Budget) charge(values, bytes int, rng hcl.Range) (bool, *hcl.Diagnostic) {
	if b.spent {
		return false, nil
	}
	b.values += values
	b.bytes += bytes
	if b.values <= MaxBuilt && b.bytes <= MaxBuiltBytes {
		return true, nil
	}
	b.spent = true
	return false, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Too many values",
		Detail: fmt.Sprintf("Here the values built by evaluating the expressions pass %d, or %d MiB of strings, lossless' limit for one intent or inventory. Nested for expressions, or templates that repeat a large value, build far more than they are written with: build the value in smaller steps.",
			MaxBuilt, MaxBuiltBytes>>20),
		Subject: &rng,
		Extra:   RuleBudget,
	}
}

// count adds the items of a source about to be read, which the file
// starts at: a diagnostic when the load holds more than MaxItems.
func (b *Budget) count(items int, filename string, start hcl.Pos) *hcl.Diagnostic {
	b.items += items
	if b.items <= MaxItems {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Too many values",
		Detail: fmt.Sprintf("With this file, the files read hold more than %d items (values, attributes and blocks), lossless' limit for one intent or inventory; nothing of this file was parsed.",
			MaxItems),
		Subject: &hcl.Range{Filename: filename, Start: start, End: start},
		Extra:   RuleBudget,
	}
}

// Spent reports whether b ran out.
func (b *Budget) Spent() bool { return b.spent }

// A SizeError is a file larger than MaxFileSize, from ReadFile.
type SizeError struct {
	Path string
	Size int64
	// Head is the file's first line (at most 1 KiB of it), for the
	// diagnostic's snippet.
	Head []byte
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("read %s: %d bytes, larger than the %d-byte limit", e.Path, e.Size, MaxFileSize)
}

// Diagnostic is e as an LL090 diagnostic at the file's first line; show
// it against a file holding e.Head.
func (e *SizeError) Diagnostic() *hcl.Diagnostic {
	return sizeDiag(e.Path, e.Size, false)
}

func sizeDiag(filename string, size int64, together bool) *hcl.Diagnostic {
	rng := hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos}
	what := fmt.Sprintf("This file is %d bytes", size)
	if together {
		what = fmt.Sprintf("With this file, the files read together are %d bytes", size)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "File too large",
		Detail: fmt.Sprintf("%s; lossless reads at most %d bytes (%d MiB) for the intent and as much for the inventory. Nothing of it was parsed.",
			what, MaxFileSize, MaxFileSize>>20),
		Subject: &rng,
		Extra:   RuleFileSize,
	}
}

// ReadFile reads the file at path unless it is larger than MaxFileSize,
// which is checked before anything is read and gives a *SizeError.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if st, err := f.Stat(); err == nil {
		if st.Size() > MaxFileSize {
			return nil, &SizeError{Path: path, Size: st.Size(), Head: head(f)}
		}
		buf.Grow(int(st.Size()) + bytes.MinRead)
	}
	// The limit holds for the bytes read too, for a file whose size the
	// file system does not tell (a pipe) or that is still growing.
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1)); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if buf.Len() > MaxFileSize {
		return nil, &SizeError{Path: path, Size: int64(buf.Len()), Head: firstLine(buf.Bytes())}
	}
	return buf.Bytes(), nil
}

// SizeDiagnostic returns err's diagnostic when err is a *SizeError, nil
// otherwise.
func SizeDiagnostic(err error) *hcl.Diagnostic {
	var se *SizeError
	if errors.As(err, &se) {
		return se.Diagnostic()
	}
	return nil
}

func head(f *os.File) []byte {
	buf := make([]byte, 1024)
	n, _ := io.ReadFull(f, buf)
	return firstLine(buf[:n])
}

func firstLine(b []byte) []byte {
	b = b[:min(len(b), 1024)]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	}
	return bytes.Clone(b)
}

// sourceOnly is the file of a source that was not parsed: its bytes, for
// snippets, and an empty body.
func sourceOnly(src []byte, filename string) *hcl.File {
	f, _ := hclsyntax.ParseConfig(nil, filename, hcl.InitialPos)
	f.Bytes = src
	return f
}

// take charges b with a source about to be parsed.
func (b *Budget) take(src []byte, filename string) *hcl.Diagnostic {
	b.read += len(src)
	switch {
	case len(src) > MaxFileSize:
		return sizeDiag(filename, int64(len(src)), false)
	case b.read > MaxFileSize:
		return sizeDiag(filename, int64(b.read), true)
	}
	return nil
}

// Parse parses HCL native syntax within the limits and charges b: src is
// at most MaxFileSize bytes, nests at most MaxNesting levels and holds at
// most MaxElements items in any list, object, block or file, all checked
// before the lexer runs. It gives what hclsyntax.ParseConfig gives (the
// same syntax tree, ranges and diagnostics), with guards in the tree that
// charge b when it is evaluated. A source over a limit gives a file with
// its bytes (for snippets), an empty body and the diagnostic of the first
// limit exceeded.
func (b *Budget) Parse(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if d := b.take(src, filename); d != nil {
		return sourceOnly(src, filename), hcl.Diagnostics{d}
	}
	d, items := scan(src, filename)
	if d == nil {
		d = b.count(items, filename, hcl.InitialPos)
	}
	if d != nil {
		return sourceOnly(src, filename), hcl.Diagnostics{d}
	}
	f, diags := parseFile(src, filename)
	// Only for expressions, templates and calls cut short by a syntax
	// error need the walk, which allocates for every node.
	if body, ok := f.Body.(*hclsyntax.Body); ok && (diags.HasErrors() || hasWord(src, "for") || bytes.ContainsAny(src, "$%")) {
		b.guard(body)
	}
	return f, diags
}

// hasWord reports whether src holds word with no identifier character
// either side.
func hasWord(src []byte, word string) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(word))
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(word)
		if (at == 0 || !identByte(src[at-1], true)) && (end == len(src) || !identByte(src[end], true)) {
			return true
		}
		i = end
	}
}

// ParseExpression parses one expression of HCL native syntax (a -var
// value) starting at start, within the limits of Parse. On a limit it
// returns a nil expression.
func (b *Budget) ParseExpression(src []byte, filename string, start hcl.Pos) (hclsyntax.Expression, hcl.Diagnostics) {
	if d := b.take(src, filename); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	d, items := scan(src, filename)
	if d == nil {
		d = b.count(items, filename, start)
	}
	if d != nil {
		shift(d.Subject, start)
		return nil, hcl.Diagnostics{d}
	}
	expr, diags := hclsyntax.ParseExpression(src, filename, start)
	if expr != nil {
		b.guard(expr)
	}
	return expr, diags
}

// shift moves r, a range in a source that starts at the beginning of a
// file, to a source that starts at start.
func shift(r *hcl.Range, start hcl.Pos) {
	for _, p := range []*hcl.Pos{&r.Start, &r.End} {
		if p.Line == 1 {
			p.Column += start.Column - 1
		}
		p.Line += start.Line - 1
		p.Byte += start.Byte
	}
}

// ParseJSON parses a JSON file (a *.json variable file) within the
// limits of Parse.
func (b *Budget) ParseJSON(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if d := b.take(src, filename); d != nil {
		return &hcl.File{Bytes: src, Body: hcl.EmptyBody()}, hcl.Diagnostics{d}
	}
	d, items := scanJSON(src, filename)
	if d == nil {
		d = b.count(items, filename, hcl.InitialPos)
	}
	if d != nil {
		return &hcl.File{Bytes: src, Body: hcl.EmptyBody()}, hcl.Diagnostics{d}
	}
	return json.Parse(src, filename)
}

// ScanYAML checks a YAML source (a containerlab topology) before it is
// decoded: at most MaxFileSize bytes, and at most MaxItems lines and
// commas, a generous count of the nodes the YAML decoder would build
// (gopkg.in/yaml.v3 refuses nesting deeper than 10,000 on its own). It
// returns the diagnostic of the first limit exceeded, nil for none.
func (b *Budget) ScanYAML(src []byte, filename string) *hcl.Diagnostic {
	if d := b.take(src, filename); d != nil {
		return d
	}
	items := bytes.Count(src, []byte{','})
	for line := range bytes.Lines(src) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			items++
		}
	}
	return b.count(items, filename, hcl.InitialPos)
}
