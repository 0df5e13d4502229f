package intent

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
)

// RoCEMinMTU is the smallest frame, in bytes, that carries a RoCEv2 packet
// with a 4096-byte payload (the largest InfiniBand path MTU, which RDMA NICs
// use on lossless fabrics): Ethernet header 14 + 802.1Q tag 4 + IPv4 20 +
// UDP 8 + base transport header 12 + RDMA extended transport header 16 +
// payload 4096 + ICRC 4 + FCS 4. Header sizes: InfiniBand Architecture
// Specification Vol. 1 §9.2–9.3 (BTH, RETH), RoCEv2 annex A17 (UDP port
// 4791, ICRC). A lossless class MTU below it drops full-size RDMA writes.
const RoCEMinMTU = 4178

// watchdogActions are the PFC watchdog actions the intent language knows;
// each platform's catalog entry lists the subset its OS supports.
var watchdogActions = platform.WatchdogActions

// qosSpec is a decoded QoS body with the source range of each value, so
// that device-level checks can point at the line that set it.
type qosSpec struct {
	qos     *QoS
	decl    hcl.Range
	trust   hcl.Range
	classes []classSrc // parallel to qos.Classes
	wd      wdSrc
}

type classSrc struct {
	decl, name        hcl.Range
	id, lossless, mtu hcl.Range
	sched             hcl.Range
	dscp              map[int]hcl.Range
	dscpAttr          hcl.Range
	cos               map[int]hcl.Range
	ecnMin, ecnMax    hcl.Range
	ecnBlock          hcl.Range
	// names are the class's names block, by attribute, and where each is.
	names      map[string]string
	nameRanges map[string]hcl.Range
}

type wdSrc struct {
	block                                   hcl.Range
	detection, restoration, polling, action hcl.Range
}

// decodeQoS types a merged qos body and runs the checks that depend on the
// profile alone.
func decodeQoS(name string, body *Body, decl hcl.Range) (*qosSpec, hcl.Diagnostics) {
	r := &reader{body: body, ctx: &decl}
	spec := &qosSpec{qos: &QoS{Profile: name, Trust: TrustDSCP, PFC: PFC{Mode: PFCOn}}, decl: decl}
	if t, a := r.str("trust"); a != nil {
		if t != TrustDSCP && t != TrustCoS {
			r.diags = append(r.diags, errorf(RuleUnsupportedTrust, "Unsupported trust mode", &a.Range, &decl,
				fmt.Sprintf("trust %q is not known: write trust = \"dscp\" (classify by the IP header's DSCP, the default) or \"cos\" (by the 802.1p priority of the VLAN tag).", t)))
		}
		spec.qos.Trust = t
		spec.trust = a.Range
	}
	var pfc *Block
	for _, b := range body.Blocks {
		switch b.Type {
		case "traffic_class":
			c, src := decodeClass(r, b)
			spec.qos.Classes = append(spec.qos.Classes, c)
			spec.classes = append(spec.classes, src)
		case "pfc":
			pfc = b
		case "names":
			n := decodeNames(r, b, qosNameAttrs)
			spec.qos.Names = Names{Classifier: n["classifier"], Queuing: n["queuing"], NetworkQoS: n["network_qos"], PortProfile: n["port_profile"], Maps: n["maps"]}
		}
	}
	// Duplicates are reported at the later declaration, in source order.
	checkClasses(r, spec)
	sortClasses(spec)
	if pfc != nil {
		decodePFC(r, spec, pfc)
	}
	return spec, r.diags
}

// sortClasses orders the classes by id, keeping their sources parallel.
func sortClasses(spec *qosSpec) {
	idx := make([]int, len(spec.qos.Classes))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return spec.qos.Classes[idx[a]].ID < spec.qos.Classes[idx[b]].ID })
	cs := make([]Class, len(idx))
	ss := make([]classSrc, len(idx))
	for i, j := range idx {
		cs[i], ss[i] = spec.qos.Classes[j], spec.classes[j]
	}
	spec.qos.Classes, spec.classes = cs, ss
}

func decodeClass(parent *reader, b *Block) (Class, classSrc) {
	r := &reader{body: b.Body, ctx: &b.DefRange}
	c := Class{Name: b.Labels[0], Range: b.DefRange}
	src := classSrc{decl: b.DefRange, name: b.DefRange, dscp: map[int]hcl.Range{}}
	defer func() { parent.diags = append(parent.diags, r.diags...) }()

	if id, a, ok := r.integer("id"); ok {
		c.ID, src.id = id, a.Range
		if id < 0 || id > 7 {
			r.diags = append(r.diags, errorf(RuleClassIDRange, "Class id out of range", &a.Range, &b.DefRange,
				fmt.Sprintf("Traffic class %q has id %d. The id is the traffic class, egress queue and PFC priority, so it must be 0 to 7.", c.Name, id)))
		}
	} else if a == nil {
		r.diags = append(r.diags, errorf(RuleMissingAttribute, "Missing class id", &b.DefRange, nil,
			fmt.Sprintf("Traffic class %q has no id. Add id = N (0–7): the traffic class, egress queue and PFC priority.", c.Name)))
		c.ID = -1
	} else {
		c.ID = -1
	}
	if a := r.attr("dscp"); a != nil {
		decodeDSCP(r, &c, &src, a)
		src.dscpAttr = a.Range
	}
	src.cos = map[int]hcl.Range{}
	if a := r.attr("cos"); a != nil {
		decodeCoS(r, &c, &src, a)
	}
	if m, a := r.str("match"); a != nil {
		switch m {
		case "any":
		case "all":
			c.MatchAll = true
		default:
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid match", &a.Range, &b.DefRange,
				fmt.Sprintf("match %q is not known: \"any\" (the default) puts a packet in the class when it matches one of its dscp or cos values, \"all\" only when it matches every criterion given (NX-OS class-map match-all).", m)))
		}
	}
	if l, a := r.boolean("lossless"); a != nil {
		c.Lossless, src.lossless = l, a.Range
	}
	if v, _ := r.boolean("cnp"); v {
		c.CNP = true
	}
	// Scheduling: strict with a level, or DWRR by bandwidth or weight.
	prio, pa := r.str("priority")
	level, la, lok := r.integer("priority_level")
	bw, ba, bok := r.percent("bandwidth")
	wt, wa, wok := r.integer("weight")
	if pa != nil {
		if prio != "strict" {
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid priority", &pa.Range, &b.DefRange,
				fmt.Sprintf("priority %q is not known: the only value is \"strict\" (strict-priority queue). For weighted scheduling set bandwidth = \"N%%\" or weight = N instead.", prio)))
		} else {
			c.Scheduling = Scheduling{Mode: SchedulingStrict, Level: 1}
			src.sched = pa.Range
			if lok {
				if level < 1 || level > 8 {
					r.diags = append(r.diags, errorf(RuleBadValue, "Invalid priority level", &la.Range, &b.DefRange,
						fmt.Sprintf("priority_level %d is outside 1–8 (1 is the highest).", level)))
				}
				c.Scheduling.Level = level
			}
		}
	} else if la != nil {
		r.diags = append(r.diags, errorf(RuleSchedulingMix, "Priority level without strict priority", &la.Range, &b.DefRange,
			"priority_level only applies to a strict-priority class. Add priority = \"strict\" or remove priority_level."))
	}
	if bok {
		if c.Scheduling.Mode == SchedulingStrict {
			r.diags = append(r.diags, errorf(RuleSchedulingMix, "Conflicting scheduling", &ba.Range, &b.DefRange,
				fmt.Sprintf("Traffic class %q is strict priority (set at %s) and also has a bandwidth share. A queue is either strict or weighted: remove one.", c.Name, src.sched)))
		} else {
			if bw <= 0 || bw > 100 {
				r.diags = append(r.diags, errorf(RuleBadValue, "Invalid bandwidth", &ba.Range, &b.DefRange,
					fmt.Sprintf("bandwidth %s is outside 1%%–100%%.", bw)))
			}
			c.Scheduling = Scheduling{Mode: SchedulingDWRR, Bandwidth: bw}
			src.sched = ba.Range
		}
	}
	if wok {
		switch {
		case c.Scheduling.Mode == SchedulingStrict:
			r.diags = append(r.diags, errorf(RuleSchedulingMix, "Conflicting scheduling", &wa.Range, &b.DefRange,
				fmt.Sprintf("Traffic class %q is strict priority (set at %s) and also has a weight. A queue is either strict or weighted: remove one.", c.Name, src.sched)))
		case bok:
			r.diags = append(r.diags, errorf(RuleSchedulingMix, "Conflicting scheduling", &wa.Range, &b.DefRange,
				fmt.Sprintf("Traffic class %q has both a bandwidth share (at %s) and a weight. Give one of them.", c.Name, ba.Range)))
		default:
			if wt < 1 || wt > 100 {
				r.diags = append(r.diags, errorf(RuleBadValue, "Invalid weight", &wa.Range, &b.DefRange,
					fmt.Sprintf("weight %d is outside 1–100.", wt)))
			}
			c.Scheduling = Scheduling{Mode: SchedulingDWRR, Weight: wt}
			src.sched = wa.Range
		}
	}
	if mb, a, ok := r.percent("min_bandwidth"); ok {
		if mb <= 0 || mb > 100 {
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid minimum bandwidth", &a.Range, &b.DefRange,
				fmt.Sprintf("min_bandwidth %s is outside 1%%–100%%: it is the share of the port the queue is guaranteed.", mb)))
		}
		c.Scheduling.MinBandwidth = mb
	}
	if a := r.attr("shape"); a != nil {
		if a.Value.Type() != cty.String {
			r.fail(RuleMissingUnit, "Shape rate without a unit", a, `shape is the queue's maximum rate with its unit, such as "10G" or "500M".`)
		} else if rate, err := units.ParseBitRate(a.Value.AsString()); err != nil {
			r.unitFail(a, "shape", err)
		} else if rate <= 0 {
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid shape", &a.Range, &b.DefRange, "shape is a rate above zero, such as \"10G\"."))
		} else {
			c.Scheduling.Shape = rate
		}
	}
	if a := r.attr("mtu"); a != nil {
		if mtu, ok := mtuValue(a.Value); ok {
			c.MTU, src.mtu = mtu, a.Range
		} else {
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid MTU", &a.Range, &b.DefRange,
				`mtu is the class's largest frame in bytes: a whole number such as 9216, or "9216B".`))
		}
	}
	noRemove(r, b)
	for _, eb := range b.Body.Blocks {
		switch eb.Type {
		case "ecn":
			c.ECN = decodeECN(r, &src, eb)
		case "names":
			n := decodeNames(r, eb, classNameAttrs)
			c.Names = ClassNames{ClassMap: n["class_map"], Scheduler: n["scheduler"], DropProfile: n["drop_profile"]}
			src.names = n
			src.nameRanges = map[string]hcl.Range{}
			for k := range n {
				src.nameRanges[k] = eb.Body.Attrs[k].Range
			}
		}
	}
	if c.Lossless && c.CNP {
		r.diags = append(r.diags, errorf(RuleLosslessCNP, "Lossless CNP class", &src.lossless, &b.DefRange,
			fmt.Sprintf("Traffic class %q carries RoCE congestion notifications (cnp = true) and is lossless. CNPs must never be paused behind the traffic they throttle: remove lossless = true and give the class priority = \"strict\".", c.Name)))
	}
	if c.CNP && c.Scheduling.Mode != SchedulingStrict {
		subj := b.DefRange
		if c.Scheduling.Mode != SchedulingUnset {
			subj = src.sched
		}
		r.diags = append(r.diags, errorf(RuleCNPNotStrict, "CNP class is not strict priority", &subj, &b.DefRange,
			fmt.Sprintf("Traffic class %q carries RoCE congestion notifications, which must overtake queued data to work. Give it priority = \"strict\".", c.Name)))
	}
	if c.Lossless && c.MTU > 0 && c.MTU < RoCEMinMTU {
		r.diags = append(r.diags, errorf(RuleLosslessMTU, "Lossless MTU below the RoCE MTU", &src.mtu, &b.DefRange,
			fmt.Sprintf("Lossless class %q has MTU %d bytes, but a RoCEv2 frame with a 4096-byte payload needs %d bytes. Raise mtu to at least %d (9216 is usual).", c.Name, c.MTU, RoCEMinMTU, RoCEMinMTU)))
	}
	return c, src
}

func mtuValue(v cty.Value) (int, bool) {
	if v.Type() == cty.String {
		b, err := units.ParseBytes(v.AsString())
		if err != nil || b > 1<<20 {
			return 0, false
		}
		return int(b), true
	}
	n, ok := wholeNumber(v)
	return n, ok && n > 0
}

// decodeDSCP reads dscp: "default", a value, or a list of values and
// "A-B" ranges (which may include "default").
func decodeDSCP(r *reader, c *Class, src *classSrc, a *Attr) {
	var elems []hcl.Expression
	if tc, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok {
		for _, e := range tc.Exprs {
			elems = append(elems, e)
		}
	}
	vals := []cty.Value{a.Value}
	if t := a.Value.Type(); t.IsListType() || t.IsTupleType() || t.IsSetType() {
		vals = a.Value.AsValueSlice()
	} else {
		elems = nil
	}
	seen := map[int]bool{}
	for i, v := range vals {
		rng := a.Range
		if len(elems) == len(vals) {
			rng = elems[i].Range()
		}
		bad := func(detail string) {
			r.diags = append(r.diags, errorf(RuleDSCPRange, "Invalid DSCP value", &rng, &c.Range, detail))
		}
		if v.IsNull() {
			continue
		}
		var lo, hi int
		switch {
		case v.Type() == cty.Number:
			n, ok := wholeNumber(v)
			if !ok {
				bad("A DSCP value is a whole number from 0 to 63.")
				continue
			}
			lo, hi = n, n
		case v.Type() == cty.String:
			s := strings.TrimSpace(v.AsString())
			if s == "default" {
				c.Default = true
				continue
			}
			var err error
			lo, hi, err = dscpRange(s)
			if err != nil {
				bad(fmt.Sprintf("%q is not a DSCP value: write a number (24), a range (\"24-31\") or \"default\".", s))
				continue
			}
		default:
			bad("A DSCP value is a number (24), a range (\"24-31\") or \"default\".")
			continue
		}
		if lo < 0 || hi > 63 || lo > hi {
			bad(fmt.Sprintf("DSCP %s is outside 0–63: DSCP is a 6-bit field.", dscpText(lo, hi)))
			continue
		}
		for d := lo; d <= hi; d++ {
			if !seen[d] {
				seen[d] = true
				c.DSCP = append(c.DSCP, d)
				src.dscp[d] = rng
			}
		}
	}
	sort.Ints(c.DSCP)
}

// decodeCoS reads cos: "default", a value, or a list of 802.1p values
// and "A-B" ranges (which may include "default").
func decodeCoS(r *reader, c *Class, src *classSrc, a *Attr) {
	vals := []cty.Value{a.Value}
	if t := a.Value.Type(); t.IsListType() || t.IsTupleType() || t.IsSetType() {
		vals = a.Value.AsValueSlice()
	}
	seen := map[int]bool{}
	for _, v := range vals {
		if v.IsNull() {
			continue
		}
		var lo, hi int
		ok := true
		switch {
		case v.Type() == cty.Number:
			n, whole := wholeNumber(v)
			lo, hi, ok = n, n, whole
		case v.Type() == cty.String && strings.TrimSpace(v.AsString()) == "default":
			c.DefaultCoS = true
			continue
		case v.Type() == cty.String:
			var err error
			lo, hi, err = dscpRange(strings.TrimSpace(v.AsString()))
			ok = err == nil
		default:
			ok = false
		}
		if !ok || lo < 0 || hi > 7 || lo > hi {
			r.diags = append(r.diags, errorf(RuleCoSRange, "Invalid CoS value", &a.Range, &c.Range,
				"A CoS value is the 802.1p priority of the VLAN tag: a whole number from 0 to 7, a range (\"0-2\") or \"default\"."))
			continue
		}
		for d := lo; d <= hi; d++ {
			if !seen[d] {
				seen[d] = true
				c.CoS = append(c.CoS, d)
				src.cos[d] = a.Range
			}
		}
	}
	sort.Ints(c.CoS)
}

func dscpRange(s string) (int, int, error) {
	lo, hi, isRange := strings.Cut(s, "-")
	a, err := strconv.Atoi(strings.TrimSpace(lo))
	if err != nil {
		return 0, 0, err
	}
	if !isRange {
		return a, a, nil
	}
	b, err := strconv.Atoi(strings.TrimSpace(hi))
	if err != nil {
		return 0, 0, err
	}
	return a, b, nil
}

func dscpText(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

func decodeECN(parent *reader, src *classSrc, b *Block) *ECN {
	r := &reader{body: b.Body, ctx: &b.DefRange}
	defer func() { parent.diags = append(parent.diags, r.diags...) }()
	e := &ECN{}
	src.ecnBlock = b.DefRange
	noRemove(r, b)
	minT, mina, minOK := r.threshold("min_threshold")
	maxT, maxa, maxOK := r.threshold("max_threshold")
	if mina == nil {
		r.diags = append(r.diags, errorf(RuleMissingAttribute, "Missing ECN threshold", &b.DefRange, nil,
			`ecn needs min_threshold, a size such as "150KB" or a time at line rate such as "20us".`))
	}
	if maxa == nil {
		r.diags = append(r.diags, errorf(RuleMissingAttribute, "Missing ECN threshold", &b.DefRange, nil,
			`ecn needs max_threshold, a size such as "3000KB" or a time at line rate.`))
	}
	if minOK {
		e.Min, src.ecnMin = minT, mina.Range
	}
	if maxOK {
		e.Max, src.ecnMax = maxT, maxa.Range
	}
	if minOK && maxOK {
		mixedShare(r, b, minT, maxT, mina)
	}
	if minOK && maxOK && sameKind(minT, maxT) && above(minT, maxT) {
		r.diags = append(r.diags, errorf(RuleECNMinAboveMax, "ECN minimum threshold above maximum", &mina.Range, &b.DefRange,
			fmt.Sprintf("min_threshold %s is above max_threshold %s (at %s). Marking starts at the minimum and reaches max_probability at the maximum, so min must not exceed max; min = max gives step marking.", thresholdText(minT), thresholdText(maxT), maxa.Range)))
	}
	if p, a := maxProbability(r, b, "ECN probability out of range", "max_probability is the marking probability at max_threshold in percent: a whole number from 0 to 100 (0 where the vendor takes it; leave it out for the vendor's default)."); a != nil {
		e.MaxProbability = p
	} else {
		// The vendor's default probability (real configs leave it out:
		// EOS random-detect ecn without max-mark-probability).
		e.DefaultProbability = true
	}
	for _, cb := range b.Body.Blocks {
		c := decodeColor(r, cb)
		switch cb.Type {
		case "yellow":
			e.Yellow = c
		case "red":
			e.Red = c
		}
	}
	if w, a, ok := r.integer("weight"); ok {
		if w < 0 || w > 15 {
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid ECN weight", &a.Range, &b.DefRange,
				fmt.Sprintf("weight %d is outside 0–15: it is the exponent of the WRED queue averaging weight.", w)))
		}
		e.Weight = &w
	}
	return e
}

// sameKind reports whether two thresholds are given in one kind (size,
// time, share), so that they compare without a port speed.
func sameKind(a, b Threshold) bool { return kind(a) == kind(b) }

func kind(t Threshold) int {
	switch {
	case t.Percent != 0:
		return 2
	case t.Time != 0:
		return 1
	}
	return 0
}

// above reports whether min is above max; both of one kind.
func above(minT, maxT Threshold) bool {
	return minT.Bytes > maxT.Bytes || minT.Time > maxT.Time || minT.Percent > maxT.Percent
}

func thresholdText(t Threshold) string {
	switch {
	case t.Percent != 0:
		return t.Percent.String()
	case t.Time != 0:
		return t.Time.String()
	}
	return t.Bytes.String()
}

// mixedShare reports a pair of thresholds of which one is a share of the
// queue's limit and the other not: they compare only on the device.
func mixedShare(r *reader, b *Block, minT, maxT Threshold, mina *Attr) {
	if (minT.Percent != 0) != (maxT.Percent != 0) {
		r.diags = append(r.diags, errorf(RuleBadValue, "Thresholds of two kinds", &mina.Range, &b.DefRange,
			"Give min_threshold and max_threshold both as shares of the queue's buffer limit (\"50%\"), or neither."))
	}
}

// probability reads a percentage given as a number (7) or as "7%".
func probability(v cty.Value) (int, bool) {
	if v.Type() == cty.String {
		p, err := units.ParsePercent(v.AsString())
		return int(p), err == nil
	}
	return wholeNumber(v)
}

// checkClasses runs the profile-wide class checks: ids, DSCP overlap, the
// default class, CNP count and the bandwidth sum.
func checkClasses(r *reader, spec *qosSpec) {
	q := spec.qos
	byID := map[int]int{}
	owner := map[int]int{}
	var defaults, cnps []int
	for i, c := range q.Classes {
		src := spec.classes[i]
		if c.ID >= 0 && c.ID <= 7 {
			if j, ok := byID[c.ID]; ok {
				r.diags = append(r.diags, errorf(RuleDuplicateClassID, "Duplicate class id", &src.id, &src.decl,
					fmt.Sprintf("Traffic classes %q and %q both have id %d (the other at %s). Each id is one queue and one PFC priority: give every class its own id.", q.Classes[j].Name, c.Name, c.ID, spec.classes[j].id)))
			} else {
				byID[c.ID] = i
			}
		}
		for _, d := range c.DSCP {
			if j, ok := owner[d]; ok {
				r.diags = append(r.diags, errorf(RuleDuplicateDSCP, "Duplicate DSCP value", ptr(src.dscp[d]), &src.decl,
					fmt.Sprintf("DSCP %d is already mapped to class %q at %s. A DSCP value belongs to one class only: remove it from one of them.", d, q.Classes[j].Name, spec.classes[j].dscp[d])))
				continue
			}
			owner[d] = i
		}
		if c.Default {
			defaults = append(defaults, i)
		}
		if c.CNP {
			cnps = append(cnps, i)
		}
	}
	if q.Trust == TrustCoS {
		checkCoS(r, spec)
		defaults = nil
		for i, c := range q.Classes {
			if len(c.DSCP) > 0 || c.Default {
				r.diags = append(r.diags, errorf(RuleUnsupportedTrust, "DSCP values under CoS trust", &spec.classes[i].dscpAttr, &spec.classes[i].decl,
					fmt.Sprintf("Profile %q trusts CoS (at %s), so the DSCP of class %q would classify nothing. Give the class cos values instead, or trust = \"dscp\".", q.Profile, spec.trust, c.Name)))
			}
		}
	} else if slices.ContainsFunc(q.Classes, func(c Class) bool { return len(c.CoS) > 0 || c.DefaultCoS }) {
		checkCoS(r, spec)
	}
	switch {
	case q.Trust == TrustCoS:
	case len(q.Classes) > 0 && len(defaults) == 0:
		r.diags = append(r.diags, errorf(RuleDefaultClass, "No default class", &spec.decl, nil,
			fmt.Sprintf("No traffic class of profile %q takes the DSCP values the others leave unmapped. Add dscp = \"default\" to one class (usually id 0).", q.Profile)))
	case len(defaults) > 1:
		first := spec.classes[defaults[0]]
		for _, i := range defaults[1:] {
			src := spec.classes[i]
			r.diags = append(r.diags, errorf(RuleDefaultClass, "More than one default class", &src.decl, nil,
				fmt.Sprintf("Traffic class %q takes the default DSCP values, but class %q at %s already does. Exactly one class may say dscp = \"default\".", q.Classes[i].Name, q.Classes[defaults[0]].Name, first.decl)))
		}
	}
	for _, i := range cnps[min(1, len(cnps)):] {
		r.diags = append(r.diags, errorf(RuleCNPCount, "More than one CNP class", &spec.classes[i].decl, nil,
			fmt.Sprintf("Traffic class %q is marked cnp, but class %q at %s already is. RoCE sends its congestion notifications in one class.", q.Classes[i].Name, q.Classes[cnps[0]].Name, spec.classes[cnps[0]].decl)))
	}
	checkSharedNames(r, spec)
	var sum units.Percent
	var shares []string
	var first *hcl.Range
	for i, c := range q.Classes {
		if c.Scheduling.Mode == SchedulingDWRR && c.Scheduling.Bandwidth > 0 {
			sum += c.Scheduling.Bandwidth
			shares = append(shares, fmt.Sprintf("%q %s at %s", c.Name, c.Scheduling.Bandwidth, spec.classes[i].sched))
			if first == nil {
				first = ptr(spec.classes[i].sched)
			}
		}
	}
	// Shares of the remaining bandwidth may sum to less than 100 %: real
	// configs do (Microsoft's Azure Local reference ToR config for Cisco
	// Nexus 93180YC-FX gives queue 3 "bandwidth remaining percent 50"
	// and the default queue 48, Azure/AzureLocal-Supportability,
	// "Disaggregated Switch Storage Design"), and the switches share what
	// is left in proportion. More than 100 % no vendor takes (NX-OS, EOS:
	// the sum is at most 100, reference/nxos.md, reference/eos.md).
	switch {
	case first != nil && sum > 100:
		r.diags = append(r.diags, errorf(RuleBandwidthSum, "Bandwidth shares sum to more than 100%", first, &spec.decl,
			fmt.Sprintf("The weighted classes of profile %q share %s of the bandwidth: %s. The shares of one port cannot exceed 100%%: lower them.", q.Profile, sum, strings.Join(shares, ", "))))
	case first != nil && sum < 100:
		r.diags = append(r.diags, warnf(RuleBandwidthSum, "Bandwidth shares sum to less than 100%", first, &spec.decl,
			fmt.Sprintf("The weighted classes of profile %q share %s of the bandwidth: %s. The switches divide the rest among them in proportion to their shares; make them add up to 100%% if that is not what you mean.", q.Profile, sum, strings.Join(shares, ", "))))
	}
}

func ptr(r hcl.Range) *hcl.Range { return &r }

func decodePFC(parent *reader, spec *qosSpec, b *Block) {
	r := &reader{body: b.Body, ctx: &b.DefRange}
	defer func() { parent.diags = append(parent.diags, r.diags...) }()
	noRemove(r, b)
	if m, a := r.str("mode"); a != nil {
		switch m {
		case PFCOn, PFCOff, PFCAuto:
			spec.qos.PFC.Mode = m
		default:
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid PFC mode", &a.Range, &b.DefRange,
				fmt.Sprintf("mode %q is not known: \"on\" (the default: PFC on the lossless priorities), \"off\" (no PFC on these ports) or \"auto\" (negotiated with the peer by DCBX).", m)))
		}
	}
	if a := r.attr("priorities"); a != nil {
		l, err := convert.Convert(a.Value, cty.List(cty.Number))
		if err != nil || l.IsNull() {
			r.diags = append(r.diags, errorf(RuleBadValue, "Invalid PFC priorities", &a.Range, &b.DefRange, "priorities must be a list of numbers 0–7, for example [3]."))
		} else {
			want := map[int]bool{}
			for _, v := range l.AsValueSlice() {
				n, ok := wholeNumber(v)
				if !ok {
					continue
				}
				want[n] = true
				if c := spec.qos.Class(n); c == nil || !c.Lossless {
					r.diags = append(r.diags, errorf(RulePFCWithoutClass, "PFC priority without a lossless class", &a.Range, &b.DefRange,
						fmt.Sprintf("PFC priority %d has no lossless traffic class: pausing it would pause nothing the intent sends losslessly. Add lossless = true to the class with id %d, or remove %d from priorities.", n, n, n)))
				}
			}
			for i, c := range spec.qos.Classes {
				if c.Lossless && !want[c.ID] {
					r.diags = append(r.diags, errorf(RuleClassWithoutPFC, "Lossless class without PFC priority", &spec.classes[i].lossless, &spec.classes[i].decl,
						fmt.Sprintf("Traffic class %q is lossless, but its priority %d is not in the PFC priorities at %s, so nothing would pause it. Add %d to priorities.", c.Name, c.ID, a.Range, c.ID)))
				}
			}
		}
	}
	for _, wb := range b.Body.Blocks {
		if wb.Type != "watchdog" {
			continue
		}
		wr := &reader{body: wb.Body, ctx: &wb.DefRange}
		noRemove(wr, wb)
		wd := &Watchdog{}
		spec.wd.block = wb.DefRange
		if d, a, ok := wr.duration("detection_time"); ok {
			wd.Detection, spec.wd.detection = d, a.Range
		}
		if d, a, ok := wr.duration("restoration_time"); ok {
			wd.Restoration, spec.wd.restoration = d, a.Range
		}
		if d, a, ok := wr.duration("polling_interval"); ok {
			wd.Polling, spec.wd.polling = d, a.Range
		}
		if s, a := wr.str("action"); a != nil {
			known := false
			for _, k := range watchdogActions {
				known = known || s == k
			}
			if !known {
				wr.diags = append(wr.diags, errorf(RuleWatchdogAction, "Unknown watchdog action", &a.Range, &wb.DefRange,
					fmt.Sprintf("action %q is not known. Use one of %s (each vendor supports a subset).", s, strings.Join(watchdogActions, ", "))))
			}
			wd.Action, spec.wd.action = s, a.Range
		}
		if a := wr.attr("priorities"); a != nil {
			l, err := convert.Convert(a.Value, cty.List(cty.Number))
			if err != nil || l.IsNull() {
				wr.diags = append(wr.diags, errorf(RuleBadValue, "Invalid watchdog priorities", &a.Range, &wb.DefRange, "priorities must be a list of PFC priorities 0–7, for example [3]."))
			} else {
				for _, v := range l.AsValueSlice() {
					n, ok := wholeNumber(v)
					if c := spec.qos.Class(n); !ok || c == nil || !c.Lossless {
						wr.diags = append(wr.diags, errorf(RulePFCWithoutClass, "Watchdog priority without a lossless class", &a.Range, &wb.DefRange,
							fmt.Sprintf("The watchdog watches PFC priorities, and %s is not the id of a lossless class: nothing on it is ever paused.", v.AsBigFloat().Text('f', -1))))
						continue
					}
					wd.Priorities |= 1 << n
				}
			}
		}
		r.diags = append(r.diags, wr.diags...)
		spec.qos.PFC.Watchdog = wd
	}
}

// The attributes of the names blocks, in the order the checks report them.
var (
	qosNameAttrs   = []string{"classifier", "queuing", "network_qos", "port_profile", "maps"}
	classNameAttrs = []string{"class_map", "scheduler", "drop_profile"}
)

// maxNameLen is the longest object name the intent takes: the shortest
// limit of the vendors' object names that the renderers check in full
// is theirs (NX-OS class-map and policy-map names are at most 40
// characters, reference/nxos.md; Huawei CE names at most 31 or 48).
const maxNameLen = 64

// decodeNames reads a names block: each attribute a name of 1 to
// maxNameLen characters from A–Z a–z 0–9 _ - . : (LL009), which every
// vendor takes in an object name and none reads as a separator other
// than SONiC's key separator |, which it excludes.
func decodeNames(parent *reader, b *Block, attrs []string) map[string]string {
	r := &reader{body: b.Body, ctx: &b.DefRange}
	defer func() { parent.diags = append(parent.diags, r.diags...) }()
	out := map[string]string{}
	for _, k := range attrs {
		v, a := r.str(k)
		if a == nil {
			continue
		}
		if why := badName(v); why != "" {
			r.diags = append(r.diags, errorf(RuleBadName, "Invalid object name", &a.Range, &b.DefRange,
				fmt.Sprintf("%s %q %s. A name is 1 to %d characters of letters, digits and _ - . :, as written (case is kept).", k, v, why, maxNameLen)))
			continue
		}
		out[k] = v
	}
	return out
}

// badName says what is wrong with an object name, or "".
func badName(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > maxNameLen:
		return fmt.Sprintf("is %d characters long", len(s))
	}
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_-.:", c)
		if !ok {
			return fmt.Sprintf("has %q", c)
		}
	}
	return ""
}

// noRemove reports a remove attribute left in a body that merges over
// nothing: remove = true only means something in an override, where
// Merge consumes it.
func noRemove(r *reader, b *Block) {
	a := b.Body.Attrs[removeAttr]
	if a == nil {
		return
	}
	if a.Value.Type() != cty.Bool || a.Value.IsNull() {
		r.diags = append(r.diags, errorf(RuleBadValue, "Invalid remove", &a.Range, &b.DefRange,
			"remove is true or false: true in an override removes the inherited block of this type and name."))
		return
	}
	if a.Value.True() {
		r.diags = append(r.diags, errorf(RuleBadValue, "remove outside an override", &a.Range, &b.DefRange,
			fmt.Sprintf("remove = true removes an inherited %s block, so it belongs in a device or port override; here it would remove the block it is written in. Delete the block instead.", b.Type)))
	}
}

// checkSharedNames reports classes that share a class-map name (a
// class-map holds one class's DSCPs), or share a scheduler or drop-profile
// name while what it holds differs: one object cannot hold both (LL038).
func checkSharedNames(r *reader, spec *qosSpec) {
	q := spec.qos
	same := map[string]func(a, b *Class) bool{
		"class_map":    func(a, b *Class) bool { return false },
		"scheduler":    func(a, b *Class) bool { return a.Scheduling == b.Scheduling },
		"drop_profile": func(a, b *Class) bool { return sameECN(a.ECN, b.ECN) },
	}
	for _, k := range classNameAttrs {
		first := map[string]int{}
		for i := range q.Classes {
			n, ok := spec.classes[i].names[k]
			if !ok {
				continue
			}
			j, seen := first[n]
			if !seen {
				first[n] = i
				continue
			}
			if same[k](&q.Classes[j], &q.Classes[i]) {
				continue
			}
			what := "a class-map holds one class's DSCP values"
			if k != "class_map" {
				what = "one object cannot hold both settings: give the classes the same settings or their own names"
			}
			rng := spec.classes[i].nameRanges[k]
			r.diags = append(r.diags, errorf(RuleSharedName, "Shared object name", &rng, &spec.classes[i].decl,
				fmt.Sprintf("Traffic classes %q and %q both name their %s %q (the other at %s), but %s.", q.Classes[j].Name, q.Classes[i].Name, k, n, spec.classes[j].nameRanges[k], what)))
		}
	}
}

func sameECN(a, b *ECN) bool {
	if a == nil || b == nil {
		return a == b
	}
	w := func(p *int) int {
		if p == nil {
			return -1
		}
		return *p
	}
	sameColor := func(x, y *ColorWRED) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	return a.Min == b.Min && a.Max == b.Max && a.MaxProbability == b.MaxProbability && a.DefaultProbability == b.DefaultProbability &&
		w(a.Weight) == w(b.Weight) && sameColor(a.Yellow, b.Yellow) && sameColor(a.Red, b.Red)
}

// checkCoS runs the CoS checks: a CoS value in one class only, and
// exactly one class taking the default CoS values when CoS classifies
// (trust = "cos", or a CoS map beside DSCP trust).
func checkCoS(r *reader, spec *qosSpec) {
	q := spec.qos
	owner := map[int]int{}
	var defaults []int
	for i, c := range q.Classes {
		for _, v := range c.CoS {
			if j, ok := owner[v]; ok {
				rng := spec.classes[i].cos[v]
				r.diags = append(r.diags, errorf(RuleDuplicateCoS, "Duplicate CoS value", &rng, &spec.classes[i].decl,
					fmt.Sprintf("CoS %d is already mapped to class %q. A CoS value belongs to one class only: remove it from one of them.", v, q.Classes[j].Name)))
				continue
			}
			owner[v] = i
		}
		if c.DefaultCoS {
			defaults = append(defaults, i)
		}
	}
	switch {
	case len(q.Classes) > 0 && len(defaults) == 0:
		r.diags = append(r.diags, errorf(RuleDefaultCoS, "No default CoS class", &spec.decl, nil,
			fmt.Sprintf("Profile %q classifies by CoS, but no traffic class takes the CoS values the others leave unmapped. Add cos = \"default\" to one class (usually id 0).", q.Profile)))
	case len(defaults) > 1:
		for _, i := range defaults[1:] {
			r.diags = append(r.diags, errorf(RuleDefaultCoS, "More than one default CoS class", &spec.classes[i].decl, nil,
				fmt.Sprintf("Traffic class %q takes the default CoS values, but class %q already does. Exactly one class may say cos = \"default\".", q.Classes[i].Name, q.Classes[defaults[0]].Name)))
		}
	}
}

// decodeColor reads a yellow or red block of an ecn block: its WRED
// thresholds and probability, all required, and drop.
func decodeColor(parent *reader, b *Block) *ColorWRED {
	r := &reader{body: b.Body, ctx: &b.DefRange}
	defer func() { parent.diags = append(parent.diags, r.diags...) }()
	noRemove(r, b)
	c := &ColorWRED{}
	minT, mina, minOK := r.threshold("min_threshold")
	maxT, maxa, maxOK := r.threshold("max_threshold")
	for _, m := range []struct {
		a    *Attr
		name string
	}{{mina, "min_threshold"}, {maxa, "max_threshold"}} {
		if m.a == nil {
			r.diags = append(r.diags, errorf(RuleMissingAttribute, "Missing WRED threshold", &b.DefRange, nil,
				fmt.Sprintf("%s needs %s, a size such as \"1MB\" or a time at line rate.", b.Type, m.name)))
		}
	}
	if minOK {
		c.Min = minT
	}
	if maxOK {
		c.Max = maxT
	}
	if minOK && maxOK {
		mixedShare(r, b, minT, maxT, mina)
	}
	if minOK && maxOK && sameKind(minT, maxT) && above(minT, maxT) {
		r.diags = append(r.diags, errorf(RuleECNMinAboveMax, "WRED minimum threshold above maximum", &mina.Range, &b.DefRange,
			fmt.Sprintf("min_threshold %s is above max_threshold %s of %s packets.", thresholdText(minT), thresholdText(maxT), b.Type)))
	}
	if p, a := maxProbability(r, b, "WRED probability out of range", "max_probability is the marking (or drop) probability at max_threshold in percent: a whole number from 0 to 100."); a != nil {
		c.MaxProbability = p
	} else {
		r.diags = append(r.diags, errorf(RuleMissingAttribute, "Missing WRED probability", &b.DefRange, nil,
			fmt.Sprintf("%s needs max_probability, in percent (0–100).", b.Type)))
	}
	if d, a := r.boolean("drop"); a != nil {
		c.Drop = d
	}
	return c
}

// maxProbability reads max_probability, 0–100 (LL022 with summary and
// detail otherwise); a is nil when the block has none.
func maxProbability(r *reader, b *Block, summary, detail string) (units.Percent, *Attr) {
	a := r.attr("max_probability")
	if a == nil {
		return 0, nil
	}
	p, ok := probability(a.Value)
	if !ok || p < 0 || p > 100 {
		r.diags = append(r.diags, errorf(RuleECNProbability, summary, &a.Range, &b.DefRange, detail))
		return 0, a
	}
	return units.Percent(p), a
}
