package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	nxosdrv "github.com/lossless-net/lossless/vendors/nxos"
)

// testPassword is the lab password of these tests; it must never appear in
// any output.
const testPassword = "pw-Zq81-never-printed"

// fabric starts a lab with NX-OS devices leaf1 and leaf2 seeded with a
// stale config, writes an inventory for them next to a copy of
// testdata/plan, and sets the credentials' environment variables. It
// returns the intent dir and the lab nodes by name.
func fabric(t *testing.T) (string, map[string]*lab.Node) {
	t.Helper()
	l, err := lab.New(lab.WithCredentials("ops", testPassword))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	seed, err := os.ReadFile("../../vendors/nxos/testdata/canonical.cfg")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	intent, err := os.ReadFile("testdata/plan/intent.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "intent.hcl"), intent, 0o644); err != nil {
		t.Fatal(err)
	}
	nodes := map[string]*lab.Node{}
	var inv strings.Builder
	kh := filepath.Join(dir, "known_hosts")
	fmt.Fprintf(&inv, "credentials \"lab\" {\n  username_env = %q\n  password_env = %q\n  known_hosts  = %q\n}\n", lab.UserEnv, lab.PasswordEnv, kh)
	for _, name := range []string{"leaf1", "leaf2"} {
		n, err := l.Add("nxos", name, nxosdrv.LabSeed(seed))
		if err != nil {
			t.Fatal(err)
		}
		nodes[name] = n
		fmt.Fprintf(&inv, "\ndevice %q {\n  vendor = \"nxos\"\n  platform = \"N9K-C93600CD-GX\"\n  address = \"127.0.0.1\"\n  port = %d\n  credentials = credentials.lab\n  roles = [\"leaf\"]\n  ports \"Ethernet1/1-2\" {\n    speed = \"100G\"\n    cable = \"5m\"\n  }\n}\n", name, n.Port())
	}
	if err := l.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte(inv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(lab.UserEnv, "ops")
	t.Setenv(lab.PasswordEnv, testPassword)
	// The fabric lock and the last state file go here, not to the
	// user's state directory.
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	return dir, nodes
}

type cliResult struct {
	code           int
	stdout, stderr string
}

func cli(t *testing.T, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(t.Context(), args, &out, &errb)
	return cliResult{code, out.String(), errb.String()}
}

func (r cliResult) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// TestPlanApplyPlan: plan shows changes (exit 2 with -detailed-exitcode),
// apply converges, and the next plan is empty (exit 0). The password is in
// no output, log line or plan file along the way.
func TestPlanApplyPlan(t *testing.T) {
	dir, nodes := fabric(t)
	before := nxosdrv.Body(nodes["leaf1"].Device().Running())
	planFile := filepath.Join(t.TempDir(), "x.plan")
	var outputs []string

	r := cli(t, "plan", "-detailed-exitcode", "-log-level", "debug", "-out", planFile, dir)
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code != 2 || !strings.Contains(r.stdout, "2 to change, 0 unchanged, 0 failed") {
		t.Fatalf("first plan:\n%s", r)
	}
	if got := nxosdrv.Body(nodes["leaf1"].Device().Running()); !bytes.Equal(got, before) {
		t.Error("plan changed the device")
	}
	for _, want := range []string{"random-detect minimum-threshold 150 kbytes", "no class-map type qos match-any BULK_OLD", "Scope: show running-config ipqos", "Disruptive: yes"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan output lacks %q", want)
		}
	}

	r = cli(t, "apply", "-auto-approve", "-log-level", "debug", dir)
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code != 0 || !strings.Contains(r.stdout, "2 applied, 0 unchanged, 0 failed") {
		t.Fatalf("apply:\n%s", r)
	}

	r = cli(t, "plan", "-detailed-exitcode", "-json", dir)
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code != 0 || !strings.Contains(r.stdout, `"unchanged": 2`) {
		t.Fatalf("plan after apply:\n%s", r)
	}

	// The plan saved before the apply is now stale.
	r = cli(t, "apply", planFile)
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code != 1 || !strings.Contains(r.stdout, "leaf1: running config changed since the plan was made") {
		t.Fatalf("stale plan not refused by name:\n%s", r)
	}
	saved, err := os.ReadFile(planFile)
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, string(saved))
	for i, o := range outputs {
		if strings.Contains(o, testPassword) {
			t.Errorf("output %d shows the password:\n%s", i, o)
		}
	}
}

// TestApplySavedPlan: a fresh saved plan applies exactly its changes.
func TestApplySavedPlan(t *testing.T) {
	dir, _ := fabric(t)
	planFile := filepath.Join(t.TempDir(), "x.plan")
	if r := cli(t, "plan", "-target", "leaf2", "-out", planFile, dir); r.code != 0 {
		t.Fatalf("plan:\n%s", r)
	}
	r := cli(t, "apply", planFile)
	if r.code != 0 || !strings.Contains(r.stdout, "leaf2            nxos       applied") || strings.Contains(r.stdout, "leaf1 ") {
		t.Fatalf("apply of a saved plan for leaf2:\n%s", r)
	}
	if r := cli(t, "plan", "-detailed-exitcode", "-target", "leaf2", dir); r.code != 0 {
		t.Errorf("leaf2 not converged:\n%s", r)
	}
}

// TestApplyFailure: a device that rejects a command is rolled back and
// named, the other carries on; with -fail-fast no other device starts.
func TestApplyFailure(t *testing.T) {
	for _, failFast := range []bool{false, true} {
		t.Run(fmt.Sprintf("fail-fast=%v", failFast), func(t *testing.T) {
			dir, nodes := fabric(t)
			before := nxosdrv.Body(nodes["leaf1"].Device().Running())
			nodes["leaf1"].Faults().Update(func(f *device.Faults) { f.RejectPattern = "^random-detect" })
			args := []string{"apply", "-auto-approve", "-parallelism", "1", dir}
			if failFast {
				args = append([]string{"apply", "-fail-fast"}, args[1:]...)
			}
			r := cli(t, args...)
			if r.code != 1 || !strings.Contains(r.stdout, "leaf1            nxos       rolled back") || !strings.Contains(r.stdout, `leaf1 rejected "random-detect`) {
				t.Fatalf("apply with a rejecting leaf1:\n%s", r)
			}
			if got := nxosdrv.Body(nodes["leaf1"].Device().Running()); !bytes.Equal(got, before) {
				t.Errorf("leaf1 not back at its pre-apply config:\n%s", got)
			}
			leaf2 := "leaf2            nxos       applied"
			if failFast {
				leaf2 = "leaf2: not started"
			}
			if !strings.Contains(r.stdout, leaf2) {
				t.Errorf("leaf2: want %q:\n%s", leaf2, r)
			}
		})
	}
}

// TestHostKeyRefused: a device whose host key is not in known_hosts is
// refused unless -insecure-ignore-host-key.
func TestHostKeyRefused(t *testing.T) {
	dir, nodes := fabric(t)
	nodes["leaf2"].Faults().Update(func(f *device.Faults) { f.ChangeHostKey = true })
	r := cli(t, "plan", dir)
	if r.code != 1 || !strings.Contains(r.stdout, "leaf2: host key of 127.0.0.1") || !strings.Contains(r.stdout, "1 to change, 0 unchanged, 1 failed") {
		t.Fatalf("changed host key not refused:\n%s", r)
	}
	if r := cli(t, "plan", "-detailed-exitcode", dir); r.code != 1 {
		t.Errorf("-detailed-exitcode with a failed device: exit %d, want 1", r.code)
	}
	if r := cli(t, "plan", "-insecure-ignore-host-key", dir); r.code != 0 {
		t.Errorf("-insecure-ignore-host-key:\n%s", r)
	}
}

// TestApplyNeedsApproval: without a terminal, apply needs -auto-approve or
// a saved plan, and changes nothing.
func TestApplyNeedsApproval(t *testing.T) {
	dir, nodes := fabric(t)
	before := nxosdrv.Body(nodes["leaf1"].Device().Running())
	r := cli(t, "apply", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "-auto-approve") {
		t.Fatalf("apply without approval:\n%s", r)
	}
	if got := nxosdrv.Body(nodes["leaf1"].Device().Running()); !bytes.Equal(got, before) {
		t.Error("apply without approval changed the device")
	}
}

// TestPlanLab: plan -lab starts the lab for the inventory and plans it.
func TestPlanLab(t *testing.T) {
	dir, _ := fabric(t)
	r := cli(t, "apply", "-lab", "-auto-approve", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "2 applied") || !strings.Contains(r.stdout, "Plan after apply: 0 to change, 2 unchanged, 0 failed") {
		t.Fatalf("apply -lab:\n%s", r)
	}
}

// TestPlanFlags: bad flags and -help.
func TestPlanFlags(t *testing.T) {
	if r := cli(t, "plan", "-help"); r.code != 0 || !strings.Contains(r.stdout, "-detailed-exitcode") || !strings.Contains(r.stdout, "Examples:") {
		t.Errorf("plan -help:\n%s", r)
	}
	if r := cli(t, "apply", "-help"); r.code != 0 || !strings.Contains(r.stdout, "-auto-approve") {
		t.Errorf("apply -help:\n%s", r)
	}
	if r := cli(t, "plan", "-parallelism", "0", "."); r.code != 1 {
		t.Errorf("-parallelism 0:\n%s", r)
	}
	if r := cli(t, "plan", "-bogus"); r.code != 1 {
		t.Errorf("bad flag:\n%s", r)
	}
	dir, _ := fabric(t)
	if r := cli(t, "plan", "-target", "nope", dir); r.code != 1 || !strings.Contains(r.stderr, `"nope" matches no device`) {
		t.Errorf("unknown target:\n%s", r)
	}
}

// TestPlanGolden: with -golden, a device whose rendering differs from its
// approved file is refused by name; an approved one is planned.
func TestPlanGolden(t *testing.T) {
	dir, _ := fabric(t)
	approved := t.TempDir()
	if r := cli(t, "render", "-golden", approved, "-update", dir); r.code != 0 {
		t.Fatalf("render -golden -update:\n%s", r)
	}
	if err := os.WriteFile(filepath.Join(approved, "leaf2.cfg"), []byte("reviewed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := cli(t, "plan", "-golden", approved, "-json", dir)
	if r.code != 1 || !strings.Contains(r.stdout, `"format_version": "1"`) || !strings.Contains(r.stdout, "leaf2: rendering differs from the approved golden file") {
		t.Fatalf("plan -golden:\n%s", r)
	}
	if !strings.Contains(r.stdout, `"change": 1`) || !strings.Contains(r.stdout, `"failed": 1`) {
		t.Errorf("leaf1 not planned:\n%s", r)
	}
}
