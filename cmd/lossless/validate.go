package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/renderers"
	_ "github.com/lossless-net/lossless/renderers/all" // vendor names for the inventory
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

// loaded is an intent joined with its inventory.
type loaded struct {
	devices []*intent.Device
	files   map[string]*hcl.File
	diags   hcl.Diagnostics
}

// vendorNames are the vendor names the inventory accepts: every registered
// renderer, plus the four vendors lossless is built for, so that a device
// of a vendor whose renderer is not linked in still validates.
func vendorNames() []string {
	names := append(renderers.Names(), inventory.DefaultVendors()...)
	slices.Sort(names)
	return slices.Compact(names)
}

// loadIntent loads DIR's intent and the inventory and resolves them.
func loadIntent(dir string, f *intentFlags) loaded {
	var out loaded
	out.files = map[string]*hcl.File{}
	invPath := f.inventory
	if invPath == "" {
		invPath = filepath.Join(dir, intent.DefaultInventoryFile)
	}
	fab, diags := intent.Load(dir, f.vars, f.varFiles, intent.SkipFile(invPath))
	out.diags = append(out.diags, diags...)
	if fab != nil {
		for n, file := range fab.Files {
			out.files[n] = file
		}
	}
	if _, err := os.Stat(invPath); err != nil {
		out.diags = append(out.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No inventory",
			Detail: fmt.Sprintf("Cannot read the inventory %s: %s. Put an inventory.hcl in the intent directory or pass -inventory FILE.", invPath, errors.Unwrap(err))})
		return out
	}
	inv, diags := inventory.Load(invPath, vendorNames())
	out.diags = append(out.diags, diags...)
	if inv != nil {
		for n, file := range inv.Files {
			out.files[n] = file
		}
	}
	if fab == nil || inv == nil {
		return out
	}
	devices, diags := intent.Resolve(fab, inv)
	out.devices = devices
	out.diags = append(out.diags, diags...)
	out.diags = append(out.diags, plan.TransportDiagnostics(inv)...)
	if !out.diags.HasErrors() {
		out.diags = append(out.diags, renderable(devices)...)
	}
	diag.Sort(out.diags)
	return out
}

// renderable renders the devices with their vendors' renderers and reports
// what a renderer refuses (a feature the vendor or platform cannot
// express) or the vendor's schema rejects, so that validate fails whenever
// render would. Renderer warnings (values rounded to the device's
// granularity) are render's to print, not validate's.
//
// Devices of one shape (vendor, platform, profiles, per-port profiles and
// options) render alike but for names and per-port numbers, so one device
// of each shape is rendered: a fabric of thousands of devices costs a few
// renderings, not thousands (SONiC's in-process YANG check alone takes a
// noticeable fraction of a second per device).
func renderable(devices []*intent.Device) hcl.Diagnostics {
	var diags hcl.Diagnostics
	type shape struct{ first, count int }
	shapes := map[string]*shape{}
	var order []string
	for i, d := range devices {
		k := shapeKey(d)
		if s, ok := shapes[k]; ok {
			s.count++
			continue
		}
		shapes[k] = &shape{first: i, count: 1}
		order = append(order, k)
	}
	for _, k := range order {
		s := shapes[k]
		d := devices[s.first]
		r, ok := renderers.Lookup(d.Vendor)
		if !ok {
			continue
		}
		also := ""
		if s.count > 1 {
			also = fmt.Sprintf(" The same holds for %d other devices with this vendor, platform and profiles.", s.count-1)
		}
		rng := d.Range
		doc, err := r.Render(d)
		if err != nil {
			detail := err.Error() + "."
			var ue *renderers.UnsupportedError
			if errors.As(err, &ue) {
				detail = fmt.Sprintf("Device %q (%s) cannot express %s: %s.", ue.Device, ue.Vendor, ue.Feature, ue.Reason)
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Not supported by the device's vendor", Detail: detail + also, Subject: &rng})
			continue
		}
		// The vendor's own schema (SONiC YANG), checked in-process so that
		// validate needs no yanglint.
		if r.Check != nil {
			if err := r.Check(doc); err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Rendering rejected by the vendor's schema",
					Detail: fmt.Sprintf("Device %q (%s): %v.%s", d.Name, d.Vendor, err, also), Subject: &rng})
			}
		}
	}
	return diags
}

// shapeKey identifies what a rendering depends on besides names and
// per-port numbers: the vendor, the platform, the profiles (devices that
// share a profile share its *QoS and *Buffers), each distinct per-port
// profile, and the options.
func shapeKey(d *intent.Device) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%p|%p|%p", d.Vendor, d.Platform, d.QoS, d.Buffers)
	seen := map[*intent.QoS]bool{d.QoS: true}
	for _, p := range d.Ports {
		if !seen[p.QoS] {
			seen[p.QoS] = true
			fmt.Fprintf(&b, "|%p", p.QoS)
		}
	}
	keys := make([]string, 0, len(d.Options))
	for k := range d.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "|%q=%q", k, d.Options[k])
	}
	return b.String()
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
	res := loadIntent(dir, &f)
	failed := diag.Failed(res.diags, *strict)
	if *jsonOut {
		if err := diag.WriteJSON(stdout, res.diags, *strict); err != nil {
			fmt.Fprintf(stderr, "lossless validate: %v\n", err)
			return 1
		}
	} else {
		if err := diag.WriteText(stderr, res.files, res.diags, useColor(stderr, *noColor), 78); err != nil {
			fmt.Fprintf(stderr, "lossless validate: %v\n", err)
			return 1
		}
		if !failed {
			ports := 0
			for _, d := range res.devices {
				ports += len(d.Ports)
			}
			fmt.Fprintf(stdout, "The intent is valid: %d devices, %d ports.\n", len(res.devices), ports)
		}
	}
	if failed {
		return 1
	}
	return 0
}
