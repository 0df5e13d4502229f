package plan

import (
	"fmt"
	"log/slog"

	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

// Access says how lossless reaches the devices of a loaded fabric: the
// credentials lookup, host keys and TLS checks, and the logger.
type Access struct {
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

// Devices builds the target (address, port, transport, login) of each
// device of a loaded fabric (load.Fabric), from its inventory entry and
// in, in name order. A device whose login cannot be resolved is an error.
func Devices(f *load.Result, in Access) ([]Device, error) {
	devs := make([]Device, 0, len(f.Devices))
	// One host key callback per known_hosts file, shared by its devices:
	// the file is read once, not once per connection.
	hostKeys := map[string]ssh.HostKeyCallback{}
	for _, id := range f.Devices {
		invDev := f.Inventory.Device(id.Name)
		if invDev == nil {
			return nil, fmt.Errorf("load %s: resolved device missing from the inventory", id.Name)
		}
		t, err := target(invDev, in, hostKeys)
		if err != nil {
			return nil, err
		}
		devs = append(devs, Device{Intent: id, Target: t})
	}
	return sorted(devs), nil
}

// InventoryDevices is Devices for an inventory without an intent (import
// reads devices before there is one): each device of inv, or those named
// when names is not empty, with an Intent that holds only its name,
// vendor, platform and address. A name inv lacks is an error.
func InventoryDevices(inv *inventory.Inventory, names []string, in Access) ([]Device, error) {
	if len(names) == 0 {
		for _, d := range inv.Devices {
			names = append(names, d.Name)
		}
	}
	hostKeys := map[string]ssh.HostKeyCallback{}
	devs := make([]Device, 0, len(names))
	for _, n := range names {
		invDev := inv.Device(n)
		if invDev == nil {
			return nil, fmt.Errorf("device %s is not in the inventory", n)
		}
		t, err := target(invDev, in, hostKeys)
		if err != nil {
			return nil, err
		}
		id := &intent.Device{Name: invDev.Name, Vendor: invDev.Vendor, Platform: invDev.Platform, Address: invDev.Address, Port: invDev.Port, Transport: invDev.Transport, Roles: invDev.Roles, Tags: invDev.Tags, Range: invDev.DeclRange}
		devs = append(devs, Device{Intent: id, Target: t})
	}
	return sorted(devs), nil
}

// target builds one device's target, sharing host key callbacks by file.
func target(invDev *inventory.Device, in Access, hostKeys map[string]ssh.HostKeyCallback) (vendors.Target, error) {
	var login vendors.Login
	var err error
	if in.Login != nil {
		login, err = in.Login(invDev.Name, invDev.Credentials)
	} else {
		login, err = vendors.LoginFor(invDev.Name, invDev.Credentials, in.Env, in.Home)
	}
	if err != nil {
		return vendors.Target{}, err
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
				return vendors.Target{}, fmt.Errorf("load %s: %w", invDev.Name, err)
			}
			hostKeys[login.KnownHosts] = cb
		}
		login.HostKeys = cb
	}
	return vendors.Target{Device: invDev.Name, Vendor: invDev.Vendor, Address: invDev.Address, Port: invDev.Port, Transport: invDev.Transport, Login: login, Logger: in.Logger}, nil
}
