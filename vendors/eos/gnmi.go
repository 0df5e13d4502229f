package eos

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/gnmi/proto/gnmi_ext"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/gnmiclient"
)

// This file is the EOS driver over gNMI (reference/eos.md §6), chosen by
// the inventory's transport = "gnmi". It reads `show running-config` with
// a Get of origin cli (ASCII encoding, EOS 4.29.2F+) and keeps its QoS
// part as the SSH driver does, so Running's bytes and Diff's commands are
// the SSH driver's. Apply sends the commands as one Set of origin cli with
// an empty path and the lines in one ascii_val, which EOS runs in one
// configuration session and commits (all or nothing). When the target
// advertises the gNMI Commit Confirmed extension the Set is a confirmed
// commit: confirmed after the re-read shows no difference and the
// OpenConfig read-back agrees, cancelled otherwise. Without it, a failed
// verification sends the reverse change in one more Set.

// GNMIPort is EOS's default gNMI port (reference/eos.md §6), used when the
// inventory gives none.
const GNMIPort = 6030

// showRunningPath is the cli Get path of `show running-config`.
var showRunningPath = &gpb.Path{Origin: "cli", Elem: []*gpb.PathElem{{Name: showRun}}}

// GNMIDriver is an EOS device connected over gNMI.
type GNMIDriver struct {
	t   vendors.Target
	c   *gnmiclient.Client
	log *slog.Logger
}

// DialGNMI connects to an EOS device's gNMI server.
func DialGNMI(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
	c, err := gnmiclient.Dial(ctx, t, GNMIPort)
	if err != nil {
		return nil, err
	}
	return &GNMIDriver{t: t, c: c, log: t.Log().With("device", t.Device, "vendor", Vendor, "transport", "gnmi")}, nil
}

// Running reads `show running-config` over gNMI and keeps its QoS part
// (QoSView), byte for byte what the SSH driver's Running returns.
func (d *GNMIDriver) Running(ctx context.Context) ([]byte, error) {
	text, err := d.showRunning(ctx)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.t.Device, err)
	}
	v, err := QoSView(text)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.t.Device, err)
	}
	return v, nil
}

// showRunning returns the whole `show running-config` text.
func (d *GNMIDriver) showRunning(ctx context.Context) ([]byte, error) {
	resp, err := d.c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{showRunningPath}, Encoding: gpb.Encoding_ASCII})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			b.WriteString(u.GetVal().GetAsciiVal())
		}
	}
	if b.Len() == 0 {
		return nil, errors.New("get show running-config: empty answer")
	}
	return []byte(b.String()), nil
}

// Diff returns the SSH driver's change (the same commands, sent over
// gNMI) with its OpenConfig view.
func (d *GNMIDriver) Diff(running []byte, desired *config.Document) (*vendors.Change, error) {
	ch, err := Diff(d.t.Device, running, desired)
	if err != nil || ch.Empty() {
		return ch, err
	}
	if ch.OpenConfig, err = OpenConfigChange(running, desired); err != nil {
		return nil, fmt.Errorf("diff %s: %w", d.t.Device, err)
	}
	return ch, nil
}

// Close closes the connection.
func (d *GNMIDriver) Close() error { return d.c.Close() }

// CLISet is the SetRequest that runs lines as one configuration session:
// origin cli, an empty path, the lines in one ascii_val separated by "\n"
// (reference/eos.md §6, the form Arista's own client sends).
func CLISet(lines []string) *gpb.SetRequest {
	return &gpb.SetRequest{
		Prefix: &gpb.Path{Origin: "cli"},
		Update: []*gpb.Update{{Path: &gpb.Path{}, Val: &gpb.TypedValue{Value: &gpb.TypedValue_AsciiVal{AsciiVal: strings.Join(lines, "\n")}}}},
	}
}

// commitExt is a Commit Confirmed extension: with d > 0 a commit rolled
// back after d unless confirmed; confirm or cancel act on the pending one.
func commitExt(id string, d time.Duration, confirm, cancel bool) []*gnmi_ext.Extension {
	c := &gnmi_ext.Commit{Id: id}
	switch {
	case confirm:
		c.Action = &gnmi_ext.Commit_Confirm{Confirm: &gnmi_ext.CommitConfirm{}}
	case cancel:
		c.Action = &gnmi_ext.Commit_Cancel{Cancel: &gnmi_ext.CommitCancel{}}
	default:
		c.Action = &gnmi_ext.Commit_Commit{Commit: &gnmi_ext.CommitRequest{RollbackDuration: durationpb.New(d)}}
	}
	return []*gnmi_ext.Extension{{Ext: &gnmi_ext.Extension_Commit{Commit: c}}}
}

// Apply sends c's commands as one cli Set and verifies the device: a
// re-read must show no difference, and the OpenConfig read-back must agree
// with the rendering (gnmioc.go). With Commit Confirmed the Set is a
// commit that the target rolls back after opts.ConfirmTimeout unless
// confirmed; a failed verification cancels it. Without it, a failed
// verification sends the reverse change. Either way the device is then
// checked to be back at the running config read before the apply.
func (d *GNMIDriver) Apply(ctx context.Context, c *vendors.Change, opts vendors.ApplyOptions) vendors.Result {
	start := time.Now()
	res := vendors.Result{Device: d.t.Device}
	done := func(err error) vendors.Result {
		res.Err, res.Duration = err, time.Since(start)
		return res
	}
	if c.Empty() {
		return done(nil)
	}
	caps, err := d.c.Capabilities(ctx)
	if err != nil {
		return done(fmt.Errorf("apply %s: %w; nothing was changed", d.t.Device, err))
	}
	confirmed := gnmiclient.CommitConfirmed(caps)
	before, err := d.Running(ctx)
	if err != nil {
		return done(fmt.Errorf("apply %s: %w; nothing was changed", d.t.Device, err))
	}
	id := "lossless-" + strconv.FormatInt(start.UnixNano(), 36)
	req := CLISet(c.Commands)
	if confirmed {
		timeout := opts.ConfirmTimeout
		if timeout <= 0 {
			timeout = vendors.DefaultConfirmTimeout
		}
		req.Extension = commitExt(id, timeout, false, false)
	}
	if _, err := d.c.Set(ctx, req); err != nil {
		var ge *gnmiclient.Error
		if errors.As(err, &ge) && ge.Refused() {
			// EOS aborted the session: nothing was committed.
			return done(fmt.Errorf("apply %s: %w; session aborted, nothing was changed", d.t.Device, &vendors.DeviceError{Device: d.t.Device, Line: "gnmi Set (cli)", Reply: ge.Message}))
		}
		if verr := d.verify(ctx, c); verr != nil {
			return d.recover(ctx, res, start, fmt.Errorf("set: %w", err), id, confirmed, before, c)
		}
	}
	d.log.Info("set", "op", "apply", "commands", len(c.Commands), "commit_confirmed", confirmed)
	if err := d.verify(ctx, c); err != nil {
		return d.recover(ctx, res, start, err, id, confirmed, before, c)
	}
	if confirmed {
		if _, err := d.c.Set(ctx, &gpb.SetRequest{Extension: commitExt(id, 0, true, false)}); err != nil {
			return d.recover(ctx, res, start, fmt.Errorf("confirm: %w", err), id, false, before, c)
		}
	}
	res.Applied = true
	d.log.Info("applied", "op", "apply", "duration", time.Since(start))
	return done(nil)
}

// verify re-reads the running config, which must show no difference from
// the rendering, and checks the OpenConfig read-back against it.
func (d *GNMIDriver) verify(ctx context.Context, c *vendors.Change) error {
	running, err := d.Running(ctx)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	left, err := Diff(d.t.Device, running, c.Desired)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if !left.Empty() {
		return fmt.Errorf("verify: the running config differs from the desired one after the Set (did the commit timer run out?):\n%s", left.Diff)
	}
	return d.verifyOpenConfig(ctx, c.Desired)
}

// recover brings the device back after a failed apply (cause): the pending
// commit is cancelled (when confirmed) and, if the device is still not at
// the running config read before, the reverse change is sent; then the
// device is checked.
func (d *GNMIDriver) recover(ctx context.Context, res vendors.Result, start time.Time, cause error, id string, confirmed bool, before []byte, c *vendors.Change) vendors.Result {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
	defer cancel()
	how := "nothing was changed"
	if confirmed {
		if _, err := d.c.Set(rctx, &gpb.SetRequest{Extension: commitExt(id, 0, false, true)}); err == nil {
			how = "confirmed commit cancelled"
		}
	}
	now, err := d.Running(rctx)
	var rbErr error
	if err == nil && string(now) != string(before) {
		how = "reverse change sent"
		rbErr = d.reverse(rctx, now, before)
		now, err = d.Running(rctx)
	}
	res.Duration = time.Since(start)
	switch {
	case err != nil:
		res.Err = fmt.Errorf("apply %s: %w; ROLLBACK UNCHECKED, reading the device failed: %w", d.t.Device, cause, err)
	case string(now) == string(before):
		res.RolledBack = true
		d.log.Warn("rolled back", "op", "rollback", "how", how, "err", cause)
		res.Err = fmt.Errorf("apply %s: %w; %s, the device is at its pre-apply config", d.t.Device, cause, how)
	case rbErr != nil:
		res.Err = fmt.Errorf("apply %s: %w; ROLLBACK FAILED, the device is not at its pre-apply config: %w", d.t.Device, cause, rbErr)
	default:
		res.Err = fmt.Errorf("apply %s: %w; ROLLBACK FAILED, the device is not at its pre-apply config after the reverse change", d.t.Device, cause)
	}
	return res
}

// reverse sends the change that takes the device from now back to before
// (both Running results), computed by Diff with before as the rendering.
func (d *GNMIDriver) reverse(ctx context.Context, now, before []byte) error {
	tree, err := Parse(before)
	if err != nil {
		return fmt.Errorf("reverse: %w", err)
	}
	back, err := Diff(d.t.Device, now, &config.Document{Device: d.t.Device, Format: config.CLI, Tree: tree, Text: before})
	if err != nil {
		return fmt.Errorf("reverse: %w", err)
	}
	if back.Empty() {
		return nil
	}
	if _, err := d.c.Set(ctx, CLISet(back.Commands)); err != nil {
		return fmt.Errorf("reverse: %w", err)
	}
	return nil
}
