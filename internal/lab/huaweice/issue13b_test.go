package huaweice

import (
	"strings"
	"testing"
)

// The drop-profile lines of V300R023's WRED and ECN examples (command
// pages "color" and "ecn", Example_for_Configuring_WRED.md and
// Example_for_Configuring_ECN.md, WheaterW/INTA-project @ 9308062d):
// thresholds in percent of the queue and in bytes, per colour, shown
// after the ECN line in the order green, yellow, red, each undone on its
// own; a low limit above the high one, a share above 100 and a
// discard-percentage 0 are refused with the device's errors, a colour the
// page does not list as an unknown command.
func TestDropProfileColoursAndPercent(t *testing.T) {
	d := newTestDevice(t, "")
	s := typeAll(t, d,
		"drop-profile dp1",
		"color red low-limit 40 high-limit 60 discard-percentage 40",
		"color yellow buffer-size low-limit 102400 high-limit 1048576 discard-percentage 20",
		"ecn low-limit 50 high-limit 80 discard-percentage 30",
		"color green low-limit 80 high-limit 100 discard-percentage 10",
		"quit",
		"commit",
	)
	want := "#\ndrop-profile dp1\n ecn low-limit 50 high-limit 80 discard-percentage 30\n" +
		" color green low-limit 80 high-limit 100 discard-percentage 10\n" +
		" color yellow buffer-size low-limit 102400 high-limit 1048576 discard-percentage 20\n" +
		" color red low-limit 40 high-limit 60 discard-percentage 40\n#\n"
	if run := string(d.Running()); !strings.Contains(run, want) {
		t.Errorf("running config lacks\n%s\nin\n%s", want, run)
	}
	for line, want := range map[string]string{
		"ecn low-limit 80 high-limit 50 discard-percentage 30":           "Error: Wrong parameter found at '^' position.",
		"color yellow low-limit 60 high-limit 101 discard-percentage 20": "Error: Wrong parameter found at '^' position.",
		"color red low-limit 40 high-limit 60 discard-percentage 0":      "Error: Wrong parameter found at '^' position.",
		"color blue low-limit 40 high-limit 60 discard-percentage 10":    "Error: Unrecognized command found at '^' position.",
	} {
		if out := transcript(s, "drop-profile dp1", line, "quit"); !strings.Contains(out, want) {
			t.Errorf("%q: %q, want %q", line, out, want)
		}
	}
	typeAll(t, d, "drop-profile dp1", "undo color yellow", "quit", "commit")
	run := string(d.Running())
	if strings.Contains(run, "color yellow") || !strings.Contains(run, " color red low-limit 40") {
		t.Errorf("undo color yellow:\n%s", run)
	}
}

// The distance-based headroom check of V300R023's buffer optimization
// example (command page "long-distance mode"): shown in the interface
// before its PFC line, undone only by the undo naming its level, a level
// the page does not list refused.
func TestLongDistanceMode(t *testing.T) {
	d := newTestDevice(t, "", WithModel("CE8850-HAM")) // family A: PFC without a headroom pool
	s := typeAll(t, d, "interface 100ge 1/0/1", "dcb pfc enable mode manual", "long-distance mode level-100", "quit", "commit")
	want := "#\ninterface 100GE1/0/1\n long-distance mode level-100\n dcb pfc enable mode manual\n#\n"
	if run := string(d.Running()); !strings.Contains(run, want) {
		t.Errorf("running config lacks\n%s\nin\n%s", want, run)
	}
	if out := transcript(s, "interface 100ge 1/0/1", "long-distance mode level-90", "quit"); !strings.Contains(out, "Error:") {
		t.Errorf("level-90 taken:\n%s", out)
	}
	typeAll(t, d, "interface 100ge 1/0/1", "undo long-distance mode level-10", "quit", "commit")
	if run := string(d.Running()); !strings.Contains(run, " long-distance mode level-100\n") {
		t.Errorf("undo of another level removed the line:\n%s", run)
	}
	typeAll(t, d, "interface 100ge 1/0/1", "undo long-distance mode level-100", "quit", "commit")
	if run := string(d.Running()); strings.Contains(run, "long-distance") {
		t.Errorf("undo left the line:\n%s", run)
	}
}

// NPCC and iQCN of V300R023's lossless-queue examples (their command
// pages, family A only): shown in the interface and under ai-service in
// the scripts' order whatever the typing order, ai-service before
// port-group; queue 6 and an interval outside 200–600 µs refused; undo
// iqcn enable in the iQCN view deletes the iQCN configuration; a family B
// switch does not know the commands.
func TestNPCCAndIQCN(t *testing.T) {
	d := newTestDevice(t, "", WithModel("CE8850-HAM"))
	s := typeAll(t, d,
		"ai-service", "iqcn", "assign queue 4", "rpg-time-reset 400", "iqcn enable", "quit", "npcc", "assign queue 3", "quit", "quit",
		"interface 100ge 1/0/1", "trust dscp", "iqcn enable", "npcc enable", "quit",
		"port-group all_using", "group-member 100ge 1/0/1 to 100ge 1/0/2", "quit",
		"commit")
	run := string(d.Running())
	for _, want := range []string{
		"#\ninterface 100GE1/0/1\n iqcn enable\n npcc enable\n trust dscp\n#\n",
		"#\nai-service\n #\n npcc\n  assign queue 3\n #\n iqcn\n  iqcn enable\n  assign queue 4\n  rpg-time-reset 400\n#\nport-group all_using\n",
	} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks\n%s\nin\n%s", want, run)
		}
	}
	for _, line := range []string{"assign queue 6", "rpg-time-reset 100"} {
		if out := transcript(s, "ai-service", "iqcn", line, "quit", "quit"); !strings.Contains(out, "Error:") {
			t.Errorf("%q taken:\n%s", line, out)
		}
	}
	typeAll(t, d, "ai-service", "iqcn", "undo iqcn enable", "quit", "quit", "commit")
	if run := string(d.Running()); strings.Contains(run, "rpg-time-reset") || strings.Contains(run, "assign queue 4") || !strings.Contains(run, " iqcn\n") {
		t.Errorf("undo iqcn enable:\n%s", run)
	}
	b := newTestDevice(t, "")
	if out := transcript(b.NewSession("admin", nil), "system-view", "interface 100ge 1/0/1", "npcc enable"); !strings.Contains(out, "Error: Unrecognized command") {
		t.Errorf("family B took npcc enable:\n%s", out)
	}
}
