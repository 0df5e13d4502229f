package vendors

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"

	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

// sshTransport is scrapligo's standard transport (transport.Standard of
// v1.4.3: crypto/ssh, an xterm PTY with echo, a shell) with the two hooks
// it does not expose: a host key callback built once per known_hosts file
// (Standard re-reads the whole file on every connection, which is
// quadratic over a fleet) and authentication from ssh-agent.
type sshTransport struct {
	auth     []ssh.AuthMethod
	hostKeys ssh.HostKeyCallback
	closers  []io.Closer

	client  *ssh.Client
	session *ssh.Session
	w       io.WriteCloser
	r       io.Reader
	// buf is reused by every Read: scrapligo asks for 8 KiB each time and
	// mostly gets a few bytes.
	buf []byte
}

// Terminal settings of transport.Standard.
const (
	termType  = "xterm"
	termSpeed = 115200
)

// newTransport builds the transport for l. The agent socket is opened here
// and closed with the transport. Host keys are verified against the
// known_hosts file (or the keys given) unless the user passed the explicit
// -insecure-ignore-host-key flag.
func newTransport(l Login) (*sshTransport, error) {
	t := &sshTransport{}
	switch {
	case l.InsecureIgnoreHostKey:
		t.hostKeys = ssh.InsecureIgnoreHostKey() // only with -insecure-ignore-host-key
	case l.HostKeys != nil:
		t.hostKeys = l.HostKeys
	default:
		cb, err := KnownHosts(l.KnownHosts)
		if err != nil {
			return nil, err
		}
		t.hostKeys = cb
	}
	if l.KeyFile != "" {
		b, err := os.ReadFile(l.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("key file: %w", err)
		}
		signer, err := ssh.ParsePrivateKey(b)
		if err != nil {
			return nil, fmt.Errorf("key file %s: %w", l.KeyFile, err)
		}
		t.auth = append(t.auth, ssh.PublicKeys(signer))
	}
	if l.AgentSocket != "" {
		conn, err := net.Dial("unix", l.AgentSocket)
		if err != nil {
			return nil, fmt.Errorf("ssh-agent: %w", err)
		}
		t.closers = append(t.closers, conn)
		t.auth = append(t.auth, ssh.PublicKeysCallback(agent.NewClient(conn).Signers))
	}
	if l.Password != "" {
		pw := l.Password
		t.auth = append(t.auth, ssh.Password(pw.Reveal()),
			ssh.KeyboardInteractive(func(_, _ string, questions []string, _ []bool) ([]string, error) {
				answers := make([]string, len(questions))
				for i := range answers {
					answers[i] = pw.Reveal()
				}
				return answers, nil
			}))
	}
	if len(t.auth) == 0 {
		t.closeAll()
		return nil, errors.New("no authentication method: give a password, a key file or an ssh-agent")
	}
	return t, nil
}

// KnownHosts returns a host key callback for a known_hosts file. Build it
// once per file and share it (Login.HostKeys) across a fleet.
func KnownHosts(path string) (ssh.HostKeyCallback, error) {
	if path == "" {
		return nil, errors.New("no known_hosts file to check the host key against")
	}
	cb, err := knownhosts.New(path)
	if err != nil {
		return nil, fmt.Errorf("known_hosts: %w", err)
	}
	return cb, nil
}

// Open connects, authenticates, and starts a shell on a PTY.
func (t *sshTransport) Open(a *transport.Args) error {
	cfg := &ssh.ClientConfig{User: a.User, Auth: t.auth, HostKeyCallback: t.hostKeys, Timeout: a.TimeoutSocket}
	client, err := ssh.Dial("tcp", net.JoinHostPort(a.Host, strconv.Itoa(a.Port)), cfg)
	if err != nil {
		return err
	}
	t.client = client
	if t.session, err = client.NewSession(); err != nil {
		return err
	}
	if t.w, err = t.session.StdinPipe(); err != nil {
		return err
	}
	if t.r, err = t.session.StdoutPipe(); err != nil {
		return err
	}
	modes := ssh.TerminalModes{ssh.ECHO: 1, ssh.TTY_OP_ISPEED: termSpeed, ssh.TTY_OP_OSPEED: termSpeed}
	if err := t.session.RequestPty(termType, a.TermHeight, a.TermWidth, modes); err != nil {
		return err
	}
	return t.session.Shell()
}

// Close closes the session, the connection and the agent socket.
func (t *sshTransport) Close() error {
	if t.session != nil {
		_ = t.session.Close()
		t.session = nil
	}
	var err error
	if t.client != nil {
		err = t.client.Close()
		t.client = nil
	}
	t.closeAll()
	return err
}

func (t *sshTransport) closeAll() {
	for _, c := range t.closers {
		_ = c.Close()
	}
	t.closers = nil
}

// IsAlive reports whether the session is open.
func (t *sshTransport) IsAlive() bool { return t.session != nil }

// Read reads up to n bytes and returns a copy of what it read.
func (t *sshTransport) Read(n int) ([]byte, error) {
	if cap(t.buf) < n {
		t.buf = make([]byte, n)
	}
	k, err := t.r.Read(t.buf[:n])
	if err != nil {
		return nil, err
	}
	return bytes.Clone(t.buf[:k]), nil
}

// Write writes b.
func (t *sshTransport) Write(b []byte) error {
	_, err := t.w.Write(b)
	return err
}
