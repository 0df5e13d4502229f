package vendors

import (
	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
)

// ImportFunc reads the QoS of one device from its running config, for
// `lossless import`: running is what the vendor's Driver.Running returns
// (or Vendor.Saved makes of a saved file), dev is the device's inventory
// entry (its platform decides defaults). It returns what the intent can
// say, in the intent's resolved form, and lists every line in lossless'
// scope the intent cannot say; it never drops one silently. Bad input is
// an error, never a panic.
type ImportFunc func(dev *inventory.Device, running []byte) (*Imported, error)

// Imported is a device's QoS as read from its running config, in the
// intent's terms: rendering it (with the device's inventory) gives back
// the running config's scope, line for line, which `lossless import`
// checks.
type Imported struct {
	// QoS is the QoS of the device's QoS ports (the one most of them have
	// when they differ), with the names the device uses (QoS.Names,
	// Class.Names; empty where the device uses the renderer's default).
	// QoS.Profile is empty: import names the profiles. Nil when the
	// device has no QoS in lossless' scope.
	QoS *intent.QoS
	// Buffers are the device's buffer settings, nil when the renderer's
	// defaults for the platform give the running config's buffers.
	Buffers *intent.Buffers
	// Ports are the ports the QoS is applied to, in natural order
	// (inventory.ComparePorts).
	Ports []ImportedPort
	// Options are the rendering options the running config implies, by
	// key ("eos.style" = "qos-profile"); nil for the defaults.
	Options map[string]string
	// Unexpressed lists what in lossless' scope the intent cannot say,
	// sorted by line.
	Unexpressed []Unexpressed
}

// ImportedPort is one port with lossless' QoS on it.
type ImportedPort struct {
	Name string
	// QoS is the port's own QoS when it differs from Imported.QoS, else
	// nil.
	QoS *intent.QoS
	// Speed and Cable are the port's speed and cable length where the
	// running config says them (SONiC PORT and CABLE_LENGTH), else 0:
	// the inventory's then stand.
	Speed units.BitRate
	Cable units.Length
}

// Unexpressed is one part of a running config in lossless' scope that
// the intent cannot say.
type Unexpressed struct {
	// Line is the 1-based line of the running config text given to Import
	// where it starts (for CONFIG_DB JSON, the line of the table key).
	Line int `json:"line"`
	// Text is the line (or table|key) as the device shows it.
	Text string `json:"text"`
	// Reason says why the intent cannot say it.
	Reason string `json:"reason"`
}
