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
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/internal/lab"
	_ "github.com/lossless-net/lossless/internal/lab/all" // every personality
	"github.com/lossless-net/lossless/internal/lab/device"
	gnmitarget "github.com/lossless-net/lossless/internal/lab/gnmi"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

const labUsage = `Usage: lossless lab up [options]

Starts emulated switches (SSH servers on 127.0.0.1, one port each, with the
vendor's prompts, grammar, errors and commit/rollback) in this process,
writes an inventory and a known_hosts file pointing at them, and runs until
interrupted (Ctrl-C).

The devices accept the user and password in LOSSLESS_USER and
LOSSLESS_PASSWORD when set, else admin / admin.

Options:
  -inventory FILE   start the devices named in this inventory, each built as
                    its platform model with its declared ports
  -n N              devices per vendor when no -inventory (default 1)
  -vendors LIST     comma-separated vendors when no -inventory
                    (default: every vendor the lab emulates)
  -seed DIR         start each device from DIR/<device>.cfg (CLI running
                    config) or DIR/<device>.json (SONiC CONFIG_DB)
  -out DIR          where inventory.hcl and known_hosts go (default "lab")
  -gnmi             also serve gNMI (TLS, CA written to DIR/gnmi-ca.pem)
                    for the devices that support it (EOS, SONiC)
  -authorized-keys FILE
                    also accept the public keys in FILE (OpenSSH
                    authorized_keys format) for the lab's user

Fault flags (applied to every device):
  -latency DURATION          delay each reply (e.g. 200ms)
  -close-after N             drop the connection after N commands
  -reject REGEX              refuse config lines matching REGEX with the
                             vendor's invalid-input error
  -fail-commit               make commits fail
  -expire-commit-timer       roll a timed commit back at once
  -refuse-auth               refuse every login
  -change-host-key           present a host key other than known_hosts'
  -no-prompt                 never print a prompt

Examples:
  lossless lab up -n 2 -vendors nxos,eos -out /tmp/lab
  lossless lab up -inventory examples/ai-fabric/inventory.hcl -seed seeds -gnmi
  lossless lab up -vendors eos -fail-commit
`

func runLab(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "up" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprint(stdout, labUsage)
			return 0
		}
		fmt.Fprint(stderr, labUsage)
		return 1
	}
	fs := flag.NewFlagSet("lab up", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	invPath := fs.String("inventory", "", "")
	n := fs.Int("n", 1, "")
	vendorList := fs.String("vendors", "", "")
	seedDir := fs.String("seed", "", "")
	outDir := fs.String("out", "lab", "")
	withGNMI := fs.Bool("gnmi", false, "")
	authKeys := fs.String("authorized-keys", "", "")
	var f faultFlags
	fs.DurationVar(&f.latency, "latency", 0, "")
	fs.IntVar(&f.closeAfter, "close-after", 0, "")
	fs.StringVar(&f.reject, "reject", "", "")
	fs.BoolVar(&f.failCommit, "fail-commit", false, "")
	fs.BoolVar(&f.expireTimer, "expire-commit-timer", false, "")
	fs.BoolVar(&f.refuseAuth, "refuse-auth", false, "")
	fs.BoolVar(&f.changeHostKey, "change-host-key", false, "")
	fs.BoolVar(&f.noPrompt, "no-prompt", false, "")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, labUsage)
			return 0
		}
		fmt.Fprintf(stderr, "lossless lab up: %v\n\n%s", err, labUsage)
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lossless lab up: unexpected argument %q\n", fs.Arg(0))
		return 1
	}
	if *n < 1 {
		fmt.Fprintf(stderr, "lossless lab up: -n must be at least 1, got %d\n", *n)
		return 1
	}
	specs, code := labDevices(*invPath, *n, *vendorList, stderr)
	if code != 0 {
		return code
	}
	user, password := os.Getenv(lab.UserEnv), os.Getenv(lab.PasswordEnv)
	if user == "" || password == "" {
		user, password = lab.DefaultUser, lab.DefaultPassword
	}
	opts := []lab.Option{lab.WithCredentials(user, password)}
	if *authKeys != "" {
		keys, err := readAuthorizedKeys(*authKeys)
		if err != nil {
			fmt.Fprintf(stderr, "lossless lab up: %v\n", err)
			return 1
		}
		for _, k := range keys {
			opts = append(opts, lab.WithAuthorizedKey(k))
		}
	}
	l, err := lab.New(opts...)
	if err != nil {
		fmt.Fprintf(stderr, "lossless lab up: %v\n", err)
		return 1
	}
	defer l.Close()
	for _, s := range specs {
		seed, err := readSeed(*seedDir, s.name)
		if err != nil {
			fmt.Fprintf(stderr, "lossless lab up: %v\n", err)
			return 1
		}
		node, err := l.Add(s.kind, s.name, seed, s.spec...)
		if err != nil {
			fmt.Fprintf(stderr, "lossless lab up: %v\n", err)
			return 1
		}
		f.apply(node.Faults())
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "lossless lab up: %v\n", err)
		return 1
	}
	inv := filepath.Join(*outDir, "inventory.hcl")
	if err := l.WriteInventory(inv); err != nil {
		fmt.Fprintf(stderr, "lossless lab up: %v\n", err)
		return 1
	}
	var target *gnmitarget.Target
	if *withGNMI {
		if target, err = startGNMI(ctx, l, user, password, *outDir); err != nil {
			fmt.Fprintf(stderr, "lossless lab up: %v\n", err)
			return 1
		}
		defer target.Close()
	}
	for _, node := range l.Nodes() {
		fmt.Fprintf(stdout, "%-12s %-10s ssh %s\n", node.Name(), node.Kind(), node.Addr())
	}
	if target != nil {
		fmt.Fprintf(stdout, "gnmi         %s (TLS; CA %s; target = device name)\n", target.Addr(), filepath.Join(*outDir, "gnmi-ca.pem"))
	}
	fmt.Fprintf(stdout, "\nInventory:   %s\nKnown hosts: %s\n", inv, filepath.Join(*outDir, lab.KnownHostsFile))
	fmt.Fprintf(stdout, "Credentials: export %s=%s %s=<the lab password: $%s, or the default given by -help>\n",
		lab.UserEnv, user, lab.PasswordEnv, lab.PasswordEnv)
	if nodes := l.Nodes(); len(nodes) > 0 {
		fmt.Fprintf(stdout, "Log in:      ssh -o UserKnownHostsFile=%s -p %d %s@127.0.0.1\n",
			filepath.Join(*outDir, lab.KnownHostsFile), nodes[0].Port(), user)
	}
	fmt.Fprintf(stdout, "Use:         pass -inventory %s to lossless commands\n", inv)
	fmt.Fprintln(stdout, "Running until interrupted (Ctrl-C).")
	<-ctx.Done()
	fmt.Fprintln(stderr, "lossless lab: stopping")
	return 0
}

// labDevice is one device to start: its name, the lab kind that
// emulates its vendor, and how to build it.
type labDevice struct {
	name, kind string
	spec       []lab.AddOption
}

// labSpec builds an inventory device in the lab as its model (the
// catalog's name for it when known) with its declared ports, one name
// each.
func labSpec(d *inventory.Device) []lab.AddOption {
	ports := make([]string, len(d.Ports))
	for i, p := range d.Ports {
		ports[i] = p.Name
	}
	return specOptions(labModel(d), ports)
}

// seededSpec is the lab build of a device seeded from a saved running
// config: its model, with the ports its config has rather than the
// inventory's (a real config names ports of modular models the catalog
// stands in for).
func seededSpec(d *inventory.Device) []lab.AddOption { return specOptions(labModel(d), nil) }

// labModel is the model the lab builds for d: its catalog entry's, else
// as written.
func labModel(d *inventory.Device) string {
	if d.Platform != nil {
		return d.Platform.Model
	}
	return d.Model
}

func specOptions(model string, ports []string) []lab.AddOption {
	var opts []lab.AddOption
	if model != "" {
		opts = append(opts, lab.AddModel(model))
	}
	if len(ports) > 0 {
		opts = append(opts, lab.AddPorts(ports...))
	}
	return opts
}

// emulated maps each vendor the lab emulates to the lab kind that does
// (its registry entry's LabKind, registered by the lab), and lists the
// vendors sorted.
func emulated() (map[string]string, []string) {
	kinds := map[string]string{}
	var names []string
	for _, n := range vendors.Names() {
		v, _ := vendors.Lookup(n)
		if _, ok := device.Lookup(v.LabKind); v.LabKind != "" && ok {
			kinds[n] = v.LabKind
			names = append(names, n)
		}
	}
	return kinds, names
}

// labDevices lists the devices from an inventory, or n per vendor.
func labDevices(invPath string, n int, vendorList string, stderr io.Writer) ([]labDevice, int) {
	kinds, names := emulated()
	if invPath != "" {
		inv, diags := load.Inventory(invPath)
		if diags.HasErrors() || inv == nil {
			var files map[string]*hcl.File
			if inv != nil {
				files = inv.Files
			}
			_ = hcl.NewDiagnosticTextWriter(stderr, files, 78, false).WriteDiagnostics(diags)
			return nil, 1
		}
		var out []labDevice
		for _, d := range inv.Devices {
			kind, ok := kinds[d.Vendor]
			if !ok {
				fmt.Fprintf(stderr, "lossless lab up: device %s: the lab does not emulate vendor %q (it emulates %s)\n", d.Name, d.Vendor, strings.Join(names, ", "))
				return nil, 1
			}
			out = append(out, labDevice{d.Name, kind, labSpec(d)})
		}
		return out, 0
	}
	want := names
	if vendorList != "" {
		want = strings.Split(vendorList, ",")
	}
	var out []labDevice
	for _, v := range want {
		v = strings.TrimSpace(v)
		kind, ok := kinds[v]
		if !ok {
			fmt.Fprintf(stderr, "lossless lab up: unknown vendor %q (the lab emulates %s)\n", v, strings.Join(names, ", "))
			return nil, 1
		}
		for i := 1; i <= n; i++ {
			out = append(out, labDevice{name: fmt.Sprintf("%s%d", strings.ReplaceAll(v, "-", ""), i), kind: kind})
		}
	}
	return out, 0
}

// readSeed returns DIR/<name>.cfg or DIR/<name>.json, nil when neither
// exists or dir is empty.
func readSeed(dir, name string) ([]byte, error) {
	if dir == "" {
		return nil, nil
	}
	for _, ext := range []string{".cfg", ".json"} {
		b, err := os.ReadFile(filepath.Join(dir, name+ext))
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("seed %s: %w", name, err)
		}
	}
	return nil, nil
}

// startGNMI serves every device that gNMI can reach on one TLS target and
// writes its CA certificate next to the inventory.
func startGNMI(ctx context.Context, l *lab.Lab, user, password, dir string) (*gnmitarget.Target, error) {
	t, err := gnmitarget.New(gnmitarget.WithCredentials(user, password))
	if err != nil {
		return nil, err
	}
	for _, n := range l.Nodes() {
		d := n.Device()
		_, db := d.(device.ConfigDB)
		_, cli := d.(device.CLIConfig)
		if !db && !cli {
			continue
		}
		if err := t.Add(n.Name(), d, n.Faults()); err != nil {
			return nil, err
		}
	}
	if err := t.Start(ctx); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "gnmi-ca.pem"), t.CA().CertPEM, 0o644); err != nil {
		_ = t.Close()
		return nil, fmt.Errorf("write gnmi CA: %w", err)
	}
	return t, nil
}

// faultFlags are the fault flags of lab up.
type faultFlags struct {
	latency                                                      time.Duration
	closeAfter                                                   int
	reject                                                       string
	failCommit, expireTimer, refuseAuth, changeHostKey, noPrompt bool
}

func (ff faultFlags) apply(f *device.Faults) {
	f.Update(func(f *device.Faults) {
		f.Latency, f.CloseAfter, f.RejectPattern = ff.latency, ff.closeAfter, ff.reject
		f.FailCommit, f.ExpireCommitTimer, f.RefuseAuth = ff.failCommit, ff.expireTimer, ff.refuseAuth
		f.ChangeHostKey, f.NoPrompt = ff.changeHostKey, ff.noPrompt
	})
}

// readAuthorizedKeys parses an OpenSSH authorized_keys file.
func readAuthorizedKeys(path string) ([]ssh.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read authorized keys: %w", err)
	}
	var keys []ssh.PublicKey
	for len(bytes.TrimSpace(b)) > 0 {
		k, _, _, rest, err := ssh.ParseAuthorizedKey(b)
		if err != nil {
			return nil, fmt.Errorf("read authorized keys %s: %w", path, err)
		}
		keys = append(keys, k)
		b = rest
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("read authorized keys %s: no key", path)
	}
	return keys, nil
}
