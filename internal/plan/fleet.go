package plan

import (
	"fmt"
	"log/slog"

	"github.com/hashicorp/hcl/v2"
	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/inventory"
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
	// Targets keeps the devices matching any of them (-target; see
	// load.Options).
	Targets []string
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

// Load loads the fleet (load.Fabric, with in's targets) and builds each
// device's target (Devices). It returns the devices in name order, the
// parsed files by name (for diagnostic snippets) and the diagnostics;
// devices are nil when there is an error diagnostic. A device whose login
// cannot be resolved is an error.
func Load(in Input) ([]Device, map[string]*hcl.File, hcl.Diagnostics, error) {
	f, diags := load.Fabric(in.Dir, load.Options{Inventory: in.Inventory, Vars: in.Vars, VarFiles: in.VarFiles, Targets: in.Targets})
	if diags.HasErrors() {
		return nil, f.Files, diags, nil
	}
	devs, err := Devices(f, in)
	if err != nil {
		return nil, f.Files, diags, err
	}
	return devs, f.Files, diags, nil
}

// Devices builds the target (address, port, transport, login) of each
// device of a loaded fabric, from its inventory entry and in's login
// settings (in's Dir, Inventory, Vars, VarFiles and Targets are not
// read), in name order. A device whose login cannot be resolved is an
// error.
func Devices(f *load.Result, in Input) ([]Device, error) {
	devs := make([]Device, 0, len(f.Devices))
	// One host key callback per known_hosts file, shared by its devices:
	// the file is read once, not once per connection.
	hostKeys := map[string]ssh.HostKeyCallback{}
	for _, id := range f.Devices {
		invDev := f.Inventory.Device(id.Name)
		if invDev == nil {
			return nil, fmt.Errorf("load %s: resolved device missing from the inventory", id.Name)
		}
		var login vendors.Login
		var err error
		if in.Login != nil {
			login, err = in.Login(id.Name, invDev.Credentials)
		} else {
			login, err = vendors.LoginFor(id.Name, invDev.Credentials, in.Env, in.Home)
		}
		if err != nil {
			return nil, err
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
					return nil, fmt.Errorf("load %s: %w", id.Name, err)
				}
				hostKeys[login.KnownHosts] = cb
			}
			login.HostKeys = cb
		}
		t := vendors.Target{Device: id.Name, Vendor: id.Vendor, Address: invDev.Address, Port: invDev.Port, Transport: invDev.Transport, Login: login, Logger: in.Logger}
		devs = append(devs, Device{Intent: id, Target: t})
	}
	return sorted(devs), nil
}
