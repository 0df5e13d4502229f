package diag

import (
	"bytes"
	"encoding/json"
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
