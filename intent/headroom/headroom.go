// Package headroom computes the lossless (PFC) headroom a port needs: the
// buffer that absorbs what is still arriving after the port sends PAUSE,
// from the link speed, the cable length, the MTU and the response times of
// the MAC, PHY and the peer. Each constant names its source.
package headroom

import "github.com/lossless-net/lossless/internal/units"

// Term is one named contribution to a computed headroom.
type Term struct {
	Name   string      `json:"name"`   // "cable propagation (both ways)" …
	Bytes  units.Bytes `json:"bytes"`  // its contribution
	Source string      `json:"source"` // where the constant comes from
}
