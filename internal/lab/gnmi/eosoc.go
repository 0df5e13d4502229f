package gnmitarget

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openconfig/ygot/ygot"

	"github.com/lossless-net/lossless/internal/ocqos"
	"github.com/lossless-net/lossless/internal/units"
)

// This file builds the OpenConfig QoS view that an EOS device's gNMI
// server answers with, from the device's running config (EOS text).
//
// reference/eos.md §6 gives what EOS supports of openconfig-qos
// (EOS-4.36.1F models): classifiers with ipv4/ipv6 dscp conditions,
// forwarding groups with output-queue, queues, wred/uniform queue
// management profiles; not input/config, output/classifiers nor
// output/scheduler-policy/schedulers. PFC, the watchdog and ECN thresholds
// with a unit live in Arista's own augments (arista-qos-augments), which are
// not in ../shared/yang/openconfig, so the lab leaves them out; so does it
// for the augment's scheduling and bandwidth leaves on /qos/queues/queue,
// and shows tx-queue scheduling with the standard scheduler policies. eos.md §6
// also says how EOS names the OpenConfig elements it derives from its CLI
// is not documented [I]; the lab's names are its own convention, fixed
// here so the gNMI driver can read them back:
//
//   - forwarding group "tc<N>" per traffic class 0–7, output-queue "<Q>"
//     from `qos map traffic-class N to tx-queue Q` (identity by default,
//     eos.md §0);
//   - queue "<Q>" (queue-id Q) per tx-queue 0–7;
//   - classifiers "dscp-ipv4" and "dscp-ipv6" (EOS has one system-wide
//     DSCP map that applies to both): one term "tc<N>" per traffic class
//     that some DSCP maps to, conditions dscp-set = those DSCPs (the
//     effective map: EOS defaults from eos.md §0 overridden by
//     `qos map dscp … to traffic-class N`), action target-group "tc<N>";
//   - per interface with `qos trust dscp` (directly or through its
//     service-profile): input classifiers IPV4 and IPV6 naming the two
//     classifiers above;
//   - per distinct `random-detect ecn` line, a queue management profile
//     "ecn-<min>-<max>-<unit>[-p<prob>][-w<weight>]" with wred/uniform
//     enable-ecn true, drop false, min/max-threshold in bytes (kbytes and
//     mbytes are 1024-based, units.KB; segments and milliseconds have no
//     byte value and leave the thresholds unset), max-drop-probability-
//     percent = max-mark-probability and weight; the interface's output
//     queue Q names it;
//   - per interface with tx-queue scheduling lines (`priority strict`,
//     `no priority`, `bandwidth percent P`), a scheduler policy named after
//     the interface: scheduler sequence Q, priority STRICT for
//     `priority strict`, one input "<Q>" of type QUEUE with weight P; the
//     interface's output scheduler-policy names it;
//   - /interfaces/interface with the name and `mtu`.
//
// Only what the running config shows is reflected for queues and
// interfaces: a default EOS hides (eos.md §2.1) is absent here too, except
// the DSCP and traffic-class maps, which are given in full.

// eosDefaultTC is EOS's default DSCP → traffic-class map (reference/eos.md §0).
func eosDefaultTC(dscp int) int {
	switch {
	case dscp < 8:
		return 1
	case dscp < 16:
		return 0
	default:
		return dscp / 8
	}
}

// eosLine is one line of an EOS running config with the lines indented
// under it.
type eosLine struct {
	text     string
	children []*eosLine
}

// parseEOSTree reads EOS running-config text into a tree by indentation.
// Separator ("!") and comment ("!!") lines and blank lines are dropped.
func parseEOSTree(running []byte) []*eosLine {
	type frame struct {
		indent int
		line   *eosLine
	}
	var roots []*eosLine
	var stack []frame
	for _, raw := range strings.Split(string(running), "\n") {
		raw = strings.TrimRight(raw, " \r\t")
		text := strings.TrimLeft(raw, " ")
		if text == "" || strings.HasPrefix(text, "!") {
			continue
		}
		indent := len(raw) - len(text)
		l := &eosLine{text: text}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, l)
		} else {
			p := stack[len(stack)-1].line
			p.children = append(p.children, l)
		}
		stack = append(stack, frame{indent, l})
	}
	return roots
}

// eosQueue is the QoS state of one tx-queue of an interface or profile.
type eosQueue struct {
	strict, roundRobin bool   // `priority strict` / `no priority`
	bandwidth          *int   // `bandwidth percent P`
	ecn                string // the `random-detect ecn …` thresholds line, "" when absent
}

// eosPort is the QoS state of an interface or a qos profile.
type eosPort struct {
	trust   string // "dscp", "cos", "untrusted" or "" (not configured)
	profile string // service-profile name (interfaces only)
	mtu     *int
	queues  map[int]*eosQueue
}

// eosQoS is the QoS part of an EOS running config.
type eosQoS struct {
	dscpTC   [64]int
	tcQueue  [8]int
	profiles map[string]*eosPort
	ports    map[string]*eosPort
	order    []string // interfaces in running-config order
}

// parseEOSQoS extracts the QoS state from EOS running-config text. Lines it
// does not model are skipped: the view covers what OpenConfig can show.
func parseEOSQoS(running []byte) (*eosQoS, error) {
	q := &eosQoS{profiles: map[string]*eosPort{}, ports: map[string]*eosPort{}}
	for d := range q.dscpTC {
		q.dscpTC[d] = eosDefaultTC(d)
	}
	for tc := range q.tcQueue {
		q.tcQueue[tc] = tc
	}
	for _, l := range parseEOSTree(running) {
		f := strings.Fields(l.text)
		switch {
		case len(f) >= 2 && f[0] == "interface":
			p, err := parseEOSPort(l)
			if err != nil {
				return nil, err
			}
			if _, dup := q.ports[f[1]]; !dup {
				q.order = append(q.order, f[1])
			}
			q.ports[f[1]] = p
		case len(f) >= 3 && f[0] == "qos" && f[1] == "profile":
			p, err := parseEOSPort(l)
			if err != nil {
				return nil, err
			}
			q.profiles[f[2]] = p
		case len(f) >= 6 && f[0] == "qos" && f[1] == "map" && f[2] == "dscp":
			dscps, tc, err := mapLine(f[3:], "traffic-class", 63, 7)
			if err != nil {
				return nil, fmt.Errorf("parse %q: %w", l.text, err)
			}
			for _, d := range dscps {
				q.dscpTC[d] = tc
			}
		case len(f) >= 6 && f[0] == "qos" && f[1] == "map" && f[2] == "traffic-class":
			tcs, queue, err := mapLine(f[3:], "tx-queue", 7, 7)
			if err != nil {
				if strings.Contains(l.text, " to tx-queue ") {
					return nil, fmt.Errorf("parse %q: %w", l.text, err)
				}
				continue // "to dscp" / "to cos" maps are not QoS queueing
			}
			for _, tc := range tcs {
				q.tcQueue[tc] = queue
			}
		}
	}
	return q, nil
}

// mapLine parses "V1 V2 … to KEYWORD T [drop-precedence P]".
func mapLine(f []string, keyword string, maxFrom, maxTo int) ([]int, int, error) {
	var from []int
	i := 0
	for ; i < len(f) && f[i] != "to"; i++ {
		v, err := strconv.Atoi(f[i])
		if err != nil || v < 0 || v > maxFrom {
			return nil, 0, fmt.Errorf("value %q out of range 0-%d", f[i], maxFrom)
		}
		from = append(from, v)
	}
	if len(from) == 0 || i+2 >= len(f) || f[i+1] != keyword {
		return nil, 0, fmt.Errorf("want \"to %s N\"", keyword)
	}
	to, err := strconv.Atoi(f[i+2])
	if err != nil || to < 0 || to > maxTo {
		return nil, 0, fmt.Errorf("%s %q out of range 0-%d", keyword, f[i+2], maxTo)
	}
	return from, to, nil
}

// parseEOSPort reads the QoS lines of an interface or qos profile block.
func parseEOSPort(block *eosLine) (*eosPort, error) {
	p := &eosPort{queues: map[int]*eosQueue{}}
	for _, c := range block.children {
		f := strings.Fields(c.text)
		switch {
		case len(f) == 3 && f[0] == "qos" && f[1] == "trust":
			p.trust = f[2]
		case len(f) == 3 && f[0] == "no" && f[1] == "qos" && f[2] == "trust":
			p.trust = "untrusted"
		case len(f) == 2 && f[0] == "service-profile":
			p.profile = f[1]
		case len(f) == 2 && f[0] == "mtu":
			v, err := strconv.Atoi(f[1])
			if err != nil || v < 0 || v > 65535 {
				return nil, fmt.Errorf("parse %q: bad mtu", c.text)
			}
			p.mtu = &v
		case len(f) == 2 && (f[0] == "tx-queue" || f[0] == "uc-tx-queue"):
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 0 || n > 7 {
				return nil, fmt.Errorf("parse %q: queue out of range 0-7", c.text)
			}
			tq := &eosQueue{}
			for _, g := range c.children {
				gf := strings.Fields(g.text)
				switch {
				case g.text == "priority strict":
					tq.strict = true
				case g.text == "no priority":
					tq.roundRobin = true
				case len(gf) == 3 && gf[0] == "bandwidth" && gf[1] == "percent":
					v, err := strconv.Atoi(gf[2])
					if err != nil || v < 1 || v > 100 {
						return nil, fmt.Errorf("parse %q: bandwidth percent out of range 1-100", g.text)
					}
					tq.bandwidth = &v
				case len(gf) >= 8 && gf[0] == "random-detect" && gf[1] == "ecn" && gf[2] == "minimum-threshold":
					tq.ecn = strings.Join(gf[2:], " ")
				}
			}
			p.queues[n] = tq
		}
	}
	return p, nil
}

// ecnProfile is a parsed `random-detect ecn minimum-threshold N U
// maximum-threshold M U [max-mark-probability P] [weight W]` line.
type ecnProfile struct {
	min, max     uint64
	unit         string
	prob, weight *int
}

// parseECN parses the thresholds part of a random-detect ecn line
// (reference/eos.md §3: the unit is written twice and must agree,
// max-mark-probability 1–100, weight 0–15).
func parseECN(s string) (ecnProfile, error) {
	f := strings.Fields(s)
	var e ecnProfile
	if len(f) < 6 || f[0] != "minimum-threshold" || f[3] != "maximum-threshold" || f[2] != f[5] {
		return e, fmt.Errorf("parse ecn %q: want minimum-threshold N U maximum-threshold M U", s)
	}
	var err error
	if e.min, err = strconv.ParseUint(f[1], 10, 32); err != nil {
		return e, fmt.Errorf("parse ecn %q: minimum-threshold: %w", s, err)
	}
	if e.max, err = strconv.ParseUint(f[4], 10, 32); err != nil {
		return e, fmt.Errorf("parse ecn %q: maximum-threshold: %w", s, err)
	}
	e.unit = f[2]
	for i := 6; i+1 < len(f); i += 2 {
		v, err := strconv.Atoi(f[i+1])
		if err != nil {
			return e, fmt.Errorf("parse ecn %q: %s: %w", s, f[i], err)
		}
		switch f[i] {
		case "max-mark-probability":
			if v < 1 || v > 100 {
				return e, fmt.Errorf("parse ecn %q: max-mark-probability out of range 1-100", s)
			}
			e.prob = &v
		case "weight":
			if v < 0 || v > 15 {
				return e, fmt.Errorf("parse ecn %q: weight out of range 0-15", s)
			}
			e.weight = &v
		default:
			return e, fmt.Errorf("parse ecn %q: unknown keyword %q", s, f[i])
		}
	}
	return e, nil
}

// name is the queue management profile name the lab gives this setting.
func (e ecnProfile) name() string {
	n := fmt.Sprintf("ecn-%d-%d-%s", e.min, e.max, e.unit)
	if e.prob != nil {
		n += fmt.Sprintf("-p%d", *e.prob)
	}
	if e.weight != nil {
		n += fmt.Sprintf("-w%d", *e.weight)
	}
	return n
}

// bytesPerUnit is the size of one EOS threshold unit in bytes; 0 when the
// unit is not a size (segments, milliseconds).
func bytesPerUnit(unit string) uint64 {
	switch unit {
	case "bytes":
		return 1
	case "kbytes":
		return uint64(units.KB)
	case "mbytes":
		return uint64(units.MB)
	}
	return 0
}

// effective merges an interface with its service-profile: a line set on the
// interface wins over the profile's (reference/eos.md §1b).
func (q *eosQoS) effective(p *eosPort) *eosPort {
	prof, ok := q.profiles[p.profile]
	if p.profile == "" || !ok {
		return p
	}
	e := &eosPort{trust: prof.trust, mtu: p.mtu, queues: map[int]*eosQueue{}}
	if p.trust != "" {
		e.trust = p.trust
	}
	for n, pq := range prof.queues {
		c := *pq
		e.queues[n] = &c
	}
	for n, iq := range p.queues {
		c, ok := e.queues[n]
		if !ok {
			cp := *iq
			e.queues[n] = &cp
			continue
		}
		if iq.strict || iq.roundRobin {
			c.strict, c.roundRobin = iq.strict, iq.roundRobin
		}
		if iq.bandwidth != nil {
			c.bandwidth = iq.bandwidth
		}
		if iq.ecn != "" {
			c.ecn = iq.ecn
		}
	}
	return e
}

// Classifier names of the lab's OpenConfig view (see the file comment).
const (
	classifierIPv4 = "dscp-ipv4"
	classifierIPv6 = "dscp-ipv6"
)

// eosOpenConfig parses EOS running-config text into the OpenConfig view
// described at the top of this file, validated against the YANG schema.
func eosOpenConfig(running []byte) (*ocqos.Device, error) {
	dev, err := buildEOSOpenConfig(running)
	if err != nil {
		return nil, err
	}
	if err := dev.Validate(); err != nil {
		return nil, fmt.Errorf("openconfig view: %w", err)
	}
	return dev, nil
}

// buildEOSOpenConfig is eosOpenConfig without the schema validation, which
// costs more than the rest of a Get (ygot's leafref walk, ~10 ms for the
// canonical config). Get uses it: every value the builder writes is range
// checked by the parser and every reference points at an element it
// creates, and the tests validate the views of every shape it builds.
func buildEOSOpenConfig(running []byte) (*ocqos.Device, error) {
	q, err := parseEOSQoS(running)
	if err != nil {
		return nil, err
	}
	return q.openConfig()
}

// openConfig builds the OpenConfig view of q, unvalidated.
func (q *eosQoS) openConfig() (*ocqos.Device, error) {
	dev := &ocqos.Device{}
	oq := dev.GetOrCreateQos()
	for tc := 0; tc < 8; tc++ {
		fg := oq.GetOrCreateForwardingGroup(fmt.Sprintf("tc%d", tc))
		fg.OutputQueue = ygot.String(strconv.Itoa(q.tcQueue[tc]))
		oq.GetOrCreateQueue(strconv.Itoa(tc)).QueueId = ygot.Uint8(uint8(tc))
	}
	byTC := map[int][]uint8{}
	for d, tc := range q.dscpTC {
		byTC[tc] = append(byTC[tc], uint8(d))
	}
	for _, c := range []struct {
		name string
		typ  ocqos.E_Qos_Classifier_Type
	}{{classifierIPv4, ocqos.Qos_Classifier_Type_IPV4}, {classifierIPv6, ocqos.Qos_Classifier_Type_IPV6}} {
		cl := oq.GetOrCreateClassifier(c.name)
		cl.Type = c.typ
		for tc := 0; tc < 8; tc++ {
			if len(byTC[tc]) == 0 {
				continue
			}
			t := cl.GetOrCreateTerm(fmt.Sprintf("tc%d", tc))
			t.GetOrCreateActions().TargetGroup = ygot.String(fmt.Sprintf("tc%d", tc))
			set := slices.Clone(byTC[tc])
			if c.typ == ocqos.Qos_Classifier_Type_IPV4 {
				t.GetOrCreateConditions().GetOrCreateIpv4().DscpSet = set
			} else {
				t.GetOrCreateConditions().GetOrCreateIpv6().DscpSet = set
			}
		}
	}
	for _, name := range q.order {
		raw := q.ports[name]
		p := q.effective(raw)
		ifc := dev.GetOrCreateInterface(name)
		if p.mtu != nil {
			ifc.Mtu = ygot.Uint16(uint16(*p.mtu))
		}
		if p.trust == "" && len(p.queues) == 0 {
			continue
		}
		qi := oq.GetOrCreateInterface(name)
		if p.trust == "dscp" {
			in := qi.GetOrCreateInput()
			in.GetOrCreateClassifier(ocqos.Input_Classifier_Type_IPV4).Name = ygot.String(classifierIPv4)
			in.GetOrCreateClassifier(ocqos.Input_Classifier_Type_IPV6).Name = ygot.String(classifierIPv6)
		}
		ids := make([]int, 0, len(p.queues))
		for n := range p.queues {
			ids = append(ids, n)
		}
		slices.Sort(ids)
		for _, n := range ids {
			tq := p.queues[n]
			qn := strconv.Itoa(n)
			if tq.ecn != "" {
				e, err := parseECN(tq.ecn)
				if err != nil {
					return nil, fmt.Errorf("interface %s tx-queue %d: %w", name, n, err)
				}
				prof := oq.GetOrCreateQueueManagementProfile(e.name())
				u := prof.GetOrCreateWred().GetOrCreateUniform()
				u.EnableEcn = ygot.Bool(true)
				u.Drop = ygot.Bool(false)
				if b := bytesPerUnit(e.unit); b != 0 {
					u.MinThreshold = ygot.Uint64(e.min * b)
					u.MaxThreshold = ygot.Uint64(e.max * b)
				}
				if e.prob != nil {
					u.MaxDropProbabilityPercent = ygot.Uint8(uint8(*e.prob))
				}
				if e.weight != nil {
					u.Weight = ygot.Uint32(uint32(*e.weight))
				}
				qi.GetOrCreateOutput().GetOrCreateQueue(qn).QueueManagementProfile = ygot.String(e.name())
			}
			if tq.strict || tq.roundRobin || tq.bandwidth != nil {
				sp := oq.GetOrCreateSchedulerPolicy(name)
				s := sp.GetOrCreateScheduler(uint32(n))
				if tq.strict {
					s.Priority = ocqos.Scheduler_Priority_STRICT
				}
				in := s.GetOrCreateInput(qn)
				in.InputType = ocqos.Input_InputType_QUEUE
				in.Queue = ygot.String(qn)
				if tq.bandwidth != nil {
					in.Weight = ygot.Uint64(uint64(*tq.bandwidth))
				}
				qi.GetOrCreateOutput().GetOrCreateSchedulerPolicy().Name = ygot.String(name)
			}
		}
	}
	return dev, nil
}
