package vendors

import (
	"context"
	"fmt"
)

// A vendor's Dial speaks the inventory's default transport, SSH. Other
// transports (gNMI) are registered beside it, per vendor, by the vendor's
// own package: RegisterTransport for one it speaks, RefuseTransport for
// one it deliberately does not, with the reason. Lookup's Dial then picks
// by Target.Transport, so shared code never asks which vendor speaks what.

var (
	transports = map[string]map[string]DialFunc{} // vendor → transport → dial
	refusals   = map[string]map[string]string{}   // vendor → transport → reason
)

// RegisterTransport makes dial the way to reach vendor's devices whose
// inventory transport is transport (for example "gnmi"). Call it from
// init; it panics on empty names, a nil dial, "ssh" (that is Vendor.Dial)
// or a pair registered twice.
func RegisterTransport(vendor, transport string, dial DialFunc) {
	mu.Lock()
	defer mu.Unlock()
	checkTransportPair(vendor, transport)
	if dial == nil {
		panic("vendors: RegisterTransport with a nil dial")
	}
	if transports[vendor] == nil {
		transports[vendor] = map[string]DialFunc{}
	}
	transports[vendor][transport] = dial
}

// RefuseTransport records that vendor's devices cannot be managed over
// transport, and why (one or two sentences naming the supported
// transport). CheckTransport and Dial return it. Call it from init; it
// panics like RegisterTransport, and on an empty reason.
func RefuseTransport(vendor, transport, reason string) {
	mu.Lock()
	defer mu.Unlock()
	checkTransportPair(vendor, transport)
	if reason == "" {
		panic("vendors: RefuseTransport without a reason")
	}
	if refusals[vendor] == nil {
		refusals[vendor] = map[string]string{}
	}
	refusals[vendor][transport] = reason
}

// checkTransportPair panics on a bad or duplicate pair; mu is held.
func checkTransportPair(vendor, transport string) {
	if vendor == "" || transport == "" || transport == "ssh" {
		panic(fmt.Sprintf("vendors: transport %q for vendor %q: need a vendor and a transport other than ssh", transport, vendor))
	}
	if transports[vendor][transport] != nil || refusals[vendor][transport] != "" {
		panic(fmt.Sprintf("vendors: transport %q of vendor %q registered twice", transport, vendor))
	}
}

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
// nil when it speaks it, and for "ssh", "" and transports the vendor says
// nothing about (its Dial then decides).
func CheckTransport(vendor, transport string) error {
	mu.RLock()
	defer mu.RUnlock()
	if why, ok := refusals[vendor][transport]; ok {
		return &TransportError{Vendor: vendor, Transport: transport, Reason: why}
	}
	return nil
}

// byTransport wraps a vendor's Dial so that a target whose Transport has
// its own registered dial, or a refusal, goes there.
func byTransport(vendor string, ssh DialFunc) DialFunc {
	return func(ctx context.Context, t Target) (Driver, error) {
		if t.Transport == "" || t.Transport == "ssh" {
			return ssh(ctx, t)
		}
		mu.RLock()
		dial, why := transports[vendor][t.Transport], refusals[vendor][t.Transport]
		mu.RUnlock()
		switch {
		case dial != nil:
			return dial(ctx, t)
		case why != "":
			return nil, &TransportError{Device: t.Device, Vendor: vendor, Transport: t.Transport, Reason: why}
		}
		return ssh(ctx, t)
	}
}
