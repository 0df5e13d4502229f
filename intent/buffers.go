package intent

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/lossless-net/lossless/intent/headroom"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
)

// bufSpec is a decoded buffer body. Pools given as a share of the buffer
// become bytes per platform, in resolve.
type bufSpec struct {
	name                      string
	decl                      hcl.Range
	policy                    HeadroomPolicy
	headroom                  hcl.Range
	lossless, lossy, hdrmPool poolValue
	alpha                     *int
	// byPlatform caches resolve, so devices of one platform share one
	// *Buffers; terms caches explicitTerms.
	byPlatform map[*platform.Platform]*Buffers
	terms      []headroom.Term
}

type poolValue struct {
	bytes units.Bytes
	pct   units.Percent
	rng   hcl.Range
	set   bool
}

func (v poolValue) on(p *platform.Platform) units.Bytes {
	if v.pct > 0 {
		return p.Buffer * units.Bytes(v.pct) / 100
	}
	return v.bytes
}

func decodeBuffers(name string, body *Body, decl hcl.Range) (*bufSpec, hcl.Diagnostics) {
	r := &reader{body: body, ctx: &decl}
	s := &bufSpec{name: name, decl: decl, policy: HeadroomPolicy{Auto: true}, byPlatform: map[*platform.Platform]*Buffers{}}
	if a := r.attr("headroom"); a != nil {
		s.headroom = a.Range
		decodeHeadroom(r, s, a)
	}
	for _, pv := range []struct {
		name string
		dst  *poolValue
	}{{"lossless_pool", &s.lossless}, {"lossy_pool", &s.lossy}, {"headroom_pool", &s.hdrmPool}} {
		if b, p, a, ok := r.sizeOrPercent(pv.name); ok {
			*pv.dst = poolValue{bytes: b, pct: p, rng: a.Range, set: true}
		}
	}
	if n, a, ok := r.integer("alpha"); ok {
		if n < -8 || n > 8 {
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid alpha", &a.Range, &decl,
				fmt.Sprintf("alpha %d is outside -8–8: it is the dynamic threshold exponent (the shared buffer a queue may take is 2^alpha times the free buffer).", n)))
		}
		s.alpha = &n
	}
	return s, r.diags
}

// decodeHeadroom reads headroom = "auto" or { xoff = …, xon = …, size = … }.
func decodeHeadroom(r *reader, s *bufSpec, a *Attr) {
	v := a.Value
	if v.Type() == cty.String {
		if v.AsString() != "auto" {
			r.fail(RuleBadValue, "Invalid headroom", a, `headroom is "auto" (computed per port from speed, cable length and MTU) or explicit sizes such as { xoff = "165568B", xon = "2288B" }.`)
		}
		return
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		r.fail(RuleBadValue, "Invalid headroom", a, `headroom is "auto" or an object such as { xoff = "165568B", xon = "2288B", size = "1248B" }.`)
		return
	}
	inner := &Body{Attrs: map[string]*Attr{}}
	for k, ev := range v.AsValueMap() {
		switch k {
		case "xoff", "xon", "size":
			inner.Attrs[k] = &Attr{Name: k, Value: ev, Expr: a.Expr, Range: a.Range, NameRange: a.NameRange}
		default:
			r.fail(RuleBadValue, "Invalid headroom", a, fmt.Sprintf("headroom has no setting %q: use xoff, xon and size.", k))
		}
	}
	ir := &reader{body: inner, ctx: r.ctx}
	s.policy.Auto = false
	xoff, _, okOff := ir.size("xoff")
	xon, _, okOn := ir.size("xon")
	size, _, _ := ir.size("size")
	r.diags = append(r.diags, ir.diags...)
	if !okOff && inner.Attrs["xoff"] == nil {
		r.fail(RuleMissingAttribute, "Missing xoff", a, `Explicit headroom needs xoff, the buffer that absorbs what arrives after PAUSE (for example xoff = "165568B"), or write headroom = "auto".`)
	}
	s.policy.Xoff, s.policy.Xon, s.policy.Size = xoff, xon, size
	if okOff && okOn && xon > xoff {
		r.fail(RuleHeadroomXonXoff, "Xon above xoff", a, fmt.Sprintf("xon %s is above xoff %s. The port resumes the sender once the buffer drains xon below the pause point, so xon must not exceed xoff.", xon, xoff))
	}
}

// resolve returns the profile's Buffers for one platform.
func (s *bufSpec) resolve(p *platform.Platform) *Buffers {
	if b, ok := s.byPlatform[p]; ok {
		return b
	}
	b := &Buffers{
		Profile:      s.name,
		Headroom:     s.policy,
		LosslessPool: s.lossless.on(p),
		LossyPool:    s.lossy.on(p),
		HeadroomPool: s.hdrmPool.on(p),
		Alpha:        s.alpha,
	}
	s.byPlatform[p] = b
	return b
}
