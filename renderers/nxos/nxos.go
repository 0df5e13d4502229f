// Package nxos renders one device's desired state as Cisco NX-OS (Nexus 9000
// Cloud Scale, 8-queue mode) running-config text: DSCP or CoS class-maps
// (match-any or match-all), the type-qos classification policy, the egress
// queuing policy (strict priority, remaining and guaranteed shares) with
// WRED/ECN, the network-qos policy (MTU, PFC no-drop), system qos
// attachments, PFC watchdog and interface lines (PFC mode on, off or
// auto). The output is the form of
// reference/nxos.md §1; it does no I/O.
package nxos

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/renderers"
)

// Vendor is the name NX-OS devices carry in the inventory.
const Vendor = "nxos"

// Default object names, those of the Cisco AI/ML blueprint lineage
// (reference/nxos.md §1); the intent's names blocks replace them.
const (
	DefaultClassifier = "QOS_CLASSIFICATION"
	DefaultQueuing    = "QOS_EGRESS_PORT"
	DefaultNetworkQoS = "qos_network"
)

// The NX-OS rendering options (intent.Device.Options), each a form the
// device takes and displays for what the intent says otherwise.
const (
	// OptionPFCTLV = "send-tlv" forces PFC on with
	// `priority-flow-control mode on send-tlv`, PFC on while still
	// advertising the DCBX TLV (NX-OS 9.3 and 10.x; reference/nxos.md
	// Errata), as Microsoft's Azure Local ToR configs do
	// (testdata/realworld/nxos/azure-local-*); "none", the default,
	// writes `priority-flow-control mode on`. `mode on` and `mode on
	// send-tlv` are two values of one interface setting (Errata).
	OptionPFCTLV = "nxos.pfc-tlv"
	// OptionClassDefault = "implicit" leaves `class class-default` out
	// of the classification policy when the default class is qos-group
	// 0: traffic no class reclassifies is qos-group 0 (reference/nxos.md
	// §0 [C:qosguide106]), and the Azure Local ToR configs have no
	// class-default; "explicit", the default, writes `class
	// class-default` / `set qos-group N`.
	OptionClassDefault = "nxos.class-default"
	// PFCTLVSend and ClassDefaultImplicit are the non-default values.
	PFCTLVSend           = "send-tlv"
	ClassDefaultImplicit = "implicit"
)

// nameMax is the longest class-map or policy-map name NX-OS takes: 1–40
// characters for class-map type qos and policy-map type qos, queuing and
// network-qos (batfish's NX-OS grammar, CiscoNxos_common.g4:
// class_map_qos_name, policy_map_qos_name, policy_map_queuing_name,
// policy_map_network_qos_name, "1-40 characters").
const (
	nameMax       = 40
	nameMaxSource = "NX-OS class-map and policy-map names are 1–40 characters (batfish's NX-OS grammar, github.com/batfish/batfish projects/batfish/src/main/antlr4/org/batfish/vendor/cisco_nxos/grammar/CiscoNxos_common.g4)"
)

// Ranges the NX-OS CLI accepts (reference/nxos.md §2).
const (
	mtuMin, mtuMax     = 576, 9216 // network-qos mtu, DME range [C:tf-nxos]
	priorityLevelMax   = 8         // priority level 1–8 [C:tf-nxos]
	wredWeightMax      = 15        // random-detect weight 0–15
	defaultWRED        = 0         // weight written when the intent leaves it unset
	queueCount         = 8
	watchdogActionDrop = "drop"
	optionPrefix       = "nxos."
	indent             = "  " // 2 spaces per level (reference/nxos.md §1b)
	pfcWatchdogSource  = "https://cisco.com/c/en/us/td/docs/dcn/nx-os/nexus9000/105x/configuration/qos/cisco-nexus-9000-series-nx-os-quality-of-service-configuration-guide-105x/m-configuring-priority-flow-control.html"
	watchdogTimersWhy  = "NX-OS sets the PFC watchdog timers as multipliers of a fixed 100 ms poll (" + pfcWatchdogSource + "), and the CLI spelling of those multipliers is unconfirmed (reference/nxos.md §8 item 2); leave detection, restoration and polling unset for NX-OS devices (a device override) to keep NX-OS's defaults"
)

// queueOrder returns the order NX-OS lists the classes of a queuing
// policy: q6…q1, q-default, q7 (reference/nxos.md §1, [C:paregupt,pasanen]).
func queueOrder() [queueCount]int { return [queueCount]int{6, 5, 4, 3, 2, 1, 0, 7} }

// Render returns d's NX-OS configuration. Thresholds are written in kbytes
// (1024 B); a value that is not a whole number of kbytes is rounded up and
// reported in Document.Warnings. A feature NX-OS cannot express is a
// *renderers.UnsupportedError.
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
			b.WriteByte('\n')
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
			s += nodeSize(c, depth+1)
		}
		return s
	}
	total := 0
	for _, g := range groups {
		total++
		for _, n := range g {
			total += nodeSize(n, 0)
		}
	}
	return total
}

func writeNode(b *strings.Builder, n *config.Node, depth int) {
	for range depth {
		b.WriteString(indent)
	}
	b.WriteString(n.Text)
	b.WriteByte('\n')
	for _, c := range n.Children {
		writeNode(b, c, depth+1)
	}
}

func node(text string, children ...*config.Node) *config.Node {
	return &config.Node{Text: text, Children: children}
}

type renderer struct {
	d        *intent.Device
	warnings []config.Warning
	// sendTLV and implicitDefault are the options OptionPFCTLV and
	// OptionClassDefault.
	sendTLV, implicitDefault bool
}

func (r *renderer) unsupported(feature, format string, args ...any) error {
	return &renderers.UnsupportedError{Device: r.d.Name, Vendor: Vendor, Feature: feature, Reason: fmt.Sprintf(format, args...)}
}

func (r *renderer) warnf(rule, format string, args ...any) {
	w := config.Warning{Rule: rule, Device: r.d.Name, Message: fmt.Sprintf(format, args...)}
	if !slices.Contains(r.warnings, w) {
		r.warnings = append(r.warnings, w)
	}
}

// policies are the objects one QoS profile renders to.
type policies struct {
	classMaps []*config.Node
	qos       *config.Node // policy-map type qos
	queuing   *config.Node // policy-map type queuing
	network   *config.Node // policy-map type network-qos; nil when it has no class
}

// render returns the top-level stanzas in running-config order, grouped as
// NX-OS separates them with blank lines (reference/nxos.md §1).
func (r *renderer) render() ([][]*config.Node, error) {
	d := r.d
	if d.QoS == nil {
		return nil, r.unsupported("QoS", "the device has no QoS profile assigned")
	}
	if err := r.checkOptions(); err != nil {
		return nil, err
	}
	if err := r.checkBuffers(); err != nil {
		return nil, err
	}
	speed, speedErr := r.singleSpeed()
	devNames := objectNames(d.QoS, "")
	dev, err := r.policies(d.QoS, devNames, speed, speedErr)
	if err != nil {
		return nil, err
	}
	for _, n := range []*config.Node{dev.qos, dev.queuing, dev.network} {
		if err := r.checkPolicyName(n); err != nil {
			return nil, err
		}
	}

	// Per-port overrides become per-interface policies, one per policy
	// type whose contents or name differ from the device's; network-qos
	// is system-wide only (reference/nxos.md §2), so an override must keep
	// the device's network-qos. An override's policy takes the name its
	// names block gives, else the default name with a suffix: its
	// profile's name, or the first port that uses it when it overrides
	// the device's own profile (resolution keeps the profile's name).
	type portPolicy struct {
		qos, queuing string // "" when the device's policy serves
	}
	byProfile := map[*intent.QoS]portPolicy{}
	// owners maps a policy-map's header line to who renders it, so that
	// two different policies never get one name.
	owners := map[string]string{dev.qos.Text: "the device's QoS profile", dev.queuing.Text: "the device's QoS profile"}
	policyByText := map[string]*config.Node{dev.qos.Text: dev.qos, dev.queuing.Text: dev.queuing}
	var extraQoS, extraQueuing []*config.Node
	classMaps := dev.classMaps
	for _, p := range d.Ports {
		if _, done := byProfile[p.QoS]; p.QoS == nil || p.QoS == d.QoS || done {
			continue
		}
		suffix := "_" + p.QoS.Profile
		if p.QoS.Profile == d.QoS.Profile {
			suffix = "_" + nameUnsafe.ReplaceAllString(p.Name, "-")
		}
		names := objectNames(p.QoS, suffix)
		if p.QoS.Names.NetworkQoS != "" && p.QoS.Names.NetworkQoS != devNames.network {
			return nil, r.unsupported("QoS override on port "+p.Name, "it names the network-qos policy %q, but NX-OS applies one network-qos policy system-wide (reference/nxos.md §2): the device's is %q; leave network_qos out of the override's names", p.QoS.Names.NetworkQoS, devNames.network)
		}
		names.network = devNames.network
		pp, err := r.policies(p.QoS, names, speed, speedErr)
		if err != nil {
			return nil, err
		}
		if !sameNode(pp.network, dev.network) {
			return nil, r.unsupported("QoS override on port "+p.Name, "its MTU or lossless classes differ from the device's, but NX-OS applies network-qos (MTU, PFC no-drop) system-wide only (reference/nxos.md §2); override only classification, scheduling and ECN per port")
		}
		var entry portPolicy
		for _, k := range []struct {
			own, device *config.Node
			explicit    string
			attr        string
			name        *string
			extra       *[]*config.Node
		}{
			{pp.qos, dev.qos, p.QoS.Names.Classifier, "classifier", &entry.qos, &extraQoS},
			{pp.queuing, dev.queuing, p.QoS.Names.Queuing, "queuing", &entry.queuing, &extraQueuing},
		} {
			if sameNode(k.own, k.device) {
				continue // same contents, same name: the device's serves
			}
			if k.explicit == "" && sameChildren(k.own, k.device) {
				continue // a default name: the device's policy serves
			}
			if have, ok := policyByText[k.own.Text]; ok {
				if !sameChildren(have, k.own) {
					return nil, r.unsupported("QoS override on port "+p.Name, "its %s has the name of the one of %s but other contents; give the override's names block its own %s name", k.own.Text, owners[k.own.Text], k.attr)
				}
				*k.name = lastWord(k.own.Text)
				continue
			}
			if err := r.checkPolicyName(k.own); err != nil {
				return nil, err
			}
			owners[k.own.Text] = "the QoS override of port " + p.Name
			policyByText[k.own.Text] = k.own
			*k.name = lastWord(k.own.Text)
			*k.extra = append(*k.extra, k.own)
		}
		byProfile[p.QoS] = entry
		for _, cm := range pp.classMaps {
			if i := slices.IndexFunc(classMaps, func(n *config.Node) bool { return lastWord(n.Text) == lastWord(cm.Text) }); i >= 0 {
				if !sameNode(classMaps[i], cm) {
					return nil, r.unsupported("class-map "+lastWord(cm.Text), "the QoS override of port %s gives a class the class-map name of another profile's class on the device, with a different match; NX-OS class-maps are global, so give the override's class its own name (names { class_map = … })", p.Name)
				}
				continue
			}
			classMaps = append(classMaps, cm)
		}
	}

	var groups [][]*config.Node
	if wd := r.watchdogUsed(); wd {
		// [C:paregupt,pasanen]: the global line enables the watchdog.
		groups = append(groups, []*config.Node{node("priority-flow-control watch-dog-interval on")})
	}
	if len(classMaps) > 0 {
		groups = append(groups, classMaps)
	}
	for _, n := range append([]*config.Node{dev.qos}, extraQoS...) {
		groups = append(groups, []*config.Node{n})
	}
	for _, n := range append([]*config.Node{dev.queuing}, extraQueuing...) {
		groups = append(groups, []*config.Node{n})
	}
	system := node("system qos")
	if dev.network != nil {
		groups = append(groups, []*config.Node{dev.network})
		system.Children = append(system.Children, node("service-policy type network-qos "+devNames.network))
	}
	system.Children = append(system.Children, node("service-policy type queuing output "+devNames.queuing))
	groups = append(groups, []*config.Node{system})

	for _, p := range d.Ports {
		q := p.QoS
		if q == nil {
			q = d.QoS
		}
		in := node("interface " + p.Name)
		if len(q.LosslessPriorities()) > 0 {
			if line := pfcModeLine(q.PFC.Mode); line != "" {
				if r.sendTLV && line == "priority-flow-control mode on" {
					line += " " + PFCTLVSend
				}
				in.Children = append(in.Children, node(line))
			}
			if q.PFC.Watchdog != nil {
				in.Children = append(in.Children, node("priority-flow-control watch-dog-interval on"))
			}
		}
		pol := byProfile[q]
		in.Children = append(in.Children, node("service-policy type qos input "+cmp.Or(pol.qos, devNames.qos)))
		if pol.queuing != "" {
			// A per-interface queuing policy overrides the system one
			// (reference/nxos.md §2, `service-policy type queuing output`
			// in config-if [C:paregupt,tac]).
			in.Children = append(in.Children, node("service-policy type queuing output "+pol.queuing))
		}
		groups = append(groups, []*config.Node{in})
	}
	return groups, nil
}

// checkOptions reads the nxos.* options (OptionPFCTLV,
// OptionClassDefault) and rejects any other key or value.
func (r *renderer) checkOptions() error {
	keys := make([]string, 0, len(r.d.Options))
	for k := range r.d.Options {
		if strings.HasPrefix(k, optionPrefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := r.d.Options[k]
		switch {
		case k == OptionPFCTLV && (v == PFCTLVSend || v == "none"):
			r.sendTLV = v == PFCTLVSend
		case k == OptionPFCTLV:
			return r.unsupported("option "+strconv.Quote(k), "value %q is neither %q nor \"none\"", v, PFCTLVSend)
		case k == OptionClassDefault && (v == ClassDefaultImplicit || v == "explicit"):
			r.implicitDefault = v == ClassDefaultImplicit
		case k == OptionClassDefault:
			return r.unsupported("option "+strconv.Quote(k), "value %q is neither %q nor \"explicit\"", v, ClassDefaultImplicit)
		default:
			return r.unsupported("option "+strconv.Quote(k), "the NX-OS renderer knows only %q and %q", OptionPFCTLV, OptionClassDefault)
		}
	}
	return nil
}

// checkBuffers rejects buffer settings NX-OS cannot take from this
// renderer. Cloud Scale switches carve their shared buffer themselves; the
// `hardware qos` buffer commands and `pause buffer-size` are platform
// specific and unconfirmed (reference/nxos.md §2, §8 item 6).
func (r *renderer) checkBuffers() error {
	b := r.d.Buffers
	if b == nil {
		return nil
	}
	const why = "NX-OS Cloud Scale buffer carving and pause thresholds have no confirmed CLI form (reference/nxos.md §2 and §8 item 6); leave it to the switch (headroom = \"auto\", no pool sizes) on NX-OS devices"
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

// watchdogUsed reports whether any profile on the device turns the PFC
// watchdog on (checkWatchdog has vetted each one's settings).
func (r *renderer) watchdogUsed() bool {
	if r.d.QoS.PFC.Watchdog != nil {
		return true
	}
	for _, p := range r.d.Ports {
		if p.QoS != nil && p.QoS.PFC.Watchdog != nil {
			return true
		}
	}
	return false
}

func (r *renderer) checkWatchdog(q *intent.QoS) error {
	wd := q.PFC.Watchdog
	if wd == nil {
		return nil
	}
	switch {
	case wd.Detection != 0:
		return r.unsupported("PFC watchdog detection time "+wd.Detection.String(), watchdogTimersWhy)
	case wd.Restoration != 0:
		return r.unsupported("PFC watchdog restoration time "+wd.Restoration.String(), watchdogTimersWhy)
	case wd.Polling != 0:
		return r.unsupported("PFC watchdog polling interval "+wd.Polling.String(), watchdogTimersWhy)
	}
	// A triggered NX-OS watchdog drops the stuck queue's packets
	// (pfcWatchdogSource); it has no forward or errdisable action.
	if wd.Action != "" && wd.Action != watchdogActionDrop {
		return r.unsupported("PFC watchdog action "+strconv.Quote(wd.Action), "a triggered NX-OS watchdog always drops the stuck no-drop queue's packets ("+pfcWatchdogSource+"); use action \"drop\" or leave it unset")
	}
	return nil
}

// singleSpeed returns the speed all the device's ports share, or an error
// saying why there is none. Time-based ECN thresholds need it: the queuing
// policy is system-wide, so one byte value must fit every port.
func (r *renderer) singleSpeed() (units.BitRate, error) {
	if len(r.d.Ports) == 0 {
		return 0, fmt.Errorf("the device has no managed ports, so the port speed is unknown")
	}
	s := r.d.Ports[0].Speed
	for _, p := range r.d.Ports[1:] {
		if p.Speed != s {
			return 0, fmt.Errorf("the NX-OS queuing policy is system-wide and takes bytes, but the ports run at different speeds (%s on %s, %s on %s); give the threshold in bytes", s, r.d.Ports[0].Name, p.Speed, p.Name)
		}
	}
	if s <= 0 {
		return 0, fmt.Errorf("port %s has no speed", r.d.Ports[0].Name)
	}
	return s, nil
}

// names are the names of the policy-maps one QoS profile renders to.
type names struct{ qos, queuing, network string }

// objectNames returns the policy-map names of q: those its names block
// gives, else the defaults with suffix appended (empty for the device's
// own profile).
func objectNames(q *intent.QoS, suffix string) names {
	or := func(name, def string) string {
		if name != "" {
			return name
		}
		return def + suffix
	}
	return names{or(q.Names.Classifier, DefaultClassifier), or(q.Names.Queuing, DefaultQueuing), or(q.Names.NetworkQoS, DefaultNetworkQoS)}
}

// ClassMapName returns the name of class c's class-map: its names block's,
// else the class's own name.
func ClassMapName(c *intent.Class) string { return cmp.Or(c.Names.ClassMap, c.Name) }

// checkName refuses a name longer than NX-OS takes (nameMax).
func (r *renderer) checkName(what, name string) error {
	if len(name) > nameMax {
		return r.unsupported(what+" name "+strconv.Quote(name), "%d characters are more than %d: %s", len(name), nameMax, nameMaxSource)
	}
	return nil
}

// checkPolicyName refuses the name of policy-map n (nil: none) when it
// is longer than NX-OS takes.
func (r *renderer) checkPolicyName(n *config.Node) error {
	if n == nil {
		return nil
	}
	return r.checkName(strings.TrimSuffix(n.Text, " "+lastWord(n.Text)), lastWord(n.Text))
}

// policies renders one QoS profile with the policy names n.
func (r *renderer) policies(q *intent.QoS, n names, speed units.BitRate, speedErr error) (*policies, error) {
	cosTrust := q.Trust == intent.TrustCoS
	if q.Trust != "" && q.Trust != intent.TrustDSCP && !cosTrust {
		return nil, r.unsupported("trust "+strconv.Quote(q.Trust), "this renderer classifies on DSCP or CoS")
	}
	if err := r.checkWatchdog(q); err != nil {
		return nil, err
	}
	lossless := q.LosslessPriorities()
	if pl := r.d.Platform; pl != nil {
		if pl.MaxLossless > 0 && len(lossless) > pl.MaxLossless {
			return nil, r.unsupported("lossless classes", "%d lossless classes (priorities %s) exceed the %d that %s supports", len(lossless), joinInts(lossless, ", "), pl.MaxLossless, pl.Model)
		}
		for _, p := range lossless {
			if len(pl.PFCPriorities) > 0 && !slices.Contains(pl.PFCPriorities, p) {
				return nil, r.unsupported(fmt.Sprintf("PFC priority %d", p), "%s runs PFC on priorities %s only", pl.Model, joinInts(pl.PFCPriorities, ", "))
			}
		}
	}

	out := &policies{}
	qosPolicy := node("policy-map type qos " + n.qos)
	classOf := map[string]string{}
	for _, c := range q.Classes {
		if c.ID < 0 || c.ID >= queueCount {
			return nil, r.unsupported("class "+c.Name, "traffic class %d is outside 0–7", c.ID)
		}
		match, values := "dscp", c.DSCP
		if cosTrust {
			match, values = "cos", c.CoS
		}
		if c.Default || (cosTrust && c.DefaultCoS) || len(values) == 0 {
			continue
		}
		name := ClassMapName(&c)
		if err := r.checkName("class-map of class "+c.Name, name); err != nil {
			return nil, err
		}
		if other, ok := classOf[name]; ok {
			return nil, r.unsupported("class-map of class "+c.Name, "classes %s and %s would both be the class-map %q; give one of them its own name (names { class_map = … })", other, c.Name, name)
		}
		classOf[name] = c.Name
		// Comma list, the form NX-OS stores and displays
		// (reference/nxos.md Errata); `match cos` takes its values the
		// same way (batfish's NX-OS grammar test config nxos_class_map:
		// `match cos 1-2,4`; reference/nxos.md §2 `match cos`, 0–7), as
		// Microsoft's Azure Local ToR configs classify RDMA and cluster
		// traffic (`match cos 3`, `match cos 7`; testdata/realworld/nxos/
		// azure-local-*). One match line each, so match-all and match-any
		// match the same packets; only the header differs, and NX-OS
		// displays either (`class-map type qos match-all RDMA` in the
		// Azure Local configs, reference/nxos.md §2).
		out.classMaps = append(out.classMaps, node(classMapHeader(&c)+name, node("match "+match+" "+joinInts(values, ","))))
		qosPolicy.Children = append(qosPolicy.Children, node("class "+name, node(fmt.Sprintf("set qos-group %d", c.ID))))
	}
	defaultID := 0
	if dc := q.DefaultClass(); dc != nil {
		defaultID = dc.ID
	}
	if cosTrust {
		for _, c := range q.Classes {
			if c.DefaultCoS {
				defaultID = c.ID
			}
		}
	}
	switch {
	case !r.implicitDefault:
		qosPolicy.Children = append(qosPolicy.Children, node("class class-default", node(fmt.Sprintf("set qos-group %d", defaultID))))
	case defaultID != 0:
		return nil, r.unsupported("option "+strconv.Quote(OptionClassDefault), "%q leaves class-default to qos-group 0, but the default class is traffic class %d (reference/nxos.md §0 [C:qosguide106]); use \"explicit\"", ClassDefaultImplicit, defaultID)
	}
	out.qos = qosPolicy

	queuing := node("policy-map type queuing " + n.queuing)
	remaining, guaranteed := 0, 0
	for _, id := range queueOrder() {
		cls := node("class type queuing c-out-8q-q" + queueName(id))
		c := q.Class(id)
		sched, err := r.scheduling(c, id)
		if err != nil {
			return nil, err
		}
		cls.Children = append(cls.Children, sched)
		if v, ok := strings.CutPrefix(sched.Text, "bandwidth remaining percent "); ok {
			n, _ := strconv.Atoi(v)
			remaining += n
		} else if v, ok := strings.CutPrefix(sched.Text, "bandwidth percent "); ok {
			n, _ := strconv.Atoi(v)
			guaranteed += n
		}
		if c != nil && c.ECN != nil {
			line, err := r.ecn(c, speed, speedErr)
			if err != nil {
				return nil, err
			}
			cls.Children = append(cls.Children, node(line))
		}
		queuing.Children = append(queuing.Children, cls)
	}
	if remaining > 100 {
		return nil, r.unsupported("bandwidth shares", "the bandwidth remaining percent of the queues add up to %d%%, more than 100%%", remaining)
	}
	if guaranteed > 100 {
		return nil, r.unsupported("minimum bandwidths", "the bandwidth percent of the queues add up to %d%%, more than the port's 100%%", guaranteed)
	}
	out.queuing = queuing

	network := node("policy-map type network-qos " + n.network)
	for _, c := range q.Classes {
		if !c.Lossless && c.MTU == 0 {
			continue
		}
		cls := node("class type network-qos c-8q-nq" + queueName(c.ID))
		if c.MTU != 0 {
			lo, hi := mtuMin, mtuMax
			if pl := r.d.Platform; pl != nil {
				lo, hi = max(lo, pl.MTUMin), min(hi, orDefault(pl.MTUMax, hi))
			}
			if c.MTU < lo || c.MTU > hi {
				return nil, r.unsupported("MTU of class "+c.Name, "%d is outside the %d–%d that NX-OS network-qos accepts here", c.MTU, lo, hi)
			}
			cls.Children = append(cls.Children, node(fmt.Sprintf("mtu %d", c.MTU)))
		}
		if c.Lossless {
			cls.Children = append(cls.Children, node(fmt.Sprintf("pause pfc-cos %d", c.ID)))
		}
		network.Children = append(network.Children, cls)
	}
	if len(network.Children) > 0 {
		out.network = network
	}
	return out, nil
}

// scheduling returns the scheduling line of queue id, whose class is c
// (nil when no class uses the queue).
func (r *renderer) scheduling(c *intent.Class, id int) (*config.Node, error) {
	if c == nil {
		// An unused queue gets no share (reference/nxos.md §1).
		return node("bandwidth remaining percent 0"), nil
	}
	if mb := c.Scheduling.MinBandwidth; mb > 0 {
		// `bandwidth percent N` guarantees the queue N % of the port
		// (reference/nxos.md §2 [C:cmdref-B]); a queuing policy may mix
		// it with other queues' `bandwidth remaining percent` (Errata),
		// as the Azure Local ToR configs give the cluster queue
		// `bandwidth percent 1` beside 50 % and 48 % remaining shares
		// (testdata/realworld/nxos/azure-local-*).
		if c.Scheduling.Mode != intent.SchedulingUnset {
			return nil, r.unsupported("min_bandwidth of class "+c.Name, "an NX-OS queuing class takes one scheduling line: `priority level`, `bandwidth remaining percent` or `bandwidth percent`, the alternative to remaining (reference/nxos.md §2 [C:cmdref-B]); give the class min_bandwidth without priority or bandwidth")
		}
		if mb > 100 {
			return nil, r.unsupported("min_bandwidth of class "+c.Name, "%d%% is outside 0–100%%", int(mb))
		}
		return node(fmt.Sprintf("bandwidth percent %d", int(mb))), nil
	}
	switch c.Scheduling.Mode {
	case intent.SchedulingStrict:
		level := c.Scheduling.Level
		if level == 0 {
			level = 1
		}
		if level < 1 || level > priorityLevelMax {
			return nil, r.unsupported("priority level of class "+c.Name, "%d is outside NX-OS's 1–%d", level, priorityLevelMax)
		}
		return node(fmt.Sprintf("priority level %d", level)), nil
	case intent.SchedulingDWRR:
		if c.Scheduling.Weight != 0 {
			return nil, r.unsupported("DWRR weight of class "+c.Name, "NX-OS shares bandwidth by `bandwidth remaining percent`, not by weight; give the class a bandwidth percentage")
		}
		p := int(c.Scheduling.Bandwidth)
		if p < 0 || p > 100 {
			return nil, r.unsupported("bandwidth of class "+c.Name, "%d%% is outside 0–100%%", p)
		}
		return node(fmt.Sprintf("bandwidth remaining percent %d", p)), nil
	}
	// Unset scheduling keeps what NX-OS's default-8q-out-policy gives the
	// queue: q7 strict level 1, q-default 100 %, the others 0 [C:tac].
	switch id {
	case 7:
		return node("priority level 1"), nil
	case 0:
		return node("bandwidth remaining percent 100"), nil
	}
	return node("bandwidth remaining percent 0"), nil
}

// ecn returns the random-detect line of class c. Both thresholds are
// written in kbytes; NX-OS takes packets, bytes, kbytes or mbytes
// [C:cmdref-R], and one unit keeps diffs stable.
func (r *renderer) ecn(c *intent.Class, speed units.BitRate, speedErr error) (string, error) {
	e := c.ECN
	minKB, err := r.kbytes(c, "minimum", e.Min, speed, speedErr)
	if err != nil {
		return "", err
	}
	maxKB, err := r.kbytes(c, "maximum", e.Max, speed, speedErr)
	if err != nil {
		return "", err
	}
	if minKB > maxKB {
		return "", r.unsupported("ECN thresholds of class "+c.Name, "minimum %d kbytes is above maximum %d kbytes", minKB, maxKB)
	}
	p := int(e.MaxProbability)
	if p < 0 || p > 100 {
		return "", r.unsupported("ECN probability of class "+c.Name, "%d%% is outside 0–100%%", p)
	}
	w := defaultWRED
	if e.Weight != nil {
		w = *e.Weight
	} else {
		// The threshold form makes weight mandatory [C:cmdref-R]; 0 is
		// the Cisco blueprint's value (reference/nxos.md §1).
		r.warnf(renderers.RuleDefaultChosen, "ECN weight of class %s is unset; NX-OS requires one, written as %d", c.Name, defaultWRED)
	}
	if w < 0 || w > wredWeightMax {
		return "", r.unsupported("ECN weight of class "+c.Name, "%d is outside 0–%d", w, wredWeightMax)
	}
	return fmt.Sprintf("random-detect minimum-threshold %d kbytes maximum-threshold %d kbytes drop-probability %d weight %d ecn", minKB, maxKB, p, w), nil
}

// kbytes converts a threshold to whole kbytes, rounding up with a warning.
func (r *renderer) kbytes(c *intent.Class, which string, t intent.Threshold, speed units.BitRate, speedErr error) (int64, error) {
	what := fmt.Sprintf("ECN %s threshold of class %s", which, c.Name)
	b := t.Bytes
	from := b.String()
	if t.Time != 0 {
		if speedErr != nil {
			return 0, r.unsupported(what, "%v is a time, which converts to bytes only at a known port speed: %v", t.Time, speedErr)
		}
		b = speed.BytesIn(t.Time)
		from = fmt.Sprintf("%v at %s (%dB)", t.Time, speed, int64(b))
		if b%units.KB == 0 {
			r.warnf(renderers.RuleRounded, "%s: %s converted to %d kbytes", what, from, int64(b/units.KB))
		}
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

// classMapHeader is the start of class c's class-map line, up to its
// name: match-all when the intent says match = "all", else match-any.
func classMapHeader(c *intent.Class) string {
	if c.MatchAll {
		return "class-map type qos match-all "
	}
	return "class-map type qos match-any "
}

// pfcModeLine is the interface line of a PFC mode
// (`priority-flow-control mode {auto|on|off}` in config-if,
// reference/nxos.md §2 [C:qos7x]): on forces PFC, off turns it off, and
// auto, NX-OS's default, is not displayed: `show running-config all`
// shows `priority-flow-control mode auto` on an interface configured
// with none (batfish's NX-OS grammar test config
// nxos_interface_show_all_2), so the renderer writes no line for it.
func pfcModeLine(mode string) string {
	switch mode {
	case intent.PFCAuto:
		return ""
	case intent.PFCOff:
		return "priority-flow-control mode off"
	}
	return "priority-flow-control mode on"
}

// queueName is the suffix of the fixed NX-OS class names after "q" or
// "nq": "3" (c-out-8q-q3, c-8q-nq3), or "-default" for qos-group 0
// (c-out-8q-q-default, c-8q-nq-default).
func queueName(id int) string {
	if id == 0 {
		return "-default"
	}
	return strconv.Itoa(id)
}

var nameUnsafe = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, sep)
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// lastWord is the last word of a line: the name of a policy-map.
func lastWord(text string) string { return text[strings.LastIndexByte(text, ' ')+1:] }

// sameNode reports whether a and b print the same.
func sameNode(a, b *config.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Text == b.Text && sameChildren(a, b)
}

// sameChildren reports whether the lines below a and b print the same (a
// per-port policy equal to the device's whatever its name).
func sameChildren(a, b *config.Node) bool {
	if len(a.Children) != len(b.Children) {
		return false
	}
	for i := range a.Children {
		if !sameNode(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}
