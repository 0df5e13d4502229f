package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/rollout"
)

// TestApplyStagedAuditHistory: a staged apply (canary then a batch) writes
// two audit lines per device (its start, with the commands, before they
// are sent; then its result), and history reads them back, filtered by
// device and as JSON.
func TestApplyStagedAuditHistory(t *testing.T) {
	dir, _ := fabric(t)
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	r := cli(t, "apply", "-auto-approve", "-canary", "1", "-batch", "50%", "-order", "role:leaf", "-audit", log, "-operator", "alice", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "canary      1 device(s)") || !strings.Contains(r.stdout, "batch 1     1 device(s)") || !strings.Contains(r.stdout, "2 applied, 0 unchanged, 0 failed") {
		t.Fatalf("staged apply:\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, ".lossless.lock")); !os.IsNotExist(err) {
		t.Errorf("lock left behind: %v", err)
	}
	if _, err := rollout.ReadState(filepath.Join(dir, ".lossless-rollout.json")); err != nil {
		t.Errorf("state: %v", err)
	}
	r = cli(t, "history", log)
	if r.code != 0 || strings.Count(r.stdout, " apply ") != 4 || !strings.Contains(r.stdout, "alice") {
		t.Fatalf("history:\n%s", r)
	}
	r = cli(t, "history", "-device", "leaf2", "-json", log)
	var es []audit.Entry
	if err := json.Unmarshal([]byte(r.stdout), &es); err != nil || len(es) != 2 || es[0].Device != "leaf2" || es[0].Batch != 1 || len(es[0].Commands) == 0 ||
		es[0].Result != audit.ResultStarted || es[1].Result != "applied" {
		t.Fatalf("history -device leaf2 -json: %v\n%s", err, r)
	}
	if strings.Contains(r.stdout+r.stderr, testPassword) {
		t.Error("password in output")
	}
	if r := cli(t, "history"); r.code != 1 {
		t.Errorf("history without FILE: %s", r)
	}
}

// TestApplyRefusedWhileLocked: a second apply on the same fabric is
// refused with the first one's owner and start time; a stale lock is
// reported, never broken, until -force-unlock, which says what it
// removes.
func TestApplyRefusedWhileLocked(t *testing.T) {
	dir, _ := fabric(t)
	host, _ := os.Hostname()
	path := filepath.Join(dir, ".lossless.lock")
	start := time.Date(2026, 11, 29, 19, 30, 0, 0, time.UTC)
	l, err := rollout.Acquire(path, rollout.LockInfo{Owner: "alice", Host: host, PID: os.Getpid(), Start: start})
	if err != nil {
		t.Fatal(err)
	}
	r := cli(t, "apply", "-auto-approve", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "locked by alice on "+host) || !strings.Contains(r.stderr, "2026-11-29T19:30:00Z") {
		t.Fatalf("apply while locked:\n%s", r)
	}
	if strings.Contains(r.stdout, "applied") {
		t.Errorf("apply while locked changed devices:\n%s", r)
	}
	l.Release()
	// Stale: the holder's process is gone.
	if _, err := rollout.Acquire(path, rollout.LockInfo{Owner: "bob", Host: host, PID: 1 << 30, Start: start}); err != nil {
		t.Fatal(err)
	}
	r = cli(t, "apply", "-auto-approve", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "bob") || !strings.Contains(r.stderr, "no longer runs") {
		t.Fatalf("apply on a stale lock:\n%s", r)
	}
	r = cli(t, "apply", "-auto-approve", "-force-unlock", dir)
	if r.code != 0 || !strings.Contains(r.stderr, "removed the lock "+path+" of bob") {
		t.Fatalf("apply -force-unlock:\n%s", r)
	}
}

// TestApplyStagingFlags: bad staging flags are refused before anything
// is read.
func TestApplyStagingFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-batch", "0"}, {"-batch", "120%"}, {"-window", "25:00-01:00"}, {"-order", "leaf"}, {"-canary", "-1"},
	} {
		r := cli(t, append(append([]string{"apply", "-auto-approve"}, args...), "testdata/plan")...)
		if r.code != 1 || r.stderr == "" {
			t.Errorf("apply %v:\n%s", args, r)
		}
	}
	if r := cli(t, "apply", "-help"); r.code != 0 || !strings.Contains(r.stdout, "-canary N") || !strings.Contains(r.stdout, "-resume FILE") {
		t.Errorf("apply -help:\n%s", r)
	}
	if r := cli(t, "history", "-help"); r.code != 0 || !strings.Contains(r.stdout, "-device NAME") {
		t.Errorf("history -help:\n%s", r)
	}
}

// TestApplyOutsideWindow: apply refuses to start outside -window and
// changes nothing.
func TestApplyOutsideWindow(t *testing.T) {
	dir, nodes := fabric(t)
	before := configBody(nodes["leaf1"].Device().Running())
	now := time.Now().UTC()
	w := now.Add(2*time.Hour).Format("15:04") + "-" + now.Add(3*time.Hour).Format("15:04") + ",UTC"
	r := cli(t, "apply", "-auto-approve", "-window", w, dir)
	if r.code != 1 || !strings.Contains(r.stderr, "outside the change window "+w) || !strings.Contains(r.stderr, "nothing was changed") {
		t.Fatalf("apply outside the window:\n%s", r)
	}
	if after := configBody(nodes["leaf1"].Device().Running()); after != before {
		t.Error("apply outside the window changed leaf1")
	}
}

// TestPlanSummary: plan -summary on examples/ai-fabric prints each
// distinct change once under a header naming its devices; -json -summary
// keeps the per-device detail and adds the groups.
func TestPlanSummary(t *testing.T) {
	r := cli(t, "plan", "-lab", "-summary", "../../examples/ai-fabric")
	if r.code != 0 && r.code != 1 {
		t.Fatalf("plan -summary:\n%s", r)
	}
	listed := 0
	for line := range strings.Lines(r.stdout) {
		switch {
		case strings.HasPrefix(line, "Devices: "):
			listed += len(strings.Split(strings.TrimSpace(strings.TrimPrefix(line, "Devices: ")), ", "))
		case strings.HasPrefix(line, "No changes: "):
			listed += len(strings.Split(strings.TrimSpace(strings.TrimPrefix(line, "No changes: ")), ", "))
		case strings.HasPrefix(line, "# ") && strings.HasSuffix(line, ": failed\n"):
			listed++
		}
	}
	// leaf1 and spine1 (both NX-OS, seeded alike) get the same change,
	// so the summary shows it once for both.
	if listed != 8 || !strings.Contains(r.stdout, "## 2 device(s), nxos: the same ") || !strings.Contains(r.stdout, "Devices: leaf1, spine1\n") {
		t.Fatalf("plan -summary lists %d devices, want 8:\n%s", listed, r)
	}
	r = cli(t, "plan", "-lab", "-summary", "-json", "../../examples/ai-fabric")
	var doc struct {
		Devices []struct{ Device string }    `json:"devices"`
		Groups  []struct{ Devices []string } `json:"groups"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Devices) != 8 || len(doc.Groups) == 0 {
		t.Fatalf("plan -summary -json: %v\n%s", err, r)
	}
}

// TestApplyResume: a rollout halted by -max-failures says how to resume;
// once the cause is gone, apply -resume STATEFILE re-checks the
// fingerprints and finishes the devices not yet applied.
func TestApplyResume(t *testing.T) {
	dir, nodes := fabric(t)
	nodes["leaf1"].Faults().Update(func(f *device.Faults) { f.RejectPattern = "^random-detect" })
	state := filepath.Join(t.TempDir(), "rollout.json")
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	r := cli(t, "apply", "-auto-approve", "-batch", "1", "-max-failures", "1", "-state", state, "-audit", log, dir)
	if r.code != 1 || !strings.Contains(r.stderr, "1 device(s) failed (-max-failures 1); 1 device(s) not started; continue with: lossless apply -resume "+state) {
		t.Fatalf("halted apply:\n%s", r)
	}
	nodes["leaf1"].Faults().Update(func(f *device.Faults) { f.RejectPattern = "" })
	r = cli(t, "apply", "-resume", state, "-audit", log)
	if r.code != 0 || !strings.Contains(r.stdout, "2 applied, 0 unchanged, 0 failed") {
		t.Fatalf("apply -resume:\n%s", r)
	}
	if r := cli(t, "apply", "-resume", state, dir); r.code != 1 || !strings.Contains(r.stderr, "-resume takes its plan from the state file") {
		t.Errorf("apply -resume with a DIR:\n%s", r)
	}
	es, err := audit.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, e := range es {
		steps = append(steps, e.Device+" "+e.Result)
	}
	if got := strings.Join(steps, ", "); got != "leaf1 started, leaf1 rolled back, leaf1 started, leaf1 applied, leaf2 started, leaf2 applied" {
		t.Errorf("audit steps: %s", got)
	}
}

// TestApplyGateAllVendors: a gated, staged apply on examples/ai-fabric
// reads and checkpoints the counters of NX-OS, EOS, CloudEngine and SONiC
// lab devices and applies all eight.
func TestApplyGateAllVendors(t *testing.T) {
	r := cli(t, "apply", "-lab", "-auto-approve", "-canary", "1", "-batch", "50%", "-gate", "-order", "role:leaf,role:spine", "../../examples/ai-fabric")
	if r.code != 0 || !strings.Contains(r.stdout, "8 applied, 0 unchanged, 0 failed") || !strings.Contains(r.stdout, "batch 2     3 device(s)") ||
		!strings.Contains(r.stdout, "Plan after apply: 0 to change, 8 unchanged, 0 failed") {
		t.Fatalf("gated apply:\n%s", r)
	}
}
