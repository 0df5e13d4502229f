package sonic

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/vendors"
)

// The checkpoints lossless takes with `config checkpoint NAME` (GCU saves
// the whole CONFIG_DB to /etc/sonic/checkpoints/NAME.cp.json, overwriting
// a file of that name; sonic-utilities 691b1bbc generic_updater.py
// FileSystemConfigRollbacker.checkpoint) are named by their use and the
// time the driver's clock gives (vendors.Stamp: Unix nanoseconds in base
// 36, 12 characters from 1979 to 2119):
//
//   - lossless-pre-<stamp>: a restore point (Mark), which the write-ahead
//     record of an apply names and `lossless recover` rolls back to;
//   - lossless-<stamp>: Apply's own, taken only when no restore point
//     saved on the same session holds the config the apply starts from.
//
// Each is deleted (`config delete-checkpoint NAME`) by whoever took it
// once it is no longer needed: Apply its own after the push or the
// rollback, the journal or the health gate a restore point after the
// device's result is known, recover after rolling back to it. A killed
// apply leaves its one checkpoint, its restore point.
//
// Stale ones are removed when an apply begins, before its first change:
// every checkpoint with one of lossless' names and a stamp older than the
// apply's checkpoint is deleted, but for the restore point saved on the
// same session. The driver cannot read the rollout state files, so
// "older than the checkpoint of the apply under way" stands for "no
// longer a restore point recover may go back to": lossless never applies
// over a device its own record shows in flight (apply refuses; recover
// and apply -resume roll it back first, which deletes that restore
// point), so an older one is a leftover of an apply that finished (its
// deletion failed, or it failed before its first change) or of a run
// whose record was lost or is another checkout's — and a roll back to it
// would now undo this apply too, so recover fails naming the missing
// checkpoint rather than going back past a later change. The apply's own
// restore point, the newest, is never removed, so recover always finds
// the restore point of the last apply to touch the device. Mark removes
// none: a restore point saved before recover has taken a device back to
// an earlier one (a gated batch saves its own, then takes forward a
// device it could not take back first, rollout.go) must not take the
// earlier one away. A checkpoint whose stamp is not older (another host's
// clock ahead of ours) and every name lossless does not give (an
// operator's) are never touched. SONiC has no configuration lock GCU
// honours (package doc), so two applies at once from different checkouts
// are not made safe by this either.
const (
	applyPrefix = "lossless-"
	markPrefix  = "lossless-pre-"
)

// ownCheckpoint matches the names of the checkpoints lossless takes; the
// submatch is the stamp.
var ownCheckpoint = regexp.MustCompile(`^lossless-(?:pre-)?([0-9a-z]{12,13})$`)

// stampFloor is the oldest stamp taken for one of lossless' (2020-01-01
// UTC): a name of that shape below it is someone else's.
var stampFloor = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()

// Commands of the checkpoint store (reference/sonic.md §7.3).
const listCheckpoints = "sudo -n config list-checkpoints"

// stampOf returns the Unix nanoseconds of a name lossless gives a
// checkpoint; false for any other name.
func stampOf(name string) (int64, bool) {
	m := ownCheckpoint.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(m[1], 36, 64)
	return n, err == nil && n >= stampFloor
}

// now is the driver's clock.
func (d *Driver) now() time.Time {
	if d.Clock == nil {
		return time.Now()
	}
	return d.Clock()
}

// checkpoints lists the device's checkpoints: `config list-checkpoints`
// prints them as a JSON array (json.dumps(…, indent=4), config/main.py
// list_checkpoints), after any log lines GCU's rollbacker prints.
func (d *Driver) checkpoints(ctx context.Context) ([]string, error) {
	out, err := d.cmd(ctx, listCheckpoints)
	if err != nil {
		return nil, err
	}
	i := strings.Index(out, "[")
	if i < 0 {
		return nil, fmt.Errorf("list checkpoints: no JSON array in %q", out)
	}
	var names []string
	if err := json.Unmarshal([]byte(out[i:]), &names); err != nil {
		return nil, fmt.Errorf("list checkpoints: %w", err)
	}
	return names, nil
}

// checkpoint saves CONFIG_DB as a checkpoint named prefix and the stamp of
// the driver's clock (moved on by a nanosecond while a checkpoint has the
// name: GCU would overwrite it). It returns the name and the checkpoints
// the device had before (nil when they could not be listed, which is
// logged); the error is the failure to create it.
func (d *Driver) checkpoint(ctx context.Context, prefix string) (string, []string, error) {
	names, lerr := d.checkpoints(ctx)
	if lerr != nil {
		d.Log.Warn("checkpoints not listed: stale ones are not removed", "op", "checkpoint", "err", lerr)
	}
	t := d.now()
	name := vendors.Stamp(prefix, t)
	for slices.Contains(names, name) {
		t = t.Add(time.Nanosecond)
		name = vendors.Stamp(prefix, t)
	}
	if _, err := d.cmd(ctx, fmt.Sprintf(checkpointFmt, name)); err != nil {
		return "", nil, fmt.Errorf("create checkpoint %s: %w", name, err)
	}
	d.Log.Info("checkpoint saved", "op", "checkpoint", "checkpoint", name)
	return name, names, nil
}

// prune deletes the checkpoints of names that lossless took before
// newest, the checkpoint of the apply under way (see the constants'
// comment), except the restore point of this session: the change Apply
// checkpoints for is the one it was saved for.
func (d *Driver) prune(ctx context.Context, names []string, newest string) {
	limit, _ := stampOf(newest)
	for _, n := range names {
		if s, ok := stampOf(n); !ok || s >= limit || n == newest || (d.mark != nil && n == d.mark.name) {
			continue
		}
		if _, err := d.cmd(ctx, fmt.Sprintf(deleteCheckFmt, n)); err != nil {
			d.Log.Warn("stale checkpoint not deleted", "op", "checkpoint", "checkpoint", n, "err", err)
			continue
		}
		d.Log.Info("stale checkpoint deleted", "op", "checkpoint", "checkpoint", n)
	}
}

// restorePoint is the checkpoint Mark saved on this session and the whole
// CONFIG_DB read just before it (what the checkpoint holds, unless the
// config changed in between).
type restorePoint struct {
	name string
	db   []byte
}

// forgetMark drops the session's record of the restore point name.
func (d *Driver) forgetMark(name string) {
	if d.mark != nil && d.mark.name == name {
		d.mark = nil
	}
}
