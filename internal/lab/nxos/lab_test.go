package nxos_test

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/nxos"
)

func startLab(t *testing.T, seed string) (*lab.Lab, *lab.Node) {
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
	n, err := l.Add(nxos.Name, "leaf1", b)
	if err != nil {
		t.Fatal(err)
	}
	return l, n
}

// scrapli opens the stock cisco_nxos platform of scrapligo against n.
func scrapli(t *testing.T, n *lab.Node) *network.Driver {
	t.Helper()
	p, err := platform.NewPlatform("cisco_nxos", "127.0.0.1",
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

// TestScrapligo: scrapligo's stock cisco_nxos platform opens, sends
// commands and configs, and closes.
func TestScrapligo(t *testing.T) {
	_, n := startLab(t, "")
	d := scrapli(t, n)
	canon := readFile(t, "testdata/canonical.txt")
	r, err := d.SendConfigs(canonLines(canon))
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed != nil {
		t.Fatalf("configs failed: %v", r.Failed)
	}
	got, err := d.SendCommand("show running-config ipqos")
	if err != nil || got.Failed != nil {
		t.Fatalf("show: %v %v", err, got.Failed)
	}
	if diff := cmp.Diff(canon, body(t, got.Result+"\n")); diff != "" {
		t.Errorf("show running-config ipqos (-reference +lab):\n%s", diff)
	}
	bad, err := d.SendConfigs([]string{"policy-map type qos P", "class class-default", "set qos-group bogus"})
	if err != nil {
		t.Fatal(err)
	}
	if bad.Failed == nil {
		t.Error("scrapligo did not see the invalid command as a failure")
	}
	// The range error is NX-OS's text, which scrapligo's stock
	// failed-when-contains list does not name: a driver must add
	// "% Invalid number" itself.
	rng, err := d.SendConfigs([]string{"set qos-group 9"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rng.JoinedResult(), "% Invalid number, range is (0:7) at '^' marker.") {
		t.Errorf("range error: %q", rng.JoinedResult())
	}
	// exit makes the switch close the channel, so the transport's own
	// close of the session reports io.EOF, as against a real device.
	if err := d.Close(); err != nil && !errors.Is(err, io.EOF) {
		t.Errorf("close: %v", err)
	}
}

// TestScrapligoFixtures replays the commands of scrapligo's recorded
// real-device NX-OS sessions: send-configs gives empty replies, and show
// run starts with the header the recording shows.
func TestScrapligoFixtures(t *testing.T) {
	_, n := startLab(t, "")
	d := scrapli(t, n)
	defer d.Close()
	// functional-send-configs-simple-cisco_nxos-standard-out.txt is "\n":
	// two configs with empty replies.
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
	rec := strings.Split(readFile(t, "testdata/scrapligo-show-run-head.txt"), "\n")[1:7]
	got := strings.Split(show.Result, "\n")
	if len(got) < 6 {
		t.Fatalf("show run too short: %q", show.Result)
	}
	for i := range 6 {
		if shape(rec[i]) != shape(got[i]) {
			t.Errorf("show run line %d: recorded %q, lab %q", i+1, rec[i], got[i])
		}
	}
}

// shape keeps what a parser relies on in a header line: the words, with
// times, versions and names reduced to their form.
func shape(line string) string {
	for _, layout := range []string{"Mon Jan 2 15:04:05 2006"} {
		if i := strings.Index(line, ": "); i >= 0 {
			if _, err := time.Parse(layout, line[i+2:]); err == nil {
				return line[:i+2] + "<time>"
			}
		}
	}
	f := strings.Fields(line)
	switch {
	case len(f) == 3 && f[0] == "version" && f[2] == "Bios:version":
		return "version <v> Bios:version"
	case len(f) == 2 && f[0] == "hostname":
		return "hostname <name>"
	}
	return line
}

// shell is a raw interactive SSH client.
type shell struct {
	in  io.Writer
	out *bufio.Reader
}

func openShell(t *testing.T, n *lab.Node) *shell {
	t.Helper()
	c, err := ssh.Dial("tcp", n.Addr(), &ssh.ClientConfig{User: lab.DefaultUser,
		Auth: []ssh.AuthMethod{ssh.Password(lab.DefaultPassword)}, HostKeyCallback: ssh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	_ = s.RequestPty("vt100", 24, 200, ssh.TerminalModes{})
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	return &shell{in: in, out: bufio.NewReader(out)}
}

// TestDropKeepsEnteredLines: when the connection drops mid-change (the
// CloseAfter fault), the lines already entered stay applied, as on NX-OS.
func TestDropKeepsEnteredLines(t *testing.T) {
	_, n := startLab(t, "")
	n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 4 })
	sh := openShell(t, n)
	_, _ = io.WriteString(sh.in, "configure terminal\rpolicy-map type network-qos N\rclass type network-qos c-8q-nq3\rmtu 9216\rpause pfc-cos 3\r")
	out, _ := io.ReadAll(sh.out)
	// NX-OS echoes Enter as \r\r\n (nxos.md §4).
	if !strings.HasSuffix(string(out), "leaf1(config-pmap-nqos-c)# mtu 9216\r\r\nleaf1(config-pmap-nqos-c)# pause pfc-cos 3\r\r\n") {
		t.Errorf("session did not end after the 4th line:\n%q", out)
	}
	run := string(n.Device().Running())
	if !strings.Contains(run, "policy-map type network-qos N\n  class type network-qos c-8q-nq3\n    mtu 9216\n") {
		t.Errorf("entered lines not kept:\n%s", run)
	}
	if strings.Contains(run, "pause pfc-cos 3") {
		t.Errorf("the line after the drop was applied:\n%s", run)
	}
}

// until reads until the output ends with suffix.
func (s *shell) until(t *testing.T, suffix string) string {
	t.Helper()
	var b strings.Builder
	for !strings.HasSuffix(b.String(), suffix) {
		c, err := s.out.ReadByte()
		if err != nil {
			t.Fatalf("read until %q: %v (got %q)", suffix, err, b.String())
		}
		b.WriteByte(c)
	}
	return b.String()
}

// TestPaging: until terminal length 0, long output stops after a page
// behind NX-OS's --More-- prompt (nxos.md §4); space shows the next page,
// Enter one line, q the prompt.
func TestPaging(t *testing.T) {
	_, n := startLab(t, readFile(t, "testdata/canonical.txt"))
	sh := openShell(t, n)
	sh.until(t, "leaf1# ")
	const more = "\x1b[7m--More--\x1b[m"
	const erase = "\r        \r"
	_, _ = io.WriteString(sh.in, "show running-config ipqos\r")
	page := sh.until(t, more)
	if got := strings.Count(page, "\r\n"); got != 1+24 { // the echo, then 24 lines
		t.Errorf("first page has %d lines, want 24:\n%s", got-1, page)
	}
	_, _ = io.WriteString(sh.in, "\r")
	if got := sh.until(t, more); !strings.HasPrefix(got, erase) || strings.Count(got, "\r\n") != 1 {
		t.Errorf("Enter: %q", got)
	}
	_, _ = io.WriteString(sh.in, " ")
	if got := sh.until(t, more); strings.Count(got, "\r\n") != 24 {
		t.Errorf("space: %d lines", strings.Count(got, "\r\n"))
	}
	_, _ = io.WriteString(sh.in, "q")
	if got := sh.until(t, "leaf1# "); got != erase+"leaf1# " {
		t.Errorf("q: %q", got)
	}
	_, _ = io.WriteString(sh.in, "terminal length 0\rshow running-config ipqos\r")
	sh.until(t, "leaf1# ")
	all := sh.until(t, "leaf1# ")
	if strings.Contains(all, "--More--") || !strings.Contains(all, "interface Ethernet1/2") {
		t.Errorf("terminal length 0 still pages:\n%s", all)
	}
}
