package huaweice

import (
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/config"
)

// Parse reads `display current-configuration` text (reference/huawei-ce.md
// §5) into a tree of lines by indentation, one space per level. The header
// ("!Software Version …", "!Last configuration was updated at …"), the
// "#" section separators, "return" and blank lines carry no config and are
// dropped. A line indented deeper than one level below its parent is an
// error.
func Parse(text []byte) ([]*config.Node, error) { return clidiff.Parse(text, scan) }

// parse is Parse into canonical nodes (canonical text and keys, the
// default lines of a family A (famA) or B device dropped).
func parse(text []byte, famA bool) ([]*node, error) {
	roots, err := clidiff.Read(text, scan, line)
	return dropDefaults(roots, famA), err
}

// scan yields each config line of text with its depth (leading spaces,
// one a level) and single-spaced text, skipping the "#" separators, "!"
// header lines and the final "return".
func scan(text []byte, yield func(n, depth int, body string) error) error {
	return clidiff.Lines(text, func(n, spaces int, body string) error {
		if body == "#" || body[0] == '!' || (body == "return" && spaces == 0) {
			return nil
		}
		if strings.Contains(body, "  ") || strings.IndexByte(body, '\t') >= 0 {
			body = strings.Join(strings.Fields(body), " ")
		}
		return yield(n, spaces, body)
	})
}

// Body strips the header of `display current-configuration` ("!" lines,
// whose update time changes on every commit) and line-ending carriage
// returns, so that two reads of an unchanged device are byte-identical.
func Body(text []byte) []byte {
	return clidiff.Body(text, func(raw string) bool { return !strings.HasPrefix(raw, "!") })
}

// Text prints a tree as `display current-configuration` does: each
// top-level section after a "#" line, children indented by one space per
// level, a closing "#" and "return".
func Text(nodes []*config.Node) []byte {
	var b strings.Builder
	var walk func(ns []*config.Node, depth int)
	walk = func(ns []*config.Node, depth int) {
		for _, n := range ns {
			if depth == 0 {
				b.WriteString("#\n")
			}
			b.WriteString(strings.Repeat(" ", depth))
			b.WriteString(n.Text)
			b.WriteByte('\n')
			walk(n.Children, depth+1)
		}
	}
	walk(nodes, 0)
	b.WriteString("#\nreturn\n")
	return []byte(b.String())
}
