package plan_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/vendors"
)

// TestApplyRefusesEditedPlan: a saved plan whose commands were edited
// (issue 12: `interface Ethernet1/36` / `mtu 576` appended) is refused for
// that device, naming it and the first command that differs, and nothing
// is sent; the untouched device applies.
func TestApplyRefusesEditedPlan(t *testing.T) {
	devs := devices("a1", "b2")
	p, err := plan.Make(t.Context(), devs, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.plan")
	if err := plan.Save(path, p); err != nil {
		t.Fatal(err)
	}
	editPlan(t, path, func(doc map[string]any) {
		ch := doc["devices"].([]any)[1].(map[string]any)["change"].(map[string]any)
		ch["commands"] = append(ch["commands"].([]any), "interface Ethernet1/36", "mtu 576")
	})
	saved, err := plan.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := plan.Apply(t.Context(), devs, saved, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Err != nil || fake.Running("a1") != "want-a1" {
		t.Errorf("a1: %v, running %q", rs[0].Err, fake.Running("a1"))
	}
	want := `b2: the saved change is not the one the intent and the running config give now: command 2: the plan has "interface Ethernet1/36", now none (2 more in the plan)`
	if !errors.Is(rs[1].Err, plan.ErrNotReviewed) || !strings.Contains(rs[1].Err.Error(), want) {
		t.Errorf("b2: %v\nwant %s", rs[1].Err, want)
	}
	if fake.Running("b2") != "old-b2" {
		t.Errorf("b2 changed to %q from an edited plan", fake.Running("b2"))
	}
}

// editPlan rewrites the plan file at path through edit of its JSON.
func editPlan(t *testing.T, path string, edit func(doc map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestChangeDiff(t *testing.T) {
	ch := func(cmds ...string) *vendors.Change { return &vendors.Change{Commands: cmds} }
	patch := func(p string) *vendors.Change { return &vendors.Change{Patch: json.RawMessage(p)} }
	for _, tc := range []struct {
		name         string
		saved, fresh *vendors.Change
		want         string
	}{
		{"same", ch("a", "b"), ch("a", "b"), ""},
		{"edited", ch("a", "x"), ch("a", "b"), `command 2: the plan has "x", now "b"`},
		{"removed", ch("a"), ch("a", "b"), `command 2: the plan has none, now "b" (1 more now)`},
		{"same patch, other spacing", patch(`[{"op": "add", "path": "/A"}]`), patch(`[{"op":"add","path":"/A"}]`), ""},
		{"edited patch", patch(`[{"op":"add","path":"/A"},{"op":"add","path":"/B"}]`), patch(`[{"op":"add","path":"/A"}]`), `patch operation 2: the plan has "{\"op\":\"add\",\"path\":\"/B\"}", now none`},
	} {
		if got := plan.ChangeDiff(tc.saved, tc.fresh); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// journal records what ApplyDevice tells it, and what each device ran
// when it was told.
type journal struct {
	mu     sync.Mutex
	events []string
}

func (j *journal) Started(_ context.Context, d plan.Device, _ vendors.Driver, fp string, ch *vendors.Change) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.events = append(j.events, "started "+d.Intent.Name+" running "+fake.Running(d.Intent.Name)+" fingerprint ok="+
		boolText(fp == plan.Fingerprint([]byte(fake.Running(d.Intent.Name))))+" "+strings.Join(ch.Commands, ","))
	if d.Intent.Name == "c3" {
		return errors.New("disk full")
	}
	return nil
}

func (j *journal) Finished(_ context.Context, d plan.Device, _ vendors.Driver, r plan.Result) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.events = append(j.events, "finished "+d.Intent.Name+" running "+fake.Running(d.Intent.Name)+" err="+boolText(r.Err != nil))
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestApplyJournal: the journal hears of a change before it is sent
// (the device still runs its old config) and of every result; a start
// that cannot be recorded stops the device with nothing sent.
func TestApplyJournal(t *testing.T) {
	devs := devices("a1", "b2", "c3")
	fake.SetRunning("b2", "want-b2")
	j := &journal{}
	rs, err := plan.Apply(t.Context(), devs, nil, plan.Options{Parallelism: 1, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"started a1 running old-a1 fingerprint ok=true set want-a1",
		"finished a1 running want-a1 err=false",
		"finished b2 running want-b2 err=false",
		"started c3 running old-c3 fingerprint ok=true set want-c3",
		"finished c3 running old-c3 err=true",
	}
	if got := strings.Join(j.events, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("journal:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	if !strings.Contains(rs[2].Err.Error(), "c3: write-ahead record: disk full; nothing was sent") {
		t.Errorf("c3: %v", rs[2].Err)
	}
}

// TestFabricIdentity: two checkouts of one fabric (the same files in two
// directories) have the same identity; an intent edit changes the intent
// hash, not the key; another inventory address changes the key and is
// named as another fabric.
func TestFabricIdentity(t *testing.T) {
	write := func(dir, intentText, addr string) {
		t.Helper()
		files := map[string]string{
			"intent.hcl":    intentText,
			"inventory.hcl": "device \"leaf1\" {\n  vendor = \"fake-plan-test\"\n  address = \"" + addr + "\"\n}\n",
		}
		for n, s := range files {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	id := func(dir string) *plan.Identity {
		t.Helper()
		f, _ := load.Fabric(dir, load.Options{})
		if f.Inventory == nil || f.Intent == nil {
			t.Fatalf("load %s failed", dir)
		}
		return plan.FabricIdentity(f, &plan.Source{Dir: dir})
	}
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	write(a, "# one\n", "10.0.0.1")
	write(b, "# one\n", "10.0.0.1")
	write(c, "# two\n", "10.9.9.9")
	ia, ib, ic := id(a), id(b), id(c)
	if ia.Key() != ib.Key() || ia.Intent != ib.Intent {
		t.Errorf("two checkouts differ: %+v, %+v", ia, ib)
	}
	if ia.Intent == ic.Intent || ia.Key() == ic.Key() {
		t.Errorf("another fabric has the same identity: %+v, %+v", ia, ic)
	}
	if why := ic.OtherFabric(ia, []string{"leaf1"}); why != "it was made for another fabric: leaf1 is at 10.0.0.1:22 in the plan, at 10.9.9.9:22 in this inventory" {
		t.Errorf("OtherFabric: %q", why)
	}
	if why := ib.OtherFabric(ia, []string{"leaf1"}); why != "" {
		t.Errorf("same fabric named other: %q", why)
	}
}
