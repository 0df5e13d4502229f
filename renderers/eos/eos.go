// Package eos renders one device's desired state as Arista EOS
// running-config text: per-interface trust, PFC, PFC watchdog and tx-queue
// blocks (reference/eos.md §1a) or the same lines in a `qos profile`
// applied with `service-profile` (§1b, option "eos.style" = "qos-profile"),
// the global DSCP → traffic-class map and the global PFC watchdog timers.
// Option "eos.tx-queue" = "uc-tx-queue" writes unicast queue blocks for
// platforms that have them; "eos.default-map" = "explicit" maps the DSCPs
// no class claims to the default class; "eos.trust" = "port-default"
// leaves the `qos trust dscp` line out, "interface" writes it beside each
// port's service-profile rather than in the profile. The qos profile is
// named by the intent's names.port_profile. Beyond the core it renders trust = "cos"
// (`qos trust cos`, `qos map cos`), min_bandwidth (`bandwidth guaranteed
// percent`), shape (`shape rate N kbps`), pfc mode "off" (`no
// priority-flow-control`) and ECN without max_probability, in AVD's
// forms (vendors/eos Features), and a port's own watchdog action and
// timers in its qos profile (`priority-flow-control pause watchdog port
// action|timer`, portWatchdog). It does no I/O.
package eos

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/renderers"
)

// Vendor is the name EOS devices carry in the inventory.
const Vendor = "eos"

// Options this renderer reads from intent.Device.Options.
const (
	// OptionStyle chooses the layout: StyleInterface (default) or
	// StyleQoSProfile.
	OptionStyle = "eos.style"
	// StyleInterface writes the QoS lines under each interface (§1a).
	StyleInterface = "interface"
	// StyleQoSProfile writes them once per profile in `qos profile NAME`
	// and applies it with `service-profile NAME` (§1b). NAME is the
	// profile's names.port_profile, by default its name in upper case.
	StyleQoSProfile = "qos-profile"

	// OptionQueue names the egress queue sub-mode: "tx-queue" (default)
	// or "uc-tx-queue", which platforms with separate unicast queues
	// (Trident/Tomahawk 7050X3, 7060X…) take instead (reference/eos.md
	// §1a, §7 [C:avd, T:rocm, T:blog36]). Which platforms need it is not
	// in the platform catalog, so the intent says it.
	OptionQueue = "eos.tx-queue"

	// OptionDefaultMap says where the DSCPs no class claims go: "eos"
	// (default) leaves them on EOS's default DSCP map, as the canonical
	// rendering of reference/eos.md §1a does, and warns which of them miss
	// the default class; "explicit" maps every one of them to the default
	// class with `qos map dscp … to traffic-class N` (one line, as AVD's
	// test data writes 44 values on one line, reference/eos.md §2.1), so
	// the switch does what the intent says. The line holds the values
	// EOS's default map already sends there too: the rendering then holds
	// all 64 values, and the driver owns each of them (a value someone
	// moved elsewhere comes back), while EOS may show those at their
	// default or not (§2.1), which the driver reads as the same.
	OptionDefaultMap = "eos.default-map"

	// OptionTrust says whether ports and qos profiles carry the `qos
	// trust dscp` line: "dscp" (default) writes it; "port-default"
	// leaves it out, so that each port keeps its own default trust;
	// "interface" (TrustInterface) moves it from the qos profile to the
	// interfaces that apply it. EOS
	// shows a trust line exactly where one is configured, whatever the
	// port's default: a real show running-config (rwa02.str15,
	// DCS-7804-CH, EOS-4.34.2.1F, public in the corpus) shows `qos trust
	// dscp` on a routed Port-Channel and none on a routed Port-Channel
	// configured without it, and AVD writes `qos trust` only where its
	// model sets trust (qos-profiles.j2, ethernet-interfaces.j2). A
	// fabric configured without the line (AVD's, relying on the default)
	// therefore keeps that shape only with "port-default", which `lossless
	// import` sets. The default trust is DSCP on routed ports only, CoS on
	// switchports (reference/eos.md §3 [T:blog36]), so the renderer warns.
	OptionTrust = "eos.trust"
	// TrustPortDefault is the OptionTrust value that writes no trust line.
	TrustPortDefault = "port-default"
	// TrustInterface is the OptionTrust value that, in the qos-profile
	// style, writes the trust line under each interface after its
	// `service-profile` rather than in the qos profile, as the [blog36]
	// fabric of reference/eos.md §8 configures its spine and leaf ports
	// (`service-profile ROCE-SPINE`, then `qos trust dscp` on the
	// interface; corpus blog-roce-spine). In the interface style it is the
	// default "dscp".
	TrustInterface = "interface"
)

const (
	optionPrefix = "eos."
	indent       = "   " // 3 spaces per level [C:avd] (reference/eos.md §1a)
	separator    = "!"
	// controlTC is reserved for control traffic on EOS (reference/eos.md
	// §3, `qos map traffic-class`, [T:blog36]).
	controlTC = 7
)

// Watchdog timer limits in seconds as EOS takes them (reference/eos.md §3,
// [T:blog36]) and the granularity AVD renders them with: 2 decimals for
// timeout and recovery-time, 3 for polling-interval [C:avd].
const (
	timerMin, timerMax     = 10 * time.Millisecond, 60 * time.Second
	timerStep              = 10 * time.Millisecond
	pollingMin, pollingMax = 5 * time.Millisecond, 30 * time.Second
	pollingStep            = time.Millisecond
)

// Render returns d's EOS configuration. ECN thresholds are written in
// kbytes (1024 B); a value that is not whole kbytes is rounded up and
// reported in Document.Warnings, as is a watchdog time finer than EOS
// takes. A feature EOS cannot express is a *renderers.UnsupportedError.
func Render(d *intent.Device) (*config.Document, error) {
	r := &renderer{d: d}
	groups, err := r.render()
	if err != nil {
		return nil, err
	}
	doc := &config.Document{Device: d.Name, Format: config.CLI, Warnings: r.warnings}
	var b strings.Builder
	b.Grow(size(groups))
	for i, g := range groups {
		if i > 0 {
			b.WriteString(separator + "\n")
		}
		for _, n := range g {
			doc.Tree = append(doc.Tree, n)
			writeNode(&b, n, 0)
		}
	}
	doc.Text = []byte(b.String())
	return doc, nil
}

// size is the length of the text of groups, for one allocation.
func size(groups [][]*config.Node) int {
	var nodeSize func(n *config.Node, depth int) int
	nodeSize = func(n *config.Node, depth int) int {
		s := depth*len(indent) + len(n.Text) + 1
		for _, c := range n.Children {
			s += nodeSize(c, depth+1) + (depth+1)*len(indent) + len(separator) + 1
		}
		return s
	}
	total := 0
	for _, g := range groups {
		total += len(separator) + 1
		for _, n := range g {
			total += nodeSize(n, 0)
		}
	}
	return total
}

// writeNode prints n the way EOS does: a `!` line, at the child's
// indentation, before each child block (tx-queue) and before the first
// line after a block [C:avd] (reference/eos.md §1a, §1b).
func writeNode(b *strings.Builder, n *config.Node, depth int) {
	b.WriteString(strings.Repeat(indent, depth))
	b.WriteString(n.Text)
	b.WriteByte('\n')
	for i, c := range n.Children {
		if len(c.Children) > 0 || (i > 0 && len(n.Children[i-1].Children) > 0) {
			b.WriteString(strings.Repeat(indent, depth+1) + separator + "\n")
		}
		writeNode(b, c, depth+1)
	}
}

func node(text string, children ...*config.Node) *config.Node {
	return &config.Node{Text: text, Children: children}
}

type renderer struct {
	d        *intent.Device
	queue    string // "tx-queue" or "uc-tx-queue" (OptionQueue)
	explicit bool   // map unclaimed DSCPs to the default class (OptionDefaultMap)
	noTrust  bool   // write no `qos trust` line (OptionTrust)
	ifTrust  bool   // the trust line under the interface, not in its qos profile (OptionTrust)
	warnings []config.Warning
}

func (r *renderer) unsupported(feature, format string, args ...any) error {
	return &renderers.UnsupportedError{Device: r.d.Name, Vendor: Vendor, Feature: feature, Reason: fmt.Sprintf(format, args...)}
}

// warnf records a warning once: ports that share a profile would
// otherwise repeat it.
func (r *renderer) warnf(rule, format string, args ...any) {
	w := config.Warning{Rule: rule, Device: r.d.Name, Message: fmt.Sprintf(format, args...)}
	if !slices.Contains(r.warnings, w) {
		r.warnings = append(r.warnings, w)
	}
}

func (r *renderer) render() ([][]*config.Node, error) {
	d := r.d
	if d.QoS == nil {
		return nil, r.unsupported("QoS", "the device has no QoS profile assigned")
	}
	style, err := r.options()
	if err != nil {
		return nil, err
	}
	if err := r.checkBuffers(); err != nil {
		return nil, err
	}

	// Profiles in use: the device's, then each port's own, first use first.
	profiles := []*intent.QoS{d.QoS}
	portsOf := map[*intent.QoS][]intent.Port{}
	for _, p := range d.Ports {
		q := portQoS(d, p)
		if !slices.Contains(profiles, q) {
			profiles = append(profiles, q)
		}
		portsOf[q] = append(portsOf[q], p)
	}
	for _, q := range profiles {
		if err := r.checkProfile(q); err != nil {
			return nil, err
		}
	}

	// The DSCP map is global on EOS: every profile on the device must
	// agree on it. The watchdog timers and action are global too, from
	// the first profile with a watchdog; a qos profile whose watchdog
	// differs says its own with the per-port lines (portWatchdog).
	qosMap := r.qosMap(d.QoS)
	wd := d.QoS.PFC.Watchdog
	for _, q := range profiles[1:] {
		if m := r.qosMap(q); !slices.EqualFunc(m, qosMap, func(a, b *config.Node) bool { return a.Text == b.Text }) {
			return nil, r.unsupported("DSCP map of profile "+q.Profile, "it maps DSCP differently from profile %q, but EOS has one system-wide `qos map dscp` (reference/eos.md §0)", d.QoS.Profile)
		}
		if wd == nil {
			wd = q.PFC.Watchdog
		}
	}
	portWD := map[*intent.QoS][]*config.Node{}
	for _, q := range profiles {
		lines, err := r.portWatchdog(q, wd, style)
		if err != nil {
			return nil, err
		}
		portWD[q] = lines
	}

	if !r.explicit {
		for _, q := range profiles {
			r.warnDefaultMap(q)
		}
	}

	var groups [][]*config.Node
	if style == StyleQoSProfile {
		names := map[*intent.QoS]string{}
		byName := map[string]*intent.QoS{}
		var sorted []string
		for _, q := range profiles {
			if len(portsOf[q]) == 0 {
				continue
			}
			name := r.profileName(q, portsOf[q])
			if prev, dup := byName[name]; dup && prev != q {
				return nil, r.nameClash(name, prev, q, portsOf)
			}
			byName[name], names[q] = q, name
			sorted = append(sorted, name)
		}
		sort.Strings(sorted)
		for _, name := range sorted {
			q := byName[name]
			speed := r.sharedSpeed(q, portsOf[q])
			// Profile child order: trust, tx-queues, then the PFC lines
			// [C:avd qos-profiles.j2] (reference/eos.md §1b).
			prof := node("qos profile " + name)
			if !r.ifTrust {
				prof.Children = append(prof.Children, r.trust(q)...)
			}
			queues, err := r.txQueues(q, speed)
			if err != nil {
				return nil, err
			}
			prof.Children = append(prof.Children, queues...)
			prof.Children = append(prof.Children, r.pfc(q, portWD[q])...)
			groups = append(groups, []*config.Node{prof})
		}
		for _, p := range d.Ports {
			q := portQoS(d, p)
			port := node("interface "+p.Name, node("service-profile "+names[q]))
			if r.ifTrust {
				// After service-profile, as EOS prints an interface
				// (reference/eos.md §2.1; corpus blog-roce-spine).
				port.Children = append(port.Children, r.trust(q)...)
			}
			groups = append(groups, []*config.Node{port})
		}
	} else {
		// Ports with the same profile and speed share their (read-only)
		// child nodes: a 64-port switch renders its lines once per speed.
		type key struct {
			q     *intent.QoS
			speed units.BitRate
		}
		shared := map[key][]*config.Node{}
		for _, p := range d.Ports {
			q := portQoS(d, p)
			children, ok := shared[key{q, p.Speed}]
			if !ok {
				// Interface child order: trust, PFC, tx-queue blocks
				// [C:avd ethernet-interfaces.j2] (reference/eos.md §2.1).
				children = append(r.trust(q), r.pfc(q, portWD[q])...)
				queues, err := r.txQueues(q, portSpeed{speed: p.Speed, port: p.Name})
				if err != nil {
					return nil, err
				}
				children = append(children, queues...)
				shared[key{q, p.Speed}] = children
			}
			groups = append(groups, []*config.Node{node("interface "+p.Name, children...)})
		}
	}
	if len(qosMap) > 0 {
		groups = append(groups, qosMap)
	}
	if wd != nil {
		lines, err := r.watchdog(wd)
		if err != nil {
			return nil, err
		}
		if len(lines) > 0 {
			groups = append(groups, lines)
		}
	}
	return groups, nil
}

func portQoS(d *intent.Device, p intent.Port) *intent.QoS {
	if p.QoS != nil {
		return p.QoS
	}
	return d.QoS
}

// options reads the eos.* options: the layout and the queue keyword.
func (r *renderer) options() (style string, err error) {
	keys := make([]string, 0, len(r.d.Options))
	for k := range r.d.Options {
		if strings.HasPrefix(k, optionPrefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	style, r.queue = StyleInterface, "tx-queue"
	for _, k := range keys {
		v := r.d.Options[k]
		switch {
		case k == OptionStyle && (v == StyleInterface || v == StyleQoSProfile):
			style = v
		case k == OptionStyle:
			return "", r.unsupported("option "+strconv.Quote(k), "value %q is neither %q nor %q", v, StyleInterface, StyleQoSProfile)
		case k == OptionQueue && (v == "tx-queue" || v == "uc-tx-queue"):
			r.queue = v
		case k == OptionQueue:
			return "", r.unsupported("option "+strconv.Quote(k), "value %q is neither \"tx-queue\" nor \"uc-tx-queue\"", v)
		case k == OptionDefaultMap && (v == "eos" || v == "explicit"):
			r.explicit = v == "explicit"
		case k == OptionDefaultMap:
			return "", r.unsupported("option "+strconv.Quote(k), "value %q is neither \"eos\" nor \"explicit\"", v)
		case k == OptionTrust && (v == "dscp" || v == TrustPortDefault || v == TrustInterface):
			r.noTrust, r.ifTrust = v == TrustPortDefault, v == TrustInterface
		case k == OptionTrust:
			return "", r.unsupported("option "+strconv.Quote(k), "value %q is none of \"dscp\", %q and %q", v, TrustPortDefault, TrustInterface)
		default:
			return "", r.unsupported("option "+strconv.Quote(k), "the EOS renderer knows only %q, %q, %q and %q", OptionStyle, OptionQueue, OptionDefaultMap, OptionTrust)
		}
	}
	return style, nil
}

// checkBuffers rejects buffer settings this renderer cannot express. EOS
// buffer tuning is the platform-specific `platform trident mmu queue
// profile` (reference/eos.md §3), whose keywords vary by ASIC family.
func (r *renderer) checkBuffers() error {
	b := r.d.Buffers
	if b == nil {
		return nil
	}
	const why = "EOS buffer tuning is the ASIC-specific `platform trident mmu queue profile` (reference/eos.md §3, §7), which this renderer does not write; leave buffers to the switch (headroom = \"auto\", no pool sizes) on EOS devices"
	switch {
	case b.LosslessPool != 0:
		return r.unsupported("lossless pool size", why)
	case b.LossyPool != 0:
		return r.unsupported("lossy pool size", why)
	case b.HeadroomPool != 0:
		return r.unsupported("headroom pool size", why)
	case b.Alpha != nil:
		return r.unsupported("buffer alpha", why)
	case !b.Headroom.Auto && (b.Headroom.Xoff != 0 || b.Headroom.Xon != 0):
		return r.unsupported("explicit headroom", why)
	}
	return nil
}

// checkProfile rejects what EOS cannot express in one profile.
func (r *renderer) checkProfile(q *intent.QoS) error {
	if q.Trust != "" && q.Trust != intent.TrustDSCP && q.Trust != intent.TrustCoS {
		return r.unsupported("trust "+strconv.Quote(q.Trust), "EOS trusts dscp or cos (`qos trust {dscp|cos}`, reference/eos.md §3 [C:avd])")
	}
	if q.PFC.Mode == intent.PFCAuto {
		// EOS negotiates PFC by DCBX (`dcbx mode ieee`, reference/eos.md
		// §3) but no source read gives a per-port "auto" PFC form.
		return r.unsupported("pfc mode \"auto\"", "no EOS source read gives a PFC mode negotiated by DCBX (reference/eos.md §3 has `priority-flow-control on` and `no priority-flow-control` only); use \"on\" or \"off\"")
	}
	lossless := q.LosslessPriorities()
	if pl := r.d.Platform; pl != nil {
		if pl.MaxLossless > 0 && len(lossless) > pl.MaxLossless {
			return r.unsupported("lossless classes", "%d lossless classes (priorities %s) exceed the %d that %s supports", len(lossless), joinInts(lossless, ", "), pl.MaxLossless, pl.Model)
		}
		for _, p := range lossless {
			if len(pl.PFCPriorities) > 0 && !slices.Contains(pl.PFCPriorities, p) {
				return r.unsupported(fmt.Sprintf("PFC priority %d", p), "%s runs PFC on priorities %s only", pl.Model, joinInts(pl.PFCPriorities, ", "))
			}
		}
	}
	var strict []intent.Class
	for _, c := range q.Classes {
		switch {
		case c.ID < 0 || c.ID > controlTC:
			return r.unsupported("class "+c.Name, "traffic class %d is outside 0–7", c.ID)
		case c.ID == controlTC:
			return r.unsupported("class "+c.Name, "traffic class 7 (tx-queue 7) is reserved for control traffic on EOS (reference/eos.md §3); use 6 or lower on EOS devices")
		case c.MTU != 0:
			return r.unsupported("MTU of class "+c.Name, "EOS has no per-class MTU, only the interface `mtu` (reference/eos.md §1a), which lossless does not manage; leave mtu unset for EOS devices")
		case c.Scheduling.Mode == intent.SchedulingDWRR && c.Scheduling.Weight != 0:
			return r.unsupported("DWRR weight of class "+c.Name, "EOS shares tx-queue bandwidth by `bandwidth percent`, not by weight; give the class a bandwidth percentage")
		case c.Scheduling.Mode == intent.SchedulingDWRR && (c.Scheduling.Bandwidth < 0 || c.Scheduling.Bandwidth > 100):
			return r.unsupported("bandwidth of class "+c.Name, "%s is outside 1–100%%", c.Scheduling.Bandwidth)
		case c.Scheduling.MinBandwidth > 0 && c.Scheduling.Mode == intent.SchedulingDWRR:
			// AVD's tx-queue template writes `bandwidth percent` or else
			// `bandwidth guaranteed percent`, never both on one queue
			// (ethernet-interface-tx-queues.j2 at AVD v5.0, an `elif`):
			// no source shows EOS taking both.
			return r.unsupported("min_bandwidth of class "+c.Name, "EOS configures a tx-queue with `bandwidth percent` (its round-robin share) or `bandwidth guaranteed percent`, and no source shows both on one queue (AVD ethernet-interface-tx-queues.j2); give the weighted class no min_bandwidth, or make it strict")
		case c.Scheduling.MinBandwidth < 0 || c.Scheduling.MinBandwidth > 100:
			return r.unsupported("min_bandwidth of class "+c.Name, "%s is outside 1–100%%", c.Scheduling.MinBandwidth)
		case c.Scheduling.Shape < 0 || c.Scheduling.Shape%units.BitRate(1000) != 0:
			return r.unsupported("shape of class "+c.Name, "EOS shapes a tx-queue in whole kbps (`shape rate N kbps`, AVD qos_profiles schema)")
		}
		if c.Scheduling.Mode == intent.SchedulingStrict {
			strict = append(strict, c)
		}
	}
	// EOS serves strict queues by queue number, the highest first
	// (reference/eos.md §3 `priority strict`); levels must agree.
	for i := 1; i < len(strict); i++ {
		lo, hi := strict[i-1], strict[i]
		if levelOf(hi) > levelOf(lo) {
			return r.unsupported("priority level of class "+hi.Name, "EOS serves strict tx-queues by number, the highest first, so queue %d cannot have a lower priority (level %d) than queue %d (level %d)", hi.ID, levelOf(hi), lo.ID, levelOf(lo))
		}
	}
	return nil
}

func levelOf(c intent.Class) int { return max(c.Scheduling.Level, 1) }

// trust returns the trust line of a port or profile: `qos trust cos`
// for a profile that trusts CoS ([C:avd] qos-profiles.j2; the molecule
// qos.cfg has it in a qos profile and on interfaces), else `qos trust
// dscp`, none with option eos.trust = "port-default" (OptionTrust).
func (r *renderer) trust(q *intent.QoS) []*config.Node {
	if q.Trust == intent.TrustCoS {
		return []*config.Node{node("qos trust cos")}
	}
	if r.noTrust {
		r.warnf(renderers.RuleDefaultChosen, "option %q = %q: ports keep EOS's default trust, which is DSCP on routed ports only (CoS on switchports, reference/eos.md §3)", OptionTrust, TrustPortDefault)
		return nil
	}
	return []*config.Node{node("qos trust dscp")}
}

// pfc returns the PFC lines of a port or profile with lossless classes,
// the per-port watchdog lines wd (portWatchdog) after the watchdog's.
func (r *renderer) pfc(q *intent.QoS, wd []*config.Node) []*config.Node {
	lossless := q.LosslessPriorities()
	if len(lossless) == 0 {
		return nil
	}
	// pfc mode "off" keeps the priorities' no-drop lines with PFC itself
	// off: `no priority-flow-control`, the form AVD writes for
	// priority_flow_control.enabled: false, before the priority lines
	// (ethernet-interfaces.j2, qos-profiles.j2). PFC is off by default on
	// EOS ([C:eosdoc], reference/eos.md §3), so the switch may show no
	// line for it: the driver reads an absent line as the same.
	pfcLine := "priority-flow-control on"
	if q.PFC.Mode == intent.PFCOff {
		pfcLine = "no priority-flow-control"
	}
	out := []*config.Node{node(pfcLine)}
	for _, p := range lossless {
		out = append(out, node(fmt.Sprintf("priority-flow-control priority %d no-drop", p)))
	}
	if q.PFC.Watchdog != nil {
		// Enables the watchdog on the port [C:avd qos-profiles.j2]; under
		// `interface` it is [I] (reference/eos.md §1a, §9 item 1).
		out = append(out, node("priority-flow-control pause watchdog"))
		out = append(out, wd...)
	}
	return out
}

// portSpeed is the speed time-based thresholds convert at, or why there is
// none.
type portSpeed struct {
	speed units.BitRate
	port  string
	err   error
}

// sharedSpeed is the speed all the ports of a qos profile share, or why
// there is none.
func (r *renderer) sharedSpeed(q *intent.QoS, ports []intent.Port) portSpeed {
	if len(ports) == 0 {
		return portSpeed{err: fmt.Errorf("no port uses the profile")}
	}
	s := portSpeed{speed: ports[0].Speed, port: ports[0].Name}
	for _, p := range ports[1:] {
		if p.Speed != s.speed {
			s.err = fmt.Errorf("the qos profile of profile %s is shared by ports of different speeds (%s on %s, %s on %s); give the threshold in bytes or use the per-interface style", q.Profile, s.speed, s.port, p.Speed, p.Name)
			break
		}
	}
	return s
}

// txQueues returns the tx-queue blocks of the classes that set scheduling
// or ECN, by queue number. Child order: `priority strict` / `no priority`,
// `bandwidth percent`, the ECN line [C:avd ethernet-interface-tx-queues.j2].
// Every round-robin queue carries its own `no priority`: EOS shows the
// line on each queue configured so (the public show running-config of
// rwa02.str15, EOS-4.34.2.1F, has it on tx-queues 0, 1 and 2 of one
// port), and that a round-robin queue makes the lower ones round-robin
// too is [I] (reference/eos.md §3), which lossless does not rely on. A
// class with unset scheduling writes no priority line: the queue keeps
// EOS's default.
func (r *renderer) txQueues(q *intent.QoS, speed portSpeed) ([]*config.Node, error) {
	var out []*config.Node
	for _, c := range q.Classes {
		tx := node(fmt.Sprintf("%s %d", r.queue, c.ID))
		switch c.Scheduling.Mode {
		case intent.SchedulingStrict:
			tx.Children = append(tx.Children, node("priority strict"))
		case intent.SchedulingDWRR:
			tx.Children = append(tx.Children, node("no priority"))
			if c.Scheduling.Bandwidth > 0 {
				tx.Children = append(tx.Children, node(fmt.Sprintf("bandwidth percent %d", c.Scheduling.Bandwidth)))
			}
		}
		// The guaranteed share and the shape rate follow the priority
		// line, in AVD's tx-queue order ([C:avd]
		// ethernet-interface-tx-queues.j2; molecule qos.cfg: `bandwidth
		// guaranteed percent 10` on a queue left strict, `shape rate 40
		// percent` after `bandwidth percent 30`). The shape is written in
		// kbps, one of the units the AVD schema lists ("< rate > kbps").
		if mb := c.Scheduling.MinBandwidth; mb > 0 {
			tx.Children = append(tx.Children, node(fmt.Sprintf("bandwidth guaranteed percent %d", mb)))
		}
		if sh := c.Scheduling.Shape; sh > 0 {
			tx.Children = append(tx.Children, node(fmt.Sprintf("shape rate %d kbps", int64(sh)/1000)))
		}
		if c.ECN != nil {
			line, err := r.ecn(c, speed)
			if err != nil {
				return nil, err
			}
			tx.Children = append(tx.Children, node(line))
		}
		if len(tx.Children) > 0 {
			out = append(out, tx)
		}
	}
	return out, nil
}

// ecn returns the `random-detect ecn` line of class c, both thresholds in
// kbytes (one unit for stable diffs; EOS takes the same unit twice [C:avd]).
func (r *renderer) ecn(c intent.Class, speed portSpeed) (string, error) {
	e := c.ECN
	minKB, err := r.kbytes(c, "minimum", e.Min, speed)
	if err != nil {
		return "", err
	}
	maxKB, err := r.kbytes(c, "maximum", e.Max, speed)
	if err != nil {
		return "", err
	}
	switch {
	case minKB < 1:
		return "", r.unsupported("ECN minimum threshold of class "+c.Name, "EOS takes at least 1 kbytes [C:avd]")
	case minKB > maxKB:
		return "", r.unsupported("ECN thresholds of class "+c.Name, "minimum %d kbytes is above maximum %d kbytes", minKB, maxKB)
	case !e.DefaultProbability && (e.MaxProbability < 1 || e.MaxProbability > 100):
		return "", r.unsupported("ECN probability of class "+c.Name, "%s is outside EOS's 1–100%% (AVD qos_profiles schema: max_probability min 1)", e.MaxProbability)
	}
	line := fmt.Sprintf("random-detect ecn minimum-threshold %d kbytes maximum-threshold %d kbytes", minKB, maxKB)
	// Without max_probability the line has no max-mark-probability and
	// EOS's default stands ([C:avd] molecule qos.cfg: `random-detect ecn
	// minimum-threshold 320 segments maximum-threshold 320 segments
	// weight 10`; the template writes the keyword only when set).
	if !e.DefaultProbability {
		line += fmt.Sprintf(" max-mark-probability %d", e.MaxProbability)
	}
	if e.Weight != nil {
		if *e.Weight < 0 || *e.Weight > 15 {
			return "", r.unsupported("ECN weight of class "+c.Name, "%d is outside EOS's 0–15", *e.Weight)
		}
		line += fmt.Sprintf(" weight %d", *e.Weight)
	}
	return line, nil
}

func (r *renderer) kbytes(c intent.Class, which string, t intent.Threshold, speed portSpeed) (int64, error) {
	what := fmt.Sprintf("ECN %s threshold of class %s", which, c.Name)
	b := t.Bytes
	from := b.String()
	if t.Time != 0 {
		switch {
		case speed.err != nil:
			return 0, r.unsupported(what, "%v is a time, which converts to bytes only at a known port speed: %v", t.Time, speed.err)
		case speed.speed <= 0:
			return 0, r.unsupported(what, "%v is a time, which converts to bytes only at a known port speed, and port %s has none", t.Time, speed.port)
		}
		b = speed.speed.BytesIn(t.Time)
		from = fmt.Sprintf("%v at %s on %s (%dB)", t.Time, speed.speed, speed.port, int64(b))
	}
	if b < 0 {
		return 0, r.unsupported(what, "%s is negative", b)
	}
	kb := b.CeilCells(units.KB)
	if b%units.KB != 0 {
		r.warnf(renderers.RuleRounded, "%s: %s rounded up to %d kbytes (%dB)", what, from, kb, kb*int64(units.KB))
	}
	return kb, nil
}

// qosMap returns one `qos map dscp … to traffic-class N` line per class
// with DSCP values, by traffic class, the values space-separated [C:avd].
// Unclaimed DSCPs keep EOS's default map (reference/eos.md §0), which is
// what the canonical block of §1a renders for the default class.
//
// A profile that trusts CoS maps its classes' CoS values instead, with
// `qos map cos C… to traffic-class N` ([C:avd] qos.j2, molecule qos.cfg
// `qos map cos 1 2 3 4 to traffic-class 2`), the same way: one line per
// class, the unclaimed values left to EOS's default CoS map unless
// option eos.default-map = "explicit".
func (r *renderer) qosMap(q *intent.QoS) []*config.Node {
	var out []*config.Node
	cos := q.Trust == intent.TrustCoS
	var unclaimed []int
	if r.explicit {
		switch {
		case cos && defaultCoSClass(q) != nil:
			unclaimed = unclaimedCoS(q)
		case !cos && q.DefaultClass() != nil:
			unclaimed = unclaimedDSCP(q)
		}
	}
	for _, c := range q.Classes {
		vals, isDefault, field := c.DSCP, c.Default, "dscp"
		if cos {
			vals, isDefault, field = c.CoS, c.DefaultCoS, "cos"
		}
		if isDefault {
			vals = unclaimed
		}
		if len(vals) == 0 {
			continue
		}
		out = append(out, node(fmt.Sprintf("qos map %s %s to traffic-class %d", field, joinInts(vals, " "), c.ID)))
	}
	return out
}

// defaultCoSClass returns the class that takes the CoS values no class
// claims (cos = "default"), or nil.
func defaultCoSClass(q *intent.QoS) *intent.Class {
	for i := range q.Classes {
		if q.Classes[i].DefaultCoS {
			return &q.Classes[i]
		}
	}
	return nil
}

// unclaimedCoS returns the CoS values no class claims, ascending.
func unclaimedCoS(q *intent.QoS) []int {
	return unclaimed(q, 8, func(c intent.Class) []int { return c.CoS })
}

// unclaimedDSCP returns the DSCPs no class claims, ascending.
func unclaimedDSCP(q *intent.QoS) []int {
	return unclaimed(q, 64, func(c intent.Class) []int { return c.DSCP })
}

// unclaimed returns the values 0 to n-1 that no class claims in the
// field of gives (a class's DSCP or CoS values), ascending.
func unclaimed(q *intent.QoS, n int, of func(intent.Class) []int) []int {
	claimed := map[int]bool{}
	for _, c := range q.Classes {
		for _, v := range of(c) {
			claimed[v] = true
		}
	}
	var out []int
	for v := range n {
		if !claimed[v] {
			out = append(out, v)
		}
	}
	return out
}

// missDefault returns the DSCPs no class claims whose traffic class in
// EOS's default map is not the default class's, ascending.
func (r *renderer) missDefault(q *intent.QoS, dc *intent.Class) []int {
	var out []int
	for _, v := range unclaimedDSCP(q) {
		if eosDefaultTC(v) != dc.ID {
			out = append(out, v)
		}
	}
	return out
}

// eosDefaultTC is the traffic class of dscp in EOS's default map: 0-7→1,
// 8-15→0, 16-23→2, 24-31→3 … 56-63→7 (reference/eos.md §0, [T:blog36]).
func eosDefaultTC(dscp int) int {
	if dscp < 8 {
		return 1
	}
	if dscp < 16 {
		return 0
	}
	return dscp / 8
}

// warnDefaultMap says where the DSCPs no class claims go: the canonical
// rendering (reference/eos.md §1a) leaves them on EOS's default map, so
// only some of them reach the default class. The user hears which.
func (r *renderer) warnDefaultMap(q *intent.QoS) {
	if q.Trust == intent.TrustCoS {
		if dc := defaultCoSClass(q); dc != nil {
			if vs := unclaimedCoS(q); len(vs) > 0 {
				// EOS's default CoS map is in no source read
				// (reference/eos.md gives the DSCP one only), so the
				// warning names the values, not where they go.
				r.warnf(renderers.RuleDefaultChosen, "class %s takes the CoS values no class claims (%s), but EOS keeps its default CoS map for them (option %q = \"explicit\" maps them)", dc.Name, ranges(vs), OptionDefaultMap)
			}
		}
		return
	}
	dc := q.DefaultClass()
	if dc == nil {
		return
	}
	byTC := map[int][]int{}
	for _, v := range r.missDefault(q, dc) {
		byTC[eosDefaultTC(v)] = append(byTC[eosDefaultTC(v)], v)
	}
	if len(byTC) == 0 {
		return
	}
	var parts []string
	for tc := range 8 {
		if vs := byTC[tc]; len(vs) > 0 {
			parts = append(parts, fmt.Sprintf("%s → %d", ranges(vs), tc))
		}
	}
	r.warnf(renderers.RuleDefaultChosen, "class %s takes the DSCPs no class claims, but EOS keeps its default DSCP map for those outside traffic class %d: %s (option %q = \"explicit\" maps them)", dc.Name, dc.ID, strings.Join(parts, ", "), OptionDefaultMap)
}

// ranges prints sorted values as "0-7 25 27-31".
func ranges(v []int) string {
	var out []string
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		if j > i {
			out = append(out, fmt.Sprintf("%d-%d", v[i], v[j]))
		} else {
			out = append(out, strconv.Itoa(v[i]))
		}
		i = j + 1
	}
	return strings.Join(out, " ")
}

// watchdog returns the global watchdog lines in AVD order: timeout,
// recovery-time, polling-interval, action [C:avd priority-flow-control.j2].
func (r *renderer) watchdog(wd *intent.Watchdog) ([]*config.Node, error) {
	var out []*config.Node
	rounded, err := r.timers(wd, "")
	if err != nil {
		return nil, err
	}
	for i, t := range timerWords {
		if rounded[i] != 0 {
			out = append(out, node("priority-flow-control pause watchdog default "+t+" "+seconds(rounded[i])))
		}
	}
	switch wd.Action {
	case "":
	case "drop", "errdisable", "notify-only":
		out = append(out, node("priority-flow-control pause watchdog action "+wd.Action))
	default:
		// EOS rejects no-drop and has no forward action [C:avd-6399].
		return nil, r.unsupported("PFC watchdog action "+strconv.Quote(wd.Action), "EOS takes drop, errdisable or notify-only (reference/eos.md §3)")
	}
	return out, nil
}

// seconds prints d in seconds with the fewest decimals that are exact:
// 200ms → "0.2", 5ms → "0.005", 2s → "2". AVD writes the value with
// Python's str(), the shortest form [C:avd priority-flow-control.j2,
// molecule output "0.05", "1.22", "10.001"]; how EOS re-prints a value it
// stores is [I] (reference/eos.md §9 item 4).
func seconds(d time.Duration) string {
	ms := d.Milliseconds()
	s := strconv.FormatInt(ms/1000, 10)
	if frac := ms % 1000; frac != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%03d", frac), "0")
	}
	return s
}

// timerWords are EOS's keywords of the watchdog's detection,
// restoration and polling times, in that order.
var timerWords = [3]string{"timeout", "recovery-time", "polling-interval"}

// timers returns wd's detection, restoration and polling times as EOS
// takes them (0 where unset): within EOS's ranges, rounded up to AVD's
// granularity (a warning), the polling-interval at most half of the
// others. what names a per-port watchdog in errors ("" for the global
// one).
func (r *renderer) timers(wd *intent.Watchdog, what string) ([3]time.Duration, error) {
	var rounded [3]time.Duration
	limits := [3]struct{ min, max, step time.Duration }{
		{timerMin, timerMax, timerStep}, {timerMin, timerMax, timerStep}, {pollingMin, pollingMax, pollingStep},
	}
	for i, d := range [3]time.Duration{wd.Detection, wd.Restoration, wd.Polling} {
		l := limits[i]
		if d == 0 {
			continue
		}
		if d < l.min || d > l.max {
			return rounded, r.unsupported(what+"PFC watchdog "+timerWords[i]+" "+d.String(), "EOS takes %s to %s", seconds(l.min), seconds(l.max))
		}
		v := (d + l.step - 1) / l.step * l.step
		if v != d {
			r.warnf(renderers.RuleRounded, "%sPFC watchdog %s: %v rounded up to %s s", what, timerWords[i], d, seconds(v))
		}
		rounded[i] = v
	}
	// EOS requires polling-interval ≤ min(timeout, recovery-time)/2
	// (reference/eos.md §1a, [T:blog36]).
	if p := rounded[2]; p != 0 {
		for _, other := range rounded[:2] {
			if other != 0 && 2*p > other {
				return rounded, r.unsupported(what+"PFC watchdog polling-interval "+seconds(p), "EOS needs it at most half of the timeout and the recovery-time (%s s)", seconds(other))
			}
		}
	}
	return rounded, nil
}

// portWatchdog returns the per-port watchdog lines of profile q, whose
// watchdog differs from the global one (wd, the first profile's with a
// watchdog): `priority-flow-control pause watchdog port action
// {drop|notify-only}` where its action differs and `priority-flow-control
// pause watchdog port timer timeout S polling-interval {S|auto}
// recovery-time S` where its timers do, in a qos profile, after the
// watchdog's own line, action first (AVD's qos-profiles.j2 since it
// orders its output as EOS does, PFC lines after the tx-queues). Source: AVD's qos_profiles schema
// (priority_flow_control.watchdog.action "drop" | "notify-only",
// "Override the default error-disable action"; timer.timeout,
// polling_interval (a time or "auto", "based on recovery_time and
// timeout values") and recovery_time, all three required) and its
// molecule output (`priority-flow-control pause watchdog port action
// drop`, `priority-flow-control pause watchdog port timer timeout 0.05
// polling-interval auto recovery-time 1.11 forced`, the corpus fixture
// avd-qos-profiles; reference/eos.md §3). An unset polling time is
// `auto`; `forced` (recovery whatever PFC frames arrive) has no intent
// and is never written. No source shows these lines under an interface
// (reference/eos.md §9 item 1), so a port watchdog that differs from the
// global one is refused in the interface style; so is what the lines
// cannot say: an errdisable action over a global other one, or timers
// without both a detection and a restoration time.
func (r *renderer) portWatchdog(q *intent.QoS, wd *intent.Watchdog, style string) ([]*config.Node, error) {
	pw := q.PFC.Watchdog
	if pw == nil || wd == nil || len(q.LosslessPriorities()) == 0 || *pw == *wd {
		return nil, nil
	}
	what := "PFC watchdog of profile " + q.Profile
	if style != StyleQoSProfile {
		return nil, r.unsupported(what, "its timers or action differ from the global ones (profile %q's), which EOS says per port only inside a qos profile (`priority-flow-control pause watchdog port action|timer`, AVD qos_profiles schema; reference/eos.md §9 item 1); set option %q = %q", r.d.QoS.Profile, OptionStyle, StyleQoSProfile)
	}
	var out []*config.Node
	action := func(a string) string { return cmp.Or(a, "errdisable") } // EOS's default (reference/eos.md §3)
	if a := action(pw.Action); a != action(wd.Action) {
		if a != "drop" && a != "notify-only" {
			return nil, r.unsupported(what, "its action %q differs from the global %q, but a qos profile overrides the action with drop or notify-only only (AVD qos_profiles schema)", a, action(wd.Action))
		}
		out = append(out, node("priority-flow-control pause watchdog port action "+a))
	}
	if pw.Detection != wd.Detection || pw.Restoration != wd.Restoration || pw.Polling != wd.Polling {
		if pw.Detection == 0 || pw.Restoration == 0 {
			return nil, r.unsupported(what, "its timers differ from the global ones, but EOS's per-port timer line sets the timeout and the recovery-time together (AVD qos_profiles schema: both required); give it detection_time and restoration_time")
		}
		t, err := r.timers(pw, "profile "+q.Profile+": ")
		if err != nil {
			return nil, err
		}
		poll := "auto"
		if t[2] != 0 {
			poll = seconds(t[2])
		}
		out = append(out, node(fmt.Sprintf("priority-flow-control pause watchdog port timer timeout %s polling-interval %s recovery-time %s", seconds(t[0]), poll, seconds(t[1]))))
	}
	return out, nil
}

var nameUnsafe = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// profileName is the name of the `qos profile` of q, used by ports:
// the intent's names.port_profile as written, else the default, the
// profile's name in upper case with other characters than letters,
// digits, '_' and '-' as '_' ("roce_lossless" → "ROCE_LOSSLESS",
// reference/eos.md §1b). A port override of the device's own profile
// has its own default, suffixed with the first port that uses it. EOS
// documents no limit on the name beyond what the intent checks (LL009):
// none is refused here.
func (r *renderer) profileName(q *intent.QoS, ports []intent.Port) string {
	if q.Names.PortProfile != "" {
		return q.Names.PortProfile
	}
	if q != r.d.QoS && q.Profile == r.d.QoS.Profile {
		return defaultProfileName(q.Profile + "_" + ports[0].Name)
	}
	return defaultProfileName(q.Profile)
}

func defaultProfileName(p string) string {
	return nameUnsafe.ReplaceAllString(strings.ToUpper(p), "_")
}

// nameClash refuses two profiles whose qos profiles would share name,
// saying which must name its own: an explicit name is never suffixed.
func (r *renderer) nameClash(name string, a, b *intent.QoS, portsOf map[*intent.QoS][]intent.Port) error {
	who := func(q *intent.QoS) string {
		if q == r.d.QoS {
			return fmt.Sprintf("the device's profile %q", q.Profile)
		}
		return fmt.Sprintf("the override of profile %q on %s", q.Profile, portsOf[q][0].Name)
	}
	fix := b // the override, or the later of two profiles
	if b == r.d.QoS {
		fix = a
	}
	return r.unsupported("qos profile "+name, "%s and %s both name their qos profile %q, but they differ; give %s its own names { port_profile = … }", who(a), who(b), name, who(fix))
}

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, sep)
}
