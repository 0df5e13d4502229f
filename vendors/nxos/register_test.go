package nxos

import (
	"testing"

	"github.com/lossless-net/lossless/vendors"
)

func TestRegistered(t *testing.T) {
	r, ok := vendors.Lookup(Vendor)
	if !ok || r.Render == nil {
		t.Fatalf("%s not registered", Vendor)
	}
}
