// Package sonic is the SONiC driver: it reads CONFIG_DB with `show
// runningconfiguration all` over the bash shell (admin@sonic:~$), diffs the
// QoS tables lossless owns (Scope) against the SONiC rendering as an RFC
// 6902 JSON Patch in SONiC table order, and applies it with GCU
// (reference/sonic.md §7): the patch is uploaded through a heredoc,
// checked with `config apply-patch --dry-run`, then checkpointed (`config
// checkpoint`, unless the restore point Mark saved on the session holds
// the config), applied with `config apply-patch`, re-read (there must be
// no difference left) and saved with `config save -y`, each through `sudo
// -n`; any failure after the checkpoint runs `config rollback`
// (reconnecting if the session dropped), since apply-patch is not
// transactional. A killed lossless, or a dropped session, kills
// apply-patch part-way too (SIGHUP: internal/lab/sonic hangup.go); the
// checkpoints are named and cleaned so that what such an apply leaves is
// the restore point of its write-ahead record, which `lossless recover`
// rolls back to (checkpoint.go).
//
// # No configuration lock
//
// The driver is no vendors.DeviceLocker: SONiC has no configuration lock
// that GCU or the config commands lossless runs honour. GCU's ConfigLock,
// which ConfigLockDecorator takes around apply-patch, replace, rollback
// and checkpoint, is a stub whose acquire_lock and release_lock are
// "TODO: Implement ConfigLock" (sonic-utilities 691b1bbc
// generic_config_updater/generic_updater.py ConfigLock,
// ConfigLockDecorator). The one lock `config` takes is a flock on
// /etc/sonic/reload.lock (utilities_common/flock.py try_lock, PR #3475),
// and only around `config reload` and `config load_minigraph`
// (config/main.py); taking it would not stop another apply-patch, and
// holding a flock needs a process that outlives each command. sonic-gnmi's
// Set takes none either (sonic_data_client/mixed_db_client.go: a
// checkpoint for its own reads, then GCU over D-Bus). Two applies at once
// to one SONiC switch from different checkouts are therefore not
// excluded on the device; lossless' own fabric lock is all there is.
//
// # What lossless owns
//
// lossless changes or removes a CONFIG_DB row or field only when it
// renders it for this platform, or when the object carries lossless'
// names and nothing outside the scope references it (ownership.go):
//
//   - Objects (the maps, SCHEDULER, WRED_PROFILE, BUFFER_PROFILE): the
//     ones the rendering holds, whole; and the ones whose name is one
//     the renderer derives (renderers/sonic OwnName: <MAP>, <MAP>_<n>,
//     <MAP>_<KIND>…, pg_lossless_<speed>_<cable>_profile) in a table it
//     renders on this platform, left by an earlier rendering.
//   - Rows keyed by port (PORT_QOS_MAP, QUEUE, BUFFER_PG, BUFFER_QUEUE,
//     PFC_WD) and CABLE_LENGTH fields of the managed ports, the ports the
//     rendering keys rows by: the fields the rendering holds of the rows it
//     holds, and whole the QUEUE, BUFFER_PG and BUFFER_QUEUE rows whose
//     index range shares an index with a rendered row of the port (the
//     same PG or queue keyed another way: `Ethernet0|3-4` when the
//     rendering has `Ethernet0|3-5`). Of PORT_QOS_MAP|global and
//     PFC_WD|GLOBAL, the fields it renders.
//   - The scope is those rows and fields. "Outside the scope" is
//     everything else the device has: other ports' rows, the rows and
//     fields of managed ports and the objects lossless does not own, and
//     every other table. "References" are the leafrefs of SONiC's YANG
//     between the tables read (shared/yang/sonic, reference/sonic.md §2):
//     PORT_QOS_MAP's map and scheduler fields, QUEUE's scheduler and
//     wred_profile, BUFFER_PG's and BUFFER_QUEUE's profile, and the
//     BUFFER_PORT_*_PROFILE_LIST profile lists, read in both the bare and
//     the old [TABLE|name] form. An object referenced from outside the
//     scope is never removed; one the rendering references (the
//     platform's buffer profiles) neither.
//   - Everything else in the tables lossless manages is left alone and
//     listed in Change.Kept with the reason: "not rendered by lossless"
//     (naming SONiC's QoS or buffer template or buffermgrd when the name
//     is theirs), "used by QUEUE|Ethernet124|3", "a port lossless does
//     not manage". With the intent's unmanaged = "prune"
//     (Document.Prune), the rows and fields of the managed ports and the
//     objects lossless does not render are removed too, except what is
//     referenced from outside the scope or by the rendering; other ports'
//     rows, PORT_QOS_MAP|global fields lossless does not render,
//     PFC_WD|GLOBAL (GCU never removes it, §7.2) and BIG_RED_SWITCH are
//     never removed.
//
// # How GCU applies the patch
//
// `config apply-patch` does not keep the patch's order: it simulates the
// patch, diffs running against the result and sorts the difference into
// changes of its own, removals before additions, and applies them one by
// one (sonic-utilities generic_config_updater, internal/lab/sonic gcu.go).
// It turns a port admin down while it changes the port's BUFFER_PG,
// BUFFER_QUEUE, QUEUE or PORT_QOS_MAP rows and up after (PR #1998); the
// plan says so in Disruptive. The patch lists a PG or queue range that
// gives way to a rendered one just before it, the order GCU applies them
// in; with the port down, no lossless priority of a port carrying traffic
// is ever without its PG.
package sonic

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors"
)

// Vendor is the inventory name of SONiC devices.
const Vendor = render.Vendor

// platformYAML is the project's scrapligo platform for the SONiC shell.
//
//go:embed platform.yaml
var platformYAML []byte

// Commands the driver sends (reference/sonic.md §7.2–§7.4). sudo -n
// never asks for a password: where admin's sudo needs one, the command
// fails at once ("sudo: a password is required") instead of waiting for
// an answer until the op timeout.
const (
	showRunning    = "show runningconfiguration all"
	dryRunFmt      = "sudo -n config apply-patch --dry-run %s"
	applyFmt       = "sudo -n config apply-patch %s"
	checkpointFmt  = "sudo -n config checkpoint %s"
	rollbackFmt    = "sudo -n config rollback %s"
	deleteCheckFmt = "sudo -n config delete-checkpoint %s"
	saveConfig     = "sudo -n config save -y"
	removeFileFmt  = "rm -f %s"
	heredocDelim   = "LOSSLESS_EOF"
	// heredocQuestion is bash's continuation prompt inside a heredoc.
	heredocQuestion = `(?m)^>\s?$`
)

// Bounds of a rollback. It runs even after ctx is cancelled (Ctrl-C must
// not leave a half-applied patch). `config rollback` computes the patch
// from whatever is running to the checkpoint, so a rollback that stopped
// part-way is retried while each attempt brings the config closer.
const (
	rollbackTimeout  = 5 * time.Minute
	rollbackAttempts = 8
)

// Driver is a connected SONiC device.
type Driver struct {
	vendors.CLI
	// Clock is the time source of the names the driver gives its
	// checkpoints and patch files (checkpoint.go); nil is the system
	// clock. Tests set it.
	Clock func() time.Time
	// mark is the restore point Mark saved on this session, nil when
	// none is kept.
	mark *restorePoint
}

// Dial connects to a SONiC device's shell over SSH.
func Dial(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
	return vendors.DialDriver(ctx, t, Vendor, dialSSH, Diff, func(c vendors.CLI) vendors.Driver { return &Driver{CLI: c} })
}

// dialSSH opens a session on the platform of platformYAML.
var dialSSH = vendors.PlatformDialer(platformYAML)

// Running returns the QoS tables of `show runningconfiguration all` (the
// tables lossless owns and the ones it reads references from), printed as
// config_db.json: stable between reads, so its hash fingerprints a plan.
func (d *Driver) Running(ctx context.Context) ([]byte, error) {
	return d.Session.Read(ctx, showRunning, func(b []byte) ([]byte, error) {
		db, err := ParseRunning(b)
		if err != nil {
			return nil, err
		}
		return render.Text(db), nil
	})
}

// Apply uploads c's patch and checks it with a dry run (a refusal changes
// nothing), then checkpoints, applies, verifies and saves. The checkpoint
// is the restore point Mark saved on this session when the config is
// still the one it holds, else one of Apply's own (checkpoint.go). On any
// failure after the checkpoint the device is rolled back to it, over a
// new session when the old one dropped, and the rollback is verified
// against the whole CONFIG_DB read before the apply. Apply deletes its
// own checkpoint after the push or the rollback, never a restore point
// (whoever saved it forgets it).
func (d *Driver) Apply(ctx context.Context, c *vendors.Change, _ vendors.ApplyOptions) vendors.Result {
	a := vendors.Begin(d.Target.Device)
	if c.Empty() {
		return a.Done(nil)
	}
	lines, err := patchLines(c.Patch)
	if err != nil {
		return a.Done(fmt.Errorf("apply %s: %w; nothing was changed", d.Target.Device, err))
	}
	// The patch file is named as Apply's own checkpoint would be
	// (reference/sonic.md §7.5).
	file := "/tmp/" + vendors.Stamp(applyPrefix, d.now()) + ".json"
	unchanged := func(step string, err error) vendors.Result {
		d.cleanup(ctx, "", file)
		return a.Done(fmt.Errorf("apply %s: %s: %w; nothing was changed", d.Target.Device, step, err))
	}
	pre, err := d.whole(ctx)
	if err != nil {
		return unchanged("read before the change", err)
	}
	if err := d.upload(ctx, file, lines); err != nil {
		return unchanged("upload the patch", err)
	}
	if _, err := d.cmd(ctx, fmt.Sprintf(dryRunFmt, file)); err != nil {
		return unchanged("dry run", err)
	}
	// own is the checkpoint Apply takes and deletes; "" when the
	// session's restore point holds the config the change starts from.
	name, own := "", ""
	var names []string
	if m := d.mark; m != nil && bytes.Equal(m.db, pre) {
		name = m.name
		d.Log.Info("checkpoint: the restore point", "op", "checkpoint", "checkpoint", name)
		if names, err = d.checkpoints(ctx); err != nil {
			d.Log.Warn("checkpoints not listed: stale ones are not removed", "op", "checkpoint", "err", err)
		}
	} else {
		if name, names, err = d.checkpoint(ctx, applyPrefix); err != nil {
			return unchanged("checkpoint", err)
		}
		own = name
	}
	d.prune(ctx, names, name)
	err = d.push(ctx, c, file)
	if err == nil {
		a.Applied = true
		d.cleanup(ctx, own, file)
		d.Log.Info("applied", "op", "apply", "duration", time.Since(a.Start))
		return a.Done(nil)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
	defer cancel()
	if rbErr := d.rollback(rctx, name, pre); rbErr != nil {
		d.Log.Error("rollback failed", "op", "rollback", "checkpoint", name, "err", rbErr)
		return a.Done(fmt.Errorf("apply %s: %w; ROLLBACK FAILED, the device may be half-applied (checkpoint %s): %w", d.Target.Device, err, name, rbErr))
	}
	a.RolledBack = true
	d.cleanup(rctx, own, file)
	d.Log.Warn("rolled back", "op", "rollback", "checkpoint", name, "err", err)
	return a.Done(fmt.Errorf("apply %s: %w; rolled back to checkpoint %s", d.Target.Device, err, name))
}

// push applies the uploaded patch, verifies the result and saves it.
func (d *Driver) push(ctx context.Context, c *vendors.Change, file string) error {
	if _, err := d.cmd(ctx, fmt.Sprintf(applyFmt, file)); err != nil {
		return err
	}
	left, err := vendors.Left(ctx, d.Running, Diff, d.Target.Device, c.Desired)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if left != nil {
		return fmt.Errorf("verify: the running config still differs from the desired one after the patch:\n%s", left.Patch)
	}
	if _, err := d.cmd(ctx, saveConfig); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	return nil
}

// patchLines checks a patch and prints it one operation per line for the
// heredoc (a saved plan holds it compacted).
func patchLines(patch json.RawMessage) ([]string, error) {
	var ops []json.RawMessage
	if err := json.Unmarshal(patch, &ops); err != nil {
		return nil, fmt.Errorf("patch: %w", err)
	}
	lines := make([]string, 0, len(ops)+2)
	lines = append(lines, "[")
	for i, o := range ops {
		var b bytes.Buffer
		if err := json.Compact(&b, o); err != nil {
			return nil, fmt.Errorf("patch: operation %d: %w", i, err)
		}
		if i < len(ops)-1 {
			b.WriteByte(',')
		}
		lines = append(lines, b.String())
	}
	return append(lines, "]"), nil
}

// upload writes lines to file through a quoted heredoc: bash expands
// nothing inside it, and a dropped session leaves no file.
func (d *Driver) upload(ctx context.Context, file string, lines []string) error {
	steps := make([]vendors.Step, 0, len(lines)+2)
	steps = append(steps, vendors.Step{Input: "cat > " + file + " <<'" + heredocDelim + "'", Question: heredocQuestion})
	for _, l := range lines {
		steps = append(steps, vendors.Step{Input: l, Question: heredocQuestion})
	}
	steps = append(steps, vendors.Step{Input: heredocDelim})
	_, err := d.Session.Interact(ctx, "", steps)
	return err
}

// whole returns the entire CONFIG_DB (without "bgpraw") in a canonical
// JSON form, to check a rollback against.
func (d *Driver) whole(ctx context.Context) ([]byte, error) {
	out, err := d.Session.Command(ctx, showRunning)
	if err != nil {
		return nil, err
	}
	var db map[string]any
	if err := json.Unmarshal([]byte(out), &db); err != nil {
		return nil, fmt.Errorf("parse running config: %w", err)
	}
	delete(db, "bgpraw")
	return json.Marshal(db)
}

// rollback restores the checkpoint until the whole CONFIG_DB equals pre,
// reconnecting when the session is gone.
func (d *Driver) rollback(ctx context.Context, name string, pre []byte) error {
	var last []byte
	for range rollbackAttempts {
		_, rbErr := d.command(ctx, fmt.Sprintf(rollbackFmt, name))
		if rbErr != nil && !vendors.IsDeviceError(rbErr) {
			return rbErr
		}
		now, err := d.wholeReconnecting(ctx)
		if err != nil {
			return fmt.Errorf("verify the rollback: %w", err)
		}
		if bytes.Equal(now, pre) {
			return nil
		}
		if rbErr == nil {
			return fmt.Errorf("verify the rollback: the device reported success but its config differs from before the apply")
		}
		if last != nil && bytes.Equal(now, last) {
			return rbErr // no progress: retrying will not help
		}
		last = now
		d.Log.Warn("rollback incomplete, retrying", "op", "rollback", "checkpoint", name, "err", rbErr)
	}
	return fmt.Errorf("the config still differs from before the apply after %d rollbacks", rollbackAttempts)
}

// command runs line, on a new session if the current one has dropped.
func (d *Driver) command(ctx context.Context, line string) (string, error) {
	out, err := d.cmd(ctx, line)
	if err == nil || vendors.IsDeviceError(err) || ctx.Err() != nil {
		return out, err
	}
	if rerr := d.reconnect(ctx); rerr != nil {
		return "", fmt.Errorf("%w; reconnect: %w", err, rerr)
	}
	return d.cmd(ctx, line)
}

func (d *Driver) wholeReconnecting(ctx context.Context) ([]byte, error) {
	b, err := d.whole(ctx)
	if err == nil || !errors.Is(err, vendors.ErrConnectionLost) {
		return b, err
	}
	if rerr := d.reconnect(ctx); rerr != nil {
		return nil, fmt.Errorf("%w; reconnect: %w", err, rerr)
	}
	return d.whole(ctx)
}

func (d *Driver) reconnect(ctx context.Context) error {
	if err := d.Redial(ctx); err != nil {
		return err
	}
	d.Log.Info("reconnected", "op", "connect")
	return nil
}

// cleanup deletes the checkpoint (when name is set) and the patch file;
// leftovers are logged, not fatal.
func (d *Driver) cleanup(ctx context.Context, name, file string) {
	if name != "" {
		if _, err := d.Session.Command(ctx, fmt.Sprintf(deleteCheckFmt, name)); err != nil {
			d.Log.Warn("checkpoint not deleted", "op", "checkpoint", "checkpoint", name, "err", err)
		}
	}
	if _, err := d.Session.Command(ctx, fmt.Sprintf(removeFileFmt, file)); err != nil {
		d.Log.Warn("patch file not removed", "op", "apply", "file", file, "err", err)
	}
}

// cmd runs one shell command; a refusal's reply is cut to SONiC's own
// reason (the "Failed to …" summary and its detail, without GCU's progress
// lines and Click's usage text, reference/sonic.md §8).
func (d *Driver) cmd(ctx context.Context, line string) (string, error) {
	out, err := d.Session.Command(ctx, line)
	var de *vendors.DeviceError
	if errors.As(err, &de) {
		short := *de
		short.Reply = reason(de.Reply)
		return out, &short
	}
	return out, err
}

// reason keeps the lines from the first "Failed to" up to Click's
// "Usage:", joined, and Click's closing error when it adds to them; the
// whole reply when there is no such summary.
func reason(reply string) string {
	lines := strings.Split(reply, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "Failed to ") {
			continue
		}
		var keep []string
		for _, m := range lines[i:] {
			if strings.HasPrefix(m, "Usage: ") {
				break
			}
			if m = strings.TrimSpace(m); m != "" {
				keep = append(keep, m)
			}
		}
		short := strings.Join(keep, " ")
		// Click's closing "Error: <reason>" may say what the summary
		// does not ("Checkpoint 'x' does not exist").
		for j := len(lines) - 1; j > i; j-- {
			if e, ok := strings.CutPrefix(strings.TrimSpace(lines[j]), "Error: "); ok {
				if !strings.Contains(short, e) {
					short += ": " + e
				}
				break
			}
		}
		return short
	}
	return strings.TrimSpace(reply)
}
