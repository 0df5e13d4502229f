package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

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
// detail (0 for no wrapping).
func WriteText(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics, color bool, width uint) error {
	for _, d := range diags {
		var buf bytes.Buffer
		tw := hcl.NewDiagnosticTextWriter(&buf, files, width, color)
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
			text = strings.Replace(text,
				fmt.Sprintf("on %s line %d", s.Filename, s.Start.Line),
				fmt.Sprintf("on %s:%d:%d", s.Filename, s.Start.Line, s.Start.Column), 1)
		}
		if _, err := io.WriteString(w, text); err != nil {
			return fmt.Errorf("write diagnostic: %w", err)
		}
	}
	return nil
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
