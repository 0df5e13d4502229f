package nxos_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/nxos"
)

// TestSessionCommit: lines typed in a configuration session change
// nothing until commit, under the config-s prompts (session.go [sm3k]);
// verify checks them; commit applies them all and ends the session.
func TestSessionCommit(t *testing.T) {
	d := newDevice(t, readFile(t, "testdata/canonical.txt"))
	before := string(d.Checkpoint())
	s := d.NewSession("admin", nil)
	got := run(s, "configure session lossless-1",
		"class-map type qos match-any NEW", "match dscp 10",
		"policy-map type qos QOS_CLASSIFICATION", "class NEW", "set qos-group 2",
		"interface Ethernet1/3", "priority-flow-control mode on",
		"system qos", "end")
	want := "switch# configure session lossless-1\n" +
		"switch(config-s)# class-map type qos match-any NEW\n" +
		"switch(config-s-cmap-qos)# match dscp 10\n" +
		"switch(config-s-cmap-qos)# policy-map type qos QOS_CLASSIFICATION\n" +
		"switch(config-s-pmap-qos)# class NEW\n" +
		"switch(config-s-pmap-c-qos)# set qos-group 2\n" +
		"switch(config-s-pmap-c-qos)# interface Ethernet1/3\n" +
		"switch(config-s-if)# priority-flow-control mode on\n" +
		"switch(config-s-if)# system qos\n" +
		"switch(config-s-sys-qos)# end\n" +
		"switch# "
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if string(d.Checkpoint()) != before {
		t.Fatal("lines typed in a session reached the running config before the commit")
	}
	if got := d.Sessions(); len(got) != 1 || got[0] != "lossless-1" {
		t.Fatalf("sessions after end: %q, want the session kept", got)
	}
	// Resumed by name [salt], at the top of config-s.
	got = run(s, "configure session lossless-1", "verify", "commit")
	want = "switch# configure session lossless-1\n" +
		"switch(config-s)# verify\nVerification Successful\n" +
		"switch(config-s)# commit\nCommit Successful\n" +
		"switch# "
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	after := string(d.Checkpoint())
	for _, l := range []string{"class-map type qos match-any NEW\n  match dscp 10\n", "  class NEW\n    set qos-group 2\n", "interface Ethernet1/3\n  priority-flow-control mode on\n"} {
		if !strings.Contains(after, l) {
			t.Errorf("committed config lacks %q:\n%s", l, after)
		}
	}
	if got := d.Sessions(); len(got) != 0 {
		t.Errorf("sessions after commit: %q", got)
	}
}

// TestSessionCommitAllOrNothing: a commit that fails on one command
// applies none of them (session.go [sm105]: on a failure NX-OS reverts to
// the original configuration); the session stays until aborted.
func TestSessionCommitAllOrNothing(t *testing.T) {
	d := newDevice(t, readFile(t, "testdata/canonical.txt"))
	s := d.NewSession("admin", nil)
	for _, l := range []string{"configure session s1", "class-map type qos match-any NEW", "match dscp 10",
		"policy-map type qos QOS_CLASSIFICATION", "class CNP", "set qos-group 6", "end"} {
		if out, _ := s.Handle(l); out != "" {
			t.Fatalf("%q: %s", l, out)
		}
	}
	// Meanwhile another session removes what the session's commands
	// use (sm7x: parallel configurations make a session fail).
	o := d.NewSession("admin", nil)
	for _, l := range []string{"configure terminal", "policy-map type qos QOS_CLASSIFICATION", "no class CNP", "exit", "no class-map type qos match-any CNP", "end"} {
		if out, _ := o.Handle(l); out != "" && !strings.HasPrefix(out, "Enter") {
			t.Fatalf("%q: %s", l, out)
		}
	}
	before := string(d.Checkpoint())
	s.Handle("configure session s1")
	out, _ := s.Handle("commit")
	if !strings.HasPrefix(out, "ERROR: Commit failed: ") || !strings.Contains(out, "undefined class") {
		t.Errorf("commit: %q, want the undefined class refused", out)
	}
	if string(d.Checkpoint()) != before {
		t.Errorf("a failed commit changed the running config:\n%s", cmp.Diff(before, string(d.Checkpoint())))
	}
	if s.Prompt() != "switch(config-s)# " {
		t.Errorf("after a failed commit the prompt is %q", s.Prompt())
	}
	if out, _ := s.Handle("abort"); out != "" || s.Prompt() != "switch# " {
		t.Errorf("abort: %q, prompt %q", out, s.Prompt())
	}
	if len(d.Sessions()) != 0 {
		t.Errorf("sessions after abort: %q", d.Sessions())
	}
}

// TestSessionOutlivesConnection: a session whose connection drops stays
// on the device with nothing applied, and the next connection finds it in
// show configuration session summary (layout of [ntc]) and aborts it.
func TestSessionOutlivesConnection(t *testing.T) {
	now := time.Date(2017, 10, 28, 2, 37, 14, 0, time.UTC)
	d, err := nxos.New("switch", []byte(readFile(t, "testdata/canonical.txt")), nxos.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	before := string(d.Checkpoint())
	s := d.NewSession("ntc", nil)
	run(s, "configure session ACL-SESSION1", "interface Ethernet1/7", "priority-flow-control mode on")
	s.Close()
	if string(d.Checkpoint()) != before {
		t.Fatal("a dropped session's lines reached the running config")
	}
	n := d.NewSession("admin", nil)
	got, _ := n.Handle("show configuration session summary")
	want := "Session Manager Database:\n" +
		"--------------------------------------------------------------------\n" +
		"Name                    Session Owner           Creation Time\n" +
		"--------------------------------------------------------------------\n" +
		"ACL-SESSION1            ntc                     02:37:14 UTC Oct 28 2017\n" +
		"\nNumber of active configuration sessions = 1\n\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("show configuration session summary (-want +got):\n%s", diff)
	}
	if got, _ := n.Handle("show configuration session ACL-SESSION1"); got != "config session ACL-SESSION1\n0001 interface Ethernet1/7\n0002 priority-flow-control mode on\n\n" {
		t.Errorf("show configuration session NAME: %q", got)
	}
	run(n, "configure session ACL-SESSION1", "abort")
	if len(d.Sessions()) != 0 || string(d.Checkpoint()) != before {
		t.Errorf("after abort: sessions %q, config changed %v", d.Sessions(), string(d.Checkpoint()) != before)
	}
}

// TestSessionRefusals: outside a session verify, commit and abort are
// invalid; in one, a feature other than QoS is refused, and so are the
// 33rd session and a name with other than letters, digits and hyphens
// (session.go [sm105], [sm3k], [ntc]).
func TestSessionRefusals(t *testing.T) {
	d := newDevice(t, "")
	s := d.NewSession("admin", nil)
	inv := func(prompt string, pos int) string {
		return strings.Repeat(" ", len(prompt)+pos) + "^\n% Invalid command at '^' marker.\n"
	}
	s.Handle("configure terminal")
	if got, _ := s.Handle("commit"); got != inv("switch(config)# ", 0) {
		t.Errorf("commit outside a session: %q", got)
	}
	s.Handle("end")
	s.Handle("configure session q1")
	s.Handle("interface Ethernet1/1")
	if got, _ := s.Handle("description uplink"); got != inv("switch(config-s-if)# ", 0) {
		t.Errorf("description in a session: %q", got)
	}
	if got, _ := s.Handle("priority-flow-control mode on"); got != "" {
		t.Errorf("PFC in a session: %q", got)
	}
	s.Handle("end")
	if got, _ := s.Handle("configure session bad_name"); got != inv("switch# ", len("configure session ")) {
		t.Errorf("configure session bad_name: %q", got)
	}
	for i := 2; i <= 32; i++ {
		if got, _ := s.Handle(fmt.Sprintf("configure session q%d", i)); got != "" {
			t.Fatalf("session %d: %q", i, got)
		}
		s.Handle("end")
	}
	if got, _ := s.Handle("configure session q33"); got != "ERROR: Maximum number of configuration sessions reached\n" {
		t.Errorf("33rd session: %q", got)
	}
}

// TestTerminalLock: the session holding the terminal lock alone runs
// config commands; the others still run show and exec commands; any
// session's terminal unlock releases it, and so does its timer (session.go
// [tl105]). It outlives the session that took it [I].
func TestTerminalLock(t *testing.T) {
	now := time.Date(2021, 6, 19, 17, 53, 37, 0, time.UTC)
	d, err := nxos.New("switch", nil, nxos.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	a, b := d.NewSession("admin", nil), d.NewSession("ops", nil)
	if got, _ := a.Handle("terminal lock 60"); got != "" {
		t.Fatalf("terminal lock: %q", got)
	}
	const held = "ERROR: Terminal is locked by user admin on pts/1\n"
	for _, l := range []string{"terminal lock", "configure terminal", "configure session x"} {
		if got, _ := b.Handle(l); got != held {
			t.Errorf("%q while locked: %q", l, got)
		}
	}
	if got, _ := b.Handle("show terminal lock"); got != "Terminal is locked by user admin on pts/1, 60 seconds left\n" {
		t.Errorf("show terminal lock: %q", got)
	}
	if got, _ := b.Handle("checkpoint c1"); got != "Done\n" {
		t.Errorf("exec command while locked: %q", got)
	}
	if got, _ := a.Handle("configure terminal"); !strings.HasPrefix(got, "Enter configuration") {
		t.Errorf("holder's configure terminal: %q", got)
	}
	a.Handle("end")
	b.Handle("terminal unlock")
	if got, _ := b.Handle("configure terminal"); !strings.HasPrefix(got, "Enter configuration") {
		t.Errorf("after terminal unlock: %q", got)
	}
	b.Handle("end")
	a.Handle("terminal lock")
	a.Close()
	if got, _ := b.Handle("configure terminal"); !strings.HasPrefix(got, "Enter configuration") {
		t.Errorf("after the holder's session closed: %q", got)
	}
	b.Handle("end")
	b.Handle("terminal lock 60")
	c := d.NewSession("admin", &device.Faults{})
	now = now.Add(61 * time.Second)
	if got, _ := c.Handle("configure terminal"); !strings.HasPrefix(got, "Enter configuration") {
		t.Errorf("after the lock's timer ran out: %q", got)
	}
}

// TestCheckpointSummary: show checkpoint summary lists each user
// checkpoint with its maker, time, size and description (genieparser's
// fixture).
func TestCheckpointSummary(t *testing.T) {
	now := time.Date(2017, 5, 31, 12, 56, 56, 0, time.UTC)
	d, err := nxos.New("switch", nil, nxos.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	s := d.NewSession("admin", nil)
	run(s, "checkpoint bgp-1", "checkpoint c2 description before the change")
	got, _ := s.Handle("show checkpoint summary")
	size := fmt.Sprint(len(d.Checkpoint()))
	if len(size) > 3 {
		size = size[:len(size)-3] + "," + size[len(size)-3:]
	}
	want := "User Checkpoint Summary\n" + strings.Repeat("-", 80) + "\n" +
		"1) bgp-1:\nCreated by admin\nCreated at Wed, 12:56:56 31 May 2017\nSize is " + size + " bytes\nDescription: None\n\n" +
		"2) c2:\nCreated by admin\nCreated at Wed, 12:56:56 31 May 2017\nSize is " + size + " bytes\nDescription: before the change\n\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := d.Checkpoints(); len(got) != 2 || got[0] != "bgp-1" {
		t.Errorf("Checkpoints() = %q", got)
	}
}
