package huaweice

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// manualTimers hands out timers a test runs out by hand.
type manualTimers struct {
	mu     sync.Mutex
	timers []*manualTimer
}

type manualTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func (m *manualTimer) Stop() bool { m.stopped = true; return true }

func (m *manualTimers) afterFunc(d time.Duration, f func()) Timer {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &manualTimer{d: d, f: f}
	m.timers = append(m.timers, t)
	return t
}

// runOut fires every timer armed so far that is still running, as if its
// time had passed.
func (m *manualTimers) runOut() {
	m.mu.Lock()
	ts := append([]*manualTimer(nil), m.timers...)
	m.mu.Unlock()
	for _, t := range ts {
		if !t.stopped {
			t.f()
		}
	}
}

// last is the newest timer of duration d, or nil.
func (m *manualTimers) last(d time.Duration) *manualTimer {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.timers) - 1; i >= 0; i-- {
		if m.timers[i].d == d {
			return m.timers[i]
		}
	}
	return nil
}

// TestConfigurationExclusive: while one session holds configuration
// exclusive, another edits its candidate but every commit, rollback, trial
// abort and lock of its own is refused naming the holder's session; the
// holder commits; the lock ends when the holder unlocks or its session
// drops (lock.go, from the V300R023 command reference).
func TestConfigurationExclusive(t *testing.T) {
	d := newTestDevice(t, "")
	s1 := d.NewSession("alice", nil).(*Session)
	s2 := d.NewSession("bob", nil).(*Session)
	transcript(s1, "system-view", "drop-profile p0", "commit", "return")
	before := string(d.Running())
	if out := transcript(s2, "display configuration exclusive user"); out != "<HUAWEI>display configuration exclusive user\n" {
		t.Errorf("unlocked: %q", out)
	}
	if out := transcript(s1, "configuration exclusive"); out != "<HUAWEI>configuration exclusive\n" {
		t.Errorf("lock: %q", out)
	}
	locked := fmt.Sprintf("Error: The configuration is locked by other user. [Session ID = %d]\n", s1.id)
	out := transcript(s2, "display configuration exclusive user", "configuration exclusive", "undo configuration exclusive",
		"rollback configuration last 1", "y", "system-view", "drop-profile p2", "commit", "commit trial 60 persist x", "abort trial")
	want := `<HUAWEI>display configuration exclusive user
User Index: 34
User Session Name: VTY 0
User Name: alice
IP Address: 127.0.0.1
Locked Time: 2026-01-02 03:04:05
Last Configuration Time: 2026-01-02 03:04:05
The time out value of configuration right locked is: 30 second(s)
<HUAWEI>configuration exclusive
` + locked + `<HUAWEI>undo configuration exclusive
` + locked + `<HUAWEI>rollback configuration last 1
Warning: This operation will revert configuration changes to the previous status. During the rollback configuration process, some configurations involving differences may be temporarily invalid. Continue? [Y/N]:y
` + locked + `<HUAWEI>system-view
Enter system view, return user view with return command.
[~HUAWEI]drop-profile p2
[*HUAWEI-drop-p2]commit
` + locked + `[*HUAWEI-drop-p2]commit trial 60 persist x
` + locked + `[*HUAWEI-drop-p2]abort trial
` + msgNotInTrial + "\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("second session (-want +got):\n%s", diff)
	}
	if string(d.Running()) != before {
		t.Fatal("a refused commit changed the running config")
	}
	transcript(s1, "system-view", "drop-profile p1", "commit trial 60")
	if out := transcript(s2, "abort trial", "y"); out != "[*HUAWEI-drop-p2]abort trial\n"+qAbortTrial+"y\n"+locked {
		t.Errorf("abort of the holder's trial by another session: %q", out)
	}
	transcript(s1, "commit")
	if !strings.Contains(string(d.Running()), "drop-profile p1\n") {
		t.Error("the holder could not commit")
	}
	transcript(s1, "return", "undo configuration exclusive")
	if out := transcript(s2, "commit"); out != "[*HUAWEI-drop-p2]commit\n" {
		t.Errorf("commit after unlock: %q", out)
	}
	transcript(s2, "configuration exclusive")
	s2.Close()
	if out := transcript(s1, "display configuration exclusive user", "system-view", "drop-profile p3", "commit"); out !=
		"<HUAWEI>display configuration exclusive user\n<HUAWEI>system-view\n"+msgEnterSystem+"\n[~HUAWEI]drop-profile p3\n[*HUAWEI-drop-p3]commit\n" {
		t.Errorf("after the holder's session dropped:\n%s", out)
	}
}

// TestLockIdleTimeout: the lock ends when its holder types nothing for the
// timeout (30 s by default); each line the holder types restarts it.
func TestLockIdleTimeout(t *testing.T) {
	var timers manualTimers
	d := newTestDevice(t, "", WithAfterFunc(timers.afterFunc))
	s1, s2 := d.NewSession("alice", nil), d.NewSession("bob", nil)
	transcript(s1, "configuration exclusive")
	first := timers.last(lockTimeout)
	if first == nil {
		t.Fatal("no 30 s lock timer armed")
	}
	transcript(s1, "display configuration trial status")
	if !first.stopped || timers.last(lockTimeout) == first {
		t.Error("a line of the holder did not restart the idle timer")
	}
	if out := transcript(s2, "display configuration exclusive user"); !strings.Contains(out, "User Name: alice") {
		t.Fatalf("lock lost early: %q", out)
	}
	timers.last(lockTimeout).f()
	if out := transcript(s2, "display configuration exclusive user", "configuration exclusive"); out != "<HUAWEI>display configuration exclusive user\n<HUAWEI>configuration exclusive\n" {
		t.Errorf("after the idle timeout: %q", out)
	}
}

// crashSteps is what a client types to push a change the way
// reference/huawei-ce.md §1.2 and §4 do (lossless' CloudEngine driver):
// the lock, the lines into the candidate, the review, a persistent commit
// trial, the re-read, the confirm, the check, then save.
func crashSteps(t *testing.T) (steps []string, trial, confirm int) {
	steps = []string{"configuration exclusive", "screen-length 0 temporary", "display current-configuration", "display configuration trial status"}
	steps = append(steps, readLines(t, "testdata/push-family-b.txt")[1:]...)
	steps = append(steps, "display configuration candidate changes")
	trial = len(steps)
	steps = append(steps, "commit trial 120 persist lossless1", "display current-configuration")
	confirm = len(steps)
	steps = append(steps, "commit persist lossless1", "display current-configuration", "display configuration trial status",
		"return", "save", "y", "undo configuration exclusive")
	return steps, trial, confirm
}

// TestSessionClosedAtEachStep: a client that vanishes after any step of a
// push leaves the device, once the trial timer has run out, exactly at
// its old configuration (before the commit trial: the candidate is
// discarded; after it and before the confirm: the device reverts the
// trial) or exactly at the new one (the confirm went through); the lock
// goes with the session, and the next session commits.
func TestSessionClosedAtEachStep(t *testing.T) {
	steps, trial, confirm := crashSteps(t)
	full := func() string {
		d := newTestDevice(t, "")
		out := transcript(d.NewSession("admin", nil), steps...)
		if strings.Contains(out, "Error") {
			t.Fatalf("push refused:\n%s", out)
		}
		return string(d.Running())
	}()
	for k := 0; k <= len(steps); k++ {
		var timers manualTimers
		d := newTestDevice(t, "", WithAfterFunc(timers.afterFunc))
		old := string(d.Running())
		s := d.NewSession("admin", nil)
		transcript(s, steps[:k]...)
		s.Close()
		inTrial := k > trial && k <= confirm
		if got := string(d.Running()); inTrial && got != full {
			t.Errorf("closed after %d steps (%q), in the trial: the device does not run the trial's config", k, steps[k-1])
		}
		timers.runOut()
		want, what := old, "old"
		if k > confirm {
			want, what = full, "new"
		}
		if diff := cmp.Diff(want, string(d.Running())); diff != "" {
			t.Errorf("closed after %d steps (last %q): once the timer ran out, not at the %s config (-want +got):\n%s", k, steps[max(k-1, 0)], what, diff)
		}
		next := d.NewSession("ops", nil)
		if out := transcript(next, "display configuration exclusive user", "display configuration trial status"); !strings.Contains(out, "user\n<HUAWEI>display configuration trial status\nTrial status: INACTIVE") {
			t.Errorf("closed after %d steps: lock or trial left behind:\n%s", k, out)
		}
		if out := transcript(next, "system-view", "sysname NEXT", "commit"); strings.Contains(out, "Error") {
			t.Errorf("closed after %d steps: the next session cannot commit:\n%s", k, out)
		}
	}
}

// TestPersistentTrialOutlivesItsSession: a persistent trial left by a
// dropped session stays active (the device runs the trial's config) until
// its timer runs out or a new session aborts or confirms it by its ID;
// display configuration trial status names it.
func TestPersistentTrialOutlivesItsSession(t *testing.T) {
	var timers manualTimers
	d := newTestDevice(t, "", WithAfterFunc(timers.afterFunc))
	old := string(d.Running())
	s := d.NewSession("admin", nil)
	transcript(s, "system-view", "drop-profile left", "commit trial 120 persist lossless9")
	s.Close()
	if trial := timers.last(120 * time.Second); trial == nil || trial.stopped {
		t.Fatal("the trial's timer is not running")
	}
	next := d.NewSession("admin", nil)
	out := transcript(next, "display configuration trial status", "system-view", "abort trial persist lossless9", "y")
	want := `<HUAWEI>display configuration trial status
Trial status: ACTIVE 
Persist id: lossless9
Trial time left (sec): 120
<HUAWEI>system-view
Enter system view, return user view with return command.
[~HUAWEI]abort trial persist lossless9
Warning: The trial configuration will be rolled back. Continue? [Y/N]:y
Info: The trial configuration rollback succeeded.
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(old, string(d.Running())); diff != "" {
		t.Errorf("after the abort (-old +got):\n%s", diff)
	}
}
