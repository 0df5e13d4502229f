package eos

import (
	"context"
	"errors"
	"fmt"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"

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
type GNMIDriver struct{ gnmiclient.Conn }

// DialGNMI connects to an EOS device's gNMI server.
func DialGNMI(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
	c, err := gnmiclient.DialConn(ctx, t, GNMIPort, Vendor)
	if err != nil {
		return nil, err
	}
	return &GNMIDriver{c}, nil
}

// Running reads `show running-config` over gNMI and keeps its QoS part
// (QoSView), byte for byte what the SSH driver's Running returns.
func (d *GNMIDriver) Running(ctx context.Context) ([]byte, error) {
	text, err := d.showRunning(ctx)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Target.Device, err)
	}
	v, err := QoSView(text)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Target.Device, err)
	}
	return v, nil
}

// showRunning returns the whole `show running-config` text.
func (d *GNMIDriver) showRunning(ctx context.Context) ([]byte, error) {
	resp, err := d.Client.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{showRunningPath}, Encoding: gpb.Encoding_ASCII})
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
	ch, err := Diff(d.Target.Device, running, desired)
	if err != nil || ch.Empty() {
		return ch, err
	}
	if ch.OpenConfig, err = OpenConfigChange(running, desired); err != nil {
		return nil, fmt.Errorf("diff %s: %w", d.Target.Device, err)
	}
	return ch, nil
}

// CLISet is the SetRequest that runs lines as one configuration session:
// origin cli, an empty path, the lines in one ascii_val separated by "\n"
// (reference/eos.md §6, the form Arista's own client sends).
func CLISet(lines []string) *gpb.SetRequest {
	return &gpb.SetRequest{
		Prefix: &gpb.Path{Origin: "cli"},
		Update: []*gpb.Update{{Path: &gpb.Path{}, Val: &gpb.TypedValue{Value: &gpb.TypedValue_AsciiVal{AsciiVal: strings.Join(lines, "\n")}}}},
	}
}

// Apply sends c's commands as one cli Set and verifies the device: a
// re-read must show no difference, and the OpenConfig read-back must agree
// with the rendering (gnmioc.go). With Commit Confirmed the Set is a
// commit that the target rolls back after opts.ConfirmTimeout unless
// confirmed; a failed verification cancels it. Without it, a failed
// verification sends the reverse change. Either way the device is then
// checked to be back at the running config read before the apply.
func (d *GNMIDriver) Apply(ctx context.Context, c *vendors.Change, opts vendors.ApplyOptions) vendors.Result {
	var before []byte
	return d.Client.Apply(ctx, c, opts, d.Log, gnmiclient.Commit{
		Request: func() (*gpb.SetRequest, error) { return CLISet(c.Commands), nil },
		// EOS aborts the session of a refused Set: nothing was
		// committed.
		Line: "gnmi Set (cli)", Refused: "session aborted, nothing was changed",
		Before: func(ctx context.Context) ([]byte, error) {
			var err error
			before, err = d.Running(ctx)
			return before, err
		},
		Running: d.Running,
		Verify:  func(ctx context.Context) error { return d.verify(ctx, c, before) },
		Undo:    func(ctx context.Context, now []byte) error { return d.reverse(ctx, now, before) },
		Undone:  "reverse change sent", AfterUndo: "the reverse change",
		Counted: "commands",
	})
}

// verify re-reads the running config, which must show no difference from
// the rendering, and checks the OpenConfig read-back against what the
// change from before leaves.
func (d *GNMIDriver) verify(ctx context.Context, c *vendors.Change, before []byte) error {
	left, err := vendors.Left(ctx, d.Running, Diff, d.Target.Device, c.Desired)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if left != nil {
		return fmt.Errorf("verify: the running config differs from the desired one after the Set (did the commit timer run out?):\n%s", left.Diff)
	}
	return d.verifyOpenConfig(ctx, before, c.Desired)
}

// reverse sends the change that takes the device from now back to before
// (both Running results), computed by Diff with before as the rendering
// and unmanaged = "prune", so that what the change added goes too.
func (d *GNMIDriver) reverse(ctx context.Context, now, before []byte) error {
	tree, err := Parse(before)
	if err != nil {
		return fmt.Errorf("reverse: %w", err)
	}
	back, err := Diff(d.Target.Device, now, &config.Document{Device: d.Target.Device, Format: config.CLI, Tree: tree, Text: before, Prune: true})
	if err != nil {
		return fmt.Errorf("reverse: %w", err)
	}
	if back.Empty() {
		return nil
	}
	if _, err := d.Client.Set(ctx, CLISet(back.Commands)); err != nil {
		return fmt.Errorf("reverse: %w", err)
	}
	return nil
}
