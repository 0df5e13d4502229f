package intent

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/bounded"
)

// schema describes a block body the intent accepts: its attribute names and
// nested blocks. Which attributes are required, and their types and units,
// is checked when the merged body is decoded, because an override may
// supply what the profile leaves out.
type schema struct {
	attrs  []string
	blocks map[string]blockSchema
}

type blockSchema struct {
	labels []string
	body   *schema
}

func (s *schema) hcl() *hcl.BodySchema {
	hs := &hcl.BodySchema{}
	for _, a := range s.attrs {
		hs.Attributes = append(hs.Attributes, hcl.AttributeSchema{Name: a})
	}
	for _, t := range sortedKeys(s.blocks) {
		hs.Blocks = append(hs.Blocks, hcl.BlockHeaderSchema{Type: t, LabelNames: s.blocks[t].labels})
	}
	return hs
}

// removeAttr, written in a nested block of an override, removes the
// block of the same type and name that the override merges over.
const removeAttr = "remove"

// colorSchema is the WRED of a packet colour other than green.
var colorSchema = &schema{attrs: []string{"min_threshold", "max_threshold", "max_probability", "drop", removeAttr}}

var ecnSchema = &schema{
	attrs:  []string{"min_threshold", "max_threshold", "max_probability", "weight", removeAttr},
	blocks: map[string]blockSchema{"yellow": {body: colorSchema}, "red": {body: colorSchema}},
}

// classNamesSchema names the per-class objects a renderer creates.
var classNamesSchema = &schema{attrs: []string{"class_map", "scheduler", "drop_profile"}}

var classSchema = &schema{
	attrs:  []string{"id", "dscp", "cos", "match", "lossless", "cnp", "priority", "priority_level", "bandwidth", "weight", "min_bandwidth", "shape", "mtu", removeAttr},
	blocks: map[string]blockSchema{"ecn": {body: ecnSchema}, "names": {body: classNamesSchema}},
}

var watchdogSchema = &schema{attrs: []string{"detection_time", "restoration_time", "polling_interval", "action", "priorities", removeAttr}}

var pfcSchema = &schema{
	attrs:  []string{"mode", "priorities", removeAttr},
	blocks: map[string]blockSchema{"watchdog": {body: watchdogSchema}},
}

// qosNamesSchema names the profile-wide objects a renderer creates.
var qosNamesSchema = &schema{attrs: []string{"classifier", "queuing", "network_qos", "port_profile", "maps"}}

// qosSchema is the body of a qos_profile block and of a qos override.
var qosSchema = &schema{
	attrs: []string{"trust"},
	blocks: map[string]blockSchema{
		"traffic_class": {labels: []string{"name"}, body: classSchema},
		"pfc":           {body: pfcSchema},
		"names":         {body: qosNamesSchema},
	},
}

// bufferSchema is the body of a buffer_profile block and of a buffers
// override.
var bufferSchema = &schema{attrs: []string{"headroom", "lossless_pool", "lossy_pool", "headroom_pool", "alpha"}}

// readBody evaluates body against s. Two nested blocks with the same type
// and labels are an error: the second would silently shadow the first.
func readBody(body hcl.Body, s *schema, ctx *hcl.EvalContext) (*Body, hcl.Diagnostics) {
	content, diags := body.Content(s.hcl())
	out := &Body{Attrs: make(map[string]*Attr, len(content.Attributes))}
	for name, a := range content.Attributes {
		v, d := bounded.Value(a.Expr, ctx)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		out.Attrs[name] = &Attr{Name: name, Value: v, Expr: a.Expr, Range: a.Expr.Range(), NameRange: a.NameRange}
	}
	seen := map[string]*Block{}
	for _, b := range content.Blocks {
		inner, d := readBody(b.Body, s.blocks[b.Type].body, ctx)
		diags = append(diags, d...)
		blk := &Block{Type: b.Type, Labels: b.Labels, Body: inner, DefRange: b.DefRange, TypeRange: b.TypeRange}
		k := blockKey(blk)
		if prev, ok := seen[k]; ok {
			what := b.Type
			if len(b.Labels) > 0 {
				what = fmt.Sprintf("%s %q", b.Type, b.Labels[0])
			}
			subj := b.DefRange
			if len(b.LabelRanges) > 0 {
				subj = b.LabelRanges[0]
			}
			diags = append(diags, errorf(RuleDuplicateBlock, "Duplicate "+b.Type+" block", &subj, &b.DefRange,
				fmt.Sprintf("This body already has a %s block at %s. Merge the two or remove one.", what, prev.DefRange)))
			continue
		}
		seen[k] = blk
		out.Blocks = append(out.Blocks, blk)
	}
	return out, diags
}
