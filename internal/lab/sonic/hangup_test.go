package sonic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// TestDropSessionAfter: an apply-patch whose session drops after change n
// leaves GCU's first n sorted changes written and nothing after them: no
// verification, no success line, no prompt (the session is over); the
// fault is used once, and a rollback to the checkpoint taken before puts
// the config back byte for byte. A rollback killed part-way is finished
// by the next one; a dry run does not set the fault off.
func TestDropSessionAfter(t *testing.T) {
	d := newTestDevice(t, nil)
	patch, _, changes := gcuChanges(t, d, "PFC_WD")
	before := string(d.Running())
	for _, n := range []int{0, 1, len(changes) / 2, len(changes), len(changes) + 3} {
		t.Run(fmt.Sprint("after ", n), func(t *testing.T) {
			want := copyDB(d.db)
			for _, c := range changes[:min(n, len(changes))] {
				want = c.apply(want)
			}
			s := d.NewSession("admin", &device.Faults{})
			upload(t, s, "/tmp/p.json", patch)
			transcript(s, "sudo config checkpoint pre")
			d.DropSessionAfter(n)
			out, done := s.Handle("sudo config apply-patch /tmp/p.json")
			if !done {
				t.Error("the session goes on after its hangup")
			}
			if strings.Contains(out, msgPatchOK) || strings.Contains(out, "verifying patch updates") {
				t.Errorf("a command killed part-way reports success:\n%s", out)
			}
			if got := strings.Count(out, "Patch Applier:   * "); got != min(n, len(changes)) {
				t.Errorf("GCU logged %d changes, want the %d it applied:\n%s", got, min(n, len(changes)), out)
			}
			if got := d.DB(); !equalDB(got, want) {
				t.Errorf("want exactly the first %d of %d changes written", n, len(changes))
			}
			if out, _ := s.Handle("sudo config checkpoint other"); out != "" {
				t.Errorf("the dropped session still runs commands: %q", out)
			}
			// The next session works on what is left, without the fault.
			s = d.NewSession("admin", &device.Faults{})
			if out := transcript(s, "sudo config rollback pre"); !strings.HasSuffix(out, msgRollbackOK+"\n") {
				t.Fatalf("rollback:\n%s", out)
			}
			if got := string(d.Running()); got != before {
				t.Error("rollback did not restore the config byte for byte")
			}
			transcript(s, "sudo config delete-checkpoint pre")
		})
	}
	// A rollback dies the same way, after its first change; the next
	// rollback goes on from what it left and restores the config.
	t.Run("rollback", func(t *testing.T) {
		s := d.NewSession("admin", &device.Faults{})
		upload(t, s, "/tmp/p.json", patch)
		transcript(s, "sudo config checkpoint pre", "sudo config apply-patch /tmp/p.json")
		applied := d.DB()
		d.DropSessionAfter(1)
		if out, done := s.Handle("sudo config rollback pre"); !done || strings.Contains(out, msgRollbackOK) {
			t.Fatalf("the rollback did not die:\n%s", out)
		}
		if got := d.DB(); equalDB(got, applied) || string(d.Running()) == before {
			t.Fatal("want the rollback's first change written, and only it")
		}
		s = d.NewSession("admin", &device.Faults{})
		if out := transcript(s, "sudo config rollback pre"); !strings.HasSuffix(out, msgRollbackOK+"\n") || string(d.Running()) != before {
			t.Fatalf("the second rollback did not restore the config:\n%s", out)
		}
		transcript(s, "sudo config delete-checkpoint pre")
	})
	// A dry run is not the command that dies: the fault waits for a
	// write.
	s := d.NewSession("admin", &device.Faults{})
	upload(t, s, "/tmp/p.json", patch)
	d.DropSessionAfter(1)
	if out, done := s.Handle("sudo config apply-patch --dry-run /tmp/p.json"); done || !strings.Contains(out, msgPatchOK) {
		t.Fatalf("dry run under the fault:\n%s", out)
	}
	if out, done := s.Handle("sudo config apply-patch /tmp/p.json"); !done || strings.Contains(out, msgPatchOK) {
		t.Fatalf("the write after the dry run did not die:\n%s", out)
	}
	if got := d.DB(); !equalDB(got, changes[0].apply(copyDB(mustParse(t, before)))) {
		t.Error("want the first change written")
	}
}

func mustParse(t *testing.T, text string) db {
	t.Helper()
	d, err := parseDB([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return d
}
