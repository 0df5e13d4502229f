package gnmitarget

import (
	"context"
	"slices"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// Origins the target serves.
const (
	originSonicDB    = "sonic-db"   // reference/sonic.md §9
	originCLI        = "cli"        // reference/eos.md §6
	originOpenConfig = "openconfig" // the default origin: OpenConfig models
)

// resolve joins a request's prefix and path: the origin (they must agree,
// sonic-gnmi's "Origin conflict in path", reference/sonic.md §9) and the
// full list of elements. Paths in the deprecated element form are read too.
func resolve(prefix, p *gpb.Path) (string, []*gpb.PathElem, error) {
	po, o := prefix.GetOrigin(), p.GetOrigin()
	if po != "" && o != "" && po != o {
		return "", nil, status.Error(codes.InvalidArgument, "Origin conflict in path")
	}
	if o == "" {
		o = po
	}
	elems := append(slices.Clone(elemsOf(prefix)), elemsOf(p)...)
	return o, elems, nil
}

// elemsOf returns p's elements, converting the deprecated string form.
func elemsOf(p *gpb.Path) []*gpb.PathElem {
	//lint:ignore SA1019 the deprecated Element form is read for old clients
	if len(p.GetElem()) > 0 || len(p.GetElement()) == 0 {
		return p.GetElem()
	}
	var out []*gpb.PathElem
	//lint:ignore SA1019 as above
	for _, s := range p.GetElement() {
		out = append(out, &gpb.PathElem{Name: s})
	}
	return out
}

// Get answers each path from the device the prefix names: sonic-db paths
// from CONFIG_DB, OpenConfig paths from the running config, and
// `cli:/show running-config` as text.
func (t *Target) Get(ctx context.Context, req *gpb.GetRequest) (*gpb.GetResponse, error) {
	e, err := t.lookup(ctx, req.GetPrefix().GetTarget())
	if err != nil {
		return nil, err
	}
	paths := req.GetPath()
	if len(paths) == 0 {
		paths = []*gpb.Path{{}}
	}
	ts := time.Now().UnixNano()
	resp := &gpb.GetResponse{}
	for _, p := range paths {
		origin, elems, err := resolve(req.GetPrefix(), p)
		if err != nil {
			return nil, err
		}
		var ups []*gpb.Update
		switch origin {
		case originSonicDB:
			ups, err = e.getSonicDB(p, elems, req.GetEncoding())
		case originCLI:
			ups, err = e.getCLI(p, elems, req.GetEncoding())
		case "", originOpenConfig:
			ups, err = e.getOpenConfig(p, elems, req.GetEncoding())
		default:
			err = status.Errorf(codes.Unimplemented, "origin %q is not supported", origin)
		}
		if err != nil {
			t.opts.logger.Info("get refused", "device", e.name, "origin", origin, "err", err)
			return nil, err
		}
		resp.Notification = append(resp.Notification, &gpb.Notification{
			Timestamp: ts,
			Prefix:    proto.Clone(req.GetPrefix()).(*gpb.Path),
			Update:    ups,
		})
	}
	return resp, nil
}

// setOp is one operation of a SetRequest, in the order the target applies
// them: deletes, then replaces, then updates (gNMI specification §3.4.3).
type setOp struct {
	op     gpb.UpdateResult_Operation
	path   *gpb.Path // as the client sent it
	origin string
	elems  []*gpb.PathElem // prefix + path
	val    *gpb.TypedValue // nil for a delete
}

// setOps flattens a SetRequest into its operations and checks they share
// one origin.
func setOps(req *gpb.SetRequest) ([]setOp, string, error) {
	var ops []setOp
	add := func(op gpb.UpdateResult_Operation, p *gpb.Path, v *gpb.TypedValue) error {
		origin, elems, err := resolve(req.GetPrefix(), p)
		if err != nil {
			return err
		}
		ops = append(ops, setOp{op: op, path: p, origin: origin, elems: elems, val: v})
		return nil
	}
	for _, p := range req.GetDelete() {
		if err := add(gpb.UpdateResult_DELETE, p, nil); err != nil {
			return nil, "", err
		}
	}
	for _, u := range req.GetReplace() {
		if err := add(gpb.UpdateResult_REPLACE, u.GetPath(), u.GetVal()); err != nil {
			return nil, "", err
		}
	}
	for _, u := range req.GetUpdate() {
		if err := add(gpb.UpdateResult_UPDATE, u.GetPath(), u.GetVal()); err != nil {
			return nil, "", err
		}
	}
	if len(req.GetUnionReplace()) > 0 {
		return nil, "", status.Error(codes.Unimplemented, "union_replace is not supported by the lab target")
	}
	origin := ""
	for i, op := range ops {
		if i > 0 && op.origin != origin {
			return nil, "", status.Errorf(codes.InvalidArgument, "one SetRequest must use one origin, got %q and %q", origin, op.origin)
		}
		origin = op.origin
	}
	return ops, origin, nil
}

// Set applies the request to the device the prefix names as one
// all-or-nothing change: sonic-db operations as one JSON Patch, cli
// updates as one config session. With the Commit Confirmed extension it
// also creates, confirms, cancels or re-times a confirmed commit.
func (t *Target) Set(ctx context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error) {
	e, err := t.lookup(ctx, req.GetPrefix().GetTarget())
	if err != nil {
		return nil, err
	}
	commit, err := commitExtension(req.GetExtension())
	if err != nil {
		return nil, err
	}
	ops, origin, err := setOps(req)
	if err != nil {
		return nil, err
	}
	resp := &gpb.SetResponse{Prefix: req.GetPrefix(), Timestamp: time.Now().UnixNano()}
	for _, op := range ops {
		resp.Response = append(resp.Response, &gpb.UpdateResult{Path: op.path, Op: op.op})
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	if handled, err := t.commitControl(e, commit, len(ops)); handled || err != nil {
		return resp, err
	}
	if e.pending != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "commit %q is awaiting confirmation: confirm or cancel it first", e.pending.id)
	}
	var checkpoint []byte
	if commit != nil {
		cp, ok := e.dev.(device.Checkpointer)
		if !ok {
			return nil, status.Errorf(codes.Unimplemented, "device %s cannot roll back, so it does not support commit confirmed", e.name)
		}
		checkpoint = cp.Checkpoint()
	}
	if len(ops) > 0 {
		if err := e.failCommitFault(origin); err != nil {
			return nil, err
		}
		if err := e.apply(origin, ops); err != nil {
			t.opts.logger.Info("set refused", "device", e.name, "origin", origin, "err", err)
			return nil, err
		}
	}
	if commit != nil {
		if err := t.startCommit(e, commit, checkpoint); err != nil {
			return nil, err
		}
	}
	t.opts.logger.Info("set applied", "device", e.name, "origin", origin, "ops", len(ops))
	return resp, nil
}

// apply runs the operations of one origin on the device.
func (e *entry) apply(origin string, ops []setOp) error {
	switch origin {
	case originSonicDB:
		return e.setSonicDB(ops)
	case originCLI:
		return e.setCLI(ops)
	case "", originOpenConfig:
		return status.Error(codes.Unimplemented, "OpenConfig Set is not supported: EOS takes QoS config through origin cli (reference/eos.md §6)")
	}
	return status.Errorf(codes.Unimplemented, "origin %q is not supported", origin)
}

// failCommitFault consumes the device's FailCommit fault: the next Set
// fails as the device's commit would, changing nothing.
func (e *entry) failCommitFault(origin string) error {
	if e.faults == nil || !e.faults.Load().FailCommit {
		return nil
	}
	e.faults.Update(func(f *device.Faults) { f.FailCommit = false })
	if origin == originSonicDB {
		// reference/sonic.md §8: apply-patch's failure summary.
		return status.Error(codes.Aborted, "Failed to apply patch due to: commit failed (injected fault)")
	}
	// reference/eos.md §4: a session commit failure starts "% Cannot commit".
	return status.Error(codes.Aborted, "% Cannot commit (injected fault)")
}
