package nxos

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/nxos"
	"github.com/lossless-net/lossless/vendors"
)

// Import reads the QoS of an NX-OS switch from the body of `show
// running-config ipqos` (what Driver.Running returns, or Saved makes of a
// saved `show running-config`), in the terms of the NX-OS renderer: the
// classification policy the ports attach (`service-policy type qos
// input`), the queuing and network-qos policies under system qos, the PFC
// lines. A port whose policies differ from most ports' gets its own QoS.
// Everything in lossless' scope the renderer would not give back, line
// for line, is listed in Unexpressed with why.
func Import(dev *inventory.Device, running []byte) (*vendors.Imported, error) {
	top, err := readLines(running)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", deviceName(dev), err)
	}
	im := &importer{dev: dev, classMaps: map[string]*iline{}, policies: map[string]*iline{}, built: map[profileKey]*built{}, used: map[string]bool{}}
	return im.run(im.settle(top)), nil
}

func deviceName(dev *inventory.Device) string {
	if dev == nil {
		return "device"
	}
	return dev.Name
}

// iline is one line of a running config with its 1-based line number:
// text is canonical (canon), raw as the device shows it.
type iline = clidiff.Line

// readLines parses a running config by indentation (scan), keeping line
// numbers.
func readLines(text []byte) ([]*iline, error) { return clidiff.ParseLines(text, scan, canonSpaced) }

// settle reads lines as Diff does: a line that equals NX-OS's default,
// which the device never shows, is dropped, and of the siblings that
// hold one setting (keyOf) the last stands; each earlier one is listed.
func (im *importer) settle(lines []*iline) []*iline {
	last := map[string]int{}
	keys := make([]string, len(lines))
	for i, l := range lines {
		k, single := keyOf(l.Text)
		if single {
			keys[i], last[k] = k, i
		}
	}
	out := lines[:0:0]
	for i, l := range lines {
		switch {
		case len(l.Kids) == 0 && isHidden(l.Text):
			continue
		case keys[i] != "" && last[keys[i]] != i:
			im.unexpressedAll(l, "set again further down; the later line stands")
			continue
		}
		l.Kids = im.settle(l.Kids)
		out = append(out, l)
	}
	return out
}

// Reasons of Unexpressed, for the lines the intent has no word for.
const (
	whyNotRendered = "lossless renders no such line for NX-OS"
	whyTimers      = "the intent cannot set NX-OS's PFC watchdog timers and multipliers (reference/nxos.md §8 item 2)"
	whyBuffers     = "buffer tuning the intent cannot say (lossless leaves it to the switch)"
)

// profileKey is what makes a port's QoS: its classification and queuing
// policies, whether its watchdog line is on, and its PFC mode.
type profileKey struct {
	qos, queuing string
	watchdog     bool
	// mode is the port's PFC mode: intent.PFCOn, PFCOff or, without a
	// mode line, PFCAuto (NX-OS's default, not displayed: renderers/nxos
	// pfcModeLine).
	mode string
}

// built is one imported QoS.
type built struct {
	qos *intent.QoS
}

// importer reads one running config (Import).
type importer struct {
	dev       *inventory.Device
	classMaps map[string]*iline // by name
	policies  map[string]*iline // by "type name"
	system    *iline
	built     map[profileKey]*built
	// used are the policies ("type name") an imported QoS renders.
	used map[string]bool
	out  []vendors.Unexpressed
	// globalWD is the global watchdog line, nil when off.
	globalWD *iline
	// nq and queuing are the system qos attachments ("" none).
	nq, queuing string
	// implicitDefault and sendTLV are the renderer's options the config
	// implies (render.OptionClassDefault, render.OptionPFCTLV): the
	// device's classification policy has no class-default; every port
	// that forces PFC on does it with send-tlv.
	implicitDefault, sendTLV bool
}

func (im *importer) unexpressed(l *iline, format string, args ...any) {
	im.out = append(im.out, vendors.Unexpressed{Line: l.N, Text: l.Raw, Reason: fmt.Sprintf(format, args...)})
}

// unexpressedAll lists l and every line below it.
func (im *importer) unexpressedAll(l *iline, why string) {
	im.unexpressed(l, "%s", why)
	for _, k := range l.Kids {
		im.unexpressedAll(k, why)
	}
}

func (im *importer) run(top []*iline) *vendors.Imported {
	var ifs []*iline
	for _, l := range top {
		switch {
		case strings.HasPrefix(l.Text, "class-map type qos "):
			im.classMaps[className(l.Text)] = l
		case family(l.Text) == "policy-map":
			if typ, name, ok := policyName(l.Text); ok {
				im.policies[typ+" "+name] = l
			}
		case l.Text == "system qos":
			im.system = l
		case strings.HasPrefix(l.Text, "interface "):
			ifs = append(ifs, l)
		case l.Text == "priority-flow-control watch-dog-interval on":
			im.globalWD = l
		case strings.HasPrefix(l.Text, "priority-flow-control "):
			if !isHidden(l.Text) {
				im.unexpressed(l, "%s", whyTimers)
			}
		case strings.HasPrefix(l.Text, "hardware qos "):
			im.unexpressed(l, "%s", whyBuffers)
		}
	}
	if im.system != nil {
		for _, l := range im.system.Kids {
			switch {
			case strings.HasPrefix(l.Text, "service-policy type network-qos "):
				im.nq = className(l.Text)
			case strings.HasPrefix(l.Text, "service-policy type queuing output "):
				im.queuing = className(l.Text)
			default:
				im.unexpressed(l, "%s under system qos: lossless attaches only the network-qos and output queuing policies there", l.Raw)
			}
		}
	}

	// The ports: those that attach a classification policy.
	type port struct {
		l   *iline
		key profileKey
		pfc bool // the port has a priority-flow-control mode line
		tlv bool // its mode line is `priority-flow-control mode on send-tlv`
	}
	var ports []port
	var outside []*iline
	count := map[profileKey]int{}
	var order []profileKey
	for _, l := range ifs {
		var p port
		p.l = l
		p.key.mode = intent.PFCAuto
		attached := false
		for _, k := range l.Kids {
			switch {
			case strings.HasPrefix(k.Text, "service-policy type qos input "):
				p.key.qos, attached = className(k.Text), true
			case strings.HasPrefix(k.Text, "service-policy type queuing output "):
				p.key.queuing = className(k.Text)
			case k.Text == "priority-flow-control watch-dog-interval on":
				p.key.watchdog = true
			case strings.HasPrefix(k.Text, "priority-flow-control mode "):
				p.pfc = true
				// `mode on send-tlv` is PFC forced on too; its send-tlv
				// the intent cannot say (portLines lists it).
				if m := strings.Fields(k.Text)[2]; m == intent.PFCOn || m == intent.PFCOff || m == intent.PFCAuto {
					p.key.mode = m
				}
				p.tlv = k.Text == "priority-flow-control mode on "+render.PFCTLVSend
			}
		}
		if !attached || im.policies["qos "+p.key.qos] == nil {
			outside = append(outside, l)
			continue
		}
		if explicit := p.key.queuing; explicit != "" && explicit == im.queuing {
			for _, k := range l.Kids {
				if strings.HasPrefix(k.Text, "service-policy type queuing output ") {
					im.unexpressed(k, "the port attaches the system qos queuing policy again; lossless attaches a port's own queuing policy only where it differs")
				}
			}
		}
		if p.key.queuing == "" {
			p.key.queuing = im.queuing
		}
		if p.key.watchdog && im.globalWD == nil {
			p.key.watchdog = false
		}
		ports = append(ports, p)
	}
	// The device's classification policy is the one most PFC ports
	// attach (most ports when none has PFC, the first on a tie); a port
	// that attaches another and has no PFC is another team's (an uplink
	// with its own marking policy) and stays outside the import.
	anyPFC := slices.ContainsFunc(ports, func(p port) bool { return p.pfc })
	byQoS := map[string]int{}
	mainQoS := ""
	for _, p := range ports {
		if p.pfc || !anyPFC {
			byQoS[p.key.qos]++
			if mainQoS == "" || byQoS[p.key.qos] > byQoS[mainQoS] {
				mainQoS = p.key.qos
			}
		}
	}
	kept := ports[:0]
	for _, p := range ports {
		if p.key.qos != mainQoS && !p.pfc {
			outside = append(outside, p.l)
			continue
		}
		if count[p.key] == 0 {
			order = append(order, p.key)
		}
		count[p.key]++
		kept = append(kept, p)
	}
	ports = kept
	// send-tlv on every port that forces PFC on is the renderer's
	// option; on some only, the lines of those are listed (portLines).
	on, tlv := 0, 0
	for _, p := range ports {
		if p.key.mode == intent.PFCOn {
			on++
			if p.tlv {
				tlv++
			}
		}
	}
	im.sendTLV = on > 0 && tlv == on
	if len(ports) == 0 {
		for _, l := range outside {
			im.outsidePort(l)
		}
		im.leftovers()
		return im.result(nil, nil)
	}
	// The device's QoS is the one most ports have (the first on a tie).
	main := order[0]
	for _, k := range order[1:] {
		if count[k] > count[main] {
			main = k
		}
	}
	devQoS := im.profile(main, nil)
	if main.queuing != im.queuing {
		// The ports attach a queuing policy of their own, the same on
		// most: lossless would attach it under system qos instead.
		for _, p := range ports {
			for _, k := range p.l.Kids {
				if p.key == main && strings.HasPrefix(k.Text, "service-policy type queuing output ") {
					im.unexpressed(k, "most ports attach this queuing policy themselves; lossless attaches the device's queuing policy under system qos")
				}
			}
		}
		for _, k := range systemKids(im.system) {
			if strings.HasPrefix(k.Text, "service-policy type queuing output ") {
				im.unexpressed(k, "the system queuing policy is not the one most ports use; lossless attaches that one here")
			}
		}
	}
	if im.nq != "" && !hasNetwork(devQoS) {
		for _, k := range systemKids(im.system) {
			if strings.HasPrefix(k.Text, "service-policy type network-qos ") {
				im.unexpressed(k, "the network-qos policy sets no MTU or no-drop of a traffic class; lossless renders none then")
			}
		}
		if p := im.policies["network-qos "+im.nq]; p != nil {
			im.unexpressedAll(p, "the network-qos policy sets no MTU or no-drop of a traffic class; lossless renders none then")
		}
	}
	var out []vendors.ImportedPort
	portLine := map[string]*iline{}
	for _, p := range ports {
		ip := vendors.ImportedPort{Name: strings.TrimPrefix(p.l.Text, "interface ")}
		q := devQoS
		if p.key != main {
			q = im.profile(p.key, devQoS)
			if !sameNetwork(q, devQoS) {
				im.unexpressed(p.l, "the port's classification gives other traffic classes MTU or no-drop than the device's; NX-OS's network-qos is system-wide, and the intent's per-port QoS keeps the device's: imported with the device's QoS")
				q = devQoS
			} else {
				ip.QoS = q
			}
		}
		im.portLines(p.l, q)
		portLine[ip.Name] = p.l
		out = append(out, ip)
	}
	im.renderable(devQoS, out, portLine)
	slices.SortStableFunc(out, func(a, b vendors.ImportedPort) int { return inventory.ComparePorts(a.Name, b.Name) })
	for _, l := range outside {
		im.outsidePort(l)
	}
	im.wdGlobal()
	im.leftovers()
	return im.result(devQoS, out)
}

// renderable keeps the ports' own QoS the renderer takes beside the
// device's: a port whose QoS it refuses (two objects of one name, say) is
// imported with the device's QoS, and why is listed on the port.
func (im *importer) renderable(q *intent.QoS, ports []vendors.ImportedPort, lines map[string]*iline) {
	d := &intent.Device{Name: deviceName(im.dev), Vendor: Vendor, QoS: q, Options: im.options()}
	if im.dev != nil {
		d.Platform = im.dev.Platform
	}
	d.Ports = make([]intent.Port, len(ports))
	for i, p := range ports {
		d.Ports[i] = intent.Port{Name: p.Name, QoS: q}
	}
	for i := range ports {
		if ports[i].QoS == nil {
			continue
		}
		d.Ports[i].QoS = ports[i].QoS
		if _, err := render.Render(d); err != nil {
			im.unexpressed(lines[ports[i].Name], "the port's own QoS does not render beside the device's (%v): imported with the device's QoS", err)
			d.Ports[i].QoS, ports[i].QoS = q, nil
		}
	}
}

// result sorts what was found into an Imported.
func (im *importer) result(q *intent.QoS, ports []vendors.ImportedPort) *vendors.Imported {
	slices.SortStableFunc(im.out, func(a, b vendors.Unexpressed) int { return a.Line - b.Line })
	im.out = slices.CompactFunc(im.out, func(a, b vendors.Unexpressed) bool { return a.Line == b.Line && a.Text == b.Text })
	return &vendors.Imported{QoS: q, Ports: ports, Options: im.options(), Unexpressed: im.out}
}

// options are the renderer's options the config implies; nil for none.
func (im *importer) options() map[string]string {
	var o map[string]string
	set := func(k, v string) {
		if o == nil {
			o = map[string]string{}
		}
		o[k] = v
	}
	if im.implicitDefault {
		set(render.OptionClassDefault, render.ClassDefaultImplicit)
	}
	if im.sendTLV {
		set(render.OptionPFCTLV, render.PFCTLVSend)
	}
	return o
}

// outsidePort lists the lines of a port that attaches no classification
// policy but is in lossless' scope anyway: one that attaches a policy of
// lossless' (its other QoS lines would be removed).
func (im *importer) outsidePort(l *iline) {
	ours := false
	for _, k := range l.Kids {
		if p, ok := attaches(k.Text); ok && (im.used[p.typ+" "+p.name] || losslessName("policy-map type "+p.typ+" "+p.name) || p.name == im.queuing) {
			ours = true
		}
	}
	if !ours {
		return
	}
	for _, k := range l.Kids {
		if ownedLine(k.Text) {
			im.unexpressed(k, "the port attaches a policy of lossless' but no classification policy (service-policy type qos input); the intent manages a port's QoS whole")
		}
	}
}

// portLines lists the QoS lines of an imported port that its rendering
// would not give back.
func (im *importer) portLines(l *iline, q *intent.QoS) {
	lossless := len(q.LosslessPriorities()) > 0
	for _, k := range l.Kids {
		switch {
		case strings.HasPrefix(k.Text, "priority-flow-control mode "):
			switch {
			case isHidden(k.Text): // auto, the default
			case !lossless:
				im.unexpressed(k, "a PFC mode on a port whose classes are all lossy; lossless writes the PFC mode only where a class is lossless")
			case k.Text == "priority-flow-control mode on", k.Text == "priority-flow-control mode off":
			case k.Text == "priority-flow-control mode on "+render.PFCTLVSend && im.sendTLV:
			default:
				im.unexpressed(k, "send-tlv on some of the ports that force PFC on only: the option %s = %q takes it on all of them, and lossless renders `priority-flow-control mode on` without it", render.OptionPFCTLV, render.PFCTLVSend)
			}
		case k.Text == "priority-flow-control watch-dog-interval on":
			switch {
			case im.globalWD == nil:
				im.unexpressed(k, "the port's watchdog line is on but the global `priority-flow-control watch-dog-interval on` is not; the intent turns both on together")
			case !lossless:
				im.unexpressed(k, "a watchdog on a port without lossless classes; lossless turns the watchdog on where PFC is")
			}
		case strings.HasPrefix(k.Text, "service-policy type qos input "), strings.HasPrefix(k.Text, "service-policy type queuing output "):
		case ownedLine(k.Text):
			if !isHidden(k.Text) {
				im.unexpressed(k, "%s", whyNotRendered)
			}
		}
	}
}

// systemKids returns the lines of system qos (nil: none).
func systemKids(system *iline) []*iline {
	if system == nil {
		return nil
	}
	return system.Kids
}

// hasNetwork reports whether q renders a network-qos policy: a class
// with an MTU or no-drop.
func hasNetwork(q *intent.QoS) bool {
	for _, c := range q.Classes {
		if c.Lossless || c.MTU != 0 {
			return true
		}
	}
	return false
}

// sameNetwork reports whether a and b render the same network-qos
// classes (MTU and no-drop by traffic class).
func sameNetwork(a, b *intent.QoS) bool {
	type nq struct {
		mtu      int
		lossless bool
	}
	of := func(q *intent.QoS) map[int]nq {
		m := map[int]nq{}
		for _, c := range q.Classes {
			if c.Lossless || c.MTU != 0 {
				m[c.ID] = nq{c.MTU, c.Lossless}
			}
		}
		return m
	}
	x, y := of(a), of(b)
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		if y[k] != v {
			return false
		}
	}
	return true
}

// wdGlobal lists the global watchdog line when no imported QoS has the
// watchdog on (the rendering would not have it).
func (im *importer) wdGlobal() {
	if im.globalWD == nil {
		return
	}
	for _, b := range im.built {
		if b.qos.PFC.Watchdog != nil {
			return
		}
	}
	im.unexpressed(im.globalWD, "the global PFC watchdog is on but no port with lossless classes has it on; the intent turns the watchdog on per profile, on its ports")
}

// leftovers lists the policies of lossless' default names that no
// imported QoS renders: the plan would delete them.
func (im *importer) leftovers() {
	for key, l := range im.policies {
		if !im.used[key] && losslessName(l.Text) && !im.attachedElsewhere(key) {
			im.unexpressedAll(l, "a policy of lossless' default names that no port or system qos of the imported QoS uses; lossless deletes such a policy")
		}
	}
}

// attachedElsewhere reports whether a policy is attached somewhere the
// import did not read (kept by the plan, not deleted).
func (im *importer) attachedElsewhere(key string) bool {
	typ, name, _ := strings.Cut(key, " ")
	return typ == "network-qos" && name == im.nq || typ == "queuing" && name == im.queuing
}

// profile builds the QoS of key; base is the device's QoS (nil for the
// device's own), whose names a port's QoS inherits where they are equal.
func (im *importer) profile(key profileKey, base *intent.QoS) *intent.QoS {
	if b := im.built[key]; b != nil {
		return b.qos
	}
	q := &intent.QoS{Trust: "dscp"}
	im.built[key] = &built{qos: q}
	qp := im.policies["qos "+key.qos]
	im.used["qos "+key.qos] = true
	classes := map[int]*intent.Class{}
	q.Trust = im.classify(qp, classes, base == nil)
	var quep, nqp *iline
	if key.queuing != "" {
		quep = im.policies["queuing "+key.queuing]
		im.used["queuing "+key.queuing] = true
	}
	if quep == nil {
		im.unexpressed(qp, "no queuing policy serves the port's queues (none under system qos); lossless always renders one")
	} else {
		im.queues(quep, classes)
	}
	if im.nq != "" {
		nqp = im.policies["network-qos "+im.nq]
		im.used["network-qos "+im.nq] = true
	}
	mtuLines := map[int]*iline{}
	if nqp != nil {
		mtuLines = im.network(nqp, classes)
	}
	for id := range queueCount {
		c := classes[id]
		if c == nil {
			continue
		}
		if c.Lossless && c.MTU > 0 && c.MTU < intent.RoCEMinMTU && mtuLines[id] != nil {
			im.unexpressed(mtuLines[id], "a lossless class's MTU below the %d bytes a RoCEv2 frame needs; the intent refuses it (LL033)", intent.RoCEMinMTU)
			c.MTU = 0
		}
		q.Classes = append(q.Classes, *c)
	}
	if key.watchdog && len(q.LosslessPriorities()) > 0 {
		q.PFC.Watchdog = &intent.Watchdog{}
	}
	if key.mode != intent.PFCOn && len(q.LosslessPriorities()) > 0 {
		q.PFC.Mode = key.mode // on, the default, stays unset
	}
	im.checkPlatform(q, qp)
	q.Names = intent.Names{Classifier: key.qos, Queuing: key.queuing, NetworkQoS: im.nq}
	if base == nil {
		// The device's own: a name equal to the default is left out.
		q.Names = intent.Names{
			Classifier: orEmpty(key.qos, render.DefaultClassifier),
			Queuing:    orEmpty(key.queuing, render.DefaultQueuing),
			NetworkQoS: orEmpty(im.nq, render.DefaultNetworkQoS),
		}
	} else {
		// A port's: the device's names where its objects are the device's.
		if key.qos == cmp.Or(base.Names.Classifier, render.DefaultClassifier) {
			q.Names.Classifier = base.Names.Classifier
		}
		if key.queuing == cmp.Or(base.Names.Queuing, render.DefaultQueuing) {
			q.Names.Queuing = base.Names.Queuing
		}
		q.Names.NetworkQoS = base.Names.NetworkQoS
	}
	for _, n := range []struct {
		name string
		at   *iline
	}{{key.qos, qp}, {key.queuing, quep}, {im.nq, nqp}} {
		if n.at != nil && !validName(n.name) {
			im.unexpressed(n.at, "the name %q is not an intent name (1–64 of A–Z a–z 0–9 _ - . :, LL009)", n.name)
		}
	}
	return q
}

func orEmpty(name, def string) string {
	if name == def {
		return ""
	}
	return name
}

// nameRE is the intent's name rule (LL009).
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

func validName(s string) bool { return nameRE.MatchString(s) }

// queueCount is NX-OS's 8 queues (8q mode).
const queueCount = 8

// classify reads the classification policy qp into classes by qos-group,
// and returns what it classifies by: intent.TrustDSCP, or TrustCoS when
// its class-maps match CoS (`match cos N`, as the Azure Local ToR configs
// classify; renderers/nxos).
//
// The device's policy (device) without class-default sets the option
// render.OptionClassDefault = "implicit"; a port's policy then must have
// none either.
func (im *importer) classify(qp *iline, classes map[int]*intent.Class, device bool) string {
	defaultID, haveDefault := 0, false
	var defaultLine *iline
	trust := ""
	owner := map[int]string{}
	for _, cl := range qp.Kids {
		name, ok := strings.CutPrefix(cl.Text, "class ")
		if !ok {
			im.unexpressed(cl, "%s", whyNotRendered)
			continue
		}
		id, idLine := -1, (*iline)(nil)
		for _, k := range cl.Kids {
			if v, ok := strings.CutPrefix(k.Text, "set qos-group "); ok {
				if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < queueCount {
					id, idLine = n, k
					continue
				}
			}
			im.unexpressed(k, "the intent classifies into a traffic class (set qos-group) only: no marking, policing or other action")
		}
		if id < 0 && name == "class-default" {
			// Traffic no class reclassifies is qos-group 0
			// (reference/nxos.md §0 [C:qosguide106]).
			im.unexpressed(cl, "class-default sets no qos-group (so 0); lossless renders `set qos-group 0` in it")
			id = 0
		}
		if id < 0 {
			im.unexpressed(cl, "the class sets no qos-group; every class of the intent is a traffic class")
			continue
		}
		if name == "class-default" {
			defaultID, haveDefault, defaultLine = id, true, cl
			continue
		}
		cm := im.classMaps[name]
		if cm == nil {
			im.unexpressed(cl, "the class-map %s is not a class-map type qos of this config", name)
			continue
		}
		m, ok := im.classMap(cm)
		if !ok {
			im.unexpressed(cl, "its class-map cannot be said as one DSCP or CoS list (see the class-map)")
			continue
		}
		if trust == "" {
			trust = m.on
		}
		if m.on != trust {
			im.unexpressed(cl, "its class-map matches %s, the policy's first %s: an intent profile classifies by one of them (trust)", strings.ToUpper(m.on), strings.ToUpper(trust))
			continue
		}
		if !validName(name) {
			im.unexpressed(cm, "the name %q is not an intent name (1–64 of A–Z a–z 0–9 _ - . :, LL009)", name)
			im.unexpressed(cl, "its class-map's name is not an intent name")
			continue
		}
		if c := classes[id]; c != nil {
			im.unexpressed(cl, "a second class on qos-group %d (after %s); the intent has one class, with one class-map, per traffic class", id, c.Name)
			im.unexpressed(idLine, "a second class on qos-group %d", id)
			continue
		}
		dup := false
		for _, v := range m.values {
			if other, ok := owner[v]; ok {
				im.unexpressed(cl, "%s %d is matched by class %s first; the intent maps each %s value to one class", strings.ToUpper(trust), v, other, strings.ToUpper(trust))
				dup = true
			}
		}
		if dup {
			continue
		}
		for _, v := range m.values {
			owner[v] = name
		}
		c := &intent.Class{Name: name, ID: id, DSCP: m.values, MatchAll: m.all}
		if trust == intent.TrustCoS {
			c.DSCP, c.CoS = nil, m.values
		}
		classes[id] = c
	}
	trust = cmp.Or(trust, intent.TrustDSCP)
	switch {
	case !haveDefault && device && classes[0] == nil:
		// Unclassified traffic is qos-group 0 (reference/nxos.md §0
		// [C:qosguide106]), the default class, with no line.
		im.implicitDefault = true
	case !haveDefault && !device && im.implicitDefault:
	case !haveDefault:
		im.unexpressed(qp, "the policy has no class class-default; lossless renders one (`set qos-group 0`) unless the device's own policy has none and no class-map sets qos-group 0 (option %s)", render.OptionClassDefault)
		defaultLine = qp
	case !device && im.implicitDefault:
		im.unexpressed(defaultLine, "the device's classification policy has no class-default (option %s = %q), this one has; lossless renders it in every classification policy of a device or in none", render.OptionClassDefault, render.ClassDefaultImplicit)
	}
	if c := classes[defaultID]; c != nil {
		im.unexpressed(defaultLine, "class-default sets qos-group %d, the traffic class of %s: the intent's default class has no %s list of its own", defaultID, c.Name, strings.ToUpper(trust))
		return trust
	}
	def := &intent.Class{Name: defaultName(classes), ID: defaultID, Default: true}
	if trust == intent.TrustCoS {
		def.Default, def.DefaultCoS = false, true
	}
	classes[defaultID] = def
	return trust
}

// defaultName names the default class: "default", unless a class-map
// already has that name.
func defaultName(classes map[int]*intent.Class) string {
	for _, c := range classes {
		if c.Name == "default" {
			return "class-default"
		}
	}
	return "default"
}

// match is what a class-map type qos matches, as the intent says it.
type match struct {
	on     string // intent.TrustDSCP or TrustCoS
	values []int
	all    bool // match-all
}

// classMap reads a class-map type qos as the intent's DSCP or CoS list:
// one `match dscp` or `match cos` line with a comma list, under
// match-any or match-all (one match line: the two match the same
// packets; the class keeps the device's).
func (im *importer) classMap(cm *iline) (match, bool) {
	ok := true
	m := match{all: !strings.HasPrefix(cm.Text, "class-map type qos match-any ")}
	// class-map type qos [match-any|match-all] NAME; without a match
	// type it is match-all (reference/nxos.md §2).
	if f := strings.Fields(cm.Text); len(f) != 4 && (len(f) != 5 || f[3] != "match-any" && f[3] != "match-all") {
		im.unexpressed(cm, "a class-map line lossless cannot read")
		return match{}, false
	}
	lines := 0
	for _, k := range cm.Kids {
		on, hi := intent.TrustDSCP, 63
		v, found := strings.CutPrefix(k.Text, "match dscp ")
		if !found {
			on, hi = intent.TrustCoS, 7
			v, found = strings.CutPrefix(k.Text, "match cos ")
		}
		if !found {
			im.unexpressed(k, "the intent classifies on DSCP or CoS only")
			ok = false
			continue
		}
		lines++
		if lines > 1 {
			im.unexpressed(k, "a second match line; lossless renders a class's DSCP or CoS values as one comma list")
			ok = false
			continue
		}
		m.on = on
		for _, part := range strings.Split(v, ",") {
			n, err := strconv.Atoi(part)
			if err != nil || n < 0 || n > hi {
				im.unexpressed(k, "a %s list lossless cannot read", strings.ToUpper(on))
				return match{}, false
			}
			m.values = append(m.values, n)
		}
	}
	if lines == 0 {
		im.unexpressed(cm, "the class-map matches no DSCP or CoS (the intent classifies on those)")
		ok = false
	}
	return m, ok
}

// queueID returns the qos-group of a queuing class ("class type queuing
// c-out-8q-q3" → 3, "c-out-8q-q-default" → 0).
func queueID(text, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(text, prefix)
	if !ok {
		return 0, false
	}
	if rest == "-default" {
		return 0, true
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 1 && n < queueCount
}

// rdRE is the random-detect threshold form the renderer writes.
var rdRE = regexp.MustCompile(`^random-detect minimum-threshold (\d+) kbytes maximum-threshold (\d+) kbytes drop-probability (\d+) weight (\d+) ecn$`)

// queues reads a queuing policy into the classes' scheduling and ECN.
func (im *importer) queues(p *iline, classes map[int]*intent.Class) {
	seen := map[int]bool{}
	type share struct {
		c *intent.Class
		l *iline
	}
	var shares []share
	for _, cl := range p.Kids {
		id, ok := queueID(cl.Text, "class type queuing c-out-8q-q")
		if !ok {
			im.unexpressed(cl, "%s", whyNotRendered)
			continue
		}
		seen[id] = true
		c := classes[id]
		sched := 0
		for _, k := range cl.Kids {
			switch {
			case strings.HasPrefix(k.Text, "priority"), strings.HasPrefix(k.Text, "bandwidth"):
				sched++
				if sched > 1 {
					im.unexpressed(k, "a second scheduling line; the intent gives a queue strict priority or a bandwidth share, not both")
					continue
				}
				if !strings.HasPrefix(k.Text, "priority level ") && !strings.HasPrefix(k.Text, "bandwidth remaining percent ") && !strings.HasPrefix(k.Text, "bandwidth percent ") {
					im.unexpressed(k, "the intent schedules a queue by strict priority (priority level N), a share of what remains (bandwidth remaining percent N) or a share of the port guaranteed (bandwidth percent N) only: no absolute rate")
					continue
				}
				if c == nil {
					if k.Text != "bandwidth remaining percent 0" {
						im.unexpressed(k, "queue %d has no traffic class (no classification sets qos-group %d); lossless gives such a queue no share", id, id)
					}
					continue
				}
				if k.Text == unsetLine(id) && !strings.HasPrefix(k.Text, "priority level ") {
					continue // what the renderer writes for a class with no scheduling
				}
				// A strict queue is said as one, although the renderer
				// gives q7 strict priority by default: the intent then
				// reads as the device runs.
				if v, ok := strings.CutPrefix(k.Text, "priority level "); ok {
					n, err := strconv.Atoi(v)
					if err != nil || n < 1 || n > 8 {
						im.unexpressed(k, "a priority level outside 1–8")
						continue
					}
					c.Scheduling = intent.Scheduling{Mode: intent.SchedulingStrict, Level: n}
					continue
				}
				if v, ok := strings.CutPrefix(k.Text, "bandwidth percent "); ok {
					n, err := strconv.Atoi(v)
					if err != nil || n < 1 || n > 100 {
						im.unexpressed(k, "a class's queue with a guaranteed share outside the intent's 1–100%%")
						continue
					}
					c.Scheduling = intent.Scheduling{MinBandwidth: units.Percent(n)}
					continue
				}
				n, err := strconv.Atoi(strings.TrimPrefix(k.Text, "bandwidth remaining percent "))
				if err != nil || n < 1 || n > 100 {
					im.unexpressed(k, "a class's queue with a share outside the intent's 1–100%%")
					continue
				}
				c.Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Bandwidth: units.Percent(n)}
				shares = append(shares, share{c, k})
			case strings.HasPrefix(k.Text, "random-detect "):
				m := rdRE.FindStringSubmatch(k.Text)
				if m == nil {
					im.unexpressed(k, "ECN marking in kbytes (random-detect minimum-threshold N kbytes maximum-threshold M kbytes drop-probability P weight W ecn) is all the intent says; other units, presets, WRED without ecn and cap-average it cannot")
					continue
				}
				if c == nil {
					im.unexpressed(k, "queue %d has no traffic class (no classification sets qos-group %d)", id, id)
					continue
				}
				lo, _ := strconv.ParseInt(m[1], 10, 64)
				hi, _ := strconv.ParseInt(m[2], 10, 64)
				prob, _ := strconv.Atoi(m[3])
				w, _ := strconv.Atoi(m[4])
				if prob < 1 || prob > 100 || w > 15 || lo > hi || lo > 1<<40 || hi > 1<<40 {
					im.unexpressed(k, "the intent's ECN takes a probability of 1–100%%, a weight of 0–15 and a minimum no larger than the maximum")
					continue
				}
				c.ECN = &intent.ECN{Min: intent.Threshold{Bytes: units.Bytes(lo) * units.KB}, Max: intent.Threshold{Bytes: units.Bytes(hi) * units.KB}, MaxProbability: units.Percent(prob), Weight: &w}
			default:
				im.unexpressed(k, "%s", whyNotRendered)
			}
		}
		if sched == 0 {
			im.unexpressed(cl, "the queue has no scheduling line; lossless writes one for every queue")
		}
	}
	if len(seen) < queueCount {
		var missing []string
		for id := range queueCount {
			if !seen[id] {
				missing = append(missing, queueClass(id))
			}
		}
		im.unexpressed(p, "the policy leaves out %s; lossless lists all 8 queues", strings.Join(missing, ", "))
	}
	// The intent's shares add up to no more than 100 % (LL030; below is
	// a warning, as real configs give 50 + 48), nor does what the
	// renderer writes, a class without scheduling taking its queue's
	// default; and the guaranteed shares take no more than the port.
	var sum, total, guaranteed units.Percent
	for _, s := range shares {
		sum += s.c.Scheduling.Bandwidth
	}
	for id, c := range classes {
		switch {
		case c.Scheduling.Mode == intent.SchedulingDWRR:
			total += c.Scheduling.Bandwidth
		case c.Scheduling.MinBandwidth > 0:
			guaranteed += c.Scheduling.MinBandwidth
		case c.Scheduling.Mode == intent.SchedulingUnset:
			total += units.Percent(unsetShare(id))
		}
	}
	if guaranteed > 100 {
		for _, c := range classes {
			if c.Scheduling.MinBandwidth > 0 {
				c.Scheduling = intent.Scheduling{}
			}
		}
		im.unexpressed(p, "the bandwidth percent of the queues add up to %s, more than the port", guaranteed)
	}
	if len(shares) > 0 && (sum > 100 || total > 100) {
		for _, s := range shares {
			if sum > 100 {
				im.unexpressed(s.l, "the bandwidth shares add up to %s, more than 100%% (LL030)", sum)
			} else {
				im.unexpressed(s.l, "with the default queue's 100%% these shares would add up to %s, more than 100%%", total)
			}
			s.c.Scheduling = intent.Scheduling{}
		}
	}
}

// unsetLine is the scheduling line the renderer writes for a class with
// no scheduling: NX-OS's default-8q-out-policy (q7 strict level 1,
// q-default 100 %, the others 0; reference/nxos.md §0 [C:tac]).
func unsetLine(id int) string {
	switch id {
	case 7:
		return "priority level 1"
	case 0:
		return "bandwidth remaining percent 100"
	}
	return "bandwidth remaining percent 0"
}

// unsetShare is the share the renderer gives a class with no scheduling:
// q-default 100 %, every other queue none.
func unsetShare(id int) int {
	if id == 0 {
		return 100
	}
	return 0
}

func queueClass(id int) string {
	if id == 0 {
		return "c-out-8q-q-default"
	}
	return "c-out-8q-q" + strconv.Itoa(id)
}

// network reads the network-qos policy: MTU and no-drop per class. It
// returns the mtu lines by traffic class.
func (im *importer) network(p *iline, classes map[int]*intent.Class) map[int]*iline {
	mtuAt := map[int]*iline{}
	for _, cl := range p.Kids {
		id, ok := queueID(cl.Text, "class type network-qos c-8q-nq")
		if !ok {
			im.unexpressed(cl, "%s", whyNotRendered)
			continue
		}
		c := classes[id]
		if c == nil {
			im.unexpressedAll(cl, fmt.Sprintf("qos-group %d has no traffic class (no classification sets it)", id))
			continue
		}
		if len(cl.Kids) == 0 {
			im.unexpressed(cl, "an empty network-qos class; lossless renders a class only with an MTU or no-drop")
		}
		for _, k := range cl.Kids {
			switch {
			case strings.HasPrefix(k.Text, "mtu "):
				n, err := strconv.Atoi(strings.TrimPrefix(k.Text, "mtu "))
				if lo, hi := im.mtuRange(); err != nil || n < lo || n > hi {
					im.unexpressed(k, "an MTU outside the %d–%d lossless renders here", lo, hi)
					continue
				}
				c.MTU, mtuAt[id] = n, k
			case k.Text == "pause pfc-cos "+strconv.Itoa(id):
				c.Lossless = true
			case strings.HasPrefix(k.Text, "pause pfc-cos "):
				im.unexpressed(k, "no-drop on CoS values other than the class's own (%d); the intent's traffic class is its PFC priority", id)
			default:
				im.unexpressed(k, "%s", whyNotRendered)
			}
		}
	}
	return mtuAt
}

// mtuRange is the network-qos MTU range the renderer takes for the
// device: NX-OS's 576–9216 (reference/nxos.md §2), within the platform's.
func (im *importer) mtuRange() (lo, hi int) {
	lo, hi = 576, 9216
	if im.dev != nil && im.dev.Platform != nil {
		pl := im.dev.Platform
		lo = max(lo, pl.MTUMin)
		if pl.MTUMax != 0 {
			hi = min(hi, pl.MTUMax)
		}
	}
	return lo, hi
}

// checkPlatform lists the lossless classes the device's platform cannot
// run (the renderer refuses them).
func (im *importer) checkPlatform(q *intent.QoS, at *iline) {
	if im.dev == nil || im.dev.Platform == nil {
		return
	}
	pl := im.dev.Platform
	lossless := q.LosslessPriorities()
	if pl.MaxLossless > 0 && len(lossless) > pl.MaxLossless {
		im.unexpressed(at, "%d lossless classes are more than the %d %s runs", len(lossless), pl.MaxLossless, pl.Model)
	}
	for _, p := range lossless {
		if len(pl.PFCPriorities) > 0 && !slices.Contains(pl.PFCPriorities, p) {
			im.unexpressed(at, "%s runs PFC on priorities %v only, not %d", pl.Model, pl.PFCPriorities, p)
		}
	}
}

// ipqosPrefixes start the top-level lines and interface lines that `show
// running-config ipqos` prints: the QoS feature's (reference/nxos.md §1b;
// internal/lab/nxos prints the same view).
var ipqosPrefixes = []string{"class-map ", "policy-map ", "system qos", "priority-flow-control ", "service-policy ", "hardware qos "}

func ipqos(text string) bool {
	for _, p := range ipqosPrefixes {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// Saved turns a saved `show running-config` of an NX-OS switch into what
// Driver.Running returns: the body of `show running-config ipqos`, the
// QoS feature's top-level stanzas and the interfaces with their QoS and
// PFC lines only, in the file's order, without the header. Every line it
// keeps stays at its line number in the file (a line it drops becomes a
// blank line, which carries no config), so the lines Import lists point
// into the file. A file that is not NX-OS running-config text (JSON, odd
// indentation, no NX-OS line) is refused.
func Saved(file []byte) ([]byte, error) {
	t := strings.TrimSpace(string(file))
	switch {
	case t == "":
		return nil, fmt.Errorf("saved config: the file is empty")
	case t[0] == '{' || t[0] == '[':
		return nil, fmt.Errorf("saved config: the file is JSON (a SONiC config_db.json?), not NX-OS `show running-config` text")
	}
	odd := 0
	if err := clidiff.Lines(file, func(n, spaces int, body string) error {
		if spaces%indentWidth != 0 && odd == 0 {
			odd = n
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("saved config: %w", err)
	}
	if odd != 0 {
		return nil, fmt.Errorf("saved config: line %d is indented by an odd number of spaces; NX-OS indents 2 spaces a level (is this another vendor's config?)", odd)
	}
	top, err := readLines(file)
	if err != nil {
		return nil, fmt.Errorf("saved config: %w", err)
	}
	nxos := false
	// at[n-1] is what line n of the file becomes: the line, or blank.
	at := make([]string, strings.Count(string(file), "\n")+1)
	var put func(l *iline, depth int)
	put = func(l *iline, depth int) {
		at[l.N-1] = strings.Repeat(" ", depth*indentWidth) + l.Raw
		for _, k := range l.Kids {
			put(k, depth+1)
		}
	}
	for _, l := range top {
		switch {
		case strings.HasPrefix(l.Raw, "interface "):
			nxos = true
			var kids []*iline
			for _, k := range l.Kids {
				if ipqos(k.Raw) {
					kids = append(kids, k)
				}
			}
			if len(kids) > 0 {
				at[l.N-1] = l.Raw
				for _, k := range kids {
					put(k, 1)
				}
			}
		case ipqos(l.Raw):
			nxos = true
			if l.Raw != "system qos" || len(l.Kids) > 0 {
				put(l, 0)
			}
		case strings.HasPrefix(l.Raw, "feature ") || strings.HasPrefix(l.Raw, "vdc "):
			nxos = true
		}
	}
	if !nxos {
		return nil, fmt.Errorf("saved config: no NX-OS QoS, interface or feature line found; is this an NX-OS `show running-config`?")
	}
	out := strings.TrimRight(strings.Join(at, "\n"), "\n")
	if out == "" {
		return nil, nil
	}
	return []byte(out + "\n"), nil
}
