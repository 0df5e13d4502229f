package bounded

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// fixtures are the inventory's and the intent's HCL test files, but for
// those scan keeps from the parser (too deep, a number out of range).
func fixtures(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, g := range []string{"../../inventory/testdata/*.hcl", "../../inventory/testdata/invalid/*.hcl", "../testdata/valid/*.hcl", "../testdata/invalid/*.hcl"} {
		m, err := filepath.Glob(g)
		if err != nil || len(m) == 0 {
			t.Fatalf("no fixtures %s", g)
		}
		for _, p := range m {
			if b := filepath.Base(p); b != "LL091_nesting.hcl" && b != "LL092_number.hcl" {
				out = append(out, p)
			}
		}
	}
	return out
}

// fabricInventory generates an inventory of n devices with 64 ports each,
// cycling through four vendors, and a link from port 64 of every even
// device to port 63 of the next one.
func fabricInventory(n int) []byte {
	var b bytes.Buffer
	b.WriteString("credentials \"ops\" {\n  username_env = \"U\"\n  password_env = \"P\"\n}\n")
	vendors := []struct{ vendor, model, ports, last, prev string }{
		{"nxos", "N9K-C9364D-GX2A", "Ethernet1/1-64", "Ethernet1/64", "Ethernet1/63"},
		{"eos", "DCS-7060DX5-64S", "Ethernet1-64", "Ethernet64", "Ethernet63"},
		{"huawei-ce", "CE8855", "400GE1/0/1-64", "400GE1/0/64", "400GE1/0/63"},
		{"sonic", "SN5600", "Ethernet0-252 step 4", "Ethernet252", "Ethernet248"},
	}
	for i := range n {
		v := vendors[i%4]
		fmt.Fprintf(&b, "device \"sw%d\" {\n  vendor      = %q\n  platform    = %q\n  address     = \"10.%d.%d.%d\"\n  roles       = [\"leaf\"]\n  credentials = credentials.ops\n  ports %q {\n    speed = \"400G\"\n    cable = \"3m\"\n  }\n}\n",
			i, v.vendor, v.model, i>>16&255, i>>8&255, i&255, v.ports)
	}
	for i := 0; i+1 < n; i += 2 {
		fmt.Fprintf(&b, "link {\n  a = \"sw%d:%s\"\n  b = \"sw%d:%s\"\n}\n", i, vendors[i%4].last, i+1, vendors[(i+1)%4].prev)
	}
	return b.Bytes()
}

// sameParse fails t unless parseFile gives what hclsyntax.ParseConfig
// gives for src: the same body (every block, attribute, expression and
// range), bytes and diagnostics.
func sameParse(t *testing.T, src []byte) {
	t.Helper()
	want, wantDiags := hclsyntax.ParseConfig(src, "f.hcl", hcl.InitialPos)
	got, gotDiags := parseFile(src, "f.hcl")
	// Functions (operators' implementations) do not compare; they are
	// fixed by the operator, which does.
	noFuncs := cmp.FilterPath(func(p cmp.Path) bool { return p.Last().Type().Kind() == reflect.Func }, cmp.Ignore())
	opts := cmp.Options{cmp.Exporter(func(reflect.Type) bool { return true }), noFuncs}
	if d := cmp.Diff(wantDiags.Error(), gotDiags.Error()); d != "" {
		t.Fatalf("diagnostics differ (-ParseConfig +parseFile):\n%s", d)
	}
	if d := cmp.Diff(want.Body, got.Body, opts); d != "" {
		t.Fatalf("bodies differ (-ParseConfig +parseFile):\n%s", d)
	}
	if string(want.Bytes) != string(got.Bytes) {
		t.Fatal("file bytes differ")
	}
}

// TestParseFileSameAsParseConfig compares the two parses on every
// inventory fixture, on a generated fabric, and on sources built to
// stress the splitter: templates with braces, comments of every kind,
// CRLF, trailing text, syntax errors that only the whole file shows.
func TestParseFileSameAsParseConfig(t *testing.T) {
	for _, p := range fixtures(t) {
		t.Run(p, func(t *testing.T) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			sameParse(t, src)
		})
	}
	cases := map[string]string{
		"fabric":                           string(fabricInventory(40)),
		"large fabric, parsed in parallel": string(fabricInventory(400)),
		"crlf":                             "device \"a\" {\r\n  vendor = \"nxos\"\r\n}\r\n\r\ndevice \"b\" {\r\n  vendor = \"eos\"\r\n}\r\n",
		"comments":                         "# one\ndevice \"a\" { # x }\n  vendor = \"nxos\" // }\n  /* } \n { */\n}\n/* between\n*/ device \"b\" {\n}  # after\n// end",
		"template":                         "device \"a\" {\n  vendor = \"${\"}\"}\\\"}\"\n  tags = [\"%{ if true }x%{ endif }\", \"$${\", \"%%{\"]\n}\ndevice \"b\" {\n  x = { a = \"}\" }\n}\n",
		"no final newline":                 "device \"a\" {\n}\ndevice \"b\" {\n}",
		"one line blocks":                  "device \"a\" {}\ndevice \"b\" {}\nlink {}\n",
		"attribute":                        "device \"a\" {\n}\nx = {\n}\ndevice \"b\" {\n}\n",
		"attribute twice":                  "x = 1\ndevice \"a\" {\n}\nx = 2\ndevice \"b\" {\n}\n",
		"unclosed":                         "device \"a\" {\n}\ndevice \"b\" {\n",
		"stray close":                      "device \"a\" {\n}\n}\ndevice \"b\" {\n}\n",
		"bad second":                       "device \"a\" {\n}\ndevice \"b\" {\n  x = = 1\n}\n",
		"heredoc":                          "device \"a\" {\n  x = <<EOT\n}\nEOT\n}\ndevice \"b\" {\n}\n",
		"lone cr":                          "device \"a\" {\n}\rdevice \"b\" {\n}\n",
		"string newline":                   "device \"a\" {\n  x = \"a\n}\n\"\n}\ndevice \"b\" {\n}\n",
		"unicode":                          "device \"é́\" {\n  vendor = \"日本\"\n}\ndevice \"b\" {\n  vendor = \"👍🏽\"\n}\n",
		"trailing comment":                 "device \"a\" {\n}\n# only a comment\n",
		"empty":                            "",
		"blank lines":                      "\n\n\ndevice \"a\" {\n}\n\n\ndevice \"b\" {\n}\n\n\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) { sameParse(t, []byte(src)) })
	}
}

// TestParseFileCuts checks that the fast path is taken on an ordinary
// inventory: one piece per block.
func TestParseFileCuts(t *testing.T) {
	src := fabricInventory(8)
	if n := len(splitTopLevel(src)); n != 1+8+4 {
		t.Errorf("%d pieces, want 13 (credentials, 8 devices, 4 links)", n)
	}
	if n := len(splitTopLevel(fabricInventory(400))); n < parallelPieces {
		t.Errorf("%d pieces in the large fabric case, fewer than the %d that parse in parallel", n, parallelPieces)
	}
	for _, bad := range []string{"a {\n", "a }\n", "x = <<EOT\nEOT\n", "x = \"a\nb\"\n", "a {\n}\r"} {
		if c := splitTopLevel([]byte(bad)); c != nil {
			t.Errorf("splitTopLevel(%q) = %v, want nil (parse whole)", bad, c)
		}
	}
}

// FuzzParseFile checks on arbitrary input that parseFile gives exactly
// what hclsyntax.ParseConfig gives.
func FuzzParseFile(f *testing.F) {
	for _, p := range fixtures(f) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("device \"a\" {\n  v = \"${\"}\"}\"\n}\ndevice \"b\" {\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) { sameParse(t, src) })
}

// TestParseFileMutants compares the two parses on fixtures with
// characters that matter to the splitter inserted at pseudo-random (but
// fixed) places: a deterministic stand-in for FuzzParseFile that runs
// with the ordinary tests.
func TestParseFileMutants(t *testing.T) {
	src, err := os.ReadFile("../../inventory/testdata/valid.hcl")
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, fabricInventory(3)...)
	bits := []string{"{", "}", "\"", "\n", "#", "//", "/*", "*/", "${", "%{", "$${", "%%{", "\\", "\r", "\r\n", "<<EOT\n", "[", "]", "(", ")", "=", "x = 1\n", "}\n"}
	rng := rand.New(rand.NewPCG(2, 15))
	for i := range 150 {
		m := slices.Clone(src)
		for range 1 + rng.IntN(3) {
			at := rng.IntN(len(m) + 1)
			m = slices.Insert(m, at, []byte(bits[rng.IntN(len(bits))])...)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { sameParse(t, m) })
	}
}

// TestParseFileContext checks that diagnostics printed against the file
// parseFile returns show the same source snippet and block context ("in
// device …", from hclsyntax's navigation over the joined body) as against
// the file hclsyntax.ParseConfig returns.
func TestParseFileContext(t *testing.T) {
	src := []byte("device \"a\" {\n  vendor   = \"nxos\"\n  platform = \"N9K-C93600CD-GX\"\n  address  = \"192.0.2.1\"\n}\n\ndevice \"b\" {\n  vendor   = \"nxos\"\n  platform = \"NOPE\"\n  address  = \"192.0.2.2\"\n}\n")
	if len(splitTopLevel(src)) < 2 {
		t.Fatal("the source does not take the piecewise path")
	}
	at := bytes.Index(src, []byte(`"NOPE"`))
	rng := hcl.Range{Filename: "inv.hcl", Start: hcl.Pos{Line: 9, Column: 14, Byte: at}, End: hcl.Pos{Line: 9, Column: 20, Byte: at + 6}}
	diags := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown platform", Detail: "No such model.", Subject: &rng}}
	print := func(f *hcl.File) string {
		var b strings.Builder
		w := hcl.NewDiagnosticTextWriter(&b, map[string]*hcl.File{"inv.hcl": f}, 100, false)
		if err := w.WriteDiagnostics(diags); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	whole, _ := hclsyntax.ParseConfig(src, "inv.hcl", hcl.InitialPos)
	pieces, _ := parseFile(src, "inv.hcl")
	want, got := print(whole), print(pieces)
	if !strings.Contains(want, `in device "b"`) {
		t.Fatalf("ParseConfig's file gives no block context:\n%s", want)
	}
	if got != want {
		t.Errorf("printed diagnostics differ:\nParseConfig:\n%s\nparseFile:\n%s", want, got)
	}
}
