// Package nxos is the lab's Cisco NX-OS personality (Nexus 9000, 9.3/10.x):
// prompts and sub-mode prompts, the QoS/PFC/ECN command grammar with its
// ranges and error texts, the running config as a tree, `show
// running-config [ipqos | interface X]`, checkpoint/rollback and
// configure replace, all from reference/nxos.md; and Session Manager
// (configure session, verify, commit, abort) and the terminal lock from
// Cisco's guides (session.go). Lines entered in configure terminal apply
// at once, so they stay applied when a session drops, as on a real
// switch; lines entered in a configuration session apply only at its
// commit, all or none.
package nxos

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// Name is the kind name, as written in an inventory.
const Name = "nxos"

// Model is the emulated platform.
const Model = "N9K-C9364D-GX2A"

// maxCheckpoints is the number of user checkpoints NX-OS keeps
// (reference/nxos.md §5 [C:rb3548,fwcx]).
const maxCheckpoints = 10

// versionLine follows the show running-config header (nxos.md §1b).
const versionLine = "version 9.3(8) Bios:version"

// Error texts (reference/nxos.md §4 "Error output format").
const (
	errInvalid    = "% Invalid command at '^' marker."
	errIncomplete = "% Incomplete command at '^' marker."
	errAmbiguous  = "% Ambiguous command at '^' marker."
	// errRange is printed with the bounds: (0:7).
	errRange = "% Invalid number, range is (LO:HI) at '^' marker."
	errParam = "% Invalid parameter detected at '^' marker."
	// errBadRange has no % (nxos.md §4 [C:gnetcli]).
	errBadRange = "Invalid range at '^' marker."
	// errReferenced is printed when a policy-map in use is deleted; the
	// reference gives only the phrase automation scans for [C:baremetal].
	errReferenced = "ERROR: Policy-map is being referenced"
	// errClassMapReferenced is printed when a class-map a policy-map
	// uses is deleted (nxos.md §2, §3: refused [I]). No public source
	// gives NX-OS's text (searched: Cisco's Nexus 9000 QoS guides and
	// NX-API pages, public NX-OS automation code and transcripts), so
	// the lab prints the reference's in-use refusal for a class-map, in
	// the ERROR: form the push path treats as a failure (nxos.md §4).
	errClassMapReferenced = "ERROR: Class-map is being referenced"
	// errUndefinedClass is printed when a policy names a class-map that
	// does not exist (nxos.md §2: the class-map must exist first [I]);
	// the text is NX-OS's, from Cisco bug CSCve72295 (a Nexus 3500
	// policy edit ending in "ERROR: undefined class",
	// https://www.findbugzero.com/operational-defect-database/vendors/cisco/defects/CSCve72295).
	errUndefinedClass = "ERROR: undefined class"
	// errCopyAborted is the failed copy run start text [C:baremetal].
	errCopyAborted = "Configuration update aborted"
)

func init() { device.Register(kind{}) }

type kind struct{}

func (kind) Name() string  { return Name }
func (kind) Model() string { return Model }

// New makes a device; seed is running-config text (as show running-config
// prints it), typed line by line in config mode.
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

// Device is one emulated NX-OS switch. It is safe for concurrent use.
type Device struct {
	host string
	now  func() time.Time
	// model is the emulated model; ports its front-panel port count.
	model string
	ports int
	// want are the ports WithPorts asks for, checked against the model.
	want []string

	// booted is when the device started (show version's uptime).
	booted time.Time

	mu          sync.Mutex
	tree        *grammar.Tree
	lastChange  time.Time
	checkpoints map[string]*grammar.Tree
	cpOrder     []string
	cpMeta      map[string]cpInfo
	// startup is the config saved by copy running-config startup-config.
	startup *grammar.Tree
	// files are the configs saved on bootflash, by file name.
	files map[string]*grammar.Tree
	// replace is a configure replace awaiting its commit, if any.
	replace *pendingReplace
	// afterFunc schedules the configure replace commit timeout.
	afterFunc func(time.Duration, func()) Timer
	// counters are the ports' health counters (counters.go).
	counters device.Counters
	// sessions are the Session Manager configuration sessions, by name,
	// and lock the terminal lock, if taken (session.go).
	sessions map[string]*cfgSession
	lock     *termLock
	// vtys numbers the CLI sessions (their vty line).
	vtys int
	// exec is nxosGrammar.Exec, for the commands that type lines
	// themselves (a session's commit), which the grammar table cannot
	// name without an initialization cycle.
	exec func(s *session, st *grammar.State, line string) grammar.Result
}

// Timer is a scheduled call that can be stopped, as *time.Timer.
type Timer interface {
	Stop() bool
}

// Option configures a Device.
type Option func(*Device) error

// WithAfterFunc replaces time.AfterFunc for the configure replace commit
// timeout, so that tests can make it run out without waiting.
func WithAfterFunc(af func(d time.Duration, f func()) Timer) Option {
	return func(d *Device) error {
		if af == nil {
			return fmt.Errorf("nxos option: nil AfterFunc")
		}
		d.afterFunc = af
		return nil
	}
}

// WithClock replaces time.Now for the device's own times: the show
// headers, the creation time of configuration sessions and the terminal
// lock's timer, so that tests can move time on.
func WithClock(now func() time.Time) Option {
	return func(d *Device) error {
		if now == nil {
			return fmt.Errorf("nxos option: nil clock")
		}
		d.now = now
		return nil
	}
}

// WithModel makes the device one of the models the lab emulates
// ("N9K-C93600CD-GX"), with that model's front-panel ports; the default
// is Model.
func WithModel(m string) Option {
	return func(d *Device) error {
		n, ok := models[m]
		if !ok {
			return fmt.Errorf("model %q: not a Nexus model the lab emulates (%s)", m, strings.Join(modelNames(), ", "))
		}
		d.model, d.ports = m, n
		return nil
	}
}

// WithPorts names ports ("Ethernet1/29") the device must have: each must
// be one of its model's front-panel ports, whatever order the options
// come in.
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

// pendingReplace is a configure replace with a commit timeout.
type pendingReplace struct {
	previous *grammar.Tree
	timer    Timer
}

// New makes a device named hostname, seeded with running-config text
// (nil: factory defaults).
func New(hostname string, seed []byte, opts ...Option) (*Device, error) {
	d := &Device{host: hostname, now: time.Now, tree: grammar.NewTree(), checkpoints: map[string]*grammar.Tree{},
		files: map[string]*grammar.Tree{}, sessions: map[string]*cfgSession{}, cpMeta: map[string]cpInfo{}, model: Model, ports: models[Model], exec: nxosGrammar.Exec,
		afterFunc: func(t time.Duration, f func()) Timer { return time.AfterFunc(t, f) }}
	for _, o := range opts {
		if err := o(d); err != nil {
			return nil, fmt.Errorf("new %s: %w", hostname, err)
		}
	}
	for _, p := range d.want {
		if ifs, err := expandIfsMax(p, d.ports); err != nil || len(ifs) != 1 || ifs[0] != p {
			return nil, fmt.Errorf("new %s: port %q: not a front-panel port of a %s (Ethernet1/1-%d)", hostname, p, d.model, d.ports)
		}
	}
	d.tree = factory(d.ports)
	d.lastChange = d.now()
	d.booted = d.lastChange
	if len(seed) > 0 {
		s := d.newSession(nil)
		top := grammar.Frame{Mode: "config", Nodes: []*grammar.Node{d.tree.Root}}
		for i, line := range strings.Split(string(seed), "\n") {
			t := strings.TrimSpace(line)
			if t == "" || strings.HasPrefix(t, "!") || strings.HasPrefix(t, "version ") || strings.HasPrefix(t, "hostname ") {
				continue
			}
			if t == line {
				// An unindented line is a top-level command.
				s.st.Frames = []grammar.Frame{s.st.Frames[0], top}
			}
			s.line, s.linePrompt = t, s.Prompt()
			r := nxosGrammar.Exec(s, &s.st, t)
			if r.Err != nil || r.Msg != "" || r.Out != "" {
				return nil, fmt.Errorf("seed %s line %d %q: %s", hostname, i+1, t, strings.TrimSpace(s.formatPrompt(s.Prompt(), r)))
			}
		}
	}
	return d, nil
}

// factory is the config of a new switch with n front-panel ports: every
// one has its (empty) interface stanza, as show running-config lists them
// (scrapligo's NX-OS recording).
func factory(n int) *grammar.Tree {
	t := grammar.NewTree()
	for p := 1; p <= n; p++ {
		name := fmt.Sprintf("interface Ethernet1/%d", p)
		t.Set(t.Root, name, name, rankInterface, true, "config-if")
	}
	return t
}

// Running returns the output of show running-config.
func (d *Device) Running() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return []byte(d.show("show running-config", d.body(nil, nil)))
}

// NewSession starts a CLI session in privileged exec mode (the admin
// landing mode, nxos.md §4).
func (d *Device) NewSession(user string, f *device.Faults) device.Session {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.vtys++
	s := d.newSession(f)
	s.user, s.vty = user, d.vtys
	return s
}

func (d *Device) newSession(f *device.Faults) *session {
	return &session{d: d, faults: f, termLength: defaultTermLength, st: grammar.State{Tree: d.tree, Frames: []grammar.Frame{{Mode: "exec"}}}}
}

type session struct {
	d      *Device
	faults *device.Faults
	st     grammar.State
	// user is who logged in and vty the session's line number (the
	// terminal lock names its holder by them).
	user string
	vty  int
	// cfg is the configuration session being edited, if any.
	cfg *cfgSession
	// line and linePrompt are the line being run and the prompt it was
	// typed at, for the caret of a Check's error.
	line, linePrompt string
	// termLength is the page length set by terminal length.
	termLength int
}

// defaultTermLength is the page length of a new session until terminal
// length changes it [I: the usual 24-line vty default].
const defaultTermLength = 24

// morePrompt is NX-OS's pager prompt (nxos.md §4 [C:gnetcli]).
const morePrompt = "\x1b[7m--More--\x1b[m"

// EchoEnter is NX-OS's echo of the Enter key (nxos.md §4 [C:gnetcli]:
// "The command echo ends in \r\r\n").
func (s *session) EchoEnter() string { return "\r\r\n" }

// Page pages long output until terminal length 0 (device.Pager).
func (s *session) Page() (int, string) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return s.termLength, morePrompt
}

func (s *session) Greeting() string { return "" }

// Prompt is HOST# in exec and HOST(MODE)# in config modes, followed by
// one space (nxos.md §4 Prompts). In a configuration session config is
// config-s and a sub-mode config-X is config-s-X (session.go [sm3k]:
// config-s-acl, config-s-if; the QoS sub-modes by the same rule [I]).
func (s *session) Prompt() string {
	m := s.st.Mode()
	if m == "exec" {
		return s.d.host + "# "
	}
	if s.cfg != nil {
		m = "config-s" + strings.TrimPrefix(m, "config")
	}
	return s.d.host + "(" + m + ")# "
}

// Handle runs one line. In configure terminal config lines apply to the
// running config at once; in a configuration session they go to the
// session (session.go). While another session holds the terminal lock,
// config commands are refused.
func (s *session) Handle(line string) (string, bool) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if strings.TrimSpace(line) == "" {
		return "", false
	}
	if s.cfg != nil && s.d.sessions[s.cfg.name] != s.cfg {
		// Another CLI session committed or aborted it: nothing is left
		// to edit [I].
		s.leave(&s.st)
	}
	prompt := s.Prompt()
	if msg := s.d.lockedOut(s, line); msg != "" {
		return msg + "\n", false
	}
	if f := s.faults.Load(); f.RejectPattern != "" && s.st.Mode() != "exec" {
		if re, err := regexp.Compile(f.RejectPattern); err == nil && re.MatchString(line) {
			return caret(prompt, len(line)-len(strings.TrimLeft(line, " "))) + errInvalid + "\n", false
		}
	}
	if s.cfg == nil {
		s.st.Tree = s.d.tree
		if len(s.st.Frames) > 1 && s.st.Frames[1].Nodes[0] != s.d.tree.Root {
			// Another session rolled the config back or replaced it: the
			// stanzas this session was in are gone, so start again from
			// the top of config mode.
			s.st.Frames = []grammar.Frame{s.st.Frames[0], {Mode: "config", Nodes: []*grammar.Node{s.d.tree.Root}}}
		}
	}
	cmd, filter, msg, isPiped := s.piped(prompt, line)
	switch {
	case msg != "":
		return msg, false
	case isPiped:
		// A show command's output, filtered [tools.go fund]: shows
		// change nothing, so the rest of Handle has nothing to record.
		s.line, s.linePrompt = cmd, prompt
		r := nxosGrammar.Exec(s, &s.st, cmd)
		if r.Err != nil || r.Msg != "" {
			return s.formatPrompt(prompt, r), false
		}
		return filter(r.Out), r.Done
	}
	s.line, s.linePrompt = line, prompt
	cfg, depth, at := s.cfg, len(s.st.Frames), s.st.Frames[len(s.st.Frames)-1].Nodes
	if cfg != nil && sessionCommand(s.st.Mode(), line) && s.d.sessionLines() >= maxSessionLines {
		// The limit counts every session's commands [sm105].
		return errTooManyLines + "\n", false
	}
	r := nxosGrammar.Exec(s, &s.st, line)
	if r.Err != nil || r.Msg != "" {
		return s.formatPrompt(prompt, r), false
	}
	switch {
	case cfg == nil && r.Edited:
		s.d.lastChange = s.d.now()
		s.d.counters.Changed(s.faults)
	case cfg != nil && s.cfg == cfg && r.Out == "" && (r.Edited || moved(depth, at, s.st.Frames)):
		// A config command of the session (an edit, or a move between
		// its modes): kept for the commit.
		s.record(line)
	}
	return r.Out, r.Done
}

// moved reports whether the CLI context changed from depth frames with
// at the nodes of the last.
func moved(depth int, at []*grammar.Node, frames []grammar.Frame) bool {
	if len(frames) != depth {
		return true
	}
	now := frames[len(frames)-1].Nodes
	return len(now) != len(at) || len(at) > 0 && now[0] != at[0]
}

// sessionLines counts the commands of every configuration session;
// d.mu is held.
func (d *Device) sessionLines() int {
	n := 0
	for _, c := range d.sessions {
		n += c.lines()
	}
	return n
}

// Close ends the CLI session when its connection drops. Lines typed in
// configure terminal are applied already; a configuration session stays
// on the device, uncommitted; a terminal lock this session took is
// released (session.go [I]).
func (s *session) Close() {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.d.lock != nil && s.d.lock.holder == s {
		s.d.lock = nil
	}
}

func (s *session) formatPrompt(prompt string, r grammar.Result) string {
	if r.Msg != "" {
		return r.Msg + "\n"
	}
	e := r.Err
	c := caret(prompt, e.Pos)
	switch e.Kind {
	case grammar.Incomplete:
		return c + errIncomplete + "\n"
	case grammar.Ambiguous:
		return c + errAmbiguous + "\n"
	case grammar.OutOfRange:
		return c + strings.NewReplacer("LO", strconv.FormatInt(e.Lo, 10), "HI", strconv.FormatInt(e.Hi, 10)).Replace(errRange) + "\n"
	}
	if e.Detail == detailRange {
		return c + errBadRange + "\n"
	}
	return c + errInvalid + "\n"
}

// caret is the line pointing at the bad character: the prompt's length
// plus the offset in the typed line (nxos.md §4).
func caret(prompt string, pos int) string {
	if pos < 0 {
		pos = 0
	}
	return strings.Repeat(" ", len(prompt)+pos) + "^\n"
}

// Checkpoint returns the running config tree, serialized as the running
// config text it prints.
func (d *Device) Checkpoint() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return []byte(d.body(nil, nil))
}

// Restore replaces the running config with a Checkpoint's text.
func (d *Device) Restore(cp []byte) error {
	fresh, err := New(d.host, cp, WithModel(d.model))
	if err != nil {
		return fmt.Errorf("restore %s: %w", d.host, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.tree.Root = fresh.tree.Root
	d.lastChange = d.now()
	return nil
}

// timeLayout is how the show running-config header prints times
// ("Wed Apr 24 22:15:01 2019", nxos.md §1b).
const timeLayout = "Mon Jan 2 15:04:05 2006"

// show wraps a running-config body in the header of nxos.md §1b.
func (d *Device) show(cmd, body string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "!Command: %s\n", cmd)
	fmt.Fprintf(&b, "!Running configuration last done at: %s\n", d.lastChange.Format(timeLayout))
	fmt.Fprintf(&b, "!Time: %s\n\n", d.now().Format(timeLayout))
	b.WriteString(versionLine + "\n")
	if cmd == "show running-config" {
		fmt.Fprintf(&b, "hostname %s\n", d.host)
	}
	if body != "" {
		if !strings.HasPrefix(body, "vdc ") {
			// The vdc stanza follows the hostname at once (whole.go
			// [leaf93], [n9kv92]).
			b.WriteString("\n")
		}
		b.WriteString(body)
	}
	return b.String()
}

// ipqosLine reports whether a line belongs to the ipqos feature.
func ipqosLine(text string) bool {
	for _, p := range []string{"class-map ", "policy-map ", "system qos", "priority-flow-control ", "service-policy ", "hardware qos "} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// body prints the config. top selects top-level stanzas and child selects
// the lines kept inside interfaces (nil: everything). Top-level stanzas
// are separated by a blank line, except consecutive class-maps,
// consecutive global one-liners (nxos.md §1) and the stanzas of one block
// (whole.go joinedRanks); empty interface stanzas too are separated by
// blank lines (scrapligo's NX-OS recording). VLANs print as NX-OS prints
// them (whole.go [leaf93]): one line listing every VLAN, then the VLANs
// that have settings.
func (d *Device) body(top func(*grammar.Node) bool, child func(*grammar.Node) bool) string {
	var b strings.Builder
	var prev *grammar.Node
	nodes := topOrder(d.tree.Root.Sorted())
	var vlans []*grammar.Node
	for _, n := range nodes {
		if n.Rank == rankVLAN && (top == nil || top(n)) {
			vlans = append(vlans, n)
		}
	}
	for _, n := range nodes {
		if top != nil && !top(n) {
			continue
		}
		kids := n.Sorted()
		if n.Text == "system qos" && len(kids) == 0 {
			continue // an empty container is not shown
		}
		if child != nil && strings.HasPrefix(n.Text, "interface ") {
			var keep []*grammar.Node
			for _, k := range kids {
				if child(k) {
					keep = append(keep, k)
				}
			}
			if len(keep) == 0 {
				continue
			}
			kids = keep
		}
		if n.Rank == rankVLAN {
			if n != vlans[0] && len(kids) == 0 {
				continue
			}
			if n == vlans[0] {
				if prev != nil {
					b.WriteString("\n")
				}
				prev = n
				b.WriteString(vlanSummary(vlans) + "\n")
				if len(kids) == 0 {
					continue
				}
			}
		} else if prev != nil && !joined(prev, n) {
			b.WriteString("\n")
		}
		prev = n
		if strings.HasPrefix(n.Text, "interface Vlan") {
			kids = shutdownFirst(kids)
		}
		b.WriteString(n.Text + "\n")
		for _, k := range kids {
			b.WriteString("  " + k.Text + "\n")
			k.Walk(func(depth int, c *grammar.Node) {
				b.WriteString(strings.Repeat("  ", depth+2) + c.Text + "\n")
			})
		}
	}
	return b.String()
}

// joined reports whether n follows prev with no blank line between.
func joined(prev, n *grammar.Node) bool {
	switch {
	case prev.Rank == n.Rank && (n.Rank == rankClassMap || n.Mode == "" && prev.Mode == ""):
		return true
	case prev.Rank == n.Rank && joinedRanks[n.Rank]:
		return true
	case prev.Rank == rankInterface && n.Rank == rankTail:
		// whole.go [spine92]: line console right after the last interface.
		return true
	}
	return false
}

// ifOrder is the place of an interface type in show running-config
// (whole.go [leaf93]: Vlan, nve, Ethernet, mgmt0, loopback; port-channel
// before Ethernet [I: as vPC configs print it]).
func ifOrder(text string) int {
	for i, p := range []string{"interface Vlan", "interface port-channel", "interface nve", "interface Ethernet", "interface mgmt", "interface loopback"} {
		if strings.HasPrefix(text, p) {
			return i
		}
	}
	return len(text) // never: every interface type is above
}

// topOrder orders the interfaces among themselves by type (ifOrder),
// keeping the natural order within a type.
func topOrder(nodes []*grammar.Node) []*grammar.Node {
	lo := sort.Search(len(nodes), func(i int) bool { return nodes[i].Rank >= rankInterface })
	hi := sort.Search(len(nodes), func(i int) bool { return nodes[i].Rank > rankInterface })
	ifs := nodes[lo:hi]
	sort.SliceStable(ifs, func(i, j int) bool { return ifOrder(ifs[i].Text) < ifOrder(ifs[j].Text) })
	return nodes
}

// shutdownFirst puts [no] shutdown first, as NX-OS prints an SVI
// (whole.go [leaf93]: "interface Vlan100 / no shutdown / vrf member").
func shutdownFirst(kids []*grammar.Node) []*grammar.Node {
	var first, rest []*grammar.Node
	for _, k := range kids {
		if k.Key == "shutdown" {
			first = append(first, k)
		} else {
			rest = append(rest, k)
		}
	}
	return append(first, rest...)
}
