package intent

import (
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

// Merge returns base with over laid on top: an attribute of over replaces
// the attribute of the same name; a nested block of over replaces, whole,
// the block of base with the same type and labels in its place, and is
// appended when base has none. Neither argument is modified; nil means an empty body.
func Merge(base, over *Body) *Body {
	if over == nil {
		return base
	}
	if base == nil {
		return over
	}
	out := &Body{Attrs: make(map[string]*Attr, len(base.Attrs)+len(over.Attrs))}
	for k, v := range base.Attrs {
		out.Attrs[k] = v
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
		if r, ok := byKey[k]; ok {
			if !used[k] {
				out.Blocks = append(out.Blocks, r)
				used[k] = true
			}
			continue
		}
		out.Blocks = append(out.Blocks, b)
	}
	for _, b := range over.Blocks {
		if !used[blockKey(b)] {
			out.Blocks = append(out.Blocks, b)
		}
	}
	return out
}

func blockKey(b *Block) string {
	k := b.Type
	for _, l := range b.Labels {
		k += "\x00" + l
	}
	return k
}
