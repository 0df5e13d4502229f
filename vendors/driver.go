package vendors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/inventory"
)

// Driver talks to one connected device. Its methods are not safe for
// concurrent use; plan gives each device its own driver.
type Driver interface {
	// Running reads the running config inside lossless' scope, in a form
	// that is stable between reads (no timestamps): the fingerprint of a
	// saved plan is its SHA-256.
	Running(ctx context.Context) ([]byte, error)
	// Diff compares a Running result with the desired rendering and
	// returns the change that makes the device match it. It is pure: no
	// I/O, and the same inputs give the same change.
	Diff(running []byte, desired *config.Document) (*Change, error)
	// Apply sends c atomically: afterwards the device is either at the
	// desired config (re-read and verified) or back at exactly the running
	// config it had before. A failure is in Result.Err, naming the device.
	Apply(ctx context.Context, c *Change, opts ApplyOptions) Result
	// Close ends the session. It is safe to call more than once.
	Close() error
}

// ApplyOptions are the settings of one apply.
type ApplyOptions struct {
	// ConfirmTimeout is how long a confirm-by-timer commit (EOS commit
	// timer, Huawei commit trial) waits for the confirm before the device
	// rolls back by itself; 0 means DefaultConfirmTimeout.
	ConfirmTimeout time.Duration
}

// DefaultConfirmTimeout is the commit timer used when ApplyOptions leaves
// it unset.
const DefaultConfirmTimeout = 2 * time.Minute

// Change is what apply would do to one device. A Change with no Commands
// and no Patch is empty: nothing is pushed.
type Change struct {
	// Device is the device name.
	Device string `json:"device"`
	// Vendor is the device's vendor name.
	Vendor string `json:"vendor"`
	// Scope says what part of the running config was read and may change.
	Scope string `json:"scope"`
	// Diff is the unified diff (go-diff line mode) of the scoped running
	// config against the desired one, in the device's own text form; ""
	// when they are equal.
	Diff string `json:"diff,omitempty"`
	// Commands are the exact CLI lines apply sends, in order (CLI vendors).
	Commands []string `json:"commands,omitempty"`
	// Patch is the RFC 6902 JSON Patch apply sends (SONiC); nil for CLI.
	Patch json.RawMessage `json:"patch,omitempty"`
	// OpenConfig is the OpenConfig view of the change, for drivers that
	// verify through OpenConfig (EOS over gNMI): {"delete": [paths],
	// "update": [{"path", "value"}]}, computed with ygot.Diff; nil
	// otherwise. Apply does not send it.
	OpenConfig json.RawMessage `json:"openconfig,omitempty"`
	// Disruptive lists why the change may disturb traffic while it is
	// applied (for example an NX-OS network-qos change); empty when it is
	// hitless.
	Disruptive []string `json:"disruptive,omitempty"`
	// NotCrashAtomic, when set, says why a push to this device is not
	// atomic on the device itself: if lossless dies mid-push (killed,
	// host down) the device may keep part of the change until `lossless
	// recover` runs. Empty when the device commits the whole change or
	// nothing (a configuration session, a commit timer, an atomic patch).
	// apply -require-atomic refuses a device where it is set.
	NotCrashAtomic string `json:"not_crash_atomic,omitempty"`
	// Kept lists the objects of the families lossless manages that the
	// change leaves on the device, each with why: lossless does not render
	// it (the platform's own template, an operator's or another team's
	// object; the intent's unmanaged = "prune" removes those), or something
	// outside the scope still references it (never removed). Sorted by
	// object.
	Kept []Kept `json:"kept,omitempty"`
	// Warnings are the rendering's warnings (Desired.Warnings), so that
	// the plan, its JSON and apply's confirmation show them.
	Warnings []config.Warning `json:"warnings,omitempty"`
	// Desired is the rendering the change leads to; Apply verifies the
	// device against it after pushing.
	Desired *config.Document `json:"desired"`
}

// Kept is one object a change leaves on the device although it is in a
// family lossless manages.
type Kept struct {
	// Object names it as the device does: "class-map type qos match-any
	// BULK", "BUFFER_PG|Ethernet0|6".
	Object string `json:"object"`
	// Reason says why it stays: "not rendered by lossless (SONiC's
	// buffer template)", "used by policy-map type qos OTHER".
	Reason string `json:"reason"`
}

// SortKept sorts ks by object in natural order (QUEUE|Ethernet4|1 before
// QUEUE|Ethernet12|1: inventory.ComparePorts), then reason, and drops
// exact repeats.
func SortKept(ks []Kept) []Kept {
	slices.SortFunc(ks, func(a, b Kept) int {
		if c := inventory.ComparePorts(a.Object, b.Object); c != 0 {
			return c
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return slices.Compact(ks)
}

// Empty reports whether the change has nothing to send.
func (c *Change) Empty() bool {
	if c == nil {
		return true
	}
	return len(c.Commands) == 0 && (len(c.Patch) == 0 || string(c.Patch) == "[]")
}

// CrashAtomicity is the optional ability of a driver to say whether its
// Apply is atomic on the device even when lossless dies mid-push. A
// driver without it is taken as not crash-atomic ("the driver does not
// say").
type CrashAtomicity interface {
	// CrashAtomic returns "" when a push is committed by the device as a
	// whole or not at all, whatever happens to the client, else why not
	// ("apply-patch is not transactional: a killed push leaves the
	// operations applied so far until recover rolls back to the
	// checkpoint").
	CrashAtomic() (notAtomic string)
}

// DeviceLocker is the optional ability of a driver to hold the device's
// own configuration lock (or exclusive configuration session) for the
// length of an apply, so that no other client — a second lossless from
// another checkout, an operator's session — changes the configuration
// between lossless' read and its commit. plan.ApplyDevice takes it around
// Apply when the driver has it.
type DeviceLocker interface {
	// LockConfig takes the device's configuration lock for this session;
	// when another session holds it the error names the holder as the
	// device reports it and wraps ErrDeviceLocked.
	LockConfig(ctx context.Context) error
	// UnlockConfig releases the lock LockConfig took; releasing a lock
	// not held is not an error.
	UnlockConfig(ctx context.Context) error
}

// ErrDeviceLocked is wrapped by a DeviceLocker's error when another
// session holds the device's configuration lock.
var ErrDeviceLocked = errors.New("the device's configuration is locked by another session")

// Result is the outcome of applying one device's change.
type Result struct {
	Device string
	// Applied is true when the device now runs the desired config.
	Applied bool
	// RolledBack is true when a failure was undone: the device is back at
	// its running config from before the apply.
	RolledBack bool
	// Err is why the apply failed; nil on success. A rejection by the
	// device is a *DeviceError.
	Err error
	// Duration is the wall time the apply took.
	Duration time.Duration
}

// DeviceError is a line the device refused: the device, the line sent and
// the device's reply.
type DeviceError struct {
	Device string
	// Line is the command sent.
	Line string
	// Reply is what the device printed in answer, trimmed.
	Reply string
}

// Error returns "DEVICE rejected "LINE": REPLY".
func (e *DeviceError) Error() string {
	return fmt.Sprintf("%s rejected %q: %s", e.Device, e.Line, e.Reply)
}
