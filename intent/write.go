package intent

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/lossless-net/lossless/internal/units"
)

// This file writes resolved state back as intent source, for `lossless
// import`: WriteQoS and WriteBuffers write a profile body that resolves
// to the given state, and the Override functions the smallest override
// that turns one state into another under Merge. What they write decodes
// to exactly the state given (TestWriteRoundTrip), in canonical form:
// classes by id, attributes in the order of the language reference.

// kv is one attribute to write.
type kv struct {
	name string
	v    cty.Value
}

// WriteQoS writes into body the content of a qos_profile block that
// resolves to q (q.Profile is the block's label, not written here).
func WriteQoS(body *hclwrite.Body, q *QoS) {
	writeAttrs(body, qosKVs(q))
	writeNames(body, qosNameKVs(q.Names))
	for i := range q.Classes {
		writeClass(body.AppendNewBlock("traffic_class", []string{q.Classes[i].Name}).Body(), &q.Classes[i])
	}
	if pfc := pfcKVs(&q.PFC); len(pfc) > 0 || q.PFC.Watchdog != nil {
		pb := body.AppendNewBlock("pfc", nil).Body()
		writeAttrs(pb, pfc)
		if q.PFC.Watchdog != nil {
			writeAttrs(pb.AppendNewBlock("watchdog", nil).Body(), watchdogKVs(q.PFC.Watchdog))
		}
	}
}

// qosKVs are the profile's own attributes: trust when it is not the
// default.
func qosKVs(q *QoS) []kv {
	if q.Trust != "" && q.Trust != TrustDSCP {
		return []kv{{"trust", cty.StringVal(q.Trust)}}
	}
	return nil
}

// pfcKVs are the pfc block's attributes: mode when it is not on.
func pfcKVs(p *PFC) []kv {
	if p.Mode != "" && p.Mode != PFCOn {
		return []kv{{"mode", cty.StringVal(p.Mode)}}
	}
	return nil
}

// withDefault adds to want, for each attribute of have that want lacks
// and that has a form meaning the default, that form.
func withDefault(have, want []kv, defaults map[string]cty.Value) []kv {
	for _, h := range have {
		if find(want, h.name) == nil {
			if d, ok := defaults[h.name]; ok {
				want = append(want, kv{h.name, d})
			}
		}
	}
	return want
}

// WriteQoSOverride writes into body the qos override that turns base into
// q under Merge, and reports whether it could: an attribute base sets and
// q leaves unset (a WRED weight, an MTU, a name, a scheduling mode, a
// watchdog timer) has no override form, so the caller gives the device a
// profile of its own. An equal q writes nothing.
func WriteQoSOverride(body *hclwrite.Body, base, q *QoS) bool {
	nb := hclwrite.NewEmptyFile().Body()
	if !overrideAttrs(nb, qosKVs(base), withDefault(qosKVs(base), qosKVs(q), map[string]cty.Value{"trust": cty.StringVal(TrustDSCP)}), "") {
		return false
	}
	if !overrideAttrs(nb, qosNameKVs(base.Names), qosNameKVs(q.Names), "names") {
		return false
	}
	for i := range q.Classes {
		c := &q.Classes[i]
		bc := classNamed(base, c.Name)
		if bc == nil {
			writeClass(nb.AppendNewBlock("traffic_class", []string{c.Name}).Body(), c)
			continue
		}
		cb := hclwrite.NewEmptyFile().Body()
		if !classOverride(cb, bc, c) {
			return false
		}
		if len(cb.Attributes()) > 0 || len(cb.Blocks()) > 0 {
			nb.AppendNewBlock("traffic_class", []string{c.Name}).Body().AppendUnstructuredTokens(cb.BuildTokens(nil))
		}
	}
	for i := range base.Classes {
		if classNamed(q, base.Classes[i].Name) == nil {
			nb.AppendNewBlock("traffic_class", []string{base.Classes[i].Name}).Body().SetAttributeValue(removeAttr, cty.True)
		}
	}
	pb := hclwrite.NewEmptyFile().Body()
	if !overrideAttrs(pb, pfcKVs(&base.PFC), withDefault(pfcKVs(&base.PFC), pfcKVs(&q.PFC), map[string]cty.Value{"mode": cty.StringVal(PFCOn)}), "") {
		return false
	}
	switch bw, w := base.PFC.Watchdog, q.PFC.Watchdog; {
	case bw == nil && w != nil:
		writeAttrs(pb.AppendNewBlock("watchdog", nil).Body(), watchdogKVs(w))
	case bw != nil && w == nil:
		pb.AppendNewBlock("watchdog", nil).Body().SetAttributeValue(removeAttr, cty.True)
	case bw != nil:
		wb := hclwrite.NewEmptyFile().Body()
		if !overrideAttrs(wb, watchdogKVs(bw), watchdogKVs(w), "") {
			return false
		}
		if len(wb.Attributes()) > 0 {
			pb.AppendNewBlock("watchdog", nil).Body().AppendUnstructuredTokens(wb.BuildTokens(nil))
		}
	}
	if len(pb.Attributes()) > 0 || len(pb.Blocks()) > 0 {
		nb.AppendNewBlock("pfc", nil).Body().AppendUnstructuredTokens(pb.BuildTokens(nil))
	}
	body.AppendUnstructuredTokens(nb.BuildTokens(nil))
	return true
}

// WriteBuffers writes into body the content of a buffer_profile block
// that resolves to b.
func WriteBuffers(body *hclwrite.Body, b *Buffers) { writeAttrs(body, bufferKVs(b)) }

// WriteBuffersOverride writes into body the buffers override that turns
// base into b, and reports whether it could (see WriteQoSOverride).
func WriteBuffersOverride(body *hclwrite.Body, base, b *Buffers) bool {
	return overrideAttrs(body, bufferKVs(base), bufferKVs(b), "")
}

func classNamed(q *QoS, name string) *Class {
	for i := range q.Classes {
		if q.Classes[i].Name == name {
			return &q.Classes[i]
		}
	}
	return nil
}

func writeClass(body *hclwrite.Body, c *Class) {
	writeAttrs(body, classKVs(c))
	if c.ECN != nil {
		writeECN(body.AppendNewBlock("ecn", nil).Body(), c.ECN)
	}
	writeNames(body, classNameKVs(c.Names))
}

// classOverride writes the override of class base into c.
func classOverride(body *hclwrite.Body, base, c *Class) bool {
	have, want := classKVs(base), classKVs(c)
	sched := exclusive["traffic_class"][0]
	inSched := func(k kv) bool { return slices.Contains(sched, k.name) }
	hs, ws := filter(have, inSched), filter(want, inSched)
	if !equalKVs(hs, ws) && len(ws) == 0 {
		return false // from a scheduling mode back to the vendor default
	}
	rest := func(k kv) bool { return !inSched(k) }
	// lossless and cnp have a false form, dscp and cos an empty one,
	// match "any"; the others none.
	want = withDefault(have, want, map[string]cty.Value{"lossless": cty.False, "cnp": cty.False,
		"dscp": cty.EmptyTupleVal, "cos": cty.EmptyTupleVal, "match": cty.StringVal("any")})
	if !overrideAttrs(body, filter(have, rest), filter(want, rest), "") {
		return false
	}
	if !equalKVs(hs, ws) {
		writeAttrs(body, ws)
	}
	switch {
	case base.ECN == nil && c.ECN != nil:
		writeECN(body.AppendNewBlock("ecn", nil).Body(), c.ECN)
	case base.ECN != nil && c.ECN == nil:
		body.AppendNewBlock("ecn", nil).Body().SetAttributeValue(removeAttr, cty.True)
	case base.ECN != nil:
		eb := hclwrite.NewEmptyFile().Body()
		if !overrideAttrs(eb, ecnKVs(base.ECN), ecnKVs(c.ECN), "") {
			return false
		}
		for _, col := range []struct {
			name       string
			have, want *ColorWRED
		}{{"yellow", base.ECN.Yellow, c.ECN.Yellow}, {"red", base.ECN.Red, c.ECN.Red}} {
			switch {
			case col.have == nil && col.want != nil:
				writeAttrs(eb.AppendNewBlock(col.name, nil).Body(), colorKVs(col.want))
			case col.have != nil && col.want == nil:
				eb.AppendNewBlock(col.name, nil).Body().SetAttributeValue(removeAttr, cty.True)
			case col.have != nil:
				want := withDefault(colorKVs(col.have), colorKVs(col.want), map[string]cty.Value{"drop": cty.False})
				if !overrideAttrs(eb, colorKVs(col.have), want, col.name) {
					return false
				}
			}
		}
		if len(eb.Attributes()) > 0 || len(eb.Blocks()) > 0 {
			body.AppendNewBlock("ecn", nil).Body().AppendUnstructuredTokens(eb.BuildTokens(nil))
		}
	}
	return overrideAttrs(body, classNameKVs(base.Names), classNameKVs(c.Names), "names")
}

// overrideAttrs writes the attributes of want that differ from have,
// into a block named block when block is not "" (and there is one to
// write); false when have sets an attribute want does not.
func overrideAttrs(body *hclwrite.Body, have, want []kv, block string) bool {
	var out []kv
	for _, h := range have {
		if find(want, h.name) == nil {
			return false
		}
	}
	for _, w := range want {
		if h := find(have, w.name); h == nil || !h.v.RawEquals(w.v) {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return true
	}
	if block != "" {
		body = body.AppendNewBlock(block, nil).Body()
	}
	writeAttrs(body, out)
	return true
}

func writeNames(body *hclwrite.Body, kvs []kv) {
	if len(kvs) > 0 {
		writeAttrs(body.AppendNewBlock("names", nil).Body(), kvs)
	}
}

func writeAttrs(body *hclwrite.Body, kvs []kv) {
	for _, a := range kvs {
		body.SetAttributeValue(a.name, a.v)
	}
}

func find(kvs []kv, name string) *kv {
	for i := range kvs {
		if kvs[i].name == name {
			return &kvs[i]
		}
	}
	return nil
}

func filter(kvs []kv, keep func(kv) bool) []kv {
	var out []kv
	for _, k := range kvs {
		if keep(k) {
			out = append(out, k)
		}
	}
	return out
}

func equalKVs(a, b []kv) bool {
	return slices.EqualFunc(a, b, func(x, y kv) bool { return x.name == y.name && x.v.RawEquals(y.v) })
}

func classKVs(c *Class) []kv {
	out := []kv{{"id", cty.NumberIntVal(int64(c.ID))}}
	if c.Default || len(c.DSCP) > 0 {
		out = append(out, kv{"dscp", listValue(c.Default, c.DSCP)})
	}
	if c.DefaultCoS || len(c.CoS) > 0 {
		out = append(out, kv{"cos", listValue(c.DefaultCoS, c.CoS)})
	}
	if c.MatchAll {
		out = append(out, kv{"match", cty.StringVal("all")})
	}
	if c.Lossless {
		out = append(out, kv{"lossless", cty.True})
	}
	if c.CNP {
		out = append(out, kv{"cnp", cty.True})
	}
	switch s := c.Scheduling; s.Mode {
	case SchedulingStrict:
		out = append(out, kv{"priority", cty.StringVal("strict")})
		if s.Level != 1 {
			out = append(out, kv{"priority_level", cty.NumberIntVal(int64(s.Level))})
		}
	case SchedulingDWRR:
		if s.Weight > 0 {
			out = append(out, kv{"weight", cty.NumberIntVal(int64(s.Weight))})
		} else {
			out = append(out, kv{"bandwidth", cty.StringVal(s.Bandwidth.String())})
		}
	}
	if s := c.Scheduling; s.MinBandwidth > 0 {
		out = append(out, kv{"min_bandwidth", cty.StringVal(s.MinBandwidth.String())})
	}
	if s := c.Scheduling; s.Shape > 0 {
		out = append(out, kv{"shape", cty.StringVal(s.Shape.String())})
	}
	if c.MTU > 0 {
		out = append(out, kv{"mtu", cty.NumberIntVal(int64(c.MTU))})
	}
	return out
}

// listValue is "default", or a list of values and "A-B" ranges (runs of
// three or more), with "default" first when the class also takes the
// unclaimed ones: a class's dscp or cos.
func listValue(def bool, vals []int) cty.Value {
	if def && len(vals) == 0 {
		return cty.StringVal("default")
	}
	var vs []cty.Value
	if def {
		vs = append(vs, cty.StringVal("default"))
	}
	for i := 0; i < len(vals); {
		j := i + 1
		for j < len(vals) && vals[j] == vals[j-1]+1 {
			j++
		}
		if j-i >= 3 {
			vs = append(vs, cty.StringVal(strconv.Itoa(vals[i])+"-"+strconv.Itoa(vals[j-1])))
		} else {
			for _, d := range vals[i:j] {
				vs = append(vs, cty.NumberIntVal(int64(d)))
			}
		}
		i = j
	}
	if len(vs) == 0 {
		return cty.EmptyTupleVal
	}
	return cty.TupleVal(vs)
}

func ecnKVs(e *ECN) []kv {
	out := []kv{
		{"min_threshold", thresholdValue(e.Min)},
		{"max_threshold", thresholdValue(e.Max)},
	}
	if !e.DefaultProbability {
		out = append(out, kv{"max_probability", cty.NumberIntVal(int64(e.MaxProbability))})
	}
	if e.Weight != nil {
		out = append(out, kv{"weight", cty.NumberIntVal(int64(*e.Weight))})
	}
	return out
}

// writeECN writes an ecn block's content: green's attributes, then the
// other colours' blocks.
func writeECN(body *hclwrite.Body, e *ECN) {
	writeAttrs(body, ecnKVs(e))
	for _, col := range []struct {
		name string
		c    *ColorWRED
	}{{"yellow", e.Yellow}, {"red", e.Red}} {
		if col.c != nil {
			writeAttrs(body.AppendNewBlock(col.name, nil).Body(), colorKVs(col.c))
		}
	}
}

func colorKVs(c *ColorWRED) []kv {
	out := []kv{
		{"min_threshold", thresholdValue(c.Min)},
		{"max_threshold", thresholdValue(c.Max)},
		{"max_probability", cty.NumberIntVal(int64(c.MaxProbability))},
	}
	if c.Drop {
		out = append(out, kv{"drop", cty.True})
	}
	return out
}

func thresholdValue(t Threshold) cty.Value {
	if t.Percent != 0 {
		return cty.StringVal(t.Percent.String())
	}
	if t.Time != 0 {
		return cty.StringVal(durationText(t.Time))
	}
	return cty.StringVal(t.Bytes.String())
}

// durationText writes d in the largest of s, ms, us and ns that divides
// it, as units.ParseDuration reads it back.
func durationText(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "us"}} {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + "ns"
}

func watchdogKVs(w *Watchdog) []kv {
	var out []kv
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"detection_time", w.Detection}, {"restoration_time", w.Restoration}, {"polling_interval", w.Polling}} {
		if t.d != 0 {
			out = append(out, kv{t.name, cty.StringVal(durationText(t.d))})
		}
	}
	if w.Action != "" {
		out = append(out, kv{"action", cty.StringVal(w.Action)})
	}
	if w.Priorities != 0 {
		var ps []cty.Value
		for p := range 8 {
			if w.Priorities&(1<<p) != 0 {
				ps = append(ps, cty.NumberIntVal(int64(p)))
			}
		}
		out = append(out, kv{"priorities", cty.TupleVal(ps)})
	}
	return out
}

func qosNameKVs(n Names) []kv {
	return nameKVs(qosNameAttrs, []string{n.Classifier, n.Queuing, n.NetworkQoS, n.PortProfile, n.Maps})
}

func classNameKVs(n ClassNames) []kv {
	return nameKVs(classNameAttrs, []string{n.ClassMap, n.Scheduler, n.DropProfile})
}

func nameKVs(attrs, values []string) []kv {
	var out []kv
	for i, v := range values {
		if v != "" {
			out = append(out, kv{attrs[i], cty.StringVal(v)})
		}
	}
	return out
}

func bufferKVs(b *Buffers) []kv {
	var out []kv
	if b.Headroom.Auto {
		out = append(out, kv{"headroom", cty.StringVal("auto")})
	} else if b.Headroom.Xoff != 0 || b.Headroom.Xon != 0 || b.Headroom.Size != 0 {
		m := map[string]cty.Value{"xoff": sizeValue(b.Headroom.Xoff), "xon": sizeValue(b.Headroom.Xon)}
		if b.Headroom.Size != 0 {
			m["size"] = sizeValue(b.Headroom.Size)
		}
		out = append(out, kv{"headroom", cty.ObjectVal(m)})
	}
	for _, p := range []struct {
		name string
		b    units.Bytes
	}{{"lossless_pool", b.LosslessPool}, {"lossy_pool", b.LossyPool}, {"headroom_pool", b.HeadroomPool}} {
		if p.b != 0 {
			out = append(out, kv{p.name, sizeValue(p.b)})
		}
	}
	if b.Alpha != nil {
		out = append(out, kv{"alpha", cty.NumberIntVal(int64(*b.Alpha))})
	}
	return out
}

func sizeValue(b units.Bytes) cty.Value { return cty.StringVal(b.String()) }

// String is the names given, as the intent's attributes: "classifier=X
// maps=Y" ("" for none).
func (n Names) String() string { return kvText(qosNameKVs(n)) }

// String is the names given, as the intent's attributes: "class_map=X
// scheduler=Y" ("" for none).
func (n ClassNames) String() string { return kvText(classNameKVs(n)) }

func kvText(kvs []kv) string {
	parts := make([]string, len(kvs))
	for i, k := range kvs {
		parts[i] = k.name + "=" + k.v.AsString()
	}
	return strings.Join(parts, " ")
}
