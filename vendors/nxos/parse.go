package nxos

import (
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/config"
)

// indentWidth is NX-OS's indentation: 2 spaces per level
// (reference/nxos.md §1b: parse by indentation only).
const indentWidth = 2

// Parse reads NX-OS running-config text (the output of a `show
// running-config` command, header included) into a tree of lines by
// indentation. The header ("!Command:", "!Time:", …), `version` and
// `hostname` lines and blank lines carry no config and are dropped. A line
// indented deeper than one level below its parent is an error.
func Parse(text []byte) ([]*config.Node, error) {
	var roots []*config.Node
	var stack []*config.Node // stack[i] is the last node at depth i
	for n, raw := range strings.Split(string(text), "\n") {
		line := strings.TrimRight(raw, " \t\r")
		body := strings.TrimLeft(line, " ")
		if body == "" || strings.HasPrefix(body, "!") {
			continue
		}
		spaces := len(line) - len(body)
		depth := (spaces + indentWidth - 1) / indentWidth
		if depth == 0 && (strings.HasPrefix(body, "version ") || strings.HasPrefix(body, "hostname ")) {
			continue
		}
		if depth > len(stack) {
			return nil, fmt.Errorf("parse running config line %d %q: indented %d spaces under a line at depth %d", n+1, body, spaces, len(stack)-1)
		}
		node := &config.Node{Text: strings.Join(strings.Fields(body), " ")}
		stack = stack[:depth]
		if depth == 0 {
			roots = append(roots, node)
		} else {
			p := stack[depth-1]
			p.Children = append(p.Children, node)
		}
		stack = append(stack, node)
	}
	return roots, nil
}

// Body strips the `show running-config` header from text: the lines that
// change on every read (times) or carry no config, so that two reads of an
// unchanged device are byte-identical.
func Body(text []byte) []byte {
	var b strings.Builder
	started := false
	for _, raw := range strings.Split(strings.ReplaceAll(string(text), "\r", ""), "\n") {
		if !started {
			t := strings.TrimSpace(raw)
			if t == "" || strings.HasPrefix(t, "!") || strings.HasPrefix(t, "version ") || strings.HasPrefix(t, "hostname ") {
				continue
			}
			started = true
		}
		b.WriteString(raw)
		b.WriteByte('\n')
	}
	out := strings.TrimRight(b.String(), "\n")
	if out == "" {
		return nil
	}
	return []byte(out + "\n")
}
