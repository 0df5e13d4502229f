package lab

import (
	"bytes"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// handshakeTimeout bounds an SSH handshake so a silent client cannot hold
// a connection goroutine.
const handshakeTimeout = 30 * time.Second

var errAuthRefused = errors.New("authentication refused")

func (n *Node) acceptLoop() {
	for {
		c, err := n.ln.Accept()
		if err != nil {
			return // listener closed by Lab.Close
		}
		if !n.track(c) {
			_ = c.Close()
			return
		}
		n.lab.wg.Add(1)
		go func() {
			defer n.lab.wg.Done()
			defer n.untrack(c)
			n.serveConn(c)
		}()
	}
}

// track records an open connection so Close can drop it; it reports false
// once the lab is closing.
func (n *Node) track(c net.Conn) bool {
	select {
	case <-n.lab.done:
		return false
	default:
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.conns[c] = struct{}{}
	return true
}

func (n *Node) untrack(c net.Conn) {
	n.mu.Lock()
	delete(n.conns, c)
	n.mu.Unlock()
	_ = c.Close()
}

func (n *Node) dropAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for c := range n.conns {
		_ = c.Close()
	}
}

// switchKeyExchanges are the key exchanges a lab device offers: those of a
// switch's SSH server (curve25519, then ECDH and DH; AOS-CX's and SR OS's
// documented defaults, for example), without the post-quantum hybrid of
// crypto/ssh's own default, which switch NOSes do not offer and which
// costs each lab login (client and server in one process) a second key
// exchange.
var switchKeyExchanges = []string{
	ssh.KeyExchangeCurve25519,
	ssh.KeyExchangeECDHP256, ssh.KeyExchangeECDHP384, ssh.KeyExchangeECDHP521,
	ssh.KeyExchangeDH16SHA512, ssh.KeyExchangeDH14SHA256,
}

func (n *Node) serverConfig() *ssh.ServerConfig {
	o := n.lab.opts
	cfg := &ssh.ServerConfig{
		Config: ssh.Config{KeyExchanges: switchKeyExchanges},
		PasswordCallback: func(meta ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if n.faults.Load().RefuseAuth {
				return nil, errAuthRefused
			}
			userOK := subtle.ConstantTimeCompare([]byte(meta.User()), []byte(o.user)) == 1
			pwOK := subtle.ConstantTimeCompare(pw, []byte(o.password)) == 1
			if userOK && pwOK {
				return nil, nil
			}
			return nil, errAuthRefused
		},
		PublicKeyCallback: func(meta ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if n.faults.Load().RefuseAuth || meta.User() != o.user {
				return nil, errAuthRefused
			}
			for _, k := range o.keys {
				if bytes.Equal(k.Marshal(), key.Marshal()) {
					return nil, nil
				}
			}
			return nil, errAuthRefused
		},
	}
	if n.faults.Load().ChangeHostKey {
		cfg.AddHostKey(n.otherKey)
	} else {
		cfg.AddHostKey(n.hostKey)
	}
	return cfg
}

func (n *Node) serveConn(c net.Conn) {
	_ = c.SetDeadline(time.Now().Add(handshakeTimeout))
	sc, chans, reqs, err := ssh.NewServerConn(c, n.serverConfig())
	if err != nil {
		n.lab.opts.logger.Debug("ssh handshake failed", "device", n.name, "error", err)
		return
	}
	_ = c.SetDeadline(time.Time{})
	var wg sync.WaitGroup
	wg.Go(func() { ssh.DiscardRequests(reqs) })
	// commands counts lines run on this connection, for Faults.CloseAfter.
	var commands atomic.Int64
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only session channels are supported")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			continue
		}
		wg.Go(func() { n.serveSession(sc, ch, chReqs, &commands) })
	}
	_ = sc.Close()
	wg.Wait()
}

// serveSession answers one session channel: pty-req, env and window-change
// are accepted; shell starts the device CLI; exec runs one command.
func (n *Node) serveSession(sc *ssh.ServerConn, ch ssh.Channel, reqs <-chan *ssh.Request, commands *atomic.Int64) {
	defer ch.Close()
	var cli sync.WaitGroup
	defer cli.Wait()
	started := false
	for req := range reqs {
		switch req.Type {
		case "pty-req", "env", "window-change":
			if req.WantReply {
				_ = req.Reply(true, nil)
			}
		case "shell", "exec":
			if started {
				_ = req.Reply(false, nil)
				continue
			}
			started = true
			_ = req.Reply(true, nil)
			shell, cmd := req.Type == "shell", execCommand(req.Payload)
			// The CLI runs beside this loop so that requests arriving
			// meanwhile (window-change) never block the connection.
			cli.Go(func() {
				sess := n.dev.NewSession(sc.User(), n.faults)
				var status uint32
				drop := false
				if shell {
					drop = n.runShell(ch, sess, commands)
				} else {
					status = n.runExec(ch, sess, cmd)
				}
				// The device learns of the drop before the client does.
				sess.Close()
				if drop {
					_ = sc.Close()
					return
				}
				_, _ = ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, status))
				_ = ch.Close()
			})
		default:
			if req.WantReply {
				_ = req.Reply(false, nil)
			}
		}
	}
}

func execCommand(payload []byte) string {
	if len(payload) < 4 {
		return ""
	}
	l := binary.BigEndian.Uint32(payload)
	if int(l) > len(payload)-4 {
		return ""
	}
	return string(payload[4 : 4+l])
}

// runExec runs one command line (an SSH exec request) and prints its
// output; the exit status is 1 only when the lab closed before it ran.
func (n *Node) runExec(ch ssh.Channel, sess device.Session, cmd string) uint32 {
	if !n.wait() {
		return 1
	}
	out, _ := sess.Handle(strings.TrimRight(cmd, "\r\n"))
	_, _ = io.WriteString(ch, crlf(out))
	return 0
}

// wait sleeps for the injected latency; it reports false when the lab
// closed meanwhile.
func (n *Node) wait() bool {
	d := n.faults.Load().Latency
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-n.lab.done:
		return false
	}
}

// runShell is the interactive CLI: it echoes what the client types as a
// switch does, runs each line when CR or LF arrives (CR LF counts once),
// and prints the output and the next prompt.
//
// It reports true when the connection must drop (Faults.CloseAfter).
//
// What it prints is gathered and sent when it has handled what the client
// sent (and before the injected latency), so that the echo of a typed
// line is one SSH packet rather than one per character: the bytes and
// their order are those a switch prints.
func (n *Node) runShell(ch ssh.Channel, sess device.Session, commands *atomic.Int64) (drop bool) {
	w := &shellWriter{ch: ch}
	defer w.flush()
	w.write(crlf(sess.Greeting()))
	n.prompt(w, sess)
	var line []byte
	var lastCR bool
	var pg pager
	enter := "\r\n"
	if e, ok := sess.(device.Echoer); ok {
		enter = e.EchoEnter()
	}
	buf := make([]byte, 1024)
	for {
		w.flush()
		k, err := ch.Read(buf)
		if k == 0 && err != nil {
			return false
		}
		for _, b := range buf[:k] {
			if pg.active() {
				if b == '\n' && lastCR {
					lastCR = false
					continue
				}
				lastCR = b == '\r'
				if pg.key(w, b) {
					if pg.done {
						return false
					}
					n.prompt(w, sess)
				}
				continue
			}
			switch {
			case b == '\n' && lastCR:
				lastCR = false
				continue
			case b == '\r' || b == '\n':
				lastCR = b == '\r'
				w.write(enter)
				typed := string(line)
				line = line[:0]
				count := commands.Add(1)
				if f := n.faults.Load(); f.CloseAfter > 0 && count > int64(f.CloseAfter) {
					n.lab.opts.logger.Info("fault: closing connection", "device", n.name, "after", f.CloseAfter)
					return true
				}
				w.flush()
				if !n.wait() {
					return false
				}
				out, done := sess.Handle(typed)
				if pg.start(w, sess, crlf(out), done) {
					continue // the rest waits behind the more prompt
				}
				if done {
					return false
				}
				n.prompt(w, sess)
				continue
			case b == 0x7f || b == 0x08: // backspace
				if len(line) > 0 {
					line = line[:len(line)-1]
					w.write("\b \b")
				}
			case b == 0x03: // Ctrl-C drops the line being typed
				line = line[:0]
				w.write("^C\r\n")
				n.prompt(w, sess)
			case b < 0x20 && b != '\t':
				// other control characters are ignored, as on a switch CLI
			default:
				line = append(line, b)
				w.writeByte(b)
			}
			lastCR = false
		}
		if err != nil {
			return false
		}
	}
}

func (n *Node) prompt(w *shellWriter, sess device.Session) {
	if n.faults.Load().NoPrompt {
		return
	}
	w.write(sess.Prompt())
}

// shellWriter gathers what the shell prints until flush sends it. It
// ignores write errors: a dropped client ends the read loop.
type shellWriter struct {
	ch  ssh.Channel
	buf []byte
}

func (w *shellWriter) write(s string) { w.buf = append(w.buf, s...) }

func (w *shellWriter) writeByte(b byte) { w.buf = append(w.buf, b) }

// maxKeptOutput is the largest buffer a shell keeps between flushes.
const maxKeptOutput = 64 << 10

// flush sends what was written since the last flush.
func (w *shellWriter) flush() {
	if len(w.buf) > 0 {
		_, _ = w.ch.Write(w.buf)
		w.buf = w.buf[:0]
		if cap(w.buf) > maxKeptOutput {
			w.buf = nil // do not hold a long output for the session's life
		}
	}
}

// crlf turns the personality's "\n" line endings into the "\r\n" a
// terminal expects.
func crlf(s string) string {
	if s == "" {
		return s
	}
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// String describes the node for logs and errors.
func (n *Node) String() string { return fmt.Sprintf("%s (%s, %s)", n.name, n.kind, n.Addr()) }

// pager shows long output a page at a time for sessions that implement
// device.Pager.
type pager struct {
	rest  []string // lines still to show, with their "\r\n"
	page  int
	more  string
	erase string
	done  bool // the command ended the session
}

func (p *pager) active() bool { return len(p.rest) > 0 }

// start writes out, or its first page and the more prompt when the
// session pages and out is longer than a page; it reports whether output
// is pending.
func (p *pager) start(w *shellWriter, sess device.Session, out string, done bool) bool {
	pg, ok := sess.(device.Pager)
	if !ok {
		w.write(out)
		return false
	}
	lines, more := pg.Page()
	all := strings.SplitAfter(out, "\n")
	if all[len(all)-1] == "" {
		all = all[:len(all)-1]
	}
	if lines <= 0 || len(all) <= lines {
		w.write(out)
		return false
	}
	w.write(strings.Join(all[:lines], ""))
	*p = pager{rest: all[lines:], page: lines, more: more, done: done,
		erase: "\r" + strings.Repeat(" ", visibleLen(more)) + "\r"}
	w.write(more)
	return true
}

// key handles a keystroke at the more prompt: space shows the next page,
// Enter the next line, q drops the rest. It reports true when the output
// is finished (the caller then prints the prompt).
func (p *pager) key(w *shellWriter, b byte) bool {
	w.write(p.erase)
	n := p.page
	switch b {
	case '\r', '\n':
		n = 1
	case 'q', 'Q':
		p.rest = nil
		return true
	}
	n = min(n, len(p.rest))
	w.write(strings.Join(p.rest[:n], ""))
	p.rest = p.rest[n:]
	if len(p.rest) == 0 {
		return true
	}
	w.write(p.more)
	return false
}

// visibleLen is the printed width of s without ANSI escape sequences.
func visibleLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && !(s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
				i++
			}
			continue
		}
		n++
	}
	return n
}
