package eos

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/ygot/ygot"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/ocqos"
	"github.com/lossless-net/lossless/internal/units"
)

// This file gives EOS QoS config its OpenConfig view (package ocqos, the
// ygot structs of ../shared/yang/openconfig) for two uses: the plan's
// OpenConfig view of a change (ygot.Diff of the running and desired
// views), and the read-back check of a gNMI apply against the device's
// own OpenConfig answer.
//
// reference/eos.md §6 says which openconfig-qos parts EOS supports
// (classifiers with ipv4/ipv6 dscp conditions, forwarding groups with
// output-queue, queues, wred/uniform profiles, scheduler policies) and that
// PFC, the watchdog and ECN thresholds with a unit live in Arista's
// augments, absent from the shared YANG, so they are not in this view. How
// EOS names the elements it derives from the CLI is not documented [I], so
// the read-back never compares names: it follows each reference (an
// interface's classifier, a term's target group, a group's output queue, a
// queue's management profile, an interface's scheduler policy) and
// compares what they resolve to. The names this file gives are for the
// plan only: forwarding group "tc<N>", queue "<Q>", classifiers
// "dscp-ipv4"/"dscp-ipv6" with a term "tc<N>" per traffic class, profile
// "ecn-<min>-<max>-<unit>[-p<P>][-w<W>]", a scheduler policy per interface.

// defaultTC is EOS's default DSCP → traffic class map (reference/eos.md
// §0): DSCP 0–7 → 1, 8–15 → 0, then DSCP/8.
func defaultTC(dscp int) int {
	switch {
	case dscp < 8:
		return 1
	case dscp < 16:
		return 0
	}
	return dscp / 8
}

// ocQueue is the OpenConfig-visible state of one tx-queue.
type ocQueue struct {
	strict    bool
	bandwidth int // 0: none
	ecn       *ocECN
}

// ocECN is a random-detect ecn line.
type ocECN struct {
	min, max     uint64 // in unit
	unit         string // bytes, kbytes, mbytes, segments, milliseconds…
	prob, weight int    // 0: not given
}

// ocPort is an interface's effective QoS (its lines over its profile's).
type ocPort struct {
	trustDSCP bool
	queues    map[int]*ocQueue
}

// ocState is the OpenConfig-visible QoS of an EOS config.
type ocState struct {
	dscpTC  [64]int
	tcQueue [8]int
	ports   map[string]*ocPort
	order   []string
}

// readOC extracts the OpenConfig-visible QoS from a config tree; only
// interfaces keep (nil: all) are kept.
func readOC(tree []*config.Node, keep func(string) bool) (*ocState, error) {
	s := &ocState{ports: map[string]*ocPort{}}
	for d := range s.dscpTC {
		s.dscpTC[d] = defaultTC(d)
	}
	for tc := range s.tcQueue {
		s.tcQueue[tc] = tc
	}
	profiles := map[string]*config.Node{}
	for _, n := range tree {
		if name, ok := strings.CutPrefix(n.Text, "qos profile "); ok {
			profiles[name] = n
		}
	}
	for _, n := range tree {
		f := strings.Fields(n.Text)
		switch {
		case len(f) >= 6 && f[0] == "qos" && f[1] == "map" && f[2] == "dscp":
			from, to, err := mapValues(f[3:], "traffic-class", 63, 7)
			if err != nil {
				return nil, fmt.Errorf("openconfig view: %q: %w", n.Text, err)
			}
			for _, d := range from {
				s.dscpTC[d] = to
			}
		case len(f) >= 6 && f[0] == "qos" && f[1] == "map" && f[2] == "traffic-class" && slices.Contains(f, "tx-queue"):
			from, to, err := mapValues(f[3:], "tx-queue", 7, 7)
			if err != nil {
				return nil, fmt.Errorf("openconfig view: %q: %w", n.Text, err)
			}
			for _, tc := range from {
				s.tcQueue[tc] = to
			}
		case len(f) == 2 && f[0] == "interface":
			if keep != nil && !keep(f[1]) {
				continue
			}
			p := &ocPort{queues: map[int]*ocQueue{}}
			for _, c := range n.Children {
				if prof, ok := strings.CutPrefix(c.Text, "service-profile "); ok && profiles[prof] != nil {
					if err := p.read(profiles[prof].Children); err != nil {
						return nil, fmt.Errorf("openconfig view: qos profile %s: %w", prof, err)
					}
				}
			}
			if err := p.read(n.Children); err != nil {
				return nil, fmt.Errorf("openconfig view: interface %s: %w", f[1], err)
			}
			if _, dup := s.ports[f[1]]; !dup {
				s.order = append(s.order, f[1])
			}
			s.ports[f[1]] = p
		}
	}
	return s, nil
}

// mapValues parses "V… to KEYWORD T".
func mapValues(f []string, keyword string, maxFrom, maxTo int) ([]int, int, error) {
	i := slices.Index(f, "to")
	if i < 1 || i+2 >= len(f) || f[i+1] != keyword {
		return nil, 0, fmt.Errorf("want \"V… to %s N\"", keyword)
	}
	var from []int
	for _, v := range f[:i] {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > maxFrom {
			return nil, 0, fmt.Errorf("value %q out of range 0-%d", v, maxFrom)
		}
		from = append(from, n)
	}
	to, err := strconv.Atoi(f[i+2])
	if err != nil || to < 0 || to > maxTo {
		return nil, 0, fmt.Errorf("%s %q out of range 0-%d", keyword, f[i+2], maxTo)
	}
	return from, to, nil
}

// read applies the QoS lines of an interface or profile block, a later
// line winning (the interface's over its profile's, reference/eos.md §1b).
func (p *ocPort) read(lines []*config.Node) error {
	for _, c := range lines {
		f := strings.Fields(c.Text)
		switch {
		case c.Text == "qos trust dscp":
			p.trustDSCP = true
		case len(f) >= 2 && f[0] == "qos" && f[1] == "trust", c.Text == "no qos trust":
			p.trustDSCP = false
		case len(f) == 2 && (f[0] == "tx-queue" || f[0] == "uc-tx-queue"):
			id, err := strconv.Atoi(f[1])
			if err != nil || id < 0 || id > 7 {
				return fmt.Errorf("%q: queue out of range 0-7", c.Text)
			}
			q := p.queues[id]
			if q == nil {
				q = &ocQueue{}
				p.queues[id] = q
			}
			for _, g := range c.Children {
				gf := strings.Fields(g.Text)
				switch {
				case g.Text == "priority strict":
					q.strict = true
				case g.Text == "no priority":
					q.strict = false
				case len(gf) == 3 && gf[0] == "bandwidth" && gf[1] == "percent":
					if q.bandwidth, err = strconv.Atoi(gf[2]); err != nil {
						return fmt.Errorf("%q: %w", g.Text, err)
					}
				case len(gf) >= 8 && gf[0] == "random-detect" && gf[1] == "ecn" && gf[2] == "minimum-threshold":
					e, err := parseECNLine(gf[2:])
					if err != nil {
						return fmt.Errorf("%q: %w", g.Text, err)
					}
					q.ecn = e
				}
			}
		}
	}
	return nil
}

// parseECNLine parses "minimum-threshold N U maximum-threshold M U
// [max-mark-probability P] [weight W]" (reference/eos.md §3).
func parseECNLine(f []string) (*ocECN, error) {
	if len(f) < 6 || f[3] != "maximum-threshold" || f[2] != f[5] {
		return nil, fmt.Errorf("want minimum-threshold N U maximum-threshold M U")
	}
	e := &ocECN{unit: f[2]}
	var err error
	if e.min, err = strconv.ParseUint(f[1], 10, 32); err != nil {
		return nil, err
	}
	if e.max, err = strconv.ParseUint(f[4], 10, 32); err != nil {
		return nil, err
	}
	for i := 6; i+1 < len(f); i += 2 {
		v, err := strconv.Atoi(f[i+1])
		if err != nil {
			return nil, err
		}
		switch f[i] {
		case "max-mark-probability":
			e.prob = v
		case "weight":
			e.weight = v
		}
	}
	return e, nil
}

// bytes returns the thresholds in bytes (kbytes and mbytes are 1024-based,
// units.KB); ok is false for units without a size (segments, time).
func (e *ocECN) bytes() (lo, hi uint64, ok bool) {
	var m uint64
	switch e.unit {
	case "bytes":
		m = 1
	case "kbytes":
		m = uint64(units.KB)
	case "mbytes":
		m = uint64(units.MB)
	default:
		return 0, 0, false
	}
	return e.min * m, e.max * m, true
}

func (e *ocECN) name() string {
	n := fmt.Sprintf("ecn-%d-%d-%s", e.min, e.max, e.unit)
	if e.prob != 0 {
		n += fmt.Sprintf("-p%d", e.prob)
	}
	if e.weight != 0 {
		n += fmt.Sprintf("-w%d", e.weight)
	}
	return n
}

// OpenConfig returns the OpenConfig view of EOS config text (a Running
// result or a rendering), restricted to the interfaces keep accepts (nil:
// all), with the names the file comment gives.
func OpenConfig(tree []*config.Node, keep func(string) bool) (*ocqos.Device, error) {
	s, err := readOC(tree, keep)
	if err != nil {
		return nil, err
	}
	dev := &ocqos.Device{}
	oq := dev.GetOrCreateQos()
	for tc := range 8 {
		oq.GetOrCreateForwardingGroup(fmt.Sprintf("tc%d", tc)).OutputQueue = ygot.String(strconv.Itoa(s.tcQueue[tc]))
		oq.GetOrCreateQueue(strconv.Itoa(tc)).QueueId = ygot.Uint8(uint8(tc))
	}
	byTC := map[int][]uint8{}
	for d, tc := range s.dscpTC {
		byTC[tc] = append(byTC[tc], uint8(d))
	}
	for _, c := range []struct {
		name string
		typ  ocqos.E_Qos_Classifier_Type
	}{{"dscp-ipv4", ocqos.Qos_Classifier_Type_IPV4}, {"dscp-ipv6", ocqos.Qos_Classifier_Type_IPV6}} {
		cl := oq.GetOrCreateClassifier(c.name)
		cl.Type = c.typ
		for tc := range 8 {
			if len(byTC[tc]) == 0 {
				continue
			}
			t := cl.GetOrCreateTerm(fmt.Sprintf("tc%d", tc))
			t.GetOrCreateActions().TargetGroup = ygot.String(fmt.Sprintf("tc%d", tc))
			if c.typ == ocqos.Qos_Classifier_Type_IPV4 {
				t.GetOrCreateConditions().GetOrCreateIpv4().DscpSet = slices.Clone(byTC[tc])
			} else {
				t.GetOrCreateConditions().GetOrCreateIpv6().DscpSet = slices.Clone(byTC[tc])
			}
		}
	}
	for _, name := range s.order {
		p := s.ports[name]
		if !p.trustDSCP && len(p.queues) == 0 {
			continue
		}
		qi := oq.GetOrCreateInterface(name)
		if p.trustDSCP {
			in := qi.GetOrCreateInput()
			in.GetOrCreateClassifier(ocqos.Input_Classifier_Type_IPV4).Name = ygot.String("dscp-ipv4")
			in.GetOrCreateClassifier(ocqos.Input_Classifier_Type_IPV6).Name = ygot.String("dscp-ipv6")
		}
		for _, id := range sortedQueues(p.queues) {
			q, qn := p.queues[id], strconv.Itoa(id)
			if q.ecn != nil {
				prof := oq.GetOrCreateQueueManagementProfile(q.ecn.name())
				u := prof.GetOrCreateWred().GetOrCreateUniform()
				u.EnableEcn, u.Drop = ygot.Bool(true), ygot.Bool(false)
				if lo, hi, ok := q.ecn.bytes(); ok {
					u.MinThreshold, u.MaxThreshold = ygot.Uint64(lo), ygot.Uint64(hi)
				}
				if q.ecn.prob != 0 {
					u.MaxDropProbabilityPercent = ygot.Uint8(uint8(q.ecn.prob))
				}
				if q.ecn.weight != 0 {
					u.Weight = ygot.Uint32(uint32(q.ecn.weight))
				}
				qi.GetOrCreateOutput().GetOrCreateQueue(qn).QueueManagementProfile = ygot.String(q.ecn.name())
			}
			if q.strict || q.bandwidth != 0 {
				sc := oq.GetOrCreateSchedulerPolicy(name).GetOrCreateScheduler(uint32(id))
				if q.strict {
					sc.Priority = ocqos.Scheduler_Priority_STRICT
				}
				in := sc.GetOrCreateInput(qn)
				in.InputType, in.Queue = ocqos.Input_InputType_QUEUE, ygot.String(qn)
				if q.bandwidth != 0 {
					in.Weight = ygot.Uint64(uint64(q.bandwidth))
				}
				qi.GetOrCreateOutput().GetOrCreateSchedulerPolicy().Name = ygot.String(name)
			}
		}
	}
	return dev, nil
}

func sortedQueues(m map[int]*ocQueue) []int {
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// desiredInterfaces returns a keep function for the interfaces a
// rendering configures.
func desiredInterfaces(tree []*config.Node) func(string) bool {
	names := map[string]bool{}
	for _, n := range tree {
		if name, ok := strings.CutPrefix(n.Text, "interface "); ok {
			names[name] = true
		}
	}
	return func(name string) bool { return names[name] }
}

// OpenConfigChange is the OpenConfig view of the change from running (a
// Running result) to what the change to desired leaves (the rendering
// with what lossless keeps, afterTree) on the rendering's interfaces,
// computed with ygot.Diff: the paths deleted and the leaves updated, as
// JSON.
func OpenConfigChange(running []byte, desired *config.Document) (json.RawMessage, error) {
	have, err := Parse(running)
	if err != nil {
		return nil, err
	}
	keep := desiredInterfaces(desired.Tree)
	from, err := OpenConfig(have, keep)
	if err != nil {
		return nil, err
	}
	after, err := afterTree(running, desired)
	if err != nil {
		return nil, err
	}
	to, err := OpenConfig(after, keep)
	if err != nil {
		return nil, err
	}
	n, err := ygot.Diff(from, to)
	if err != nil {
		return nil, fmt.Errorf("openconfig diff: %w", err)
	}
	type update struct {
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	out := struct {
		Delete []string `json:"delete,omitempty"`
		Update []update `json:"update,omitempty"`
	}{}
	for _, p := range n.GetDelete() {
		out.Delete = append(out.Delete, pathString(p))
	}
	for _, u := range n.GetUpdate() {
		v, err := valueOf(u.GetVal())
		if err != nil {
			return nil, err
		}
		out.Update = append(out.Update, update{Path: pathString(u.GetPath()), Value: v})
	}
	slices.Sort(out.Delete)
	slices.SortFunc(out.Update, func(a, b update) int { return strings.Compare(a.Path, b.Path) })
	return json.Marshal(out)
}

// valueOf returns a scalar TypedValue as a Go value for JSON.
func valueOf(v *gpb.TypedValue) (any, error) {
	switch x := v.GetValue().(type) {
	case *gpb.TypedValue_StringVal:
		return x.StringVal, nil
	case *gpb.TypedValue_UintVal:
		return x.UintVal, nil
	case *gpb.TypedValue_IntVal:
		return x.IntVal, nil
	case *gpb.TypedValue_BoolVal:
		return x.BoolVal, nil
	case *gpb.TypedValue_LeaflistVal:
		var out []any
		for _, e := range x.LeaflistVal.GetElement() {
			ev, err := valueOf(e)
			if err != nil {
				return nil, err
			}
			out = append(out, ev)
		}
		return out, nil
	}
	return nil, fmt.Errorf("openconfig diff: value %v has no JSON form here", v)
}

// pathString prints a path as /a/b[k=v] with keys sorted.
func pathString(p *gpb.Path) string {
	var b strings.Builder
	for _, e := range p.GetElem() {
		b.WriteString("/" + e.GetName())
		keys := make([]string, 0, len(e.GetKey()))
		for k := range e.GetKey() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b.WriteString("[" + k + "=" + e.GetKey()[k] + "]")
		}
	}
	return b.String()
}

// resolved is what an OpenConfig view says about one interface, with every
// reference followed: the output queue each DSCP lands in (nil without a
// DSCP classifier), and per output queue its ECN and scheduling.
type resolved struct {
	dscpQueue []string
	queues    map[string]string // queue → "ecn … / strict / weight …"
}

// resolve follows an interface's references in an OpenConfig view.
func resolve(dev *ocqos.Device, ifName string) resolved {
	r := resolved{queues: map[string]string{}}
	oq := dev.GetQos()
	qi := oq.GetInterface(ifName)
	if cl := qi.GetInput().GetClassifier(ocqos.Input_Classifier_Type_IPV4); cl != nil {
		r.dscpQueue = make([]string, 64)
		for _, t := range oq.GetClassifier(cl.GetName()).Term {
			q := oq.GetForwardingGroup(t.GetActions().GetTargetGroup()).GetOutputQueue()
			for _, d := range t.GetConditions().GetIpv4().DscpSet {
				if int(d) < 64 {
					r.dscpQueue[d] = q
				}
			}
		}
	}
	add := func(q, what string) {
		if r.queues[q] != "" {
			what = r.queues[q] + "; " + what
		}
		r.queues[q] = what
	}
	for name, q := range qi.GetOutput().Queue {
		if u := oq.GetQueueManagementProfile(q.GetQueueManagementProfile()).GetWred().GetUniform(); u != nil {
			add(name, fmt.Sprintf("ecn %v min %d max %d prob %d weight %d", u.GetEnableEcn(), u.GetMinThreshold(), u.GetMaxThreshold(),
				u.GetMaxDropProbabilityPercent(), u.GetWeight()))
		}
	}
	if sp := oq.GetSchedulerPolicy(qi.GetOutput().GetSchedulerPolicy().GetName()); sp != nil {
		for _, s := range sp.Scheduler {
			for _, in := range s.Input {
				if in.GetInputType() != ocqos.Input_InputType_QUEUE {
					continue
				}
				if s.GetPriority() == ocqos.Scheduler_Priority_STRICT {
					add(in.GetQueue(), "strict")
				}
				if in.GetWeight() != 0 {
					add(in.GetQueue(), fmt.Sprintf("weight %d", in.GetWeight()))
				}
			}
		}
	}
	for q, v := range r.queues {
		parts := strings.Split(v, "; ")
		slices.Sort(parts)
		r.queues[q] = strings.Join(parts, "; ")
	}
	return r
}

// checkOpenConfig compares the device's OpenConfig view with that of
// tree (what the change leaves, afterTree) on every interface tree
// configures, following references rather than comparing names.
func checkOpenConfig(got *ocqos.Device, tree []*config.Node) error {
	want, err := OpenConfig(tree, desiredInterfaces(tree))
	if err != nil {
		return err
	}
	var bad []string
	for _, n := range tree {
		name, ok := strings.CutPrefix(n.Text, "interface ")
		if !ok {
			continue
		}
		w, g := resolve(want, name), resolve(got, name)
		if !slices.Equal(w.dscpQueue, g.dscpQueue) {
			bad = append(bad, fmt.Sprintf("%s: DSCP to output queue: want %v, got %v", name, w.dscpQueue, g.dscpQueue))
		}
		for _, q := range slices.Sorted(mapsKeys(w.queues, g.queues)) {
			if w.queues[q] != g.queues[q] {
				bad = append(bad, fmt.Sprintf("%s queue %s: want %q, got %q", name, q, w.queues[q], g.queues[q]))
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("the OpenConfig read-back differs from the rendering:\n  %s", strings.Join(bad, "\n  "))
	}
	return nil
}

// mapsKeys iterates the union of two maps' keys.
func mapsKeys(a, b map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range a {
			if !yield(k) {
				return
			}
		}
		for k := range b {
			if _, dup := a[k]; dup {
				continue
			}
			if !yield(k) {
				return
			}
		}
	}
}

// verifyOpenConfig reads the device's OpenConfig QoS view (origin
// openconfig, JSON_IETF), decodes it into the ocqos structs, which checks
// it against the schema, and compares it with what the change from
// before (the Running result read before the apply) to desired leaves.
func (d *GNMIDriver) verifyOpenConfig(ctx context.Context, before []byte, desired *config.Document) error {
	tree, err := afterTree(before, desired)
	if err != nil {
		return fmt.Errorf("verify openconfig: %w", err)
	}
	resp, err := d.Client.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{{Origin: "openconfig"}}, Encoding: gpb.Encoding_JSON_IETF})
	if err != nil {
		return fmt.Errorf("verify openconfig: %w", err)
	}
	got := &ocqos.Device{}
	for _, n := range resp.GetNotification() {
		for _, u := range n.GetUpdate() {
			raw := u.GetVal().GetJsonIetfVal()
			if raw == nil {
				return fmt.Errorf("verify openconfig: the answer is not JSON_IETF")
			}
			if err := ocqos.Unmarshal(raw, got); err != nil {
				return fmt.Errorf("verify openconfig: %w", err)
			}
		}
	}
	if err := checkOpenConfig(got, tree); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	return nil
}
