// Package plan runs lossless' change workflow over a fleet without knowing
// any vendor: per device it renders the desired config, reads the scoped
// running config through the device's driver (found in the vendors
// registry), and diffs the two into a change; across the fleet it bounds
// parallelism, keeps results in device-name order, saves and reads plan
// files with a fingerprint of each running config, refuses stale saved
// plans and renderings that differ from approved golden files, and
// applies changes atomically through the drivers.
package plan

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/lossless-net/lossless/golden"
	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/vendors"
)

// DefaultParallelism is the number of devices worked on at once when
// Options leaves it unset (Terraform's -parallelism default).
const DefaultParallelism = 10

// FormatVersion is the version of the saved plan file and -json format.
const FormatVersion = "1"

// Device is one device of the fleet: its desired state and how to reach
// it.
type Device struct {
	Intent *intent.Device
	Target vendors.Target
}

// Options are the fleet-wide settings of a plan or an apply.
type Options struct {
	// Parallelism bounds the devices worked on at once; 0 means
	// DefaultParallelism.
	Parallelism int
	// FailFast stops at the first failed device: no new device starts and
	// those in flight roll back.
	FailFast bool
	// Golden is a directory of approved renderings (<device>.cfg or
	// .json); when set, a device whose rendering differs from its file is
	// refused.
	Golden string
	// ConfirmTimeout is passed to drivers that commit on a timer.
	ConfirmTimeout time.Duration
	// RequireAtomic refuses to apply a device whose push is not atomic on
	// the device itself (Change.NotCrashAtomic): nothing is sent to it.
	RequireAtomic bool
	// Logger receives milestones; nil is silent.
	Logger *slog.Logger
	// Progress, when set, is called as each device starts and ends (from
	// the device's goroutine; it must be safe for concurrent use).
	Progress func(device, state string)
	// Now is the clock of device durations; nil is the system clock.
	Now Clock
	// Journal, when set, is the write-ahead record of an apply: told of
	// each device's change before it is sent, and of its result.
	Journal Journal
}

// Plan is the plan of a fleet, as saved with -out.
type Plan struct {
	FormatVersion string `json:"format_version"`
	// Source says where the intent came from, so that apply of a saved
	// plan reaches the same devices; set by the caller.
	Source *Source `json:"source,omitempty"`
	// Fabric is the identity of the fabric the plan was made for (the
	// addresses of its devices, Identity.Of, and the intent hash), and
	// Version the lossless that made it; apply refuses a saved plan of
	// another fabric, intent or version. Set by the caller.
	Fabric  *Identity `json:"fabric,omitempty"`
	Version string    `json:"lossless_version,omitempty"`
	// Devices are in device-name order.
	Devices []DevicePlan `json:"devices"`
}

// DevicePlan is one device's part of a plan.
type DevicePlan struct {
	Device string `json:"device"`
	Vendor string `json:"vendor"`
	// Fingerprint is the SHA-256 (hex) of the scoped running config the
	// change was computed from.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Change is nil when the device failed.
	Change *vendors.Change `json:"change,omitempty"`
	// Error is the failure, as text, for the saved file and -json.
	Error string `json:"error,omitempty"`
	// Err is the failure; nil when the device was planned.
	Err error `json:"-"`
}

// Source is the input a plan was made from.
type Source struct {
	Dir       string            `json:"dir"`
	Inventory string            `json:"inventory,omitempty"`
	Vars      map[string]string `json:"vars,omitempty"`
	VarFiles  []string          `json:"var_files,omitempty"`
	// Lab is true for a plan made against the embedded lab (plan -lab).
	Lab bool `json:"lab,omitempty"`
}

// Counts sums a plan or an apply.
type Counts struct {
	Change    int `json:"change"`
	Unchanged int `json:"unchanged"`
	Failed    int `json:"failed"`
}

// String is the closing line of plan and apply output.
func (c Counts) String() string {
	return fmt.Sprintf("%d to change, %d unchanged, %d failed", c.Change, c.Unchanged, c.Failed)
}

// Counts counts changed, unchanged and failed devices.
func (p *Plan) Counts() Counts {
	var c Counts
	for _, d := range p.Devices {
		switch {
		case d.Err != nil || d.Error != "":
			c.Failed++
		case d.Change.Empty():
			c.Unchanged++
		default:
			c.Change++
		}
	}
	return c
}

// Fingerprint is the hex SHA-256 of a scoped running config.
func Fingerprint(running []byte) string {
	s := sha256.Sum256(running)
	return hex.EncodeToString(s[:])
}

// Make plans every device: it never changes one. Devices come back in
// name order; a failed device is a DevicePlan with Err set and the others
// carry on, unless opts.FailFast, when the first failure is also returned
// and devices not yet started are reported as cancelled.
func Make(ctx context.Context, devs []Device, opts Options) (*Plan, error) {
	devs = sorted(devs)
	p := &Plan{FormatVersion: FormatVersion, Devices: make([]DevicePlan, len(devs))}
	err := Each(ctx, devs, opts, func(ctx context.Context, i int, d Device) error {
		p.Devices[i] = planOne(ctx, d, opts)
		return p.Devices[i].Err
	}, func(i int, d Device, err error) {
		p.Devices[i] = failed(d, err)
	})
	return p, err
}

// Each is the fleet runner: it runs job for every device of devs (job
// gets the device's index in devs), at most opts.Parallelism at once, and
// reports each device's start and end through opts.Progress. Each job
// writes its own slot of the caller's results, so none needs a lock. A
// job's error is its device's failure, and the others carry on; only with
// opts.FailFast does the first one stop the fleet: Each returns it, no new
// device starts and the ctx of the jobs in flight is cancelled (their
// drivers roll back). Once ctx ends no new device starts either:
// notStarted is called for each device left, with an error naming it and
// the cause.
func Each(ctx context.Context, devs []Device, opts Options, job func(ctx context.Context, i int, d Device) error, notStarted func(i int, d Device, err error)) error {
	g, gctx := errgroup.WithContext(ctx)
	n := opts.Parallelism
	if n <= 0 {
		n = DefaultParallelism
	}
	g.SetLimit(n)
	for i, d := range devs {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				notStarted(i, d, fmt.Errorf("%s: not started: %w", d.Intent.Name, context.Cause(gctx)))
				return nil
			}
			progress(opts, d.Intent.Name, "started")
			err := job(gctx, i, d)
			if err != nil {
				progress(opts, d.Intent.Name, "failed")
				if opts.FailFast {
					return err
				}
				return nil
			}
			progress(opts, d.Intent.Name, "done")
			return nil
		})
	}
	return g.Wait()
}

func progress(opts Options, device, state string) {
	if opts.Progress != nil {
		opts.Progress(device, state)
	}
}

func failed(d Device, err error) DevicePlan {
	return DevicePlan{Device: d.Intent.Name, Vendor: d.Intent.Vendor, Err: err, Error: err.Error()}
}

func sorted(devs []Device) []Device {
	out := slices.Clone(devs)
	slices.SortFunc(out, func(a, b Device) int { return strings.Compare(a.Intent.Name, b.Intent.Name) })
	return out
}

// Desired is the rendering a plan diffs d's running config against: d
// rendered by its vendor's renderer, with the intent's unmanaged choice
// set on it, checked against the approved golden file when opts.Golden
// is set. Import's round trip uses it too.
func Desired(d Device, opts Options) (vendors.Vendor, *config.Document, error) {
	v, err := vendor(d)
	if err != nil {
		return v, nil, err
	}
	doc, err := v.Render(d.Intent)
	if err != nil {
		return v, nil, err // names the device and the feature
	}
	doc.Prune = d.Intent.Unmanaged == intent.UnmanagedPrune
	if opts.Golden != "" {
		if err := approved(opts.Golden, d.Intent.Name, doc); err != nil {
			return v, nil, err
		}
	}
	return v, doc, nil
}

// Dial opens a session to d through its vendor's driver; the caller
// closes it.
func Dial(ctx context.Context, d Device) (vendors.Driver, error) {
	v, err := vendor(d)
	if err != nil {
		return nil, err
	}
	return v.Dial(ctx, d.Target)
}

// vendor looks d's vendor up in the registry.
func vendor(d Device) (vendors.Vendor, error) {
	v, ok := vendors.Lookup(d.Intent.Vendor)
	if !ok {
		return v, fmt.Errorf("%s: no driver for vendor %q (registered: %s)", d.Intent.Name, d.Intent.Vendor, strings.Join(vendors.Names(), ", "))
	}
	return v, nil
}

// ErrNotApproved is wrapped by the error of a device whose rendering
// differs from its golden file.
var ErrNotApproved = errors.New("rendering differs from the approved golden file")

func approved(dir, device string, doc *config.Document) error {
	name := device + ".cfg"
	if doc.Format == config.ConfigDB {
		name = device + ".json"
	}
	ms, err := golden.Compare(dir, map[string][]byte{name: doc.Text})
	if err != nil {
		return fmt.Errorf("%s: golden: %w", device, err)
	}
	for _, m := range ms {
		if m.File != name {
			continue // another device's file
		}
		if m.Kind == golden.Missing {
			return fmt.Errorf("%s: %w: %s has no approved file", device, ErrNotApproved, filepath.Join(dir, name))
		}
		return fmt.Errorf("%s: %w %s:\n%s", device, ErrNotApproved, filepath.Join(dir, name), m.Diff)
	}
	return nil
}

// planOne renders, connects, reads and diffs one device.
func planOne(ctx context.Context, d Device, opts Options) DevicePlan {
	dp := DevicePlan{Device: d.Intent.Name, Vendor: d.Intent.Vendor}
	fail := func(err error) DevicePlan {
		dp.Err, dp.Error = err, err.Error()
		return dp
	}
	v, doc, err := Desired(d, opts)
	if err != nil {
		return fail(err)
	}
	drv, err := v.Dial(ctx, d.Target)
	if err != nil {
		return fail(err)
	}
	defer drv.Close()
	running, err := drv.Running(ctx)
	if err != nil {
		return fail(err)
	}
	ch, err := drv.Diff(running, doc)
	if err != nil {
		return fail(fmt.Errorf("%s: diff: %w", d.Intent.Name, err))
	}
	dp.Fingerprint = Fingerprint(running)
	annotate(ch, doc, drv)
	dp.Change = ch
	return dp
}

// annotate adds to a driver's change what plan knows besides the diff:
// the rendering's warnings and, for a change that sends something, why a
// push through drv is not atomic on the device. Plan and apply both call
// it, so a saved plan and the change apply recomputes carry the same.
func annotate(ch *vendors.Change, doc *config.Document, drv vendors.Driver) {
	ch.Warnings = doc.Warnings
	if !ch.Empty() {
		ch.NotCrashAtomic = notCrashAtomic(drv)
	}
}

// notCrashAtomic is why a push through drv is not atomic on the device
// ("" when it is).
func notCrashAtomic(drv vendors.Driver) string {
	if a, ok := drv.(vendors.CrashAtomicity); ok {
		return a.CrashAtomic()
	}
	return "the driver does not say that the device commits a push whole"
}
