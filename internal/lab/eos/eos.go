// Package eos is the lab's Arista EOS personality (4.2x–4.36): prompts
// without a trailing space, session prompts truncated to six characters,
// the QoS/PFC/ECN command grammar with ranges and EOS's one-line errors,
// the running config as a tree printed with "!" separators and three-space
// indentation, configuration sessions (diffs, commit, commit timer with
// confirm, abort; kept pending when the CLI session that opened them
// drops, at most five, for 24 hours) and the configure lock (lock.go), all
// from reference/eos.md and the public sources lock.go cites.
//
// It also takes a data-centre switch's whole running config (config.go:
// users, management, VLANs, VRFs, interface L2/L3 lines, ACLs, routing
// policy, BGP), at the depth needed to keep each line's place and print it
// back. A config loaded as a seed prints back equal, modulo EOS's
// normalisation as the lab writes it: the "! Command" and "! device"
// header; every front-panel port listed (an unconfigured one as an empty
// stanza); lines in EOS's order (AVD's eos-intended-config.j2) with three
// spaces a level and "!" between stanzas; the device's own hostname; "!"
// comment lines dropped ("!!" kept in a sub-mode); values of a qos map
// merged into one line per target; ACL rules without a sequence number
// numbered 10 more than the last (whole_test.go checks these on AVD's
// and cEOS's configs).
package eos

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// Name is the kind name, as written in an inventory.
const Name = "eos"

// Model is the emulated platform.
const Model = "DCS-7050CX3-32S"

// version is the EOS release the lab emulates [I: a 4.32 release, as
// eos.md's syntax is].
const version = "4.32.2F"

// deviceLine is the second line of show running-config (eos.md §2;
// scrapligo's EOS recording: "! device: ceos (cEOSLab, EOS-…)").
const deviceLine = "! device: %s (%s, EOS-" + version + ")"

// Error texts (eos.md §4 Error strings).
const (
	errInvalid     = "% Invalid input"
	errIncomplete  = "% Incomplete command"
	errAmbiguous   = "% Ambiguous command"
	errUnavailable = "% Unavailable command (not supported on this hardware platform)"
	errCommit      = "% Cannot commit"
)

func init() { device.Register(kind{}) }

type kind struct{}

func (kind) Name() string  { return Name }
func (kind) Model() string { return Model }

// New makes a device; seed is running-config text as show running-config
// prints it.
func (kind) New(hostname string, seed []byte) (device.Device, error) {
	return New(hostname, seed)
}

// NewSpec implements device.SpecKind: a device of spec.Model (one of
// models; empty: Model) whose spec.Ports must be among that model's
// front-panel ports, as a real switch has exactly its panel's ports.
func (kind) NewSpec(hostname string, seed []byte, spec device.Spec) (device.Device, error) {
	var opts []Option
	if spec.Model != "" {
		opts = append(opts, WithModel(spec.Model))
	}
	if len(spec.Ports) > 0 {
		opts = append(opts, WithPorts(spec.Ports...))
	}
	return New(hostname, seed, opts...)
}

// Device is one emulated EOS switch. It is safe for concurrent use.
type Device struct {
	host string
	// model is the emulated model; ports its front-panel port count.
	model string
	ports int
	// want are the ports WithPorts asks for, checked against the model.
	want []string

	mu       sync.Mutex
	tree     *grammar.Tree
	sessions map[string]*cfgSession
	// timer is the pending commit timer, if any.
	timer *commitTimer
	// completed is the last session committed and confirmed: EOS lists
	// one ("Maximum number of completed sessions: 1", eos.md §5).
	completed string
	// lock is the CLI session holding the configure lock, if any
	// (lock.go).
	lock *session
	// vtys numbers the CLI sessions for their terminal names ("vty1").
	vtys    int
	startup *grammar.Tree
	// files are saved configs: "checkpoint:NAME" and "flash:NAME".
	files map[string]*grammar.Tree
	seq   int
	// afterFunc schedules commit-timer expiry (time.AfterFunc).
	afterFunc func(time.Duration, func()) Timer
	// counters are the ports' health counters (counters.go).
	counters device.Counters
}

// cfgSession is one configuration session (eos.md §5), kept until
// committed, aborted or timed out (lock.go).
type cfgSession struct {
	name string
	tree *grammar.Tree
	// user and tty are who opened it, as show configuration sessions
	// lists them.
	user, tty string
	// expiry discards it after pendingTimeout.
	expiry Timer
}

// commitTimer is a commit awaiting its confirm.
type commitTimer struct {
	name     string
	previous *grammar.Tree
	t        Timer
}

// Timer is a scheduled call that can be stopped, as *time.Timer.
type Timer interface {
	Stop() bool
}

// Option configures a Device.
type Option func(*Device) error

// WithAfterFunc replaces time.AfterFunc for commit timers and the
// timeout of pending sessions, so that tests can make a timer run out
// without waiting.
func WithAfterFunc(af func(d time.Duration, f func()) Timer) Option {
	return func(d *Device) error {
		if af == nil {
			return errors.New("eos option: nil AfterFunc")
		}
		d.afterFunc = af
		return nil
	}
}

// SetAfterFunc is WithAfterFunc on a device already made (one a lab
// added): timers armed from now on use af. A nil af is ignored.
func (d *Device) SetAfterFunc(af func(d time.Duration, f func()) Timer) {
	if af == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.afterFunc = af
}

// WithModel makes the device one of the models the lab emulates
// ("DCS-7060DX5-64S"), with that model's front-panel ports; the default
// is Model.
func WithModel(m string) Option {
	return func(d *Device) error {
		n, ok := models[m]
		if !ok {
			return fmt.Errorf("model %q: not an Arista model the lab emulates (%s)", m, strings.Join(modelNames(), ", "))
		}
		d.model, d.ports = m, n
		return nil
	}
}

// WithPorts names ports ("Ethernet29") the device must have: each must be
// one of its model's front-panel ports, whatever order the options come
// in.
func WithPorts(names ...string) Option {
	return func(d *Device) error {
		d.want = append(d.want, names...)
		return nil
	}
}

// modelNames lists models, sorted.
func modelNames() []string {
	var n []string
	for m := range models {
		n = append(n, m)
	}
	sort.Strings(n)
	return n
}

// New makes a device named hostname, seeded with running-config text
// (nil: factory defaults).
func New(hostname string, seed []byte, opts ...Option) (*Device, error) {
	d := &Device{host: hostname, tree: grammar.NewTree(), sessions: map[string]*cfgSession{}, files: map[string]*grammar.Tree{},
		model: Model, ports: models[Model],
		afterFunc: func(t time.Duration, f func()) Timer { return time.AfterFunc(t, f) }}
	for _, o := range opts {
		if err := o(d); err != nil {
			return nil, fmt.Errorf("new %s: %w", hostname, err)
		}
	}
	for _, p := range d.want {
		if ifs, err := expandIfsMax(p, d.ports); err != nil || len(ifs) != 1 || ifs[0] != p || strings.Contains(p, "/") || !strings.HasPrefix(p, "Ethernet") {
			return nil, fmt.Errorf("new %s: port %q: not a front-panel port of a %s (Ethernet1-%d)", hostname, p, d.model, d.ports)
		}
	}
	d.tree = factory(d.ports)
	if len(seed) > 0 {
		t, err := d.parse(seed)
		if err != nil {
			return nil, fmt.Errorf("seed %s: %w", hostname, err)
		}
		d.tree = t
	}
	return d, nil
}

// factory is the config of a new switch with n front-panel ports: every one has its
// (empty) interface stanza, as show running-config lists them
// (scrapligo's EOS recording: "interface Ethernet1" then "!").
func factory(n int) *grammar.Tree {
	t := grammar.NewTree()
	for p := 1; p <= n; p++ {
		name := fmt.Sprintf("interface Ethernet%d", p)
		t.Set(t.Root, name, name, rankEthernet, true, modeIf)
	}
	return t
}

// parse types a running-config text into a new tree.
func (d *Device) parse(text []byte) (*grammar.Tree, error) {
	t := factory(d.ports)
	s := &session{d: d, st: grammar.State{Tree: t, Frames: []grammar.Frame{{Mode: "exec"}}}}
	top := grammar.Frame{Mode: "config", Nodes: []*grammar.Node{t.Root}}
	for i, line := range strings.Split(string(text), "\n") {
		l := strings.TrimSpace(line)
		if l == "" || l == "end" || strings.HasPrefix(l, "hostname ") {
			continue
		}
		if l == line {
			s.st.Frames = []grammar.Frame{s.st.Frames[0], top}
		}
		if comment(&s.st, l) {
			continue
		}
		r := eosGrammar.Exec(s, &s.st, l)
		if r.Err != nil || r.Msg != "" || r.Out != "" {
			return nil, fmt.Errorf("line %d %q: %s", i+1, l, strings.TrimSpace(errText(r)))
		}
	}
	return t, nil
}

// Running returns the output of show running-config.
func (d *Device) Running() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return []byte(d.showRun(d.tree))
}

// NewSession starts a CLI session in privileged exec mode, on the next
// terminal (vty1, vty2, …).
func (d *Device) NewSession(user string, f *device.Faults) device.Session {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.vtys++
	return &session{d: d, faults: f, login: user, tty: fmt.Sprintf("vty%d", d.vtys),
		st: grammar.State{Tree: d.tree, Frames: []grammar.Frame{{Mode: "exec"}}}}
}

// session is one CLI session.
type session struct {
	d      *Device
	faults *device.Faults
	// login and tty name it in show configuration sessions and in the
	// configure lock's refusal.
	login, tty string
	st         grammar.State
	// cfg is the configuration session being edited, if any.
	cfg *cfgSession
	// user is true in unprivileged exec (switch>).
	user bool
}

func (s *session) Greeting() string { return "" }

// Prompt follows eos.md §1c/§4: no trailing space; in a session
// "(config-s-" plus the first six characters of its name; sub-modes
// append their labels ("-if-Et1", "-txq-3").
func (s *session) Prompt() string {
	if s.st.Mode() == "exec" {
		if s.user {
			return s.d.host + ">"
		}
		return s.d.host + "#"
	}
	var b strings.Builder
	b.WriteString(s.d.host + "(config")
	if s.cfg != nil {
		name := s.cfg.name
		if len(name) > 6 {
			name = name[:6]
		}
		b.WriteString("-s-" + name)
	}
	for _, f := range s.st.Frames[2:] {
		if f.Label != "" {
			b.WriteString("-" + f.Label)
		}
	}
	b.WriteString(")#")
	return b.String()
}

// Handle runs one line.
func (s *session) Handle(line string) (string, bool) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if strings.TrimSpace(line) == "" {
		return "", false
	}
	if f := s.faults.Load(); f.RejectPattern != "" && s.st.Mode() != "exec" {
		if re, err := regexp.Compile(f.RejectPattern); err == nil && re.MatchString(line) {
			return errInvalid + "\n", false
		}
	}
	if s.cfg == nil && s.st.Mode() != "exec" {
		s.st.Tree = s.d.tree
		if len(s.st.Frames) > 1 && (len(s.st.Frames[1].Nodes) == 0 || s.st.Frames[1].Nodes[0] != s.d.tree.Root) {
			// the running config was replaced (commit, rollback): start
			// again from the top of config mode.
			s.st.Frames = []grammar.Frame{s.st.Frames[0], {Mode: "config", Nodes: []*grammar.Node{s.d.tree.Root}}}
		}
	}
	if comment(&s.st, strings.TrimSpace(line)) {
		return "", false
	}
	if s.user {
		return s.handleUser(line)
	}
	// A refused line leaves the mode as it was, even when the parent
	// mode that took it refused it after the context moved there.
	saved := append([]grammar.Frame(nil), s.st.Frames...)
	r := eosGrammar.Exec(s, &s.st, line)
	if r.Err != nil || r.Msg != "" {
		s.st.Frames = saved
		return errText(r), false
	}
	if strings.HasPrefix(r.Out, "% ") {
		s.st.Frames = saved
	}
	return r.Out, r.Done
}

// comment reports a comment line, which EOS takes in every mode: a line
// starting with "!" is ignored (show running-config separates its stanzas
// with such lines, and AVD's intended configs, pushed unedited to
// switches, open with "!RANCID-CONTENT-TYPE: arista": eos.md §2.1; AVD
// molecule intended/configs/platform.cfg). A "!!" line typed in a
// sub-mode is kept there, first among its lines, as a comment of the
// stanza (AVD renders a tx-queue's comment as "!! text" lines: molecule
// documentation/devices/qos.md) [I: at the top level it is ignored].
func comment(st *grammar.State, l string) bool {
	if !strings.HasPrefix(l, "!") {
		return false
	}
	f := st.Frames[len(st.Frames)-1]
	if strings.HasPrefix(l, "!!") && len(st.Frames) > 2 && st.Tree != nil {
		text := "!! " + strings.TrimSpace(strings.TrimPrefix(l, "!!"))
		for _, n := range f.Nodes {
			st.Tree.Set(n, text, text, -1, false, "")
		}
	}
	return true
}

// handleUser serves unprivileged exec mode: enable, exit, show and
// terminal only; privileged commands are invalid input there.
func (s *session) handleUser(line string) (string, bool) {
	f := strings.Fields(strings.ToLower(line))
	switch {
	case len(f) == 1 && strings.HasPrefix("enable", f[0]) && len(f[0]) >= 2:
		s.user = false
		return "", false
	case len(f) == 1 && f[0] == "exit":
		return "", true
	case !(len(f[0]) >= 2 && (strings.HasPrefix("show", f[0]) || strings.HasPrefix("terminal", f[0]))):
		return errInvalid + "\n", false
	}
	r := eosGrammar.Exec(s, &s.st, line)
	if r.Err != nil || r.Msg != "" {
		return errText(r), false
	}
	return r.Out, r.Done
}

// Close ends the CLI session (exit, or the connection dropped): the
// configure lock it held goes with it; configuration sessions it opened
// stay pending and a commit timer keeps running (lock.go).
func (s *session) Close() {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.d.lock == s {
		s.d.lock = nil
	}
}

// errText is EOS's one-line error for a refused line.
func errText(r grammar.Result) string {
	if r.Msg != "" {
		return r.Msg + "\n"
	}
	switch r.Err.Kind {
	case grammar.Incomplete:
		return errIncomplete + "\n"
	case grammar.Ambiguous:
		return errAmbiguous + "\n"
	}
	return errInvalid + "\n"
}

// ConfigureAtomic runs lines as one configuration session: every line is
// accepted or nothing changes (eos.md §6: each gNMI cli Set is one
// session). The error carries EOS's text for the first refused line. As a
// session it cannot open while maxPending sessions are pending, nor
// commit while a CLI session holds the configure lock [I: lock.go].
func (d *Device) ConfigureAtomic(lines []string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := &session{d: d}
	if msg := s.lockedOut(); msg != "" {
		return fmt.Errorf("configure %s: %s", d.host, msg)
	}
	if len(d.sessions) >= maxPending {
		return fmt.Errorf("configure %s: %s", d.host, errPendingLimit)
	}
	d.seq++
	c := &cfgSession{name: fmt.Sprintf("session%d", d.seq), tree: d.tree.Clone()}
	s.cfg = c
	s.st = grammar.State{Tree: c.tree, Frames: []grammar.Frame{{Mode: "exec"}, {Mode: "config", Nodes: []*grammar.Node{c.tree.Root}}}}
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || comment(&s.st, strings.TrimSpace(l)) {
			continue
		}
		r := eosGrammar.Exec(s, &s.st, strings.TrimSpace(l))
		if r.Err != nil || r.Msg != "" {
			return fmt.Errorf("configure %s: %q: %s", d.host, l, strings.TrimSpace(errText(r)))
		}
		if out := strings.TrimSpace(r.Out); strings.HasPrefix(out, "%") {
			// a command's own refusal (a commit inside the Set)
			return fmt.Errorf("configure %s: %q: %s", d.host, l, out)
		}
		if s.cfg == nil || s.st.Mode() == "exec" {
			return fmt.Errorf("configure %s: %q leaves the configuration session", d.host, l)
		}
	}
	d.tree = c.tree
	return nil
}

// Checkpoint returns the running config text.
func (d *Device) Checkpoint() []byte { return d.Running() }

// Restore replaces the running config with a Checkpoint's text.
func (d *Device) Restore(cp []byte) error {
	t, err := d.parse(cp)
	if err != nil {
		return fmt.Errorf("restore %s: %w", d.host, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.tree = t
	return nil
}

// commit makes a configuration session the running config. With a
// timer, the previous running config comes back unless the session is
// confirmed in time; an ExpireCommitTimer fault makes that happen at once.
func (s *session) commit(c *cfgSession, timer time.Duration) string {
	d := s.d
	if msg := s.lockedOut(); msg != "" {
		return msg + "\n"
	}
	if d.sessions[c.name] != c {
		// aborted or timed out under the CLI session editing it [I].
		return errInvalid + "\n"
	}
	if s.faults.Load().FailCommit {
		return errCommit + "\n"
	}
	if d.timer != nil && d.timer.name != c.name {
		return errCommit + "\n"
	}
	previous := d.tree
	d.tree = c.tree
	d.endSession(c)
	d.counters.Changed(s.faults)
	if timer <= 0 {
		d.completed = c.name
		return ""
	}
	ct := &commitTimer{name: c.name, previous: previous}
	d.timer = ct
	if s.faults.Load().ExpireCommitTimer {
		d.expire(ct)
		return ""
	}
	ct.t = d.afterFunc(timer, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.expire(ct)
	})
	return ""
}

// expire rolls a timed commit back; d.mu is held.
func (d *Device) expire(ct *commitTimer) {
	if d.timer != ct {
		return
	}
	d.tree = ct.previous
	d.timer = nil
}

// confirm stops the commit timer of session name; d.mu is held.
func (d *Device) confirm(name string) bool {
	if d.timer == nil || d.timer.name != name {
		return false
	}
	if d.timer.t != nil {
		d.timer.t.Stop()
	}
	d.completed = name
	d.timer = nil
	return true
}

// showRun prints a tree as show running-config does.
func (d *Device) showRun(t *grammar.Tree) string {
	var b strings.Builder
	b.WriteString("! Command: show running-config\n")
	fmt.Fprintf(&b, deviceLine+"\n", d.host, d.model)
	b.WriteString("!\n")
	// the hostname line is the device's own, in its place among the
	// top-level lines (rankHostname).
	top := &grammar.Node{Children: append([]*grammar.Node{{Key: "hostname", Text: "hostname " + d.host, Rank: rankHostname}}, t.Root.Children...)}
	b.WriteString(printTree(&grammar.Tree{Root: top}, nil))
	b.WriteString("!\n")
	b.WriteString("end\n")
	return b.String()
}

// ifOrder ranks interface types as EOS and AVD print them: Port-Channel,
// Ethernet, Loopback, Management, Vlan, Vxlan (eos.md §2.1 item 4; AVD
// eos-intended-config.j2); other top-level lines rank 0.
func ifOrder(n *grammar.Node) int {
	for i, p := range []string{"interface Port-Channel", "interface Ethernet", "interface Loopback", "interface Management", "interface Vlan", "interface Vxlan"} {
		if strings.HasPrefix(n.Text, p) {
			return i
		}
	}
	return 0
}

// printTree prints the stanzas keep selects (nil: all) with EOS's "!"
// separators (eos.md §1a): one after every stanza and between groups of
// one-line commands; inside a stanza, one before each
// child block and before the first line after a block.
func printTree(t *grammar.Tree, keep func(*grammar.Node) bool) string {
	var b strings.Builder
	var prev *grammar.Node
	nodes := t.Root.Sorted()
	sort.SliceStable(nodes, func(i, j int) bool {
		a, b := nodes[i], nodes[j]
		return a.Rank < b.Rank || a.Rank == b.Rank && ifOrder(a) < ifOrder(b)
	})
	for _, n := range nodes {
		if keep != nil && !keep(n) {
			continue
		}
		if prev != nil && (prev.Mode != "" || n.Mode != "" || prev.Rank/10 != n.Rank/10) {
			b.WriteString("!\n")
		}
		prev = n
		b.WriteString(n.Text + "\n")
		printChildren(&b, n, 1)
	}
	return b.String()
}

// printChildren prints n's lines at depth; a policy-map's first class
// block has no "!" before it, the others do (AVD policy-maps-qos.j2), nor
// has the first transport of a management api gnmi or netconf (cEOS's
// running config in scrapligo's recording).
func printChildren(b *strings.Builder, n *grammar.Node, depth int) {
	ind := strings.Repeat("   ", depth)
	var prev *grammar.Node
	for _, c := range n.Sorted() {
		first := prev == nil && (n.Mode == modePMap || n.Mode == modeGNMI || n.Mode == modeNetconf)
		if !first && (len(c.Children) > 0 || c.Mode != "" || (prev != nil && (len(prev.Children) > 0 || prev.Mode != ""))) {
			b.WriteString(ind + "!\n")
		}
		prev = c
		b.WriteString(ind + c.Text + "\n")
		printChildren(b, c, depth+1)
	}
}

// sessionNames returns the pending session names, sorted.
func (d *Device) sessionNames() []string {
	var names []string
	for n := range d.sessions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
