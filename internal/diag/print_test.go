package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

const src = "qos_profile \"roce\" {\n  traffic_class \"a\" {\n    dscp = [24, 24]\n  }\n}\n"

func testDiags(t *testing.T) (map[string]*hcl.File, hcl.Diagnostics) {
	t.Helper()
	f, d := hclsyntax.ParseConfig([]byte(src), "qos.hcl", hcl.InitialPos)
	if d.HasErrors() {
		t.Fatal(d)
	}
	rng := hcl.Range{Filename: "qos.hcl", Start: hcl.Pos{Line: 3, Column: 17, Byte: 59}, End: hcl.Pos{Line: 3, Column: 19, Byte: 61}}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagWarning, Summary: "Late", Detail: "A warning.", Subject: &hcl.Range{Filename: "qos.hcl", Start: hcl.Pos{Line: 4, Column: 3, Byte: 65}, End: hcl.Pos{Line: 4, Column: 4, Byte: 66}}, Extra: Rule("LL023")},
		{Severity: hcl.DiagError, Summary: "Duplicate DSCP value", Detail: "DSCP 24 is already mapped.", Subject: &rng, Extra: Rule("LL012")},
		{Severity: hcl.DiagError, Summary: "No inventory", Detail: "Cannot read it."},
	}
	return map[string]*hcl.File{"qos.hcl": f}, diags
}

func TestSort(t *testing.T) {
	_, diags := testDiags(t)
	Sort(diags)
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	if diff := cmp.Diff([]string{"No inventory", "Duplicate DSCP value", "Late"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestWriteText(t *testing.T) {
	files, diags := testDiags(t)
	var b bytes.Buffer
	if err := WriteText(&b, files, diags[1:2], false, 0); err != nil {
		t.Fatal(err)
	}
	want := "Error [LL012]: Duplicate DSCP value\n\n  on qos.hcl:3:17, in qos_profile \"roce\":\n   3:     dscp = [24, 24]\n\nDSCP 24 is already mapped.\n\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	b.Reset()
	if err := WriteText(&b, files, diags[:1], true, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "\x1b[33mWarning [LL023]\x1b[0m: Late") {
		t.Errorf("coloured warning = %q", b.String())
	}
}

func TestJSON(t *testing.T) {
	_, diags := testDiags(t)
	for _, tt := range []struct {
		diags  hcl.Diagnostics
		strict bool
		valid  bool
	}{
		{diags, false, false},
		{diags[:1], false, true},
		{diags[:1], true, false},
		{nil, true, true},
	} {
		var b bytes.Buffer
		if err := WriteJSON(&b, tt.diags, tt.strict); err != nil {
			t.Fatal(err)
		}
		var doc JSONDocument
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Valid != tt.valid || doc.Valid == Failed(tt.diags, tt.strict) || doc.FormatVersion != JSONFormatVersion || len(doc.Diagnostics) != len(tt.diags) {
			t.Errorf("strict %v, %d diags: %+v", tt.strict, len(tt.diags), doc)
		}
	}
	doc := NewJSON(diags, false)
	want := JSONDiagnostic{Severity: "error", Summary: "Duplicate DSCP value", Detail: "DSCP 24 is already mapped.", Rule: "LL012",
		Range: &JSONRange{Filename: "qos.hcl", Start: JSONPos{Line: 3, Column: 17, Byte: 59}, End: JSONPos{Line: 3, Column: 19, Byte: 61}}}
	if diff := cmp.Diff(want, doc.Diagnostics[1]); diff != "" {
		t.Errorf("diagnostic (-want +got):\n%s", diff)
	}
	if doc.ErrorCount != 2 || doc.WarningCount != 1 || doc.Diagnostics[2].Range != nil {
		t.Errorf("counts %d/%d, sourceless range %v", doc.ErrorCount, doc.WarningCount, doc.Diagnostics[2].Range)
	}
}

// hclText prints diags with hcl's own writer over the whole files, as
// WriteText did before it printed snippets itself.
func hclText(t *testing.T, files map[string]*hcl.File, diags hcl.Diagnostics, color bool) string {
	t.Helper()
	var out strings.Builder
	for _, d := range diags {
		var buf bytes.Buffer
		if err := hcl.NewDiagnosticTextWriter(&buf, files, 78, color).WriteDiagnostic(d); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		if r := RuleOf(d); r != "" {
			word := "Error"
			if d.Severity == hcl.DiagWarning {
				word = "Warning"
			}
			i := strings.Index(text, word) + len(word)
			text = text[:i] + " [" + string(r) + "]" + text[i:]
		}
		if s := d.Subject; s != nil {
			text = strings.Replace(text, fmt.Sprintf("on %s line %d", s.Filename, s.Start.Line), fmt.Sprintf("on %s:%d:%d", s.Filename, s.Start.Line, s.Start.Column), 1)
		}
		out.WriteString(text)
	}
	return out.String()
}

// TestWriteTextSameAsHCL checks that WriteText prints what hcl's writer
// prints, snippets and block context included, for diagnostics of every
// shape: a subject within a line, across lines, empty, with a context
// block, at the end of the file, on CRLF lines, on blank lines.
func TestWriteTextSameAsHCL(t *testing.T) {
	src := "qos_profile \"roce\" {\r\n  traffic_class \"a\" {\n    dscp = [24,\n\n      26]\n  }\n}\n\nassign \"x\" {\n  devices = \"*\"\n}"
	f, d := hclsyntax.ParseConfig([]byte(src), "q.hcl", hcl.InitialPos)
	if d.HasErrors() {
		t.Fatal(d)
	}
	files := map[string]*hcl.File{"q.hcl": f}
	pos := func(b int) hcl.Pos {
		line, col := 1, 1
		for _, c := range src[:b] {
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return hcl.Pos{Line: line, Column: col, Byte: b}
	}
	rng := func(a, b int) *hcl.Range { return &hcl.Range{Filename: "q.hcl", Start: pos(a), End: pos(b)} }
	at := func(s string) int { return strings.Index(src, s) }
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Within a line", Detail: "d", Subject: rng(at("24"), at("24")+2), Extra: Rule("LL012")},
		{Severity: hcl.DiagError, Summary: "Across lines", Detail: "d", Subject: rng(at("[24"), at("26]")+3)},
		{Severity: hcl.DiagWarning, Summary: "Empty", Detail: "d", Subject: rng(at("dscp"), at("dscp"))},
		{Severity: hcl.DiagError, Summary: "With context", Detail: "d", Subject: rng(at("26"), at("26")+2), Context: rng(at("traffic_class"), at("{\n    dscp")+1)},
		{Severity: hcl.DiagError, Summary: "At the end", Detail: "d", Subject: rng(len(src), len(src))},
		{Severity: hcl.DiagError, Summary: "CRLF line", Detail: "d", Subject: rng(at("\"roce\""), at("\"roce\"")+6)},
		{Severity: hcl.DiagError, Summary: "Blank line", Detail: "d", Subject: rng(at("\n\n      26")+1, at("\n\n      26")+1)},
		{Severity: hcl.DiagError, Summary: "Other block", Detail: "d", Subject: rng(at("\"*\""), at("\"*\"")+3)},
		{Severity: hcl.DiagError, Summary: "No source", Detail: "d", Subject: &hcl.Range{Filename: "gone.hcl", Start: hcl.InitialPos, End: hcl.InitialPos}},
	}
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		if err := WriteText(&b, files, diags, color, 78); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(hclText(t, files, diags, color), b.String()); diff != "" {
			t.Errorf("color %v (-hcl +WriteText):\n%s", color, diff)
		}
	}
}

// TestWriteTextLongLine checks that a long snippet line is cut around
// what the diagnostic points at.
func TestWriteTextLongLine(t *testing.T) {
	src := "locals {\n  x = " + strings.Repeat("[", 5000) + "é" + strings.Repeat("]", 5000) + "\n}\n"
	f, _ := hclsyntax.ParseConfig([]byte(src), "deep.hcl", hcl.InitialPos)
	at := strings.Index(src, "[") + 128
	col := at - strings.Index(src, "\n") // the column of byte at on line 2
	rng := hcl.Range{Filename: "deep.hcl", Start: hcl.Pos{Line: 2, Column: col, Byte: at}, End: hcl.Pos{Line: 2, Column: col + 1, Byte: at + 1}}
	var b bytes.Buffer
	if err := WriteText(&b, map[string]*hcl.File{"deep.hcl": f}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Nesting too deep", Subject: &rng}}, false, 78); err != nil {
		t.Fatal(err)
	}
	want := "Error: Nesting too deep\n\n  on deep.hcl:2:" + fmt.Sprint(col) + ", in locals:\n   2: …" + strings.Repeat("[", 50) + "[" + strings.Repeat("[", 50) + "…\n\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
