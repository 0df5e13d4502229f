package gnmitarget

import (
	"fmt"

	"github.com/openconfig/gnmi/proto/gnmi_ext"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// This file implements the gNMI Commit Confirmed extension
// (https://github.com/openconfig/reference/blob/master/rpc/gnmi/gnmi-commit-confirmed.md,
// gnmi_ext.Commit): a Set carrying Commit{id, commit{rollback_duration}}
// takes effect at once and is rolled back to the configuration before it
// unless a Set carrying Commit{id, confirm} arrives within the duration.
// Commit{id, cancel} rolls back now; Commit{id, set_rollback_duration}
// re-arms the timer. One commit at a time per device: while one waits for
// confirmation, other Sets are refused.

// pendingCommit is a commit awaiting confirmation.
type pendingCommit struct {
	id         string
	checkpoint []byte // the device's state before the commit
	timer      Timer
}

// commitCapability is the Capabilities entry that advertises the
// extension: an empty Commit message.
func commitCapability() *gnmi_ext.Extension {
	return &gnmi_ext.Extension{Ext: &gnmi_ext.Extension_Commit{Commit: &gnmi_ext.Commit{}}}
}

// commitExtension returns the request's Commit extension, nil if none.
func commitExtension(exts []*gnmi_ext.Extension) (*gnmi_ext.Commit, error) {
	var c *gnmi_ext.Commit
	for _, x := range exts {
		got := x.GetCommit()
		if got == nil {
			continue
		}
		if c != nil {
			return nil, status.Error(codes.InvalidArgument, "more than one commit extension in one SetRequest")
		}
		c = got
	}
	if c == nil {
		return nil, nil
	}
	if c.GetId() == "" {
		return nil, status.Error(codes.InvalidArgument, "commit extension: id is required")
	}
	switch a := c.GetAction().(type) {
	case *gnmi_ext.Commit_Commit:
		if d := a.Commit.GetRollbackDuration(); d == nil || d.AsDuration() <= 0 {
			return nil, status.Error(codes.InvalidArgument, "commit extension: rollback_duration must be positive")
		}
	case *gnmi_ext.Commit_SetRollbackDuration:
		if d := a.SetRollbackDuration.GetRollbackDuration(); d == nil || d.AsDuration() <= 0 {
			return nil, status.Error(codes.InvalidArgument, "commit extension: rollback_duration must be positive")
		}
	case *gnmi_ext.Commit_Confirm, *gnmi_ext.Commit_Cancel:
	default:
		return nil, status.Error(codes.InvalidArgument, "commit extension: no action")
	}
	return c, nil
}

// commitControl handles the confirm, cancel and set-rollback-duration
// actions, which act on the pending commit and carry no operations. It
// reports whether it handled the request. e.mu is held.
func (t *Target) commitControl(e *entry, c *gnmi_ext.Commit, nops int) (bool, error) {
	if c == nil || c.GetCommit() != nil {
		return false, nil
	}
	if nops > 0 {
		return true, status.Error(codes.InvalidArgument, "commit extension: confirm, cancel and set_rollback_duration carry no updates")
	}
	if e.pending == nil {
		return true, status.Errorf(codes.FailedPrecondition, "commit %q: no commit is awaiting confirmation", c.GetId())
	}
	if e.pending.id != c.GetId() {
		return true, status.Errorf(codes.InvalidArgument, "commit %q: the commit awaiting confirmation is %q", c.GetId(), e.pending.id)
	}
	p := e.pending
	switch {
	case c.GetConfirm() != nil:
		p.timer.Stop()
		e.pending = nil
		t.opts.logger.Info("commit confirmed", "device", e.name, "id", p.id)
	case c.GetCancel() != nil:
		p.timer.Stop()
		e.pending = nil
		if err := restore(e, p.checkpoint); err != nil {
			return true, err
		}
		t.opts.logger.Warn("commit cancelled, rolled back", "device", e.name, "id", p.id)
	default:
		p.timer.Stop()
		p.timer = t.opts.clock.AfterFunc(c.GetSetRollbackDuration().GetRollbackDuration().AsDuration(), func() { t.expire(e, p) })
	}
	return true, nil
}

// startCommit arms the rollback of a commit just applied. With the
// device's ExpireCommitTimer fault the timer runs out at once. e.mu is held.
func (t *Target) startCommit(e *entry, c *gnmi_ext.Commit, checkpoint []byte) error {
	p := &pendingCommit{id: c.GetId(), checkpoint: checkpoint}
	if e.faults.Load().ExpireCommitTimer {
		t.opts.logger.Warn("commit timer expired (injected fault), rolled back", "device", e.name, "id", p.id)
		return restore(e, checkpoint)
	}
	d := c.GetCommit().GetRollbackDuration().AsDuration()
	p.timer = t.opts.clock.AfterFunc(d, func() { t.expire(e, p) })
	e.pending = p
	return nil
}

// expire rolls back p when its timer runs out, unless it was confirmed,
// cancelled or re-armed meanwhile.
func (t *Target) expire(e *entry, p *pendingCommit) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pending != p {
		return
	}
	e.pending = nil
	if err := restore(e, p.checkpoint); err != nil {
		t.opts.logger.Error("commit rollback failed", "device", e.name, "id", p.id, "err", err)
		return
	}
	t.opts.logger.Warn("commit not confirmed in time, rolled back", "device", e.name, "id", p.id)
}

// restore puts the device back to a checkpoint.
func restore(e *entry, checkpoint []byte) error {
	cp, ok := e.dev.(device.Checkpointer)
	if !ok {
		return status.Errorf(codes.Internal, "device %s cannot roll back", e.name)
	}
	if err := cp.Restore(checkpoint); err != nil {
		return status.Error(codes.Internal, fmt.Sprintf("roll back device %s: %v", e.name, err))
	}
	return nil
}
