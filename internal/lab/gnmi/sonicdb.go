package gnmitarget

import (
	"encoding/json"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// This file serves origin sonic-db as sonic-gnmi does (reference/sonic.md
// §9): paths CONFIG_DB / localhost / TABLE [/ key [/ field]], multi-part
// keys as one element ("Ethernet0|3"), values json_ietf_val holding
// CONFIG_DB strings. A SetRequest becomes one JSON Patch over the
// config_db.json tree (delete → remove, replace → replace, update → add,
// path = the elements after CONFIG_DB/localhost), applied by
// ConfigDB.Patch, which validates it against SONiC YANG and applies it
// all-or-nothing. The whole-config forms at CONFIG_DB/localhost itself
// (config replace, validate-only) and the read-only prefix.target =
// "CONFIG_DB" form are not emulated: the lab uses prefix.target to pick the
// device.

// sonicDBPath splits the elements of a sonic-db path into the part after
// CONFIG_DB/localhost (0 to 3 names: table, key, field).
func sonicDBPath(elems []*gpb.PathElem) ([]string, error) {
	if len(elems) < 2 || elems[0].GetName() != "CONFIG_DB" {
		return nil, status.Error(codes.InvalidArgument, "sonic-db path must start with CONFIG_DB/localhost")
	}
	if elems[1].GetName() != "localhost" {
		return nil, status.Errorf(codes.NotFound, "sonic-db namespace %q not found: the lab emulates a single-ASIC device (localhost)", elems[1].GetName())
	}
	var rest []string
	for _, e := range elems[2:] {
		if len(e.GetKey()) > 0 {
			return nil, status.Errorf(codes.InvalidArgument, "sonic-db path element %q: keys go in the element name (TABLE/key), not in [k=v]", e.GetName())
		}
		rest = append(rest, e.GetName())
	}
	if len(rest) > 3 {
		return nil, status.Error(codes.InvalidArgument, "sonic-db path is CONFIG_DB/localhost/TABLE/key/field at most")
	}
	return rest, nil
}

// configDB returns the device's CONFIG_DB, or Unimplemented.
func (e *entry) configDB() (device.ConfigDB, error) {
	db, ok := e.dev.(device.ConfigDB)
	if !ok {
		return nil, status.Errorf(codes.Unimplemented, "origin sonic-db is not served by device %s", e.name)
	}
	return db, nil
}

// getSonicDB reads a table, key or field of CONFIG_DB.
func (e *entry) getSonicDB(p *gpb.Path, elems []*gpb.PathElem, enc gpb.Encoding) ([]*gpb.Update, error) {
	db, err := e.configDB()
	if err != nil {
		return nil, err
	}
	if enc != gpb.Encoding_JSON_IETF && enc != gpb.Encoding_JSON {
		return nil, status.Errorf(codes.Unimplemented, "encoding %s is not supported for sonic-db: use JSON_IETF", enc)
	}
	rest, err := sonicDBPath(elems)
	if err != nil {
		return nil, err
	}
	var v any = db.DB()
	all := v.(map[string]map[string]map[string]string)
	switch len(rest) {
	case 1:
		tbl, ok := all[rest[0]]
		if !ok {
			return nil, status.Errorf(codes.NotFound, "table %s not found in CONFIG_DB", rest[0])
		}
		v = tbl
	case 2:
		row, ok := all[rest[0]][rest[1]]
		if !ok {
			return nil, status.Errorf(codes.NotFound, "key %s|%s not found in CONFIG_DB", rest[0], rest[1])
		}
		v = row
	case 3:
		val, ok := all[rest[0]][rest[1]][rest[2]]
		if !ok {
			return nil, status.Errorf(codes.NotFound, "field %s of %s|%s not found in CONFIG_DB", rest[2], rest[0], rest[1])
		}
		v = val
	}
	b, err := json.Marshal(v) // maps marshal with sorted keys: deterministic
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encode CONFIG_DB: %v", err)
	}
	tv := &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: b}}
	if enc == gpb.Encoding_JSON {
		tv = &gpb.TypedValue{Value: &gpb.TypedValue_JsonVal{JsonVal: b}}
	}
	return []*gpb.Update{{Path: p, Val: tv}}, nil
}

// patchOp is one RFC 6902 operation.
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

// jsonPointerEscaper escapes one JSON Pointer reference token (RFC 6901).
var jsonPointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// setSonicDB turns the operations into one JSON Patch and applies it.
func (e *entry) setSonicDB(ops []setOp) error {
	db, err := e.configDB()
	if err != nil {
		return err
	}
	patch := make([]patchOp, 0, len(ops))
	for _, op := range ops {
		rest, err := sonicDBPath(op.elems)
		if err != nil {
			return err
		}
		if len(rest) == 0 {
			return status.Error(codes.Unimplemented, "whole-config operations on CONFIG_DB/localhost are not emulated by the lab: name a table")
		}
		var ptr strings.Builder
		for _, r := range rest {
			ptr.WriteString("/")
			ptr.WriteString(jsonPointerEscaper.Replace(r))
		}
		po := patchOp{Path: ptr.String()}
		switch op.op {
		case gpb.UpdateResult_DELETE:
			po.Op = "remove"
		case gpb.UpdateResult_REPLACE:
			po.Op = "replace"
		default:
			po.Op = "add"
		}
		if op.op != gpb.UpdateResult_DELETE {
			raw := op.val.GetJsonIetfVal()
			if raw == nil {
				return status.Error(codes.InvalidArgument, "Value encoding is not IETF JSON")
			}
			if !json.Valid(raw) {
				return status.Errorf(codes.InvalidArgument, "value at %s is not valid JSON", po.Path)
			}
			po.Value = raw
		}
		patch = append(patch, po)
	}
	b, err := json.Marshal(patch)
	if err != nil {
		return status.Errorf(codes.Internal, "encode patch: %v", err)
	}
	if err := db.Patch(b); err != nil {
		// The device's refusal text is SONiC's (device.ConfigDB); the lab
		// reports it as the status message. sonic-gnmi returns the GCU
		// error as is, which gRPC sends as codes.Unknown [I]; the lab says
		// InvalidArgument so clients can tell a refusal from a crash.
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return nil
}
