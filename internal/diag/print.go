package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// Sort orders diagnostics for printing: sourceless ones first, then by
// file name and position; equal positions keep their order.
func Sort(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		default:
			return a.Start.Byte < b.Start.Byte
		}
	})
}

// WriteText prints diags the way Terraform does: severity, rule and
// summary, the file:line:col with a source snippet from files, then the
// detail. color adds ANSI colours (only for a terminal); width wraps the
// detail (0 for no wrapping). A snippet line longer than maxSnippetLine
// bytes is cut to the part around what the diagnostic points at. Each
// file is indexed once, so a large file with many diagnostics prints in
// time linear in the output.
func WriteText(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics, color bool, width uint) error {
	lines := map[string][]int32{}
	for _, d := range diags {
		var buf bytes.Buffer
		// hcl's writer is given no files: it would scan a file from its
		// start for every diagnostic. It writes "(source code not
		// available)" where the snippet goes, which is replaced below.
		tw := hcl.NewDiagnosticTextWriter(&buf, nil, width, color)
		if err := tw.WriteDiagnostic(d); err != nil {
			return fmt.Errorf("write diagnostic: %w", err)
		}
		text := buf.String()
		if r := RuleOf(d); r != "" {
			// "Error: …" becomes "Error [LL012]: …"; with colour the word
			// is wrapped in escape codes, so insert right after it.
			word := "Error"
			if d.Severity == hcl.DiagWarning {
				word = "Warning"
			}
			if i := strings.Index(text, word); i >= 0 {
				i += len(word)
				text = text[:i] + " [" + string(r) + "]" + text[i:]
			}
		}
		if s := d.Subject; s != nil {
			// hcl prints "on FILE line N"; print FILE:LINE:COL instead,
			// which editors and CI annotations jump to.
			header := fmt.Sprintf("  on %s line %d:\n  (source code not available)\n", s.Filename, s.Start.Line)
			where := fmt.Sprintf("  on %s:%d:%d", s.Filename, s.Start.Line, s.Start.Column)
			snippet := where + ":\n  (source code not available)\n"
			if f := files[s.Filename]; f != nil && f.Bytes != nil {
				idx, ok := lines[s.Filename]
				if !ok {
					idx = lineStarts(f.Bytes)
					lines[s.Filename] = idx
				}
				if c := contextString(f, s.Start.Byte); c != "" {
					where += ", in " + c
				}
				snippet = where + ":\n" + snippetLines(f.Bytes, idx, d, color)
			}
			text = strings.Replace(text, header, snippet, 1)
		}
		if _, err := io.WriteString(w, text); err != nil {
			return fmt.Errorf("write diagnostic: %w", err)
		}
	}
	return nil
}

// maxSnippetLine is the longest snippet line printed whole, in bytes.
const maxSnippetLine = 200

// lineStarts returns the byte offset of the start of every line of src
// (4 bytes a line: a file of a million lines takes 4 MB).
func lineStarts(src []byte) []int32 {
	starts := make([]int32, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, int32(i))
	}
}

// contextString is the header of the block that holds offset ("qos_profile
// \"roce\""), as hcl's writer prints it after "in".
func contextString(f *hcl.File, offset int) string {
	if c, ok := f.Nav.(interface{ ContextString(offset int) string }); ok {
		return c.ContextString(offset)
	}
	return ""
}

// snippetLines writes the source lines of d as hcl's writer does: every
// line overlapping its subject and context, numbered, the subject
// highlighted when color is set; starts holds the offset of each line of
// src.
func snippetLines(src []byte, starts []int32, d *hcl.Diagnostic, color bool) string {
	snip := *d.Subject
	highlight := snip
	if d.Context != nil {
		snip = hcl.RangeOver(snip, *d.Context)
	}
	// An empty range cannot be shown: hcl's writer widens it by a byte.
	if snip.Empty() {
		snip.End.Byte++
		snip.End.Column++
	}
	if highlight.Empty() {
		highlight.End.Byte++
		highlight.End.Column++
	}
	var hl, reset string
	if color {
		hl, reset = "\x1b[1;4m", "\x1b[0m"
	}
	lineOf := func(b int) int {
		return max(sort.Search(len(starts), func(i int) bool { return int(starts[i]) > b })-1, 0)
	}
	var out strings.Builder
	for n := lineOf(max(snip.Start.Byte, 0)); n <= lineOf(min(snip.End.Byte, len(src))) && n < len(starts); n++ {
		start, end := int(starts[n]), len(src)
		if n+1 < len(starts) {
			end = int(starts[n+1]) - 1
		}
		end = max(start, min(end, len(src)))
		if end > start && src[end-1] == '\r' {
			end--
		}
		line := hcl.Range{Filename: snip.Filename, Start: hcl.Pos{Line: n + 1, Byte: start}, End: hcl.Pos{Line: n + 1, Byte: end}}
		if !line.Overlaps(snip) {
			continue
		}
		before, mid, after := line.PartitionAround(highlight)
		if mid.Empty() {
			before, mid, after = line, hcl.Range{Start: line.End, End: line.End}, hcl.Range{Start: line.End, End: line.End}
		}
		b, m, a := cutLine(before.SliceBytes(src), mid.SliceBytes(src), after.SliceBytes(src))
		if len(m) == 0 {
			fmt.Fprintf(&out, "%4d: %s\n", n+1, b)
		} else {
			fmt.Fprintf(&out, "%4d: %s%s%s%s%s\n", n+1, b, hl, m, reset, a)
		}
	}
	return out.String()
}

// cutLine shortens a snippet line longer than maxSnippetLine, split into
// the text before the highlighted part, the part and the text after it:
// it keeps the start of the part with some text around it, and marks
// each cut with "…". Cuts fall between characters.
func cutLine(before, mid, after []byte) (string, string, string) {
	if len(before)+len(mid)+len(after) <= maxSnippetLine {
		return string(before), string(mid), string(after)
	}
	const around = maxSnippetLine / 4
	b, m, a := string(before), string(mid), string(after)
	if len(b) > around {
		b = "…" + b[runeStart(b, len(b)-around):]
	}
	if len(m) > 2*around {
		m, a = m[:runeStart(m, 2*around)]+"…", ""
	} else if len(a) > around {
		a = a[:runeStart(a, around)] + "…"
	}
	return b, m, a
}

// runeStart moves i back to the start of the character that holds it.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// JSONFormatVersion is the format_version of WriteJSON's document.
const JSONFormatVersion = "1.0"

// JSONDocument is what WriteJSON prints.
type JSONDocument struct {
	FormatVersion string           `json:"format_version"`
	Valid         bool             `json:"valid"`
	ErrorCount    int              `json:"error_count"`
	WarningCount  int              `json:"warning_count"`
	Diagnostics   []JSONDiagnostic `json:"diagnostics"`
}

// JSONDiagnostic is one diagnostic in JSON, shaped like Terraform's
// `validate -json` output plus the rule ID.
type JSONDiagnostic struct {
	Severity string     `json:"severity"` // "error" or "warning"
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail"`
	Rule     string     `json:"rule,omitempty"`
	Range    *JSONRange `json:"range,omitempty"`
}

// JSONRange is a source range; lines and columns count from 1, bytes
// from 0.
type JSONRange struct {
	Filename string  `json:"filename"`
	Start    JSONPos `json:"start"`
	End      JSONPos `json:"end"`
}

// JSONPos is one position in a file.
type JSONPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// NewJSON converts diags to the JSON document. valid is false when any is
// an error, or, with strict, a warning.
func NewJSON(diags hcl.Diagnostics, strict bool) JSONDocument {
	doc := JSONDocument{FormatVersion: JSONFormatVersion, Diagnostics: []JSONDiagnostic{}}
	for _, d := range diags {
		jd := JSONDiagnostic{Summary: d.Summary, Detail: d.Detail, Rule: string(RuleOf(d))}
		if d.Severity == hcl.DiagWarning {
			jd.Severity = "warning"
			doc.WarningCount++
		} else {
			jd.Severity = "error"
			doc.ErrorCount++
		}
		if s := d.Subject; s != nil {
			jd.Range = &JSONRange{
				Filename: s.Filename,
				Start:    JSONPos{Line: s.Start.Line, Column: s.Start.Column, Byte: s.Start.Byte},
				End:      JSONPos{Line: s.End.Line, Column: s.End.Column, Byte: s.End.Byte},
			}
		}
		doc.Diagnostics = append(doc.Diagnostics, jd)
	}
	doc.Valid = doc.ErrorCount == 0 && (!strict || doc.WarningCount == 0)
	return doc
}

// WriteJSON prints diags as one indented JSON document.
func WriteJSON(w io.Writer, diags hcl.Diagnostics, strict bool) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(NewJSON(diags, strict)); err != nil {
		return fmt.Errorf("write diagnostics: %w", err)
	}
	return nil
}

// Failed reports whether diags make a run fail: any error, or with strict
// any warning.
func Failed(diags hcl.Diagnostics, strict bool) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError || strict && d.Severity == hcl.DiagWarning {
			return true
		}
	}
	return false
}
