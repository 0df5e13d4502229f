package rollout

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/vendors"
)

func TestParseWindow(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	at := func(h, m int, loc *time.Location) time.Time { return time.Date(2026, 11, 29, h, m, 0, 0, loc) }
	for _, tc := range []struct {
		in   string
		t    time.Time
		open bool
	}{
		{"22:00-02:00,UTC", at(23, 30, time.UTC), true},
		{"22:00-02:00,UTC", at(1, 59, time.UTC), true},
		{"22:00-02:00,UTC", at(2, 0, time.UTC), false},
		{"22:00-02:00,UTC", at(21, 59, time.UTC), false},
		{"01:00-05:00,Europe/Paris", at(3, 0, paris), true},
		{"01:00-05:00,Europe/Paris", at(3, 0, time.UTC), true}, // 04:00 in Paris
		{"01:00-05:00,Europe/Paris", at(4, 0, time.UTC), false},
		{"00:00-24:00,UTC", at(23, 59, time.UTC), true},
	} {
		w, err := ParseWindow(tc.in)
		if err != nil {
			t.Fatalf("ParseWindow(%q): %v", tc.in, err)
		}
		if got := w.Open(tc.t); got != tc.open {
			t.Errorf("%s Open(%s) = %v, want %v", tc.in, tc.t, got, tc.open)
		}
	}
	for _, bad := range []string{"22:00", "25:00-01:00", "22:0-01:00", "10:00-10:00", "10:00-11:00,Mars/Base", "10:00-11:00,"} {
		if _, err := ParseWindow(bad); err == nil {
			t.Errorf("ParseWindow(%q) accepted", bad)
		}
	}
}

func devs(n int, role func(int) string) []plan.Device {
	out := make([]plan.Device, n)
	for i := range out {
		out[i] = plan.Device{Intent: &intent.Device{Name: fmt.Sprintf("d%03d", i), Vendor: "nxos", Roles: []string{role(i)}}}
	}
	return out
}

func TestSplitAndOrder(t *testing.T) {
	ds := devs(200, func(i int) string {
		if i%2 == 0 {
			return "spine"
		}
		return "leaf"
	})
	o := Order(ds, []string{"role:leaf", "role:spine"})
	if o[0].Intent.Name != "d001" || o[99].Intent.Name != "d199" || o[100].Intent.Name != "d000" {
		t.Errorf("order: %s %s %s", o[0].Intent.Name, o[99].Intent.Name, o[100].Intent.Name)
	}
	for _, tc := range []struct {
		canary int
		size   string
		want   []int
	}{
		{1, "10%", []int{1, 20, 20, 20, 20, 20, 20, 20, 20, 20, 19}},
		{0, "64", []int{64, 64, 64, 8}},
		{5, "100%", []int{5, 195}},
		{0, "1%", nil}, // 200 batches of 2
	} {
		sz, err := ParseSize(tc.size)
		if err != nil {
			t.Fatal(err)
		}
		bs := Split(o, tc.canary, sz)
		var got []int
		total := 0
		for _, b := range bs {
			got = append(got, len(b))
			total += len(b)
		}
		if total != 200 {
			t.Errorf("canary %d batch %s: %d devices", tc.canary, tc.size, total)
		}
		if tc.want != nil && fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("canary %d batch %s: %v, want %v", tc.canary, tc.size, got, tc.want)
		}
	}
	for _, bad := range []string{"0", "-1", "0%", "101%", "x"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	if err := ParseOrder([]string{"leaf"}); err == nil {
		t.Error("ParseOrder(leaf) accepted")
	}
}

func TestGateCheck(t *testing.T) {
	t0 := time.Unix(1000, 0)
	snap := func(at time.Time, pause, wd, drops uint64) snapshot {
		var c vendors.PortCounters
		c.PauseTx[3] = pause
		c.Watchdog, c.Drops = wd, drops
		return snapshot{at: at, devs: map[string]map[string]vendors.PortCounters{"leaf1": {"Ethernet1/1": c}}}
	}
	g := &Gate{MaxPausePerSec: 100, MaxDropsPerSec: 10}
	for _, tc := range []struct {
		name          string
		before, after snapshot
		want          string
	}{
		{"quiet", snap(t0, 5, 0, 0), snap(t0.Add(10*time.Second), 900, 0, 50), ""},
		{"pause storm", snap(t0, 0, 0, 0), snap(t0.Add(10*time.Second), 5000, 0, 0), "5000 PFC pause frames in 10s (500/s, limit 100/s)"},
		{"fast batch divides by one second", snap(t0, 0, 0, 0), snap(t0.Add(time.Millisecond), 150, 0, 0), "150 PFC pause frames in 1s"},
		{"watchdog", snap(t0, 0, 2, 0), snap(t0.Add(time.Minute), 0, 3, 0), "1 PFC watchdog events (limit 0)"},
		{"drops", snap(t0, 0, 0, 0), snap(t0.Add(time.Second), 0, 0, 11), "11 queue/no-buffer drops"},
		{"cleared counter", snap(t0, 1_000_000, 0, 0), snap(t0.Add(time.Second), 50, 0, 0), ""},
	} {
		got := trips(g.check(tc.before, tc.after))
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: trips %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fabric.lock")
	host, _ := os.Hostname()
	first := LockInfo{Owner: "alice", Host: host, PID: os.Getpid(), Start: time.Date(2026, 11, 29, 19, 0, 0, 0, time.UTC)}
	l, err := Acquire(path, first)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path, LockInfo{Owner: "bob", Host: host, PID: os.Getpid() + 1})
	var le *LockedError
	if !errors.As(err, &le) || le.Stale || !strings.Contains(err.Error(), "alice on "+host) || !strings.Contains(err.Error(), "2026-11-29T19:00:00Z") {
		t.Fatalf("second lock: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	// A lock left by a process that is gone is reported stale, not broken.
	dead := first
	dead.PID = 1 << 30
	if _, err := Acquire(path, dead); err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path, first)
	if !errors.As(err, &le) || !le.Stale || !strings.Contains(err.Error(), "no longer runs") {
		t.Fatalf("stale lock: %v", err)
	}
	info, err := ForceUnlock(path)
	if err != nil || info.PID != dead.PID {
		t.Fatalf("ForceUnlock: %v %+v", err, info)
	}
	if _, err := Acquire(path, first); err != nil {
		t.Fatalf("after force-unlock: %v", err)
	}
}

func TestStateRoundTrip(t *testing.T) {
	p := &plan.Plan{FormatVersion: plan.FormatVersion, Devices: []plan.DevicePlan{{Device: "leaf1", Vendor: "nxos", Fingerprint: "ab"}}}
	s := &State{FormatVersion: StateVersion, PlanHash: Hash(p), Plan: p, Devices: map[string]string{"leaf1": StatusApplied}, Staging: Staging{Canary: 1, Batch: Size{Percent: 10}}}
	path := filepath.Join(t.TempDir(), "state.json")
	if err := SaveState(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := ReadState(path)
	if err != nil || !got.Done("leaf1") || got.Staging.Batch.Percent != 10 {
		t.Fatalf("ReadState: %v %+v", err, got)
	}
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), `"ab"`, `"cd"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadState(path); err == nil || !strings.Contains(err.Error(), "does not match its hash") {
		t.Errorf("edited state: %v", err)
	}
}

// TestLockOwnership: Release removes only its own lock (one taken over
// after a -force-unlock is left, naming its holder), and ForceUnlock
// refuses a lock whose owner is alive on this host.
func TestLockOwnership(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fabric.lock")
	host, _ := os.Hostname()
	dead := LockInfo{Owner: "alice", Host: host, PID: 1 << 30}
	old, err := Acquire(path, dead)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ForceUnlock(path); err != nil {
		t.Fatal(err)
	}
	live := LockInfo{Owner: "bob", Host: host, PID: os.Getpid()}
	cur, err := Acquire(path, live)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Release(); err == nil || !strings.Contains(err.Error(), "now held by bob") {
		t.Errorf("release of a lock taken over: %v, want a refusal naming bob", err)
	}
	if held, err := ReadLock(path); err != nil || held.Owner != "bob" {
		t.Fatalf("bob's lock was removed by alice's release: %v %+v", err, held)
	}
	if _, err := ForceUnlock(path); !errors.Is(err, ErrLiveOwner) || !strings.Contains(err.Error(), "bob on "+host) {
		t.Errorf("force-unlock of a live owner: %v", err)
	}
	if err := cur.Release(); err != nil {
		t.Errorf("release of its own lock: %v", err)
	}
	if err := cur.Release(); err == nil || !strings.Contains(err.Error(), "removed by someone else") {
		t.Errorf("second release: %v", err)
	}
}

// TestStateRecords: the records appended after the document are read
// back in order (the last one per device wins); a last record cut short
// by a kill is ignored, a bad one before it or one of another plan is an
// error.
func TestStateRecords(t *testing.T) {
	p := &plan.Plan{FormatVersion: plan.FormatVersion, Devices: []plan.DevicePlan{{Device: "a1", Fingerprint: "ab"}, {Device: "b2", Fingerprint: "cd"}}}
	s := &State{FormatVersion: StateVersion, PlanHash: Hash(p), Plan: p}
	path := filepath.Join(t.TempDir(), "state.json")
	if err := SaveState(path, s); err != nil {
		t.Fatal(err)
	}
	for _, r := range []record{
		{Device: "a1", Status: StatusStarted, Start: &Start{Fingerprint: "ab", Mark: "m1"}},
		{Device: "b2", Status: StatusStarted, Start: &Start{Fingerprint: "cd"}},
		{Device: "a1", Status: StatusApplied},
	} {
		r.PlanHash = s.PlanHash
		if err := appendRecord(path, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadState(path)
	if err != nil || got.Devices["a1"] != StatusApplied || got.Devices["b2"] != StatusStarted || len(got.Started) != 1 || got.Started["b2"].Fingerprint != "cd" {
		t.Fatalf("ReadState: %v %+v", err, got)
	}
	if in := got.Interrupted(); len(in) != 1 || in[0] != "b2" {
		t.Errorf("interrupted: %v", in)
	}
	whole, _ := os.ReadFile(path)
	cut := append(slices.Clone(whole), []byte(`{"plan_hash":"`+s.PlanHash+`","device":"b2","sta`)...)
	if err := os.WriteFile(path, cut, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadState(path); err != nil || got.Devices["b2"] != StatusStarted {
		t.Errorf("a record cut short: %v %+v", err, got)
	}
	for name, extra := range map[string]string{
		"bad record": "{not json}\n" + `{"plan_hash":"` + s.PlanHash + `","device":"b2","status":"applied"}` + "\n",
		"other plan": `{"plan_hash":"other","device":"b2","status":"applied"}` + "\n",
		"no device":  `{"plan_hash":"` + s.PlanHash + `","status":"applied"}` + "\n",
	} {
		if err := os.WriteFile(path, append(slices.Clone(whole), extra...), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadState(path); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}
