package intent

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
)

// checkPlatform runs the checks that depend on a QoS profile and the
// device's platform and vendor, once per combination.
func (r *resolver) checkPlatform(d *Device, spec *qosSpec, job deviceJob) {
	plat := d.Platform
	r.checkWatchdog(d, spec)
	k := checkKey{spec: spec, buffers: d.Buffers.Profile, plat: r.keyOf(plat)}
	if r.checked[k] {
		return
	}
	r.checked[k] = true
	on := fmt.Sprintf("device %q (platform %s)", d.Name, plat.Model)
	n := 0
	for i, c := range spec.qos.Classes {
		src := spec.classes[i]
		if c.Lossless {
			n++
			if plat.MaxLossless > 0 && n == plat.MaxLossless+1 {
				r.diags.add(errorf(RuleTooManyLossless, "Too many lossless classes", &src.lossless, &src.decl,
					fmt.Sprintf("Profile %q has %d lossless classes, but %s supports at most %d. Make class %q lossy, or give this platform a profile with fewer lossless classes.", spec.qos.Profile, len(spec.qos.LosslessPriorities()), on, plat.MaxLossless, c.Name)))
			}
			if len(plat.PFCPriorities) > 0 && !slices.Contains(plat.PFCPriorities, c.ID) {
				r.diags.add(errorf(RulePFCPriorityPlat, "PFC priority not supported by the platform", &src.id, &src.decl,
					fmt.Sprintf("Lossless class %q uses PFC priority %d, but %s can pause only priorities %s. Move the class to one of those ids.", c.Name, c.ID, on, intList(plat.PFCPriorities))))
			}
		}
		if c.MTU > 0 && (c.MTU < plat.MTUMin || plat.MTUMax > 0 && c.MTU > plat.MTUMax) {
			r.diags.add(errorf(RuleMTUPlatform, "MTU outside the platform's range", &src.mtu, &src.decl,
				fmt.Sprintf("Class %q has MTU %d bytes, but %s accepts %d to %d.", c.Name, c.MTU, on, plat.MTUMin, plat.MTUMax)))
		}
		if c.ECN != nil {
			capacity, what := plat.Buffer, fmt.Sprintf("the %s buffer of %s", plat.Buffer, on)
			if c.Lossless && d.Buffers.LosslessPool > 0 {
				capacity, what = d.Buffers.LosslessPool, fmt.Sprintf("the %s lossless pool of buffer profile %q", d.Buffers.LosslessPool, d.Buffers.Profile)
			} else if !c.Lossless && d.Buffers.LossyPool > 0 {
				capacity, what = d.Buffers.LossyPool, fmt.Sprintf("the %s lossy pool of buffer profile %q", d.Buffers.LossyPool, d.Buffers.Profile)
			}
			for _, t := range []struct {
				v   Threshold
				rng hcl.Range
				n   string
			}{{c.ECN.Min, src.ecnMin, "min_threshold"}, {c.ECN.Max, src.ecnMax, "max_threshold"}} {
				if t.v.Bytes > capacity {
					r.diags.add(errorf(RuleECNAboveCapacity, "ECN threshold above the queue capacity", &t.rng, &src.ecnBlock,
						fmt.Sprintf("Class %q has %s %s, more than %s, so the queue could never reach it and ECN would never mark. Lower the threshold.", c.Name, t.n, t.v.Bytes, what)))
				}
			}
		}
	}
}

// checkWatchdog checks the watchdog against the ranges and actions the
// platform's catalog entry gives, once per profile and set of limits.
func (r *resolver) checkWatchdog(d *Device, spec *qosSpec) {
	lim := d.Platform.Watchdog
	wd := spec.qos.PFC.Watchdog
	if wd == nil || lim == nil {
		return
	}
	k := checkKey{spec: spec, watchdog: r.watchdogKey(lim)}
	if r.checked[k] {
		return
	}
	r.checked[k] = true
	on := fmt.Sprintf("device %q (platform %s)", d.Name, d.Platform.Model)
	for _, t := range []struct {
		name string
		v    time.Duration
		rng  hcl.Range
		lim  platform.Window
	}{
		{"detection_time", wd.Detection, spec.wd.detection, lim.Detection},
		{"restoration_time", wd.Restoration, spec.wd.restoration, lim.Restoration},
		{"polling_interval", wd.Polling, spec.wd.polling, lim.Polling},
	} {
		if t.v == 0 || !t.lim.Set() {
			continue
		}
		if !t.lim.Contains(t.v) {
			r.diags.add(errorf(RuleWatchdogRange, "Watchdog time outside the vendor's range", &t.rng, &spec.wd.block,
				fmt.Sprintf("%s %s is outside %s–%s, the range %s accepts (%s). Choose a value in that range, or give this vendor its own override.", t.name, t.v, t.lim.Min, t.lim.Max, on, lim.Source)))
		}
	}
	if wd.Action != "" && !slices.Contains(lim.Actions, wd.Action) {
		r.diags.add(errorf(RuleWatchdogAction, "Watchdog action not supported by the vendor", &spec.wd.action, &spec.wd.block,
			fmt.Sprintf("action %q is not available on %s (%s); it supports %s.", wd.Action, on, d.Vendor, strings.Join(lim.Actions, ", "))))
	}
}

// checkBuffers checks that the pools fit the platform buffer.
func (r *resolver) checkBuffers(d *Device, b *bufSpec, _ *qosSpec) {
	k := checkKey{spec: b, plat: r.keyOf(d.Platform)}
	if r.checked[k] {
		return
	}
	r.checked[k] = true
	total := d.Buffers.LosslessPool + d.Buffers.LossyPool + d.Buffers.HeadroomPool
	if total <= d.Platform.Buffer {
		return
	}
	// Point at the pool written last, the one that tipped the sum over.
	subj := b.decl
	last := -1
	for _, pv := range []poolValue{b.hdrmPool, b.lossy, b.lossless} {
		if pv.set && pv.rng.Start.Byte > last {
			subj, last = pv.rng, pv.rng.Start.Byte
		}
	}
	r.diags.add(errorf(RulePoolOverflow, "Buffer pools larger than the platform buffer", &subj, &b.decl,
		fmt.Sprintf("Buffer profile %q asks for %s of pools (lossless %s, lossy %s, headroom %s), but device %q (platform %s) has %s of buffer. Shrink the pools or give them as shares (\"40%%\").",
			b.name, total, d.Buffers.LosslessPool, d.Buffers.LossyPool, d.Buffers.HeadroomPool, d.Name, d.Platform.Model, d.Platform.Buffer)))
}

func intList(l []int) string {
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

// port returns the managed port at a link end, or nil.
func (r *resolver) port(e inventory.Endpoint) *Port {
	d := r.devByName[e.Device]
	if d == nil {
		return nil
	}
	i, ok := slices.BinarySearchFunc(d.Ports, e.Port, func(p Port, n string) int { return inventory.ComparePorts(p.Name, n) })
	if !ok {
		return nil
	}
	return &d.Ports[i]
}

// linkPorts sets each managed port's Peer and checks that both managed
// ends of every link agree on what crosses it: trust mode, DSCP→TC map,
// lossless priorities and the MTU of each lossless class.
func (r *resolver) linkPorts() {
	for _, l := range r.inv.Links {
		a, b := r.port(l.A), r.port(l.B)
		if a != nil && a.Peer == "" {
			a.Peer = l.B.String()
		}
		if b != nil && b.Peer == "" {
			b.Peer = l.A.String()
		}
		if a == nil || b == nil || a.QoS == b.QoS {
			continue
		}
		qa, qb := a.QoS, b.QoS
		ends := fmt.Sprintf("%s (profile %q) and %s (profile %q)", l.A, qa.Profile, l.B, qb.Profile)
		subj := l.DeclRange
		if qa.Trust != qb.Trust {
			r.diags.add(errorf(RuleLinkTrust, "Link ends disagree on trust mode", &subj, nil,
				fmt.Sprintf("%s trust %q and %q. Both ends must classify the same way.", ends, qa.Trust, qb.Trust)))
		}
		// The map that classifies: DSCP's, or CoS's when both trust CoS
		// (ends that trust differently are LL050 already).
		field, ma, mb := "DSCP", dscpMap(qa), dscpMap(qb)
		if qa.Trust == TrustCoS {
			field, ma, mb = "CoS", cosMap(qa), cosMap(qb)
		}
		var diffs []string
		first := -1
		for v := range ma {
			if qa.Trust == qb.Trust && ma[v] != mb[v] {
				if first < 0 {
					first = v
				}
				diffs = append(diffs, fmt.Sprintf("%s %d → TC %d vs %d", field, v, ma[v], mb[v]))
			}
		}
		if len(diffs) > 0 {
			if len(diffs) > 4 {
				diffs = append(diffs[:4], fmt.Sprintf("and %d more", len(diffs)-4))
			}
			r.diags.add(errorf(RuleLinkDSCPMap, "Link ends disagree on the "+field+" map", &subj, nil,
				fmt.Sprintf("%s map %s to traffic classes differently: %s. Traffic would change class, and lose its lossless treatment, as it crosses the link. Use the same %s sets on both ends (%s %d: %s on one end, %s on the other).",
					ends, field, strings.Join(diffs, ", "), field, field, first, classOf(qa, ma[first]), classOf(qb, mb[first]))))
		}
		la, lb := qa.LosslessPriorities(), qb.LosslessPriorities()
		if !slices.Equal(la, lb) {
			r.diags.add(errorf(RuleLinkLossless, "Link ends disagree on lossless priorities", &subj, nil,
				fmt.Sprintf("%s have lossless priorities [%s] and [%s]. PFC only works when both ends pause the same priorities.", ends, intList(la), intList(lb))))
		}
		for _, ca := range qa.Classes {
			cb := qb.Class(ca.ID)
			if !ca.Lossless || cb == nil || !cb.Lossless || ca.MTU == cb.MTU {
				continue
			}
			r.diags.add(errorf(RuleLinkMTU, "Link ends disagree on a lossless MTU", &subj, nil,
				fmt.Sprintf("%s give lossless priority %d MTU %s and %s (classes at %s and %s). Headroom is sized for the MTU, so a larger frame from the peer can overflow it: use one MTU.", ends, ca.ID, mtuText(ca.MTU), mtuText(cb.MTU), ca.Range, cb.Range)))
		}
	}
}

// classOf names the class with the given id and where it is declared.
func classOf(q *QoS, id int) string {
	if c := q.Class(id); c != nil {
		return fmt.Sprintf("class %q at %s", c.Name, c.Range)
	}
	return "no class"
}

func mtuText(m int) string {
	if m == 0 {
		return "the vendor default"
	}
	return units.Bytes(m).String()
}

// cosMap returns the traffic class of every CoS value, as dscpMap; the
// slots past 7 are -1 on both ends.
func cosMap(q *QoS) [64]int {
	var m [64]int
	def := -1
	for _, c := range q.Classes {
		if c.DefaultCoS {
			def = c.ID
		}
	}
	for i := range m {
		m[i] = -1
		if i < 8 {
			m[i] = def
		}
	}
	for _, c := range q.Classes {
		for _, v := range c.CoS {
			if v >= 0 && v < 8 {
				m[v] = c.ID
			}
		}
	}
	return m
}

// dscpMap returns the traffic class of every DSCP value: its class, or the
// default class, or -1 when the profile has no default.
func dscpMap(q *QoS) [64]int {
	var m [64]int
	def := -1
	if c := q.DefaultClass(); c != nil {
		def = c.ID
	}
	for i := range m {
		m[i] = def
	}
	for _, c := range q.Classes {
		for _, d := range c.DSCP {
			if d >= 0 && d < 64 {
				m[d] = c.ID
			}
		}
	}
	return m
}
