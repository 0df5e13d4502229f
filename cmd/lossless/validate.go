package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/load"
	_ "github.com/lossless-net/lossless/vendors/all" // every vendor
)

const validateUsage = `Usage: lossless validate [options] [DIR]

Checks the intent in DIR (default: the current directory) against the
inventory: HCL syntax, variables, units, every validation rule (LLnnn),
the resolved state of every device, and that each device's renderer can
express it. Exits 0 when valid, 1 otherwise.
Diagnostics go to stderr with file:line:col and a source snippet.

Options:
  -inventory FILE   inventory file: an HCL inventory or a containerlab
                    *.clab.yml topology (default: DIR/inventory.hcl)
  -var NAME=VALUE   set a variable; repeatable; overrides -var-file
  -var-file FILE    read variable values from an HCL file (NAME = VALUE)
                    or a *.json object; repeatable, later files win
  -strict           fail on warnings too
  -json             print one JSON document on stdout instead of text
  -no-color         never colour the text output (colour needs a terminal
                    and NO_COLOR unset)

Examples:
  lossless validate examples/ai-fabric
  lossless validate -strict -var ecn_max=2MB examples/ai-fabric
  lossless validate -json -inventory lab.clab.yml . > diagnostics.json
`

// intentFlags are the flags shared by the commands that load an intent.
type intentFlags struct {
	inventory string
	vars      varFlags
	varFiles  stringsFlag
}

func (f *intentFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.inventory, "inventory", "", "inventory `FILE` (*.hcl or *.clab.yml; default DIR/inventory.hcl)")
	fs.Var(&f.vars, "var", "set a variable, `NAME=VALUE` (repeatable)")
	fs.Var(&f.varFiles, "var-file", "read variable values from `FILE` (repeatable)")
}

// varFlags collects -var NAME=VALUE.
type varFlags map[string]string

// String is for flag.Value; the values are not printed back.
func (v *varFlags) String() string { return "" }

// Set adds one NAME=VALUE.

func (v *varFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("invalid -var %q: want NAME=VALUE", s)
	}
	if *v == nil {
		*v = varFlags{}
	}
	(*v)[strings.TrimSpace(name)] = value
	return nil
}

// stringsFlag collects a repeatable string flag.
type stringsFlag []string

// String joins the values for flag.Value.
func (l *stringsFlag) String() string { return strings.Join(*l, ",") }

// Set adds one value.

func (l *stringsFlag) Set(s string) error { *l = append(*l, s); return nil }

// options are the load options of the flags.
func (f *intentFlags) options() load.Options {
	return load.Options{Inventory: f.inventory, Vars: f.vars, VarFiles: f.varFiles}
}

// useColor reports whether text output to w may be coloured.
func useColor(w io.Writer, noColor bool) bool {
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func runValidate(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, validateUsage) }
	var f intentFlags
	f.register(fs)
	strict := fs.Bool("strict", false, "fail on warnings too")
	jsonOut := fs.Bool("json", false, "print a JSON document")
	noColor := fs.Bool("no-color", false, "never colour the output")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "lossless validate: want at most one DIR, got %d arguments\n", fs.NArg())
		return 1
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	o := f.options()
	o.Renderable = true
	res, diags := load.Fabric(dir, o)
	failed := diag.Failed(diags, *strict)
	if *jsonOut {
		if err := diag.WriteJSON(stdout, diags, *strict); err != nil {
			fmt.Fprintf(stderr, "lossless validate: %v\n", err)
			return 1
		}
	} else {
		if err := diag.WriteText(stderr, res.Files, diags, useColor(stderr, *noColor), 78); err != nil {
			fmt.Fprintf(stderr, "lossless validate: %v\n", err)
			return 1
		}
		if !failed {
			ports := 0
			for _, d := range res.Devices {
				ports += len(d.Ports)
			}
			fmt.Fprintf(stdout, "The intent is valid: %d devices, %d ports.\n", len(res.Devices), ports)
		}
	}
	if failed {
		return 1
	}
	return 0
}
