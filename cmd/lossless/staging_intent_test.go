package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/lab/device"
)

// withRollout writes a rollout block into the intent directory dir.
func withRollout(t *testing.T, dir, block string) {
	t.Helper()
	if block == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "rollout.hcl"), []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
}

// configBody is an NX-OS show running-config without the header lines
// that give the time of the read and of the last change: the restore is a
// change, so those differ while the config is byte for byte the same.
func configBody(running []byte) string {
	var b strings.Builder
	for line := range strings.Lines(string(running)) {
		if !strings.HasPrefix(line, "!Time:") && !strings.HasPrefix(line, "!Running configuration last done at:") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestApplyGateFromIntent: leaf2, changed in the batch after the leaf1
// canary, shows climbing counters (a pause storm of 250,000 frames, 10,000
// drops and one watchdog event per read). A gate limit written in the
// intent's rollout block trips that rollout exactly as the same limit
// given by flag does: the batch is put back byte for byte and the canary
// stays applied. Intent limits above the climb let it pass, so the
// intent's values, not the flag defaults, are what the gate uses; a flag
// given on the command line wins over the intent.
func TestApplyGateFromIntent(t *testing.T) {
	const tripPause, tripWatchdog = "PFC pause frames", "PFC watchdog events"
	const loose = `rollout {
  gate {
    max_pause    = 1e6
    max_drops    = 1e6
    max_watchdog = 5
  }
}
`
	for _, tc := range []struct {
		name    string
		rollout string
		flags   []string
		trips   []string // counters named in the stop message; none: the rollout completes
		notTrip []string
	}{
		{name: "flag", flags: []string{"-gate", "-gate-max-pause", "1000"}, trips: []string{tripPause, tripWatchdog}},
		{name: "intent", rollout: "rollout {\n  gate {\n    max_pause = 1000\n  }\n}\n", trips: []string{tripPause, tripWatchdog}},
		{name: "intent limits above the climb", rollout: loose},
		{name: "flag wins over the intent", rollout: loose, flags: []string{"-gate-max-watchdog", "0"}, trips: []string{tripWatchdog}, notTrip: []string{tripPause}},
		{name: "gate=false turns the intent's gate off", rollout: "rollout {\n  gate {}\n}\n", flags: []string{"-gate=false"}},
		{name: "no gate", flags: []string{"-gate-max-pause", "1000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, nodes := fabric(t)
			withRollout(t, dir, tc.rollout)
			nodes["leaf2"].Faults().Update(func(f *device.Faults) { f.ClimbAfterChange = true })
			before := configBody(nodes["leaf2"].Device().Running())
			args := append([]string{"apply", "-auto-approve", "-canary", "1", "-order", "role:leaf"}, tc.flags...)
			r := cli(t, append(args, dir)...)
			if len(tc.trips) == 0 {
				if r.code != 0 || !strings.Contains(r.stdout, "2 applied, 0 unchanged, 0 failed") || strings.Contains(r.stdout, "health gate tripped") {
					t.Fatalf("want the rollout to complete:\n%s", r)
				}
				return
			}
			if r.code != 1 || !strings.Contains(r.stdout, "batch 1     1 device(s)") || !strings.Contains(r.stdout, "health gate tripped: 1 restored") ||
				!strings.Contains(r.stderr, "stopped: health gate tripped after batch 1") || !strings.Contains(r.stderr, "leaf2 Ethernet1/1") {
				t.Fatalf("want the gate to trip after batch 1 and restore leaf2:\n%s", r)
			}
			for _, s := range tc.trips {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stop message does not name %q:\n%s", s, r.stderr)
				}
			}
			for _, s := range tc.notTrip {
				if strings.Contains(r.stderr, s) {
					t.Errorf("stop message names %q, which is within the intent's limit:\n%s", s, r.stderr)
				}
			}
			if after := configBody(nodes["leaf2"].Device().Running()); after != before {
				t.Errorf("leaf2 not back to its config before the batch (-before +after):\n%s", cmp.Diff(before, after))
			}
			if r := cli(t, "plan", "-target", "leaf1", dir); r.code != 0 || !strings.Contains(r.stdout, "0 to change") {
				t.Errorf("canary leaf1 not left applied:\n%s", r)
			}
		})
	}
}

// TestApplyAuditLogFromIntent: the rollout block's audit_log, relative to
// the intent directory (its directory created), makes a plain apply write
// two audit lines per device there (its start, before the first command,
// then its result); -audit FILE wins over it, and -lab never writes it.
func TestApplyAuditLogFromIntent(t *testing.T) {
	const block = "rollout {\n  audit_log = \"audit/lossless.jsonl\"\n}\n"
	t.Run("intent", func(t *testing.T) {
		dir, _ := fabric(t)
		withRollout(t, dir, block)
		r := cli(t, "apply", "-auto-approve", "-operator", "alice", dir)
		if r.code != 0 || !strings.Contains(r.stdout, "2 applied, 0 unchanged, 0 failed") {
			t.Fatalf("apply:\n%s", r)
		}
		log := filepath.Join(dir, "audit", "lossless.jsonl")
		es, err := audit.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var devs []string
		for _, e := range es {
			devs = append(devs, e.Device+" "+e.Result+" "+e.Operator)
		}
		// One batch applies both devices at once, in either order.
		slices.Sort(devs)
		if got := strings.Join(devs, ", "); got != "leaf1 applied alice, leaf1 started alice, leaf2 applied alice, leaf2 started alice" {
			t.Errorf("audit entries: %s", got)
		}
		if r := cli(t, "history", "-device", "leaf2", log); r.code != 0 || strings.Count(r.stdout, " apply ") != 2 {
			t.Errorf("history of the intent's audit log:\n%s", r)
		}
	})
	t.Run("flag wins", func(t *testing.T) {
		dir, _ := fabric(t)
		withRollout(t, dir, block)
		log := filepath.Join(t.TempDir(), "flag.jsonl")
		if r := cli(t, "apply", "-auto-approve", "-audit", log, dir); r.code != 0 {
			t.Fatalf("apply -audit:\n%s", r)
		}
		if es, err := audit.ReadFile(log); err != nil || len(es) != 4 {
			t.Errorf("-audit file: %d entries, %v", len(es), err)
		}
		if _, err := os.Stat(filepath.Join(dir, "audit")); !os.IsNotExist(err) {
			t.Errorf("the intent's audit log was written although -audit was given: %v", err)
		}
	})
	t.Run("lab", func(t *testing.T) {
		dir, _ := fabric(t)
		withRollout(t, dir, block)
		if r := cli(t, "apply", "-lab", "-auto-approve", dir); r.code != 0 || !strings.Contains(r.stdout, "2 applied") {
			t.Fatalf("apply -lab:\n%s", r)
		}
		if _, err := os.Stat(filepath.Join(dir, "audit")); !os.IsNotExist(err) {
			t.Errorf("apply -lab wrote the intent's audit log: %v", err)
		}
	})
}

// TestApplyExampleRollout: examples/ai-fabric's rollout block turns the
// health gates on for a plain apply -lab (one gated batch of all eight
// devices, every vendor's counters read), and -lab leaves its audit_log
// unwritten, so that trying the example changes nothing in it.
func TestApplyExampleRollout(t *testing.T) {
	const example = "../../examples/ai-fabric"
	if r := cli(t, "apply", "-help"); r.code != 0 || !strings.Contains(r.stdout, "The intent's rollout block gives the defaults of -audit") || !strings.Contains(r.stdout, "a flag\ngiven on the command line wins over it") {
		t.Errorf("apply -help does not say the intent's rollout block gives the defaults and a flag wins:\n%s", r)
	}
	r := cli(t, "apply", "-lab", "-auto-approve", "-log-level", "warn", example)
	if r.code != 0 || !strings.Contains(r.stdout, "batch 1     8 device(s)") || !strings.Contains(r.stdout, "8 applied, 0 unchanged, 0 failed") {
		t.Fatalf("apply -lab on the example:\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(example, "audit")); !os.IsNotExist(err) {
		t.Errorf("apply -lab wrote the example's audit log: %v", err)
	}
}
