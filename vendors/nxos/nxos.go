// Package nxos is the Cisco NX-OS (Nexus 9000) driver: it reads `show
// running-config ipqos` over SSH, diffs it against the NX-OS rendering
// inside lossless' scope (Scope; scope.go says what lossless owns and
// what it keeps) with NX-OS's removal order and safe remediation
// (retype.go: a class-map's match type), and applies a change atomically
// with a checkpoint:
// `checkpoint`, the commands, `copy running-config startup-config`, a
// re-read that must show no difference, and `rollback running-config
// checkpoint` on any failure (reconnecting if the session dropped), as
// reference/nxos.md §5 recommends.
package nxos

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	render "github.com/lossless-net/lossless/renderers/nxos"
	"github.com/lossless-net/lossless/vendors"
)

// Vendor is the inventory name of NX-OS devices.
const Vendor = render.Vendor

// platformYAML is the scrapligo platform definition: the stock cisco_nxos
// one with NX-OS's full list of error texts.
//
//go:embed platform.yaml
var platformYAML []byte

// dialSSH opens a session on the platform of platformYAML.
var dialSSH = vendors.PlatformDialer(platformYAML)

// Commands the driver sends (reference/nxos.md §1b, §5).
const (
	showIPQoS   = "show running-config ipqos"
	saveConfig  = "copy running-config startup-config"
	rollbackFmt = "rollback running-config checkpoint %s atomic"
	rollbackOK  = "Rollback completed successfully"
)

// rollbackTimeout bounds a rollback, which runs even after ctx is
// cancelled (Ctrl-C must not leave a half-applied change).
const rollbackTimeout = 2 * time.Minute

// Driver is a connected NX-OS device.
type Driver struct{ vendors.CLI }

// Dial connects to an NX-OS device.
func Dial(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
	return vendors.DialDriver(ctx, t, Vendor, dialSSH, Diff, func(c vendors.CLI) vendors.Driver { return &Driver{c} })
}

// Running returns the body of `show running-config ipqos`, without the
// header lines that change on every read, so that two reads of an
// unchanged device are byte-identical (a saved plan fingerprints them).
// It is the whole QoS config, not the scope: every class-map, policy-map
// and service-policy line, on every port and under system qos, so that
// Diff sees what outside lossless' scope uses lossless' objects (scope.go)
// and changes only the scope.
func (d *Driver) Running(ctx context.Context) ([]byte, error) {
	return d.Session.Read(ctx, showIPQoS, func(b []byte) ([]byte, error) { return Body(b), nil })
}

// checkpointName is unique per apply, ≤ 32 characters of [A-Za-z0-9_-]
// and does not start with "system" (reference/nxos.md §5).
func checkpointName(now time.Time) string {
	return vendors.Stamp("lossless-", now)
}

// Apply saves the running config, then sends c between a checkpoint and
// its verification, and saves again. On any failure after the checkpoint
// the device is rolled back to it, over a new session when the old one
// dropped, and the result says whether that worked.
func (d *Driver) Apply(ctx context.Context, c *vendors.Change, _ vendors.ApplyOptions) vendors.Result {
	a := vendors.Begin(d.Target.Device)
	if c.Empty() {
		return a.Done(nil)
	}
	// Save first: a switch that cannot save would lose the change on
	// reload, and a save that fails here fails before anything changed.
	// After a reload the switch is then at the pre-apply config.
	if _, err := d.Session.Exec(ctx, saveConfig); err != nil {
		return a.Done(fmt.Errorf("apply %s: save before the change: %w; nothing was changed", d.Target.Device, err))
	}
	cp := checkpointName(a.Start)
	if out, err := d.Session.Exec(ctx, "checkpoint "+cp); err != nil {
		return a.Done(fmt.Errorf("apply %s: checkpoint: %w", d.Target.Device, err))
	} else if strings.Contains(out, "ERROR") {
		return a.Done(fmt.Errorf("apply %s: checkpoint: %w", d.Target.Device, &vendors.DeviceError{Device: d.Target.Device, Line: "checkpoint " + cp, Reply: strings.TrimSpace(out)}))
	}
	d.Log.Info("checkpoint saved", "op", "checkpoint", "checkpoint", cp)
	err := d.push(ctx, c)
	if err == nil {
		a.Applied = true
		d.drop(ctx, cp)
		d.Log.Info("applied", "op", "apply", "commands", len(c.Commands), "duration", time.Since(a.Start))
		return a.Done(nil)
	}
	rbErr := d.rollback(ctx, cp)
	if rbErr != nil {
		d.Log.Error("rollback failed", "op", "rollback", "checkpoint", cp, "err", rbErr)
		return a.Done(fmt.Errorf("apply %s: %w; ROLLBACK FAILED, the device may be half-applied (checkpoint %s): %w", d.Target.Device, err, cp, rbErr))
	}
	a.RolledBack = true
	d.Log.Warn("rolled back", "op", "rollback", "checkpoint", cp, "err", err)
	return a.Done(fmt.Errorf("apply %s: %w; rolled back to checkpoint %s", d.Target.Device, err, cp))
}

// push sends the commands, saves the config and verifies the result.
func (d *Driver) push(ctx context.Context, c *vendors.Change) error {
	if err := d.Session.Configure(ctx, c.Commands); err != nil {
		return err
	}
	left, err := vendors.Left(ctx, d.Running, Diff, d.Target.Device, c.Desired)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if left != nil {
		return fmt.Errorf("verify: the running config still differs from the desired one after the commands:\n%s", left.Diff)
	}
	if _, err := d.Session.Exec(ctx, saveConfig); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	return nil
}

// rollback restores the checkpoint, on a new session if the current one
// is gone or ctx is cancelled, then deletes the checkpoint.
func (d *Driver) rollback(ctx context.Context, cp string) error {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
	defer cancel()
	out, err := d.Session.Exec(rctx, fmt.Sprintf(rollbackFmt, cp))
	if err != nil && !vendors.IsDeviceError(err) {
		// The session dropped or was cut by ctx: NX-OS keeps the lines
		// already entered, so reconnect and roll back.
		if derr := d.Redial(rctx); derr != nil {
			return fmt.Errorf("reconnect: %w", derr)
		}
		out, err = d.Session.Exec(rctx, fmt.Sprintf(rollbackFmt, cp))
	}
	if err != nil {
		return err
	}
	if !strings.Contains(out, rollbackOK) {
		return &vendors.DeviceError{Device: d.Target.Device, Line: fmt.Sprintf(rollbackFmt, cp), Reply: strings.TrimSpace(out)}
	}
	d.drop(rctx, cp)
	return nil
}

// drop deletes the checkpoint; NX-OS keeps at most 10 (reference/nxos.md
// §5), so a leftover one is logged, not fatal.
func (d *Driver) drop(ctx context.Context, cp string) {
	if _, err := d.Session.Exec(ctx, "no checkpoint "+cp); err != nil {
		d.Log.Warn("checkpoint not deleted", "op", "checkpoint", "checkpoint", cp, "err", err)
	}
}
