package vendors_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

// dialer is a Driver that remembers which dial made it.
type dialer struct {
	vendors.Driver
	via string
}

func dialVia(via string) vendors.DialFunc {
	return func(context.Context, vendors.Target) (vendors.Driver, error) { return &dialer{via: via}, nil }
}

func init() {
	render := func(*intent.Device) (*config.Document, error) { return &config.Document{}, nil }
	vendors.Register(vendors.Vendor{Name: "test-speaks-gnmi", Render: render, Dial: dialVia("ssh"),
		Transports:   map[string]vendors.DialFunc{"gnmi": dialVia("gnmi")},
		Formats:      map[string]func(*intent.Device) ([]byte, error){"test-format": func(*intent.Device) ([]byte, error) { return nil, nil }},
		Ports:        inventory.PortNaming{Format: "et-0/0/%d", Stride: 1, First: 0},
		Containerlab: []string{"test-kind"}})
	vendors.Register(vendors.Vendor{Name: "test-refuses-gnmi", Render: render, Dial: dialVia("ssh"),
		Refuses: map[string]string{"gnmi": "its models are unverified; use ssh"}})
}

// Lookup's Dial goes where the target's transport says, and a refused
// transport is a *TransportError naming device, vendor and reason.
func TestDialByTransport(t *testing.T) {
	tests := []struct {
		vendor, transport string
		via               string // "" for a refusal
	}{
		{"test-speaks-gnmi", "", "ssh"},
		{"test-speaks-gnmi", "ssh", "ssh"},
		{"test-speaks-gnmi", "gnmi", "gnmi"},
		{"test-refuses-gnmi", "ssh", "ssh"},
		{"test-refuses-gnmi", "gnmi", ""},
	}
	for _, tc := range tests {
		v, ok := vendors.Lookup(tc.vendor)
		if !ok {
			t.Fatalf("%s not registered", tc.vendor)
		}
		d, err := v.Dial(t.Context(), vendors.Target{Device: "leaf1", Vendor: tc.vendor, Transport: tc.transport})
		check := vendors.CheckTransport(tc.vendor, tc.transport)
		if tc.via == "" {
			var te *vendors.TransportError
			if !errors.As(err, &te) || te.Device != "leaf1" || te.Reason == "" {
				t.Errorf("%s over %s: got %v, want a TransportError", tc.vendor, tc.transport, err)
			} else if want := "connect leaf1: test-refuses-gnmi over gnmi is not supported: its models are unverified; use ssh"; err.Error() != want {
				t.Errorf("error = %q, want %q", err, want)
			}
			if check == nil {
				t.Errorf("CheckTransport(%s, %s) = nil", tc.vendor, tc.transport)
			}
			continue
		}
		if err != nil || d.(*dialer).via != tc.via {
			t.Errorf("%s over %q: dialled via %v (%v), want %s", tc.vendor, tc.transport, d, err, tc.via)
		}
		if check != nil {
			t.Errorf("CheckTransport(%s, %s) = %v", tc.vendor, tc.transport, check)
		}
	}
}

// A transport the vendor neither speaks nor refuses is an error naming
// what it speaks, before any connection.
func TestDialUnknownTransport(t *testing.T) {
	v, _ := vendors.Lookup("test-refuses-gnmi")
	_, err := v.Dial(t.Context(), vendors.Target{Device: "leaf1", Transport: "netconf"})
	if want := `connect leaf1: vendor test-refuses-gnmi speaks ssh, not "netconf"`; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
	v, _ = vendors.Lookup("test-speaks-gnmi")
	_, err = v.Dial(t.Context(), vendors.Target{Device: "leaf1", Transport: "netconf"})
	if want := `connect leaf1: vendor test-speaks-gnmi speaks ssh and gnmi, not "netconf"`; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}
