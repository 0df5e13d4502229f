// Package platform is the catalog of switch platforms lossless supports:
// for each model, its ASIC and the buffer facts that validation, headroom
// sizing and rendering need, and what its network OS accepts for the PFC
// watchdog. The catalog is data (catalog.json), not code branches: shared
// code reads these facts instead of switching on vendor names.
package platform

import "github.com/lossless-net/lossless/internal/units"

// Platform describes one switch model.
type Platform struct {
	// Model is the name written in the inventory ("N9K-C9364D-GX2A").
	Model string `json:"model"`
	// ASIC names the forwarding chip ("Tomahawk3").
	ASIC string `json:"asic"`
	// Family is a vendor-specific syntax family ("A" or "B" for Huawei CE,
	// see reference/huawei-ce.md §0); empty when the vendor has one.
	Family string `json:"family,omitempty"`
	// Buffer is the total packet buffer in bytes.
	Buffer units.Bytes `json:"buffer_bytes"`
	// Cell is the buffer cell (allocation unit) in bytes.
	Cell units.Bytes `json:"cell_bytes"`
	// MaxLossless is the number of lossless (PFC) classes it supports.
	MaxLossless int `json:"max_lossless"`
	// PFCPriorities lists the priorities PFC may use (Huawei family A: 0–5).
	PFCPriorities []int `json:"pfc_priorities"`
	// MTUMin and MTUMax bound the MTU in bytes.
	MTUMin int `json:"mtu_min"`
	MTUMax int `json:"mtu_max"`
	// Units names the unit the platform programs thresholds in
	// ("bytes", "kbytes", "cells").
	Units string `json:"units"`
	// Source says where the figures come from.
	Source string `json:"source"`
	// Aliases are other names an engineer may write for the same model
	// (the SONiC HwSKU, the model without its vendor prefix). Lookup
	// accepts them; Model stays the canonical name.
	Aliases []string `json:"aliases,omitempty"`
	// Unverified names the JSON fields whose figure is an inference or a
	// lower bound rather than read in a cited source ("buffer_bytes",
	// "cell_bytes", "max_lossless"). Checks that depend on them should
	// warn rather than fail.
	Unverified []string `json:"unverified,omitempty"`
	// Watchdog is what the platform's network OS accepts for the PFC
	// watchdog: timer ranges and actions, with their source. Every catalog
	// entry has one; nil (a Platform built by hand) means the intent's
	// watchdog is not checked against any range.
	Watchdog *Watchdog `json:"watchdog"`
}
