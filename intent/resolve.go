package intent

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/headroom"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
)

// Resolve joins the fabric with the inventory: one Device per device an
// assign block selects, sorted by name, with every value in base units,
// ports in natural order and each lossless port's headroom computed. It
// runs every semantic check and returns the devices it could resolve
// together with all diagnostics; a device whose platform is unknown is left
// out (the inventory reports why). Devices that share a profile share its
// *QoS and *Buffers: treat them as read-only.
func Resolve(f *Fabric, inv *inventory.Inventory) ([]*Device, hcl.Diagnostics) {
	if f == nil || inv == nil || f.broken {
		return nil, nil
	}
	r := newResolver(f, inv)
	// Every profile is checked, used or not.
	for _, n := range sortedKeys(f.QoSProfiles) {
		r.qosProfile(n)
	}
	for _, n := range sortedKeys(f.BufferProfiles) {
		r.bufferProfile(n)
	}
	r.assignDevices()
	for _, job := range r.jobs {
		if d := r.resolveDevice(job); d != nil {
			r.devices = append(r.devices, d)
		}
	}
	sort.Slice(r.devices, func(i, j int) bool { return r.devices[i].Name < r.devices[j].Name })
	r.linkPorts()
	return r.devices, r.diags.list()
}

type resolver struct {
	f       *Fabric
	inv     *inventory.Inventory
	diags   *diagSet
	qos     map[string]*qosSpec
	buffers map[string]*bufSpec
	// expanded caches ExpandPorts by pattern: a fabric of thousands of
	// devices writes the same few ranges.
	expanded map[string][]string
	badRef   map[hcl.Pos]bool
	// checked remembers platform checks already run for a profile, so a
	// profile used on many devices of one platform is reported once.
	checked  map[checkKey]bool
	headroom map[headroomKey]headroomResult
	// ecnWarned holds the ECN thresholds already warned about, so one
	// line of the intent gets one warning however many ports it covers.
	ecnWarned map[hcl.Pos]bool
	jobs      []deviceJob
	devices   []*Device
	devByName map[string]*Device
	platKeys  map[*platform.Platform]platformKey
	wdKeys    map[*platform.Watchdog]string
}

type deviceJob struct {
	dev      *inventory.Device
	assign   *Assign
	override *DeviceOverride
}

type checkKey struct {
	spec, buffers any
	plat          platformKey
	// watchdog identifies the watchdog limits checked (watchdogKey).
	watchdog string
}

// platformKey is what the platform checks read of a platform, so that
// devices of one model share one report even when their Platform values
// are distinct copies.
type platformKey struct {
	model, family  string
	buffer, cell   units.Bytes
	maxLossless    int
	mtuMin, mtuMax int
	pfcPriorities  string
}

func (r *resolver) keyOf(p *platform.Platform) platformKey {
	if k, ok := r.platKeys[p]; ok {
		return k
	}
	k := platformKey{p.Model, p.Family, p.Buffer, p.Cell, p.MaxLossless, p.MTUMin, p.MTUMax, fmt.Sprint(p.PFCPriorities)}
	r.platKeys[p] = k
	return k
}

// watchdogKey identifies watchdog limits by their content, so that the
// devices of one network OS share one report across models and copies.
func (r *resolver) watchdogKey(w *platform.Watchdog) string {
	if k, ok := r.wdKeys[w]; ok {
		return k
	}
	k := fmt.Sprintf("%v", *w)
	r.wdKeys[w] = k
	return k
}

type headroomKey struct {
	speed units.BitRate
	cable units.Length
	mtu   int
	cell  units.Bytes
}

type headroomResult struct {
	res headroom.Result
	err error
}

func newResolver(f *Fabric, inv *inventory.Inventory) *resolver {
	return &resolver{
		f: f, inv: inv, diags: newDiagSet(),
		qos: map[string]*qosSpec{}, buffers: map[string]*bufSpec{},
		expanded: map[string][]string{}, badRef: map[hcl.Pos]bool{},
		checked: map[checkKey]bool{}, headroom: map[headroomKey]headroomResult{}, ecnWarned: map[hcl.Pos]bool{},
		devByName: make(map[string]*Device, len(inv.Devices)), platKeys: map[*platform.Platform]platformKey{},
		wdKeys: map[*platform.Watchdog]string{},
	}
}

func (r *resolver) qosProfile(name string) *qosSpec {
	if s, ok := r.qos[name]; ok {
		return s
	}
	p := r.f.QoSProfiles[name]
	if p == nil {
		return nil
	}
	s, d := decodeQoS(name, p.Body, p.DeclRange)
	r.diags.add(d...)
	r.qos[name] = s
	return s
}

func (r *resolver) bufferProfile(name string) *bufSpec {
	if s, ok := r.buffers[name]; ok {
		return s
	}
	p := r.f.BufferProfiles[name]
	if p == nil {
		return nil
	}
	s, d := decodeBuffers(name, p.Body, p.DeclRange)
	r.diags.add(d...)
	r.buffers[name] = s
	return s
}

// assignDevices matches every assign block's selector against the
// inventory and records which block owns each device.
func (r *resolver) assignDevices() {
	owner := map[string]*Assign{}
	for _, a := range r.f.Assigns {
		for _, n := range a.Selector.Names {
			if r.inv.Device(n) == nil {
				r.diags.add(errorf(RuleNoDeviceMatched, "Unknown device", &a.Selector.Range, &a.DeclRange,
					fmt.Sprintf("assign %q selects device %q, which the inventory does not declare.", a.Name, n)))
			}
		}
		matched := map[string]bool{}
		if a.Selector.invalid {
			continue
		}
		selected := false
		for _, d := range r.inv.Devices {
			if !a.Selector.matches(d) {
				continue
			}
			selected = true
			if prev, ok := owner[d.Name]; ok {
				if prev != a {
					r.diags.add(errorf(RuleAssignedTwice, "Device assigned twice", &a.Selector.Range, &a.DeclRange,
						fmt.Sprintf("Device %q is selected by assign %q and by assign %q at %s. A device takes its profiles from one assign block: narrow one selector.", d.Name, a.Name, prev.Name, prev.Selector.Range)))
				}
				continue
			}
			owner[d.Name] = a
			matched[d.Name] = true
			job := deviceJob{dev: d, assign: a}
			for _, o := range a.Overrides {
				if o.Device == d.Name {
					job.override = o
				}
			}
			r.jobs = append(r.jobs, job)
		}
		r.checkPortRefs(a, matched)
		if !selected {
			r.diags.add(warnf(RuleNoDeviceMatched, "No device selected", &a.Selector.Range, &a.DeclRange,
				fmt.Sprintf("assign %q selects no device of the inventory, so it has no effect. Check the names, roles and tags against the inventory.", a.Name)))
		}
		for _, o := range a.Overrides {
			if !matched[o.Device] {
				r.diags.add(errorf(RuleOverrideUnmatched, "Override for a device not assigned", &o.LabelRange, &o.DeclRange,
					fmt.Sprintf("assign %q overrides device %q, but its selector does not select that device, so the override would do nothing. Fix the name or widen the selector.", a.Name, o.Device)))
			}
		}
	}
	for _, d := range r.inv.Devices {
		if _, ok := owner[d.Name]; !ok && d.Platform != nil {
			r.diags.add(warnf(RuleUnassignedDevice, "Device without intent", &d.DeclRange, nil,
				fmt.Sprintf("No assign block selects device %q, so lossless manages nothing on it. Select it in an assign block, or remove it from the inventory.", d.Name)))
		}
	}
}

// checkPortRefs reports each listed port that none of the assign's devices
// has. A port one device lacks but another has is not an error: one assign
// block may cover devices of several port layouts.
func (r *resolver) checkPortRefs(a *Assign, matched map[string]bool) {
	if len(matched) == 0 {
		return
	}
	for _, ref := range a.Ports {
		names, ok := r.expand(ref)
		if !ok {
			continue
		}
		var missing []string
		for _, n := range names {
			found := false
			for dn := range matched {
				if r.inv.Device(dn).PortNamed(n) != nil {
					found = true
					break
				}
			}
			if !found {
				missing = append(missing, n)
			}
		}
		if len(missing) == 0 {
			continue
		}
		devs := sortedKeys(matched)
		r.diags.add(errorf(RulePortNotInInventory, "Port not in the inventory", &ref.Range, &a.DeclRange,
			fmt.Sprintf("No device assign %q selects (%s) has port %s in the inventory. Declare it there (ports \"…\" { speed = …, cable = … }) or remove it from the assign block.",
				a.Name, strings.Join(devs, ", "), strings.Join(quoted(missing), ", "))))
	}
}

func quoted(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

func (s Selector) matches(d *inventory.Device) bool {
	if len(s.Names) > 0 && !slices.Contains(s.Names, d.Name) {
		return false
	}
	if len(s.Roles) > 0 && !slices.ContainsFunc(s.Roles, d.HasRole) {
		return false
	}
	if len(s.Tags) > 0 && !slices.ContainsFunc(s.Tags, d.HasTag) {
		return false
	}
	return true
}

func (r *resolver) expand(ref PortRef) ([]string, bool) {
	if names, ok := r.expanded[ref.Pattern]; ok {
		return names, names != nil
	}
	names, err := inventory.ExpandPorts(ref.Pattern)
	if err != nil {
		r.expanded[ref.Pattern] = nil
		if !r.badRef[ref.Range.Start] {
			r.badRef[ref.Range.Start] = true
			r.diags.add(errorf(RuleBadPortPattern, "Invalid port range", &ref.Range, nil,
				fmt.Sprintf("%s. Write a port name (\"Ethernet1/1\") or a range (\"Ethernet1/1-32\").", err)))
		}
		return nil, false
	}
	r.expanded[ref.Pattern] = names
	return names, true
}

func (r *resolver) resolveDevice(job deviceJob) *Device {
	inv, a, o := job.dev, job.assign, job.override
	if inv.Platform == nil {
		return nil
	}
	d := &Device{
		Name: inv.Name, Vendor: inv.Vendor, Platform: inv.Platform, Address: inv.Address, Port: inv.Port,
		Transport: inv.Transport, Roles: inv.Roles, Tags: inv.Tags, Range: inv.DeclRange,
		Options: map[string]string{}, Unmanaged: UnmanagedKeep,
	}
	for k, v := range a.Options {
		d.Options[k] = v
	}
	if a.Unmanaged != "" {
		d.Unmanaged = a.Unmanaged
	}
	qspec := r.qosProfile(a.QoS)
	bspec := r.bufferProfile(a.Buffers)
	if o != nil {
		for k, v := range o.Options {
			d.Options[k] = v
		}
		if o.Unmanaged != "" {
			d.Unmanaged = o.Unmanaged
		}
		if o.QoS != nil && qspec != nil {
			p := r.f.QoSProfiles[a.QoS]
			s, diags := decodeQoS(a.QoS, Merge(p.Body, o.QoS), p.DeclRange)
			r.diags.add(diags...)
			qspec = s
		}
		if o.Buffers != nil && bspec != nil {
			p := r.f.BufferProfiles[a.Buffers]
			s, diags := decodeBuffers(a.Buffers, Merge(p.Body, o.Buffers), p.DeclRange)
			r.diags.add(diags...)
			bspec = s
		} else if o.Buffers != nil {
			r.diags.add(errorf(RuleOverrideUnmatched, "Buffers override without a buffer profile", &o.DeclRange, nil,
				fmt.Sprintf("Device %q overrides buffers, but assign %q gives no buffer profile to merge over. Add buffers = buffer_profile.NAME to the assign block.", d.Name, a.Name)))
		}
	}
	if qspec == nil {
		return nil
	}
	d.QoS = qspec.qos
	if bspec != nil {
		d.Buffers = bspec.resolve(d.Platform)
	} else {
		d.Buffers = &Buffers{Headroom: HeadroomPolicy{Auto: true}}
	}
	r.checkPlatform(d, qspec, job)
	if bspec != nil {
		r.checkBuffers(d, bspec, qspec)
	}

	// Ports: the assign's list, or every inventory port (already in
	// natural order). A listed port this device lacks is skipped;
	// checkPortRefs reports one that no selected device has.
	var ports []*inventory.Port
	if a.Ports == nil {
		ports = inv.Ports
	} else {
		seen := map[string]bool{}
		for _, ref := range a.Ports {
			exp, ok := r.expand(ref)
			if !ok {
				continue
			}
			for _, n := range exp {
				if ip := inv.PortNamed(n); ip != nil && !seen[n] {
					seen[n] = true
					ports = append(ports, ip)
				}
			}
		}
		slices.SortFunc(ports, func(a, b *inventory.Port) int { return inventory.ComparePorts(a.Name, b.Name) })
	}
	assigned := func(n string) bool {
		_, ok := slices.BinarySearchFunc(ports, n, func(p *inventory.Port, n string) int { return inventory.ComparePorts(p.Name, n) })
		return ok
	}
	portQoS := map[string]*qosSpec{}
	if o != nil {
		for _, po := range o.Ports {
			exp, ok := r.expand(PortRef{Pattern: po.Pattern, Range: po.LabelRange})
			if !ok {
				continue
			}
			var spec *qosSpec
			if po.QoS != nil {
				p := r.f.QoSProfiles[a.QoS]
				base := p.Body
				if o.QoS != nil {
					base = Merge(base, o.QoS)
				}
				s, diags := decodeQoS(a.QoS, Merge(base, po.QoS), p.DeclRange)
				r.diags.add(diags...)
				spec = s
				r.checkPlatform(d, spec, job)
			}
			for _, n := range exp {
				if !assigned(n) {
					r.diags.add(errorf(RuleOverrideUnmatched, "Override for a port not assigned", &po.LabelRange, &po.DeclRange,
						fmt.Sprintf("Device %q has no assigned port %q, so this override would do nothing. Assigned ports come from the assign block's ports (or every inventory port when it has none).", d.Name, n)))
					continue
				}
				if spec != nil {
					portQoS[n] = spec
				}
			}
		}
	}
	d.Ports = make([]Port, 0, len(ports))
	// One backing array for every port's headroom: a port of a fabric
	// this size would otherwise cost an allocation each.
	slab := make([]Headroom, 0, len(ports)*max(1, len(qspec.qos.LosslessPriorities())))
	for _, ip := range ports {
		spec := qspec
		if s, ok := portQoS[ip.Name]; ok {
			spec = s
		}
		p := Port{Name: ip.Name, Speed: ip.Speed, Cable: ip.Cable, QoS: spec.qos, Range: ip.DeclRange}
		start := len(slab)
		slab = r.portHeadroom(d, &p, spec, bspec, slab)
		if len(slab) > start {
			p.Headroom = slab[start:len(slab):len(slab)]
		}
		d.Ports = append(d.Ports, p)
	}
	r.checkHeadroomSum(d)
	r.devByName[d.Name] = d
	return d
}

// portHeadroom appends to hr the port's headroom for each lossless
// priority: explicit from the buffer profile, or computed from speed,
// cable length and the class MTU (the platform's largest MTU when the
// class leaves it to the vendor default).
func (r *resolver) portHeadroom(d *Device, p *Port, spec *qosSpec, bspec *bufSpec, hr []Headroom) []Headroom {
	pol := d.Buffers.Headroom
	for i, c := range spec.qos.Classes {
		if !c.Lossless {
			continue
		}
		if !pol.Auto {
			hr = append(hr, Headroom{Priority: c.ID, Xoff: pol.Xoff, Xon: pol.Xon, Size: pol.Size,
				Derivation: bspec.explicitTerms()})
			r.checkECNAgainstXoff(d, p, spec, i, pol.Xoff, bspec)
			continue
		}
		if p.Speed <= 0 {
			r.diags.add(errorf(RulePortSpeed, "Port speed unknown", &p.Range, nil,
				fmt.Sprintf("Port %s of device %q carries lossless class %q with headroom = \"auto\", which is computed from the port speed. Give the port a speed in the inventory (speed = \"100G\").", p.Name, d.Name, c.Name)))
			continue
		}
		mtu := c.MTU
		if mtu == 0 {
			mtu = d.Platform.MTUMax
		}
		k := headroomKey{p.Speed, p.Cable, mtu, d.Platform.Cell}
		res, ok := r.headroom[k]
		if !ok {
			res.res, res.err = headroom.Compute(headroom.Input{Speed: p.Speed, Cable: p.Cable, MTU: units.Bytes(mtu), Cell: d.Platform.Cell})
			r.headroom[k] = res
		}
		if res.err != nil {
			r.diags.add(errorf(RuleHeadroomCompute, "Cannot compute headroom", &p.Range, nil,
				fmt.Sprintf("Port %s of device %q: %s. Check the port's speed and cable length and the platform's cell size.", p.Name, d.Name, res.err)))
			continue
		}
		hr = append(hr, Headroom{Priority: c.ID, Xoff: res.res.Xoff, Xon: res.res.Xon, Size: res.res.Size, Derivation: res.res.Terms})
	}
	// ECN thresholds given as time need the port speed; a minimum and a
	// maximum of different kinds can only be compared at that speed.
	for i, c := range spec.qos.Classes {
		e := c.ECN
		if e == nil || e.Min.Time == 0 && e.Max.Time == 0 || e.Min.Percent != 0 || e.Max.Percent != 0 {
			continue
		}
		if p.Speed <= 0 {
			r.diags.add(errorf(RulePortSpeed, "Port speed unknown", &p.Range, nil,
				fmt.Sprintf("Port %s of device %q has an ECN threshold given as time on class %q, which converts to bytes at the port speed. Give the port a speed in the inventory.", p.Name, d.Name, c.Name)))
			continue
		}
		if sameKind(e.Min, e.Max) {
			continue
		}
		lo, hi := e.Min.Bytes, e.Max.Bytes
		if e.Min.Time != 0 {
			lo = p.Speed.BytesIn(e.Min.Time)
		}
		if e.Max.Time != 0 {
			hi = p.Speed.BytesIn(e.Max.Time)
		}
		if lo > hi {
			src := spec.classes[i]
			r.diags.add(errorf(RuleECNMinAboveMax, "ECN minimum threshold above maximum", &src.ecnMin, &src.ecnBlock,
				fmt.Sprintf("At %s, min_threshold %s of class %q is %s, above max_threshold %s (at %s). Give both thresholds in the same unit, or lower the minimum.", p.Speed, thresholdText(e.Min), c.Name, lo, hi, src.ecnMax)))
		}
	}
	return hr
}

// checkECNAgainstXoff warns when ECN starts marking only at or above the
// explicit PFC xoff of the same priority: the port would pause the sender
// before it marks, the opposite of what DCQCN needs. With automatic
// headroom the pause point is the shared buffer's dynamic threshold, not a
// fixed size, so there is nothing to compare against.
func (r *resolver) checkECNAgainstXoff(d *Device, p *Port, spec *qosSpec, i int, xoff units.Bytes, bspec *bufSpec) {
	c := spec.qos.Classes[i]
	if c.ECN == nil || xoff <= 0 {
		return
	}
	min := c.ECN.Min.Bytes
	if c.ECN.Min.Time != 0 {
		if p.Speed <= 0 {
			return
		}
		min = p.Speed.BytesIn(c.ECN.Min.Time)
	}
	if min < xoff {
		return
	}
	src := spec.classes[i]
	if r.ecnWarned[src.ecnMin.Start] {
		return
	}
	r.ecnWarned[src.ecnMin.Start] = true
	r.diags.add(warnf(RuleECNAboveXoff, "ECN marks only after PFC pauses", &src.ecnMin, &src.ecnBlock,
		fmt.Sprintf("On device %q port %s, class %q starts ECN marking at %s, at or above the PFC xoff of priority %d (%s, set at %s). The switch would pause the sender before marking, the opposite of what DCQCN needs: lower min_threshold below xoff.", d.Name, p.Name, c.Name, min, c.ID, xoff, bspec.headroom)))
}

// checkHeadroomSum reports a device whose lossless headroom does not fit
// its buffer, naming the ports that reserve the most.
func (r *resolver) checkHeadroomSum(d *Device) {
	var total units.Bytes
	for _, p := range d.Ports {
		for _, h := range p.Headroom {
			total += h.Size
		}
	}
	limit := d.Platform.Buffer
	if d.Buffers.LosslessPool > 0 {
		limit = d.Buffers.LosslessPool
	}
	if total <= limit {
		return
	}
	type contrib struct {
		port string
		size units.Bytes
	}
	var cs []contrib
	for _, p := range d.Ports {
		var s units.Bytes
		for _, h := range p.Headroom {
			s += h.Size
		}
		if s > 0 {
			cs = append(cs, contrib{p.Name, s})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].size > cs[j].size })
	var top []string
	for _, c := range cs[:min(3, len(cs))] {
		top = append(top, fmt.Sprintf("%s (%s)", c.port, c.size))
	}
	what := fmt.Sprintf("the %s buffer of platform %s", limit, d.Platform.Model)
	if d.Buffers.LosslessPool > 0 {
		what = fmt.Sprintf("the %s lossless pool", limit)
	}
	r.diags.add(errorf(RuleHeadroomOverflow, "Lossless headroom exceeds the buffer", &d.Range, nil,
		fmt.Sprintf("Device %q reserves %s of lossless headroom over %d ports, more than %s. The largest: %s. Shorten the cables, lower the MTU of the lossless classes, manage fewer ports, or use fewer lossless classes.", d.Name, total, len(cs), what, strings.Join(top, ", "))))
}

// explicitTerms explains explicit headroom: each value is as written. The
// terms are made once per profile and shared by its ports.
func (b *bufSpec) explicitTerms() []headroom.Term {
	if b.terms != nil {
		return b.terms
	}
	pol := b.policy
	src := fmt.Sprintf("buffer_profile %q at %s", b.name, b.headroom)
	t := []headroom.Term{{Name: "Xoff: explicit", Bytes: pol.Xoff, Source: src}}
	if pol.Xon > 0 {
		t = append(t, headroom.Term{Name: "Xon: explicit", Bytes: pol.Xon, Source: src})
	}
	if pol.Size > 0 {
		t = append(t, headroom.Term{Name: "Size: explicit", Bytes: pol.Size, Source: src})
	}
	b.terms = t
	return t
}
