package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/importer"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

const importUsage = `Usage: lossless import [options] [-o DIR | DIR]

Reads each inventory device's running config (over its transport, or
from a saved file with -from) and writes an intent that describes the
QoS it has, to DIR/qos.hcl (DIR default: the current directory, whose
inventory.hcl lists the devices). Devices with the same QoS share a
qos_profile; a device that differs a little gets a device override that
says only what differs, a port that differs from its device a port
override; the names the devices use (policy-maps, class-maps, DiffServ
domains, SONiC maps and schedulers) are kept as they are.

What a running config has in lossless' scope that the intent cannot say
is listed per device with its line, in the report and as comments in
qos.hcl; it is never dropped silently. Then import checks the round trip
itself: it renders the written intent and diffs it against each running
config read, as plan would; a device that does not round-trip is listed
with its diff.

DIR must not hold an intent already (any *.hcl file other than the
inventory); -force replaces a qos.hcl written by an earlier import. Ports
a running config gives QoS and a speed to that the inventory lacks are
added to DIR/inventory.hcl (a copy of the inventory when it is elsewhere,
so that lossless plan DIR reads it).

Exit status: 0 every device imported, nothing left unexpressed, and every
device round-trips; 2 the intent was written but some device has lines
the intent cannot say or does not round-trip; 1 nothing was written (a
bad flag, an unreadable inventory or device).

Options:
  -from DEVICE=FILE read DEVICE's running config from FILE (its "show
                    running-config" text, or SONiC's config_db.json)
                    instead of the device; repeatable
  -lab              start the embedded lab for the selected devices, each
                    seeded with its -from file (factory defaults without
                    one), and import from it over SSH: a rehearsal of the
                    import of real devices (then plan -lab -lab-seed
                    DEVICE=FILE shows the plan against the same config)
  -o DIR            write the intent to DIR (the same as giving DIR)
  -force            overwrite DIR/qos.hcl
  -target NAME|role:R|tag:T
                    import only matching devices; repeatable (default: all)
  -inventory FILE   inventory file (default: DIR/inventory.hcl)
  -parallelism N    devices read at once (default 10)
  -insecure-ignore-host-key
                    skip the known_hosts check of device host keys
  -insecure-skip-verify
                    skip the check of gNMI server certificates
  -plaintext        speak gNMI without TLS
  -json             print the report as one JSON document
  -log-level LEVEL  debug, info, warn or error (default warn)

Examples:
  lossless import fabric
  lossless import -target role:leaf -from leaf1=leaf1-running.cfg fabric
  lossless import -lab -from leaf1=leaf1.cfg -from sonic1=config_db.json fabric
  lossless import -json . > import.json
  lossless import -inventory inventory.hcl -o adopted
`

type importFlags struct {
	inventory   string
	from        stringsFlag
	lab         bool
	force       bool
	out         string
	targets     stringsFlag
	parallelism int
	insecure    bool
	skipVerify  bool
	plaintext   bool
	jsonOut     bool
	logLevel    string
}

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("import", flag.ContinueOnError)
	var f importFlags
	fl.StringVar(&f.inventory, "inventory", "", "inventory `FILE` (default DIR/inventory.hcl)")
	fl.Var(&f.from, "from", "read `DEVICE=FILE` from a saved running config (repeatable)")
	fl.BoolVar(&f.lab, "lab", false, "import from the embedded lab seeded with the -from files")
	fl.BoolVar(&f.force, "force", false, "overwrite DIR/qos.hcl")
	fl.StringVar(&f.out, "o", "", "write the intent to `DIR`")
	fl.Var(&f.targets, "target", "import only a device `NAME`, role:R or tag:T (repeatable)")
	fl.IntVar(&f.parallelism, "parallelism", plan.DefaultParallelism, "devices read at once")
	fl.BoolVar(&f.insecure, "insecure-ignore-host-key", false, "do not check host keys against known_hosts")
	fl.BoolVar(&f.skipVerify, "insecure-skip-verify", false, "do not check gNMI server certificates")
	fl.BoolVar(&f.plaintext, "plaintext", false, "speak gNMI without TLS")
	fl.BoolVar(&f.jsonOut, "json", false, "print one JSON document")
	fl.StringVar(&f.logLevel, "log-level", "warn", "log `LEVEL` on stderr")
	stderr = &lockedWriter{w: stderr}
	if code := parseFlags(fl, args, importUsage, stdout, stderr); code >= 0 {
		return code
	}
	if fl.NArg() > 1 {
		fmt.Fprintf(stderr, "lossless import: want at most one DIR, got %d arguments\n", fl.NArg())
		return 1
	}
	if f.parallelism < 1 {
		fmt.Fprintf(stderr, "lossless import: -parallelism must be at least 1, got %d\n", f.parallelism)
		return 1
	}
	dir := "."
	switch {
	case fl.NArg() == 1 && f.out != "" && filepath.Clean(fl.Arg(0)) != filepath.Clean(f.out):
		fmt.Fprintf(stderr, "lossless import: -o %s and DIR %s differ; give one\n", f.out, fl.Arg(0))
		return 1
	case fl.NArg() == 1:
		dir = fl.Arg(0)
	case f.out != "":
		dir = f.out
	}
	invPath := f.inventory
	if invPath == "" {
		invPath = filepath.Join(dir, intent.DefaultInventoryFile)
	}
	if err := checkOutput(dir, invPath, f.force); err != nil {
		fmt.Fprintf(stderr, "lossless import: %v\n", err)
		return 1
	}
	from, err := parseFrom(f.from)
	if err != nil {
		fmt.Fprintf(stderr, "lossless import: %v\n", err)
		return 1
	}
	log, err := newLogger(stderr, f.logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "lossless import: %v\n", err)
		return 1
	}
	if f.insecure || f.skipVerify || f.plaintext {
		warnInsecure(stderr, &fleetFlags{insecure: f.insecure, skipVerify: f.skipVerify, plaintext: f.plaintext})
	}

	if _, err := os.Stat(invPath); err != nil {
		fmt.Fprintf(stderr, "lossless import: cannot read the inventory %s: %v; put an inventory.hcl in %s or pass -inventory FILE\n", invPath, errors.Unwrap(err), dir)
		return 1
	}
	inv, diags := load.Inventory(invPath)
	if len(diags) > 0 {
		files := map[string]*hcl.File{}
		if inv != nil {
			files = inv.Files
		}
		_ = diag.WriteText(stderr, files, diags, useColor(stderr, false), 78)
	}
	if diags.HasErrors() || inv == nil {
		return 1
	}
	in, password := access(f.insecure, f.skipVerify, f.plaintext, f.lab, log)
	sel, err := selectTargets(inv, f.targets)
	if err != nil {
		fmt.Fprintf(stderr, "lossless import: %v\n", err)
		return 1
	}
	for name := range from {
		if !slices.Contains(sel, name) {
			fmt.Fprintf(stderr, "lossless import: -from %s: no selected inventory device is named %s\n", name, name)
			return 1
		}
	}
	// Only the devices read over a transport need a login.
	var dial []string
	var devs []plan.Device
	for _, name := range sel {
		if _, saved := from[name]; saved && !f.lab {
			d := inv.Device(name)
			devs = append(devs, plan.Device{Intent: &intent.Device{Name: name, Vendor: d.Vendor}, Target: vendors.Target{Device: name, Vendor: d.Vendor}})
			continue
		}
		dial = append(dial, name)
	}
	if len(dial) > 0 {
		dialed, err := plan.InventoryDevices(inv, dial, in)
		if err != nil {
			fmt.Fprintf(stderr, "lossless import: %v\n", err)
			return 1
		}
		devs = append(devs, dialed...)
	}
	slices.SortFunc(devs, func(a, b plan.Device) int { return strings.Compare(a.Intent.Name, b.Intent.Name) })
	files := map[string][]byte{}
	for name, path := range from {
		b, err := readBounded(path)
		if err != nil {
			fmt.Fprintf(stderr, "lossless import: -from %s: %v\n", name, err)
			return 1
		}
		files[name] = b
	}

	var srcs []importer.Source
	if f.lab {
		l, err := lab.New(lab.WithCredentials(lab.DefaultUser, password.Reveal()))
		if err != nil {
			fmt.Fprintf(stderr, "lossless import: -lab: %v\n", err)
			return 1
		}
		defer l.Close()
		nodes := map[string]*lab.Node{}
		for _, d := range devs {
			v, _ := vendors.Lookup(d.Intent.Vendor)
			if v.LabKind == "" {
				fmt.Fprintf(stderr, "lossless import: -lab: device %s: the lab emulates no %s device\n", d.Intent.Name, d.Intent.Vendor)
				return 1
			}
			spec := labSpec(inv.Device(d.Intent.Name))
			if _, seeded := files[d.Intent.Name]; seeded {
				spec = seededSpec(inv.Device(d.Intent.Name))
			}
			n, err := l.Add(v.LabKind, d.Intent.Name, files[d.Intent.Name], spec...)
			if err != nil {
				fmt.Fprintf(stderr, "lossless import: -lab: device %s: %v\n", d.Intent.Name, err)
				return 1
			}
			nodes[d.Intent.Name] = n
		}
		tmp, err := pointAtLab(l, devs, nodes)
		if tmp != "" {
			defer os.RemoveAll(tmp)
		}
		if err != nil {
			fmt.Fprintf(stderr, "lossless import: %v\n", err)
			return 1
		}
	}
	srcs, err = readSources(ctx, devs, inv, files, from, f.lab, f.parallelism, log)
	if err != nil {
		fmt.Fprintf(stderr, "lossless import: %v\n", err)
		return 1
	}

	res := importer.Import(srcs)
	out := filepath.Join(dir, importer.File)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "lossless import: %v\n", err)
		return 1
	}
	if err := os.WriteFile(out, res.Files[importer.File], 0o644); err != nil {
		fmt.Fprintf(stderr, "lossless import: %v\n", err)
		return 1
	}
	invOut, added, err := writeInventory(res, invPath, dir)
	if err != nil {
		fmt.Fprintf(stderr, "lossless import: %v\n", err)
		return 1
	}
	checkDiags := importer.Check(res, dir, invOut)
	if f.jsonOut {
		writeImportJSON(stdout, res, out, checkDiags)
	} else {
		if len(checkDiags) > 0 {
			loaded, _ := load.Fabric(dir, load.Options{Inventory: invPath})
			_ = diag.WriteText(stderr, loaded.Files, checkDiags, useColor(stderr, false), 78)
		}
		writeImportText(stdout, res, out)
		if invOut != invPath || len(added) > 0 {
			fmt.Fprintf(stdout, "Wrote %s", invOut)
			if len(added) > 0 {
				fmt.Fprintf(stdout, ", with the ports the running configs give QoS and a speed to:\n")
				for _, l := range added {
					fmt.Fprintf(stdout, "  %s\n", l)
				}
			} else {
				fmt.Fprintf(stdout, ", a copy of %s, so that lossless plan %s finds it.\n", invPath, dir)
			}
		}
	}
	if checkDiags.HasErrors() {
		return 1
	}
	for _, d := range res.Devices {
		if d.Err != nil || !d.RoundTrips() || len(d.Unexpressed) > 0 || len(d.Problems) > 0 {
			return 2
		}
	}
	return 0
}

// writeInventory makes DIR's inventory: the inventory with the ports
// the running configs give QoS and a speed to that it lacks, in place
// when it is DIR's own, else as DIR/inventory.hcl, so that lossless plan
// DIR reads it. A containerlab inventory is left as it is. It returns
// the inventory the written intent goes with and the ports added.
func writeInventory(res *importer.Result, invPath, dir string) (string, []string, error) {
	if filepath.Ext(invPath) != ".hcl" {
		return invPath, nil, nil
	}
	src, err := os.ReadFile(invPath)
	if err != nil {
		return "", nil, err
	}
	patched, added, err := res.AddPorts(src, invPath)
	if err != nil {
		return "", nil, err
	}
	target := filepath.Join(dir, intent.DefaultInventoryFile)
	if a, b := abs(invPath), abs(target); a == b && len(added) == 0 {
		return invPath, nil, nil
	}
	if err := os.WriteFile(target, patched, 0o644); err != nil {
		return "", nil, err
	}
	return target, added, nil
}

// checkOutput refuses a DIR that holds an intent already: import would
// mix its profiles with the old ones.
func checkOutput(dir, invPath string, force bool) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	invAbs, _ := filepath.Abs(invPath)
	for _, e := range ents {
		if e.IsDir() || filepath.Ext(e.Name()) != ".hcl" {
			continue
		}
		p, _ := filepath.Abs(filepath.Join(dir, e.Name()))
		if p == invAbs || (e.Name() == importer.File && force) {
			continue
		}
		if e.Name() == importer.File {
			return fmt.Errorf("%s exists; pass -force to overwrite it", filepath.Join(dir, e.Name()))
		}
		return fmt.Errorf("%s already holds an intent (%s); import into a directory with only the inventory", dir, e.Name())
	}
	return nil
}

// parseFrom reads the -from DEVICE=FILE values.
func parseFrom(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		name, path, ok := strings.Cut(v, "=")
		if !ok || name == "" || path == "" {
			return nil, fmt.Errorf("-from %q: want DEVICE=FILE", v)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("-from %s given twice", name)
		}
		out[name] = path
	}
	return out, nil
}

// maxSavedConfig bounds a -from file: the largest running configs are a
// few MiB.
const maxSavedConfig = 16 << 20

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSavedConfig+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSavedConfig {
		return nil, fmt.Errorf("%s is larger than %d MiB; a running config is much smaller", path, maxSavedConfig>>20)
	}
	return b, nil
}

// selectTargets returns the names of the inventory devices matching the
// -target values (every device without one).
func selectTargets(inv *inventory.Inventory, targets []string) ([]string, error) {
	ids := make([]*intent.Device, len(inv.Devices))
	for i, d := range inv.Devices {
		ids[i] = &intent.Device{Name: d.Name, Vendor: d.Vendor, Roles: d.Roles, Tags: d.Tags}
	}
	sel, diags := load.Select(ids, targets)
	if diags.HasErrors() {
		return nil, errors.New(diags[0].Detail)
	}
	names := make([]string, len(sel))
	for i, d := range sel {
		names[i] = d.Name
	}
	return names, nil
}

// readSources reads each device's running config: from its saved file
// (through its vendor's Saved) when files has one and viaLab is false,
// else over its transport (the lab seeded with the file), in parallel.
func readSources(ctx context.Context, devs []plan.Device, inv *inventory.Inventory, files map[string][]byte, from map[string]string, viaLab bool, parallelism int, log *slog.Logger) ([]importer.Source, error) {
	srcs := make([]importer.Source, len(devs))
	var mu sync.Mutex
	var errs []error
	err := plan.Each(ctx, devs, plan.Options{Parallelism: parallelism}, func(ctx context.Context, i int, d plan.Device) error {
		name := d.Intent.Name
		v, _ := vendors.Lookup(d.Intent.Vendor)
		src := importer.Source{Device: inv.Device(name)}
		if b, ok := files[name]; ok && !viaLab {
			if v.Saved == nil {
				return fmt.Errorf("-from %s: lossless reads no saved %s config", name, d.Intent.Vendor)
			}
			run, err := v.Saved(b)
			if err != nil {
				return fmt.Errorf("-from %s: %s: %w", name, from[name], err)
			}
			src.Running, src.From, src.File = run, from[name], b
		} else {
			drv, err := v.Dial(ctx, d.Target)
			if err != nil {
				return err
			}
			defer drv.Close()
			run, err := drv.Running(ctx)
			if err != nil {
				return err
			}
			src.Running = run
			if b, ok := files[name]; ok {
				src.From, src.File = from[name]+" (in the lab)", b
			}
			log.Info("read", "device", name, "bytes", len(run))
		}
		srcs[i] = src
		return nil
	}, func(i int, d plan.Device, err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return srcs, nil
}

func writeImportText(w io.Writer, res *importer.Result, out string) {
	ok := 0
	for _, d := range res.Devices {
		from := ""
		if d.From != "" {
			from = ", from " + d.From
		}
		fmt.Fprintf(w, "%s (%s%s): ", d.Name, d.Vendor, from)
		switch {
		case d.Err != nil:
			fmt.Fprintf(w, "not imported: %v\n", d.Err)
			continue
		case d.Profile == "":
			fmt.Fprint(w, "no QoS in lossless' scope")
		case d.Override:
			fmt.Fprintf(w, "qos_profile %q with a device override", d.Profile)
		default:
			fmt.Fprintf(w, "qos_profile %q", d.Profile)
		}
		switch {
		case d.CheckErr != nil:
			fmt.Fprintf(w, "; round trip not checked: %v\n", d.CheckErr)
		case d.RoundTrips():
			fmt.Fprint(w, "; round-trips (its plan is empty)\n")
			ok++
		default:
			fmt.Fprint(w, "; does NOT round-trip, its plan would change:\n")
			for _, l := range strings.Split(strings.TrimRight(d.Change.Diff, "\n"), "\n") {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
		if len(d.Unexpressed) > 0 {
			where := strings.TrimSuffix(d.From, " (in the lab)")
			if where == "" {
				where = "running config"
			}
			fmt.Fprintf(w, "  not expressed in the intent (%d):\n", len(d.Unexpressed))
			for _, u := range d.Unexpressed {
				fmt.Fprintf(w, "    %s:%d: %s — %s\n", where, u.Line, strings.TrimSpace(u.Text), u.Reason)
			}
		}
		for _, p := range d.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	fmt.Fprintf(w, "\nWrote %s. %d of %d devices round-trip.\n", out, ok, len(res.Devices))
}

func writeImportJSON(w io.Writer, res *importer.Result, out string, diags hcl.Diagnostics) {
	type device struct {
		*importer.Device
		RoundTrips bool   `json:"round_trips"`
		Error      string `json:"error,omitempty"`
		CheckError string `json:"check_error,omitempty"`
	}
	doc := struct {
		File        string   `json:"file"`
		Devices     []device `json:"devices"`
		Diagnostics []string `json:"diagnostics,omitempty"`
	}{File: out}
	for _, d := range res.Devices {
		e := device{Device: d, RoundTrips: d.RoundTrips()}
		if d.Err != nil {
			e.Error = d.Err.Error()
		}
		if d.CheckErr != nil {
			e.CheckError = d.CheckErr.Error()
		}
		doc.Devices = append(doc.Devices, e)
	}
	for _, d := range diags {
		doc.Diagnostics = append(doc.Diagnostics, d.Error())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(doc)
}
