package intent

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/internal/diag"
)

// diagSet collects diagnostics in order, dropping exact repeats: a profile
// decoded again under an override reports its own problems only once.
type diagSet struct {
	seen map[diagKey]bool
	out  hcl.Diagnostics
}

type diagKey struct {
	sev             hcl.DiagnosticSeverity
	rule            diag.Rule
	summary, detail string
	file            string
	start           int
}

func newDiagSet() *diagSet { return &diagSet{seen: map[diagKey]bool{}} }

func (s *diagSet) add(ds ...*hcl.Diagnostic) {
	for _, d := range ds {
		k := diagKey{sev: d.Severity, rule: diag.RuleOf(d), summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.file, k.start = d.Subject.Filename, d.Subject.Start.Byte
		}
		if s.seen[k] {
			continue
		}
		s.seen[k] = true
		s.out = append(s.out, d)
	}
}

func (s *diagSet) list() hcl.Diagnostics { return s.out }
