package huaweice

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/vendors"
)

// Health commands (reference/huawei-ce.md "Counters for health checks":
// (a) PFC frames per priority and (d) deadlock counts from display dcb
// pfc; rollback to a commit point, §4).
const (
	showDCBPFCFmt = "display dcb pfc interface %s"
	commitList    = "display configuration commit list"
	rollbackLast  = "rollback configuration last %d"
	rollbackDone  = "rollback succeeded"
	// noCommit marks a device with no commit point yet.
	noCommit = "none"
)

// Counters reads PFC frames per queue and PFC deadlocks of the named
// ports, one `display dcb pfc interface IF` each (vendors.Health). ECN
// marks (display qos ecn statistics) and queue drops are not read.
func (d *Driver) Counters(ctx context.Context, ports []string) (map[string]vendors.PortCounters, error) {
	res := make(map[string]vendors.PortCounters, len(ports))
	for _, p := range ports {
		out, err := d.Session.Command(ctx, fmt.Sprintf(showDCBPFCFmt, p))
		if err != nil {
			return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
		}
		cs, err := ParseDCBPFC(out)
		if err != nil {
			return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
		}
		c, ok := cs[p]
		if !ok {
			return nil, fmt.Errorf("read counters %s: display dcb pfc does not report port %s", d.Target.Device, p)
		}
		res[p] = c
	}
	return res, nil
}

// ParseDCBPFC reads display dcb pfc: per queue a line "IF QUEUE RX
// RXPPS DEADLOCK" and a line "TX TXPPS RECOVERY". DeadlockNum counts as
// watchdog events.
func ParseDCBPFC(out string) (map[string]vendors.PortCounters, error) {
	res := map[string]vendors.PortCounters{}
	port, queue := "", -1
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		switch {
		case len(f) == 5 && strings.Contains(f[0], "GE"):
			q, err := strconv.Atoi(f[1])
			if err != nil || q < 0 || q > 7 {
				return nil, fmt.Errorf("display dcb pfc %s: queue %q", f[0], f[1])
			}
			rx, err1 := strconv.ParseUint(f[2], 10, 64)
			dead, err2 := strconv.ParseUint(f[4], 10, 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("display dcb pfc %s queue %d: %q is not counts", f[0], q, strings.TrimSpace(line))
			}
			port, queue = f[0], q
			c := res[port]
			c.PauseRx[q] = rx
			c.Watchdog += dead
			res[port] = c
		case len(f) == 3 && queue >= 0:
			tx, err := strconv.ParseUint(f[0], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("display dcb pfc %s queue %d: %q is not counts", port, queue, strings.TrimSpace(line))
			}
			c := res[port]
			c.PauseTx[queue] = tx
			res[port] = c
			queue = -1
		}
	}
	return res, nil
}

// Mark returns the newest commit point's ID ("none" before the first
// commit) (vendors.Reverter).
func (d *Driver) Mark(ctx context.Context) (string, error) {
	ids, err := d.commits(ctx)
	if err != nil {
		return "", fmt.Errorf("mark %s: %w", d.Target.Device, err)
	}
	if len(ids) == 0 {
		return noCommit, nil
	}
	return ids[0], nil
}

// commits lists the commit IDs, newest first.
func (d *Driver) commits(ctx context.Context) ([]string, error) {
	out, err := d.Session.Command(ctx, commitList)
	if err != nil {
		return nil, err
	}
	var ids []string
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] != "No." {
			if _, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				ids = append(ids, f[1])
			}
		}
	}
	return ids, nil
}

// Revert undoes every commit made after mark with `rollback configuration
// last N` (user view, answered Y), which itself becomes a commit point,
// then saves.
func (d *Driver) Revert(ctx context.Context, mark string) error {
	ids, err := d.commits(ctx)
	if err != nil {
		return fmt.Errorf("revert %s: %w", d.Target.Device, err)
	}
	n := len(ids)
	for i, id := range ids {
		if id == mark {
			n = i
			break
		}
	}
	if n == len(ids) && mark != noCommit {
		return fmt.Errorf("revert %s: commit point %s is no longer listed", d.Target.Device, mark)
	}
	if n == 0 {
		return nil
	}
	if n > 80 {
		return fmt.Errorf("revert %s: %d commits since %s, more than rollback configuration last can undo (80)", d.Target.Device, n, mark)
	}
	line := fmt.Sprintf(rollbackLast, n)
	out, err := d.Session.Interact(ctx, "", []vendors.Step{{Input: line, Question: questionYN}, {Input: "y"}})
	if err != nil {
		return fmt.Errorf("revert %s: %w", d.Target.Device, err)
	}
	if !strings.Contains(out, rollbackDone) {
		return fmt.Errorf("revert %s: %w", d.Target.Device, &vendors.DeviceError{Device: d.Target.Device, Line: line, Reply: strings.TrimSpace(out)})
	}
	return d.save(ctx)
}

// Forget does nothing: a commit point needs no cleanup.
func (d *Driver) Forget(context.Context, string) error { return nil }
