package inventory

import (
	"log/slog"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
)

// Inventory is a loaded inventory. Devices are in declaration order, each
// device's Ports in natural port order (ComparePorts), Links in
// declaration order. Files maps each file read to its parsed form, for
// printing diagnostics with source snippets.
type Inventory struct {
	Devices []*Device
	Links   []*Link
	Files   map[string]*hcl.File

	// byName and peers index Devices and Links; Load builds them. An
	// Inventory built by hand works without them, only slower.
	byName map[string]*Device
	peers  map[Endpoint]Endpoint
	// rejected names devices left out for errors already reported, so a
	// link to one is dropped without a second diagnostic.
	rejected map[string]bool
}

// Device is one managed switch as the inventory declares it.
type Device struct {
	Name string
	// Vendor is the vendor name as written, one of Vendors.Names given
	// to Load.
	Vendor string
	// Model is the platform as written ("N9K-C9364D-GX2A"); Platform is its
	// catalog entry, nil when the model is unknown (a diagnostic says so).
	Model    string
	Platform *platform.Platform
	// Address is the management IP address or host name.
	Address string
	// Port is the management TCP port: as written, else 22 for ssh; 0 for
	// gnmi when unset, meaning the vendor driver's default.
	Port int
	// Transport is "ssh" (the default) or "gnmi".
	Transport string
	// Roles and Tags select devices in the intent; sorted, unique.
	Roles, Tags []string
	// Credentials is the referenced credentials block, nil for none.
	Credentials *Credentials
	// Ports are the declared ports, sorted by ComparePorts.
	Ports []*Port
	// DeclRange is the device block (or containerlab node); VendorRange and
	// ModelRange are the vendor and platform values, for diagnostics that
	// intent raises about them.
	DeclRange, VendorRange, ModelRange hcl.Range
}

// Port is one front-panel port of a device.
type Port struct {
	Name  string
	Speed units.BitRate
	// Cable is the cable length to the peer; 0 when not given.
	Cable units.Length
	// DeclRange is the ports block (or link) that declared the port.
	DeclRange hcl.Range
}

// Link joins two device ports.
type Link struct {
	A, B      Endpoint
	DeclRange hcl.Range
}

// Endpoint is one end of a link.
type Endpoint struct {
	Device, Port string
}

// String returns "device:port".
func (e Endpoint) String() string { return e.Device + ":" + e.Port }

// Credentials says where a device's login comes from. Every field but
// Password names an environment variable or a file; nothing here is read
// by this package.
type Credentials struct {
	Name string
	// UsernameEnv and PasswordEnv name environment variables.
	UsernameEnv, PasswordEnv string
	// PasswordFile, KeyFile and KnownHosts are file paths, "~" not expanded.
	PasswordFile, KeyFile, KnownHosts string
	// TLSCA, TLSCert and TLSKey are the gNMI CA, client certificate and
	// client key files (tls_ca, tls_cert, tls_key), "~" not expanded.
	TLSCA, TLSCert, TLSKey string
	// AllowLiteralPassword is true when the block opted in to a literal
	// password; Password is then set.
	AllowLiteralPassword bool
	// Password is a literal password, only with AllowLiteralPassword.
	Password  Secret
	DeclRange hcl.Range
}

// Secret is a value that must never be printed. Its String, GoString,
// MarshalJSON and LogValue all give "REDACTED"; Reveal returns the value,
// for the one place that authenticates with it.
type Secret string

// String returns "REDACTED".
func (Secret) String() string { return "REDACTED" }

// GoString returns "REDACTED", so %#v does not leak the value either.
func (Secret) GoString() string { return "REDACTED" }

// MarshalJSON encodes "REDACTED".
func (Secret) MarshalJSON() ([]byte, error) { return []byte(`"REDACTED"`), nil }

// LogValue logs "REDACTED".
func (Secret) LogValue() slog.Value { return slog.StringValue("REDACTED") }

// Reveal returns the secret itself; call it only to authenticate.
func (s Secret) Reveal() string { return string(s) }

// Device returns the device with the given name, or nil.
func (inv *Inventory) Device(name string) *Device {
	if inv == nil {
		return nil
	}
	if inv.byName != nil {
		return inv.byName[name]
	}
	for _, d := range inv.Devices {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// PortNamed returns the device's port with the given name, or nil.
func (d *Device) PortNamed(name string) *Port {
	i, ok := slices.BinarySearchFunc(d.Ports, name, func(p *Port, n string) int { return ComparePorts(p.Name, n) })
	if ok {
		return d.Ports[i]
	}
	return nil
}

// HasRole reports whether the device has the role.
func (d *Device) HasRole(role string) bool { return slices.Contains(d.Roles, role) }

// HasTag reports whether the device has the tag.
func (d *Device) HasTag(tag string) bool { return slices.Contains(d.Tags, tag) }

// Peer returns the other end of the link that uses dev:port, or false.
func (inv *Inventory) Peer(dev, port string) (Endpoint, bool) {
	if inv.peers != nil {
		p, ok := inv.peers[Endpoint{dev, port}]
		return p, ok
	}
	for _, l := range inv.Links {
		switch {
		case l.A.Device == dev && l.A.Port == port:
			return l.B, true
		case l.B.Device == dev && l.B.Port == port:
			return l.A, true
		}
	}
	return Endpoint{}, false
}

// index builds the lookup maps from Devices and Links. The first device of
// a name wins, as diagnostics report later ones as duplicates.
func (inv *Inventory) index() {
	inv.byName = make(map[string]*Device, len(inv.Devices))
	for _, d := range inv.Devices {
		if _, dup := inv.byName[d.Name]; !dup {
			inv.byName[d.Name] = d
		}
	}
	inv.peers = make(map[Endpoint]Endpoint, 2*len(inv.Links))
	for _, l := range inv.Links {
		if _, dup := inv.peers[l.A]; !dup {
			inv.peers[l.A] = l.B
		}
		if _, dup := inv.peers[l.B]; !dup {
			inv.peers[l.B] = l.A
		}
	}
}
