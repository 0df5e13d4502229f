package inventory

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/diag"
)

// printed is everything a user sees of src's diagnostics: the text with
// snippets, in colour and not, and the JSON document.
func printed(t *testing.T, src string) (string, int) {
	t.Helper()
	inv, diags := Parse([]byte(src), "inv.hcl", testVendors)
	if len(diags) == 0 {
		t.Fatalf("no diagnostic for\n%s", src)
	}
	files := inv.Files
	var b bytes.Buffer
	for _, color := range []bool{false, true} {
		if err := diag.WriteText(&b, files, diags, color, 78); err != nil {
			t.Fatal(err)
		}
	}
	if err := diag.WriteJSON(&b, diags, false); err != nil {
		t.Fatal(err)
	}
	return b.String(), len(diags)
}

// noPart fails t when out holds any six characters in a row of secret
// (all of it when it is shorter).
func noPart(t *testing.T, out, secret string) {
	t.Helper()
	n := min(6, len(secret))
	for i := 0; i+n <= len(secret); i++ {
		if part := secret[i : i+n]; strings.Contains(out, part) {
			t.Fatalf("the output shows %q of the secret %q:\n%s", part, secret, out)
		}
	}
}

// TestLiteralPasswordMasked checks LL112's fixture: the diagnostic points
// at the password, and neither its snippet nor -json shows any of it.
func TestLiteralPasswordMasked(t *testing.T) {
	src, err := os.ReadFile("testdata/invalid/literal_password.hcl")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := printed(t, string(src))
	if !strings.Contains(out, "Error [LL112]: Literal password in the inventory") || !strings.Contains(out, `password     = "********************"`) {
		t.Errorf("no masked LL112 snippet:\n%s", out)
	}
	noPart(t, out, "s3cr3t-never-printed")
	noPart(t, out, "admin") // the lab's allowed password is masked too
}

// TestSecretsMasked checks the ways a password reaches a snippet: beside
// other errors of its block, on a line that does not parse, in a heredoc,
// a one-line block or a comment, in a template.
func TestSecretsMasked(t *testing.T) {
	for name, tt := range map[string]struct{ src, secret string }{
		"context of another error": {"credentials \"lab\" {\n  password = \"Kq7vX2-lab\"\n  allow_literal_password = true\n  known_hosts = 7\n}\n", "Kq7vX2-lab"},
		"bad escape":               {"credentials \"a\" {\n  password = \"Kq7\\qvX2-esc\"\n}\n", "Kq7\\qvX2-esc"},
		"unterminated":             {"credentials \"a\" {\n  password = \"Kq7vX2-open\n}\n", "Kq7vX2-open"},
		"bare word":                {"credentials \"a\" {\n  password = Kq7vX2bare\n}\n", "Kq7vX2bare"},
		"heredoc":                  {"credentials \"a\" {\n  password = <<EOT\nKq7vX2-hdoc\nEOT\n}\n", "Kq7vX2-hdoc"},
		"one-line block":           {"credentials \"a\" { password = \"Kq7vX2-1line\", username_env = \"U\" }\n", "Kq7vX2-1line"},
		"comment":                  {"credentials \"a\" {\n  # password = \"Kq7vX2-old\"\n  password_env = \"P\"\n  tls_key = 1\n}\n", "Kq7vX2-old"},
		"template":                 {"credentials \"a\" {\n  password = \"${\"Kq7vX2\"}-tmpl\"\n}\n", "Kq7vX2\"}-tmpl"},
		"list":                     {"credentials \"a\" {\n  password = [\n    \"Kq7vX2-list\",\n  ]\n}\n", "Kq7vX2-list"},
	} {
		t.Run(name, func(t *testing.T) {
			out, _ := printed(t, tt.src)
			noPart(t, out, tt.secret)
			if !strings.Contains(out, "****") {
				t.Errorf("nothing masked:\n%s", out)
			}
		})
	}
}

// TestSecretsOnly checks that masking leaves everything else alone: the
// names of environment variables and files, and attributes whose name
// ends in password.
func TestSecretsOnly(t *testing.T) {
	src := "credentials \"a\" {\n  password_env = \"LOSSLESS_PASSWORD\"\n  password_file = \"/run/pw\"\n  allow_literal_password = false\n  tls_key = 1\n}\n"
	out, _ := printed(t, src)
	for _, s := range []string{"LOSSLESS_PASSWORD", "/run/pw", "allow_literal_password = false", "tls_key = 1"} {
		if !strings.Contains(out, s) {
			t.Errorf("the snippet lost %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "*") {
		t.Errorf("masked a value that is no password:\n%s", out)
	}
	masked, spans := maskSecrets([]byte(src), nil)
	if spans != nil || !bytes.Equal(masked, []byte(src)) {
		t.Errorf("masked %v", spans)
	}
}
