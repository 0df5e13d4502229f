package gnmiclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/gnmi/proto/gnmi_ext"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/lossless-net/lossless/vendors"
)

// recoverTimeout bounds the recovery after a failed apply, which runs even
// after ctx is cancelled (Ctrl-C must not leave a half-applied change).
const recoverTimeout = 2 * time.Minute

// Commit is a driver's part of one apply through a gNMI Set ([Client.Apply]):
// the request, how the device is read and checked, and how a change is
// taken back when the target cannot roll it back itself.
type Commit struct {
	// Request returns the Set that makes the change; Apply adds the
	// Commit Confirmed extension when the target advertises it.
	Request func() (*gpb.SetRequest, error)
	// Line names the Set in the vendors.DeviceError of a refusal, and
	// Refused says what a refusal left ("nothing was changed").
	Line, Refused string
	// Before reads the running config Apply must get back to on a
	// failure (a driver may keep more of what it read, for Undo), and
	// Running reads it again to compare.
	Before, Running func(ctx context.Context) ([]byte, error)
	// Verify reads the device back: an error when a change is left.
	Verify func(ctx context.Context) error
	// Undo takes the device from now, a Running result, back to what
	// Before read. Undone says what it does ("reverse change sent"), and
	// AfterUndo names it in the error when the device still differs
	// ("the reverse change").
	Undo              func(ctx context.Context, now []byte) error
	Undone, AfterUndo string
	// Counted is the log key of the number of the change's commands
	// ("commands", "operations").
	Counted string
}

// Apply sends c's change as cm's Set and verifies the device. When the
// target advertises Commit Confirmed the Set is a commit that the target
// rolls back after opts.ConfirmTimeout unless Apply confirms it, which it
// does once the verification passes; a failed verification cancels it.
// Without the extension, a failed verification sends cm.Undo. Either way
// the device is then checked to be back at what cm.Before read. A Set that
// fails without a refusal (its answer lost) may have been applied: the
// device is read back to find out.
func (c *Client) Apply(ctx context.Context, ch *vendors.Change, opts vendors.ApplyOptions, log *slog.Logger, cm Commit) vendors.Result {
	a := vendors.Begin(c.device)
	if ch.Empty() {
		return a.Done(nil)
	}
	unchanged := func(err error) vendors.Result {
		return a.Done(fmt.Errorf("apply %s: %w; nothing was changed", c.device, err))
	}
	req, err := cm.Request()
	if err != nil {
		return unchanged(err)
	}
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return unchanged(err)
	}
	confirmed := CommitConfirmed(caps)
	before, err := cm.Before(ctx)
	if err != nil {
		return unchanged(err)
	}
	r := &recovery{c: c, log: log, cm: cm, a: a, id: vendors.Stamp("lossless-", a.Start), before: before}
	if confirmed {
		timeout := opts.ConfirmTimeout
		if timeout <= 0 {
			timeout = vendors.DefaultConfirmTimeout
		}
		req.Extension = commitExt(r.id, timeout, false, false)
	}
	if _, err := c.Set(ctx, req); err != nil {
		if ge, ok := errors.AsType[*Error](err); ok && ge.Refused() {
			return a.Done(fmt.Errorf("apply %s: %w; %s", c.device, &vendors.DeviceError{Device: c.device, Line: cm.Line, Reply: ge.Message}, cm.Refused))
		}
		if verr := cm.Verify(ctx); verr != nil {
			return r.recover(ctx, fmt.Errorf("set: %w", err), confirmed)
		}
	}
	log.Info("set", "op", "apply", cm.Counted, len(ch.Commands), "commit_confirmed", confirmed)
	if err := cm.Verify(ctx); err != nil {
		return r.recover(ctx, err, confirmed)
	}
	if confirmed {
		if _, err := c.Set(ctx, &gpb.SetRequest{Extension: commitExt(r.id, 0, true, false)}); err != nil {
			// A confirm that came too late finds no commit: the target
			// rolled the change back; recover checks and says so.
			return r.recover(ctx, fmt.Errorf("confirm: %w", err), false)
		}
	}
	a.Applied = true
	log.Info("applied", "op", "apply", "duration", time.Since(a.Start))
	return a.Done(nil)
}

// recovery is what a failed Apply recovers with.
type recovery struct {
	c      *Client
	log    *slog.Logger
	cm     Commit
	a      *vendors.Attempt
	id     string // the confirmed commit's
	before []byte
}

// recover brings the device back after a failed apply (cause) and returns
// the result: the pending commit is cancelled (when confirmed) and, if
// the device is still not at the running config read before, cm.Undo is
// sent; then the device is checked.
func (r *recovery) recover(ctx context.Context, cause error, confirmed bool) vendors.Result {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recoverTimeout)
	defer cancel()
	device := r.c.device
	how := "nothing was changed"
	if confirmed {
		// A commit the target already rolled back (its timer ran out)
		// cannot be cancelled; the check below decides.
		if _, err := r.c.Set(rctx, &gpb.SetRequest{Extension: commitExt(r.id, 0, false, true)}); err == nil {
			how = "confirmed commit cancelled"
		}
	}
	now, err := r.cm.Running(rctx)
	var undoErr error
	if err == nil && !bytes.Equal(now, r.before) {
		how = r.cm.Undone
		undoErr = r.cm.Undo(rctx, now)
		now, err = r.cm.Running(rctx)
	}
	switch {
	case err != nil:
		return r.a.Done(fmt.Errorf("apply %s: %w; ROLLBACK UNCHECKED, reading the device failed: %w", device, cause, err))
	case bytes.Equal(now, r.before):
		r.a.RolledBack = true
		r.log.Warn("rolled back", "op", "rollback", "how", how, "err", cause)
		return r.a.Done(fmt.Errorf("apply %s: %w; %s, the device is at its pre-apply config", device, cause, how))
	case undoErr != nil:
		return r.a.Done(fmt.Errorf("apply %s: %w; ROLLBACK FAILED, the device is not at its pre-apply config: %w", device, cause, undoErr))
	}
	return r.a.Done(fmt.Errorf("apply %s: %w; ROLLBACK FAILED, the device is not at its pre-apply config after %s", device, cause, r.cm.AfterUndo))
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
