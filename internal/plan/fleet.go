package plan

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/renderers"
	"github.com/lossless-net/lossless/vendors"
)

// Input says where a fleet's intent and inventory are and how to log in.
type Input struct {
	// Dir is the intent directory; Inventory the inventory file (empty:
	// Dir/inventory.hcl).
	Dir, Inventory string
	// Vars and VarFiles are the -var and -var-file values.
	Vars     map[string]string
	VarFiles []string
	// Env reads the credentials' environment variables; Home expands "~"
	// in credential paths.
	Env  vendors.LookupEnv
	Home string
	// InsecureIgnoreHostKey skips host key checks for every device.
	InsecureIgnoreHostKey bool
	// InsecureSkipVerify accepts any gNMI server certificate, and
	// Plaintext speaks gNMI without TLS, for every gNMI device
	// (-insecure-skip-verify, -plaintext); both are off by default.
	InsecureSkipVerify, Plaintext bool
	// Login, when set, replaces the credentials lookup (plan -lab logs in
	// to the embedded lab with its own credentials).
	Login func(device string, c *inventory.Credentials) (vendors.Login, error)
	// Logger is set on every target; nil is silent.
	Logger *slog.Logger
}

// Load loads the intent and inventory, resolves every device, and builds
// each one's target (address, port, login). It returns the devices in
// name order, the parsed files by name (for diagnostic snippets) and the
// diagnostics; devices are nil when there is an error diagnostic. A device
// whose login cannot be resolved is an error.
func Load(in Input) ([]Device, map[string]*hcl.File, hcl.Diagnostics, error) {
	invPath := in.Inventory
	if invPath == "" {
		invPath = filepath.Join(in.Dir, intent.DefaultInventoryFile)
	}
	files := map[string]*hcl.File{}
	// Vendors with a renderer but no driver yet load, and fail per device
	// when planned ("no driver for vendor"), naming the device.
	names := slices.Compact(slices.Sorted(slices.Values(append(vendors.Names(), renderers.Names()...))))
	inv, diags := inventory.Load(invPath, names)
	if inv != nil {
		for n, f := range inv.Files {
			files[n] = f
		}
	}
	fab, d := intent.Load(in.Dir, in.Vars, in.VarFiles, intent.SkipFile(invPath))
	diags = append(diags, d...)
	if fab != nil {
		for n, f := range fab.Files {
			files[n] = f
		}
	}
	if diags.HasErrors() {
		return nil, files, diags, nil
	}
	ids, d := intent.Resolve(fab, inv)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return nil, files, diags, nil
	}
	devs := make([]Device, 0, len(ids))
	// One host key callback per known_hosts file, shared by its devices:
	// the file is read once, not once per connection.
	hostKeys := map[string]ssh.HostKeyCallback{}
	for _, id := range ids {
		invDev := inv.Device(id.Name)
		if invDev == nil {
			return nil, files, diags, fmt.Errorf("load %s: resolved device missing from the inventory", id.Name)
		}
		if err := vendors.CheckTransport(id.Vendor, invDev.Transport); err != nil {
			var te *vendors.TransportError
			if errors.As(err, &te) {
				diags = append(diags, transportDiagnostic(invDev, te))
				continue
			}
		}
		var login vendors.Login
		var err error
		if in.Login != nil {
			login, err = in.Login(id.Name, invDev.Credentials)
		} else {
			login, err = vendors.LoginFor(id.Name, invDev.Credentials, in.Env, in.Home)
		}
		if err != nil {
			return nil, files, diags, err
		}
		login.InsecureIgnoreHostKey = login.InsecureIgnoreHostKey || in.InsecureIgnoreHostKey
		login.InsecureSkipVerify = login.InsecureSkipVerify || in.InsecureSkipVerify
		login.Plaintext = login.Plaintext || in.Plaintext
		// Host keys are SSH's; a gNMI device is checked by its TLS CA.
		ssh := invDev.Transport == "" || invDev.Transport == inventory.TransportSSH
		if ssh && !login.InsecureIgnoreHostKey && login.HostKeys == nil && login.KnownHosts != "" {
			cb, ok := hostKeys[login.KnownHosts]
			if !ok {
				if cb, err = vendors.KnownHosts(login.KnownHosts); err != nil {
					return nil, files, diags, fmt.Errorf("load %s: %w", id.Name, err)
				}
				hostKeys[login.KnownHosts] = cb
			}
			login.HostKeys = cb
		}
		t := vendors.Target{Device: id.Name, Vendor: id.Vendor, Address: invDev.Address, Port: invDev.Port, Transport: invDev.Transport, Login: login, Logger: in.Logger}
		devs = append(devs, Device{Intent: id, Target: t})
	}
	if diags.HasErrors() {
		return nil, files, diags, nil
	}
	return sorted(devs), files, diags, nil
}

// TransportDiagnostics reports every device of inv whose vendor refuses
// its transport (RuleTransport), for `validate`; Load reports the same.
func TransportDiagnostics(inv *inventory.Inventory) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, d := range inv.Devices {
		var te *vendors.TransportError
		if errors.As(vendors.CheckTransport(d.Vendor, d.Transport), &te) {
			diags = append(diags, transportDiagnostic(d, te))
		}
	}
	return diags
}

// RuleTransport marks a device whose vendor cannot be managed over its
// inventory transport (NX-OS or CloudEngine with transport = "gnmi").
const RuleTransport diag.Rule = "LL130"

// transportDiagnostic is the validation error of a device whose vendor
// refuses its transport; the reason comes from the vendor's package.
func transportDiagnostic(d *inventory.Device, te *vendors.TransportError) *hcl.Diagnostic {
	r := d.DeclRange
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Transport not supported for this vendor",
		Detail:   fmt.Sprintf("Device %q (vendor %q) sets transport = %q: %s.", d.Name, te.Vendor, te.Transport, te.Reason),
		Subject:  &r,
		Extra:    RuleTransport,
	}
}

// Select keeps the devices matching any of targets: a device name,
// "role:R" or "tag:T". No targets keeps every device. A target that
// matches no device is an error, so a typo never silently plans nothing.
func Select(devs []Device, targets []string) ([]Device, error) {
	if len(targets) == 0 {
		return devs, nil
	}
	keep := make([]bool, len(devs))
	for _, t := range targets {
		match := func(d *intent.Device) bool { return d.Name == t }
		if r, ok := strings.CutPrefix(t, "role:"); ok {
			match = func(d *intent.Device) bool { return slices.Contains(d.Roles, r) }
		} else if tag, ok := strings.CutPrefix(t, "tag:"); ok {
			match = func(d *intent.Device) bool { return slices.Contains(d.Tags, tag) }
		}
		hit := false
		for i, d := range devs {
			if match(d.Intent) {
				keep[i], hit = true, true
			}
		}
		if !hit {
			return nil, fmt.Errorf("target %q matches no device", t)
		}
	}
	var out []Device
	for i, d := range devs {
		if keep[i] {
			out = append(out, d)
		}
	}
	return out, nil
}
