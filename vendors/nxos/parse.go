package nxos

import (
	"strings"

	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/config"
)

// indentWidth is NX-OS's indentation: 2 spaces per level
// (reference/nxos.md §1b: parse by indentation only).
const indentWidth = 2

// Parse reads NX-OS running-config text (the output of a `show
// running-config` command, header included) into a tree of lines by
// indentation. The header ("!Command:", "!Time:", …), `version` and
// `hostname` lines and blank lines carry no config and are dropped. A line
// indented deeper than one level below its parent is an error.
func Parse(text []byte) ([]*config.Node, error) { return clidiff.Parse(text, scan) }

// parse is Parse into canonical nodes (canon, hidden lines dropped, a
// repeated setting kept once), and the index of the top level.
func parse(text []byte) ([]*node, map[string]*node, error) {
	roots, err := clidiff.Read(text, scan, lineSpaced)
	if err != nil {
		return nil, nil, err
	}
	top, index := clidiff.DedupeIndex(clidiff.Prune(roots, isHidden), single)
	return top, index, nil
}

// scan yields each config line of text with its depth (reference/nxos.md
// §1b: by indentation only, indentWidth spaces a level, rounded up) and
// its text single-spaced, skipping "!" comments and the header's version
// and hostname lines.
func scan(text []byte, yield func(n, depth int, body string) error) error {
	return clidiff.Lines(text, func(n, spaces int, body string) error {
		if body[0] == '!' {
			return nil
		}
		depth := (spaces + indentWidth - 1) / indentWidth
		if depth == 0 && (strings.HasPrefix(body, "version ") || strings.HasPrefix(body, "hostname ")) {
			return nil
		}
		if strings.Contains(body, "  ") || strings.ContainsAny(body, "\t") {
			body = strings.Join(strings.Fields(body), " ")
		}
		return yield(n, depth, body)
	})
}

// Body strips the `show running-config` header from text: the lines that
// change on every read (times) or carry no config, so that two reads of an
// unchanged device are byte-identical.
func Body(text []byte) []byte {
	started := false
	return clidiff.Body(text, func(raw string) bool {
		if !started {
			t := strings.TrimSpace(raw)
			if t == "" || strings.HasPrefix(t, "!") || strings.HasPrefix(t, "version ") || strings.HasPrefix(t, "hostname ") {
				return false
			}
			started = true
		}
		return true
	})
}
