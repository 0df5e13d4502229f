package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lossless-net/lossless/golden"
	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/render"
	"github.com/lossless-net/lossless/vendors"
)

const renderUsage = `Usage: lossless render [options] [DIR]

Render the intent in DIR (default ".") to each device's native configuration:
NX-OS, EOS and Huawei CE running-config text (<device>.cfg) or SONiC
CONFIG_DB JSON (<device>.json). With one device the rendering goes to stdout;
with several, give -o DIR or -device NAME. Values rounded to a device's
granularity are reported as warnings on stderr. Exit status: 0 on success,
1 on any error (invalid intent, a device that cannot express its intent,
a golden mismatch).

Golden files: network teams keep the approved rendering of every device in
their repository. -golden DIR compares each device's rendering with
DIR/<device>.cfg|.json, prints a unified diff for every device that differs
and lists missing and extra files, and exits 1 on any difference;
-golden DIR -update rewrites DIR to the current renderings.

Options:
`

const renderExamples = `
Examples:
  lossless render -device leaf1 examples/ai-fabric
  lossless render -o out/ examples/ai-fabric
  lossless render -format yang -device sonic1 golden/canonical
  lossless render -golden approved/ examples/ai-fabric          # CI: fail on drift
  lossless render -golden approved/ -update examples/ai-fabric  # approve the change
  lossless render -var ecn_max=2MB -var-file prod.vars.hcl -inventory prod.hcl .
`

func runRender(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		out       = fs.String("o", "", "write one file per device into `DIR` (created if needed)")
		device    = fs.String("device", "", "render only the device `NAME`")
		formats   = append([]string{render.Native}, vendors.Formats()...)
		format    = fs.String("format", render.Native, "output `FORMAT`: native (the device config) or a format of some vendors ("+strings.Join(formats[1:], ", ")+")")
		goldenDir = fs.String("golden", "", "compare each rendering with its approved file in `DIR`; exit 1 on any difference")
		update    = fs.Bool("update", false, "with -golden: rewrite DIR to the current renderings instead of comparing")
		parallel  = fs.Int("parallelism", 0, "render at most `N` devices at once (default: one per CPU)")
		noColor   = fs.Bool("no-color", false, "never colour diagnostics (colour needs a terminal and NO_COLOR unset)")
		in        intentFlags
	)
	in.register(fs)
	// The flag package prints a bad flag's error to stderr; the full
	// usage goes to stdout, and only for -help.
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, renderUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			fmt.Fprint(stdout, renderExamples)
			return 0
		}
		fmt.Fprintln(stderr, "Run 'lossless render -help' for the options.")
		return 1
	}
	dir := "."
	switch fs.NArg() {
	case 0:
	case 1:
		dir = fs.Arg(0)
	default:
		fmt.Fprintf(stderr, "lossless render: one intent directory expected, got %d arguments\n", fs.NArg())
		return 1
	}
	switch {
	case !slices.Contains(formats, *format):
		fmt.Fprintf(stderr, "lossless render: -format %q: use %s\n", *format, strings.Join(formats, " or "))
		return 1
	case *update && *goldenDir == "":
		fmt.Fprintln(stderr, "lossless render: -update needs -golden DIR")
		return 1
	case *goldenDir != "" && (*out != "" || *device != ""):
		// A golden directory holds the whole fabric: comparing or
		// rewriting it from one device would report or delete the rest.
		fmt.Fprintln(stderr, "lossless render: -golden compares the whole fabric; it cannot be combined with -o or -device")
		return 1
	}

	res, diags := load.Fabric(dir, in.options())
	if len(diags) > 0 {
		_ = diag.WriteText(stderr, res.Files, diags, useColor(stderr, *noColor), 0)
	}
	if diags.HasErrors() {
		return 1
	}
	devs := res.Devices
	if *device != "" {
		i := slices.IndexFunc(devs, func(d *intent.Device) bool { return d.Name == *device })
		if i < 0 {
			fmt.Fprintf(stderr, "lossless render: no device %q in the fabric (%d devices)\n", *device, len(devs))
			return 1
		}
		devs = []*intent.Device{devs[i]}
	}

	switch {
	case *goldenDir != "":
		return renderGolden(devs, *format, *goldenDir, *update, *parallel, stdout, stderr)
	case *out != "":
		written, err := render.ToDir(ctx, devs, *format, *out, *parallel)
		warn(stderr, written)
		for _, f := range written {
			fmt.Fprintln(stdout, filepath.Join(*out, f.Name))
		}
		return fail(stderr, err)
	case len(devs) == 1:
		f, err := render.One(devs[0], *format)
		if err != nil {
			return fail(stderr, err)
		}
		warn(stderr, []render.File{f})
		if _, err := stdout.Write(f.Data); err != nil {
			return fail(stderr, err)
		}
		return 0
	}
	fmt.Fprintf(stderr, "lossless render: the fabric has %d devices: give -o DIR to write one file per device, or -device NAME\n", len(devs))
	return 1
}

func renderGolden(devs []*intent.Device, format, dir string, update bool, parallel int, stdout, stderr io.Writer) int {
	files, err := render.All(devs, format, parallel)
	warn(stderr, files)
	if err != nil {
		// Never approve or compare a partial fabric.
		return fail(stderr, err)
	}
	got := render.Map(files)
	if update {
		if err := golden.Update(dir, got); err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "updated %s: %d files\n", dir, len(got))
		return 0
	}
	ms, err := golden.Compare(dir, got)
	if err != nil {
		return fail(stderr, err)
	}
	if len(ms) == 0 {
		fmt.Fprintf(stdout, "%s: all %d files match\n", dir, len(got))
		return 0
	}
	golden.Report(stdout, dir, ms)
	fmt.Fprintf(stderr, "lossless render: %d of the files in %s do not match the rendering; review the diff and run with -update to approve it\n", len(ms), dir)
	return 1
}

func warn(w io.Writer, files []render.File) {
	for _, f := range files {
		for _, m := range f.Warnings {
			fmt.Fprintf(w, "warning: %s [%s]\n", m, m.Rule)
		}
	}
}

func fail(w io.Writer, err error) int {
	if err == nil {
		return 0
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintln(w, "lossless render:", line)
	}
	return 1
}
