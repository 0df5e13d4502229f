// Package renderers is the registry of config renderers, one per vendor:
// pure functions from one device's desired state to its config document.
// Each renderers/<vendor> package registers itself from init; shared code
// looks renderers up by the vendor name written in the inventory and never
// switches on it.
package renderers

import (
	"fmt"
	"sort"
	"sync"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
)

// Func renders one device. It is pure and deterministic: the same device
// gives the same bytes. A feature the vendor or platform cannot express is
// an error naming the device, the feature and the reason.
type Func func(d *intent.Device) (*config.Document, error)

// Renderer is one vendor's renderer.
type Renderer struct {
	// Vendor is the name used in the inventory ("nxos", "huawei-ce").
	Vendor string
	// Render produces the native config document.
	Render Func
	// Formats are optional extra output forms by name (SONiC "yang":
	// the sonic-yang instance JSON).
	Formats map[string]func(d *intent.Device) ([]byte, error)
	// Check, when set, validates a rendered document against the vendor's
	// own schema in-process (SONiC: its YANG models), for `lossless
	// validate`; it is slower than Render, so render does not call it.
	Check func(doc *config.Document) error
}

var (
	mu       sync.RWMutex
	registry = map[string]Renderer{}
)

// Register adds r. It panics on an empty vendor name, a nil Render or a
// duplicate name: all are programming errors caught at start-up.
func Register(r Renderer) {
	mu.Lock()
	defer mu.Unlock()
	if r.Vendor == "" || r.Render == nil {
		panic("renderers: Register with an empty vendor name or nil Render")
	}
	if _, dup := registry[r.Vendor]; dup {
		panic(fmt.Sprintf("renderers: vendor %q registered twice", r.Vendor))
	}
	registry[r.Vendor] = r
}

// Lookup returns the renderer for a vendor name.
func Lookup(vendor string) (Renderer, bool) {
	mu.RLock()
	defer mu.RUnlock()
	r, ok := registry[vendor]
	return r, ok
}

// Names returns the registered vendor names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	n := make([]string, 0, len(registry))
	for v := range registry {
		n = append(n, v)
	}
	sort.Strings(n)
	return n
}
