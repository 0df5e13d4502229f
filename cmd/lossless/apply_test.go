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
