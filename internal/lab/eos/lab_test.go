package eos_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/opoptions"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/eos"
)

func startLab(t *testing.T, seed string) *lab.Node {
	t.Helper()
	l, err := lab.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	var b []byte
	if seed != "" {
		b = []byte(seed)
	}
	n, err := l.Add(eos.Name, "leaf1", b)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// scrapli opens a scrapligo platform (a stock name or a YAML file's
// bytes) against n.
func scrapli(t *testing.T, n *lab.Node, def any) *network.Driver {
	t.Helper()
	p, err := platform.NewPlatform(def, "127.0.0.1",
		options.WithPort(n.Port()),
		options.WithAuthUsername(lab.DefaultUser),
		options.WithAuthPassword(lab.DefaultPassword),
		options.WithAuthNoStrictKey(),
		options.WithTransportType(transport.StandardTransport),
		options.WithTimeoutOps(20*time.Second),
	)
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.GetNetworkDriver()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Open(); err != nil {
		t.Fatalf("scrapligo open: %v", err)
	}
	return d
}

func closeDriver(t *testing.T, d *network.Driver) {
	t.Helper()
	// exit makes the switch close the channel, so the transport's own
	// close of the session reports io.EOF, as against a real device.
	if err := d.Close(); err != nil && !errors.Is(err, io.EOF) {
		t.Errorf("close: %v", err)
	}
}

// TestScrapligoStock: the stock arista_eos platform opens, sends
// commands and configs (configure terminal), and closes.
func TestScrapligoStock(t *testing.T) {
	n := startLab(t, "")
	d := scrapli(t, n, "arista_eos")
	canon := readFile(t, "testdata/canonical.txt")
	r, err := d.SendConfigs(configLines(canon))
	if err != nil || r.Failed != nil {
		t.Fatalf("configs: %v %v", err, r.Failed)
	}
	show, err := d.SendCommand("show running-config")
	if err != nil || show.Failed != nil {
		t.Fatalf("show: %v %v", err, show.Failed)
	}
	if diff := cmp.Diff(canon, body(t, show.Result+"\n")); diff != "" {
		t.Errorf("(-reference +lab):\n%s", diff)
	}
	bad, err := d.SendConfigs([]string{"interface Ethernet1", "priority-flow-control priority 9 no-drop"})
	if err != nil {
		t.Fatal(err)
	}
	if bad.Failed == nil {
		t.Error("scrapligo did not see % Invalid input as a failure")
	}
	closeDriver(t, d)
}

// TestScrapligoSession: the project's own platform (stock plus a
// configuration-session level, testdata/arista_eos_session.yaml) pushes
// in a session, reads the diff, commits with a timer and confirms.
func TestScrapligoSession(t *testing.T) {
	n := startLab(t, "")
	def, err := os.ReadFile("testdata/arista_eos_session.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := scrapli(t, n, def)
	canon := readFile(t, "testdata/canonical.txt")
	r, err := d.SendConfigs(configLines(canon), opoptions.WithPrivilegeLevel("configuration-session"))
	if err != nil || r.Failed != nil {
		t.Fatalf("configs: %v %v", err, r.Failed)
	}
	if run := string(n.Device().Running()); strings.Contains(run, "tx-queue") {
		t.Fatal("session lines reached the running config before commit")
	}
	diff, err := d.SendCommand("show session-config named lossless diffs")
	if err != nil || diff.Failed != nil || !strings.HasPrefix(diff.Result, "--- system:/running-config\n+++ session:/lossless-session-config\n@@ ") {
		t.Fatalf("diffs: %v %v %q", err, diff.Failed, diff.Result)
	}
	for _, cmd := range []string{"configure session lossless commit timer 00:05:00", "configure session lossless commit"} {
		r, err := d.SendCommand(cmd)
		if err != nil || r.Failed != nil || r.Result != "" {
			t.Fatalf("%s: %v %v %q", cmd, err, r.Failed, r.Result)
		}
	}
	if got := body(t, string(n.Device().Running())); got != canon {
		t.Errorf("after commit (-reference +lab):\n%s", cmp.Diff(canon, got))
	}
	closeDriver(t, d)
}

// TestScrapligoFixtures replays the commands of scrapligo's recorded
// real-device EOS sessions: empty replies to the two configs, and show
// run framed as the recording is.
func TestScrapligoFixtures(t *testing.T) {
	n := startLab(t, "")
	d := scrapli(t, n, "arista_eos")
	defer closeDriver(t, d)
	r, err := d.SendConfigs([]string{"interface loopback0", "no interface loopback0"})
	if err != nil || r.Failed != nil {
		t.Fatalf("send configs: %v %v", err, r.Failed)
	}
	if got := r.JoinedResult(); got != "\n" {
		t.Errorf("send configs result %q, want %q as recorded", got, "\n")
	}
	show, err := d.SendCommand("show run")
	if err != nil || show.Failed != nil {
		t.Fatalf("show run: %v %v", err, show.Failed)
	}
	rec := strings.Split(readFile(t, "testdata/scrapligo-show-run.txt"), "\n")[1:]
	got := strings.Split(show.Result, "\n")
	if got[0] != rec[0] || !strings.HasPrefix(got[1], "! device: leaf1 (") || !strings.HasPrefix(rec[1], "! device: ceos (") || got[2] != rec[2] {
		t.Errorf("head: recorded %q, lab %q", rec[:3], got[:3])
	}
	if g, w := got[len(got)-2:], rec[len(rec)-2:]; !cmp.Equal(g, w) {
		t.Errorf("tail: recorded %q, lab %q", w, g)
	}
}

// TestDropKeepsSession: a connection dropped mid-session (CloseAfter)
// leaves the session pending, not running (lock.go: EOS keeps a session
// whose CLI session ended). It said "discards" until issue 12's
// crash-safety work checked it against those sources.
func TestDropKeepsSession(t *testing.T) {
	n := startLab(t, "")
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 3 })
	c, err := ssh.Dial("tcp", n.Addr(), &ssh.ClientConfig{User: lab.DefaultUser,
		Auth: []ssh.AuthMethod{ssh.Password(lab.DefaultPassword)}, HostKeyCallback: ssh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, _ := c.NewSession()
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	_ = s.Shell()
	_, _ = io.WriteString(in, "configure session drop1\rqos map dscp 48 to traffic-class 6\rend\rconfigure session drop1 commit\r")
	all, _ := io.ReadAll(bufio.NewReader(out))
	// The 4th line is echoed but never runs.
	if !strings.HasSuffix(string(all), "leaf1(config-s-drop1)#end\r\nleaf1#configure session drop1 commit\r\n") {
		t.Errorf("session did not drop after 3 lines: %q", all)
	}
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 0 })
	if got := body(t, string(n.Device().Running())); got != "" {
		t.Errorf("running config after the drop: %q", got)
	}
	s2 := n.Device().NewSession("admin", nil)
	if out, _ := s2.Handle("show session-config named drop1 diffs"); !strings.Contains(out, "+qos map dscp 48 to traffic-class 6\n") {
		t.Errorf("the dropped session is not pending: %q", out)
	}
}
