package nxos

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// Session Manager (configure session NAME) and the terminal lock, as the
// public sources below say NX-OS runs them. Each fact carries its source;
// [I] marks what no source read here says, with the behaviour chosen.
//
// Sources:
//   - [sm105] Cisco Nexus 9000 NX-OS System Management Configuration
//     Guide 10.5(x), "Configuring Session Manager"
//     (cisco.com/c/en/us/td/docs/switches/datacenter/nexus9000/sw/105x/config-guides/cisco-nexus-9000-series-nx-os-system-management-configuration-guide-release-105x/m-configuring-session-manager-10x.html):
//     a session is a list of commands; validation checks each one as it
//     is entered, verification the whole, and commit "verifies the
//     complete configuration and applies the changes"; "If a failure
//     occurs, Cisco NX-OS reverts to the original configuration"; abort
//     discards the changes; a session can be ended without committing;
//     "Configuration sessions are not persistent across reloads"; "Session
//     Manager supports only access control list (ACL) and quality of
//     service (QoS) features"; one service access point (SAP) per session;
//     at most 32 sessions and 20,000 commands across all sessions.
//   - [sm7x] the same guide for 7.x: ACL and QoS; configuration commands
//     cannot run in more than one configuration session or configure
//     terminal at once (parallel configurations may fail validation or
//     verification).
//   - [sm3k] Nexus 3000/3548 and learnduty.com's copy of the guide:
//     `switch# configure session myacls` gives `switch(config-s)#`, its
//     sub-modes `switch(config-s-acl)#`, `switch(config-s-if)#`; `show
//     configuration session [name]`.
//   - [ntc] networktocode/ntc-templates
//     tests/cisco_nxos/show_configuration_session_summary/*.raw: the text
//     of `show configuration session summary` (names with hyphens,
//     "ACL-SESSION1").
//   - [salt] public SaltStack netmiko modules for cisco_nxos: load lines
//     in `configure session NAME` and leave it; later `configure session
//     NAME` then `commit` (or `abort`) in it: a session outlives leaving
//     it and is resumed by name.
//   - [tl105] the same 10.5(x) guide, "Terminal Lock for VSH Sessions":
//     `terminal lock [<60-43200>]` (default 1800 s, released when the
//     timer expires), `terminal unlock` ("releases the terminal lock taken
//     by any session"), `show terminal lock`; the lock lets config
//     commands run only in the session holding it and blocks only config
//     commands elsewhere (show and exec commands still run); it needs
//     network-admin.
//
// Not found (searched: the guides above, Nexus 3000/5000/7000 editions,
// public CLI captures, netmiko/napalm/scrapli/ansible/salt code):
//   - what happens to a session whose SSH connection drops. [I] It stays,
//     with its commands uncommitted, until it is committed or aborted
//     (sessions are named, survive leaving them [salt] and a supervisor
//     switchover [sm105]); nothing it holds reaches the running config.
//   - the texts `verify`, `commit` and `abort` print, and the errors of
//     the 33rd session, the 20,001st command, a failed verification or
//     commit, and a blocked or refused terminal lock. [I] below; the
//     failures start with "ERROR:", the form the push path treats as a
//     failure (nxos.md §4).
//   - whether the terminal lock outlives the session that took it. [I] It
//     does not: the guide calls it the lock of a VSH session and gives a
//     timer for a session left idle, so when the session ends there is
//     no terminal left to hold it, as CloudEngine documents for its
//     `configuration exclusive` (reference/huawei-ce.md sources). Either
//     way the driver is safe: were the lock to outlive a killed lossless,
//     the next apply is refused with the holder named and how to release
//     it, never half-applied.
//   - whether PFC commands belong to the QoS feature for Session Manager.
//     [I] Yes: NX-OS documents PFC and its watchdog in the QoS
//     configuration guide (nxos.md [pfc105]) and shows them under `show
//     running-config ipqos`; interface `description` and `mtu` belong to
//     other features and are refused in a session.

// Limits of Session Manager [sm105].
const (
	maxSessions     = 32
	maxSessionLines = 20000
)

// Texts of Session Manager and the terminal lock.
const (
	// verifyOK and commitOK are [I]: no source read gives them.
	verifyOK = "Verification Successful"
	commitOK = "Commit Successful"
	// The errors are [I] (see above).
	errTooManySessions = "ERROR: Maximum number of configuration sessions reached"
	errTooManyLines    = "ERROR: Maximum number of commands in configuration sessions reached"
	errVerifyFailed    = "ERROR: Verification failed: "
	errCommitFailed    = "ERROR: Commit failed: "
	errLockedFmt       = "ERROR: Terminal is locked by user %s on %s"
)

// sessionName is what a session name may hold: [sm3k] says "any
// alphanumeric string" and [ntc] shows hyphens.
var sessionName = regexp.MustCompile(`^[A-Za-z0-9-]+$`)

// cfgSession is one configuration session [sm105]: the commands entered,
// in visits (each visit starts at the top of config-s, as re-entering
// does [salt]), and the candidate tree they were validated against.
type cfgSession struct {
	name, owner string
	created     time.Time
	visits      [][]string
	tree        *grammar.Tree
}

// lines is the number of commands in c.
func (c *cfgSession) lines() int {
	n := 0
	for _, v := range c.visits {
		n += len(v)
	}
	return n
}

// termLock is the terminal lock [tl105].
type termLock struct {
	holder *session
	until  time.Time
}

// lockedOut returns the refusal for a config command of s while another
// session holds the terminal lock, or ""; d.mu is held. An expired lock
// is released.
func (d *Device) lockedOut(s *session, line string) string {
	l := d.lock
	if l == nil || l.holder == s {
		return ""
	}
	if !d.now().Before(l.until) {
		d.lock = nil
		return ""
	}
	if !configCommand(s.st.Mode(), line) {
		return ""
	}
	return fmt.Sprintf(errLockedFmt, l.holder.user, l.holder.tty())
}

// configCommand reports whether line, typed in mode, is a config command
// (the terminal lock blocks those and lets show and exec commands run
// [tl105]): configure in exec mode; in config modes every line but show,
// the exec commands config mode runs (checkpoint, rollback, copy, clear)
// and leaving the mode.
func configCommand(mode, line string) bool {
	f := strings.Fields(strings.ToLower(line))
	if len(f) == 0 {
		return false
	}
	w := f[0]
	if mode == "exec" {
		return len(w) >= 4 && strings.HasPrefix("configure", w)
	}
	if w == "no" && len(f) > 1 && strings.HasPrefix("checkpoint", f[1]) {
		return false
	}
	for _, x := range []string{"show", "end", "exit", "checkpoint", "rollback", "copy", "clear"} {
		if len(w) >= 2 && strings.HasPrefix(x, w) {
			return false
		}
	}
	return true
}

// sessionCommand reports whether line, typed in a configuration session
// in mode, is one of its config commands rather than one that ends or
// checks the session.
func sessionCommand(mode, line string) bool {
	f := strings.Fields(strings.ToLower(line))
	if !configCommand(mode, line) || len(f) == 0 {
		return false
	}
	for _, x := range []string{"verify", "commit", "abort"} {
		if len(f[0]) >= 3 && strings.HasPrefix(x, f[0]) {
			return false
		}
	}
	return true
}

// tty names a CLI session as the terminal lock's holder: its vty line
// [I: the form is not in the sources].
func (s *session) tty() string { return fmt.Sprintf("pts/%d", s.vty) }

// leave ends the visit of a configuration session: back to exec, the
// session kept.
func (s *session) leave(st *grammar.State) {
	s.cfg = nil
	st.Frames = st.Frames[:1]
	st.Tree = s.d.tree
}

// record adds a command entered in the session to its current visit.
func (s *session) record(line string) {
	c := s.cfg
	c.visits[len(c.visits)-1] = append(c.visits[len(c.visits)-1], line)
}

// replay types the visits of c onto a copy of base, as commit applies
// them to the running config [sm105], and returns the result or the
// first refusal's text.
func (d *Device) replay(c *cfgSession, base *grammar.Tree) (*grammar.Tree, string) {
	t := base.Clone()
	s := &session{d: d, cfg: c, st: grammar.State{Tree: t}}
	for _, v := range c.visits {
		s.st.Frames = []grammar.Frame{{Mode: "exec"}, {Mode: "config", Nodes: []*grammar.Node{t.Root}}}
		for _, line := range v {
			s.line, s.linePrompt = line, s.Prompt()
			r := d.exec(s, &s.st, line)
			if r.Err != nil || r.Msg != "" {
				return nil, fmt.Sprintf("%q: %s", line, strings.TrimSpace(lastLine(s.formatPrompt(s.linePrompt, r))))
			}
		}
	}
	return t, ""
}

// lastLine is the last non-empty line of an error text (the message
// under its caret line).
func lastLine(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

// doSession opens the configuration session name, or resumes it
// [sm3k, salt]: its commands go to the session, not the running config.
func doSession(s *session, st *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d, name := s.d, m.Args["name"]
	if !sessionName.MatchString(name) {
		toks := grammar.Split(s.line)
		return caret(s.linePrompt, toks[len(toks)-1].Pos) + errInvalid + "\n", false
	}
	c := d.sessions[name]
	switch {
	case c == nil && len(d.sessions) >= maxSessions:
		return errTooManySessions + "\n", false
	case c == nil:
		c = &cfgSession{name: name, owner: s.user, created: d.now(), tree: d.tree.Clone()}
		d.sessions[name] = c
	default:
		// Validate what comes next against the running config as it is
		// now, with the session's commands on it.
		if t, msg := d.replay(c, d.tree); msg == "" {
			c.tree = t
		}
	}
	c.visits = append(c.visits, nil)
	s.cfg = c
	st.Tree = c.tree
	st.Frames = []grammar.Frame{st.Frames[0], {Mode: "config", Nodes: []*grammar.Node{c.tree.Root}}}
	return "", false
}

// inSession refuses a session command outside a session.
func inSession(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) string {
	if s.cfg != nil {
		return ""
	}
	return caret(s.linePrompt, 0) + errInvalid
}

// notInSession refuses, in a session, a command of a feature Session
// Manager does not handle (only ACL and QoS [sm105]).
func notInSession(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) string {
	if s.cfg == nil {
		return ""
	}
	return caret(s.linePrompt, 0) + errInvalid
}

// doVerify checks the session as a whole against the running config
// [sm105]; nothing changes.
func doVerify(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	if _, msg := s.d.replay(s.cfg, s.d.tree); msg != "" {
		return errVerifyFailed + msg + "\n", false
	}
	return verifyOK + "\n", false
}

// doCommit applies the session's commands to the running config as one
// change: all of them, or, on any failure, none [sm105]. The session
// ends and the CLI goes back to exec [I]; a failed commit keeps the
// session and the mode [I]. A FailCommit fault fails it.
func doCommit(s *session, st *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	d, c := s.d, s.cfg
	if s.faults.Load().FailCommit {
		return errCommitFailed + "the configuration could not be applied\n", false
	}
	t, msg := d.replay(c, d.tree)
	if msg != "" {
		return errCommitFailed + msg + "\n", false
	}
	d.tree.Root = t.Root
	d.lastChange = d.now()
	d.counters.Changed(s.faults)
	delete(d.sessions, c.name)
	s.leave(st)
	return commitOK + "\n", false
}

// doAbort discards the session and goes back to exec [sm105]; it prints
// nothing [I].
func doAbort(s *session, st *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	delete(s.d.sessions, s.cfg.name)
	s.leave(st)
	return "", false
}

// sessionTime is how show configuration session summary prints a
// creation time ("02:37:14 UTC Oct 28 2017" [ntc]).
const sessionTime = "15:04:05 MST Jan 2 2006"

// doShowSessions prints show configuration session summary in the
// layout of [ntc]; the line for no session is [I].
func doShowSessions(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	var b strings.Builder
	rule := strings.Repeat("-", 68) + "\n"
	b.WriteString("Session Manager Database:\n" + rule)
	fmt.Fprintf(&b, "%-24s%-24s%s\n", "Name", "Session Owner", "Creation Time")
	b.WriteString(rule)
	for _, name := range s.d.sessionNames() {
		c := s.d.sessions[name]
		fmt.Fprintf(&b, "%-24s%-24s%s\n", c.name, c.owner, c.created.UTC().Format(sessionTime))
	}
	fmt.Fprintf(&b, "\nNumber of active configuration sessions = %d\n\n", len(s.d.sessions))
	return b.String(), false
}

// doShowSession prints the commands of one session, or of every
// session [sm3k]; the layout is [I].
func doShowSession(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	names := s.d.sessionNames()
	if n := m.Args["name"]; n != "" {
		if s.d.sessions[n] == nil {
			return fmt.Sprintf("ERROR: Session %s does not exist\n", n), false
		}
		names = []string{n}
	}
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "config session %s\n", name)
		i := 0
		for _, v := range s.d.sessions[name].visits {
			for _, l := range v {
				i++
				fmt.Fprintf(&b, "%04d %s\n", i, l)
			}
		}
		b.WriteString("\n")
	}
	return b.String(), false
}

// sessionNames returns the session names, sorted.
func (d *Device) sessionNames() []string {
	names := make([]string, 0, len(d.sessions))
	for n := range d.sessions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Sessions returns the names of the configuration sessions the device
// holds, sorted: committed and aborted ones are gone, the others stay
// until the device reloads [sm105].
func (d *Device) Sessions() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.sessionNames()
}

// Checkpoints returns the names of the user checkpoints, oldest first.
func (d *Device) Checkpoints() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.cpOrder...)
}

// defaultLockSeconds is the terminal lock's timeout when none is given
// [tl105].
const defaultLockSeconds = 1800

// doTerminalLock takes the terminal lock for s, for the seconds given or
// 1800 [tl105]; it is refused while another session holds it [I: the
// text], and taken again (its timer restarted) by the holder [I].
func doTerminalLock(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d := s.d
	if l := d.lock; l != nil && l.holder != s && d.now().Before(l.until) {
		return fmt.Sprintf(errLockedFmt, l.holder.user, l.holder.tty()) + "\n", false
	}
	secs := defaultLockSeconds
	if v := m.Args["s"]; v != "" {
		secs, _ = strconv.Atoi(v) // the grammar checked the range
	}
	d.lock = &termLock{holder: s, until: d.now().Add(time.Duration(secs) * time.Second)}
	return "", false
}

// doTerminalUnlock releases the terminal lock, whichever session took it
// [tl105]; with none held it prints nothing [I].
func doTerminalUnlock(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	s.d.lock = nil
	return "", false
}

// doShowTerminalLock prints who holds the terminal lock [tl105: the
// command exists; its layout is I].
func doShowTerminalLock(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	d := s.d
	l := d.lock
	if l == nil || !d.now().Before(l.until) {
		return "Terminal is not locked\n", false
	}
	left := int(l.until.Sub(d.now()).Round(time.Second) / time.Second)
	return fmt.Sprintf("Terminal is locked by user %s on %s, %d seconds left\n", l.holder.user, l.holder.tty(), left), false
}
