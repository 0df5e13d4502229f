package lab_test

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
)

// echoKind is a test personality: it answers "said: LINE", ends the
// session on "exit", and counts sessions closed.
type echoKind struct{}

func (echoKind) Name() string  { return "test-echo" }
func (echoKind) Model() string { return "Arista-7060CX-32S" } // a model of the platform catalog
func (echoKind) New(hostname string, seed []byte) (device.Device, error) {
	if string(seed) == "bad" {
		return nil, errors.New("bad seed")
	}
	return &echoDevice{host: hostname}, nil
}

type echoDevice struct {
	host   string
	mu     sync.Mutex
	closed int
	lines  []string
}

func (d *echoDevice) NewSession(user string, f *device.Faults) device.Session {
	return &echoSession{d: d, user: user}
}
func (d *echoDevice) Running() []byte { return nil }
func (d *echoDevice) closedSessions() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.closed
}
func (d *echoDevice) ran() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.lines...)
}

type echoSession struct {
	d    *echoDevice
	user string
}

func (s *echoSession) Greeting() string { return "welcome " + s.user + "\n" }
func (s *echoSession) Prompt() string   { return s.d.host + "> " }
func (s *echoSession) Handle(line string) (string, bool) {
	s.d.mu.Lock()
	s.d.lines = append(s.d.lines, line)
	s.d.mu.Unlock()
	if line == "exit" {
		return "bye\n", true
	}
	return "said: " + line + "\n", false
}
func (s *echoSession) Close() {
	s.d.mu.Lock()
	s.d.closed++
	s.d.mu.Unlock()
}

func init() { device.Register(echoKind{}) }

func newLab(t *testing.T, opts ...lab.Option) *lab.Lab {
	t.Helper()
	l, err := lab.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func addNode(t *testing.T, l *lab.Lab, name string) *lab.Node {
	t.Helper()
	n, err := l.Add("test-echo", name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func passwordConfig(user, pw string, hk ssh.HostKeyCallback) *ssh.ClientConfig {
	if hk == nil {
		hk = ssh.InsecureIgnoreHostKey()
	}
	return &ssh.ClientConfig{User: user, Auth: []ssh.AuthMethod{ssh.Password(pw)}, HostKeyCallback: hk}
}

// shell is an interactive client: it reads until an expected suffix.
type shell struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
	c   *ssh.Client
}

func openShell(t *testing.T, addr string, cfg *ssh.ClientConfig) *shell {
	t.Helper()
	c, err := ssh.Dial("tcp", addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm", 24, 80, ssh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	return &shell{t: t, in: in, out: bufio.NewReader(out), c: c}
}

// until reads until the output ends with suffix and returns all of it.
func (s *shell) until(suffix string) string {
	s.t.Helper()
	var b strings.Builder
	for !strings.HasSuffix(b.String(), suffix) {
		c, err := s.out.ReadByte()
		if err != nil {
			s.t.Fatalf("read until %q: %v (got %q)", suffix, err, b.String())
		}
		b.WriteByte(c)
	}
	return b.String()
}

func (s *shell) rest() string {
	b, _ := io.ReadAll(s.out)
	return string(b)
}

func (s *shell) send(text string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, text); err != nil {
		s.t.Fatal(err)
	}
}

func TestShellEchoLineEndingsAndPrompt(t *testing.T) {
	l := newLab(t)
	n := addNode(t, l, "sw1")
	sh := openShell(t, n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, nil))
	if got, want := sh.until("sw1> "), "welcome admin\r\nsw1> "; got != want {
		t.Fatalf("login: got %q, want %q", got, want)
	}
	cases := []struct{ typed, want string }{
		{"one\r\n", "one\r\nsaid: one\r\nsw1> "},
		{"two\r", "two\r\nsaid: two\r\nsw1> "},
		{"three\n", "three\r\nsaid: three\r\nsw1> "},
		{"fx\x7four\r", "fx\b \bour\r\nsaid: four\r\nsw1> "},
	}
	for _, c := range cases {
		sh.send(c.typed)
		if got := sh.until("sw1> "); got != c.want {
			t.Errorf("typed %q: got %q, want %q", c.typed, got, c.want)
		}
	}
	sh.send("exit\r\n")
	if got := sh.rest(); got != "exit\r\nbye\r\n" {
		t.Errorf("exit: got %q", got)
	}
	ran := n.Device().(*echoDevice).ran()
	if want := []string{"one", "two", "three", "four", "exit"}; strings.Join(ran, ",") != strings.Join(want, ",") {
		t.Errorf("lines run: got %q, want %q", ran, want)
	}
}

func TestAuth(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := ssh.NewSignerFromKey(priv)
	_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	other, _ := ssh.NewSignerFromKey(otherPriv)
	l := newLab(t, lab.WithCredentials("ops", "s3cret"), lab.WithAuthorizedKey(signer.PublicKey()))
	n := addNode(t, l, "sw1")
	cases := []struct {
		name string
		cfg  *ssh.ClientConfig
		ok   bool
	}{
		{"password", passwordConfig("ops", "s3cret", nil), true},
		{"wrong password", passwordConfig("ops", "nope", nil), false},
		{"wrong user", passwordConfig("admin", "s3cret", nil), false},
		{"public key", &ssh.ClientConfig{User: "ops", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)}, HostKeyCallback: ssh.InsecureIgnoreHostKey()}, true},
		{"unknown key", &ssh.ClientConfig{User: "ops", Auth: []ssh.AuthMethod{ssh.PublicKeys(other)}, HostKeyCallback: ssh.InsecureIgnoreHostKey()}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl, err := ssh.Dial("tcp", n.Addr(), c.cfg)
			if c.ok != (err == nil) {
				t.Fatalf("dial: err=%v, want ok=%v", err, c.ok)
			}
			if cl != nil {
				_ = cl.Close()
			}
		})
	}
}

func TestExec(t *testing.T) {
	l := newLab(t)
	n := addNode(t, l, "sw1")
	c, err := ssh.Dial("tcp", n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, _ := c.NewSession()
	out, err := s.Output("show version")
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "said: show version\r\n" {
		t.Errorf("exec output %q", out)
	}
}

func TestKnownHostsAndInventory(t *testing.T) {
	l := newLab(t)
	a := addNode(t, l, "leaf1")
	b := addNode(t, l, "leaf2")
	dir := t.TempDir()
	inv := filepath.Join(dir, "inventory.hcl")
	if err := l.WriteInventory(inv); err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(inv)
	for _, want := range []string{
		`device "leaf1" {`, `vendor      = "test-echo"`, `platform    = "Arista-7060CX-32S"`, `address     = "127.0.0.1"`,
		`transport   = "ssh"`, `credentials = credentials.lab`, `username_env = "LOSSLESS_USER"`,
		`password_env = "LOSSLESS_PASSWORD"`, "port        = " + strconv.Itoa(b.Port()),
		`known_hosts  = "` + filepath.Join(dir, "known_hosts") + `"`,
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("inventory lacks %q:\n%s", want, text)
		}
	}
	hk, err := knownhosts.New(filepath.Join(dir, lab.KnownHostsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []*lab.Node{a, b} {
		c, err := ssh.Dial("tcp", n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, hk))
		if err != nil {
			t.Fatalf("%s with known_hosts: %v", n.Name(), err)
		}
		_ = c.Close()
	}
}

func TestFaults(t *testing.T) {
	t.Run("refuse auth", func(t *testing.T) {
		l := newLab(t)
		n := addNode(t, l, "sw1")
		n.Faults().Update(func(f *device.Faults) { f.RefuseAuth = true })
		if _, err := ssh.Dial("tcp", n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, nil)); err == nil {
			t.Fatal("login succeeded with RefuseAuth set")
		}
		n.Faults().Update(func(f *device.Faults) { f.RefuseAuth = false })
		c, err := ssh.Dial("tcp", n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, nil))
		if err != nil {
			t.Fatalf("login after clearing RefuseAuth: %v", err)
		}
		_ = c.Close()
	})
	t.Run("change host key", func(t *testing.T) {
		l := newLab(t)
		n := addNode(t, l, "sw1")
		kh := filepath.Join(t.TempDir(), "known_hosts")
		if err := l.WriteKnownHosts(kh); err != nil {
			t.Fatal(err)
		}
		hk, _ := knownhosts.New(kh)
		n.Faults().Update(func(f *device.Faults) { f.ChangeHostKey = true })
		_, err := ssh.Dial("tcp", n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, hk))
		var ke *knownhosts.KeyError
		if !errors.As(err, &ke) || len(ke.Want) == 0 {
			t.Fatalf("dial with a changed host key: got %v, want a knownhosts key mismatch", err)
		}
	})
	t.Run("close after N commands", func(t *testing.T) {
		l := newLab(t)
		n := addNode(t, l, "sw1")
		n.Faults().Update(func(f *device.Faults) { f.CloseAfter = 2 })
		sh := openShell(t, n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, nil))
		sh.until("sw1> ")
		sh.send("a\rb\rc\rd\r")
		out := sh.rest()
		if want := "a\r\nsaid: a\r\nsw1> b\r\nsaid: b\r\nsw1> c\r\n"; out != want {
			t.Errorf("output: got %q, want %q", out, want)
		}
		if ran := n.Device().(*echoDevice).ran(); strings.Join(ran, ",") != "a,b" {
			t.Errorf("device ran %q, want only a and b", ran)
		}
	})
	t.Run("no prompt", func(t *testing.T) {
		l := newLab(t)
		n := addNode(t, l, "sw1")
		n.Faults().Update(func(f *device.Faults) { f.NoPrompt = true })
		sh := openShell(t, n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, nil))
		sh.send("x\rexit\r")
		if out, want := sh.rest(), "welcome admin\r\nx\r\nsaid: x\r\nexit\r\nbye\r\n"; out != want {
			t.Errorf("output: got %q, want %q (no prompt anywhere)", out, want)
		}
	})
	t.Run("latency", func(t *testing.T) {
		l := newLab(t)
		n := addNode(t, l, "sw1")
		const d = 20 * time.Millisecond
		n.Faults().Update(func(f *device.Faults) { f.Latency = d })
		sh := openShell(t, n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, nil))
		sh.until("sw1> ")
		start := time.Now()
		sh.send("x\r")
		if got := sh.until("sw1> "); got != "x\r\nsaid: x\r\nsw1> " {
			t.Errorf("output under latency: %q", got)
		}
		// A lower bound only: the reply cannot come before the latency.
		if el := time.Since(start); el < d {
			t.Errorf("reply after %v, before the injected latency %v", el, d)
		}
	})
}

func TestCloseWaitsForSessions(t *testing.T) {
	l, err := lab.New()
	if err != nil {
		t.Fatal(err)
	}
	n := addNode(t, l, "sw1")
	sh := openShell(t, n.Addr(), passwordConfig(lab.DefaultUser, lab.DefaultPassword, nil))
	sh.until("sw1> ")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// Close returned only after the session ended and was closed.
	if got := n.Device().(*echoDevice).closedSessions(); got != 1 {
		t.Errorf("sessions closed after Lab.Close: %d, want 1", got)
	}
	if _, err := net.Dial("tcp", n.Addr()); err == nil {
		t.Error("device still listening after Close")
	}
	if _, err := l.Add("test-echo", "sw2", nil); err == nil {
		t.Error("Add after Close succeeded")
	}
}

func TestAddErrors(t *testing.T) {
	l := newLab(t)
	addNode(t, l, "sw1")
	cases := []struct{ kind, name, seed string }{
		{"no-such-kind", "x", ""},
		{"test-echo", "sw1", ""},
		{"test-echo", "", ""},
		{"test-echo", "y", "bad"},
	}
	for _, c := range cases {
		var seed []byte
		if c.seed != "" {
			seed = []byte(c.seed)
		}
		if _, err := l.Add(c.kind, c.name, seed); err == nil {
			t.Errorf("Add(%q, %q) succeeded", c.kind, c.name)
		}
	}
	if _, err := lab.New(lab.WithCredentials("", "x")); err == nil {
		t.Error("empty user accepted")
	}
}
