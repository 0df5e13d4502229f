package plan_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/plan/plantest"
	"github.com/lossless-net/lossless/vendors"
)

// fake is a vendor whose devices live in memory: device D runs
// fake.Running(D) and wants its Options["want"].
var fake = plantest.NewMemory("fake-plan-test")

// devices makes fake devices named by names, each wanting "want-NAME" and
// running "old-NAME".
func devices(names ...string) []plan.Device { return fake.Devices(names...) }

func names(p *plan.Plan) []string {
	var out []string
	for _, d := range p.Devices {
		out = append(out, d.Device)
	}
	return out
}

func TestMakeOrderAndCounts(t *testing.T) {
	devs := devices("c3", "a1", "b2")
	fake.SetRunning("b2", "want-b2")
	fake.FailDial("c3", errors.New("connect c3: refused"))
	p, err := plan.Make(t.Context(), devs, plan.Options{Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a1", "b2", "c3"}, names(p)); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
	if got := p.Counts().String(); got != "1 to change, 1 unchanged, 1 failed" {
		t.Errorf("counts: %s", got)
	}
	if p.Devices[0].Fingerprint != plan.Fingerprint([]byte("old-a1")) {
		t.Error("fingerprint is not the SHA-256 of the running config")
	}
	var b bytes.Buffer
	p.WriteText(&b)
	for _, want := range []string{"# a1 (fake-plan-test): to change", "# b2 (fake-plan-test): no changes", "connect c3: refused", "1 to change, 1 unchanged, 1 failed"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestFailFast: the first failure stops the fleet; devices not started
// are reported as such.
func TestFailFast(t *testing.T) {
	devs := devices("a1", "b2", "c3")
	fake.FailDial("a1", errors.New("connect a1: refused"))
	p, err := plan.Make(t.Context(), devs, plan.Options{Parallelism: 1, FailFast: true})
	if err == nil || !strings.Contains(err.Error(), "a1") {
		t.Fatalf("fail-fast error = %v", err)
	}
	for _, d := range p.Devices[1:] {
		if !strings.Contains(d.Error, "not started") {
			t.Errorf("%s: %q, want not started", d.Device, d.Error)
		}
	}
	// Without fail-fast the others are planned.
	p, err = plan.Make(t.Context(), devs, plan.Options{Parallelism: 1})
	if err != nil || p.Counts().Change != 2 {
		t.Errorf("without fail-fast: %v %s", err, p.Counts())
	}
}

// TestApplySavedPlan: a saved plan applies; a device changed since is
// refused by name, the others apply.
func TestApplySavedPlan(t *testing.T) {
	devs := devices("a1", "b2")
	p, err := plan.Make(t.Context(), devs, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.plan")
	if err := plan.Save(path, p); err != nil {
		t.Fatal(err)
	}
	saved, err := plan.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fake.SetRunning("b2", "changed-by-someone")
	rs, err := plan.Apply(t.Context(), devs, saved, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Err != nil || !rs[0].Applied {
		t.Errorf("a1: %+v", rs[0])
	}
	if !errors.Is(rs[1].Err, plan.ErrStale) || !strings.Contains(rs[1].Err.Error(), "b2") {
		t.Errorf("b2: %v, want a stale-plan error naming b2", rs[1].Err)
	}
	if got := plan.ResultCounts(rs).String(); got != "1 to change, 0 unchanged, 1 failed" {
		t.Errorf("counts: %s", got)
	}
}

// TestGolden: a rendering that differs from its approved file is refused.
func TestGolden(t *testing.T) {
	devs := devices("a1", "b2")
	dir := t.TempDir()
	for name, text := range map[string]string{"a1.cfg": "want-a1", "b2.cfg": "reviewed-b2"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := plan.Make(t.Context(), devs, plan.Options{Golden: dir})
	if err != nil {
		t.Fatal(err)
	}
	if p.Devices[0].Err != nil {
		t.Errorf("a1 refused: %v", p.Devices[0].Err)
	}
	if !errors.Is(p.Devices[1].Err, plan.ErrNotApproved) || !strings.Contains(p.Devices[1].Error, "b2") {
		t.Errorf("b2: %v, want not approved", p.Devices[1].Err)
	}
}

func TestReadRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"other version": `{"format_version": "9", "devices": []}`,
		"unknown field": `{"format_version": "1", "devices": [], "x": 1}`,
		"no change":     `{"format_version": "1", "devices": [{"device": "a1", "vendor": "nxos"}]}`,
		"not json":      `plan`,
	} {
		if _, err := plan.Read(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestPlanCarriesWarnings: a renderer's warnings reach each device's
// section of the text plan, changed or not, and the -json / saved plan
// with the device and the rule.
func TestPlanCarriesWarnings(t *testing.T) {
	a := fake.Device("w1", "old", "new")
	a.Intent.Options["warn"] = "ECN weight of class rdma is unset; written as 0"
	b := fake.Device("w2", "same", "same")
	b.Intent.Options["warn"] = "DSCPs 8-23 keep the built-in map"
	p, err := plan.Make(t.Context(), []plan.Device{a, b}, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	p.WriteText(&text)
	for _, want := range []string{
		"# w1 (fake-plan-test): to change\n",
		"Warnings:\n  - ECN weight of class rdma is unset; written as 0 [LL202]\n",
		"# w2 (fake-plan-test): no changes\nWarnings:\n  - DSCPs 8-23 keep the built-in map [LL202]\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	path := filepath.Join(t.TempDir(), "p.json")
	if err := plan.Save(path, p); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"warnings": [`, `"rule": "LL202"`, `"device": "w1"`, `"message": "ECN weight of class rdma is unset; written as 0"`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("saved plan lacks %s:\n%s", want, raw)
		}
	}
}

// TestApplyTakesDeviceLock: a driver with the device's own configuration
// lock holds it from the read to the commit and releases it; a device
// another session has locked is refused before anything is sent.
func TestApplyTakesDeviceLock(t *testing.T) {
	free := fake.Device("lk1", "old", "new")
	busy := fake.Device("lk2", "old", "new")
	fake.HoldLock("lk2", "admin on vty 3")
	defer fake.HoldLock("lk2", "")
	rs, err := plan.Apply(t.Context(), []plan.Device{free, busy}, nil, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Err != nil || !rs[0].Applied || fake.Running("lk1") != "new" {
		t.Errorf("lk1: %+v, running %q", rs[0], fake.Running("lk1"))
	}
	if taken, held := fake.Locks("lk1"); taken != 1 || held {
		t.Errorf("lk1 lock taken %d times, still held %v; want once, released", taken, held)
	}
	if !errors.Is(rs[1].Err, vendors.ErrDeviceLocked) || !strings.Contains(rs[1].Err.Error(), "admin on vty 3") || !strings.Contains(rs[1].Err.Error(), "nothing was sent") {
		t.Errorf("lk2: err %v, want the device lock refusal naming the holder", rs[1].Err)
	}
	if fake.Running("lk2") != "old" {
		t.Errorf("lk2 changed to %q", fake.Running("lk2"))
	}
}

// TestPlanPassesPrune: the intent's unmanaged = "prune" reaches the
// driver's Diff as the rendering's Prune; keep (the default) does not.
func TestPlanPassesPrune(t *testing.T) {
	keep := fake.Device("pr1", "old", "new")
	keep.Intent.Unmanaged = intent.UnmanagedKeep
	prune := fake.Device("pr2", "old", "new")
	prune.Intent.Unmanaged = intent.UnmanagedPrune
	p, err := plan.Make(t.Context(), []plan.Device{keep, prune}, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Devices[0].Change.Desired.Prune || !p.Devices[1].Change.Desired.Prune {
		t.Errorf("Prune: pr1 %v, pr2 %v; want false, true", p.Devices[0].Change.Desired.Prune, p.Devices[1].Change.Desired.Prune)
	}
}
