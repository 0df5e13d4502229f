package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/apply"
	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/rollout"
	nxosdrv "github.com/lossless-net/lossless/vendors/nxos"
)

// TestApplyTamperedPlan: a plan file whose commands were edited after it
// was saved (issue 12: `interface Ethernet1/36` / `mtu 576` appended to
// leaf1's) is refused whole, naming the device and the command; neither
// device changes.
func TestApplyTamperedPlan(t *testing.T) {
	dir, nodes := fabric(t)
	before := map[string][]byte{}
	for n, node := range nodes {
		before[n] = nxosdrv.Body(node.Device().Running())
	}
	planFile := filepath.Join(t.TempDir(), "x.plan")
	if r := cli(t, "plan", "-out", planFile, dir); r.code != 0 {
		t.Fatalf("plan:\n%s", r)
	}
	b, err := os.ReadFile(planFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	leaf1 := doc["devices"].([]any)[0].(map[string]any)
	ch := leaf1["change"].(map[string]any)
	n := len(ch["commands"].([]any))
	ch["commands"] = append(ch["commands"].([]any), "interface Ethernet1/36", "mtu 576")
	if b, err = json.MarshalIndent(doc, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	r := cli(t, "apply", planFile)
	want := `leaf1: command ` + strconv.Itoa(n+1) + `: the plan has "interface Ethernet1/36", now none`
	if r.code != 1 || !strings.Contains(r.stderr, "refused: the saved change is not the one the intent and the running config give now") ||
		!strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "nothing was changed") || strings.Contains(r.stdout, "applied") {
		t.Fatalf("apply of an edited plan, want %q:\n%s", want, r)
	}
	for n, node := range nodes {
		if !bytes.Equal(nxosdrv.Body(node.Device().Running()), before[n]) {
			t.Errorf("%s changed by an edited plan", n)
		}
	}
}

// TestApplyOtherFabricPlan: a plan made on one fabric is refused on
// another whose device names and scoped configs are the same (two labs
// seeded alike): the intent directory's inventory now points at the other
// fabric's devices, and the refusal names a device and both addresses.
func TestApplyOtherFabricPlan(t *testing.T) {
	dirA, _ := fabric(t)
	dirB, nodesB := fabric(t)
	before := nxosdrv.Body(nodesB["leaf1"].Device().Running())
	planFile := filepath.Join(t.TempDir(), "a.plan")
	if r := cli(t, "plan", "-out", planFile, dirA); r.code != 0 {
		t.Fatalf("plan:\n%s", r)
	}
	// The plan's intent directory now manages fabric B.
	for _, f := range []string{"inventory.hcl", "known_hosts"} {
		b, err := os.ReadFile(filepath.Join(dirB, f))
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.ReplaceAll(b, []byte(dirB), []byte(dirA))
		if err := os.WriteFile(filepath.Join(dirA, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := cli(t, "apply", planFile)
	if r.code != 1 || !strings.Contains(r.stderr, "refused: it was made for another fabric: leaf1 is at 127.0.0.1:") || !strings.Contains(r.stderr, "in this inventory") {
		t.Fatalf("apply of another fabric's plan:\n%s", r)
	}
	if !bytes.Equal(nxosdrv.Body(nodesB["leaf1"].Device().Running()), before) {
		t.Error("fabric B changed by fabric A's plan")
	}
}

// blockingReader is a prompt answer that says when it is first read
// (the question is asked: the apply holds its locks) and answers only
// once released.
type blockingReader struct {
	asked   chan struct{}
	release chan string
	done    bool
}

func (b *blockingReader) Read(p []byte) (int, error) {
	if b.done {
		return 0, io.EOF
	}
	close(b.asked)
	answer := <-b.release
	b.done = true
	return copy(p, answer), nil
}

// TestApplySecondCheckout: two checkouts of one fabric (the same intent
// and inventory in two directories, so two directory locks) cannot apply
// at once: while the first waits for "yes" holding the fabric's lock, the
// second is refused, naming that lock and its holder, and changes
// nothing; once the first has applied, the second has nothing to do.
func TestApplySecondCheckout(t *testing.T) {
	dirA, nodes := fabric(t)
	dirB := t.TempDir()
	for _, f := range []string{"intent.hcl", "inventory.hcl", "known_hosts"} {
		b, err := os.ReadFile(filepath.Join(dirA, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirB, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := nxosdrv.Body(nodes["leaf1"].Device().Running())
	answer := &blockingReader{asked: make(chan struct{}), release: make(chan string)}
	first := make(chan cliResult)
	go func() {
		var out, errb bytes.Buffer
		code := applyWith(t.Context(), []string{"-operator", "alice", dirA}, &out, &errb, prompt{in: answer, terminal: true})
		first <- cliResult{code, out.String(), errb.String()}
	}()
	<-answer.asked
	r := cli(t, "apply", "-auto-approve", "-operator", "bob", dirB)
	if r.code != 1 || !strings.Contains(r.stderr, "fabric is locked by alice on ") || !strings.Contains(r.stderr, filepath.Join("fabrics", "")) ||
		!strings.Contains(r.stderr, "another apply is running") {
		t.Errorf("second checkout while the first applies:\n%s", r)
	}
	if !bytes.Equal(nxosdrv.Body(nodes["leaf1"].Device().Running()), before) {
		t.Error("the second checkout changed leaf1 while the first held the fabric")
	}
	answer.release <- "yes\n"
	if r := <-first; r.code != 0 || !strings.Contains(r.stdout, "2 applied, 0 unchanged, 0 failed") {
		t.Fatalf("first checkout:\n%s", r)
	}
	if r := cli(t, "apply", "-auto-approve", dirB); r.code != 0 || !strings.Contains(r.stdout, "Nothing to apply.") {
		t.Errorf("second checkout after the first:\n%s", r)
	}
}

// TestForceUnlockLiveOwner: -force-unlock refuses a lock whose owner is
// alive on this host (here: this very process), saying so, and leaves it;
// the fabric lock shared by the checkouts is refused the same way.
func TestForceUnlockLiveOwner(t *testing.T) {
	dir, _ := fabric(t)
	host, _ := os.Hostname()
	start := time.Date(2026, 11, 29, 19, 30, 0, 0, time.UTC)
	for _, path := range []string{filepath.Join(dir, ".lossless.lock"), fabricLock(t, dir)} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		l, err := rollout.Acquire(path, rollout.LockInfo{Owner: "alice", Host: host, PID: os.Getpid(), Start: start})
		if err != nil {
			t.Fatal(err)
		}
		r := cli(t, "apply", "-auto-approve", "-force-unlock", dir)
		if r.code != 1 || !strings.Contains(r.stderr, "force-unlock "+path+": the lock's owner still runs: alice on "+host) ||
			!strings.Contains(r.stderr, "is alive on this host") || strings.Contains(r.stdout, "applied") {
			t.Fatalf("-force-unlock of a live owner's lock %s:\n%s", path, r)
		}
		if held, err := rollout.ReadLock(path); err != nil || held.Owner != "alice" {
			t.Errorf("the live owner's lock was broken: %v %+v", err, held)
		}
		if err := l.Release(); err != nil {
			t.Error(err)
		}
	}
}

// fabricLock is the path of the fabric lock of the intent in dir.
func fabricLock(t *testing.T, dir string) string {
	t.Helper()
	f := fleetFlags{logLevel: "warn"}
	fl, ok := loadFleet(f.source(dir), &f, io.Discard)
	if !ok {
		t.Fatal("load", dir)
	}
	defer fl.close()
	return apply.FabricLock(stateDir(), fl.identity)
}

// TestRecoverNothing: recover -help shows its options and examples;
// recover on a fabric no apply left in flight says so and exits 0, in
// text and JSON.
func TestRecoverNothing(t *testing.T) {
	if r := cli(t, "recover", "-help"); r.code != 0 || !strings.Contains(r.stdout, "-forward") || !strings.Contains(r.stdout, "Examples:") {
		t.Errorf("recover -help:\n%s", r)
	}
	dir, _ := fabric(t)
	if r := cli(t, "recover", dir); r.code != 0 || !strings.Contains(r.stdout, "Nothing to recover") {
		t.Errorf("recover with nothing in flight:\n%s", r)
	}
	if r := cli(t, "recover", "-json", dir); r.code != 0 || !strings.Contains(r.stdout, `"states": []`) {
		t.Errorf("recover -json with nothing in flight:\n%s", r)
	}
	if r := cli(t, "recover", "a", "b"); r.code != 1 {
		t.Errorf("recover with two arguments:\n%s", r)
	}
}

// TestHistoryInFlight: history lists the devices whose last step is a
// start with no result, with the command that recovers them.
func TestHistoryInFlight(t *testing.T) {
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	al, err := audit.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
	for _, e := range []audit.Entry{
		{Time: at, Operator: "alice", PlanHash: "0123456789abcdef", Device: "leaf1", Step: audit.StepApply, Result: audit.ResultStarted, State: "/x/state.json"},
		{Time: at, Operator: "alice", PlanHash: "0123456789abcdef", Device: "leaf1", Step: audit.StepApply, Result: "applied", State: "/x/state.json"},
		{Time: at, Operator: "alice", PlanHash: "0123456789abcdef", Device: "leaf2", Step: audit.StepApply, Result: audit.ResultStarted, State: "/x/state.json"},
	} {
		if err := al.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	al.Close()
	r := cli(t, "history", log)
	want := "Left in the middle of a change (started, no result recorded):\n  leaf2: plan 0123456789ab, started 2026-11-29T22:00:00Z by alice; recover with: lossless recover /x/state.json\n"
	if r.code != 0 || !strings.HasSuffix(r.stdout, want) {
		t.Errorf("history, want it to end with %q:\n%s", want, r)
	}
}
