package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	nxosdrv "github.com/lossless-net/lossless/vendors/nxos"
)

// TestApplyPrompt: without -auto-approve, apply shows the plan, asks on
// the terminal, and applies on "yes" only; any other answer cancels it
// with the device unchanged and the lock released.
func TestApplyPrompt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer string
		code   int
		want   string // on stdout ("yes") or stderr (otherwise)
	}{
		{"yes", "yes\n", 0, "2 applied, 0 unchanged, 0 failed"},
		{"no", "no\n", 1, "Apply cancelled."},
		{"y", "y\n", 1, "Apply cancelled."},
		{"end of input", "", 1, "Apply cancelled."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, nodes := fabric(t)
			before := nxosdrv.Body(nodes["leaf1"].Device().Running())
			var out, errb bytes.Buffer
			code := applyWith(t.Context(), []string{dir}, &out, &errb, prompt{in: strings.NewReader(tc.answer), terminal: true})
			r := cliResult{code, out.String(), errb.String()}
			if r.code != tc.code || !strings.Contains(r.stderr, "Apply these changes to 2 device(s)? Only 'yes' is accepted: ") {
				t.Fatalf("apply answering %q:\n%s", tc.answer, r)
			}
			if !strings.Contains(r.stdout, "# leaf1 (nxos): to change") {
				t.Errorf("the plan was not shown before the question:\n%s", r)
			}
			changed := !bytes.Equal(nxosdrv.Body(nodes["leaf1"].Device().Running()), before)
			if tc.code == 0 {
				if !strings.Contains(r.stdout, tc.want) || !changed {
					t.Errorf("want leaf1 applied and %q:\n%s", tc.want, r)
				}
			} else if !strings.Contains(r.stderr, tc.want) || changed || strings.Contains(r.stdout, "applied") {
				t.Errorf("want nothing applied and %q:\n%s", tc.want, r)
			}
			if _, err := os.Stat(filepath.Join(dir, ".lossless.lock")); !os.IsNotExist(err) {
				t.Errorf("lock left behind: %v", err)
			}
		})
	}
}

// TestApplyRequireAtomic: -require-atomic sends nothing to a device whose
// push is not atomic on the device (SONiC's apply-patch), names why, and
// applies the others; the plan says which devices are not crash-atomic.
func TestApplyRequireAtomic(t *testing.T) {
	r := cli(t, "apply", "-lab", "-auto-approve", "-require-atomic", "-target", "leaf2", "-target", "leaf4", "../../examples/ai-fabric")
	if r.code != 1 {
		t.Fatalf("want exit 1 (leaf4 refused):\n%s", r)
	}
	for _, want := range []string{
		"Crash-atomic: no, config apply-patch applies the patch operation by operation",
		"leaf4: refused by -require-atomic: a push to this device is not atomic on the device: config apply-patch",
		"; nothing was sent",
		"1 applied, 0 unchanged, 1 failed",
		"Plan after apply: 1 to change, 1 unchanged, 0 failed",
	} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("output lacks %q:\n%s", want, r)
		}
	}
}

// TestApplySaysWhatItWeakens: a -confirm-timeout a vendor's devices round
// or clamp is said once per vendor, and each insecure flag is said.
func TestApplySaysWhatItWeakens(t *testing.T) {
	r := cli(t, "apply", "-lab", "-auto-approve", "-confirm-timeout", "1500ms", "-insecure-ignore-host-key", "-target", "leaf2", "-target", "spine2", "-target", "leaf3", "../../examples/ai-fabric")
	if r.code != 0 {
		t.Fatalf("apply:\n%s", r)
	}
	for _, want := range []string{
		"lossless apply: warning: eos devices run a commit timer of 2s, not the -confirm-timeout 1.5s asked for\n",
		"lossless apply: warning: huawei-ce devices run a commit timer of 1m0s, not the -confirm-timeout 1.5s asked for\n",
		"lossless: warning: -insecure-ignore-host-key: SSH host keys are not checked",
	} {
		if strings.Count(r.stderr, want) != 1 {
			t.Errorf("stderr has %q %d times, want once:\n%s", want, strings.Count(r.stderr, want), r.stderr)
		}
	}
}
