package vendors

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lossless-net/lossless/inventory"
)

// DialFunc connects to one device and returns its driver. It honours ctx
// while connecting; the driver it returns is closed by the caller.
type DialFunc func(ctx context.Context, t Target) (Driver, error)

// A vendor's Dial speaks the inventory's default transport, SSH. Other
// transports (gNMI) are in its registry entry: Transports for those it
// speaks, Refuses for those it deliberately does not, with the reason.
// Lookup's Dial then picks by Target.Transport, so shared code never asks
// which vendor speaks what.

// TransportError is a device whose inventory transport its vendor cannot
// be managed over.
type TransportError struct {
	Device, Vendor, Transport string
	// Reason says why, and which transport to use instead.
	Reason string
}

// Error returns "connect DEVICE: VENDOR over TRANSPORT is not supported: REASON".
func (e *TransportError) Error() string {
	return fmt.Sprintf("connect %s: %s over %s is not supported: %s", e.Device, e.Vendor, e.Transport, e.Reason)
}

// CheckTransport returns a *TransportError when vendor refuses transport;
// nil when it speaks it, for "ssh" and "", for transports the vendor says
// nothing about (its Dial then refuses them) and for a vendor not
// registered (the inventory reports that).
func CheckTransport(vendor, transport string) error {
	mu.RLock()
	defer mu.RUnlock()
	if why, ok := registry[vendor].Refuses[transport]; ok {
		return &TransportError{Vendor: vendor, Transport: transport, Reason: why}
	}
	return nil
}

// byTransport is v's Dial choosing by the target's Transport.
func byTransport(v Vendor) DialFunc {
	return func(ctx context.Context, t Target) (Driver, error) {
		if t.Transport == "" || t.Transport == inventory.TransportSSH {
			return v.Dial(ctx, t)
		}
		if dial := v.Transports[t.Transport]; dial != nil {
			return dial(ctx, t)
		}
		if why, ok := v.Refuses[t.Transport]; ok {
			return nil, &TransportError{Device: t.Device, Vendor: v.Name, Transport: t.Transport, Reason: why}
		}
		speaks := append([]string{inventory.TransportSSH}, slices.Sorted(maps.Keys(v.Transports))...)
		return nil, fmt.Errorf("connect %s: vendor %s speaks %s, not %q", t.Device, v.Name, strings.Join(speaks, " and "), t.Transport)
	}
}
