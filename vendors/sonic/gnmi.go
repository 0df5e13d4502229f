package sonic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc/codes"

	"github.com/lossless-net/lossless/internal/config"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/gnmiclient"
)

// This file is the SONiC driver over gNMI (sonic-gnmi, reference/sonic.md
// §9), chosen by the inventory's transport = "gnmi". It reads the same QoS
// tables as the SSH driver, by one Get of origin sonic-db, so Running's
// bytes and Diff's change are the SSH driver's. Apply sends the change's
// JSON Patch as one SetRequest (remove → delete, replace → replace, add →
// update at /CONFIG_DB/localhost/TABLE[/key[/field]], values json_ietf_val),
// which sonic-gnmi turns back into that same patch; it verifies the result
// with Get. When the target advertises the gNMI Commit Confirmed extension
// the Set is a confirmed commit, cancelled on a failed verification and
// confirmed otherwise; without it, a failed verification restores the
// previous values of every touched entry in one more Set.

// GNMIPort is sonic-gnmi's default port (8080, the telemetry container's
// default; telegraf's SONiC gNMI plugin README) [I], used when the
// inventory gives none.
const GNMIPort = 8080

// sonicDB is the origin of CONFIG_DB paths (reference/sonic.md §9).
const sonicDB = "sonic-db"

// GNMIDriver is a SONiC device connected over gNMI.
type GNMIDriver struct{ gnmiclient.Conn }

// DialGNMI connects to a SONiC device's gNMI server.
func DialGNMI(ctx context.Context, t vendors.Target) (vendors.Driver, error) {
	c, err := gnmiclient.DialConn(ctx, t, GNMIPort, Vendor)
	if err != nil {
		return nil, err
	}
	return &GNMIDriver{c}, nil
}

// dbPath is /CONFIG_DB/localhost/toks… in origin sonic-db.
func dbPath(toks ...string) *gpb.Path {
	p := &gpb.Path{Origin: sonicDB, Elem: make([]*gpb.PathElem, 0, 2+len(toks))}
	p.Elem = append(p.Elem, &gpb.PathElem{Name: "CONFIG_DB"}, &gpb.PathElem{Name: "localhost"})
	for _, t := range toks {
		p.Elem = append(p.Elem, &gpb.PathElem{Name: t})
	}
	return p
}

// gnmiTables are the tables Running reads: the ones the SSH driver's
// Running keeps (ParseRunning), in a fixed order.
func gnmiTables() []string {
	ts := make([]string, 0, len(readTables))
	for t := range readTables {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	return ts
}

// Running reads the QoS tables by Get and prints them as the SSH driver's
// Running does, so a plan made over one transport fingerprints the same
// over the other.
func (d *GNMIDriver) Running(ctx context.Context) ([]byte, error) {
	tables, err := d.tables(ctx, gnmiTables())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Target.Device, err)
	}
	b, err := json.Marshal(tables)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Target.Device, err)
	}
	db, err := ParseRunning(b)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Target.Device, err)
	}
	return render.Text(db), nil
}

// tables reads the named tables; a table the device does not have is
// absent from the result. It asks for all of them in one Get and, when one
// is missing (NotFound), table by table, several Gets at once.
func (d *GNMIDriver) tables(ctx context.Context, names []string) (map[string]json.RawMessage, error) {
	paths := make([]*gpb.Path, len(names))
	for i, n := range names {
		paths[i] = dbPath(n)
	}
	out := map[string]json.RawMessage{}
	resp, err := d.Client.Get(ctx, &gpb.GetRequest{Path: paths, Encoding: gpb.Encoding_JSON_IETF})
	if err == nil {
		vals, err := values(resp)
		if err != nil {
			return nil, err
		}
		if len(vals) != len(names) {
			return nil, fmt.Errorf("get: %d tables asked, %d answered", len(names), len(vals))
		}
		for i, n := range names {
			out[n] = vals[i]
		}
		return out, nil
	}
	if !notFound(err) {
		return nil, err
	}
	// Some table is missing: ask for each on its own, all at once.
	vals := make([]json.RawMessage, len(names))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(tableReads)
	for i, n := range names {
		g.Go(func() error {
			resp, err := d.Client.Get(gctx, &gpb.GetRequest{Path: []*gpb.Path{dbPath(n)}, Encoding: gpb.Encoding_JSON_IETF})
			if notFound(err) {
				return nil
			}
			if err != nil {
				return err
			}
			v, err := values(resp)
			if err != nil {
				return err
			}
			if len(v) != 1 {
				return fmt.Errorf("get %s: %d values answered", n, len(v))
			}
			vals[i] = v[0]
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i, n := range names {
		if vals[i] != nil {
			out[n] = vals[i]
		}
	}
	return out, nil
}

// tableReads bounds the table Gets in flight on one device.
const tableReads = 8

// notFound reports whether err is the target's NotFound.
func notFound(err error) bool {
	var ge *gnmiclient.Error
	return errors.As(err, &ge) && ge.Code == codes.NotFound
}

// values returns the json_ietf values of a Get's updates, in order.
func values(resp *gpb.GetResponse) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			raw := u.GetVal().GetJsonIetfVal()
			if raw == nil {
				raw = u.GetVal().GetJsonVal()
			}
			if raw == nil || !json.Valid(raw) {
				return nil, errors.New("get: a value is not JSON_IETF")
			}
			out = append(out, raw)
		}
	}
	return out, nil
}

// Diff returns the SSH driver's change, with Commands listing the gNMI
// operations apply sends (one line each: operation, path, value).
func (d *GNMIDriver) Diff(running []byte, desired *config.Document) (*vendors.Change, error) {
	ch, err := Diff(d.Target.Device, running, desired)
	if err != nil {
		return nil, err
	}
	if ch.Empty() {
		return ch, nil
	}
	req, err := SetRequest(ch.Patch)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", d.Target.Device, err)
	}
	ch.Commands = SetLines(req)
	return ch, nil
}

// patchOp is one operation of the driver's JSON Patch.
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

// pointerTokens splits an RFC 6901 JSON Pointer into its unescaped tokens.
func pointerTokens(ptr string) ([]string, error) {
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("JSON pointer %q does not start with /", ptr)
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	if len(toks) == 0 || len(toks) > 3 || slices.Contains(toks, "") {
		return nil, fmt.Errorf("JSON pointer %q is not /TABLE[/key[/field]]", ptr)
	}
	return toks, nil
}

// SetRequest turns a JSON Patch over CONFIG_DB into the one SetRequest
// sonic-gnmi turns back into it (reference/sonic.md §9): remove → delete,
// replace → replace, add → update, each at /CONFIG_DB/localhost/<pointer>
// in origin sonic-db, values as json_ietf_val. gNMI applies a request's
// deletes, then replaces, then updates; the patch is validated as a whole
// once applied, so only operations on one path may not be reordered, and a
// patch that has two on one path is refused here.
func SetRequest(patch json.RawMessage) (*gpb.SetRequest, error) {
	var ops []patchOp
	if err := json.Unmarshal(patch, &ops); err != nil {
		return nil, fmt.Errorf("patch: %w", err)
	}
	req := &gpb.SetRequest{}
	seen := map[string]bool{}
	for i, o := range ops {
		toks, err := pointerTokens(o.Path)
		if err != nil {
			return nil, fmt.Errorf("patch operation %d: %w", i, err)
		}
		if seen[o.Path] {
			return nil, fmt.Errorf("patch operation %d: a second operation on %s cannot keep its order in one SetRequest", i, o.Path)
		}
		seen[o.Path] = true
		p := dbPath(toks...)
		p.Origin = "" // on the prefix
		switch o.Op {
		case "remove":
			req.Delete = append(req.Delete, p)
		case "replace", "add":
			var b bytes.Buffer
			if err := json.Compact(&b, o.Value); err != nil || len(o.Value) == 0 {
				return nil, fmt.Errorf("patch operation %d (%s %s): the value is not JSON", i, o.Op, o.Path)
			}
			u := &gpb.Update{Path: p, Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: b.Bytes()}}}
			if o.Op == "replace" {
				req.Replace = append(req.Replace, u)
			} else {
				req.Update = append(req.Update, u)
			}
		default:
			return nil, fmt.Errorf("patch operation %d: op %q has no gNMI form", i, o.Op)
		}
	}
	req.Prefix = &gpb.Path{Origin: sonicDB}
	return req, nil
}

// SetLines prints a SetRequest one operation per line in the order the
// target applies them: "delete sonic-db:/CONFIG_DB/localhost/T/k",
// "replace … = VALUE", "update … = VALUE".
func SetLines(req *gpb.SetRequest) []string {
	origin := req.GetPrefix().GetOrigin()
	path := func(p *gpb.Path) string {
		var b strings.Builder
		b.WriteString(origin + ":")
		for _, e := range p.GetElem() {
			b.WriteString("/" + e.GetName())
		}
		return b.String()
	}
	var out []string
	for _, p := range req.GetDelete() {
		out = append(out, "delete "+path(p))
	}
	for _, u := range req.GetReplace() {
		out = append(out, "replace "+path(u.GetPath())+" = "+string(u.GetVal().GetJsonIetfVal()))
	}
	for _, u := range req.GetUpdate() {
		out = append(out, "update "+path(u.GetPath())+" = "+string(u.GetVal().GetJsonIetfVal()))
	}
	return out
}

// Apply sends c's patch as one Set and verifies the device against the
// rendering with Get. With Commit Confirmed the Set is a commit that the
// target rolls back after opts.ConfirmTimeout unless confirmed, which
// apply does once the verification passes, and cancels when it fails;
// without it, a failed verification restores the previous values of the
// touched entries in one Set. Either way the device is then checked to be
// back at the running config read before the apply.
func (d *GNMIDriver) Apply(ctx context.Context, c *vendors.Change, opts vendors.ApplyOptions) vendors.Result {
	var req *gpb.SetRequest
	var snap *snapshot
	return d.Client.Apply(ctx, c, opts, d.Log, gnmiclient.Commit{
		Request: func() (*gpb.SetRequest, error) {
			var err error
			req, err = SetRequest(c.Patch)
			return req, err
		},
		Line: "gnmi Set", Refused: "nothing was changed",
		Before: func(ctx context.Context) ([]byte, error) {
			var err error
			if snap, err = d.snapshot(ctx, touchedTables(req)); err != nil {
				return nil, fmt.Errorf("read before the change: %w", err)
			}
			return snap.running, nil
		},
		Running: d.Running,
		Verify:  func(ctx context.Context) error { return d.verify(ctx, c) },
		Undo:    func(ctx context.Context, _ []byte) error { return d.restore(ctx, snap) },
		Undone:  "previous values restored", AfterUndo: "restoring the previous values",
		Counted: "operations",
	})
}

// snapshot is what Apply read before its Set: the whole scoped running
// config, and the raw content of the tables the Set writes (a table the
// device did not have is absent from before).
type snapshot struct {
	running []byte
	tables  []string
	before  map[string]json.RawMessage
}

func (d *GNMIDriver) snapshot(ctx context.Context, tables []string) (*snapshot, error) {
	before, err := d.tables(ctx, tables)
	if err != nil {
		return nil, err
	}
	running, err := d.Running(ctx)
	if err != nil {
		return nil, err
	}
	return &snapshot{running: running, tables: tables, before: before}, nil
}

// verify reads the device back and checks that nothing is left to change.
func (d *GNMIDriver) verify(ctx context.Context, c *vendors.Change) error {
	left, err := vendors.Left(ctx, d.Running, Diff, d.Target.Device, c.Desired)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if left != nil {
		return fmt.Errorf("verify: the running config still differs from the desired one after the Set:\n%s", left.Patch)
	}
	return nil
}

// touchedTables lists the tables a SetRequest writes, sorted.
func touchedTables(req *gpb.SetRequest) []string {
	var ts []string
	add := func(p *gpb.Path) {
		if e := p.GetElem(); len(e) > 2 && !slices.Contains(ts, e[2].GetName()) {
			ts = append(ts, e[2].GetName())
		}
	}
	for _, p := range req.GetDelete() {
		add(p)
	}
	for _, u := range append(slices.Clone(req.GetReplace()), req.GetUpdate()...) {
		add(u.GetPath())
	}
	slices.Sort(ts)
	return ts
}

// restore puts the touched tables back as they were, in one Set: a table
// that existed is replaced whole by its previous content (added back when
// the change removed it), one that did not is deleted.
func (d *GNMIDriver) restore(ctx context.Context, snap *snapshot) error {
	now, err := d.tables(ctx, snap.tables)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	req := &gpb.SetRequest{Prefix: &gpb.Path{Origin: sonicDB}}
	for _, t := range snap.tables {
		prev, had := snap.before[t]
		cur, has := now[t]
		p := dbPath(t)
		p.Origin = ""
		switch {
		case had && has && bytes.Equal(prev, cur):
		case had && has:
			req.Replace = append(req.Replace, &gpb.Update{Path: p, Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: prev}}})
		case had: // removed whole by the change: JSON Patch replace needs it to exist
			req.Update = append(req.Update, &gpb.Update{Path: p, Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: prev}}})
		case has:
			req.Delete = append(req.Delete, p)
		}
	}
	if len(req.Delete)+len(req.Replace)+len(req.Update) == 0 {
		return nil
	}
	if _, err := d.Client.Set(ctx, req); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}
