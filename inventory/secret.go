package inventory

import (
	"bytes"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// span is a range of bytes, [start, end).
type span struct{ start, end int }

// maskSecrets returns src with the value of every password written in it
// replaced by asterisks byte for byte, so that every range into src stays
// valid for the snippets of diagnostics, and the spans it masked; src
// itself and no span when it holds no password. A password is the value
// of a password attribute in the syntax tree of body (nil when src did
// not parse), and, read from the bytes so that a line that does not
// parse is masked too, whatever follows "password =" or "password:" on
// its line (a quoted string up to its closing quote, a heredoc up to its
// marker), in code or in a comment.
func maskSecrets(src []byte, body *hclsyntax.Body) ([]byte, []span) {
	spans := passwordExprs(body, nil)
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("password"))
		if j < 0 {
			break
		}
		at := i + j
		i = at + len("password")
		if at > 0 && nameByte(src[at-1]) || i < len(src) && nameByte(src[i]) {
			continue // password_env, allow_literal_password
		}
		if s, ok := valueAfter(src, i); ok {
			spans = append(spans, s)
		}
	}
	if len(spans) == 0 {
		return src, nil
	}
	out := bytes.Clone(src)
	for _, s := range spans {
		for k := max(s.start, 0); k < min(s.end, len(out)); k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = '*'
			}
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	return out, spans
}

// passwordExprs appends the source spans of the value of every password
// attribute under body.
func passwordExprs(body *hclsyntax.Body, spans []span) []span {
	if body == nil {
		return spans
	}
	if a, ok := body.Attributes["password"]; ok {
		r := a.Expr.Range()
		s := span{r.Start.Byte, r.End.Byte}
		if t, ok := a.Expr.(*hclsyntax.TemplateExpr); ok && t.IsStringLiteral() && s.end-s.start >= 2 {
			s = span{s.start + 1, s.end - 1} // the quotes stay
		}
		spans = append(spans, s)
	}
	for _, b := range body.Blocks {
		spans = passwordExprs(b.Body, spans)
	}
	return spans
}

// valueAfter returns the span of the value assigned after a "password"
// that ends at src[i]: past an optional closing quote (a JSON key),
// spaces, and "=" or ":", to the closing quote of a quoted string without
// interpolation, to the marker of a heredoc, or to the end of the line.
func valueAfter(src []byte, i int) (span, bool) {
	if i < len(src) && src[i] == '"' {
		i++
	}
	i = skipBlanks(src, i)
	if i >= len(src) || src[i] != '=' && src[i] != ':' || i+1 < len(src) && src[i+1] == '=' {
		return span{}, false
	}
	i = skipBlanks(src, i+1)
	eol := bytes.IndexByte(src[i:], '\n')
	if eol < 0 {
		eol = len(src)
	} else {
		eol += i
	}
	switch {
	case i < len(src) && src[i] == '"':
		for k := i + 1; k < eol; k++ {
			switch src[k] {
			case '\\':
				k++
			case '$', '%':
				return span{i + 1, eol}, true // a template: the whole line
			case '"':
				return span{i + 1, k}, true
			}
		}
		return span{i + 1, eol}, true
	case bytes.HasPrefix(src[i:], []byte("<<")):
		marker := bytes.TrimSpace(bytes.TrimPrefix(src[i+2:eol], []byte("-")))
		if len(marker) == 0 {
			break
		}
		for k := eol + 1; k < len(src); {
			end := bytes.IndexByte(src[k:], '\n')
			if end < 0 {
				end = len(src)
			} else {
				end += k
			}
			if bytes.Equal(bytes.TrimSpace(src[k:end]), marker) {
				return span{eol, k}, true
			}
			k = end + 1
		}
		return span{eol, len(src)}, true
	}
	return span{i, eol}, true
}

func skipBlanks(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// nameByte reports whether c may be part of an HCL identifier.
func nameByte(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// withholdSecrets replaces the detail of every diagnostic in diags whose
// subject overlaps a span of spans: hcl's syntax and evaluation errors may
// quote the text they point at ("The symbol "q" is not a valid escape
// sequence").
func withholdSecrets(diags hcl.Diagnostics, spans []span) {
	for _, d := range diags {
		if d.Subject == nil {
			continue
		}
		for _, s := range spans {
			if d.Subject.Start.Byte < s.end && s.start < max(d.Subject.End.Byte, d.Subject.Start.Byte+1) {
				d.Detail = "The detail is not shown: it would quote part of the password written here."
				break
			}
		}
	}
}

// MaskSecrets returns src with every password's value masked as the
// inventory's diagnostics show it (asterisks byte for byte, so that
// every range into src stays valid); body is src's syntax tree, nil when
// it did not parse. Commands that print snippets of an inventory file
// they parse themselves (lossless fmt) print them from its result.
func MaskSecrets(src []byte, body *hclsyntax.Body) []byte {
	out, _ := maskSecrets(src, body)
	return out
}
