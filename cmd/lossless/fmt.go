package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/inventory"
)

const fmtUsage = `Usage: lossless fmt [options] [DIR]

Rewrites every *.hcl file in DIR (default: the current directory),
including the inventory, in canonical HCL form (hclwrite) and lists the
files it changed. A file with a syntax error is reported and left alone.

Options:
  -check   change nothing; list the files that are not in canonical form
           and exit 1 if there is any

Examples:
  lossless fmt examples/ai-fabric
  lossless fmt -check .
`

func runFmt(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, fmtUsage) }
	check := fs.Bool("check", false, "only list files that would change")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "lossless fmt: want at most one DIR, got %d arguments\n", fs.NArg())
		return 1
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintf(stderr, "lossless fmt: %v\n", err)
		return 1
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".hcl") {
			names = append(names, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(names)
	code := 0
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "lossless fmt: %v\n", err)
			code = 1
			continue
		}
		// hclwrite formats even broken input; refuse it instead, so fmt
		// never rewrites a file it cannot read.
		if f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos); diags.HasErrors() {
			// A password written in the file never reaches a snippet.
			body, _ := f.Body.(*hclsyntax.Body)
			f.Bytes = inventory.MaskSecrets(src, body)
			_ = diag.WriteText(stderr, map[string]*hcl.File{name: f}, diags, useColor(stderr, false), 78)
			code = 1
			continue
		}
		out := hclwrite.Format(src)
		if bytes.Equal(out, src) {
			continue
		}
		fmt.Fprintln(stdout, name)
		if *check {
			code = 1
			continue
		}
		info, err := os.Stat(name)
		if err != nil {
			fmt.Fprintf(stderr, "lossless fmt: %v\n", err)
			code = 1
			continue
		}
		if err := os.WriteFile(name, out, info.Mode().Perm()); err != nil {
			fmt.Fprintf(stderr, "lossless fmt: %v\n", err)
			code = 1
		}
	}
	return code
}
