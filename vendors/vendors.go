// Package vendors is the vendor registry and what the drivers share: the
// Driver contract (read the running config in lossless' scope, diff it
// against a rendering, apply a change atomically), the Change and Result
// they exchange with package plan, the DeviceError a device's rejection
// becomes, and SSH dialing on scrapligo with known_hosts checking and
// credentials that never print.
//
// A vendor is registered once, by its own package vendors/<vendor>, from
// an init that does nothing else: its name, renderer, transports, scope,
// lab seed and lab kind, containerlab kinds and port naming (Vendor).
// Shared code asks the registry (Lookup, Names, Accepted) and never
// switches on a vendor name; vendors/all imports every vendor package.
package vendors

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/renderers"
)

// Vendor is one vendor's entry in the registry: everything shared code
// needs to know about it.
type Vendor struct {
	// Name is the vendor name as written in the inventory.
	Name string

	// Render is the vendor's renderer (renderers/<vendor>.Render).
	Render renderers.Func
	// Formats are extra output forms of `render -format NAME`, by name
	// (SONiC's "yang": the sonic-yang instance JSON); nil for none.
	Formats map[string]func(d *intent.Device) ([]byte, error)
	// Features are the intent features beyond the core (intent.Feature)
	// that Render renders; loading refuses a device of the vendor whose
	// intent uses another (LL133).
	Features []intent.Feature
	// Check, when set, validates a rendered document against the
	// vendor's own schema in-process (SONiC: its YANG models), for
	// `lossless validate`; it is slower than Render, so render does not
	// call it.
	Check func(doc *config.Document) error

	// Dial connects to a device over SSH, the inventory's default
	// transport. Lookup's copy dials by Target.Transport (see Transports).
	Dial DialFunc
	// Diff is the diff of the default transport's driver (Driver.Diff
	// without a session): pure, for checks that have a running config
	// but no device, such as import's round trip of a saved file. Nil
	// when the vendor gives none.
	Diff DiffFunc
	// Transports are the other transports the vendor speaks, by inventory
	// name ("gnmi"), each with its own dial.
	Transports map[string]DialFunc
	// Refuses are transports the vendor deliberately does not speak, by
	// inventory name, each with why: one or two sentences naming the
	// supported transport. A device of the vendor over one fails
	// validation (LL130) and Dial returns a *TransportError.
	Refuses map[string]string

	// ConfirmTimeout, when set, returns the commit timer the vendor's
	// devices really run for a wanted ApplyOptions.ConfirmTimeout (over
	// the default transport): the device rounds or clamps it to its own
	// range. apply says on stderr when they differ. Nil: used as given.
	ConfirmTimeout func(want time.Duration) time.Duration

	// Scope says, in one sentence for the plan, what part of the running
	// config lossless reads and may change on this vendor's devices.
	Scope string
	// LabSeed, when set, returns a realistic pre-existing running config
	// for an emulated device whose desired rendering is desired: stale
	// values, an extra class and config outside the scope. `plan -lab`
	// seeds the embedded lab with it. Nil seeds factory defaults.
	LabSeed func(desired []byte) []byte
	// Import, when set, reads a device's QoS from its running config for
	// `lossless import`; nil when the vendor cannot be imported.
	Import ImportFunc
	// Saved, when set, turns a saved running config file (`show
	// running-config` text, or SONiC's config_db.json) into what the
	// vendor's Driver.Running returns, for `lossless import -from` and its
	// round-trip check; nil when the vendor takes no saved files.
	Saved func(file []byte) ([]byte, error)
	// LabKind is the kind name of the lab personality (internal/lab/<v>)
	// that emulates the vendor's devices; empty when the lab emulates
	// none. The lab keeps its own registry of kinds: this is the only
	// link between the two.
	LabKind string

	// Ports is how the vendor's switches name their front-panel data
	// ports, by number: containerlab's ethN and generated fabrics use it.
	Ports inventory.PortNaming
	// Containerlab are the containerlab node kinds that are the vendor's
	// switches, as containerlab names them ("ceos"); their ethN
	// interfaces become Ports.Name(N). A kind belongs to one vendor.
	Containerlab []string
	// Example is a typical device of the vendor, for generated fabrics
	// (benchmarks, load tests); zero when the vendor gives none.
	Example Example
}

// Example is a typical device of a vendor, for generated fabrics.
type Example struct {
	// Platform is a platform catalog model of the vendor.
	Platform string
	// HeadroomPool is the shared headroom pool the platform needs before
	// lossless classes work; 0 when it takes none.
	HeadroomPool units.Bytes
}

var (
	mu       sync.RWMutex
	registry = map[string]Vendor{}
	// clabKinds maps each registered containerlab kind to its vendor.
	clabKinds = map[string]string{}
)

// Register adds v. It panics on an empty name, a nil Render or Dial, a
// transport without a dial or a reason (or both spoken and refused, or
// named "ssh"), containerlab kinds without a valid port naming, a name or
// containerlab kind registered twice: all are programming errors found
// at start-up. Call it from init.
func Register(v Vendor) {
	mu.Lock()
	defer mu.Unlock()
	if v.Name == "" || v.Render == nil || v.Dial == nil {
		panic("vendors: Register with an empty name, nil Render or nil Dial")
	}
	if _, dup := registry[v.Name]; dup {
		panic(fmt.Sprintf("vendors: vendor %q registered twice", v.Name))
	}
	for tr, dial := range v.Transports {
		if tr == "" || tr == inventory.TransportSSH || dial == nil {
			panic(fmt.Sprintf("vendors: vendor %q: transport %q needs a name other than ssh and a dial", v.Name, tr))
		}
		if _, both := v.Refuses[tr]; both {
			panic(fmt.Sprintf("vendors: vendor %q both speaks and refuses transport %q", v.Name, tr))
		}
	}
	for tr, why := range v.Refuses {
		if tr == "" || tr == inventory.TransportSSH || why == "" {
			panic(fmt.Sprintf("vendors: vendor %q: refused transport %q needs a name other than ssh and a reason", v.Name, tr))
		}
	}
	if len(v.Containerlab) > 0 {
		if why := v.Ports.Check(); why != "" {
			panic(fmt.Sprintf("vendors: vendor %q: containerlab kinds need a port naming: %s", v.Name, why))
		}
	}
	for _, k := range v.Containerlab {
		if prev, dup := clabKinds[k]; dup || k == "" {
			panic(fmt.Sprintf("vendors: vendor %q: containerlab kind %q empty or registered twice (by %q)", v.Name, k, prev))
		}
	}
	for _, k := range v.Containerlab {
		clabKinds[k] = v.Name
	}
	v.Formats = maps.Clone(v.Formats)
	v.Transports = maps.Clone(v.Transports)
	v.Refuses = maps.Clone(v.Refuses)
	v.Containerlab = slices.Clone(v.Containerlab)
	v.Features = slices.Clone(v.Features)
	registry[v.Name] = v
}

// Lookup returns the vendor registered under name. Its Dial honours
// Target.Transport: a transport in Transports dials there, one in Refuses
// is a *TransportError, and any other is an error naming the transports
// the vendor speaks.
func Lookup(name string) (Vendor, bool) {
	mu.RLock()
	defer mu.RUnlock()
	v, ok := registry[name]
	if ok {
		v.Dial = byTransport(v)
	}
	return v, ok
}

// Names returns the registered vendor names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Sorted(maps.Keys(registry))
}

// Formats returns the names of every registered vendor's extra render
// formats (Vendor.Formats), sorted and unique.
func Formats() []string {
	mu.RLock()
	defer mu.RUnlock()
	var f []string
	for _, v := range registry {
		f = append(f, slices.Collect(maps.Keys(v.Formats))...)
	}
	slices.Sort(f)
	return slices.Compact(f)
}

// Accepted returns what an inventory accepts, from the registry: the
// vendor names and each vendor's containerlab kinds with its port naming.
// Pass it to inventory.Load.
func Accepted() inventory.Vendors {
	mu.RLock()
	defer mu.RUnlock()
	a := inventory.Vendors{Names: slices.Sorted(maps.Keys(registry)), Containerlab: map[string]inventory.ContainerlabKind{}}
	for k, name := range clabKinds {
		a.Containerlab[k] = inventory.ContainerlabKind{Vendor: name, Ports: registry[name].Ports}
	}
	return a
}
