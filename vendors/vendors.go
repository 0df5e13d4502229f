// Package vendors is the registry of vendor drivers and what they share:
// the Driver contract (read the running config in lossless' scope, diff it
// against a rendering, apply a change atomically), the Change and Result
// they exchange with package plan, the DeviceError a device's rejection
// becomes, and SSH dialing on scrapligo with known_hosts checking and
// credentials that never print. It knows no vendor: each vendors/<vendor>
// package registers itself from init, and vendors/all imports them all.
package vendors

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/lossless-net/lossless/renderers"
)

// DialFunc connects to one device and returns its driver. It honours ctx
// while connecting; the driver it returns is closed by the caller.
type DialFunc func(ctx context.Context, t Target) (Driver, error)

// Vendor is one vendor's entry in the registry.
type Vendor struct {
	// Name is the vendor name as written in the inventory ("nxos").
	Name string
	// Render is the vendor's renderer (renderers/<vendor>.Render).
	Render renderers.Func
	// Dial connects to a device of this vendor.
	Dial DialFunc
	// Scope says, in one sentence for the plan, what part of the running
	// config lossless reads and may change on this vendor's devices.
	Scope string
	// LabSeed, when set, returns a realistic pre-existing running config
	// for an emulated device whose desired rendering is desired: stale
	// values, an extra class and config outside the scope. `plan -lab`
	// seeds the embedded lab with it. Nil seeds factory defaults.
	LabSeed func(desired []byte) []byte
}

var (
	mu       sync.RWMutex
	registry = map[string]Vendor{}
)

// Register adds v. It panics on an empty name, a nil Render or Dial, or a
// name registered twice: all are programming errors found at start-up.
func Register(v Vendor) {
	mu.Lock()
	defer mu.Unlock()
	if v.Name == "" || v.Render == nil || v.Dial == nil {
		panic("vendors: Register with an empty name, nil Render or nil Dial")
	}
	if _, dup := registry[v.Name]; dup {
		panic(fmt.Sprintf("vendors: vendor %q registered twice", v.Name))
	}
	registry[v.Name] = v
}

// Lookup returns the vendor registered under name. Its Dial honours
// Target.Transport: a transport registered with RegisterTransport dials
// there, one refused with RefuseTransport is a *TransportError.
func Lookup(name string) (Vendor, bool) {
	mu.RLock()
	defer mu.RUnlock()
	v, ok := registry[name]
	if ok {
		v.Dial = byTransport(v.Name, v.Dial)
	}
	return v, ok
}

// Names returns the registered vendor names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	n := make([]string, 0, len(registry))
	for name := range registry {
		n = append(n, name)
	}
	sort.Strings(n)
	return n
}
