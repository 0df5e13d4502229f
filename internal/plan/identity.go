package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/load"
)

// Identity says which fabric a plan was made for: where its devices are
// and what intent drives them. A saved plan records it, and apply
// refuses a plan whose identity is not the loaded fabric's.
type Identity struct {
	// Addresses maps every device of the inventory to its management
	// address as the inventory gives it ("10.0.0.11:22"; a port the
	// inventory leaves to the driver is not written).
	Addresses map[string]string `json:"addresses"`
	// Intent is the SHA-256 (hex) of the intent: each file's name
	// (relative to the intent directory) and bytes, and the -var values.
	Intent string `json:"intent"`
}

// FabricIdentity returns the identity of f, loaded from src. It reads
// the whole inventory, not only the devices -target selected, so that a
// plan of some devices and an apply of all have the same identity.
func FabricIdentity(f *load.Result, src *Source) *Identity {
	id := &Identity{Addresses: map[string]string{}}
	if f.Inventory != nil {
		for _, d := range f.Inventory.Devices {
			id.Addresses[d.Name] = address(d.Address, d.Port)
		}
	}
	h := sha256.New()
	if f.Intent != nil {
		byName := map[string][]byte{}
		for name, file := range f.Intent.Files {
			byName[relName(src.Dir, name)] = file.Bytes
		}
		for _, name := range slices.Sorted(maps.Keys(byName)) {
			fmt.Fprintf(h, "file %q %d\n", name, len(byName[name]))
			h.Write(byName[name])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(src.Vars)) {
		fmt.Fprintf(h, "var %q=%q\n", k, src.Vars[k])
	}
	id.Intent = hex.EncodeToString(h.Sum(nil))
	return id
}

// address joins host and port; port 0 (the driver's default) is left out.
func address(host string, port int) string {
	if port == 0 {
		return host
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}

// relName is name relative to dir when it lies inside it, else its base
// name: two checkouts of one intent hash alike.
func relName(dir, name string) string {
	if r, err := filepath.Rel(dir, name); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.Base(name)
}

// Key names the fabric on this host whatever the checkout and whatever
// its intent says: the SHA-256 (hex) of the inventory's device addresses,
// sorted. Two checkouts of one fabric have the same key, so a lock keyed
// by it keeps their applies apart.
func (id *Identity) Key() string {
	addrs := slices.Sorted(maps.Values(id.Addresses))
	s := sha256.Sum256([]byte(strings.Join(slices.Compact(addrs), "\n")))
	return hex.EncodeToString(s[:])
}

// Of returns the identity a plan of p's devices records: id with the
// addresses of those devices only. Nil gives nil.
func (id *Identity) Of(p *Plan) *Identity {
	if id == nil {
		return nil
	}
	out := &Identity{Addresses: map[string]string{}, Intent: id.Intent}
	for _, d := range p.Devices {
		if a, ok := id.Addresses[d.Device]; ok {
			out.Addresses[d.Device] = a
		}
	}
	return out
}

// OtherFabric says why a plan made for saved, covering devices, was made
// for another fabric than id's: a device missing from this inventory or
// at another address. "" when it was made for this one (its intent may
// still differ: compare Intent).
func (id *Identity) OtherFabric(saved *Identity, devices []string) string {
	var moved []string
	for _, d := range devices {
		was, now := saved.Addresses[d], id.Addresses[d]
		switch {
		case now == "" && was != "":
			moved = append(moved, fmt.Sprintf("%s (at %s in the plan) is not in this inventory", d, was))
		case was != now:
			moved = append(moved, fmt.Sprintf("%s is at %s in the plan, at %s in this inventory", d, orNone(was), orNone(now)))
		}
	}
	if len(moved) == 0 {
		return ""
	}
	const most = 5
	more := ""
	if len(moved) > most {
		more = fmt.Sprintf(" and %d more", len(moved)-most)
		moved = moved[:most]
	}
	return "it was made for another fabric: " + strings.Join(moved, "; ") + more
}

func orNone(s string) string {
	if s == "" {
		return "no address"
	}
	return s
}
