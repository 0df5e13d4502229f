package nxos_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/nxos"
)

func newDevice(t *testing.T, seed string) *nxos.Device {
	t.Helper()
	var b []byte
	if seed != "" {
		b = []byte(seed)
	}
	d, err := nxos.New("switch", b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// run types lines and returns everything printed, prompts included, as a
// terminal would show it.
func run(s device.Session, lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(s.Prompt() + l + "\n")
		out, _ := s.Handle(l)
		b.WriteString(out)
	}
	b.WriteString(s.Prompt())
	return b.String()
}

// body strips the show running-config header (nxos.md §1b: three !
// lines, a blank, the version line and a blank).
func body(t *testing.T, show string) string {
	t.Helper()
	lines := strings.SplitAfter(show, "\n")
	if len(lines) < 6 || !strings.HasPrefix(lines[0], "!Command: ") ||
		!strings.HasPrefix(lines[1], "!Running configuration last done at: ") ||
		!strings.HasPrefix(lines[2], "!Time: ") || lines[3] != "\n" || !strings.HasPrefix(lines[4], "version ") {
		t.Fatalf("show output lacks the NX-OS header:\n%s", show)
	}
	rest := lines[5:]
	if len(rest) > 0 && strings.HasPrefix(rest[0], "hostname ") {
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0] == "\n" {
		rest = rest[1:]
	}
	return strings.Join(rest, "")
}

// TestPushTranscript replays reference/nxos.md §1a: every prompt and
// every line of output is what the reference shows.
func TestPushTranscript(t *testing.T) {
	want := readFile(t, "testdata/push.txt")
	var cmds []string
	for _, l := range strings.Split(strings.TrimSpace(want), "\n") {
		if _, cmd, ok := strings.Cut(l, "# "); ok && strings.HasPrefix(l, "switch") {
			cmds = append(cmds, cmd)
		}
	}
	d := newDevice(t, "")
	got := run(d.NewSession("admin", nil), cmds...)
	// The reference writes each prompt with its trailing space and the
	// final prompt without.
	if diff := cmp.Diff(strings.TrimSpace(want), strings.TrimSpace(got)); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
}

// TestCanonicalConfig types the canonical block of §1 in config mode and
// reads it back with show running-config ipqos, as the reference shows it.
func TestCanonicalConfig(t *testing.T) {
	canon := readFile(t, "testdata/canonical.txt")
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	lines := []string{"configure terminal"}
	for _, l := range strings.Split(canon, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	lines = append(lines, "end")
	for _, l := range lines {
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter configuration") {
			t.Fatalf("%q refused:\n%s", l, out)
		}
	}
	out, _ := s.Handle("show running-config ipqos")
	if !strings.HasPrefix(out, "!Command: show running-config ipqos\n") {
		t.Errorf("header: %q", strings.SplitN(out, "\n", 2)[0])
	}
	if diff := cmp.Diff(canon, body(t, out)); diff != "" {
		t.Errorf("show running-config ipqos (-reference +lab):\n%s", diff)
	}
	// The running config seeds an identical device.
	d2 := newDevice(t, string(d.Running()))
	if diff := cmp.Diff(body(t, string(d.Running())), body(t, string(d2.Running()))); diff != "" {
		t.Errorf("seeded from its own running config (-want +got):\n%s", diff)
	}
	// show running-config interface prints the range one by one (§1b).
	out, _ = s.Handle("sh run int e1/1-2")
	wantIf := "interface Ethernet1/1\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION\n\n" +
		"interface Ethernet1/2\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input QOS_CLASSIFICATION\n"
	if !strings.HasPrefix(out, "!Command: show running-config interface Ethernet1/1-2\n") {
		t.Errorf("header: %q", strings.SplitN(out, "\n", 2)[0])
	}
	if diff := cmp.Diff(wantIf, body(t, out)); diff != "" {
		t.Errorf("show running-config interface (-want +got):\n%s", diff)
	}
}

// TestErrors checks every error example of nxos.md §4 and the removal
// rules of §3, with the caret under the bad token.
func TestErrors(t *testing.T) {
	canon := readFile(t, "testdata/canonical.txt")
	// bad is the token the caret points at ("$" for the line's last
	// character); "" means no caret line.
	cases := []struct {
		name  string
		setup []string
		line  string
		bad   string
		want  string
	}{
		{"incomplete wr (the §4 sample)", nil, "wr", "$", "% Incomplete command at '^' marker."},
		{"unknown keyword", nil, "bogus command", "bogus", "% Invalid command at '^' marker."},
		{"unknown second keyword", []string{"class-map type qos match-any X"}, "match bogus 3", "bogus", "% Invalid command at '^' marker."},
		{"incomplete random-detect", []string{"policy-map type queuing Q", "class type queuing c-out-8q-q3"},
			"random-detect minimum-threshold 150", "$", "% Incomplete command at '^' marker."},
		{"qos-group out of range", []string{"policy-map type qos P", "class class-default"}, "set qos-group 9", "9",
			"% Invalid number, range is (0:7) at '^' marker."},
		{"ambiguous abbreviation", nil, "p type qos X", "p", "% Ambiguous command at '^' marker."},
		{"ambiguous choice", []string{"interface Ethernet1/1"}, "priority-flow-control mode o", "o", "% Ambiguous command at '^' marker."},
		{"bad range token", nil, "interface Ethernet1/5-3", "Ethernet1/5-3", "Invalid range at '^' marker."},
		{"dscp out of range", []string{"class-map type qos match-any X"}, "match dscp 64", "64", "% Invalid number, range is (0:63) at '^' marker."},
		{"mtu out of range", []string{"policy-map type network-qos N", "class type network-qos c-8q-nq3"}, "mtu 9217", "9217",
			"% Invalid number, range is (576:9216) at '^' marker."},
		{"ecn minimum above maximum", []string{"policy-map type queuing Q", "class type queuing c-out-8q-q3"},
			"random-detect minimum-threshold 3000 kbytes maximum-threshold 150 kbytes drop-probability 7 weight 0 ecn", "random-detect",
			"% Invalid parameter detected at '^' marker."},
		{"queuing class names are fixed", []string{"policy-map type queuing Q"}, "class type queuing my-class", "my-class",
			"% Invalid command at '^' marker."},
		{"delete attached policy-map", canonLines(canon), "no policy-map type queuing QOS_EGRESS_PORT", "",
			"ERROR: Policy-map is being referenced"},
		{"no alone", nil, "no", "$", "% Incomplete command at '^' marker."},
		{"delete class-map in use", canonLines(canon), "no class-map type qos match-any ROCEv2", "",
			"ERROR: Class-map is being referenced"},
		{"class-map match type changed in place", []string{"class-map type qos match-any X", "match dscp 10"}, "class-map type qos match-all X", "match-all",
			"% Invalid parameter detected at '^' marker."},
		{"class-map without a match type is match-all", []string{"class-map type qos match-any X"}, "class-map type qos X", "X",
			"% Invalid parameter detected at '^' marker."},
		{"class of an undefined class-map", []string{"policy-map type qos P"}, "class NOPE", "",
			"ERROR: undefined class"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDevice(t, "")
			s := d.NewSession("admin", nil)
			for _, l := range append([]string{"configure terminal"}, c.setup...) {
				if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
					t.Fatalf("setup %q: %s", l, out)
				}
			}
			before := string(d.Checkpoint())
			prompt := s.Prompt()
			got, _ := s.Handle(c.line)
			want := c.want + "\n"
			switch c.bad {
			case "":
			case "$":
				want = strings.Repeat(" ", len(prompt)+len(c.line)-1) + "^\n" + want
			default:
				want = strings.Repeat(" ", len(prompt)+tokenPos(c.line, c.bad)) + "^\n" + want
			}
			if got != want {
				t.Errorf("%s%s\ngot:\n%s\nwant:\n%s", prompt, c.line, got, want)
			}
			if after := string(d.Checkpoint()); after != before {
				t.Errorf("a refused line changed the config:\n%s", cmp.Diff(before, after))
			}
		})
	}
}

func canonLines(canon string) []string {
	var out []string
	for _, l := range strings.Split(canon, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// TestNegationAndDefaults covers no forms (§2, §3) and hidden defaults
// (§1b).
func TestNegationAndDefaults(t *testing.T) {
	canon := readFile(t, "testdata/canonical.txt")
	d := newDevice(t, canon)
	s := d.NewSession("admin", nil)
	// The TME teardown of §3 removes everything.
	teardown := []string{
		"configure terminal",
		"interface Ethernet1/1-2",
		"no priority-flow-control mode on",
		"no priority-flow-control watch-dog-interval on",
		"no service-policy type qos input QOS_CLASSIFICATION",
		"exit",
		"no priority-flow-control watch-dog-interval on",
		"system qos",
		"no service-policy type queuing output QOS_EGRESS_PORT",
		"no service-policy type network-qos qos_network",
		"exit",
		"no policy-map type queuing QOS_EGRESS_PORT",
		"no policy-map type network-qos qos_network",
		"no policy-map type qos QOS_CLASSIFICATION",
		"no class-map type qos match-any CNP",
		"no class-map type qos match-any ROCEv2",
		"end",
	}
	for _, l := range teardown {
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
			t.Fatalf("%q: %s", l, out)
		}
	}
	out, _ := s.Handle("show running-config ipqos")
	if got := body(t, out); got != "" {
		t.Errorf("after teardown, ipqos shows:\n%s", got)
	}
	// Defaults are hidden; a value replaces the previous one.
	for _, l := range []string{
		"configure terminal", "policy-map type network-qos N", "class type network-qos c-8q-nq3",
		"mtu 9216", "mtu 1500", "pause pfc-cos 3",
		"interface Ethernet1/3", "priority-flow-control mode on", "priority-flow-control mode auto",
		"policy-map type queuing Q", "class type queuing c-out-8q-q3",
		"random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn",
		"random-detect minimum-threshold 300 kbytes maximum-threshold 300 kbytes drop-probability 100 weight 0 ecn",
		"bandwidth remaining percent 50", "bandwidth percent 20", "end",
	} {
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
			t.Fatalf("%q: %s", l, out)
		}
	}
	out, _ = s.Handle("show running-config ipqos")
	want := "policy-map type queuing Q\n  class type queuing c-out-8q-q3\n" +
		"    random-detect minimum-threshold 300 kbytes maximum-threshold 300 kbytes drop-probability 100 weight 0 ecn\n" +
		"    bandwidth percent 20\n\n" +
		"policy-map type network-qos N\n  class type network-qos c-8q-nq3\n    pause pfc-cos 3\n"
	if diff := cmp.Diff(want, body(t, out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestClassMapInUse: a class-map is deleted once no policy uses it, and
// only then can it come back with the other match type; typing it again
// with its own match type enters it (nxos.md §2, §3).
func TestClassMapInUse(t *testing.T) {
	d := newDevice(t, readFile(t, "testdata/canonical.txt"))
	s := d.NewSession("admin", nil)
	for _, l := range []string{
		"configure terminal",
		"class-map type qos match-any ROCEv2", "match dscp 24,26",
		"class-map type qos match-any CNP", "exit",
		"policy-map type qos QOS_CLASSIFICATION", "no class ROCEv2", "exit",
		"no class-map type qos match-any ROCEv2",
		"class-map type qos match-all ROCEv2", "match dscp 24,26", "exit",
		"policy-map type qos QOS_CLASSIFICATION", "class ROCEv2", "set qos-group 3", "end",
	} {
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
			t.Fatalf("%q: %s", l, out)
		}
	}
	got := string(d.Checkpoint())
	for _, want := range []string{"class-map type qos match-all ROCEv2\n  match dscp 24,26\n", "class-map type qos match-any CNP\n", "  class ROCEv2\n    set qos-group 3\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("running config lacks %q:\n%s", want, got)
		}
	}
}

// TestCheckpointRollback: rollback returns the running config to the
// checkpoint byte for byte (nxos.md §5), names are unique, at most 10.
func TestCheckpointRollback(t *testing.T) {
	canon := readFile(t, "testdata/canonical.txt")
	d := newDevice(t, canon)
	s := d.NewSession("admin", nil)
	before := body(t, string(d.Running()))
	steps := []struct{ line, want string }{
		{"checkpoint lossless-1", "Done\n"},
		{"checkpoint lossless-1", "ERROR: Checkpoint name lossless-1 already exists\n"},
		{"configure terminal", "Enter configuration commands, one per line. End with CNTL/Z.\n"},
		{"interface Ethernet1/1", ""},
		{"no service-policy type qos input QOS_CLASSIFICATION", ""},
		{"policy-map type queuing QOS_EGRESS_PORT", ""},
		{"class type queuing c-out-8q-q3", ""},
		{"bandwidth remaining percent 40", ""},
		{"no random-detect", ""},
		{"class-map type qos match-any NEW", ""},
		{"match dscp 10", ""},
		{"interface Ethernet1/9", ""},
		{"mtu 9216", ""},
		{"end", ""},
	}
	for _, st := range steps {
		if got, _ := s.Handle(st.line); got != st.want {
			t.Fatalf("%q: got %q, want %q", st.line, got, st.want)
		}
	}
	if body(t, string(d.Running())) == before {
		t.Fatal("edits did not change the running config")
	}
	if got, _ := s.Handle("rollback running-config checkpoint lossless-1"); got != "Rollback completed successfully.\n" {
		t.Fatalf("rollback: %q", got)
	}
	if diff := cmp.Diff(before, body(t, string(d.Running()))); diff != "" {
		t.Errorf("after rollback (-before +after):\n%s", diff)
	}
	if got, _ := s.Handle("rollback running-config checkpoint nope"); got != "ERROR: Checkpoint name nope does not exist\n" {
		t.Errorf("rollback to a missing checkpoint: %q", got)
	}
	if got, _ := s.Handle("no checkpoint lossless-1"); got != "" {
		t.Errorf("no checkpoint: %q", got)
	}
	if got, _ := s.Handle("checkpoint description before the change"); got != "Done\n" {
		t.Errorf("unnamed checkpoint: %q", got)
	}
	if got, _ := s.Handle("rollback running-config checkpoint user-checkpoint-1"); got != "Rollback completed successfully.\n" {
		t.Errorf("rollback to the generated name: %q", got)
	}
	s.Handle("clear checkpoint database")
	for i := range 10 {
		if got, _ := s.Handle("checkpoint c" + string(rune('0'+i))); got != "Done\n" {
			t.Fatalf("checkpoint %d: %q", i, got)
		}
	}
	if got, _ := s.Handle("checkpoint c10"); got != "ERROR: Maximum number of checkpoints reached\n" {
		t.Errorf("11th checkpoint: %q", got)
	}
}

// TestRejectPatternFault: a config line matching the pattern is refused
// with the invalid-command text and changes nothing.
func TestRejectPatternFault(t *testing.T) {
	d := newDevice(t, "")
	f := &device.Faults{}
	f.Update(func(f *device.Faults) { f.RejectPattern = `^mtu 9216$` })
	s := d.NewSession("admin", f)
	got := run(s, "configure terminal", "policy-map type network-qos N", "class type network-qos c-8q-nq3", "mtu 9216", "pause pfc-cos 3", "end")
	want := "switch# configure terminal\nEnter configuration commands, one per line. End with CNTL/Z.\n" +
		"switch(config)# policy-map type network-qos N\n" +
		"switch(config-pmap-nqos)# class type network-qos c-8q-nq3\n" +
		"switch(config-pmap-nqos-c)# mtu 9216\n" +
		strings.Repeat(" ", len("switch(config-pmap-nqos-c)# ")) + "^\n% Invalid command at '^' marker.\n" +
		"switch(config-pmap-nqos-c)# pause pfc-cos 3\n" +
		"switch(config-pmap-nqos-c)# end\nswitch# "
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if strings.Contains(string(d.Running()), "mtu 9216") {
		t.Error("the rejected line reached the running config")
	}
	f.Update(func(f *device.Faults) { f.FailCommit = true })
	if got, _ := s.Handle("copy running-config startup-config"); got != "Configuration update aborted\n" {
		t.Errorf("copy run start with FailCommit: %q", got)
	}
}

// tokenPos is the offset of the first whole word equal to tok.
func tokenPos(line, tok string) int {
	off := 0
	for _, w := range strings.SplitAfter(line, " ") {
		if strings.TrimSpace(w) == tok {
			return off
		}
		off += len(w)
	}
	return -1
}

// TestCaseAbbreviationFallback: keywords in any case and unambiguous
// abbreviations are accepted, and a command of a parent mode moves the
// context there (nxos.md §1a, from a live transcript).
func TestCaseAbbreviationFallback(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	got := run(s, "conf", "policy-map type queuing Q", "CLass type queuing c-out-8q-q3", "bandwidth remaining percent 50",
		"policy-map type qos P", "class class-default", "set qos-group 0", "int e1/1", "exit", "int e1/1-2", "end",
		"copy running-config startup-config")
	want := "switch# conf\nEnter configuration commands, one per line. End with CNTL/Z.\n" +
		"switch(config)# policy-map type queuing Q\n" +
		"switch(config-pmap-que)# CLass type queuing c-out-8q-q3\n" +
		"switch(config-pmap-c-que)# bandwidth remaining percent 50\n" +
		"switch(config-pmap-c-que)# policy-map type qos P\n" +
		"switch(config-pmap-qos)# class class-default\n" +
		"switch(config-pmap-c-qos)# set qos-group 0\n" +
		"switch(config-pmap-c-qos)# int e1/1\n" +
		"switch(config-if)# exit\n" +
		"switch(config)# int e1/1-2\n" +
		"switch(config-if-range)# end\n" +
		"switch# copy running-config startup-config\n[########################################] 100%\nCopy complete.\n" +
		"switch# "
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// manualTimer is a commit timeout the test runs out by hand.
type manualTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func (m *manualTimer) Stop() bool { m.stopped = true; return true }

// TestConfigureReplace: a full replace from a bootflash file; with
// commit-timeout the previous config returns byte for byte unless
// configure replace commit comes in time (nxos.md §5).
func TestConfigureReplace(t *testing.T) {
	var timers []*manualTimer
	clock := nxos.WithAfterFunc(func(d time.Duration, f func()) nxos.Timer {
		m := &manualTimer{d: d, f: f}
		timers = append(timers, m)
		return m
	})
	d, err := nxos.New("switch", []byte(readFile(t, "testdata/canonical.txt")), clock)
	if err != nil {
		t.Fatal(err)
	}
	canon := body(t, string(d.Running()))
	s := d.NewSession("admin", nil)
	steps := []struct{ line, want string }{
		{"configure replace bootflash:base.cfg", "ERROR: bootflash:base.cfg does not exist\n"},
		{"copy running-config bootflash:base.cfg", "[########################################] 100%\nCopy complete.\n"},
		{"configure replace bootflash:base.cfg verify-only", "Patch validation completed successful\n"},
		{"configure terminal", "Enter configuration commands, one per line. End with CNTL/Z.\n"},
		{"no interface Ethernet1/2", ""},
		{"end", ""},
	}
	for _, st := range steps {
		if got, _ := s.Handle(st.line); got != st.want {
			t.Fatalf("%q: got %q, want %q", st.line, got, st.want)
		}
	}
	edited := body(t, string(d.Running()))
	if got, _ := s.Handle("configure replace bootflash:base.cfg commit-timeout 60"); got != "Configure replace completed successfully.\n" {
		t.Fatalf("replace: %q", got)
	}
	if got := body(t, string(d.Running())); got != canon {
		t.Errorf("after replace (-want +got):\n%s", cmp.Diff(canon, got))
	}
	if len(timers) != 1 || timers[0].d != time.Minute {
		t.Fatalf("timers %+v, want one of 60s", timers)
	}
	timers[0].f() // the timeout runs out before the commit
	if got := body(t, string(d.Running())); got != edited {
		t.Errorf("after the timeout (-want +got):\n%s", cmp.Diff(edited, got))
	}
	if got, _ := s.Handle("configure replace commit"); got != "ERROR: No configure replace in progress\n" {
		t.Errorf("commit after the timeout: %q", got)
	}
	// In time: commit stops the timer and keeps the new config.
	s.Handle("configure replace bootflash:base.cfg commit-timeout 30")
	if got, _ := s.Handle("configure replace commit"); got != "" || !timers[1].stopped {
		t.Errorf("commit: %q, timer stopped %v", got, timers[1].stopped)
	}
	timers[1].f()
	if got := body(t, string(d.Running())); got != canon {
		t.Errorf("a committed replace was reverted")
	}
	// Abort reverts at once.
	s.Handle("configure terminal")
	s.Handle("no interface Ethernet1/1")
	s.Handle("end")
	edited = body(t, string(d.Running()))
	s.Handle("configure replace bootflash:base.cfg commit-timeout 30")
	if got, _ := s.Handle("configure replace abort"); got != "" {
		t.Errorf("abort: %q", got)
	}
	if got := body(t, string(d.Running())); got != edited {
		t.Errorf("after abort (-want +got):\n%s", cmp.Diff(edited, got))
	}
	// Faults: the timeout expires at once; the replace fails.
	f := &device.Faults{}
	fs := d.NewSession("admin", f)
	f.Update(func(f *device.Faults) { f.ExpireCommitTimer = true })
	fs.Handle("configure replace bootflash:base.cfg commit-timeout 30")
	if got := body(t, string(d.Running())); got != edited {
		t.Errorf("ExpireCommitTimer left (-want +got):\n%s", cmp.Diff(edited, got))
	}
	f.Update(func(f *device.Faults) { f.ExpireCommitTimer, f.FailCommit = false, true })
	if got, _ := fs.Handle("configure replace bootflash:base.cfg"); got != "ERROR: Configure replace failed\n" {
		t.Errorf("FailCommit: %q", got)
	}
	if got := body(t, string(d.Running())); got != edited {
		t.Errorf("a failed replace changed the config")
	}
}

// TestRollbackUnderAnotherSession: a session inside a stanza when another
// rolls the config back goes on editing the restored config.
func TestRollbackUnderAnotherSession(t *testing.T) {
	d := newDevice(t, "")
	a, b := d.NewSession("admin", nil), d.NewSession("admin", nil)
	a.Handle("checkpoint empty")
	a.Handle("configure terminal")
	a.Handle("interface Ethernet1/1")
	a.Handle("mtu 9216")
	if out, _ := b.Handle("rollback running-config checkpoint empty"); out != "Rollback completed successfully.\n" {
		t.Fatal(out)
	}
	a.Handle("interface Ethernet1/2")
	a.Handle("mtu 9000")
	out, _ := a.Handle("show running-config interface Ethernet1/1-2")
	if run, want := body(t, out), "interface Ethernet1/1\n\ninterface Ethernet1/2\n  mtu 9000\n"; run != want {
		t.Errorf("got %q, want %q", run, want)
	}
}

// TestFactoryPorts: every front-panel port is listed, empty, in show
// running-config, as on the recorded switch; no interface only resets a
// port.
func TestFactoryPorts(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	mustHandle := func(l string) {
		t.Helper()
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
			t.Fatalf("%q: %s", l, out)
		}
	}
	for _, l := range []string{"configure terminal", "interface Ethernet1/2", "mtu 9216", "no interface Ethernet1/2", "interface loopback0", "end"} {
		mustHandle(l)
	}
	full := body(t, string(d.Running()))
	if !strings.HasPrefix(full, "interface Ethernet1/1\n\ninterface Ethernet1/2\n\ninterface Ethernet1/3\n") ||
		!strings.HasSuffix(full, "interface Ethernet1/64\n\ninterface loopback0\n") || strings.Contains(full, "mtu") {
		t.Errorf("show running-config:\n%s", full)
	}
	mustHandle("configure terminal")
	mustHandle("no interface loopback0")
	if strings.Contains(string(d.Running()), "loopback0") {
		t.Error("no interface loopback0 left the loopback")
	}
}

// TestFeatureLines: the lines of the Azure Local ToR configs
// (testdata/realworld/nxos/azure-local-*) and of PFC off: `match cos` in a
// match-all class-map, a classification policy without class-default,
// `priority-flow-control mode on send-tlv` and `mode off`, each shown as
// typed; `mode on send-tlv` then `mode on` is one setting, the last
// stands (reference/nxos.md Errata).
func TestFeatureLines(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	for _, l := range []string{
		"configure terminal",
		"class-map type qos match-all RDMA", "match cos 3",
		"class-map type qos match-all CLUSTER", "match cos 7", "exit",
		"policy-map type qos AZS_SERVICES", "class RDMA", "set qos-group 3", "class CLUSTER", "set qos-group 7",
		"interface Ethernet1/1", "priority-flow-control mode on", "priority-flow-control mode on send-tlv", "service-policy type qos input AZS_SERVICES",
		"interface Ethernet1/2", "priority-flow-control mode on send-tlv", "priority-flow-control mode off", "end",
	} {
		if out, _ := s.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
			t.Fatalf("%q: %s", l, out)
		}
	}
	got := string(d.Running())
	for _, want := range []string{
		"class-map type qos match-all RDMA\n  match cos 3\nclass-map type qos match-all CLUSTER\n  match cos 7\n",
		"policy-map type qos AZS_SERVICES\n  class RDMA\n    set qos-group 3\n  class CLUSTER\n    set qos-group 7\n\n",
		"interface Ethernet1/1\n  priority-flow-control mode on send-tlv\n  service-policy type qos input AZS_SERVICES\n",
		"interface Ethernet1/2\n  priority-flow-control mode off\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("running config lacks %q:\n%s", want, got)
		}
	}
}
