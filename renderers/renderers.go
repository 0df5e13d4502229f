// Package renderers holds what the vendor renderers share: the Func every
// renderers/<vendor> package implements and the UnsupportedError they
// return. A renderer is a pure function from one device's desired state
// to its config document; it never imports the vendor registry
// (package vendors, which registers each vendor's renderer).
package renderers

import (
	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
)

// Func renders one device. It is pure and deterministic: the same device
// gives the same bytes. A feature the vendor or platform cannot express is
// an error naming the device, the feature and the reason.
type Func func(d *intent.Device) (*config.Document, error)

// The rules of renderer warnings (config.Warning.Rule). validate reports
// them as warnings (errors under -strict); plan and apply show them in the
// device's section.
const (
	// RuleRounded: a value was rounded or converted to the device's
	// granularity; the warning names the value before and after.
	RuleRounded = "LL200"
	// RuleNotRendered: part of the intent is not rendered because the
	// platform has no such setting; the device keeps its own default.
	RuleNotRendered = "LL201"
	// RuleDefaultChosen: the intent is silent (or the platform keeps a
	// built-in mapping) and the rendering takes a default; the warning
	// names the default.
	RuleDefaultChosen = "LL202"
)
