package eos

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Session hygiene. EOS keeps a configuration session its CLI session
// left without committing or aborting it, pending, until an abort, a
// reboot or 24 hours (arista.com/en/um-eos/eos-configure-session;
// NAPALM builds, reviews and commits one session over three eAPI
// requests, napalm/eos/eos.py; annetutil/annet ends its sessions with
// abort because "just exit leaves the configure session hanging"), and
// keeps at most five ("Maximum number of pending sessions: 5" in EOS
// 4.25.4M's show configuration sessions detail; eAPI's "maxOpenSessions":
// 5, napalm-automation/napalm-eos#149), refusing a sixth with "Maximum
// number of pending sessions has been reached" (reference/eos.md §4). So
// every lossless killed before its commit leaves one session pending, and
// five of them would block every later apply. Before it opens its own,
// Apply therefore aborts the lossless sessions it finds: their names are
// lossless' own (ownSession), never an operator's, and under the
// configure lock Apply holds no other lossless is applying, so each is a
// dead run's.

// sessionPrefix starts every session lossless names.
const sessionPrefix = "lossless_"

// listSessions lists the configuration sessions in eAPI's JSON:
// "sessions" by name with their "state" (napalm-automation/napalm-eos#149;
// napalm/eos/eos.py), and from EOS 4.32 "commitTimerSessionName" for the
// session whose timed commit awaits its confirm (napalm's
// _get_pending_commits).
const listSessions = "show configuration sessions detail | json"

// Session states EOS lists (reference/eos.md §5 [C:napalm]).
const (
	statePending     = "pending"
	stateCommitTimer = "pendingCommitTimer"
)

// sessionList is what Apply reads of listSessions; MaxOpenSessions is
// the pending-session limit (napalm-automation/napalm-eos#149).
type sessionList struct {
	MaxOpenSessions int `json:"maxOpenSessions"`
	Sessions        map[string]struct {
		State string `json:"state"`
	} `json:"sessions"`
	CommitTimerSessionName string `json:"commitTimerSessionName"`
}

// sessionName is unique per apply: sessionPrefix and start's Unix
// nanoseconds in base 36, so that ownSession knows it again; EOS prompts
// show its first 6 characters, "lossle" (reference/eos.md §1c).
func sessionName(start time.Time) string {
	return sessionPrefix + strconv.FormatInt(start.UnixNano(), 36)
}

// ownSession reports whether name is one sessionName makes: the prefix,
// then exactly the twelve base-36 digits of a time in nanoseconds between
// 2020 and 2119 (36^12 ns after 1970), written as FormatInt writes them.
// An operator's session ("roce_2025", "sess-1663-…", "lossless_test") is
// never one.
func ownSession(name string) bool {
	stamp, ok := strings.CutPrefix(name, sessionPrefix)
	if !ok || len(stamp) != 12 {
		return false
	}
	n, err := strconv.ParseInt(stamp, 36, 64)
	return err == nil && strconv.FormatInt(n, 36) == stamp && n >= time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
}

// sessions reads listSessions.
func (d *Driver) sessions(ctx context.Context) (sessionList, error) {
	var l sessionList
	out, err := d.Session.Exec(ctx, listSessions)
	if err != nil {
		return l, err
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		return l, fmt.Errorf("%q: %w", listSessions, err)
	}
	return l, nil
}

// armedOwn returns the lossless sessions whose timed commit awaits its
// confirm (state pendingCommitTimer, or EOS 4.32's
// commitTimerSessionName), sorted.
func (l sessionList) armedOwn() []string {
	var armed []string
	for name, s := range l.Sessions {
		if ownSession(name) && (s.State == stateCommitTimer || name == l.CommitTimerSessionName) {
			armed = append(armed, name)
		}
	}
	if n := l.CommitTimerSessionName; ownSession(n) && !slices.Contains(armed, n) {
		armed = append(armed, n)
	}
	slices.Sort(armed)
	return armed
}

// armed fails when a lossless timed commit awaits its confirm: only a
// killed apply leaves one (a live one holds the configure lock and reads
// with read). Running calls it.
func (d *Driver) armed(ctx context.Context) error {
	l, err := d.sessions(ctx)
	if err != nil {
		return fmt.Errorf("list the configuration sessions: %w", err)
	}
	if armed := l.armedOwn(); len(armed) > 0 {
		return fmt.Errorf("a killed lossless apply's timed commit (session %s) awaits its confirm: the running config goes back to what it was before that apply when its commit timer runs out; plan after that, or roll it back now on the device (configure session %s abort)", strings.Join(armed, ", "), armed[0])
	}
	return nil
}

// removeStale aborts the lossless sessions on the device: a pending one
// is discarded; one whose timed commit awaits its confirm is rolled back
// now, as its timer would do, and then Apply stops, since the plan was
// read from a running config that was that dead run's unconfirmed
// change. A failure names what could not be removed. When the sessions
// left pending, all the operator's, are as many as EOS keeps, Apply stops
// too, naming them: EOS would refuse lossless' own.
func (d *Driver) removeStale(ctx context.Context) error {
	l, err := d.sessions(ctx)
	if err != nil {
		return fmt.Errorf("remove stale lossless sessions: list them: %w", err)
	}
	armed := l.armedOwn()
	var stale, others []string
	for name, s := range l.Sessions {
		switch {
		case s.State != statePending || slices.Contains(armed, name):
		case ownSession(name):
			stale = append(stale, name)
		default:
			others = append(others, name)
		}
	}
	slices.Sort(stale)
	for _, name := range slices.Concat(stale, armed) {
		if _, err := d.Session.Exec(ctx, "configure session "+name+" abort"); err != nil {
			return fmt.Errorf("remove stale lossless session %s: %w", name, err)
		}
		d.Log.Warn("removed a stale lossless session", "op", "clean", "session", name)
	}
	if len(armed) > 0 {
		return fmt.Errorf("a killed apply's timed commit (session %s) was still armed: aborted now, as its commit timer would have done, the device is back at its config from before that apply; plan again", strings.Join(armed, ", "))
	}
	if l.MaxOpenSessions > 0 && len(others) >= l.MaxOpenSessions {
		slices.Sort(others)
		return fmt.Errorf("%d configuration sessions are pending, as many as EOS keeps, none of them lossless' (%s): EOS would refuse another (%q); commit or abort them first",
			len(others), strings.Join(others, ", "), "Maximum number of pending sessions has been reached")
	}
	return nil
}
