package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all" // every driver
)

// fleetFlags are the flags plan and apply share.
type fleetFlags struct {
	intentFlags
	targets     stringsFlag
	parallelism int
	lab         bool
	labSeeds    stringsFlag
	insecure    bool
	skipVerify  bool
	plaintext   bool
	golden      string
	failFast    bool
	jsonOut     bool
	logLevel    string
	summary     bool
}

func (f *fleetFlags) register(fs *flag.FlagSet) {
	f.intentFlags.register(fs)
	fs.Var(&f.targets, "target", "limit to a device `NAME`, role:R or tag:T (repeatable)")
	fs.IntVar(&f.parallelism, "parallelism", plan.DefaultParallelism, "devices worked on at once")
	fs.BoolVar(&f.lab, "lab", false, "run against the embedded lab, started for the inventory")
	fs.Var(&f.labSeeds, "lab-seed", "with -lab, seed `DEVICE=FILE`'s emulated switch with a saved running config (repeatable)")
	fs.BoolVar(&f.insecure, "insecure-ignore-host-key", false, "do not check host keys against known_hosts")
	fs.BoolVar(&f.skipVerify, "insecure-skip-verify", false, "do not check gNMI server certificates")
	fs.BoolVar(&f.plaintext, "plaintext", false, "speak gNMI without TLS (the password crosses the network in clear)")
	fs.StringVar(&f.golden, "golden", "", "refuse devices whose rendering differs from `DIR`/<device>.cfg")
	fs.BoolVar(&f.failFast, "fail-fast", false, "stop at the first failed device")
	fs.BoolVar(&f.jsonOut, "json", false, "print one JSON document")
	fs.StringVar(&f.logLevel, "log-level", "warn", "log `LEVEL` on stderr: debug (wire traffic), info, warn, error")
	fs.BoolVar(&f.summary, "summary", false, "group devices with identical changes")
}

// lockedWriter serialises writes from the logger, the progress display
// and the command itself, which run on several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write writes p under the lock.
func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// fleetUsage describes the flags of fleetFlags, for plan and apply usage.
const fleetUsage = `  -target NAME|role:R|tag:T
                    limit to matching devices; repeatable (default: all)
  -parallelism N    devices worked on at once (default 10)
  -lab              start the embedded lab in-process for the inventory's
                    devices (each emulating its platform model with its
                    declared ports, seeded with a stale pre-existing
                    config) and run against it instead of the inventory's
                    addresses
  -lab-seed DEVICE=FILE
                    with -lab, start DEVICE's emulated switch from FILE, a
                    saved running config (show running-config text or
                    config_db.json), instead of the stale seed: a
                    rehearsal against a real switch's config; repeatable
  -insecure-ignore-host-key
                    skip the known_hosts check of device host keys
  -insecure-skip-verify
                    skip the check of gNMI server certificates against the
                    credentials' tls_ca (or the system roots)
  -plaintext        speak gNMI without TLS; the password crosses the
                    network in clear
  -golden DIR       refuse a device whose rendering differs from its
                    approved file DIR/<device>.cfg (or .json)
  -fail-fast        stop at the first failed device: no new device starts
                    and those in flight roll back
  -json             print one JSON document on stdout (no progress)
  -summary          print each distinct change once, with the devices
                    (and their common roles) that get it; with -json, add
                    "groups" beside the per-device detail
  -log-level LEVEL  debug (wire traffic), info, warn or error (default warn)
  -inventory FILE   inventory file (default: DIR/inventory.hcl)
  -var NAME=VALUE   set a variable; repeatable
  -var-file FILE    read variable values from an HCL file; repeatable
`

// fleet is a loaded fleet, with the embedded lab when -lab is set.
type fleet struct {
	devs   []plan.Device
	source *plan.Source
	// loaded is the fabric the devices come from: the intent and the
	// inventory as loaded once.
	loaded *load.Result
	log    *slog.Logger
	lab    *lab.Lab
	tmp    string

	// identity is the loaded fabric's identity.
	identity *plan.Identity
	// seeds are the -lab-seed files by device.
	seeds map[string][]byte
}

func (fl *fleet) close() {
	if fl.lab != nil {
		_ = fl.lab.Close()
	}
	if fl.tmp != "" {
		_ = os.RemoveAll(fl.tmp)
	}
}

// warnInsecure says on stderr which checks the insecure flags turn off.
func warnInsecure(w io.Writer, f *fleetFlags) {
	if f.insecure {
		fmt.Fprintln(w, "lossless: warning: -insecure-ignore-host-key: SSH host keys are not checked; anyone on the path can impersonate a device and read its login")
	}
	if f.skipVerify {
		fmt.Fprintln(w, "lossless: warning: -insecure-skip-verify: gNMI server certificates are not checked; anyone on the path can impersonate a device")
	}
	if f.plaintext {
		fmt.Fprintln(w, "lossless: warning: -plaintext: gNMI runs without TLS; logins and configs cross the network in the clear")
	}
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}

// loadFleet loads the intent and inventory of src, keeps the -target
// devices and, for a lab source, starts the lab and points them at it.
// Problems are printed on stderr; ok is false then.
func loadFleet(src *plan.Source, f *fleetFlags, stderr io.Writer) (*fleet, bool) {
	log, err := newLogger(stderr, f.logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "lossless: %v\n", err)
		return nil, false
	}
	fl := &fleet{source: src, log: log}
	if len(f.labSeeds) > 0 && !src.Lab {
		fmt.Fprintln(stderr, "lossless: -lab-seed needs -lab")
		return nil, false
	}
	warnInsecure(stderr, f)
	in, password := access(f.insecure, f.skipVerify, f.plaintext, src.Lab, log)
	loaded, diags := load.Fabric(src.Dir, load.Options{Inventory: src.Inventory, Vars: src.Vars, VarFiles: src.VarFiles, Targets: f.targets})
	if len(diags) > 0 {
		_ = diag.WriteText(stderr, loaded.Files, diags, useColor(stderr, false), 78)
	}
	if diags.HasErrors() {
		return nil, false
	}
	fl.loaded = loaded
	fl.identity = plan.FabricIdentity(loaded, src)
	devs, err := plan.Devices(loaded, in)
	if err != nil {
		fmt.Fprintf(stderr, "lossless: %v\n", err)
		return nil, false
	}
	fl.devs = devs
	if src.Lab {
		seeds, err := readLabSeeds(f.labSeeds, fl.devs)
		if err != nil {
			fmt.Fprintf(stderr, "lossless: %v\n", err)
			return nil, false
		}
		fl.seeds = seeds
		if err := fl.startLab(password); err != nil {
			fl.close()
			fmt.Fprintf(stderr, "lossless: %v\n", err)
			return nil, false
		}
	}
	return fl, true
}

// access is how the devices are reached: credentials from the
// environment and files, the insecure flags, and for the embedded lab
// (withLab) a random password, never shown, that every login uses.
func access(insecure, skipVerify, plaintext, withLab bool, log *slog.Logger) (plan.Access, vendors.Secret) {
	home, _ := os.UserHomeDir()
	in := plan.Access{Env: os.LookupEnv, Home: home, InsecureIgnoreHostKey: insecure,
		InsecureSkipVerify: skipVerify, Plaintext: plaintext, Logger: log}
	var password vendors.Secret
	if withLab {
		password = vendors.Secret(rand.Text())
		in.Login = func(string, *inventory.Credentials) (vendors.Login, error) {
			return vendors.Login{User: lab.DefaultUser, Password: password}, nil
		}
	}
	return in, password
}

// startLab starts one emulated device per selected device, named, of
// the lab kind that emulates its vendor and built as the model with the
// ports the inventory says, seeded by the vendor's LabSeed, and points
// each target at it with the lab's host keys.
func (fl *fleet) startLab(password vendors.Secret) error {
	l, err := lab.New(lab.WithCredentials(lab.DefaultUser, password.Reveal()))
	if err != nil {
		return err
	}
	fl.lab = l
	nodes, err := seedLabFrom(l, fl.devs, fl.loaded.Inventory, fl.seeds, fl.log)
	if err != nil {
		return err
	}
	if fl.tmp, err = pointAtLab(l, fl.devs, nodes); err != nil {
		return err
	}
	fl.log.Info("lab started", "devices", len(fl.devs))
	return nil
}

// pointAtLab points each target of devs at its node of l, over SSH with
// the lab's host keys, written to a known_hosts file in a new temporary
// directory, which it returns for the caller to remove.
func pointAtLab(l *lab.Lab, devs []plan.Device, nodes map[string]*lab.Node) (string, error) {
	tmp, err := os.MkdirTemp("", "lossless-lab-")
	if err != nil {
		return "", fmt.Errorf("-lab: %w", err)
	}
	kh := filepath.Join(tmp, lab.KnownHostsFile)
	if err := l.WriteKnownHosts(kh); err != nil {
		return tmp, fmt.Errorf("-lab: %w", err)
	}
	hostKeys, err := vendors.KnownHosts(kh)
	if err != nil {
		return tmp, fmt.Errorf("-lab: %w", err)
	}
	for i := range devs {
		t := &devs[i].Target
		n := nodes[t.Device]
		// Lab devices are reached over SSH, whatever the inventory's
		// transport for the real switch.
		t.Address, t.Port, t.Transport = "127.0.0.1", n.Port(), "ssh"
		t.Login.KnownHosts, t.Login.HostKeys = kh, hostKeys
	}
	return tmp, nil
}

// seedLab adds to l one emulated device per device of devs, named, of
// the lab kind that emulates its vendor and built as the model with the
// ports inv says, seeded by the vendor's LabSeed from its rendering.
func seedLab(l *lab.Lab, devs []plan.Device, inv *inventory.Inventory, log *slog.Logger) (map[string]*lab.Node, error) {
	return seedLabFrom(l, devs, inv, nil, log)
}

// seedLabFrom is seedLab with saved running configs (-lab-seed) for some
// devices: such a device starts from its file, built as its model with
// the ports its config has, and a file the emulator refuses is an error
// (it is the user's real config, not a seed of lossless').
func seedLabFrom(l *lab.Lab, devs []plan.Device, inv *inventory.Inventory, files map[string][]byte, log *slog.Logger) (map[string]*lab.Node, error) {
	nodes := map[string]*lab.Node{}
	for _, d := range devs {
		v, ok := vendors.Lookup(d.Intent.Vendor)
		if !ok || v.LabKind == "" {
			return nil, fmt.Errorf("-lab: device %s: the lab emulates no %s device", d.Intent.Name, d.Intent.Vendor)
		}
		invDev := inv.Device(d.Intent.Name)
		if file, ok := files[d.Intent.Name]; ok {
			n, err := l.Add(v.LabKind, d.Intent.Name, file, seededSpec(invDev)...)
			if err != nil {
				return nil, fmt.Errorf("-lab-seed %s: %w", d.Intent.Name, err)
			}
			nodes[d.Intent.Name] = n
			continue
		}
		var seed []byte
		if v.LabSeed != nil {
			if doc, err := v.Render(d.Intent); err == nil {
				seed = v.LabSeed(doc.Text)
			}
		}
		spec := labSpec(invDev)
		n, err := l.Add(v.LabKind, d.Intent.Name, seed, spec...)
		if err != nil && seed != nil {
			// A seed the emulator refuses is the seed's bug, not a
			// reason to stop: start that device from factory defaults.
			log.Warn("lab refused the seed; starting from factory defaults", "device", d.Intent.Name, "err", err)
			n, err = l.Add(v.LabKind, d.Intent.Name, nil, spec...)
		}
		if err != nil {
			return nil, fmt.Errorf("-lab: %w", err)
		}
		nodes[d.Intent.Name] = n
	}
	return nodes, nil
}

// readLabSeeds reads the -lab-seed DEVICE=FILE values: each a selected
// device, each file bounded as import's -from.
func readLabSeeds(vals []string, devs []plan.Device) (map[string][]byte, error) {
	paths, err := parseFrom(vals)
	if err != nil {
		return nil, errors.New(strings.Replace(err.Error(), "-from", "-lab-seed", 1))
	}
	out := map[string][]byte{}
	for name, path := range paths {
		if !slices.ContainsFunc(devs, func(d plan.Device) bool { return d.Intent.Name == name }) {
			return nil, fmt.Errorf("-lab-seed %s: no selected device is named %s", name, name)
		}
		b, err := readBounded(path)
		if err != nil {
			return nil, fmt.Errorf("-lab-seed %s: %w", name, err)
		}
		out[name] = b
	}
	return out, nil
}

// options builds the plan options of the flags, with a progress display
// on stderr unless -json: one updating line on a terminal, plain lines
// elsewhere.
func (f *fleetFlags) options(fl *fleet, verb string, stderr io.Writer, total int) plan.Options {
	o := plan.Options{Parallelism: f.parallelism, FailFast: f.failFast, Golden: f.golden, Logger: fl.log}
	if f.jsonOut || total == 0 {
		return o
	}
	var mu sync.Mutex
	done, failed := 0, 0
	live := false
	w := stderr
	if lw, ok := w.(*lockedWriter); ok {
		w = lw.w
	}
	if f, ok := w.(*os.File); ok {
		live = term.IsTerminal(int(f.Fd()))
	}
	o.Progress = func(device, state string) {
		mu.Lock()
		defer mu.Unlock()
		switch state {
		case "done":
			done++
		case "failed":
			done++
			failed++
		}
		if live {
			fmt.Fprintf(stderr, "\r%s: %d/%d devices done, %d failed ", verb, done, total, failed)
			if done == total {
				fmt.Fprintln(stderr)
			}
			return
		}
		if state != "started" {
			fmt.Fprintf(stderr, "%s %s: %s\n", verb, device, state)
		}
	}
	return o
}

// parseFlags parses args, printing usage for -help; code is -1 to go on.
func parseFlags(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) int {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "lossless %s: %v\n\n%s", fs.Name(), err, usage)
		return 1
	}
	return -1
}

func (f *fleetFlags) validate(name string, stderr io.Writer) bool {
	if f.parallelism < 1 {
		fmt.Fprintf(stderr, "lossless %s: -parallelism must be at least 1, got %d\n", name, f.parallelism)
		return false
	}
	return true
}

// source records where the intent is, with absolute paths so that a saved
// plan applies from any directory.
func (f *fleetFlags) source(dir string) *plan.Source {
	files := make([]string, len(f.varFiles))
	for i, v := range f.varFiles {
		files[i] = abs(v)
	}
	return &plan.Source{Dir: abs(dir), Inventory: abs(f.inventory), Vars: f.vars, VarFiles: files, Lab: f.lab}
}

func abs(path string) string {
	if path == "" {
		return ""
	}
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
}

// planJSON is the -json document of plan.
type planJSON struct {
	*plan.Plan
	Summary plan.Counts `json:"summary"`
	// Groups are the distinct changes, with -summary.
	Groups []plan.Group `json:"groups,omitempty"`
	// Interrupted are the devices an apply left in flight.
	Interrupted []interruptedJSON `json:"interrupted,omitempty"`
}

// writePlan prints a plan as text, grouped with -summary.
func (f *fleetFlags) writePlan(w io.Writer, fl *fleet, p *plan.Plan) {
	if f.summary {
		p.WriteSummary(w, fl.roles)
		return
	}
	p.WriteText(w)
}

// roles returns a device's roles.
func (fl *fleet) roles(device string) []string {
	for _, d := range fl.devs {
		if d.Intent.Name == device {
			return d.Intent.Roles
		}
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// indentLines indents every line of s by two spaces.
func indentLines(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}

// planFleet plans fl's devices and records where the intent came from,
// the fabric's identity and the lossless version.
func planFleet(ctx context.Context, fl *fleet, o plan.Options) (*plan.Plan, error) {
	p, err := plan.Make(ctx, fl.devs, o)
	if p != nil {
		p.Source, p.Fabric, p.Version = fl.source, fl.identity.Of(p), buildVersion()
	}
	return p, err
}
