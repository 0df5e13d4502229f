package eos

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/lossless-net/lossless/vendors"
)

// Health commands (reference/eos.md "Counters for health checks": use
// `| json`; (a) PFC frames as port totals, (d) PFC watchdog) and the
// checkpoint commands of §5 (configure checkpoint save, configure replace
// checkpoint:NAME skip-checkpoint, delete checkpoint:NAME).
const (
	showPFCCounters = "show priority-flow-control counters | json"
	showPFCWatchdog = "show priority-flow-control counters watchdog | json"
	markPrefix      = "lossless-pre-"
)

// Counters reads the PFC frame totals and the PFC watchdog stuck counts
// of the named ports (vendors.Health). EOS's JSON has no per-priority
// frames, so they are PauseRxAll/PauseTxAll; an interface absent from the
// watchdog JSON has had no event (reference: treat as 0).
func (d *Driver) Counters(ctx context.Context, ports []string) (map[string]vendors.PortCounters, error) {
	out, err := d.Session.Command(ctx, showPFCCounters)
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	all, err := ParsePFCCounters([]byte(out))
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	wd, err := d.Session.Command(ctx, showPFCWatchdog)
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	if err := ParsePFCWatchdog([]byte(wd), all); err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	return vendors.Reported(d.Target.Device, "show priority-flow-control counters", all, ports)
}

// ParsePFCCounters reads {"interfaceCounters": {IF: {"rxFrames": N,
// "txFrames": N}}}.
func ParsePFCCounters(b []byte) (map[string]vendors.PortCounters, error) {
	var doc struct {
		InterfaceCounters map[string]struct {
			RxFrames uint64 `json:"rxFrames"`
			TxFrames uint64 `json:"txFrames"`
		} `json:"interfaceCounters"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("show priority-flow-control counters: %w", err)
	}
	if doc.InterfaceCounters == nil {
		return nil, fmt.Errorf("show priority-flow-control counters: no interfaceCounters")
	}
	res := make(map[string]vendors.PortCounters, len(doc.InterfaceCounters))
	for p, f := range doc.InterfaceCounters {
		res[p] = vendors.PortCounters{PauseRxAll: f.RxFrames, PauseTxAll: f.TxFrames}
	}
	return res, nil
}

// ParsePFCWatchdog adds the stuckCount of every tx queue of
// {"interfaces": {IF: {"txQueues": {Q: {"stuckCount": N}}}}} to cs.
func ParsePFCWatchdog(b []byte, cs map[string]vendors.PortCounters) error {
	var doc struct {
		Interfaces map[string]struct {
			TxQueues map[string]struct {
				StuckCount uint64 `json:"stuckCount"`
			} `json:"txQueues"`
		} `json:"interfaces"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("show priority-flow-control counters watchdog: %w", err)
	}
	for p, i := range doc.Interfaces {
		c, ok := cs[p]
		if !ok {
			continue
		}
		for _, q := range i.TxQueues {
			c.Watchdog += q.StuckCount
		}
		cs[p] = c
	}
	return nil
}

// Mark saves the running config as a checkpoint (vendors.Reverter).
func (d *Driver) Mark(ctx context.Context) (string, error) {
	name := vendors.Stamp(markPrefix, time.Now())
	if err := d.exec(ctx, "configure checkpoint save "+name); err != nil {
		return "", fmt.Errorf("mark %s: %w", d.Target.Device, err)
	}
	return name, nil
}

// Revert replaces the running config with the checkpoint mark, saves it
// and deletes the checkpoint.
func (d *Driver) Revert(ctx context.Context, mark string) error {
	if err := d.exec(ctx, "configure replace checkpoint:"+mark+" skip-checkpoint"); err != nil {
		return fmt.Errorf("revert %s to %s: %w", d.Target.Device, mark, err)
	}
	if err := d.exec(ctx, saveConfig); err != nil {
		return fmt.Errorf("revert %s: save: %w", d.Target.Device, err)
	}
	return d.Forget(ctx, mark)
}

// Forget deletes the checkpoint mark.
func (d *Driver) Forget(ctx context.Context, mark string) error {
	if err := d.exec(ctx, "delete checkpoint:"+mark); err != nil {
		return fmt.Errorf("forget %s checkpoint %s: %w", d.Target.Device, mark, err)
	}
	return nil
}

// exec runs an exec command; a "% " reply is the device's refusal.
func (d *Driver) exec(ctx context.Context, line string) error {
	out, err := d.Session.Exec(ctx, line)
	if err != nil {
		return err
	}
	if t := strings.TrimSpace(out); strings.HasPrefix(t, "%") {
		return &vendors.DeviceError{Device: d.Target.Device, Line: line, Reply: t}
	}
	return nil
}
