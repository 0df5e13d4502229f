package gnmitarget

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/ygot/util"
	"github.com/openconfig/ygot/ygot"
	"github.com/openconfig/ygot/ytypes"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/ocqos"
)

// This file serves an EOS device (reference/eos.md §6): origin cli Sets,
// whose lines EOS runs as one configuration session and commits, so one
// SetRequest is all-or-nothing; `cli:/show running-config` Gets as text;
// and OpenConfig QoS Gets answered from the running config (eosoc.go).

// showRunning is the one cli Get path the lab answers.
const showRunning = "show running-config"

// cliConfig returns the device's atomic CLI, or Unimplemented.
func (e *entry) cliConfig() (device.CLIConfig, error) {
	c, ok := e.dev.(device.CLIConfig)
	if !ok {
		return nil, status.Errorf(codes.Unimplemented, "origin cli is not served by device %s", e.name)
	}
	return c, nil
}

// setCLI runs the config lines of all updates and replaces, in order, as
// one session. A value is ascii_val text (lines separated by "\n", the form
// Arista's own client sends), or json_val/json_ietf_val holding a string or
// an array of strings. Paths must be empty ("cli:"), and mode context
// carries over from one update to the next, as on EOS. What replace means
// for CLI text is not documented (reference/eos.md §6), so the lab runs a
// replace's lines as it runs an update's.
func (e *entry) setCLI(ops []setOp) error {
	c, err := e.cliConfig()
	if err != nil {
		return err
	}
	var lines []string
	for _, op := range ops {
		if op.op == gpb.UpdateResult_DELETE {
			return status.Error(codes.InvalidArgument, "origin cli takes update or replace with config lines, not delete")
		}
		if len(op.elems) > 0 {
			return status.Error(codes.InvalidArgument, "origin cli takes an empty path; the config lines go in the value")
		}
		text, err := cliText(op.val)
		if err != nil {
			return err
		}
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimRight(l, " \r\t"); strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	if err := c.ConfigureAtomic(lines); err != nil {
		// The device's text (EOS's "% Invalid input" …) is the message.
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return nil
}

// cliText returns the config text a cli update carries.
func cliText(v *gpb.TypedValue) (string, error) {
	switch x := v.GetValue().(type) {
	case *gpb.TypedValue_AsciiVal:
		return x.AsciiVal, nil
	case *gpb.TypedValue_JsonVal, *gpb.TypedValue_JsonIetfVal:
		raw := v.GetJsonVal()
		if raw == nil {
			raw = v.GetJsonIetfVal()
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, nil
		}
		var lines []string
		if err := json.Unmarshal(raw, &lines); err != nil {
			return "", status.Error(codes.InvalidArgument, "origin cli: a JSON value must be a string or an array of strings")
		}
		return strings.Join(lines, "\n"), nil
	}
	return "", status.Error(codes.InvalidArgument, "origin cli: the value must be ascii_val (config lines) or JSON")
}

// getCLI answers `cli:/show running-config` with ASCII encoding, as EOS
// 4.29.2F+ does for commands read as text (reference/eos.md §6).
func (e *entry) getCLI(p *gpb.Path, elems []*gpb.PathElem, enc gpb.Encoding) ([]*gpb.Update, error) {
	if _, err := e.cliConfig(); err != nil {
		return nil, err
	}
	if len(elems) != 1 || elems[0].GetName() != showRunning {
		return nil, status.Errorf(codes.Unimplemented, "origin cli: the lab answers only %q", showRunning)
	}
	if enc != gpb.Encoding_ASCII {
		return nil, status.Errorf(codes.Unimplemented, "origin cli: %q is answered with ASCII encoding only", showRunning)
	}
	return []*gpb.Update{{Path: p, Val: &gpb.TypedValue{Value: &gpb.TypedValue_AsciiVal{AsciiVal: string(e.dev.Running())}}}}, nil
}

// openConfigModels lists the models of the OpenConfig view, for
// Capabilities.
func openConfigModels() []*gpb.ModelData {
	out := make([]*gpb.ModelData, 0, len(ocqos.ΓModelData))
	for _, m := range ocqos.ΓModelData {
		out = append(out, proto.Clone(m).(*gpb.ModelData))
	}
	return out
}

// getOpenConfig answers an OpenConfig path from the running config: with
// JSON_IETF (or JSON) one update per matching node, its subtree as RFC 7951
// JSON; with PROTO one update per leaf, made by ygot.TogNMINotifications.
func (e *entry) getOpenConfig(p *gpb.Path, elems []*gpb.PathElem, enc gpb.Encoding) ([]*gpb.Update, error) {
	if _, err := e.cliConfig(); err != nil {
		return nil, status.Errorf(codes.Unimplemented, "OpenConfig paths are not served by device %s", e.name)
	}
	root, err := buildEOSOpenConfig(e.dev.Running())
	if err != nil {
		return nil, status.Errorf(codes.Internal, "device %s: %v", e.name, err)
	}
	switch enc {
	case gpb.Encoding_JSON_IETF, gpb.Encoding_JSON:
		return ocNodes(root, p, elems, enc)
	case gpb.Encoding_PROTO:
		return ocLeaves(root, elems)
	}
	return nil, status.Errorf(codes.Unimplemented, "encoding %s is not supported for OpenConfig paths: use JSON_IETF or PROTO", enc)
}

// ocSchema unzips the OpenConfig schema once per process (about 20 ms);
// it is only read afterwards.
var ocSchema = sync.OnceValues(ocqos.Schema)

// ocNodes returns the subtrees at a path, as RFC 7951 JSON.
func ocNodes(root *ocqos.Device, p *gpb.Path, elems []*gpb.PathElem, enc gpb.Encoding) ([]*gpb.Update, error) {
	jsonCfg := &ygot.RFC7951JSONConfig{AppendModuleName: true}
	if len(elems) == 0 {
		tv, err := ygot.EncodeTypedValue(root, enc, jsonCfg)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "encode: %v", err)
		}
		return []*gpb.Update{{Path: p, Val: tv}}, nil
	}
	schema, err := ocSchema()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "openconfig schema: %v", err)
	}
	nodes, err := ytypes.GetNode(schema.RootSchema(), root, &gpb.Path{Elem: elems}, &ytypes.GetHandleWildcards{}, &ytypes.GetPartialKeyMatch{})
	if err != nil || len(nodes) == 0 {
		return nil, status.Errorf(codes.NotFound, "path %s not found", pathString(elems))
	}
	var ups []*gpb.Update
	for _, n := range nodes {
		if isNil(n.Data) {
			continue
		}
		tv, err := ygot.EncodeTypedValue(n.Data, enc, jsonCfg)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "encode %s: %v", pathString(n.Path.GetElem()), err)
		}
		up := p
		if len(nodes) > 1 {
			up = &gpb.Path{Origin: p.GetOrigin(), Elem: n.Path.GetElem()}
		}
		ups = append(ups, &gpb.Update{Path: up, Val: tv})
	}
	if len(ups) == 0 {
		return nil, status.Errorf(codes.NotFound, "path %s not found", pathString(elems))
	}
	return ups, nil
}

// isNil reports whether a node's data is an unset pointer, map or slice.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	return util.IsValueNil(v)
}

// ocLeaves returns one update per leaf under a path, with full paths.
func ocLeaves(root *ocqos.Device, elems []*gpb.PathElem) ([]*gpb.Update, error) {
	notes, err := ygot.TogNMINotifications(root, 0, ygot.GNMINotificationsConfig{UsePathElem: true})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encode: %v", err)
	}
	var ups []*gpb.Update
	for _, n := range notes {
		for _, u := range n.GetUpdate() {
			full := append(slices.Clone(n.GetPrefix().GetElem()), u.GetPath().GetElem()...)
			if hasPrefix(full, elems) {
				ups = append(ups, &gpb.Update{Path: &gpb.Path{Elem: full}, Val: u.GetVal()})
			}
		}
	}
	if len(ups) == 0 {
		return nil, status.Errorf(codes.NotFound, "path %s not found", pathString(elems))
	}
	slices.SortFunc(ups, func(a, b *gpb.Update) int {
		return strings.Compare(pathString(a.GetPath().GetElem()), pathString(b.GetPath().GetElem()))
	})
	return ups, nil
}

// hasPrefix reports whether path starts with prefix; a key in prefix
// matches when path has the same value or prefix's value is "*".
func hasPrefix(path, prefix []*gpb.PathElem) bool {
	if len(prefix) > len(path) {
		return false
	}
	for i, pe := range prefix {
		if pe.GetName() != path[i].GetName() && pe.GetName() != "*" {
			return false
		}
		for k, v := range pe.GetKey() {
			if v != "*" && path[i].GetKey()[k] != v {
				return false
			}
		}
	}
	return true
}

// pathString prints elements as /a/b[k=v] with keys sorted.
func pathString(elems []*gpb.PathElem) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteString("/")
		b.WriteString(e.GetName())
		keys := make([]string, 0, len(e.GetKey()))
		for k := range e.GetKey() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b.WriteString("[" + k + "=" + e.GetKey()[k] + "]")
		}
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}
