package renderers

import "fmt"

// UnsupportedError reports intent that a vendor or platform cannot express.
// Renderers return it instead of dropping the intent, so the user learns
// which device, which feature and why.
type UnsupportedError struct {
	Device  string // device name from the inventory
	Vendor  string // the vendor name as written in the inventory
	Feature string // the part of the intent ("ECN threshold of class ROCEv2")
	Reason  string // why it cannot be rendered, with the fix when there is one
}

// Error prints "render DEVICE (VENDOR): FEATURE: REASON".
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("render %s (%s): %s: %s", e.Device, e.Vendor, e.Feature, e.Reason)
}
