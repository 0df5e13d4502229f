package huaweice_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scrapli/scrapligo/channel"
	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/huaweice"
)

func startLab(t *testing.T) *lab.Node {
	t.Helper()
	l, err := lab.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	n, err := l.Add(huaweice.Name, "HUAWEI", nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// scrapli opens a scrapligo platform (a stock name or a YAML file's
// bytes) against n over SSH.
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
	if err := d.Close(); err != nil && !errors.Is(err, io.EOF) {
		t.Errorf("close: %v", err)
	}
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// The stock huawei_vrp platform opens (screen-length 0 temporary), runs
// display commands in user view and closes; its configuration prompt
// pattern cannot match [~HUAWEI] (reference/huawei-ce.md §6), so configs
// go through the project's platform below.
func TestScrapligoStock(t *testing.T) {
	n := startLab(t)
	d := scrapli(t, n, "huawei_vrp")
	r, err := d.SendCommand("display current-configuration")
	if err != nil || r.Failed != nil {
		t.Fatalf("display: %v %v", err, r.Failed)
	}
	if want := strings.TrimSuffix(string(n.Device().Running()), "\n"); r.Result != want {
		t.Errorf("(-device +scrapligo):\n%s", cmp.Diff(want, r.Result))
	}
	bad, err := d.SendCommand("display nonsense")
	if err != nil {
		t.Fatal(err)
	}
	if bad.Failed == nil {
		t.Errorf("stock failed-when-contains missed %q", bad.Result)
	}
	closeDriver(t, d)
}

// The project's platform pushes the §1.2 sequence in system view, reviews
// the candidate, commits with a trial, confirms, reads the config back and
// rolls back with the interactive Y/N.
func TestScrapligoProjectPlatform(t *testing.T) {
	n := startLab(t)
	def, err := os.ReadFile("testdata/huawei_ce.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := scrapli(t, n, def)
	defer closeDriver(t, d)
	push := lines(t, "testdata/push-family-b.txt")[2:] // after screen-length and system-view
	before := string(n.Device().Running())
	r, err := d.SendConfigs(push)
	if err != nil || r.Failed != nil {
		t.Fatalf("configs: %v %v", err, r.Failed)
	}
	ch, err := d.SendConfig("display configuration candidate changes")
	if err != nil || ch.Failed != nil || !strings.HasPrefix(ch.Result, "Building configuration\n  #\n+ dcb pfc deadlock-detect interval 10") {
		t.Fatalf("changes: %v %q", err, ch.Result)
	}
	if string(n.Device().Running()) != before {
		t.Fatal("candidate reached the running config before commit")
	}
	for _, c := range []string{"commit trial 300", "commit"} {
		if r, err := d.SendConfig(c); err != nil || r.Failed != nil {
			t.Fatalf("%s: %v %v", c, err, r.Failed)
		}
	}
	show, err := d.SendCommand("display current-configuration include-default")
	if err != nil || show.Failed != nil {
		t.Fatalf("display: %v %v", err, show.Failed)
	}
	canon, err := os.ReadFile("testdata/display-family-b-include-default.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(show.Result, "#\nsysname HUAWEI\n"+strings.TrimSuffix(string(canon), "\n")) {
		t.Errorf("read back:\n%s", show.Result)
	}
	bad, err := d.SendConfigs([]string{"interface 100GE1/0/1", "qos queue 9 ecn", "return"})
	if err != nil || bad.Failed == nil {
		t.Fatalf("a wrong parameter was not a failure: %v", err)
	}
	rb, err := d.SendInteractive([]*channel.SendInteractiveEvent{
		{ChannelInput: "rollback configuration last 1", ChannelResponse: `Continue\? \[Y/N\]:`},
		{ChannelInput: "y", ChannelResponse: ""},
	})
	if err != nil || !strings.Contains(rb.Result, "Configuration rollback succeeded.") {
		t.Fatalf("rollback: %v %q", err, rb.Result)
	}
	// The rollback is a new commit point, so only the update time in the
	// header may differ.
	if diff := cmp.Diff(withoutUpdateTime(before), withoutUpdateTime(string(n.Device().Running()))); diff != "" {
		t.Errorf("rollback (-before +after):\n%s", diff)
	}
}

func withoutUpdateTime(cfg string) string {
	_, rest, _ := strings.Cut(cfg, "\n!Last configuration was updated at ")
	_, body, _ := strings.Cut(rest, "\n")
	return body
}

// readUntil reads from r until the text read ends with marker.
func readUntil(t *testing.T, r *bufio.Reader, marker string) string {
	t.Helper()
	var b strings.Builder
	for !strings.HasSuffix(b.String(), marker) {
		c, err := r.ReadByte()
		if err != nil {
			t.Fatalf("read %q so far, waiting for %q: %v", b.String(), marker, err)
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Over SSH, display current-configuration without screen-length 0
// temporary shows 24 lines and "  ---- More ----" (§5); space shows the
// next page, and the prompt comes back after the last one.
func TestPagingOverSSH(t *testing.T) {
	n := startLab(t)
	c, err := ssh.Dial("tcp", n.Addr(), &ssh.ClientConfig{
		User:            lab.DefaultUser,
		Auth:            []ssh.AuthMethod{ssh.Password(lab.DefaultPassword)},
		HostKeyCallback: ssh.InsecureIgnoreHostKey(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	readUntil(t, r, "<HUAWEI>")
	// Make the config longer than a page.
	if _, err := io.WriteString(in, "system-view\r"); err != nil {
		t.Fatal(err)
	}
	readUntil(t, r, "[~HUAWEI]")
	for i := 1; i <= 8; i++ {
		io.WriteString(in, "interface 100GE1/0/"+string(rune('0'+i))+"\rtrust dscp\rquit\r")
		readUntil(t, r, "[*HUAWEI]")
	}
	io.WriteString(in, "commit\r")
	readUntil(t, r, "[~HUAWEI]")
	io.WriteString(in, "return\r")
	readUntil(t, r, "<HUAWEI>")
	io.WriteString(in, "display current-configuration\r")
	first := readUntil(t, r, "  ---- More ----")
	body := strings.TrimPrefix(first, "display current-configuration\r\n")
	if got := strings.Count(body, "\r\n"); got != 24 {
		t.Errorf("first page has %d lines, want 24:\n%s", got, body)
	}
	io.WriteString(in, " ")
	rest := readUntil(t, r, "<HUAWEI>")
	if !strings.HasSuffix(rest, "#\r\nreturn\r\n<HUAWEI>") {
		t.Errorf("rest of the output:\n%q", rest)
	}
	io.WriteString(in, "quit\r")
}
