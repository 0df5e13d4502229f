package intent

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/lossless-net/lossless/intent/bounded"
)

var portGroupSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "ports", Required: true}}}

var assignSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "devices", Required: true}, {Name: "ports"}, {Name: "qos"}, {Name: "buffers"}, {Name: "options"}, {Name: "unmanaged"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "device", LabelNames: []string{"name"}}},
}

var deviceOverrideSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "options"}, {Name: "unmanaged"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "qos"}, {Type: "buffers"}, {Type: "port", LabelNames: []string{"ports"}},
	},
}

var portOverrideSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "qos"}}}

func decodePortGroup(b *hcl.Block, ctx *hcl.EvalContext) (*PortGroup, hcl.Diagnostics) {
	g := &PortGroup{Name: b.Labels[0], DeclRange: b.DefRange}
	content, diags := b.Body.Content(portGroupSchema)
	if a, ok := content.Attributes["ports"]; ok {
		refs, d := portRefs(a, ctx)
		diags = append(diags, d...)
		g.Ports = refs
	}
	return g, diags
}

// portRefs evaluates a list of port names and ranges, keeping the range of
// each element when it is written as a literal list.
func portRefs(a *hcl.Attribute, ctx *hcl.EvalContext) ([]PortRef, hcl.Diagnostics) {
	v, diags := bounded.Value(a.Expr, ctx)
	if diags.HasErrors() {
		return nil, diags
	}
	list, err := convert.Convert(v, cty.List(cty.String))
	if err != nil || !list.IsWhollyKnown() || list.IsNull() {
		return nil, append(diags, errorf(RuleBadValue, "Invalid port list", a.Expr.Range().Ptr(), nil,
			`ports must be a list of port names or ranges, for example ["Ethernet1/1-32", "Ethernet1/49"].`))
	}
	var elems []hclsyntax.Expression
	if tc, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok {
		elems = tc.Exprs
	}
	var refs []PortRef
	for i, e := range list.AsValueSlice() {
		if e.IsNull() {
			continue
		}
		r := a.Expr.Range()
		if len(elems) == list.LengthInt() {
			r = elems[i].Range()
		}
		refs = append(refs, PortRef{Pattern: e.AsString(), Range: r})
	}
	return refs, diags
}

func decodeAssign(b *hcl.Block, ctx *hcl.EvalContext, fab *Fabric) (*Assign, hcl.Diagnostics) {
	a := &Assign{Name: b.Labels[0], DeclRange: b.DefRange}
	content, diags := b.Body.Content(assignSchema)
	if at, ok := content.Attributes["devices"]; ok {
		sel, d := decodeSelector(at, ctx)
		diags = append(diags, d...)
		a.Selector = sel
	}
	if at, ok := content.Attributes["ports"]; ok {
		// ports = port_group.NAME keeps the group's own ranges, so a bad
		// range is reported where it is written.
		if tr, d := hcl.AbsTraversalForExpr(at.Expr); !d.HasErrors() && tr.RootName() == "port_group" && len(tr) == 2 {
			if ga, ok := tr[1].(hcl.TraverseAttr); ok && fab.PortGroups[ga.Name] != nil {
				a.Ports = append([]PortRef{}, fab.PortGroups[ga.Name].Ports...)
			}
		}
	}
	if at, ok := content.Attributes["ports"]; ok && a.Ports == nil {
		refs, d := portRefs(at, ctx)
		diags = append(diags, d...)
		a.Ports = refs
		if a.Ports == nil {
			a.Ports = []PortRef{}
		}
	}
	if at, ok := content.Attributes["qos"]; ok {
		name, d := profileRef(at, ctx, "qos_profile", fab.QoSProfiles)
		diags = append(diags, d...)
		a.QoS, a.QoSRange = name, at.Expr.Range()
	}
	if at, ok := content.Attributes["buffers"]; ok {
		name, d := profileRef(at, ctx, "buffer_profile", fab.BufferProfiles)
		diags = append(diags, d...)
		a.Buffers, a.BuffersRange = name, at.Expr.Range()
	}
	if a.QoS == "" && content.Attributes["qos"] == nil {
		diags = append(diags, errorf(RuleMissingAttribute, "Missing qos profile", b.DefRange.Ptr(), nil,
			fmt.Sprintf("assign %q gives no qos profile. Add qos = qos_profile.NAME.", a.Name)))
	}
	if at, ok := content.Attributes["options"]; ok {
		opts, d := decodeOptions(at, ctx)
		diags = append(diags, d...)
		a.Options, a.OptionsRange = opts, at.Expr.Range()
	}
	if at, ok := content.Attributes["unmanaged"]; ok {
		u, d := decodeUnmanaged(at, ctx)
		diags = append(diags, d...)
		a.Unmanaged = u
	}
	seen := map[string]hcl.Range{}
	for _, db := range content.Blocks {
		name := db.Labels[0]
		if prev, ok := seen[name]; ok {
			diags = append(diags, errorf(RuleDuplicateBlock, "Duplicate device override", db.LabelRanges[0].Ptr(), &db.DefRange,
				fmt.Sprintf("assign %q already overrides device %q at %s. Put both overrides in one block.", a.Name, name, prev)))
			continue
		}
		seen[name] = db.DefRange
		o, d := decodeDeviceOverride(db, ctx)
		diags = append(diags, d...)
		a.Overrides = append(a.Overrides, o)
	}
	return a, diags
}

func decodeDeviceOverride(b *hcl.Block, ctx *hcl.EvalContext) (*DeviceOverride, hcl.Diagnostics) {
	o := &DeviceOverride{Device: b.Labels[0], DeclRange: b.DefRange, LabelRange: b.LabelRanges[0]}
	content, diags := b.Body.Content(deviceOverrideSchema)
	if at, ok := content.Attributes["options"]; ok {
		opts, d := decodeOptions(at, ctx)
		diags = append(diags, d...)
		o.Options = opts
	}
	if at, ok := content.Attributes["unmanaged"]; ok {
		u, d := decodeUnmanaged(at, ctx)
		diags = append(diags, d...)
		o.Unmanaged = u
	}
	for _, sb := range content.Blocks {
		switch sb.Type {
		case "qos":
			if o.QoS != nil {
				diags = append(diags, dupOverride(sb, "qos"))
				continue
			}
			body, d := readBody(sb.Body, qosSchema, ctx)
			diags = append(diags, d...)
			o.QoS = body
		case "buffers":
			if o.Buffers != nil {
				diags = append(diags, dupOverride(sb, "buffers"))
				continue
			}
			body, d := readBody(sb.Body, bufferSchema, ctx)
			diags = append(diags, d...)
			o.Buffers = body
		case "port":
			po := &PortOverride{Pattern: sb.Labels[0], DeclRange: sb.DefRange, LabelRange: sb.LabelRanges[0]}
			pc, d := sb.Body.Content(portOverrideSchema)
			diags = append(diags, d...)
			for _, qb := range pc.Blocks {
				if po.QoS != nil {
					diags = append(diags, dupOverride(qb, "qos"))
					continue
				}
				body, d := readBody(qb.Body, qosSchema, ctx)
				diags = append(diags, d...)
				po.QoS = body
			}
			o.Ports = append(o.Ports, po)
		default:
			// Content rejected every other block type already.
		}
	}
	return o, diags
}

func dupOverride(b *hcl.Block, kind string) *hcl.Diagnostic {
	return errorf(RuleDuplicateBlock, "Duplicate "+kind+" override", b.TypeRange.Ptr(), &b.DefRange,
		fmt.Sprintf("This override already has a %s block. Put all %s settings in one block.", kind, kind))
}

// profileRef resolves `qos = qos_profile.NAME` (or a string naming the
// profile) to the profile's name.
func profileRef(a *hcl.Attribute, ctx *hcl.EvalContext, kind string, known map[string]*Profile) (string, hcl.Diagnostics) {
	if tr, d := hcl.AbsTraversalForExpr(a.Expr); !d.HasErrors() && tr.RootName() == kind && len(tr) == 2 {
		if ga, ok := tr[1].(hcl.TraverseAttr); ok {
			if _, found := known[ga.Name]; !found {
				return "", hcl.Diagnostics{errorf(RuleUnknownReference, "Reference to undeclared "+kind, a.Expr.Range().Ptr(), nil,
					fmt.Sprintf("No %s %q is declared. Declared: %s.", kind, ga.Name, orNone(sortedKeys(known))))}
			}
			return ga.Name, nil
		}
	}
	v, diags := bounded.Value(a.Expr, ctx)
	if diags.HasErrors() {
		return "", diags
	}
	if v.Type() != cty.String || v.IsNull() || !v.IsKnown() {
		return "", append(diags, errorf(RuleBadValue, "Invalid profile reference", a.Expr.Range().Ptr(), nil,
			fmt.Sprintf("Expected a reference such as %s.NAME.", kind)))
	}
	name := v.AsString()
	if _, found := known[name]; !found {
		return "", append(diags, errorf(RuleUnknownReference, "Reference to undeclared "+kind, a.Expr.Range().Ptr(), nil,
			fmt.Sprintf("No %s %q is declared. Declared: %s.", kind, name, orNone(sortedKeys(known)))))
	}
	return name, diags
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// decodeSelector accepts "*" (every device), a list of device names, or an
// object with any of name/names, role/roles, tag/tags, each a string or a
// list of strings.
func decodeSelector(a *hcl.Attribute, ctx *hcl.EvalContext) (Selector, hcl.Diagnostics) {
	sel := Selector{Range: a.Expr.Range()}
	v, diags := bounded.Value(a.Expr, ctx)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		sel.invalid = true
		return sel, diags
	}
	bad := func() (Selector, hcl.Diagnostics) {
		sel = Selector{Range: a.Expr.Range(), invalid: true}
		return sel, append(diags, errorf(RuleBadValue, "Invalid device selector", a.Expr.Range().Ptr(), nil,
			`devices must be "*" (every device), a list of device names, or an object such as { role = "leaf" } with keys name, role and tag (each a string or a list of strings).`))
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		if v.AsString() != "*" {
			sel.Names = []string{v.AsString()}
		}
		return sel, diags
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		l, err := convert.Convert(v, cty.List(cty.String))
		if err != nil {
			return bad()
		}
		sel.Names = stringsOf(l)
		return sel, diags
	case ty.IsObjectType() || ty.IsMapType():
		for k, ev := range v.AsValueMap() {
			var vals []string
			if s, err := convert.Convert(ev, cty.String); err == nil && !s.IsNull() {
				vals = []string{s.AsString()}
			} else if l, err := convert.Convert(ev, cty.List(cty.String)); err == nil {
				vals = stringsOf(l)
			} else {
				return bad()
			}
			switch k {
			case "name", "names":
				sel.Names = append(sel.Names, vals...)
			case "role", "roles":
				sel.Roles = append(sel.Roles, vals...)
			case "tag", "tags":
				sel.Tags = append(sel.Tags, vals...)
			default:
				return bad()
			}
		}
		sort.Strings(sel.Names)
		sort.Strings(sel.Roles)
		sort.Strings(sel.Tags)
		return sel, diags
	}
	return bad()
}

func stringsOf(l cty.Value) []string {
	if l.IsNull() {
		return nil
	}
	var out []string
	for _, e := range l.AsValueSlice() {
		if !e.IsNull() {
			out = append(out, e.AsString())
		}
	}
	return out
}

// decodeUnmanaged reads unmanaged = "keep" | "prune".
func decodeUnmanaged(a *hcl.Attribute, ctx *hcl.EvalContext) (string, hcl.Diagnostics) {
	v, diags := bounded.Value(a.Expr, ctx)
	if diags.HasErrors() {
		return "", diags
	}
	if v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		switch s := v.AsString(); s {
		case UnmanagedKeep, UnmanagedPrune:
			return s, diags
		}
	}
	return "", append(diags, errorf(RuleBadValue, "Invalid unmanaged", a.Expr.Range().Ptr(), nil,
		`unmanaged must be "keep" (leave the objects lossless does not render, and list them in the plan) or "prune" (remove them; an object still referenced from outside lossless' scope stays).`))
}

// decodeOptions reads a map of vendor option keys to string values.
func decodeOptions(a *hcl.Attribute, ctx *hcl.EvalContext) (map[string]string, hcl.Diagnostics) {
	v, diags := bounded.Value(a.Expr, ctx)
	if diags.HasErrors() {
		return nil, diags
	}
	m, err := convert.Convert(v, cty.Map(cty.String))
	if err != nil || !m.IsWhollyKnown() {
		return nil, append(diags, errorf(RuleBadValue, "Invalid options", a.Expr.Range().Ptr(), nil,
			`options must be a map of strings, for example { "eos.style" = "qos-profile" }.`))
	}
	out := map[string]string{}
	if m.IsNull() {
		return out, diags
	}
	for k, ev := range m.AsValueMap() {
		if !ev.IsNull() {
			out[k] = ev.AsString()
		}
	}
	return out, diags
}
