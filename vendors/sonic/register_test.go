package sonic

import (
	"testing"

	"github.com/lossless-net/lossless/vendors"
)

// TestRegistered: SONiC registers its renderer with the "yang" format and
// the in-process YANG check.
func TestRegistered(t *testing.T) {
	r, ok := vendors.Lookup(Vendor)
	if !ok || r.Formats["yang"] == nil {
		t.Fatal("sonic renderer or its yang format is not registered")
	}
	if r.Check == nil {
		t.Fatal("sonic renderer registers no Check")
	}
}
