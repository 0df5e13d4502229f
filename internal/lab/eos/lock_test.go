package eos_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/eos"
)

// TestConfigureLock: while one CLI session holds the configure lock no
// other may change the running config (configure terminal, commits,
// aborting a timed commit, configure replace, the lock itself, a gNMI
// Set), each refused naming the holder; the holder's own session commits;
// pending sessions may still be edited; unlock, or the holder's
// connection dropping, releases it (lock.go).
func TestConfigureLock(t *testing.T) {
	d := newDevice(t, readFile(t, "testdata/canonical.txt"))
	holder := d.NewSession("alice", nil) // vty1
	other := d.NewSession("bob", nil)    // vty2
	mustRun(t, holder, "configure lock", "configure lock")
	const refused = "% The configure lock is held by user alice on vty1\n"
	before := string(d.Running())
	mustRun(t, other, "configure checkpoint save c1", "configure session b1", "interface Ethernet9", "qos trust cos", "end")
	for _, l := range []string{"configure lock", "configure unlock", "configure terminal", "configure", "configure session b1 commit",
		"configure session b1 commit timer 00:05:00", "configure replace checkpoint:c1"} {
		if out, _ := other.Handle(l); out != refused {
			t.Errorf("%q while locked: %q, want %q", l, out, refused)
		}
	}
	mustRun(t, other, "configure session b1")
	if out, _ := other.Handle("commit"); out != refused {
		t.Errorf("commit inside a session while locked: %q", out)
	}
	mustRun(t, other, "end")
	if err := d.ConfigureAtomic([]string{"qos map dscp 40 to traffic-class 6"}); err == nil || !strings.Contains(err.Error(), strings.TrimSpace(refused)) {
		t.Errorf("gNMI Set while locked: %v", err)
	}
	if got := string(d.Running()); got != before {
		t.Fatalf("another session changed the locked config:\n%s", cmp.Diff(before, got))
	}
	// The holder commits with a timer; the other may not roll it back.
	mustRun(t, holder, "configure session a1", "no interface Ethernet2", "end", "configure session a1 commit timer 00:05:00")
	if out, _ := other.Handle("configure session a1 abort"); out != refused {
		t.Errorf("abort of the holder's timed commit: %q", out)
	}
	mustRun(t, holder, "configure session a1 commit", "configure unlock")
	mustRun(t, other, "configure session b1 commit")
	if !strings.Contains(string(d.Running()), "qos trust cos") {
		t.Error("the other session's commit after the unlock did not apply")
	}

	// A dropped holder releases it.
	mustRun(t, other, "configure lock")
	other.Close()
	third := d.NewSession("carol", nil)
	mustRun(t, third, "configure lock", "configure terminal", "end", "configure unlock")
}

// TestPendingTimeout: a pending session is discarded after 24 hours
// (eos.md §5); one committed before has its timeout stopped.
func TestPendingTimeout(t *testing.T) {
	var expiries []*manualTimer
	d, err := eos.New("switch", nil, eos.WithAfterFunc(func(dur time.Duration, f func()) eos.Timer {
		m := &manualTimer{d: dur, f: f}
		if dur == 24*time.Hour {
			expiries = append(expiries, m)
		}
		return m
	}))
	if err != nil {
		t.Fatal(err)
	}
	s := d.NewSession("admin", nil)
	mustRun(t, s, "configure session old", "qos map dscp 48 to traffic-class 6", "end", "configure session done", "qos map dscp 40 to traffic-class 6", "commit")
	if len(expiries) != 2 || !expiries[1].stopped || expiries[0].stopped {
		t.Fatalf("expiries %+v, want two, the committed one stopped", expiries)
	}
	expiries[0].f()
	if out, _ := s.Handle("show session-config named old diffs"); out != "% Invalid input\n" {
		t.Errorf("session after 24 hours: %q", out)
	}
}

// TestSessionsJSON: show configuration sessions | json has eAPI's shape
// with EOS's states (lock.go), and the text listing names who opened a
// pending session.
func TestSessionsJSON(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	mustRun(t, s, "configure session c1", "qos map dscp 48 to traffic-class 6", "commit",
		"configure session t1", "qos map dscp 40 to traffic-class 6", "commit timer 00:05:00",
		"configure session p1", "end")
	out, _ := s.Handle("show configuration sessions | json")
	var got struct {
		MaxSavedSessions, MaxOpenSessions int
		Sessions                          map[string]struct{ State string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	want := map[string]string{"c1": "completed", "t1": "pendingCommitTimer", "p1": "pending"}
	states := map[string]string{}
	for n, v := range got.Sessions {
		states[n] = v.State
	}
	if diff := cmp.Diff(want, states); diff != "" || got.MaxOpenSessions != 5 || got.MaxSavedSessions != 1 {
		t.Errorf("sessions (-want +got):\n%s\n%s", diff, out)
	}
	detail, _ := s.Handle("show configuration sessions detail | json")
	if !strings.Contains(detail, `"commitTimerSessionName": "t1"`) || strings.Contains(out, "commitTimerSessionName") {
		t.Errorf("detail names the timed commit, the plain listing does not:\n%s\n%s", detail, out)
	}
	text, _ := s.Handle("show configuration sessions")
	if !strings.Contains(text, "  p1              pending                admin   vty1\n") {
		t.Errorf("text listing:\n%s", text)
	}
}
