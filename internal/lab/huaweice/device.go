package huaweice

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// Name is the vendor name the kind registers under.
const Name = "huawei-ce"

// DefaultModel is the model of a device made without WithModel or a seed
// "!Model:" header: a family B switch, the family of the reference's
// canonical configuration (reference/huawei-ce.md §1.1).
const DefaultModel = "CE8855"

// softwareVersion heads display current-configuration (§5).
const softwareVersion = "V300R023C00"

// families maps the models of reference/huawei-ce.md §0 to their family.
var families = map[string]family{
	"CE6866": familyA, "CE6866K": familyA, "CE6860-SAN": familyA, "CE6860-HAM": familyA,
	"CE8850-SAN": familyA, "CE8850-HAM": familyA, "CE8851K": familyA, "CE8851-32CQ8DQ-P": familyA,
	"CE6855-48XS8CQ": familyB, "CE6863E-48S8CQ": familyB, "CE6885": familyB, "CE6885-T": familyB,
	"CE6885-SAN": familyB, "CE6885-LL": familyB, "CE8855": familyB, "CE8851-32CQ4BQ": familyB,
}

// Kind makes emulated CloudEngine switches. Its compiled grammar is shared
// read-only by every device it makes.
type Kind struct {
	opts options
	// commands holds, per family and view, the grammar entries usable
	// there: [0] config commands only (seeds), [1] with exec commands.
	commands map[family]map[view][2][]*command
	// ports is the set of interface names, in canonical form.
	ports map[string]bool
}

type options struct {
	model     string
	ports     []string
	clock     func() time.Time
	afterFunc func(time.Duration, func()) Timer
}

// Timer is a scheduled call that can be stopped, as *time.Timer.
type Timer interface {
	Stop() bool
}

// realAfterFunc is time.AfterFunc as a Timer.
func realAfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Option configures a Kind.
type Option func(*options) error

// WithModel sets the switch model, which selects the syntax family
// (reference/huawei-ce.md §0). A seed's "!Model: X" header overrides it.
func WithModel(m string) Option {
	return func(o *options) error {
		if _, ok := families[m]; !ok {
			return fmt.Errorf("model %q: not a family A or B CloudEngine model", m)
		}
		o.model = m
		return nil
	}
}

// WithPorts sets the physical interfaces ("100GE1/0/1"); the default is
// 100GE1/0/1 to 100GE1/0/32.
func WithPorts(ports ...string) Option {
	return func(o *options) error {
		for _, p := range ports {
			if !ifaceRe.MatchString(p) {
				return fmt.Errorf("port %q: not an interface name like 100GE1/0/1", p)
			}
		}
		o.ports = ports
		return nil
	}
}

// WithClock sets the clock that stamps commits and the "Last configuration
// was updated" header; tests pass a fixed one.
func WithClock(now func() time.Time) Option {
	return func(o *options) error {
		if now == nil {
			return errors.New("clock must not be nil")
		}
		o.clock = now
		return nil
	}
}

// WithAfterFunc replaces time.AfterFunc for the device's timers (the
// commit trial timer, the idle timer of the configuration lock), so that
// a test can make a timer run out without waiting. (*Device).SetAfterFunc
// does the same for a device a lab has already made.
func WithAfterFunc(af func(d time.Duration, f func()) Timer) Option {
	return func(o *options) error {
		if af == nil {
			return errors.New("nil AfterFunc")
		}
		o.afterFunc = af
		return nil
	}
}

// NewKind returns a kind with the options applied.
func NewKind(opts ...Option) (*Kind, error) {
	o := options{model: DefaultModel, clock: time.Now, afterFunc: realAfterFunc}
	for i := 1; i <= 32; i++ {
		o.ports = append(o.ports, fmt.Sprintf("100GE1/0/%d", i))
	}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, fmt.Errorf("huawei-ce kind: %w", err)
		}
	}
	g := grammar()
	if err := compile(g); err != nil {
		return nil, fmt.Errorf("huawei-ce kind: %w", err)
	}
	k := &Kind{opts: o, commands: map[family]map[view][2][]*command{}, ports: map[string]bool{}}
	for _, p := range o.ports {
		name, _ := canonIface(p)
		k.ports[name] = true
	}
	for _, f := range []family{familyA, familyB} {
		k.commands[f] = map[view][2][]*command{}
		for _, v := range anyView {
			var sets [2][]*command
			for _, c := range g {
				if c.usableIn(v) && c.inFamily(f) {
					if c.run == nil {
						sets[0] = append(sets[0], c)
					}
					sets[1] = append(sets[1], c)
				}
			}
			k.commands[f][v] = sets
		}
	}
	return k, nil
}

func init() {
	k, err := NewKind()
	if err != nil {
		panic(err) // the built-in grammar does not compile: a programming error
	}
	device.Register(k)
}

// Name implements device.Kind.
func (k *Kind) Name() string { return Name }

// Model implements device.Modeler: the model devices of this kind
// emulate (a seed's "!Model:" header may change it per device).
func (k *Kind) Model() string { return k.opts.model }

// New implements device.Kind. The seed is display current-configuration
// text; an optional "!Model: CE6866" line selects the model. Every line of
// the seed goes through the grammar, so a seed the device would refuse is
// an error naming the line.
func (k *Kind) New(hostname string, seed []byte) (device.Device, error) {
	return k.newDevice(hostname, seed)
}

// NewSpec implements device.SpecKind: a device of spec.Model (which
// selects family A or B, reference/huawei-ce.md §0; empty: the kind's
// model) that has spec.Ports on top of the kind's ports. Both, not
// either: CloudEngine fixed switches mix port speeds on one panel
// (CE8851-32CQ8DQ-P: 32×100GE QSFP28 and 8×400GE QSFP-DD, Huawei's
// "CloudEngine 9800, 8800, and 6800 Series Switches Hardware Description
// (V300)", EDOC1100369504), and an inventory names only the ports it
// manages while a running config also configures the others. A seed's
// "!Model:" header of the spec's family is taken as the same switch (the
// spec's model stays); one of the other family is an error, as that seed
// was written for another switch.
func (k *Kind) NewSpec(hostname string, seed []byte, spec device.Spec) (device.Device, error) {
	return k.newSpecDevice(hostname, seed, spec)
}

func (k *Kind) newDevice(hostname string, seed []byte) (*Device, error) {
	return k.newSpecDevice(hostname, seed, device.Spec{})
}

func (k *Kind) newSpecDevice(hostname string, seed []byte, spec device.Spec) (*Device, error) {
	if hostname == "" {
		hostname = "HUAWEI"
	}
	d := &Device{
		opts:        k.opts,
		model:       k.opts.model,
		kind:        k,
		ports:       k.ports,
		nextID:      1000000001,
		afterFunc:   k.opts.afterFunc,
		nextSession: firstSessionID,
	}
	if spec.Model != "" {
		if _, ok := families[spec.Model]; !ok {
			return nil, fmt.Errorf("new %s: model %q: not a family A or B CloudEngine model", hostname, spec.Model)
		}
		d.model = spec.Model
	}
	if len(spec.Ports) > 0 {
		d.ports = make(map[string]bool, len(k.ports)+len(spec.Ports))
		for p := range k.ports {
			d.ports[p] = true
		}
		for _, p := range spec.Ports {
			name, ok := canonIface(p)
			if !ok {
				return nil, fmt.Errorf("new %s: port %q: not an interface name like 400GE1/0/1", hostname, p)
			}
			d.ports[name] = true
		}
	}
	for _, l := range strings.Split(string(seed), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(l), "!Model:"); ok {
			m = strings.TrimSpace(m)
			f, ok := families[m]
			if !ok {
				return nil, fmt.Errorf("new %s: seed model %q: not a family A or B CloudEngine model", hostname, m)
			}
			if spec.Model == "" {
				d.model = m
			} else if f != families[spec.Model] {
				return nil, fmt.Errorf("new %s: seed model %q is not of the family of model %q", hostname, m, spec.Model)
			}
		}
	}
	d.family = families[d.model]
	root := &node{section: true}
	root.put(&node{line: "sysname " + hostname, key: "sysname"})
	if len(seed) > 0 {
		var err error
		if root, err = d.load(root, string(seed)); err != nil {
			return nil, fmt.Errorf("new %s: seed: %w", hostname, err)
		}
	}
	d.running = root
	d.updated = d.opts.clock()
	return d, nil
}

// Device is one emulated CloudEngine switch.
type Device struct {
	opts   options
	model  string
	family family
	kind   *Kind
	ports  map[string]bool

	mu      sync.Mutex
	running *node
	updated time.Time
	commits []commitPoint // oldest first
	nextID  int64
	trial   *trial
	saved   string
	// counters are the ports' health counters (counters.go).
	counters device.Counters
	// afterFunc arms the trial and lock timers (WithAfterFunc).
	afterFunc func(time.Duration, func()) Timer
	// live are the open sessions, for their IDs and VTY numbers;
	// nextSession is the ID the next one gets.
	live        []*Session
	nextSession int64
	// lock is the configuration lock (configuration exclusive), nil when
	// unlocked.
	lock *exclusive
}

// SetAfterFunc replaces time.AfterFunc for the timers the device arms
// from now on (WithAfterFunc, for a device made by a lab): a test in
// another package runs a commit trial out at once by calling the function
// it was handed. Safe while sessions run.
func (d *Device) SetAfterFunc(af func(dur time.Duration, f func()) Timer) {
	if af == nil {
		af = realAfterFunc
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.afterFunc = af
}

// commitPoint is one entry of display configuration commit list: the
// configuration before and after the commit.
type commitPoint struct {
	id          int64
	label, user string
	// kind is the Type column of the verbose list: CLI, ROLLBACK or
	// SYSTEM (V300R023 "display configuration commit list").
	kind          string
	at            time.Time
	before, after *node
}

// trial is an unconfirmed commit trial (§4). A trial with a persist ID
// has no owner: any session confirms it with commit persist ID.
type trial struct {
	before  *node
	owner   *Session
	persist string
	timer   Timer
	ends    time.Time
}

// Family returns the chip family ("A" or "B") of the device's model.
func (d *Device) Family() string { return string(d.family) }

// hostname returns the sysname of a tree.
func hostname(root *node) string {
	if n := root.find("sysname"); n != nil {
		return strings.TrimPrefix(n.line, "sysname ")
	}
	return "HUAWEI"
}

// Running implements device.Device: display current-configuration.
func (d *Device) Running() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return []byte(d.render(d.running, userOnly))
}

// render prints a tree as display current-configuration (§5): the
// version and last-update header, "#"-separated sections, "return".
func (d *Device) render(root *node, m mode) string {
	var b strings.Builder
	fmt.Fprintf(&b, "!Software Version %s\n", softwareVersion)
	fmt.Fprintf(&b, "!Last configuration was updated at %s\n", d.updated.UTC().Format("2006-01-02 15:04:05+00:00"))
	for _, l := range root.body(m) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString("return\n")
	return b.String()
}

// load applies configuration text (display current-configuration form)
// to a copy of root through the grammar and returns the copy. A line
// indented by one more space than a section header belongs to it.
func (d *Device) load(root *node, text string) (*node, error) {
	root = root.clone()
	type level struct {
		sec *node
		v   view
	}
	stack := []level{{root, viewSystem}}
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, " \r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed == "#" || trimmed == "return" || strings.HasPrefix(trimmed, "!") {
			continue
		}
		depth := len(line) - len(strings.TrimLeft(line, " "))
		trimmed = strings.TrimPrefix(trimmed, "~") // a default-equal line of include-default output
		if depth >= len(stack) {
			return nil, fmt.Errorf("line %d %q: indented under no section", i+1, trimmed)
		}
		stack = stack[:depth+1]
		at := stack[depth]
		e := &edit{root: root, cur: at.sec, family: d.family, ports: d.ports}
		m, perr := parse(d.commands(at.v, false), trimmed)
		if perr != nil {
			return nil, fmt.Errorf("line %d %q: %s", i+1, trimmed, perr.kind.text())
		}
		if bad := d.applyConfig(e, m); bad != "" {
			return nil, fmt.Errorf("line %d %q: %s", i+1, trimmed, errWrongParameter.text())
		}
		if m.cmd.enter != 0 {
			stack = append(stack, level{e.entered, m.cmd.enter})
		}
	}
	return root, nil
}

// commands returns the grammar entries usable in a view on this device's
// family; exec=false leaves out exec commands (seeds hold only config).
func (d *Device) commands(v view, exec bool) []*command {
	if exec {
		return d.kind.commands[d.family][v][1]
	}
	return d.kind.commands[d.family][v][0]
}

// applyConfig runs a config command's effect on e. It returns the name of
// the argument a refusal points at, or "".
func (d *Device) applyConfig(e *edit, m *matchResult) string {
	c, a := m.cmd, m.args
	if c.check != nil {
		if bad := c.check(e, a); bad != "" {
			return bad
		}
	}
	if c.apply != nil {
		return c.apply(e, a)
	}
	if len(c.remove) > 0 {
		for _, k := range c.remove {
			e.cur.remove(a.expand(k))
		}
		return ""
	}
	line := m.canon
	if c.line != "" {
		line = a.expand(c.line)
	}
	key := line
	if c.key != "" {
		key = a.expand(c.key)
	}
	rank := c.rank
	if c.rankOf != nil {
		rank = c.rankOf(a)
	}
	n := &node{line: line, key: key, rank: rank, sep: c.sep, group: c.group, order: a.expand(c.order), hidden: c.isDefault != nil && c.isDefault(a)}
	if c.enter != 0 {
		n.section, n.showEmpty, n.view, n.children = true, c.showEmpty, c.enter, []*node{}
	}
	e.entered = e.cur.put(n)
	if bgp := e.root.find("bgp"); bgp != nil && (e.cur == bgp || e.cur.view == viewBGPAF) {
		orderBGP(bgp)
	}
	return ""
}

// commitLocked makes cand the running config as a new commit point.
func (d *Device) commitLocked(cand *node, user, label, kind string) {
	before := d.running
	d.running = cand.clone()
	d.updated = d.opts.clock()
	d.commits = append(d.commits, commitPoint{id: d.nextID, label: label, user: user, kind: kind, at: d.updated, before: before, after: d.running.clone()})
	d.nextID++
	if len(d.commits) > 80 {
		d.commits = d.commits[1:]
	}
}

// startTrial records the state to revert to and arms the timer.
func (d *Device) startTrialLocked(before *node, owner *Session, persist string, secs int64) {
	if d.trial != nil {
		d.trial.timer.Stop()
		before = d.trial.before
	}
	if persist != "" {
		owner = nil
	}
	t := &trial{before: before, owner: owner, persist: persist, ends: d.opts.clock().Add(time.Duration(secs) * time.Second)}
	t.timer = d.afterFunc(time.Duration(secs)*time.Second, func() { d.expireTrial(t) })
	d.trial = t
}

// expireTrial reverts an unconfirmed trial (§4: "The system will revert to
// previous configuration if the trial configuration is not confirmed").
func (d *Device) expireTrial(t *trial) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.trial != t {
		return
	}
	d.revertTrialLocked()
}

func (d *Device) revertTrialLocked() {
	t := d.trial
	t.timer.Stop()
	d.trial = nil
	d.commitLocked(t.before, "_SYSTEM_", "", "SYSTEM")
}

// Checkpoint implements device.Checkpointer: the whole configuration,
// defaults included, as configuration text.
func (d *Device) Checkpoint() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return []byte(strings.Join(d.running.body(everything), "\n") + "\n")
}

// Restore implements device.Checkpointer: the configuration becomes the
// checkpoint's, as one new commit point. An active trial is cancelled.
func (d *Device) Restore(cp []byte) error {
	empty := &node{section: true}
	root, err := d.load(empty, string(cp))
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.trial != nil {
		d.trial.timer.Stop()
		d.trial = nil
	}
	d.commitLocked(root, "_SYSTEM_", "", "SYSTEM")
	return nil
}
