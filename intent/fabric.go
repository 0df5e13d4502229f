package intent

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Fabric is a loaded intent module: its profiles, port groups and
// assignments with every expression already evaluated, but not yet joined
// with an inventory. Load returns it even when it has errors, holding what
// could be decoded, so that Resolve can still report further problems.
type Fabric struct {
	// QoSProfiles and BufferProfiles are keyed by block label.
	QoSProfiles    map[string]*Profile
	BufferProfiles map[string]*Profile
	// PortGroups maps a port_group label to its port names and ranges.
	PortGroups map[string]*PortGroup
	// Assigns are in file order (files sorted by name).
	Assigns []*Assign
	// Rollout is the rollout block, nil when the intent has none.
	Rollout *Rollout
	// Variables holds each variable's final value.
	Variables map[string]cty.Value
	// Files holds the parsed sources by filename, for diagnostic snippets.
	Files map[string]*hcl.File
	// broken is set when a file has syntax errors: the Fabric then holds
	// only Files, and Resolve does nothing.
	broken bool
}

// Profile is a qos_profile or buffer_profile block, evaluated but not yet
// typed: overrides merge over it attribute by attribute before it is
// decoded.
type Profile struct {
	Name      string
	Body      *Body
	DeclRange hcl.Range
}

// Body is an evaluated block body: attribute values and nested blocks.
type Body struct {
	Attrs  map[string]*Attr
	Blocks []*Block
}

// Attr is one evaluated attribute.
type Attr struct {
	Name  string
	Value cty.Value
	// Expr is the source expression, kept for the ranges of list elements.
	Expr hcl.Expression
	// Range covers the value expression; NameRange the attribute name.
	Range, NameRange hcl.Range
}

// Block is one nested block with its evaluated body.
type Block struct {
	Type      string
	Labels    []string
	Body      *Body
	DefRange  hcl.Range // the block header
	TypeRange hcl.Range
}

// PortGroup is a named list of port names and ranges.
type PortGroup struct {
	Name      string
	Ports     []PortRef
	DeclRange hcl.Range
}

// PortRef is one port name or range as written, with where it was written.
type PortRef struct {
	Pattern string
	Range   hcl.Range
}

// Assign binds profiles to a set of devices and ports.
type Assign struct {
	Name string
	// Selector picks devices from the inventory.
	Selector Selector
	// Ports are the ports to manage on each selected device; nil means
	// every port the inventory lists for it.
	Ports []PortRef
	// QoS and Buffers name the profiles ("" for none); QoSRange and
	// BuffersRange point at the references.
	QoS, Buffers           string
	QoSRange, BuffersRange hcl.Range
	Options                map[string]string
	OptionsRange           hcl.Range
	// Unmanaged is the assign's unmanaged choice ("" when unset: keep).
	Unmanaged string
	// Overrides are the per-device override blocks, in source order.
	Overrides []*DeviceOverride
	DeclRange hcl.Range
}

// Selector picks devices: a device matches when it matches every
// non-empty criterion, and a criterion with several values matches any of
// them. An empty selector matches every device.
type Selector struct {
	Names, Roles, Tags []string
	Range              hcl.Range
	// invalid marks a selector that did not decode; it matches nothing.
	invalid bool
}

// DeviceOverride is a `device "NAME" { … }` block inside an assign: its qos
// and buffers bodies merge over the assigned profiles for that device, and
// its options over the assign's options.
type DeviceOverride struct {
	Device       string
	QoS, Buffers *Body
	Options      map[string]string
	Unmanaged    string
	Ports        []*PortOverride
	DeclRange    hcl.Range
	LabelRange   hcl.Range
}

// PortOverride is a `port "PATTERN" { qos { … } }` block inside a device
// override: its qos body merges over the device's QoS for those ports.
type PortOverride struct {
	Pattern    string
	QoS        *Body
	DeclRange  hcl.Range
	LabelRange hcl.Range
}

// Merge returns base with over laid on top, block by block: an attribute
// of over replaces the attribute of the same name; a nested block of over
// merges, the same way and recursively, into the block of base with the
// same type and labels, in its place, and is appended when base has none.
// A nested block of over whose remove attribute is true removes that block
// of base instead (and is dropped when base has none). Neither argument is
// modified; nil means an empty body. Attributes that exclude each other
// (a class's priority, priority_level, bandwidth and weight: one way of
// scheduling) are one choice: an override that writes any of them drops
// the others of base.
func Merge(base, over *Body) *Body { return merge(base, over, "") }

// exclusive are, by block type, the groups of attributes that make one
// choice together: writing one of a group in an override replaces the
// whole group.
var exclusive = map[string][][]string{
	"traffic_class": {{"priority", "priority_level", "bandwidth", "weight"}},
}

func merge(base, over *Body, typ string) *Body {
	if over == nil {
		return base
	}
	if base == nil {
		return withoutRemoved(over)
	}
	out := &Body{Attrs: make(map[string]*Attr, len(base.Attrs)+len(over.Attrs))}
	for k, v := range base.Attrs {
		out.Attrs[k] = v
	}
	for _, g := range exclusive[typ] {
		if slices.ContainsFunc(g, func(a string) bool { return over.Attrs[a] != nil }) {
			for _, a := range g {
				delete(out.Attrs, a)
			}
		}
	}
	for k, v := range over.Attrs {
		out.Attrs[k] = v
	}
	byKey := make(map[string]*Block, len(over.Blocks))
	for _, b := range over.Blocks {
		byKey[blockKey(b)] = b
	}
	used := make(map[string]bool, len(over.Blocks))
	for _, b := range base.Blocks {
		k := blockKey(b)
		o, ok := byKey[k]
		switch {
		case !ok:
			out.Blocks = append(out.Blocks, b)
		case used[k]:
		case removes(o):
			used[k] = true
		default:
			used[k] = true
			m := *o
			m.Body = merge(b.Body, o.Body, b.Type)
			out.Blocks = append(out.Blocks, &m)
		}
	}
	for _, b := range over.Blocks {
		if !used[blockKey(b)] && !removes(b) {
			m := *b
			m.Body = withoutRemoved(b.Body)
			out.Blocks = append(out.Blocks, &m)
		}
	}
	return out
}

// removes reports whether b says remove = true.
func removes(b *Block) bool {
	a := b.Body.Attrs[removeAttr]
	return a != nil && a.Value.Type() == cty.Bool && a.Value.IsKnown() && !a.Value.IsNull() && a.Value.True()
}

// withoutRemoved is body without its nested blocks that say remove =
// true, at any depth: they remove nothing when there is nothing to merge
// over.
func withoutRemoved(body *Body) *Body {
	if body == nil {
		return nil
	}
	var keep []*Block
	changed := false
	for _, b := range body.Blocks {
		if removes(b) {
			changed = true
			continue
		}
		inner := withoutRemoved(b.Body)
		if inner != b.Body {
			m := *b
			m.Body = inner
			b, changed = &m, true
		}
		keep = append(keep, b)
	}
	if !changed {
		return body
	}
	return &Body{Attrs: body.Attrs, Blocks: keep}
}

func blockKey(b *Block) string {
	k := b.Type
	for _, l := range b.Labels {
		k += "\x00" + l
	}
	return k
}
