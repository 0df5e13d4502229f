package eos

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// This file is what outlives one CLI session: the configure lock and the
// configuration sessions kept pending.
//
// The configure lock. EOS has `configure lock` ("Acquire the configure
// lock") and `configure unlock` ("Remove the configure lock") in
// privileged exec: the `configure ?` help of EOS 4.25.4M, in a public
// notes file of a DCS-7020SR ("Arista cli", repository not known). Its
// transaction form, `configure lock transaction NAME REASON` and
// `configure lock continue transaction NAME`, lets one lock span several
// CLI sessions (eAPI requests) (ansible-collections/arista.eos#409; the
// tests of ZONGRUICHD/Arista-Switch-Web-Dashboard lock, run `configure
// session … commit` under the lock, then `configure unlock`). No source read gives the rest, so the
// lab's choices are [I]: the plain lock is the CLI session's own and goes
// with it (exit or a dropped connection), since a lock meant to outlive
// its session needs the transaction form; while it is held no other
// session may change the running config (enter configure terminal,
// commit a session, abort a timed commit, configure replace, take the
// lock, or a gNMI Set), while reading and editing a pending session
// stay allowed; and the refusal's text, which names the holder by user
// and terminal as `show configuration sessions` lists sessions (User,
// Terminal "vty5": the EOS fixture of comocutor_contrib's rollback
// tests, a public test file whose repository is not known), is the lab's own after EOS's "% " error prefix (eos.md §4).
//
// Pending sessions. A session is the switch's, not its CLI session's: "A
// session can be entered, modified and exited at any time without
// impacting the currently running system configuration … An uncommitted
// configuration session will be discarded if the switch reboots and will
// time out after 24 hours" (arista.com/en/um-eos/eos-configure-session,
// eos.md §5), and NAPALM builds a session in one eAPI request (each its
// own CLI session), reviews it in a second and commits it in a third
// (napalm/eos/eos.py _load_config, compare_config, commit_config), the
// session pending in between (napalm-automation/napalm-eos#149: a
// session opened by a one-command eAPI request is listed "pending"
// afterwards; annetutil/annet annet/vendors/library/arista.py ends its
// sessions with abort because "just exit leaves the configure session
// hanging"). So a dropped connection leaves its session pending, never
// applied, until a commit, an abort or the 24 hours; the timeout counts
// from the session's creation [I]. At most maxPending are kept.

// pendingTimeout is how long an uncommitted session lives (eos.md §5
// [C:eosdoc-session]).
const pendingTimeout = 24 * time.Hour

// maxPending is how many uncommitted sessions EOS keeps: `show
// configuration sessions detail` of EOS 4.25.4M prints "Maximum number of
// pending sessions: 5" (the notes file above), and eAPI's JSON of a vEOS
// "maxOpenSessions": 5 (napalm-automation/napalm-eos#149). It is
// configurable on EOS (comocutor_contrib's fixture shows 20); the lab
// keeps the default.
const maxPending = 5

// errPendingLimit is EOS's text when maxPending sessions are pending
// (eos.md §4 [C:ansible]).
const errPendingLimit = "Maximum number of pending sessions has been reached"

// errLocked is the lab's refusal while another session holds the
// configure lock [I: see above].
const errLocked = "%% The configure lock is held by user %s on %s"

// lockedOut returns the refusal when another session holds the configure
// lock, "" when s may change the configuration. d.mu is held.
func (s *session) lockedOut() string {
	if h := s.d.lock; h != nil && h != s {
		return fmt.Sprintf(errLocked, h.login, h.tty)
	}
	return ""
}

// doLock is `configure lock`: s takes the lock, or already holds it.
func doLock(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	if msg := s.lockedOut(); msg != "" {
		return msg + "\n", false
	}
	s.d.lock = s
	return "", false
}

// doUnlock is `configure unlock`: the holder releases the lock; nothing
// to release is no error.
func doUnlock(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	if msg := s.lockedOut(); msg != "" {
		return msg + "\n", false
	}
	s.d.lock = nil
	return "", false
}

// openSession adds a pending session named name, a copy of the running
// config, timed out after pendingTimeout; at maxPending it returns "" and
// EOS's refusal. d.mu is held.
func (s *session) openSession(name string) (*cfgSession, string) {
	d := s.d
	if len(d.sessions) >= maxPending {
		return nil, errPendingLimit
	}
	c := &cfgSession{name: name, tree: d.tree.Clone(), user: s.login, tty: s.tty}
	c.expiry = d.afterFunc(pendingTimeout, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.sessions[name] == c {
			delete(d.sessions, name)
		}
	})
	d.sessions[name] = c
	return c, ""
}

// endSession removes a pending session (committed or aborted). d.mu is
// held.
func (d *Device) endSession(c *cfgSession) {
	if c.expiry != nil {
		c.expiry.Stop()
	}
	if d.sessions[c.name] == c {
		delete(d.sessions, c.name)
	}
}

// sessionsJSON is `show configuration sessions [detail] | json`, in the
// shape eAPI gives (napalm-automation/napalm-eos#149: "maxSavedSessions",
// "maxOpenSessions", "sessions" by name with "instances", "state",
// "description"); the states are EOS's "pending", "pendingCommitTimer"
// and "completed" (eos.md §5 [C:napalm]). The detail form of EOS 4.32 and
// later, the lab's release, also names the session whose timed commit
// awaits its confirm in "commitTimerSessionName" (napalm/eos/eos.py
// _get_pending_commits); its "commitTimerExpireTime", in seconds of
// uptime, the lab leaves out (it has no uptime).
type sessionsJSON struct {
	MaxSavedSessions       int                    `json:"maxSavedSessions"`
	MaxOpenSessions        int                    `json:"maxOpenSessions"`
	Sessions               map[string]sessionJSON `json:"sessions"`
	CommitTimerSessionName string                 `json:"commitTimerSessionName,omitempty"`
}

type sessionJSON struct {
	Instances   map[string]any `json:"instances"`
	State       string         `json:"state"`
	Description string         `json:"description"`
}

// doShowSessionsJSON prints sessionsJSON.
func doShowSessionsJSON(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d := s.d
	out := sessionsJSON{MaxSavedSessions: 1, MaxOpenSessions: maxPending, Sessions: map[string]sessionJSON{}}
	if d.timer != nil && strings.Contains(m.Text(), " detail") {
		out.CommitTimerSessionName = d.timer.name
	}
	add := func(name, state string) {
		out.Sessions[name] = sessionJSON{Instances: map[string]any{}, State: state}
	}
	if d.completed != "" {
		add(d.completed, "completed")
	}
	if d.timer != nil {
		add(d.timer.name, "pendingCommitTimer")
	}
	for _, n := range d.sessionNames() {
		add(n, "pending")
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return "% Error: " + err.Error() + "\n", false
	}
	return string(b) + "\n", false
}
