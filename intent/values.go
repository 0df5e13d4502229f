package intent

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/units"
)

// reader decodes typed values out of an evaluated Body, collecting
// diagnostics that point at each value.
type reader struct {
	body  *Body
	ctx   *hcl.Range // the enclosing block, for Context
	diags hcl.Diagnostics
}

func (r *reader) attr(name string) *Attr {
	if r.body == nil {
		return nil
	}
	a := r.body.Attrs[name]
	if a == nil || a.Value.IsNull() || !a.Value.IsWhollyKnown() {
		return nil
	}
	return a
}

func (r *reader) fail(rule diag.Rule, summary string, a *Attr, detail string) {
	r.diags = append(r.diags, errorf(rule, summary, &a.Range, r.ctx, detail))
}

// str returns a string attribute, or "" when absent.
func (r *reader) str(name string) (string, *Attr) {
	a := r.attr(name)
	if a == nil {
		return "", nil
	}
	v, err := convert.Convert(a.Value, cty.String)
	if err != nil {
		r.diags = append(r.diags, errorf(RuleBadValue, "Invalid "+name, &a.Range, r.ctx, fmt.Sprintf("%s must be a string.", name)))
		return "", nil
	}
	return v.AsString(), a
}

// boolean returns a bool attribute, or false when absent.
func (r *reader) boolean(name string) (bool, *Attr) {
	a := r.attr(name)
	if a == nil {
		return false, nil
	}
	v, err := convert.Convert(a.Value, cty.Bool)
	if err != nil {
		r.diags = append(r.diags, errorf(RuleBadValue, "Invalid "+name, &a.Range, r.ctx, fmt.Sprintf("%s must be true or false.", name)))
		return false, nil
	}
	return v.True(), a
}

// integer returns a whole-number attribute; ok is false when it is absent
// or invalid.
func (r *reader) integer(name string) (int, *Attr, bool) {
	a := r.attr(name)
	if a == nil {
		return 0, nil, false
	}
	n, ok := wholeNumber(a.Value)
	if !ok {
		r.diags = append(r.diags, errorf(RuleBadValue, "Invalid "+name, &a.Range, r.ctx, fmt.Sprintf("%s must be a whole number.", name)))
		return 0, a, false
	}
	return n, a, true
}

func wholeNumber(v cty.Value) (int, bool) {
	nv, err := convert.Convert(v, cty.Number)
	if err != nil || nv.IsNull() {
		return 0, false
	}
	bf := nv.AsBigFloat()
	if !bf.IsInt() {
		return 0, false
	}
	i, acc := bf.Int64()
	if acc != big.Exact || i > 1<<31 || i < -(1<<31) {
		return 0, false
	}
	return int(i), true
}

// quantityText returns the attribute as the text a unit parser reads: a
// string as is, a number in decimal (so that a bare number reaches the
// parser and fails with its "missing unit" hint).
func quantityText(v cty.Value) (string, bool) {
	switch v.Type() {
	case cty.String:
		return v.AsString(), true
	case cty.Number:
		return v.AsBigFloat().Text('f', -1), true
	}
	return "", false
}

// unitFail reports a quantity that does not parse: LL001 when it lacks a
// unit, LL002 otherwise. The parser's message already says how to write it.
func (r *reader) unitFail(a *Attr, what string, err error) {
	if errors.Is(err, units.ErrNoUnit) {
		r.diags = append(r.diags, errorf(RuleMissingUnit, "Missing unit", &a.Range, r.ctx,
			fmt.Sprintf("%s needs a unit: %s.", a.Name, err)))
		return
	}
	r.diags = append(r.diags, errorf(RuleBadQuantity, "Invalid "+what, &a.Range, r.ctx, fmt.Sprintf("%s: %s.", a.Name, err)))
}

// size reads a size ("150KB").
func (r *reader) size(name string) (units.Bytes, *Attr, bool) {
	a := r.attr(name)
	if a == nil {
		return 0, nil, false
	}
	s, ok := quantityText(a.Value)
	if !ok {
		r.fail(RuleBadValue, "Invalid "+name, a, fmt.Sprintf(`%s must be a size such as "150KB".`, name))
		return 0, a, false
	}
	b, err := units.ParseBytes(s)
	if err != nil {
		r.unitFail(a, "size", err)
		return 0, a, false
	}
	return b, a, true
}

// duration reads a duration ("200ms").
func (r *reader) duration(name string) (time.Duration, *Attr, bool) {
	a := r.attr(name)
	if a == nil {
		return 0, nil, false
	}
	s, ok := quantityText(a.Value)
	if !ok {
		r.fail(RuleBadValue, "Invalid "+name, a, fmt.Sprintf(`%s must be a duration such as "200ms".`, name))
		return 0, a, false
	}
	d, err := units.ParseDuration(s)
	if err != nil {
		r.unitFail(a, "duration", err)
		return 0, a, false
	}
	return d, a, true
}

// percent reads a percentage written "50%".
func (r *reader) percent(name string) (units.Percent, *Attr, bool) {
	a := r.attr(name)
	if a == nil {
		return 0, nil, false
	}
	s, ok := quantityText(a.Value)
	if !ok {
		r.fail(RuleBadValue, "Invalid "+name, a, fmt.Sprintf(`%s must be a percentage such as "50%%".`, name))
		return 0, a, false
	}
	p, err := units.ParsePercent(s)
	if err != nil {
		r.unitFail(a, "percentage", err)
		return 0, a, false
	}
	return p, a, true
}

// threshold reads an ECN threshold: a size ("150KB") or a time at line
// rate ("20us").
func (r *reader) threshold(name string) (Threshold, *Attr, bool) {
	a := r.attr(name)
	if a == nil {
		return Threshold{}, nil, false
	}
	s, ok := quantityText(a.Value)
	if !ok {
		r.fail(RuleBadValue, "Invalid "+name, a, fmt.Sprintf(`%s must be a size such as "150KB", a time at line rate such as "20us", or a share of the queue's buffer limit such as "50%%".`, name))
		return Threshold{}, a, false
	}
	if strings.HasSuffix(strings.TrimSpace(s), "%") {
		pc, err := units.ParsePercent(s)
		if err != nil || pc < 1 || pc > 100 {
			r.fail(RuleBadValue, "Invalid "+name, a, fmt.Sprintf("%s %q: a share of the queue's buffer limit is a whole percentage from 1%% to 100%%.", name, s))
			return Threshold{}, a, false
		}
		return Threshold{Percent: pc}, a, true
	}
	if isTimeUnit(s) {
		d, err := units.ParseDuration(s)
		if err != nil {
			r.unitFail(a, "threshold", err)
			return Threshold{}, a, false
		}
		return Threshold{Time: d}, a, true
	}
	b, err := units.ParseBytes(s)
	if err != nil {
		if errors.Is(err, units.ErrNoUnit) {
			r.diags = append(r.diags, errorf(RuleMissingUnit, "Missing unit", &a.Range, r.ctx,
				fmt.Sprintf(`%s needs a unit: write a size such as "%sKB" or a time at line rate such as "%sus".`, name, s, s)))
			return Threshold{}, a, false
		}
		r.unitFail(a, "threshold", err)
		return Threshold{}, a, false
	}
	return Threshold{Bytes: b}, a, true
}

func isTimeUnit(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, u := range []string{"ns", "us", "µs", "ms"} {
		if strings.HasSuffix(t, u) {
			return true
		}
	}
	return strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "cells")
}

// sizeOrPercent reads a pool size: absolute ("10MB") or a share of the
// platform buffer ("40%").
func (r *reader) sizeOrPercent(name string) (units.Bytes, units.Percent, *Attr, bool) {
	a := r.attr(name)
	if a == nil {
		return 0, 0, nil, false
	}
	s, ok := quantityText(a.Value)
	if !ok {
		r.fail(RuleBadValue, "Invalid "+name, a, fmt.Sprintf(`%s must be a size such as "10MB" or a share of the buffer such as "40%%".`, name))
		return 0, 0, a, false
	}
	if strings.HasSuffix(strings.TrimSpace(s), "%") {
		p, err := units.ParsePercent(s)
		if err != nil {
			r.unitFail(a, "percentage", err)
			return 0, 0, a, false
		}
		if p <= 0 || p > 100 {
			r.fail(RuleBadValue, "Invalid "+name, a, fmt.Sprintf("%s is a share of the platform buffer, so it must be between 1%% and 100%%; it is %s.", name, p))
			return 0, 0, a, false
		}
		return 0, p, a, true
	}
	b, err := units.ParseBytes(s)
	if err != nil {
		if errors.Is(err, units.ErrNoUnit) {
			r.diags = append(r.diags, errorf(RuleMissingUnit, "Missing unit", &a.Range, r.ctx,
				fmt.Sprintf(`%s needs a unit: write a size such as "%sMB" or a share of the buffer such as "%s%%".`, name, s, s)))
			return 0, 0, a, false
		}
		r.unitFail(a, "size", err)
		return 0, 0, a, false
	}
	return b, 0, a, true
}
