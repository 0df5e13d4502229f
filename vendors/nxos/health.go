package nxos

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/vendors"
)

// Health counter commands (reference/nxos.md "Counters for health
// checks": (a) PFC frames per priority, (d) PFC watchdog).
const (
	showPFCFmt      = "show interface %s priority-flow-control detail"
	showPFCQueueFmt = "show queuing pfc-queue interface %s detail"
)

// Counters reads PFC pause frames per priority and PFC watchdog events of
// the named ports (vendors.Health). Watchdog drains count as drops
// ("WD & Tail Drop", reference: [I]); ECN marks are not read (the
// reference finds no text row for them on 9.x).
func (d *Driver) Counters(ctx context.Context, ports []string) (map[string]vendors.PortCounters, error) {
	if len(ports) == 0 {
		return map[string]vendors.PortCounters{}, nil
	}
	// Only the managed ports: on a 64-port switch the whole table is
	// 100 KB of text per read.
	list := strings.Join(ports, ",")
	out, err := d.Session.Command(ctx, fmt.Sprintf(showPFCFmt, list))
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	all, err := ParsePFCDetail(out)
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	wd, err := d.Session.Command(ctx, fmt.Sprintf(showPFCQueueFmt, list))
	if err != nil {
		return nil, fmt.Errorf("read counters %s: %w", d.Target.Device, err)
	}
	ParsePFCQueue(wd, all)
	return vendors.Reported(d.Target.Device, "show interface priority-flow-control detail", all, ports)
}

// ParsePFCDetail reads `show interface priority-flow-control detail`:
// per port its Rx and Tx rows of pause frames per priority (labels, not
// positions, as the reference advises).
func ParsePFCDetail(out string) (map[string]vendors.PortCounters, error) {
	res := map[string]vendors.PortCounters{}
	port := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "Ethernet") && !strings.Contains(line, " "):
			port = t
			res[port] = vendors.PortCounters{}
		case port != "" && (strings.HasPrefix(t, "Rx ") || strings.HasPrefix(t, "Tx ")) && strings.Contains(t, "|"):
			cells := strings.Split(t, "|")[1:]
			if len(cells) != 8 {
				return nil, fmt.Errorf("%s: %s row has %d priorities, want 8", port, t[:2], len(cells))
			}
			var v [8]uint64
			for i, c := range cells {
				n, err := strconv.ParseUint(strings.TrimSpace(c), 10, 64)
				if err != nil {
					return nil, fmt.Errorf("%s: %s priority %d: %q is not a count", port, t[:2], i, strings.TrimSpace(c))
				}
				v[i] = n
			}
			c := res[port]
			if t[0] == 'R' {
				c.PauseRx = v
			} else {
				c.PauseTx = v
			}
			res[port] = c
		}
	}
	return res, sc.Err()
}

// ParsePFCQueue adds the watchdog Shutdown count and the drained packets
// of `show queuing pfc-queue detail` to the ports of cs, summed over
// each port's QOS GROUP blocks.
func ParsePFCQueue(out string, cs map[string]vendors.PortCounters) {
	port := ""
	for line := range strings.Lines(out) {
		if name, _, ok := strings.Cut(line, " Interface PFC watchdog:"); ok {
			port = strings.TrimSpace(name)
			continue
		}
		c, ok := cs[port]
		if !ok || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 2 {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(cells[1]), 10, 64)
		if err != nil {
			continue
		}
		switch strings.TrimSpace(cells[0]) {
		case "Shutdown":
			c.Watchdog += n
		case "Total pkts drained + dropped":
			c.Drops += n
		}
		cs[port] = c
	}
}

// Mark saves a checkpoint of the running config (vendors.Reverter;
// reference/nxos.md §5: checkpoint names ≤ 32 characters, at most 10
// kept, so a passed batch's mark is dropped by Forget). The stale
// sessions and checkpoints of killed runs go first (session.go), so that
// NX-OS's limit never refuses it for lossless' own leftovers; a refusal
// is reported as the checkpoint it is.
func (d *Driver) Mark(ctx context.Context) (string, error) {
	if err := d.tidy(ctx); err != nil {
		return "", fmt.Errorf("mark %s: %w", d.Target.Device, err)
	}
	cp := markName(d.now())
	if err := d.checkpoint(ctx, cp); err != nil {
		return "", fmt.Errorf("mark %s: %w", d.Target.Device, err)
	}
	if d.marks == nil {
		d.marks, d.marked = map[string]bool{}, map[string]string{}
	}
	d.marks[cp] = true
	if running, err := d.Running(ctx); err == nil {
		d.marked[cp] = string(running)
	}
	return cp, nil
}

// Revert rolls the running config back to the checkpoint mark atomically
// (reconnecting if the session dropped), saves it to the startup config
// and drops the checkpoint.
func (d *Driver) Revert(ctx context.Context, mark string) error {
	if err := d.rollback(ctx, mark); err != nil {
		return fmt.Errorf("revert %s to %s: %w", d.Target.Device, mark, err)
	}
	delete(d.marks, mark)
	delete(d.marked, mark)
	if _, err := d.Session.Exec(ctx, saveConfig); err != nil {
		return fmt.Errorf("revert %s: save: %w", d.Target.Device, err)
	}
	return nil
}

// Forget deletes the checkpoint mark.
func (d *Driver) Forget(ctx context.Context, mark string) error {
	if _, err := d.Session.Exec(ctx, "no checkpoint "+mark); err != nil {
		return fmt.Errorf("forget %s checkpoint %s: %w", d.Target.Device, mark, err)
	}
	delete(d.marks, mark)
	delete(d.marked, mark)
	return nil
}
