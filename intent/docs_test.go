package intent

import (
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestLanguageReference: docs/language.md, the language reference,
// describes every block and attribute the decoder accepts (each appears
// there in backticks).
func TestLanguageReference(t *testing.T) {
	src, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	names := map[string]bool{}
	var walk func(s *schema)
	walk = func(s *schema) {
		for _, a := range s.attrs {
			names[a] = true
		}
		for typ, b := range s.blocks {
			names[typ] = true
			walk(b.body)
		}
	}
	for _, s := range []*schema{qosSchema, bufferSchema, rolloutSchema} {
		walk(s)
	}
	for _, s := range []*hcl.BodySchema{topSchema, assignSchema, deviceOverrideSchema, portOverrideSchema, portGroupSchema, variableSchema, validationSchema} {
		for _, a := range s.Attributes {
			names[a.Name] = true
		}
		for _, b := range s.Blocks {
			names[b.Type] = true
		}
	}
	for n := range names {
		written := regexp.MustCompile("`" + regexp.QuoteMeta(n) + "[` ]|\\b" + regexp.QuoteMeta(n) + `\s*(=|\{|")`)
		if !written.MatchString(doc) {
			t.Errorf("docs/language.md does not describe %q", n)
		}
	}
}
