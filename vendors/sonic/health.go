package sonic

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/vendors"
)

// Health counter commands (reference/sonic.md "Counters for health
// checks": (a) pfcstat, (d) PFC watchdog).
const (
	showPFCCounters = "show pfc counters"
	showPFCWDStats  = "show pfcwd stats"
)

// Counters reads the PFC frames per priority (`show pfc counters`) and
// the PFC watchdog storms (`show pfcwd stats`, STORM DETECTED; its TX
// drops count as drops) of the named ports (vendors.Health). ECN marks
// (`show queue wredcounters`, 2025 images) are not read.
func (d *Driver) Counters(ctx context.Context, ports []string) (map[string]vendors.PortCounters, error) {
	out, err := d.cmd(ctx, showPFCCounters)
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	all, err := ParsePFCCounters(out)
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	wd, err := d.cmd(ctx, showPFCWDStats)
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	if err := ParsePFCWDStats(wd, all); err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	return vendors.Reported(d.Target.Device, showPFCCounters, all, ports)
}

// ParsePFCCounters reads pfcstat's two tables ("Port Rx", "Port Tx"):
// one row per port, eight PFC columns with thousands separators; "N/A"
// reads as 0.
func ParsePFCCounters(out string) (map[string]vendors.PortCounters, error) {
	res := map[string]vendors.PortCounters{}
	dir := ""
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "Port" && (f[1] == "Rx" || f[1] == "Tx"):
			dir = f[1]
		case dir == "" || len(f) == 0 || strings.HasPrefix(f[0], "---"):
		case len(f) != 9:
			return nil, fmt.Errorf("pfc counters: %q has %d fields, want a port and 8 priorities", strings.TrimSpace(line), len(f))
		default:
			c := res[f[0]]
			for i, v := range f[1:] {
				n, err := count(v)
				if err != nil {
					return nil, fmt.Errorf("pfc counters %s %s PFC%d: %w", f[0], dir, i, err)
				}
				if dir == "Rx" {
					c.PauseRx[i] = n
				} else {
					c.PauseTx[i] = n
				}
			}
			res[f[0]] = c
		}
	}
	return res, nil
}

// ParsePFCWDStats adds the storms detected and the TX drops of `show pfcwd
// stats` rows (QUEUE as PORT:Q) to the ports of cs.
func ParsePFCWDStats(out string, cs map[string]vendors.PortCounters) error {
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.Contains(f[0], ":") {
			continue
		}
		port, _, _ := strings.Cut(f[0], ":")
		c, ok := cs[port]
		if !ok {
			continue
		}
		storms, _, _ := strings.Cut(f[2], "/")
		n, err := count(storms)
		if err != nil {
			return fmt.Errorf("pfcwd stats %s: %w", f[0], err)
		}
		c.Watchdog += n
		if _, drop, ok := strings.Cut(f[3], "/"); ok {
			if m, err := count(drop); err == nil {
				c.Drops += m
			}
		}
		cs[port] = c
	}
	return nil
}

func count(s string) (uint64, error) {
	if s == "N/A" {
		return 0, nil
	}
	n, err := strconv.ParseUint(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return n, nil
}

// Mark saves a GCU checkpoint of CONFIG_DB named lossless-pre-<stamp>
// (vendors.Reverter; checkpoint.go), after reading the whole CONFIG_DB so
// that an Apply on this session that starts from the same config uses it
// as its checkpoint instead of taking a second one (the apply deletes the
// stale lossless checkpoints). A failure to create it is reported as
// that.
func (d *Driver) Mark(ctx context.Context) (string, error) {
	db, err := d.whole(ctx)
	if err != nil {
		return "", fmt.Errorf("mark %s: read the config: %w", d.Target.Device, err)
	}
	name, _, err := d.checkpoint(ctx, markPrefix)
	if err != nil {
		return "", fmt.Errorf("mark %s: %w", d.Target.Device, err)
	}
	d.mark = &restorePoint{name: name, db: db}
	return name, nil
}

// Revert runs `config rollback` to the checkpoint mark (reconnecting if
// the session dropped) until it succeeds, repeating it while each run
// makes progress as Apply's rollback does (GCU refuses some steps, such
// as PFC_WD changes, until others are undone, and a rollback cut short
// leaves part of its own changes), then saves and deletes the checkpoint.
func (d *Driver) Revert(ctx context.Context, mark string) error {
	var last []byte
	for i := 0; ; i++ {
		_, err := d.command(ctx, fmt.Sprintf(rollbackFmt, mark))
		if err == nil {
			break
		}
		if !vendors.IsDeviceError(err) || i == rollbackAttempts-1 {
			return fmt.Errorf("revert %s to %s: %w", d.Target.Device, mark, err)
		}
		now, werr := d.wholeReconnecting(ctx)
		if werr != nil {
			return fmt.Errorf("revert %s to %s: %w", d.Target.Device, mark, werr)
		}
		if last != nil && bytes.Equal(now, last) {
			return fmt.Errorf("revert %s to %s: no progress: %w", d.Target.Device, mark, err)
		}
		last = now
	}
	if _, err := d.cmd(ctx, saveConfig); err != nil {
		return fmt.Errorf("revert %s: save: %w", d.Target.Device, err)
	}
	return d.Forget(ctx, mark)
}

// Forget deletes the checkpoint mark.
func (d *Driver) Forget(ctx context.Context, mark string) error {
	d.forgetMark(mark)
	if _, err := d.cmd(ctx, fmt.Sprintf(deleteCheckFmt, mark)); err != nil {
		return fmt.Errorf("forget %s checkpoint %s: %w", d.Target.Device, mark, err)
	}
	return nil
}
