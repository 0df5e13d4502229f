// Package huaweice renders one device's desired state as Huawei CloudEngine
// (V300R023, fixed CE6800/CE8800 families A and B) configuration, in the
// form `display current-configuration` prints it: `#` between sections and
// `return` at the end (reference/huawei-ce.md §1.1, §1.3). It knows the two
// syntax families of reference §0 and nothing about transport; it does no
// I/O. Beyond the core it renders 802.1p trust and maps, queue shaping,
// PFC off or auto, ECN at the default probability, WRED drop of yellow
// and red packets and thresholds in percent of the queue, each from the
// source its function cites.
package huaweice

import (
	"fmt"
	"maps"
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

// Vendor is the name Huawei CloudEngine devices carry in the inventory.
const Vendor = "huawei-ce"

// Syntax families of reference/huawei-ce.md §0.
const (
	FamilyA = "A"
	FamilyB = "B"
)

// slot is the slot number of the system-view commands that take one. The
// fixed-form CE6800/CE8800 switches of families A and B have one slot, 1
// (reference §1.1 `dcb pfc dscp-mapping enable slot 1`); modular CE16800 is
// not covered by the reference and is rejected by family.
const slot = 1

// Ranges from reference/huawei-ce.md §2 (V300R023 command pages).
const (
	drrWeightMin, drrWeightMax = 1, 100    // §2.6 qos queue Q drr weight W
	ecnProbMin, ecnProbMax     = 1, 100    // §2.5 discard-percentage
	ecnProbDefault             = 100       // V300R023 "ecn" page: default 100
	shapeMaxKbps               = 400000000 // V300R023 "qos queue shaping": cir 1–400000000
	queueCount                 = 8
	networkControlQueue        = 6  // cs6; 6 and 7 stay PQ without a strict class, as in §1.1
	nameMax                    = 31 // §2.4/§2.5: domain and drop-profile names 1–31 chars
	maxDomains                 = 8  // §2.4
	detectTicksMin             = 1  // §2.2 priority P deadlock-detect time T: 1–15
	detectTicksMax             = 15
	recoveryTicksMax           = 31                     // §2.2 deadlock-recovery time T: 0–31
	timerMin, timerMax         = 10 * time.Millisecond, // §2.2 family A timers: 10–1500 ms
		1500 * time.Millisecond
)

// deadlockIntervals are the tick lengths family B accepts for
// `dcb pfc deadlock-detect interval` (reference §2.2), shortest first.
var deadlockIntervals = []time.Duration{10 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond, 1000 * time.Millisecond}

// phbs names the per-hop behaviour of each queue: be/af1/af2/af3/af4/ef/cs6/cs7
// are queues 0..7 (reference §1.1, [C]).
var phbs = [queueCount]string{"be", "af1", "af2", "af3", "af4", "ef", "cs6", "cs7"}

// familyRules are the limits of one family (reference §0, §2).
type familyRules struct {
	pfcPriorities   []int       // priorities PFC may use
	maxPFC          int         // PFC priorities at most
	ecnMin, ecnMax  units.Bytes // ecn buffer-size low/high limit range, bytes (§2.5)
	poolMin         units.Bytes // qos buffer headroom-pool size range (§2.1)
	poolMax         units.Bytes
	poolMandatory   bool // family B: the headroom pool must exist before PFC works
	dscpMapping     bool // family B: dcb pfc dscp-mapping enable
	globalECN       bool // family A: qos ecn enable
	intervalTimers  bool // family B: interval + per-priority ticks; A: ms timers
	maxDropProfiles int  // §2.5: A 16, B 63
}

var families = map[string]familyRules{
	FamilyA: {
		pfcPriorities: []int{0, 1, 2, 3, 4, 5}, maxPFC: 3,
		ecnMin: 128, ecnMax: 16000000,
		poolMin: 1 * units.KB, poolMax: 2048 * units.KB,
		globalECN: true, maxDropProfiles: 16,
	},
	FamilyB: {
		pfcPriorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, maxPFC: 4,
		ecnMin: 320, ecnMax: 34078720,
		poolMin: 16 * units.KB, poolMax: 30720 * units.KB, poolMandatory: true,
		dscpMapping: true, intervalTimers: true, maxDropProfiles: 63,
	},
}

// Render returns d's CloudEngine configuration. Every size is written in the
// unit the command takes (bytes for ECN limits, kbytes or mbytes for the
// headroom pool, ms or ticks for deadlock timers); a value that is not a
// whole number of that unit is rounded up and reported in
// Document.Warnings. A feature the device's family cannot express is a
// *renderers.UnsupportedError.
func Render(d *intent.Device) (*config.Document, error) {
	r := &renderer{d: d}
	tree, err := r.render()
	if err != nil {
		return nil, err
	}
	return &config.Document{
		Device:   d.Name,
		Format:   config.CLI,
		Tree:     tree,
		Text:     Text(tree),
		Warnings: r.warnings,
	}, nil
}

// Text prints a tree as `display current-configuration` does: every
// top-level section preceded by a `#` line, children indented by one space,
// and a closing `#` and `return`.
func Text(tree []*config.Node) []byte {
	var b strings.Builder
	for _, n := range tree {
		b.WriteString("#\n")
		writeNode(&b, n, 0)
	}
	b.WriteString("#\nreturn\n")
	return []byte(b.String())
}

func writeNode(b *strings.Builder, n *config.Node, depth int) {
	b.WriteString(strings.Repeat(" ", depth))
	b.WriteString(n.Text)
	b.WriteByte('\n')
	for _, c := range n.Children {
		writeNode(b, c, depth+1)
	}
}

type renderer struct {
	d        *intent.Device
	fam      familyRules
	famName  string
	fullDSCP bool // OptionDSCPMap = DSCPMapFull
	warnings []config.Warning
}

// OptionDSCPMap chooses which DSCPs the DiffServ domain lists: the ones
// classes claim (DSCPMapClaimed, the default, as reference §1.1 writes
// it), or all 64 (DSCPMapFull), so that the default class also takes the
// DSCPs Huawei's built-in table sends to other queues.
const (
	OptionDSCPMap  = "huawei-ce.dscp-map"
	DSCPMapClaimed = "claimed"
	DSCPMapFull    = "full"
)

func (r *renderer) unsupported(feature, reason string, args ...any) error {
	return &renderers.UnsupportedError{Device: r.d.Name, Vendor: Vendor, Feature: feature, Reason: fmt.Sprintf(reason, args...)}
}

func (r *renderer) warn(rule, format string, args ...any) {
	w := config.Warning{Rule: rule, Device: r.d.Name, Message: fmt.Sprintf(format, args...)}
	if !slices.Contains(r.warnings, w) {
		r.warnings = append(r.warnings, w)
	}
}

// profileSet is one distinct port QoS: the domain and drop-profile names it
// got and the ports that use it.
type profileSet struct {
	qos      *intent.QoS
	domain   string
	dropByID map[int]string // class ID → drop-profile name
	ports    []*intent.Port
	// drr holds the scheduling lines, computed once per set.
	drr     []string
	drrDone bool
}

func (r *renderer) render() ([]*config.Node, error) {
	d := r.d
	if d.Platform == nil {
		return nil, r.unsupported("platform", "the device has no platform, so its CloudEngine syntax family (A or B, reference/huawei-ce.md §0) is unknown; set platform in the inventory")
	}
	fam, ok := families[d.Platform.Family]
	if !ok {
		return nil, r.unsupported("platform "+d.Platform.Model, "syntax family %q is not supported: lossless renders CloudEngine families A and B of reference/huawei-ce.md §0 only", d.Platform.Family)
	}
	r.fam, r.famName = fam, d.Platform.Family
	for _, k := range slices.Sorted(maps.Keys(d.Options)) {
		v := d.Options[k]
		switch {
		case k == OptionDSCPMap:
			if v != DSCPMapClaimed && v != DSCPMapFull {
				return nil, r.unsupported("option "+strconv.Quote(k), "value %q is not %q or %q", v, DSCPMapClaimed, DSCPMapFull)
			}
			r.fullDSCP = v == DSCPMapFull
		case strings.HasPrefix(k, "huawei-ce."):
			return nil, r.unsupported("option "+strconv.Quote(k), "the Huawei CE renderer knows only %q", OptionDSCPMap)
		}
	}
	if d.QoS == nil {
		return nil, r.unsupported("QoS", "the device has no QoS profile")
	}

	sets, err := r.profileSets()
	if err != nil {
		return nil, err
	}
	pfc, err := r.pfcPriorities(sets)
	if err != nil {
		return nil, err
	}

	var tree []*config.Node
	deadlockGlobal, deadlockPFC, err := r.deadlock(pfc)
	if err != nil {
		return nil, err
	}
	// Deadlock lines come first, as family B's interval line does in
	// reference §1.1. Where family A's timer and recovery-behavior lines
	// print is not shown by any source read (the V300R023 pages give only
	// the commands) [I]: they take the same place, in the order §1.3 lists
	// them, each its own `#` section like every system-view line of §1.1.
	tree = append(tree, deadlockGlobal...)
	if len(pfc) > 0 {
		// All priorities on one line, as Huawei's own configuration
		// scripts print them (`dcb pfc` / ` priority 3 4`: CE6800
		// V300R023 config guide, Example_for_Configuring_PFC_Deadlock_Prevention.md,
		// WheaterW/INTA-project @ 9308062d, the S1 mirror of the reference).
		ps := make([]string, len(pfc))
		for i, p := range pfc {
			ps[i] = strconv.Itoa(p)
		}
		n := &config.Node{Text: "dcb pfc", Children: []*config.Node{{Text: "priority " + strings.Join(ps, " ")}}}
		n.Children = append(n.Children, deadlockPFC...)
		tree = append(tree, n)
		if r.fam.dscpMapping && r.anyDSCPTrust(sets) {
			// Backpressure follows the DSCP-derived priority, needed for
			// untagged routed RoCE (reference §1.1). Under CoS trust the
			// default, backpressure by 802.1p (§2.1), is what the intent
			// says.
			tree = append(tree, &config.Node{Text: fmt.Sprintf("dcb pfc dscp-mapping enable slot %d", slot)})
		}
	}
	pool, err := r.headroomPool(len(pfc) > 0)
	if err != nil {
		return nil, err
	}
	tree = append(tree, pool...)
	if r.fam.globalECN && r.anyECN(sets) {
		// Family A: ECN is enabled globally (reference §1.3); placed with
		// the other system-view qos lines, before the domains that use it
		// [I: display position not shown by any source read].
		tree = append(tree, &config.Node{Text: "qos ecn enable"})
	}
	for _, s := range sets {
		dom, err := r.domain(s)
		if err != nil {
			return nil, err
		}
		tree = append(tree, dom)
	}
	drops, err := r.dropProfiles(sets)
	if err != nil {
		return nil, err
	}
	tree = append(tree, drops...)
	if err := r.buffersUnsupported(); err != nil {
		return nil, err
	}
	// Interfaces in the device's port order, each with its set's objects.
	for i := range d.Ports {
		p := &d.Ports[i]
		n, err := r.iface(p, setOf(sets, p))
		if err != nil {
			return nil, err
		}
		tree = append(tree, n)
	}
	if r.anyPFCAuto(sets) {
		// PFC mode auto negotiates by DCBX, which needs LLDP on the
		// switch (`lldp enable`) and the DCBX TLV on the port (`lldp
		// tlv-enable dcbx`): reference/huawei-ce.md §2.1, the V300R023
		// command page "dcb pfc enable" (dcb_pfc_enable.json) and
		// configuration guide Example_for_Configuring_DCB.md
		// (WheaterW/INTA-project @ 9308062d), whose configuration script
		// prints `lldp enable` after the interfaces.
		tree = append(tree, &config.Node{Text: "lldp enable"})
	}
	return tree, nil
}

// setOf returns the set that holds port p.
func setOf(sets []*profileSet, p *intent.Port) *profileSet {
	for _, s := range sets {
		if slices.Contains(s.ports, p) {
			return s
		}
	}
	return nil // every port is in a set (profileSets)
}

// profileSets groups the ports by their QoS content and names each group's
// DiffServ domain (nameDomains).
func (r *renderer) profileSets() ([]*profileSet, error) {
	d := r.d
	var sets []*profileSet
	byKey := map[string]*profileSet{}
	byPtr := map[*intent.QoS]*profileSet{}
	add := func(q *intent.QoS) *profileSet {
		if s, ok := byPtr[q]; ok {
			return s
		}
		k := qosKey(q)
		if s, ok := byKey[k]; ok {
			byPtr[q] = s
			return s
		}
		s := &profileSet{qos: q}
		byKey[k] = s
		byPtr[q] = s
		sets = append(sets, s)
		return s
	}
	add(d.QoS)
	for i := range d.Ports {
		p := &d.Ports[i]
		q := p.QoS
		if q == nil {
			q = d.QoS
		}
		s := add(q)
		s.ports = append(s.ports, p)
	}
	// Drop the device-level set when every port overrides it.
	if len(sets[0].ports) == 0 && len(sets) > 1 {
		sets = sets[1:]
	}
	if err := r.nameDomains(sets); err != nil {
		return nil, err
	}
	if len(sets) > maxDomains-1 {
		// The built-in `default` domain counts towards the 8 (reference §2.4).
		return nil, r.unsupported("QoS profiles", "the ports use %d different QoS profiles, but CloudEngine holds at most %d DiffServ domains besides `default` (reference/huawei-ce.md §2.4)", len(sets), maxDomains-1)
	}
	return sets, nil
}

// nameDomains names each set's DiffServ domain: names.classifier as
// written, else the profile's name ("roce"). Two different QoS contents
// with one default name (a per-port override) get "-2", "-3" … in the
// order they first appear; an explicit name is never suffixed, so two
// different contents given one explicit name are refused.
func (r *renderer) nameDomains(sets []*profileSet) error {
	taken := map[string]*profileSet{}
	explicit := func(s *profileSet) bool { return s.qos.Names.Classifier != "" }
	// Explicit names first, so a default never takes one.
	for _, s := range sets {
		if err := r.checkProfile(s.qos); err != nil {
			return err
		}
		if !explicit(s) {
			continue
		}
		name := s.qos.Names.Classifier
		if o := taken[name]; o != nil {
			return r.unsupported("DiffServ domain "+strconv.Quote(name), "two different QoS profiles on this device are both named %q (names.classifier), one object on CloudEngine; give %s its own names.classifier", name, r.overrideOf(o, s))
		}
		if err := r.checkName("DiffServ domain", name, "set names.classifier"); err != nil {
			return err
		}
		taken[name] = s
		s.domain = name
	}
	for _, s := range sets {
		if explicit(s) {
			continue
		}
		base := s.qos.Profile
		name := base
		for i := 2; taken[name] != nil; i++ {
			name = base + "-" + strconv.Itoa(i)
		}
		if err := r.checkName("DiffServ domain", name, "rename the qos_profile or set names.classifier"); err != nil {
			return err
		}
		taken[name] = s
		s.domain = name
	}
	return nil
}

// overrideOf names where the user gives the second of two sets that must
// not share a name its own: the per-port QoS override of b's ports, or of
// a's when b is the device's own QoS.
func (r *renderer) overrideOf(a, b *profileSet) string {
	s := b
	if b.qos == r.d.QoS {
		s = a
	}
	names := make([]string, 0, len(s.ports))
	for _, p := range s.ports {
		names = append(names, p.Name)
	}
	return "the QoS override of port " + strings.Join(names, ", ")
}

// qosKey identifies a QoS profile by the content the rendering uses.
func qosKey(q *intent.QoS) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%+v|", q.Profile, q.Trust, q.PFC.Mode, q.Names)
	for _, c := range q.Classes {
		fmt.Fprintf(&b, "%d:%v:%v:%v:%v:%v:%v:%+v:%d:%q:", c.ID, c.DSCP, c.Default, c.CoS, c.DefaultCoS, c.Lossless, c.CNP, c.Scheduling, c.MTU, c.Names.DropProfile)
		if c.ECN != nil {
			fmt.Fprintf(&b, "%+v:%+v:%d:%v:", c.ECN.Min, c.ECN.Max, c.ECN.MaxProbability, c.ECN.DefaultProbability)
			if c.ECN.Weight != nil {
				fmt.Fprintf(&b, "w%d", *c.ECN.Weight)
			}
			for _, w := range []*intent.ColorWRED{c.ECN.Yellow, c.ECN.Red} {
				if w != nil {
					fmt.Fprintf(&b, "c%+v:", *w)
				}
			}
		}
		b.WriteByte(';')
	}
	if w := q.PFC.Watchdog; w != nil {
		fmt.Fprintf(&b, "wd%+v", *w)
	}
	return b.String()
}

// checkName applies CloudEngine's name rules for DiffServ domains and
// drop-profiles (reference/huawei-ce.md §2.1, §2.4, §2.5: 1–31 characters
// of [A-Za-z0-9_-], not starting with '_'; a domain is not n, no, non or
// none, and neither is a prefix of "brief" from b on); fix says how the
// user changes it.
func (r *renderer) checkName(kind, name, fix string) error {
	if name == "" || len(name) > nameMax || strings.HasPrefix(name, "_") {
		return r.unsupported(kind+" "+strconv.Quote(name), "CloudEngine names are 1–%d characters and do not start with '_' (reference/huawei-ce.md §2.4–2.5); %s", nameMax, fix)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return r.unsupported(kind+" "+strconv.Quote(name), "the name has %q; CloudEngine takes letters, digits, '-' and '_' (reference/huawei-ce.md §2.1); %s", c, fix)
		}
	}
	l := strings.ToLower(name)
	if strings.HasPrefix("brief", l) || kind == "DiffServ domain" && strings.HasPrefix("none", l) {
		return r.unsupported(kind+" "+strconv.Quote(name), "CloudEngine reserves n, no, non, none (domains) and b … brief (reference/huawei-ce.md §2.4–2.5); %s", fix)
	}
	return nil
}

// checkProfile rejects what no CloudEngine family can express.
func (r *renderer) checkProfile(q *intent.QoS) error {
	if q.Trust != "" && q.Trust != intent.TrustDSCP && q.Trust != intent.TrustCoS {
		return r.unsupported("trust "+strconv.Quote(q.Trust), "lossless renders DSCP or CoS (802.1p) trust only")
	}
	for _, c := range q.Classes {
		if c.ID < 0 || c.ID >= queueCount {
			return r.unsupported(fmt.Sprintf("class %q", c.Name), "class ID %d is outside the queues 0–7", c.ID)
		}
		if c.MTU != 0 {
			// CloudEngine has no per-class MTU; the port MTU is not in
			// lossless' scope (reference §1.1 has no MTU line).
			r.warn(renderers.RuleNotRendered, "class %q MTU %d is not rendered: CloudEngine has no per-class MTU; set the interface MTU (jumbo frames) outside lossless", c.Name, c.MTU)
		}
		for _, v := range c.DSCP {
			if v < 0 || v > 63 {
				return r.unsupported(fmt.Sprintf("class %q", c.Name), "DSCP %d is outside 0–63", v)
			}
		}
		for _, v := range c.CoS {
			if v < 0 || v > 7 {
				return r.unsupported(fmt.Sprintf("class %q", c.Name), "802.1p priority %d is outside 0–7 (`8021p-inbound`, reference/huawei-ce.md §2.4)", v)
			}
		}
	}
	return nil
}

// pfcPriorities returns the lossless priorities, which must be the same on
// every port: they go in the default PFC profile (`dcb pfc`), which every
// port applies with `dcb pfc enable`.
//
// A profile with pfc mode "off" enables PFC on none of its ports, so its
// lossless classes take no part.
func (r *renderer) pfcPriorities(sets []*profileSet) ([]int, error) {
	var pfc []int
	seen := false
	for _, s := range sets {
		if s.qos.PFC.Mode == intent.PFCOff {
			continue
		}
		p := s.qos.LosslessPriorities()
		if seen && !slices.Equal(p, pfc) {
			return nil, r.unsupported("lossless classes", "ports use different PFC priorities (%v and %v); lossless renders the default PFC profile only, which all ports share", pfc, p)
		}
		pfc, seen = p, true
	}
	if len(pfc) > r.fam.maxPFC {
		return nil, r.unsupported(fmt.Sprintf("%d lossless classes", len(pfc)), "CloudEngine family %s (%s) enables PFC on at most %d priorities (reference/huawei-ce.md §0, §2.1)", r.famName, r.d.Platform.Model, r.fam.maxPFC)
	}
	allowed := r.fam.pfcPriorities
	if pp := r.d.Platform.PFCPriorities; len(pp) > 0 {
		allowed = pp
	}
	for _, p := range pfc {
		if !slices.Contains(allowed, p) {
			return nil, r.unsupported(fmt.Sprintf("lossless priority %d", p), "CloudEngine family %s (%s) takes PFC priorities %v only (reference/huawei-ce.md §0)", r.famName, r.d.Platform.Model, allowed)
		}
	}
	if m := r.d.Platform.MaxLossless; m > 0 && len(pfc) > m {
		return nil, r.unsupported(fmt.Sprintf("%d lossless classes", len(pfc)), "platform %s supports %d lossless classes", r.d.Platform.Model, m)
	}
	return pfc, nil
}

// deadlock renders the PFC watchdog as CloudEngine deadlock detection:
// system-view lines, and the lines inside `dcb pfc` (family B).
func (r *renderer) deadlock(pfc []int) (global, inPFC []*config.Node, err error) {
	w := r.d.QoS.PFC.Watchdog
	for _, p := range r.d.Ports {
		if p.QoS != nil && !sameWatchdog(p.QoS.PFC.Watchdog, w) {
			return nil, nil, r.unsupported("PFC watchdog of port "+p.Name, "CloudEngine deadlock detection is global, so every port must use the device's watchdog")
		}
	}
	if len(pfc) == 0 {
		return nil, nil, nil
	}
	if w == nil {
		// Deadlock detection cannot be switched off (reference §1.1: always
		// on by default); say so instead of dropping the intent.
		r.warn(renderers.RuleNotRendered, "PFC watchdog off is not rendered: CloudEngine deadlock detection is always on (reference/huawei-ce.md §1.1); the device keeps its defaults")
		return nil, nil, nil
	}
	var behavior string
	switch w.Action {
	case "":
	case "drop":
		behavior = "discard"
	case "forward":
		behavior = "forwarding"
	default:
		return nil, nil, r.unsupported("PFC watchdog action "+strconv.Quote(w.Action), "CloudEngine deadlock recovery either discards or forwards (`dcb pfc deadlock recovery-behavior`, reference §2.2); use drop or forward")
	}
	if r.fam.intervalTimers {
		global, inPFC, err = r.deadlockB(w, pfc)
	} else {
		global, err = r.deadlockA(w)
	}
	if err != nil {
		return nil, nil, err
	}
	// Family B forwards during recovery by default (reference §1.3), so
	// "forward" needs no line there, and family A discards by default but
	// Huawei's own family-A example states it (§1.3).
	if behavior != "" && !(r.fam.intervalTimers && behavior == "forwarding") {
		global = append(global, &config.Node{Text: fmt.Sprintf("dcb pfc deadlock recovery-behavior %s slot %d", behavior, slot)})
	}
	return global, inPFC, nil
}

func sameWatchdog(a, b *intent.Watchdog) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// deadlockB expresses detection and recovery as ticks of one interval
// (family B). The interval is the polling time when it is one of 10, 100,
// 500, 1000 ms and divides both times; otherwise the shortest interval that
// does. When none does, the times are rounded up to whole ticks of the
// shortest interval that keeps them in range, with a warning.
func (r *renderer) deadlockB(w *intent.Watchdog, pfc []int) (global, inPFC []*config.Node, err error) {
	det, rec := w.Detection, w.Restoration
	if det == 0 && rec == 0 && w.Polling == 0 {
		return nil, nil, nil
	}
	fits := func(iv time.Duration, exact bool) bool {
		dt, rt := ceilDiv(det, iv), ceilDiv(rec, iv)
		if exact && (det%iv != 0 || rec%iv != 0) {
			return false
		}
		return (det == 0 || dt >= detectTicksMin && dt <= detectTicksMax) && rt <= recoveryTicksMax
	}
	var iv time.Duration
	if slices.Contains(deadlockIntervals, w.Polling) && fits(w.Polling, true) {
		iv = w.Polling
	}
	for _, c := range deadlockIntervals {
		if iv == 0 && fits(c, true) {
			iv = c
		}
	}
	for _, c := range deadlockIntervals {
		if iv == 0 && fits(c, false) {
			iv = c
			if det%iv != 0 {
				r.warn(renderers.RuleRounded, "PFC watchdog detection %s rounded up to %s (%d × %s deadlock-detect interval)", det, time.Duration(ceilDiv(det, iv))*iv, ceilDiv(det, iv), iv)
			}
			if rec%iv != 0 {
				r.warn(renderers.RuleRounded, "PFC watchdog restoration %s rounded up to %s (%d × %s deadlock-detect interval)", rec, time.Duration(ceilDiv(rec, iv))*iv, ceilDiv(rec, iv), iv)
			}
		}
	}
	if iv == 0 {
		return nil, nil, r.unsupported(fmt.Sprintf("PFC watchdog detection %s / restoration %s", det, rec), "family B counts deadlock detection in 1–15 and recovery in 0–31 ticks of 10, 100, 500 or 1000 ms (reference/huawei-ce.md §2.2), which cannot hold these times")
	}
	if w.Polling != 0 && w.Polling != iv {
		r.warn(renderers.RuleDefaultChosen, "PFC watchdog polling %s is expressed as deadlock-detect interval %s, the interval that holds detection %s and restoration %s", w.Polling, iv, det, rec)
	}
	global = []*config.Node{{Text: fmt.Sprintf("dcb pfc deadlock-detect interval %d", iv.Milliseconds())}}
	for _, p := range pfc {
		if det != 0 {
			inPFC = append(inPFC, &config.Node{Text: fmt.Sprintf("priority %d deadlock-detect time %d", p, ceilDiv(det, iv))})
		}
		if rec != 0 {
			inPFC = append(inPFC, &config.Node{Text: fmt.Sprintf("priority %d deadlock-recovery time %d", p, ceilDiv(rec, iv))})
		}
	}
	return global, inPFC, nil
}

// deadlockA writes the family-A millisecond timers.
func (r *renderer) deadlockA(w *intent.Watchdog) ([]*config.Node, error) {
	var out []*config.Node
	for _, t := range []struct {
		what, cmd string
		v         time.Duration
	}{
		{"detection", "dcb pfc deadlock-detect timer", w.Detection},
		{"restoration", "dcb pfc deadlock-recovery timer", w.Restoration},
	} {
		if t.v == 0 {
			continue
		}
		ms := ceilDiv(t.v, time.Millisecond)
		if time.Duration(ms)*time.Millisecond != t.v {
			r.warn(renderers.RuleRounded, "PFC watchdog %s %s rounded up to %dms", t.what, t.v, ms)
		}
		if v := time.Duration(ms) * time.Millisecond; v < timerMin || v > timerMax {
			return nil, r.unsupported(fmt.Sprintf("PFC watchdog %s %s", t.what, t.v), "family A takes %s–%s (`%s`, reference/huawei-ce.md §2.2)", timerMin, timerMax, t.cmd)
		}
		out = append(out, &config.Node{Text: fmt.Sprintf("%s %d", t.cmd, ms)})
	}
	if w.Polling != 0 {
		r.warn(renderers.RuleNotRendered, "PFC watchdog polling %s is not rendered: family A has no deadlock polling interval (reference/huawei-ce.md §1.3)", w.Polling)
	}
	return out, nil
}

func ceilDiv(v, unit time.Duration) int64 {
	return int64((v + unit - 1) / unit)
}

// headroomPool renders `qos buffer headroom-pool size N {kbytes|mbytes}`,
// which family B needs before PFC works (reference §0, §1.1).
func (r *renderer) headroomPool(lossless bool) ([]*config.Node, error) {
	var size units.Bytes
	if r.d.Buffers != nil {
		size = r.d.Buffers.HeadroomPool
	}
	if size == 0 {
		if lossless && r.fam.poolMandatory {
			return nil, r.unsupported("lossless classes without a headroom pool", "CloudEngine family %s (%s) needs `qos buffer headroom-pool size … slot N` before PFC works (reference/huawei-ce.md §0, §1.1); set headroom_pool in the buffer profile (Huawei's example: 4MB, sized as the lossless-queue headroom of the ports likely to congest)", r.famName, r.d.Platform.Model)
		}
		return nil, nil
	}
	kb := size.Ceil(units.KB)
	if kb != size {
		r.warn(renderers.RuleRounded, "headroom pool %dB rounded up to %s (whole kbytes)", int64(size), kb)
	}
	if kb < r.fam.poolMin || kb > r.fam.poolMax {
		return nil, r.unsupported("headroom pool "+kb.String(), "family %s takes %s–%s (reference/huawei-ce.md §2.1)", r.famName, r.fam.poolMin, r.fam.poolMax)
	}
	text := fmt.Sprintf("%d kbytes", kb/units.KB)
	if kb%units.MB == 0 {
		text = fmt.Sprintf("%d mbytes", kb/units.MB)
	}
	return []*config.Node{{Text: fmt.Sprintf("qos buffer headroom-pool size %s slot %d", text, slot)}}, nil
}

// pfcEnabled reports whether a profile enables PFC on its ports (pfc
// mode on or auto, and a lossless class).
func pfcEnabled(q *intent.QoS) bool {
	return q.PFC.Mode != intent.PFCOff && len(q.LosslessPriorities()) > 0
}

func (r *renderer) anyPFCAuto(sets []*profileSet) bool {
	return slices.ContainsFunc(sets, func(s *profileSet) bool { return pfcEnabled(s.qos) && s.qos.PFC.Mode == intent.PFCAuto })
}

func (r *renderer) anyDSCPTrust(sets []*profileSet) bool {
	return slices.ContainsFunc(sets, func(s *profileSet) bool { return pfcEnabled(s.qos) && s.qos.Trust != intent.TrustCoS })
}

func (r *renderer) anyECN(sets []*profileSet) bool {
	for _, s := range sets {
		for _, c := range s.qos.Classes {
			if c.ECN != nil {
				return true
			}
		}
	}
	return false
}

// domain renders the DiffServ domain: one `ip-dscp-inbound` per DSCP a
// class claims, by DSCP, coloured green, as reference §1.1 writes it.
// DSCPs no class lists keep the domain's built-in mapping; a warning names
// those the default class therefore does not catch.
func (r *renderer) domain(s *profileSet) (*config.Node, error) {
	type line struct{ dscp, id int }
	var lines []line
	claimed := map[int]bool{}
	for _, c := range s.qos.Classes {
		for _, v := range c.DSCP {
			lines = append(lines, line{v, c.ID})
			claimed[v] = true
		}
	}
	dc := s.qos.DefaultClass()
	var off []int // unclaimed DSCPs the built-in map sends elsewhere
	for v := range 64 {
		switch {
		case dc == nil || claimed[v]:
		case r.fullDSCP:
			lines = append(lines, line{v, dc.ID})
		case v/8 != dc.ID:
			// A new domain starts with Huawei's default table (reference
			// §1.1), which sends DSCP d to queue d/8 (0–7 be, 8–15 af1, …
			// 56–63 cs7). The reference restates only the claimed DSCPs,
			// so the unclaimed ones whose built-in queue is not the
			// default class's are named.
			off = append(off, v)
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].dscp < lines[j].dscp })
	n := &config.Node{Text: "diffserv domain " + s.domain}
	for _, l := range lines {
		n.Children = append(n.Children, &config.Node{Text: fmt.Sprintf("ip-dscp-inbound %d phb %s green", l.dscp, phbs[l.id])})
	}
	n.Children = append(n.Children, r.cosLines(s.qos)...)
	if len(off) > 0 && s.qos.Trust != intent.TrustCoS {
		r.warn(renderers.RuleDefaultChosen, "default class %q (queue %d): DSCPs %s keep DiffServ domain %s's built-in mapping (DSCP/8 → queue, reference/huawei-ce.md §1.1), not queue %d; option %q = %q lists all 64", dc.Name, dc.ID, runs(off), s.domain, dc.ID, OptionDSCPMap, DSCPMapFull)
	}
	return n, nil
}

// cosLines maps the 802.1p priorities to the classes' queues, one
// `8021p-inbound P phb PHB green` per priority, as Huawei's configuration
// scripts print them (reference/huawei-ce.md §2.4; V300R023 configuration
// guide, Example_for_Configuring_Traffic_Shaping_Based_on_Priority_Mapping_in_a_DiffServ_Domain.md
// and Example_for_Configuring_Congestion_Management.md, WheaterW/INTA-project
// @ 9308062d: `8021p-inbound 6 phb ef green`), after the DSCP lines, in
// ascending order. Every priority is written, those no class lists going
// to the class with cos = "default" (the intent has one whenever a class
// has cos, LL027), so the domain's built-in 802.1p map (0 be … 7 cs7,
// the same guide's `display diffserv domain`) decides none. Under DSCP
// trust they classify the frames without an IP header: "With `trust
// dscp`, non-IP packets are queued by outer VLAN priority" (§2.4).
func (r *renderer) cosLines(q *intent.QoS) []*config.Node {
	var byCoS [8]*intent.Class
	var def *intent.Class
	for i := range q.Classes {
		c := &q.Classes[i]
		for _, v := range c.CoS {
			byCoS[v] = c
		}
		if c.DefaultCoS {
			def = c
		}
	}
	if def == nil {
		return nil
	}
	var out []*config.Node
	for p, c := range byCoS {
		if c == nil {
			c = def
		}
		out = append(out, &config.Node{Text: fmt.Sprintf("8021p-inbound %d phb %s green", p, phbs[c.ID])})
	}
	return out
}

// runs prints ascending ints as "8–23, 32–47".
func runs(v []int) string {
	var parts []string
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(v[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", v[i], v[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// dropProfiles renders one drop-profile per ECN class: named
// names.drop_profile as written, else `<domain>-ecn-<queue>`, which
// depends on the class and its profile alone. Classes (of one profile or
// of several) that give one name share the drop-profile when their ECN
// line is the same; a different line under one name is refused, since
// the name is one object on the device.
func (r *renderer) dropProfiles(sets []*profileSet) ([]*config.Node, error) {
	type owner struct {
		set  *profileSet
		cls  string
		line string
	}
	byName := map[string]owner{}
	var out []*config.Node
	for _, s := range sets {
		s.dropByID = map[int]string{}
		for _, c := range s.qos.Classes {
			if c.ECN == nil {
				continue
			}
			lines, err := r.ecnLines(c, s.ports)
			if err != nil {
				return nil, err
			}
			l := strings.Join(lines, "; ")
			name, fix := c.Names.DropProfile, "set names.drop_profile"
			if name == "" {
				name, fix = s.domain+"-ecn-"+strconv.Itoa(c.ID), "set names.drop_profile or names.classifier"
			}
			s.dropByID[c.ID] = name
			if o, ok := byName[name]; ok {
				if o.line == l {
					continue
				}
				where := fmt.Sprintf("class %q", c.Name)
				if o.set != s {
					where += " in " + r.overrideOf(o.set, s)
				}
				return nil, r.unsupported("drop-profile "+strconv.Quote(name), "classes %q and %q name one drop-profile %q but their ECN differs (%s / %s); give %s its own names.drop_profile", o.cls, c.Name, name, o.line, l, where)
			}
			if err := r.checkName("drop-profile", name, fix); err != nil {
				return nil, err
			}
			byName[name] = owner{s, c.Name, l}
			n := &config.Node{Text: "drop-profile " + name}
			for _, l := range lines {
				n.Children = append(n.Children, &config.Node{Text: l})
			}
			out = append(out, n)
		}
	}
	if len(out) > r.fam.maxDropProfiles-1 {
		return nil, r.unsupported("ECN profiles", "family %s holds at most %d drop-profiles besides `default` (reference/huawei-ce.md §2.5)", r.famName, r.fam.maxDropProfiles-1)
	}
	return out, nil
}

// ecnLines writes a class's drop-profile: the ECN marking line, then
// the WRED drop of yellow and red packets. The marking line is `ecn
// buffer-size low-limit L high-limit H discard-percentage P` in bytes
// (reference §1 unit choices) or, for thresholds given as shares of the
// queue, `ecn low-limit L high-limit H discard-percentage P` in percent of
// the queue length (V300R023 command page "ecn", WheaterW/INTA-project @
// 9308062d, ecn.json: percent 0–100 on every model, high ≥ low; its
// example and Example_for_Configuring_ECN.md print `ecn low-limit 50
// high-limit 80 discard-percentage 30`). A colour is `color yellow|red
// {buffer-size low-limit L high-limit H | low-limit L high-limit H}
// discard-percentage P` (V300R023 command page "color", color.json: the
// same byte ranges per family as `ecn`, percent 0–100, discard-percentage
// 1–100; Example_for_Configuring_WRED.md prints `color yellow low-limit 60
// high-limit 80 discard-percentage 20`), a drop threshold: "all
// subsequent packets are discarded". Where the colour lines print beside
// the ECN line is not shown by a source read [I]: after it, green,
// yellow, red as the examples list the colours.
func (r *renderer) ecnLines(c intent.Class, ports []*intent.Port) ([]string, error) {
	e := c.ECN
	feature := fmt.Sprintf("ECN of class %q", c.Name)
	if r.famName == FamilyA && c.ID > 5 {
		// V300R023 Configuration_Precautions_for_Congestion_Avoidance.md
		// (WheaterW/INTA-project @ 9308062d), family A models: "The ECN
		// function cannot be configured for queues 6 and 7", and with
		// ECN enabled globally no WRED there either.
		return nil, r.unsupported(feature, "family A takes `qos queue Q ecn` on queues 0–5 only, and no WRED on queues 6 and 7 once `qos ecn enable` is set (V300R023 congestion avoidance precautions); this class is queue %d", c.ID)
	}
	if e.Weight != nil {
		return nil, r.unsupported(feature+" weight", "`ecn weight` exists on V200 and modular CloudEngine only (reference/huawei-ce.md Errata), not on family %s; leave the WRED weight unset", r.famName)
	}
	prob := e.MaxProbability
	if e.DefaultProbability {
		// The command takes discard-percentage always; its default is
		// 100 (V300R023 command page "ecn", WheaterW/INTA-project @
		// 9308062d, ecn.json: "The default value is 100").
		prob = ecnProbDefault
	}
	if prob < ecnProbMin || prob > ecnProbMax {
		return nil, r.unsupported(feature, "discard-percentage %d is outside %d–%d (reference §2.5)", prob, ecnProbMin, ecnProbMax)
	}
	lim, err := r.limits(feature, e.Min, e.Max, ports, "ecn")
	if err != nil {
		return nil, err
	}
	lines := []string{fmt.Sprintf("ecn %s discard-percentage %d", lim, prob)}
	for _, col := range []struct {
		name string
		w    *intent.ColorWRED
	}{{"yellow", e.Yellow}, {"red", e.Red}} {
		if col.w == nil {
			// No line: the colour keeps the profile's default, drop
			// thresholds at 100 % of the queue (color.json: "all 100"),
			// which is no WRED.
			continue
		}
		f := feature + " " + col.name
		if !col.w.Drop {
			return nil, r.unsupported(f, "CloudEngine marks ECN at one set of thresholds for packets of every colour (the drop-profile's `ecn` line, V300R023 command page \"ecn\"); its per-colour thresholds, `color %s`, drop packets (command page \"color\"); set drop = true or leave %s out", col.name, col.name)
		}
		if col.w.MaxProbability < ecnProbMin || col.w.MaxProbability > ecnProbMax {
			return nil, r.unsupported(f, "discard-percentage %d is outside %d–%d (V300R023 command page \"color\")", col.w.MaxProbability, ecnProbMin, ecnProbMax)
		}
		lim, err := r.limits(f, col.w.Min, col.w.Max, ports, "color "+col.name)
		if err != nil {
			return nil, err
		}
		lines = append(lines, fmt.Sprintf("color %s %s discard-percentage %d", col.name, lim, col.w.MaxProbability))
	}
	return lines, nil
}

// limits writes a low and a high threshold as a drop-profile line takes
// them: `buffer-size low-limit L high-limit H` in bytes within the
// family's range, or `low-limit L high-limit H` in percent of the queue
// (both or neither a share, as the intent checks).
func (r *renderer) limits(feature string, minT, maxT intent.Threshold, ports []*intent.Port, cmd string) (string, error) {
	if minT.Percent != 0 || maxT.Percent != 0 {
		if minT.Percent == 0 || maxT.Percent == 0 {
			return "", r.unsupported(feature, "one threshold is a share of the queue and the other is not; `%s low-limit L high-limit H` takes both in percent", cmd)
		}
		if minT.Percent > maxT.Percent {
			return "", r.unsupported(feature, "low limit %s is above high limit %s", minT.Percent, maxT.Percent)
		}
		return fmt.Sprintf("low-limit %d high-limit %d", int(minT.Percent), int(maxT.Percent)), nil
	}
	lo, err := r.thresholdBytes(feature+" min threshold", minT, ports)
	if err != nil {
		return "", err
	}
	hi, err := r.thresholdBytes(feature+" max threshold", maxT, ports)
	if err != nil {
		return "", err
	}
	if lo > hi {
		return "", r.unsupported(feature, "low limit %dB is above high limit %dB", int64(lo), int64(hi))
	}
	for _, v := range []units.Bytes{lo, hi} {
		if v < r.fam.ecnMin || v > r.fam.ecnMax {
			return "", r.unsupported(feature, "%d bytes is outside family %s's %d–%d bytes (`%s buffer-size`, reference/huawei-ce.md §2.5)", int64(v), r.famName, int64(r.fam.ecnMin), int64(r.fam.ecnMax), cmd)
		}
	}
	return fmt.Sprintf("buffer-size low-limit %d high-limit %d", lo, hi), nil
}

// thresholdBytes converts a threshold to bytes. A time needs the speed of
// the ports the drop-profile serves, and one drop-profile serves them all,
// so they must share one speed.
func (r *renderer) thresholdBytes(feature string, t intent.Threshold, ports []*intent.Port) (units.Bytes, error) {
	if t.Time == 0 {
		return t.Bytes, nil
	}
	var speed units.BitRate
	for _, p := range ports {
		if p.Speed == 0 {
			return 0, r.unsupported(feature+" "+t.Time.String(), "CloudEngine takes ECN thresholds in bytes and port %s has no speed to convert the time; give the speed in the inventory or the threshold in bytes", p.Name)
		}
		if speed != 0 && p.Speed != speed {
			return 0, r.unsupported(feature+" "+t.Time.String(), "one drop-profile serves ports of %s and %s, so a time cannot become one byte threshold; give it in bytes or override the profile per speed", speed, p.Speed)
		}
		speed = p.Speed
	}
	if speed == 0 {
		return 0, r.unsupported(feature+" "+t.Time.String(), "CloudEngine takes ECN thresholds in bytes and no port gives the speed to convert the time")
	}
	return speed.BytesIn(t.Time), nil
}

// buffersUnsupported reports buffer settings CloudEngine does not take.
func (r *renderer) buffersUnsupported() error {
	b := r.d.Buffers
	if b == nil {
		return nil
	}
	if r.explicitHeadroom() && r.famName == FamilyA {
		return r.unsupported("explicit headroom", "family A's headroom is not configurable per port and its `dcb pfc buffer` takes absolute xon/xoff thresholds, not headroom (reference/huawei-ce.md §0, §1.3); use headroom = \"auto\"")
	}
	if b.LosslessPool != 0 || b.LossyPool != 0 {
		r.warn(renderers.RuleNotRendered, "buffer pool sizes (lossless %s, lossy %s) are not rendered: CloudEngine has no configurable lossless/lossy pools (reference/huawei-ce.md §2.3)", b.LosslessPool, b.LossyPool)
	}
	if b.Alpha != nil {
		r.warn(renderers.RuleNotRendered, "buffer alpha %d is not rendered: CloudEngine's `qos buffer queue … shared-threshold dynamic N` takes an index, not alpha (reference/huawei-ce.md Errata)", *b.Alpha)
	}
	return nil
}

// explicitHeadroom reports whether the intent sizes headroom itself; with
// "auto" the switch keeps its own (family B defaults: xoff dynamic 3, hdrm
// 256 KB, guaranteed 1600 B, reference §1.1), as the canonical block does.
func (r *renderer) explicitHeadroom() bool {
	b := r.d.Buffers
	return b != nil && !b.Headroom.Auto && (b.Headroom.Xoff != 0 || b.Headroom.Xon != 0)
}

// Family B `dcb pfc buffer` ranges (reference §2.1) and the block the
// device rounds effective values to (§1.1).
const (
	hdrmMin, hdrmMax             = 16 * units.KB, 30720 * units.KB
	xonOffsetMin, xonOffsetMax   = 1 * units.KB, 30720 * units.KB
	guaranteedMin, guaranteedMax = 640, 25600 // bytes
	bufferBlock                  = 320        // bytes
	defaultXoffAlpha             = 3          // `xoff dynamic 3`, the default (§1.1)
)

// pfcBuffer renders a family-B port's explicit headroom per lossless
// priority, in the form of reference §1.1's optional block: the headroom
// after PAUSE (intent Xoff) as `hdrm` in kbytes, the resume offset (Xon)
// as `xon offset` in kbytes on the default `xoff dynamic 3` trigger, and
// the reserved buffer (Size) as `guaranteed` in bytes, rounded up to the
// device's 320-byte blocks. Where these lines print among the interface's
// children is not shown by the sources read [I]: after `dcb pfc enable`.
func (r *renderer) pfcBuffer(p *intent.Port, lossless []int) ([]string, error) {
	if !r.explicitHeadroom() {
		return nil, nil
	}
	var out []string
	for _, prio := range lossless {
		var h *intent.Headroom
		for i := range p.Headroom {
			if p.Headroom[i].Priority == prio {
				h = &p.Headroom[i]
			}
		}
		if h == nil {
			return nil, r.unsupported(fmt.Sprintf("headroom of port %s priority %d", p.Name, prio), "the intent gives explicit headroom but the port has none for this lossless priority")
		}
		feature := fmt.Sprintf("headroom of port %s priority %d", p.Name, prio)
		if h.Xon != 0 {
			kb, err := r.kbytes(feature+" xon offset", h.Xon, xonOffsetMin, xonOffsetMax)
			if err != nil {
				return nil, err
			}
			out = append(out, fmt.Sprintf("dcb pfc buffer %d xoff dynamic %d xon offset %d kbytes", prio, defaultXoffAlpha, kb))
		}
		if h.Xoff != 0 {
			kb, err := r.kbytes(feature+" hdrm", h.Xoff, hdrmMin, hdrmMax)
			if err != nil {
				return nil, err
			}
			out = append(out, fmt.Sprintf("dcb pfc buffer %d hdrm %d kbytes", prio, kb))
		}
		if h.Size != 0 {
			g := h.Size.Ceil(bufferBlock)
			if g != h.Size {
				r.warn(renderers.RuleRounded, "%s guaranteed %dB rounded up to %dB (320-byte blocks)", feature, int64(h.Size), int64(g))
			}
			if g < guaranteedMin || g > guaranteedMax {
				return nil, r.unsupported(feature+" guaranteed", "%d bytes is outside family B's %d–%d bytes (reference/huawei-ce.md §2.1)", int64(g), guaranteedMin, guaranteedMax)
			}
			out = append(out, fmt.Sprintf("dcb pfc buffer %d guaranteed %d bytes", prio, g))
		}
	}
	return out, nil
}

// kbytes converts a size to whole kbytes, rounding up with a warning, and
// checks the range.
func (r *renderer) kbytes(feature string, v, lo, hi units.Bytes) (int64, error) {
	kb := v.Ceil(units.KB)
	if kb != v {
		r.warn(renderers.RuleRounded, "%s %dB rounded up to %s (whole kbytes)", feature, int64(v), kb)
	}
	if kb < lo || kb > hi {
		return 0, r.unsupported(feature, "%s is outside family B's %s–%s (reference/huawei-ce.md §2.1)", kb, lo, hi)
	}
	return int64(kb / units.KB), nil
}

// iface renders one interface with its children in the order real CE
// configs print them (reference Errata): trust, PFC, then wred → drr →
// drr weight → ecn.
func (r *renderer) iface(p *intent.Port, s *profileSet) (*config.Node, error) {
	q := s.qos
	n := &config.Node{Text: "interface " + p.Name}
	add := func(format string, args ...any) {
		n.Children = append(n.Children, &config.Node{Text: fmt.Sprintf(format, args...)})
	}
	if q.Trust != intent.TrustCoS {
		add("trust dscp")
	}
	// Under CoS trust the port keeps the Layer 2 default, outer 802.1p
	// (§2.4), which `display current-configuration` does not show:
	// Huawei's Example_for_Configuring_Congestion_Management.md (V300R023
	// configuration guide, WheaterW/INTA-project @ 9308062d) types `trust
	// 8021p outer` and its configuration script has none.
	add("trust upstream %s", s.domain)
	if pfcEnabled(q) {
		if q.PFC.Mode == intent.PFCAuto {
			// DCBX negotiation (§2.1, see render): the TLV first among
			// the port's DCB lines, as Example_for_Configuring_DCB.md
			// prints it (its place beside trust is not shown [I]).
			add("lldp tlv-enable dcbx")
			add("dcb pfc enable mode auto")
		} else {
			add("dcb pfc enable mode manual")
		}
		lines, err := r.pfcBuffer(p, q.LosslessPriorities())
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			add("%s", l)
		}
	}
	for _, c := range q.Classes {
		if c.Scheduling.Shape == 0 {
			continue
		}
		l, err := r.shapeLine(c)
		if err != nil {
			return nil, err
		}
		add("%s", l)
	}
	for _, c := range q.Classes {
		if c.ECN != nil {
			add("qos queue %d wred %s", c.ID, s.dropByID[c.ID])
		}
	}
	if !s.drrDone {
		drr, err := r.scheduling(q)
		if err != nil {
			return nil, err
		}
		s.drr, s.drrDone = drr, true
	}
	for _, l := range s.drr {
		add("%s", l)
	}
	for _, c := range q.Classes {
		if c.ECN != nil {
			add("qos queue %d ecn", c.ID)
		}
	}
	return n, nil
}

// shapeLine caps a class's queue at its shape rate: `qos queue Q shaping
// cir C kbps`, the V300R023 command page "qos queue shaping"
// (WheaterW/INTA-project @ 9308062d, qos_queue_shaping.json: cir 1–400000000,
// kbps the unit the configuration scripts print, `qos queue 2 shaping cir
// 2000 kbps pir 3000 kbps` for a typed `cir 2000 pir 3000`). Without pir
// the queue has one bucket, its PIR "the same as" the CIR (the same page),
// so the rate is the queue's maximum, which is what shape says. How the
// device prints the line without pir is not shown by a source read [I]:
// as typed, with the unit. It prints first among the queue lines
// (reference Errata).
func (r *renderer) shapeLine(c intent.Class) (string, error) {
	sh := c.Scheduling.Shape
	kbps := (int64(sh) + 999) / 1000
	if kbps*1000 != int64(sh) {
		r.warn(renderers.RuleRounded, "class %q shape %s rounded up to %d kbps (the unit `qos queue shaping` takes)", c.Name, sh, kbps)
	}
	if kbps < 1 || kbps > shapeMaxKbps {
		return "", r.unsupported(fmt.Sprintf("shape of class %q", c.Name), "%d kbps is outside `qos queue shaping cir` 1–%d kbps (V300R023 command reference)", kbps, shapeMaxKbps)
	}
	return fmt.Sprintf("qos queue %d shaping cir %d kbps", c.ID, kbps), nil
}

// scheduling renders `qos drr S to E` and the per-queue weights. Every
// queue is PQ by default, 7 highest, and a PQ queue is served before every
// DRR queue whatever its number: "PQ queues are scheduled first … After
// completing PQ scheduling, the device schedules the queues using WDRR"
// (V300R023 configuration guide, Configuring_Congestion_Management.md,
// WheaterW/INTA-project @ 9308062d; reference §1.1, §2.6). So a strict
// class may sit below the DRR queues as well as above them, and DRR takes
// the one run of queues between the strict classes around the weighted
// ones: from just above the highest strict class below them (0 when
// none) to just below the lowest strict class above them, as §1.1's
// `qos drr 0 to 5` below CNP's queue 6. With no strict class above it is
// §1.1's range again, up to 5 (further when a weighted class sits
// higher): queues 6 and 7, CS6 and CS7 network control in the built-in
// DiffServ map (§1.1), keep their PQ default rather than join DRR at
// weight 1, and the other queues the built-in map fills (AF4, EF) cannot
// take strict priority over the weighted classes. The range is one `qos
// drr S to E`, the form every source displays, so a strict class between
// two weighted ones is refused. A class that sets no scheduling gets what
// CloudEngine gives its queue, and a warning names it: inside the DRR
// range the default weight 1 (§2.6), outside it PQ.
func (r *renderer) scheduling(q *intent.QoS) ([]string, error) {
	var strict []intent.Class
	for _, c := range q.Classes {
		if c.Scheduling.Mode == intent.SchedulingStrict {
			strict = append(strict, c)
		}
	}
	// PQ order is the queue number (7 > 0); strict levels must agree.
	for _, a := range strict {
		for _, b := range strict {
			if a.ID > b.ID && a.Scheduling.Level > b.Scheduling.Level && b.Scheduling.Level != 0 && a.Scheduling.Level != 0 {
				return nil, r.unsupported(fmt.Sprintf("strict priority of class %q", a.Name), "CloudEngine serves PQ queues by queue number (7 first, reference/huawei-ce.md §1.1), so queue %d cannot have a lower priority level (%d) than queue %d (%d)", a.ID, a.Scheduling.Level, b.ID, b.Scheduling.Level)
			}
		}
	}
	var dwrr []intent.Class
	byWeight, byShare := false, false
	lo, hi := queueCount, -1 // the weighted classes' lowest and highest queue
	for _, c := range q.Classes {
		if c.Scheduling.Mode != intent.SchedulingDWRR {
			continue
		}
		if c.Scheduling.Weight != 0 {
			byWeight = true
		} else {
			byShare = true
		}
		dwrr = append(dwrr, c)
		lo, hi = min(lo, c.ID), max(hi, c.ID)
	}
	if byWeight && byShare {
		return nil, r.unsupported("DWRR scheduling", "some classes give a weight and others a bandwidth share; CloudEngine takes one weight per queue, so give all weights or all shares")
	}
	first, last := 0, -1 // the DRR range; last -1: none, every queue stays PQ
	if len(dwrr) > 0 {
		last = max(networkControlQueue-1, hi)
		for _, s := range strict {
			switch {
			case s.ID > lo && s.ID < hi:
				var above intent.Class
				for _, c := range dwrr {
					if c.ID > s.ID {
						above = c
						break
					}
				}
				return nil, r.unsupported(fmt.Sprintf("DWRR class %q", above.Name), "queue %d is above strict queue %d, which sits between DRR queues %d and %d; CloudEngine takes one `qos drr S to E` range (V300R023 configuration guide examples), so the DRR queues must be one run, below the strict ones or above them (move the class)", above.ID, s.ID, lo, hi)
			case s.ID < lo:
				first = max(first, s.ID+1)
			case s.ID > hi:
				last = min(last, s.ID-1)
			}
		}
	}
	for _, c := range q.Classes {
		if c.Scheduling.Mode != intent.SchedulingUnset {
			continue
		}
		switch {
		case c.ID >= first && c.ID <= last:
			r.warn(renderers.RuleDefaultChosen, "class %q (queue %d) sets no scheduling: it is in `qos drr %d to %d` with CloudEngine's default DRR weight 1 (reference/huawei-ce.md §2.6); give it a weight or a bandwidth share", c.Name, c.ID, first, last)
		case last >= 0:
			fix := "give it a weight or a bandwidth share (DRR then reaches its queue) or priority = \"strict\""
			if len(strict) > 0 {
				fix = fmt.Sprintf("give it priority = \"strict\" or move it into queues %d–%d", first, last)
				if first == 0 {
					fix = fmt.Sprintf("give it priority = \"strict\" or move it below queue %d", last+1)
				}
			}
			r.warn(renderers.RuleDefaultChosen, "class %q (queue %d) sets no scheduling: it keeps CloudEngine's default, PQ, and is served before every DRR queue, and by queue number (7 first) among the PQ ones (reference/huawei-ce.md §1.1, §2.6); %s", c.Name, c.ID, fix)
		default:
			r.warn(renderers.RuleDefaultChosen, "class %q (queue %d) sets no scheduling: it keeps CloudEngine's default, PQ, as every queue of this profile does (no class is weighted), served by queue number, 7 first (reference/huawei-ce.md §1.1, §2.6); give it a weight, a bandwidth share or priority = \"strict\"", c.Name, c.ID)
		}
	}
	if last < 0 {
		return nil, nil
	}
	out := []string{fmt.Sprintf("qos drr %d to %d", first, last)}
	for _, c := range dwrr {
		w := c.Scheduling.Weight
		if w == 0 {
			// A share in percent is the DRR weight: weights 1–100 are
			// relative (reference §1.1: 40/60 for a 40/60 split).
			w = int(c.Scheduling.Bandwidth)
		}
		if w < drrWeightMin || w > drrWeightMax {
			return nil, r.unsupported(fmt.Sprintf("DWRR weight of class %q", c.Name), "%d is outside the DRR weights %d–%d (reference/huawei-ce.md §2.6)", w, drrWeightMin, drrWeightMax)
		}
		out = append(out, fmt.Sprintf("qos queue %d drr weight %d", c.ID, w))
	}
	return out, nil
}
