package eos

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/eos"
	"github.com/lossless-net/lossless/vendors"
)

// This file reads an EOS running config back into the intent's terms
// (vendors.Vendor.Import): the inverse of renderers/eos. What the
// renderer writes reads back to what made it; every other line of
// lossless' scope (Scope) is listed in Unexpressed with its reason.

// Reasons of Unexpressed lines.
const (
	whyTrust       = "the intent trusts DSCP or CoS (trust = \"dscp\" or \"cos\"); `no qos trust` (untrusted) cannot be said"
	whyCoSMap      = "no port of the device trusts CoS (`qos trust cos`), and the intent maps CoS values only for ports that do"
	whyDSCPUnused  = "the device's ports trust CoS (`qos trust cos`); the intent maps DSCP values only for ports that trust DSCP"
	whyPortLine    = "the intent has no port-level default CoS/DSCP, port shaping or ACL classification (service-policy)"
	whyPFCDrop     = "the intent sets PFC per class (lossless = true) for no-drop only; an explicit per-port `priority N drop` cannot be said"
	whyPFCOff      = "the intent cannot say PFC on without a no-drop priority, nor PFC off on a port without one"
	whyWatchdog    = "not a per-port watchdog line lossless can read (`priority-flow-control pause watchdog port action drop|notify-only`, `… port timer timeout S polling-interval S|auto recovery-time S` in a qos profile with the watchdog on)"
	whyPortWDIface = "lossless writes per-port watchdog lines only in a qos profile: no source shows them under an interface (reference/eos.md §9 item 1)"
	whySameWD      = "restates the global watchdog setting; lossless writes a per-port watchdog line only where it differs"
	whyForced      = "the intent has no forced watchdog recovery (`forced`: recover whatever PFC frames arrive)"
	whyPortWD      = "lossless writes the global watchdog lines from the device's own profile (the one most ports apply), or else the first with a watchdog; that profile's per-port watchdog lines cannot be said"
	whyQueueLine   = "the intent has no WRED drop profile or queue latency"
	whyGuarantee   = "lossless writes a guaranteed bandwidth as `bandwidth guaranteed percent P` on a strict or unscheduled queue (min_bandwidth); a rate in kbps, or one beside a round-robin share, cannot be said"
	whyShape       = "lossless writes a queue's shape as `shape rate N kbps` (shape, a rate in whole Mbps); a shape in percent or pps cannot be said"
	whyBandwidth   = "a bandwidth share on a queue without `no priority` (a strict queue, EOS's default) cannot be said: the intent's bandwidth is a round-robin share"
	whyRR          = "a round-robin queue (`no priority`) without a bandwidth share cannot be said: the intent gives a DWRR class its bandwidth"
	whyECNUnit     = "lossless writes ECN thresholds in kbytes; thresholds in other units cannot be said"
	whyTC7         = "traffic class 7 (tx-queue 7) is reserved for control traffic on EOS (reference/eos.md §3); lossless renders classes 0–6 only"
	whyDropPrec    = "the intent has no drop precedence (colour)"
	whyTCMap       = "the intent keeps each traffic class on its own tx-queue (EOS's identity default)"
	whyGlobalPFC   = "the intent cannot say this global PFC line"
	whyTimers      = "the intent sets the global watchdog timers only with the watchdog on its ports (`priority-flow-control pause watchdog`), which no port has"
	whyBadTimers   = "lossless renders watchdog timers within EOS's ranges with the polling-interval at most half the timeout and the recovery-time (reference/eos.md §1a, §3); these are not"
	whyPolicy      = "the intent does not classify with policy-maps and class-maps"
	whyMMU         = "the intent has no EOS MMU queue profile (buffers are left to the switch on EOS)"
	whyProfile     = "no port applies this qos profile"
	whyStyle       = "the device's other QoS ports use the other layout (direct lines or a qos profile); one rendering has one"
	whyOwnLines    = "a port's own QoS lines over the qos profile it applies cannot be said"
	whyNoProfile   = "the port applies a qos profile the running config does not have"
	whyMixedTrust  = "some of the device's QoS ports or profiles have no trust line and others `qos trust dscp`; the intent says one for the device (option eos.trust)"
	whyMixedQueue  = "the device's other queues use the other keyword (tx-queue or uc-tx-queue); one rendering has one (option eos.tx-queue)"
)

// iline is a canonical config line with its line number in the text.
type iline = clidiff.Line

// child is l's first line that is prefix or starts with prefix and a
// space; nil for none (or a nil l).
func child(l *iline, prefix string) *iline {
	if l == nil {
		return nil
	}
	for _, k := range l.Kids {
		if k.Text == prefix || strings.HasPrefix(k.Text, prefix+" ") {
			return k
		}
	}
	return nil
}

// readLines parses text into canonical lines with their numbers.
func readLines(text []byte) ([]*iline, error) { return clidiff.ParseLines(text, scan, canon) }

// Import reads a device's QoS from its running config (what Running
// returns, or a whole show running-config) into the intent's terms, the
// inverse of renderers/eos: dev's ports give the speeds (none is needed:
// every threshold reads back in bytes). A qos profile's per-port watchdog
// lines read over the global watchdog into its own.
func Import(dev *inventory.Device, running []byte) (*vendors.Imported, error) {
	name := "device"
	if dev != nil {
		name = dev.Name
	}
	roots, err := readLines(running)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	im := &importer{out: &vendors.Imported{}}
	im.read(roots)
	return im.finish(), nil
}

// importer builds one Imported.
type importer struct {
	out *vendors.Imported

	profiles map[string]*iline // qos profile stanzas by name
	used     map[string]bool   // profiles a port applies
	ports    []*iline          // interfaces with QoS lines in scope
	dscp     []*iline          // qos map dscp lines
	cos      []*iline          // qos map cos … to traffic-class lines
	timers   []*iline          // global watchdog timer and action lines

	queueWord string // "tx-queue" or "uc-tx-queue", the first seen
}

func (im *importer) unexpressed(l *iline, why string) {
	im.out.Unexpressed = append(im.out.Unexpressed, vendors.Unexpressed{Line: l.N, Text: l.Text, Reason: why})
}

// unexpressedAll lists l and every line under it.
func (im *importer) unexpressedAll(l *iline, why string) {
	im.unexpressed(l, why)
	for _, k := range l.Kids {
		im.unexpressedAll(k, why)
	}
}

// read sorts the top-level lines of the scope into their families.
func (im *importer) read(roots []*iline) {
	im.profiles, im.used = map[string]*iline{}, map[string]bool{}
	for _, l := range roots {
		t := l.Text
		switch {
		case isProfile(t):
			im.profiles[strings.TrimPrefix(t, "qos profile ")] = l
		case isInterface(t):
			c := &iline{N: l.N, Raw: l.Raw, Text: t}
			for _, k := range l.Kids {
				if portLine(k.Text) {
					c.Kids = append(c.Kids, k)
				}
			}
			switch {
			case slices.ContainsFunc(c.Kids, qosLine):
				im.ports = append(im.ports, c)
			default:
				// Classification lossless cannot say, on a port that
				// has none it can: not one of lossless' ports.
				for _, k := range c.Kids {
					why := whyPortLine
					if k.Text == "no qos trust" || strings.HasPrefix(k.Text, "qos trust") {
						why = whyTrust
					}
					im.unexpressedAll(k, why)
				}
			}
		case isDSCPMap(t):
			im.dscp = append(im.dscp, l)
		case isCoSMap(t):
			im.cos = append(im.cos, l)
		case isTCMap(t):
			// A value mapped to its own queue restates EOS's identity
			// default, which the diff reads as the same (map.go).
			if vals, to, ok := tcMap.parse(t); ok && slices.ContainsFunc(vals, func(v int) bool { return v != to }) {
				im.unexpressed(l, whyTCMap)
			}
		case len(l.Kids) == 0 && strings.HasPrefix(t, "priority-flow-control pause watchdog default "), strings.HasPrefix(t, "priority-flow-control pause watchdog action "):
			im.timers = append(im.timers, l)
		case len(l.Kids) == 0 && (strings.HasPrefix(t, "priority-flow-control ") || strings.HasPrefix(t, "no priority-flow-control ")):
			im.unexpressed(l, whyGlobalPFC)
		case isPolicyMap(t), isClassMap(t):
			im.unexpressedAll(l, whyPolicy)
		case isMMUProfile(t), isMMUApply(t):
			im.unexpressedAll(l, whyMMU)
		}
	}
}

// ownLine lists a port's own line beside its service-profile, and of a
// queue block the lines other than the ECN counters (outside the scope,
// never touched).
func (im *importer) ownLine(l *iline) {
	if !scopedQueue(l.Text) {
		im.unexpressedAll(l, whyOwnLines)
		return
	}
	var kids []*iline
	for _, k := range l.Kids {
		if k.Text != "random-detect ecn count" {
			kids = append(kids, k)
		}
	}
	if len(kids) == 0 {
		return
	}
	im.unexpressed(l, whyOwnLines)
	for _, k := range kids {
		im.unexpressedAll(k, whyOwnLines)
	}
}

// qosLine reports a port line of the kinds the renderer writes, which
// makes the port one of lossless' QoS ports.
func qosLine(l *iline) bool {
	t := l.Text
	return strings.HasPrefix(t, "service-profile ") || t == "qos trust dscp" || t == "qos trust cos" || strings.HasPrefix(t, "priority-flow-control") ||
		strings.HasPrefix(t, "no priority-flow-control") || scopedQueue(t)
}

// source is what one qos profile or one port's own lines say.
type source struct {
	q       *intent.QoS
	key     string // what it says, for grouping equal ports
	trusted bool
	lines   []*iline // the trust-less source, for whyMixedTrust
	wdLines []*iline // per-port watchdog lines read into q's watchdog
}

func (im *importer) finish() *vendors.Imported {
	out := im.out
	// The layout: a qos profile when most QoS ports apply one.
	withProfile := 0
	for _, p := range im.ports {
		if child(p, "service-profile") != nil {
			withProfile++
		}
	}
	style := render.StyleInterface
	if withProfile > 0 && 2*withProfile >= len(im.ports) {
		style = render.StyleQoSProfile
	}
	classes := im.dscpMap()
	classes.cos = im.cosMap()
	wd := im.watchdog()
	ifTrust := style == render.StyleQoSProfile && im.interfaceTrust()

	var sources []*source
	portQoS := map[string]*source{}
	var names []string
	byKey := map[string]*source{}
	for _, p := range im.ports {
		name := p.Text[len("interface "):]
		sp := child(p, "service-profile")
		switch {
		case style == render.StyleQoSProfile && sp == nil, style == render.StyleInterface && sp != nil:
			for _, k := range p.Kids {
				im.unexpressedAll(k, whyStyle)
			}
			continue
		case sp != nil:
			pname := strings.TrimPrefix(sp.Text, "service-profile ")
			prof := im.profiles[pname]
			trust := (*iline)(nil)
			if ifTrust {
				trust = child(p, "qos trust")
			}
			for _, k := range p.Kids {
				if k != sp && k != trust {
					im.ownLine(k)
				}
			}
			if prof == nil {
				im.unexpressed(sp, whyNoProfile)
				continue
			}
			s := byKey["profile "+pname]
			if s == nil {
				lines := prof.Kids
				if trust != nil {
					// The ports' trust line, read as the profile's
					// (option eos.trust = "interface").
					lines = append([]*iline{trust}, lines...)
				}
				s = im.source(lines, classes, wd)
				s.q.Names.PortProfile = pname
				s.key = "profile " + pname
				byKey[s.key] = s
				sources = append(sources, s)
				if !s.trusted {
					s.lines = []*iline{prof}
				}
			}
			im.used[pname] = true
			portQoS[name] = s
		default:
			s := im.source(p.Kids, classes, wd)
			if len(s.wdLines) > 0 {
				im.globalWatchdog(s, wd, whyPortWDIface)
			}
			if prev := byKey[s.key]; prev != nil {
				s = prev
			} else {
				byKey[s.key] = s
				sources = append(sources, s)
				if !s.trusted {
					s.lines = []*iline{p}
				}
			}
			portQoS[name] = s
		}
		names = append(names, name)
	}
	for _, n := range slices.Sorted(maps.Keys(im.profiles)) {
		if !im.used[n] {
			im.unexpressedAll(im.profiles[n], whyProfile)
		}
	}

	if len(sources) > 0 {
		// The device's QoS is the one most ports have, the first port's
		// on a tie.
		count := map[*source]int{}
		for _, n := range names {
			count[portQoS[n]]++
		}
		// A profile with per-port watchdog lines is the device's only
		// when none without them is: the renderer writes the global
		// watchdog lines from the device's profile.
		global := func(s *source) bool { return len(s.wdLines) == 0 }
		main := portQoS[names[0]]
		for _, s := range sources {
			if global(s) && !global(main) || global(s) == global(main) && count[s] > count[main] {
				main = s
			}
		}
		out.QoS = main.q
		slices.SortFunc(names, inventory.ComparePorts)
		// The profile the global watchdog lines come from (the device's,
		// else the first port's with a watchdog, as renderers/eos picks
		// it) cannot have per-port lines of its own.
		first := main
		for _, n := range names {
			if first.q.PFC.Watchdog != nil {
				break
			}
			first = portQoS[n]
		}
		if len(first.wdLines) > 0 {
			im.globalWatchdog(first, wd, whyPortWD)
		}
		for _, n := range names {
			p := vendors.ImportedPort{Name: n}
			if s := portQoS[n]; s != main {
				p.QoS = s.q
			}
			out.Ports = append(out.Ports, p)
		}
		im.options(style, sources, classes)
		if ifTrust {
			if out.Options == nil {
				out.Options = map[string]string{}
			}
			out.Options[render.OptionTrust] = render.TrustInterface
		}
	}
	// Global lines no port's QoS uses.
	hasWD := slices.ContainsFunc(sources, func(s *source) bool { return s.q.PFC.Watchdog != nil })
	if !hasWD {
		for _, l := range im.timers {
			im.unexpressed(l, whyTimers)
		}
	}
	byCoS := slices.ContainsFunc(sources, func(s *source) bool { return s.q.Trust == intent.TrustCoS })
	byDSCP := slices.ContainsFunc(sources, func(s *source) bool { return s.q.Trust != intent.TrustCoS })
	if len(sources) > 0 && !byCoS {
		for _, l := range im.cos {
			im.unexpressed(l, whyCoSMap)
		}
	}
	if len(sources) > 0 && !byDSCP {
		for _, l := range im.dscp {
			if !slices.ContainsFunc(out.Unexpressed, func(u vendors.Unexpressed) bool { return u.Line == l.N }) {
				im.unexpressed(l, whyDSCPUnused)
			}
		}
	}
	if len(sources) == 0 {
		for _, l := range slices.Concat(im.dscp, im.cos) {
			if !slices.ContainsFunc(out.Unexpressed, func(u vendors.Unexpressed) bool { return u.Line == l.N }) {
				im.unexpressed(l, "no port of the device has QoS lossless can say, so neither has this map")
			}
		}
	}
	slices.SortStableFunc(out.Unexpressed, func(a, b vendors.Unexpressed) int { return cmp.Compare(a.Line, b.Line) })
	return out
}

// interfaceTrust reports whether the device trusts on its interfaces
// beside the qos profiles they apply (option eos.trust = "interface",
// the [blog36] form): every QoS port applies a qos profile that has no
// trust line, and has its own `qos trust dscp` or `qos trust cos`, the
// same on every port of one profile.
func (im *importer) interfaceTrust() bool {
	byProfile := map[string]string{}
	for _, p := range im.ports {
		sp, trust := child(p, "service-profile"), child(p, "qos trust")
		if sp == nil || trust == nil || trust.Text != "qos trust dscp" && trust.Text != "qos trust cos" {
			return false
		}
		name := strings.TrimPrefix(sp.Text, "service-profile ")
		prof := im.profiles[name]
		if prof == nil || child(prof, "qos trust") != nil || slices.ContainsFunc(prof.Kids, func(k *iline) bool { return k.Text == "no qos trust" }) {
			return false
		}
		if t, seen := byProfile[name]; seen && t != trust.Text {
			return false
		}
		byProfile[name] = trust.Text
	}
	return len(byProfile) > 0
}

// options sets the rendering options the running config implies.
func (im *importer) options(style string, sources []*source, classes *dscpClasses) {
	opts := map[string]string{}
	if style == render.StyleQoSProfile {
		opts[render.OptionStyle] = style
	}
	if im.queueWord == "uc-tx-queue" {
		opts[render.OptionQueue] = "uc-tx-queue"
	}
	if classes.explicit || classes.cos.explicit {
		opts[render.OptionDefaultMap] = "explicit"
	}
	trusted := 0
	for _, s := range sources {
		if s.trusted {
			trusted++
		}
	}
	switch {
	case trusted == 0:
		opts[render.OptionTrust] = render.TrustPortDefault
	case trusted < len(sources):
		for _, s := range sources {
			for _, l := range s.lines {
				im.out.Unexpressed = append(im.out.Unexpressed, vendors.Unexpressed{Line: l.N, Text: l.Text, Reason: whyMixedTrust})
			}
		}
	}
	if len(opts) > 0 {
		im.out.Options = opts
	}
}

// dscpClasses is the DSCP map read into classes.
type dscpClasses struct {
	dscp     map[int][]int // traffic class → DSCP values, as shown
	def      int           // the class that takes the DSCPs no class claims
	explicit bool          // the map shows the default class's values (eos.default-map = "explicit")
	// cos is the CoS map read the same way, for the ports that trust CoS.
	cos *dscpClasses
}

// dscpMap reads the `qos map dscp` lines.
func (im *importer) dscpMap() *dscpClasses { return im.valueMap(im.dscp, &dscpMap) }

// cosMap reads the `qos map cos … to traffic-class` lines.
func (im *importer) cosMap() *dscpClasses { return im.valueMap(im.cos, &cosMap) }

// valueMap reads the lines of map m (DSCP or CoS) into classes.
func (im *importer) valueMap(lines []*iline, m *valueMap) *dscpClasses {
	c := &dscpClasses{dscp: map[int][]int{}, def: -1}
	at := map[int]int{}
	for _, l := range lines {
		vals, to, ok := m.parse(l.Text)
		switch {
		case !ok:
			why := whyDropPrec
			if !strings.Contains(l.Text, " drop-precedence ") {
				why = "not a `" + strings.TrimSpace(m.prefix) + " … to traffic-class TC` line lossless can read"
			}
			im.unexpressed(l, why)
			continue
		case to == 7:
			im.unexpressed(l, whyTC7)
			continue
		}
		for _, v := range vals {
			if prev, ok := at[v]; ok {
				c.dscp[prev] = slices.DeleteFunc(c.dscp[prev], func(x int) bool { return x == v })
			}
			at[v] = to
			c.dscp[to] = append(c.dscp[to], v)
		}
	}
	for tc, vs := range c.dscp {
		slices.Sort(vs)
		c.dscp[tc] = slices.Compact(vs)
		if len(c.dscp[tc]) == 0 {
			delete(c.dscp, tc)
		}
	}
	// Every DSCP shown: the class of the most values takes the default
	// explicitly (OptionDefaultMap = "explicit").
	if len(at) == m.max+1 && len(c.dscp) > 1 {
		most := -1
		for tc, vs := range c.dscp {
			if most < 0 || len(vs) > len(c.dscp[most]) || len(vs) == len(c.dscp[most]) && tc < most {
				most = tc
			}
		}
		c.def, c.explicit = most, true
	}
	return c
}

// watchdog reads the global watchdog lines; nil for none.
func (im *importer) watchdog() *intent.Watchdog {
	if len(im.timers) == 0 {
		return nil
	}
	wd := &intent.Watchdog{}
	for _, l := range im.timers {
		word := strings.Fields(l.Text)
		last := word[len(word)-1]
		if strings.HasPrefix(l.Text, "priority-flow-control pause watchdog action ") {
			wd.Action = last
			continue
		}
		f, err := strconv.ParseFloat(last, 64)
		if err != nil || f <= 0 || f > 3600 || len(word) != 6 {
			im.unexpressed(l, "not a watchdog timer lossless can read")
			continue
		}
		d := time.Duration(math.Round(f*1000)) * time.Millisecond
		switch word[4] {
		case "timeout":
			wd.Detection = d
		case "recovery-time":
			wd.Restoration = d
		case "polling-interval":
			wd.Polling = d
		default:
			im.unexpressed(l, "not a watchdog timer lossless can read")
		}
	}
	// Timers EOS may take but the renderer refuses (reference/eos.md §1a:
	// polling-interval at most half the timeout and the recovery-time,
	// and the ranges of §3) are listed rather than read.
	if !timersOK(wd) {
		for _, l := range im.timers {
			if !strings.HasPrefix(l.Text, "priority-flow-control pause watchdog action ") {
				im.unexpressed(l, whyBadTimers)
			}
		}
		wd.Detection, wd.Restoration, wd.Polling = 0, 0, 0
	}
	return wd
}

// source reads the QoS lines of one qos profile or one port.
func (im *importer) source(lines []*iline, classes *dscpClasses, wd *intent.Watchdog) *source {
	s := &source{q: &intent.QoS{Trust: "dscp"}}
	byID := map[int]*intent.Class{}
	class := func(id int) *intent.Class {
		if c := byID[id]; c != nil {
			return c
		}
		c := &intent.Class{Name: "tc" + strconv.Itoa(id), ID: id}
		byID[id] = c
		return c
	}
	pfcOn, pfcOff, portWD := (*iline)(nil), (*iline)(nil), (*iline)(nil)
	var wdAction, wdTimer *iline
	var noDrop []*iline
	for _, l := range lines {
		t := l.Text
		switch {
		case t == "qos trust dscp":
			s.trusted = true
		case t == "qos trust cos":
			s.trusted, s.q.Trust = true, intent.TrustCoS
		case t == "qos trust" || strings.HasPrefix(t, "qos trust ") || t == "no qos trust":
			im.unexpressed(l, whyTrust)
		case t == "priority-flow-control on":
			pfcOn = l
		case t == "no priority-flow-control":
			pfcOff = l
		case t == "priority-flow-control pause watchdog":
			portWD = l
		case strings.HasPrefix(t, "priority-flow-control priority "):
			f := strings.Fields(t)
			id, err := strconv.Atoi(f[2])
			if len(f) != 4 || err != nil || id < 0 || id > 7 {
				im.unexpressed(l, "not a `priority-flow-control priority N no-drop` line lossless can read")
				continue
			}
			switch {
			case f[3] != "no-drop":
				im.unexpressed(l, whyPFCDrop)
			case id == 7:
				im.unexpressed(l, whyTC7)
			default:
				noDrop = append(noDrop, l)
				class(id).Lossless = true
			}
		case t == "priority-flow-control pause watchdog port action drop", t == "priority-flow-control pause watchdog port action notify-only":
			wdAction = l
		case strings.HasPrefix(t, "priority-flow-control pause watchdog port timer "):
			wdTimer = l
		case strings.HasPrefix(t, "priority-flow-control pause watchdog port "):
			im.unexpressed(l, whyWatchdog)
		case strings.HasPrefix(t, "no priority-flow-control "):
			im.unexpressed(l, "the intent cannot say this negated PFC line")
		case scopedQueue(t):
			im.queue(l, class)
		default:
			im.unexpressedAll(l, whyPortLine)
		}
	}
	switch {
	case pfcOn != nil && len(noDrop) == 0:
		im.unexpressed(pfcOn, whyPFCOff)
	case pfcOff != nil && len(noDrop) == 0:
		im.unexpressed(pfcOff, whyPFCOff)
	case pfcOn == nil && len(noDrop) > 0:
		// No-drop priorities with PFC off (`no priority-flow-control`,
		// or no line: PFC is off by default, reference/eos.md §3): pfc
		// mode "off", as renderers/eos writes it.
		s.q.PFC.Mode = intent.PFCOff
	}
	if portWD != nil {
		if len(noDrop) == 0 {
			im.unexpressed(portWD, whyPFCOff)
		} else {
			s.q.PFC.Watchdog = im.portWatchdog(s, wd, wdAction, wdTimer)
		}
	}
	for _, l := range []*iline{wdAction, wdTimer} {
		if l != nil && (portWD == nil || len(noDrop) == 0) {
			im.unexpressed(l, whyWatchdog)
		}
	}
	// Classes of the DSCP map (of the CoS map when the port trusts CoS):
	// every profile on the device shares it.
	cos := s.q.Trust == intent.TrustCoS
	m := classes
	if cos {
		m = classes.cos
	}
	for tc, vs := range m.dscp {
		c := class(tc)
		switch {
		case tc == m.def:
		case cos:
			c.CoS = slices.Clone(vs)
		default:
			c.DSCP = slices.Clone(vs)
		}
	}
	im.defaultClass(byID, m, cos)
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		s.q.Classes = append(s.q.Classes, *byID[id])
	}
	s.key = fmt.Sprintf("trusted %v %s %s\n%s", s.trusted, s.q.Trust, s.q.PFC.Mode, qosKey(s.q))
	return s
}

// globalWatchdog lists the per-port watchdog lines of s as why and gives
// it the global watchdog wd instead.
func (im *importer) globalWatchdog(s *source, wd *intent.Watchdog, why string) {
	for _, l := range s.wdLines {
		im.unexpressed(l, why)
	}
	g := intent.Watchdog{}
	if wd != nil {
		g = *wd
	}
	s.q.PFC.Watchdog, s.wdLines = &g, nil
	s.key = fmt.Sprintf("trusted %v %s %s\n%s", s.trusted, s.q.Trust, s.q.PFC.Mode, qosKey(s.q))
}

// portWatchdog is the watchdog of a profile with the watchdog on: the
// global one (wd) with the profile's own action and timer lines over it
// (renderers/eos portWatchdog), which s.wdLines records.
func (im *importer) portWatchdog(s *source, wd *intent.Watchdog, action, timer *iline) *intent.Watchdog {
	w := &intent.Watchdog{}
	if wd != nil {
		*w = *wd
	}
	if action != nil {
		a := action.Text[strings.LastIndexByte(action.Text, ' ')+1:]
		if a == cmp.Or(w.Action, "errdisable") {
			im.unexpressed(action, whySameWD)
		} else {
			w.Action = a
			s.wdLines = append(s.wdLines, action)
		}
	}
	if timer == nil {
		return w
	}
	// timeout S polling-interval S|auto recovery-time S [forced]
	f := strings.Fields(strings.TrimPrefix(timer.Text, "priority-flow-control pause watchdog port timer "))
	if len(f) == 7 && f[6] == "forced" {
		im.unexpressed(timer, whyForced)
		return w
	}
	sec := func(v string) time.Duration {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x <= 0 || x > 3600 {
			return -1
		}
		return time.Duration(math.Round(x*1000)) * time.Millisecond
	}
	if len(f) != 6 || f[0] != "timeout" || f[2] != "polling-interval" || f[4] != "recovery-time" {
		im.unexpressed(timer, whyWatchdog)
		return w
	}
	t := intent.Watchdog{Detection: sec(f[1]), Restoration: sec(f[5])}
	if f[3] != "auto" {
		t.Polling = sec(f[3])
	}
	switch {
	case !timersOK(&t) || t.Polling < 0:
		im.unexpressed(timer, whyBadTimers)
		return w
	case t.Detection == w.Detection && t.Restoration == w.Restoration && t.Polling == w.Polling:
		im.unexpressed(timer, whySameWD)
		return w
	}
	w.Detection, w.Restoration, w.Polling = t.Detection, t.Restoration, t.Polling
	s.wdLines = append(s.wdLines, timer)
	return w
}

// timersOK reports whether wd's timers are within what renderers/eos
// renders: EOS's ranges of reference/eos.md §3, the polling-interval at
// most half the timeout and the recovery-time (§1a).
func timersOK(wd *intent.Watchdog) bool {
	ok := func(d, lo, hi time.Duration) bool { return d == 0 || d >= lo && d <= hi }
	half := func(p, other time.Duration) bool { return p == 0 || other == 0 || 2*p <= other }
	return ok(wd.Detection, 10*time.Millisecond, time.Minute) && ok(wd.Restoration, 10*time.Millisecond, time.Minute) &&
		ok(wd.Polling, 5*time.Millisecond, 30*time.Second) && half(wd.Polling, wd.Detection) && half(wd.Polling, wd.Restoration)
}

// qosKey is what a port's QoS says, for grouping the ports that say the
// same (their unexpressed lines apart).
func qosKey(q *intent.QoS) string {
	var b strings.Builder
	for _, c := range q.Classes {
		fmt.Fprintf(&b, "%s %d %v %v %v %v %v %+v", c.Name, c.ID, c.DSCP, c.Default, c.CoS, c.DefaultCoS, c.Lossless, c.Scheduling)
		if e := c.ECN; e != nil {
			fmt.Fprintf(&b, " ecn %v %v %v %v", e.Min.Bytes, e.Max.Bytes, e.MaxProbability, e.DefaultProbability)
			if e.Weight != nil {
				fmt.Fprintf(&b, " w%d", *e.Weight)
			}
		}
		b.WriteByte('\n')
	}
	if wd := q.PFC.Watchdog; wd != nil {
		fmt.Fprintf(&b, "wd %+v\n", *wd)
	}
	return b.String()
}

// defaultClass picks the class that takes the DSCPs no class claims: the
// explicit one, else a class with no DSCP of its own (the one EOS's
// default map sends DSCP 0 to, traffic class 1, then 0, then the
// lowest), else a new class "default" on a free traffic class, which
// renders nothing.
//
// With cos the classes are those of the CoS map, and the class found
// takes the CoS values no class claims (cos = "default").
func (im *importer) defaultClass(byID map[int]*intent.Class, classes *dscpClasses, cos bool) {
	set := func(c *intent.Class) {
		if cos {
			c.DefaultCoS = true
		} else {
			c.Default = true
		}
	}
	if classes.explicit {
		set(byID[classes.def])
		return
	}
	free := func(id int) bool {
		c := byID[id]
		return c != nil && (cos && len(c.CoS) == 0 || !cos && len(c.DSCP) == 0)
	}
	for _, id := range []int{1, 0} {
		if free(id) {
			set(byID[id])
			return
		}
	}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		if free(id) {
			set(byID[id])
			return
		}
	}
	for id := range 7 {
		if byID[id] == nil {
			byID[id] = &intent.Class{Name: "default", ID: id}
			set(byID[id])
			return
		}
	}
}

// queue reads a tx-queue block into its class.
func (im *importer) queue(l *iline, class func(int) *intent.Class) {
	word, num, _ := strings.Cut(l.Text, " ")
	id, err := strconv.Atoi(num)
	switch {
	case err != nil || id < 0 || id > 7:
		im.unexpressedAll(l, "not a queue lossless can read")
		return
	case id == 7:
		im.unexpressedAll(l, whyTC7)
		return
	case im.queueWord == "":
		im.queueWord = word
	case im.queueWord != word:
		im.unexpressedAll(l, whyMixedQueue)
		return
	}
	c := class(id)
	var rr, strict, bw, guaranteed *iline
	var minBW units.Percent
	var shape units.BitRate
	for _, k := range l.Kids {
		switch t := k.Text; {
		case t == "priority strict":
			strict = k
		case t == "no priority":
			rr = k
		case strings.HasPrefix(t, "bandwidth percent "):
			bw = k
		case strings.HasPrefix(t, "bandwidth guaranteed "):
			p, err := strconv.Atoi(strings.TrimPrefix(t, "bandwidth guaranteed percent "))
			if !strings.HasPrefix(t, "bandwidth guaranteed percent ") || err != nil || p < 1 || p > 100 {
				im.unexpressed(k, whyGuarantee)
				continue
			}
			guaranteed, minBW = k, units.Percent(p)
		case strings.HasPrefix(t, "shape rate "):
			// The renderer writes whole Mbps (the intent's rates are
			// G or M) in kbps.
			n, ok := strings.CutSuffix(strings.TrimPrefix(t, "shape rate "), " kbps")
			v, err := strconv.ParseInt(n, 10, 64)
			if !ok || err != nil || v < 1000 || v%1000 != 0 {
				im.unexpressed(k, whyShape)
				continue
			}
			shape = units.BitRate(v) * 1000
		case strings.HasPrefix(t, "random-detect ecn minimum-threshold "):
			e, err := ecnOf(t)
			if err != nil {
				im.unexpressed(k, whyECNUnit)
				continue
			}
			c.ECN = e
		case t == "random-detect ecn count":
			// ECN counters: outside the scope, never touched (Scope).
		default:
			im.unexpressed(k, whyQueueLine)
		}
	}
	switch {
	case rr != nil && bw != nil:
		p, err := strconv.Atoi(strings.TrimPrefix(bw.Text, "bandwidth percent "))
		if err != nil || p < 1 || p > 100 {
			im.unexpressed(bw, "not a bandwidth share lossless can read")
			return
		}
		c.Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: units.Percent(p)}
	case rr != nil:
		im.unexpressed(rr, whyRR)
	case bw != nil:
		im.unexpressed(bw, whyBandwidth)
		if strict != nil {
			c.Scheduling = intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}
		}
	case strict != nil:
		c.Scheduling = intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}
	}
	if guaranteed != nil && c.Scheduling.Mode == intent.SchedulingDWRR {
		im.unexpressed(guaranteed, whyGuarantee)
		minBW = 0
	}
	c.Scheduling.MinBandwidth, c.Scheduling.Shape = minBW, shape
}

var errECN = errors.New("not an ECN line lossless writes")

// ecnOf reads `random-detect ecn minimum-threshold N kbytes
// maximum-threshold M kbytes [max-mark-probability P] [weight W]`, the
// form the renderer writes; without max-mark-probability EOS's default
// stands (ECN.DefaultProbability).
func ecnOf(t string) (*intent.ECN, error) {
	f := strings.Fields(t)
	if len(f) < 8 || f[2] != "minimum-threshold" || f[4] != "kbytes" || f[5] != "maximum-threshold" || f[7] != "kbytes" {
		return nil, errECN
	}
	lo, err1 := strconv.ParseInt(f[3], 10, 64)
	hi, err2 := strconv.ParseInt(f[6], 10, 64)
	if err1 != nil || err2 != nil || lo < 1 || hi < lo || hi > 256000000 {
		return nil, errECN
	}
	e := &intent.ECN{Min: intent.Threshold{Bytes: units.Bytes(lo) * units.KB}, Max: intent.Threshold{Bytes: units.Bytes(hi) * units.KB}, DefaultProbability: true}
	rest := f[8:]
	if len(rest) >= 2 && rest[0] == "max-mark-probability" {
		p, err := strconv.Atoi(rest[1])
		if err != nil || p < 1 || p > 100 {
			return nil, errECN
		}
		e.MaxProbability, e.DefaultProbability = units.Percent(p), false
		rest = rest[2:]
	}
	if len(rest) >= 2 && rest[0] == "weight" {
		w, err := strconv.Atoi(rest[1])
		if err != nil || w < 0 || w > 15 {
			return nil, errECN
		}
		e.Weight = &w
		rest = rest[2:]
	}
	if len(rest) > 0 {
		return nil, errECN
	}
	return e, nil
}

// Saved turns a saved `show running-config` file into what Running
// returns (QoSView). A file that is not EOS running-config text (JSON,
// XML, or text without a line EOS prints at the top level of every
// running config: an interface, hostname or the show header) is refused.
func Saved(file []byte) ([]byte, error) {
	t := strings.TrimSpace(string(file))
	switch {
	case t == "":
		return nil, errors.New("saved eos config: the file is empty")
	case t[0] == '{' || t[0] == '[' || t[0] == '<':
		return nil, errors.New("saved eos config: the file is JSON or XML, not `show running-config` text")
	}
	shaped := strings.HasPrefix(t, "! Command: show running-config")
	if err := clidiffLines(file, func(body string) {
		if strings.HasPrefix(body, "interface ") || strings.HasPrefix(body, "hostname ") {
			shaped = true
		}
	}); err != nil {
		return nil, fmt.Errorf("saved eos config: %w", err)
	}
	if !shaped {
		return nil, errors.New("saved eos config: not `show running-config` text: no interface or hostname line, and no `! Command: show running-config` header")
	}
	v, err := QoSView(file)
	if err != nil {
		return nil, fmt.Errorf("saved eos config: %w", err)
	}
	return v, nil
}

// clidiffLines calls fn with each top-level line of text.
func clidiffLines(text []byte, fn func(body string)) error {
	return scan(text, func(_, depth int, body string) error {
		if depth == 0 {
			fn(body)
		}
		return nil
	})
}
