package inventory

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// bodyContent is body.Content(schema) without its bookkeeping when body is an
// hclsyntax body every item of which the schema accepts (the usual case):
// hclsyntax builds four maps and a leftover body per call to find what
// does not fit, which for an inventory of 10,000 devices is most of the
// decoding's garbage. Anything else goes to Content, for its diagnostics.
func bodyContent(body hcl.Body, schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || !fits(sb, schema) {
		return body.Content(schema)
	}
	c := &hcl.BodyContent{Attributes: make(hcl.Attributes, len(sb.Attributes)), MissingItemRange: sb.MissingItemRange()}
	for name, a := range sb.Attributes {
		c.Attributes[name] = a.AsHCLAttribute()
	}
	if len(sb.Blocks) > 0 {
		c.Blocks = make(hcl.Blocks, len(sb.Blocks))
		for i, b := range sb.Blocks {
			c.Blocks[i] = b.AsHCLBlock()
		}
	}
	return c, nil
}

// fits reports whether Content(schema) would take every item of b without
// a diagnostic: every attribute and block type in the schema, each block
// with the schema's number of labels, and no required attribute missing.
func fits(b *hclsyntax.Body, schema *hcl.BodySchema) bool {
	for name := range b.Attributes {
		if !slices.ContainsFunc(schema.Attributes, func(s hcl.AttributeSchema) bool { return s.Name == name }) {
			return false
		}
	}
	for _, s := range schema.Attributes {
		if _, ok := b.Attributes[s.Name]; s.Required && !ok {
			return false
		}
	}
	for _, blk := range b.Blocks {
		i := slices.IndexFunc(schema.Blocks, func(s hcl.BlockHeaderSchema) bool { return s.Type == blk.Type })
		if i < 0 || len(blk.Labels) != len(schema.Blocks[i].LabelNames) {
			return false
		}
	}
	return true
}
