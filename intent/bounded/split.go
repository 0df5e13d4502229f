package bounded

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// parseFile parses an inventory file with hclsyntax. It gives the same
// file, body and diagnostics as hclsyntax.ParseConfig, at a lower cost on
// large files: the HCL lexer collects every token of its input in one
// slice before parsing, which for a 10,000-device inventory is a few
// hundred megabytes grown by copying and scanned by the garbage collector.
// parseFile cuts the source between top-level blocks (splitTopLevel) and
// parses each piece at its own position, so the token slices stay small
// and die young (and a large file is parsed on several cores), then joins
// the blocks into one body. When the source is not plainly a list of
// blocks, or any piece has a diagnostic, it parses the whole source
// instead, so every diagnostic is the one ParseConfig gives.
func parseFile(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	cuts := splitTopLevel(src)
	if len(cuts) < 2 {
		return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	bodies := parsePieces(src, filename, cuts)
	if bodies == nil {
		return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	n := 0
	for _, b := range bodies {
		n += len(b.Blocks)
	}
	blocks := make(hclsyntax.Blocks, 0, n)
	for _, b := range bodies {
		blocks = append(blocks, b.Blocks...)
	}
	last := bodies[len(bodies)-1]
	// A file parsed from nothing carries hclsyntax's navigation over its
	// body (used for the "in device …" context of diagnostics); filling
	// that body in place keeps the navigation pointing at it.
	file, _ := hclsyntax.ParseConfig(nil, filename, hcl.InitialPos)
	body := file.Body.(*hclsyntax.Body)
	body.Blocks = blocks
	body.SrcRange = hcl.Range{Filename: filename, Start: hcl.InitialPos, End: last.SrcRange.End}
	body.EndRange = last.EndRange
	file.Bytes = src
	return file, nil
}

// parallelPieces is the number of pieces from which parsePieces uses
// more than one goroutine: below it, starting them costs more than it
// saves.
const parallelPieces = 512

// parsePieces parses src cut at cuts, each piece at its own position, on
// up to GOMAXPROCS goroutines (the pieces are independent and hclsyntax
// keeps no shared state). It returns the body of each piece in order, or
// nil when any piece has a diagnostic or a top-level attribute (which the
// whole-file parse must report or check for duplicates).
func parsePieces(src []byte, filename string, cuts []cut) []*hclsyntax.Body {
	bodies := make([]*hclsyntax.Body, len(cuts))
	var failed atomic.Bool
	parse := func(i int) {
		start, line := 0, 1
		if i > 0 {
			start, line = cuts[i-1].end, cuts[i-1].line
		}
		f, diags := hclsyntax.ParseConfig(src[start:cuts[i].end], filename, hcl.Pos{Line: line, Column: 1, Byte: start})
		body, ok := f.Body.(*hclsyntax.Body)
		if len(diags) > 0 || !ok || len(body.Attributes) > 0 {
			failed.Store(true)
			return
		}
		bodies[i] = body
	}
	workers := min(runtime.GOMAXPROCS(0), 8)
	if len(cuts) < parallelPieces || workers < 2 {
		for i := range cuts {
			if parse(i); failed.Load() {
				return nil
			}
		}
		return bodies
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(cuts) {
					return
				}
				parse(i)
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return nil
	}
	return bodies
}

// cut ends a piece of source: end is the byte offset just after a newline
// and line the number of the line that starts there.
type cut struct{ end, line int }

// splitTopLevel returns where src may be cut into pieces that each hold
// whole top-level items: after the newline that follows a closing brace
// at nesting depth 0. The last cut is at len(src). It follows strings
// (with escapes and ${…}/%{…} templates, nested) and comments; on
// anything it does not follow with certainty (a heredoc, a carriage return
// not before a newline, a newline inside a string, unbalanced brackets) it
// returns nil, and the caller parses the whole source.
func splitTopLevel(src []byte) []cut {
	var cuts []cut
	// stack holds, per open bracket or template, the byte that closes it;
	// a '"' entry marks a string whose template is open.
	var stack []byte
	line := 1
	closed := false // a top-level block closed since the last cut
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\r' && (i+1 >= len(src) || src[i+1] != '\n') {
			return nil
		}
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			case '\n':
				return nil
			case '$', '%':
				if i+1 < len(src) && src[i+1] == c && i+2 < len(src) && src[i+2] == '{' {
					i += 2 // "$${" and "%%{" are literal
				} else if i+1 < len(src) && src[i+1] == '{' {
					stack = append(stack, '"', '}')
					inString = false
					i++
				}
			}
			continue
		}
		switch c {
		case '\n':
			line++
			if len(stack) == 0 && closed {
				cuts = append(cuts, cut{i + 1, line})
				closed = false
			}
		case '"':
			inString = true
		case '#':
			i = skipLine(src, i)
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				i = skipLine(src, i)
			} else if i+1 < len(src) && src[i+1] == '*' {
				j := i + 2
				for ; j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/'); j++ {
					if src[j] == '\n' {
						line++
					} else if src[j] == '\r' && src[j+1] != '\n' {
						return nil
					}
				}
				if j+1 >= len(src) {
					return nil
				}
				i = j + 1
			}
		case '<':
			if i+1 < len(src) && src[i+1] == '<' {
				return nil
			}
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '(':
			stack = append(stack, ')')
		case '}', ']', ')':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return nil
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1] == '"' {
				stack = stack[:len(stack)-1]
				inString = true
			} else if len(stack) == 0 && c == '}' {
				closed = true
			}
		}
	}
	if inString || len(stack) > 0 {
		return nil
	}
	if len(cuts) == 0 || cuts[len(cuts)-1].end != len(src) {
		cuts = append(cuts, cut{len(src), line})
	}
	return cuts
}

// skipLine returns the index of the last byte before the newline that
// ends the line holding i (or of the last byte of src).
func skipLine(src []byte, i int) int {
	for i+1 < len(src) && src[i+1] != '\n' {
		i++
	}
	return i
}
