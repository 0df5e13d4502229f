// Package lab is the built-in switch lab: SSH servers on 127.0.0.1 that
// each run one emulated device (a personality from lab/<vendor>, found by
// kind name in the lab/device registry), with transport fault injection.
// It owns the SSH protocol, terminal handling (echo, line endings,
// prompts), credentials, host keys and the generated inventory and
// known_hosts files. It knows no vendor: prompts, grammar and running
// configs come from the personalities.
package lab

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"

	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// Default credentials accepted by a lab made without WithCredentials.
const (
	DefaultUser     = "admin"
	DefaultPassword = "admin"
)

// Option configures a Lab.
type Option func(*options) error

type options struct {
	user     string
	password string
	keys     []ssh.PublicKey
	logger   *slog.Logger
}

// WithCredentials sets the user name and password every device accepts.
// Both must be non-empty.
func WithCredentials(user, password string) Option {
	return func(o *options) error {
		if user == "" || password == "" {
			return errors.New("lab credentials: user and password must not be empty")
		}
		o.user, o.password = user, password
		return nil
	}
}

// WithAuthorizedKey adds a public key every device accepts for the lab's
// user (public-key authentication).
func WithAuthorizedKey(k ssh.PublicKey) Option {
	return func(o *options) error {
		if k == nil {
			return errors.New("lab authorized key: nil key")
		}
		o.keys = append(o.keys, k)
		return nil
	}
}

// WithLogger makes the lab log connection events to l (default: silent).
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("lab logger: nil logger")
		}
		o.logger = l
		return nil
	}
}

// Lab is a set of emulated devices served over SSH from one process. Its
// methods are safe for concurrent use. Close stops every device and waits
// for every goroutine the lab started.
type Lab struct {
	opts options

	mu     sync.Mutex
	nodes  []*Node
	names  map[string]bool
	closed bool

	wg sync.WaitGroup
	// done is closed by Close; it cuts short injected latency.
	done chan struct{}
}

// New makes an empty lab.
func New(opts ...Option) (*Lab, error) {
	o := options{user: DefaultUser, password: DefaultPassword, logger: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, fmt.Errorf("new lab: %w", err)
		}
	}
	return &Lab{opts: o, names: map[string]bool{}, done: make(chan struct{})}, nil
}

// User returns the user name the lab's devices accept.
func (l *Lab) User() string { return l.opts.user }

// Node is one emulated device with its own SSH listener and host key.
type Node struct {
	name   string
	kind   string
	model  string // as given to AddModel, else the kind's (device.Modeler)
	dev    device.Device
	faults *device.Faults
	ln     net.Listener
	lab    *Lab

	hostKey  ssh.Signer // the key written to known_hosts
	otherKey ssh.Signer // presented instead while Faults.ChangeHostKey is set

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// AddOption says which switch Add builds: a model and ports, as an
// inventory gives them. Without any, the device is its kind's default
// model with the kind's default ports.
type AddOption func(*device.Spec)

// AddModel builds the device as the platform model m ("CE8850-HAM"); the
// kind refuses a model it cannot emulate. Empty m keeps the default.
func AddModel(m string) AddOption {
	return func(s *device.Spec) { s.Model = m }
}

// AddPorts gives the device the named ports (one name each, ranges
// expanded: "400GE1/0/1"), as the kind documents: added to the model's
// own ports or checked against them.
func AddPorts(ports ...string) AddOption {
	return func(s *device.Spec) { s.Ports = append(s.Ports, ports...) }
}

// Add starts a device of the registered kind (see device.Lookup) named
// hostname, its running config seeded from seed (nil: factory defaults),
// listening on 127.0.0.1 on a free port. With AddModel or AddPorts the
// kind must implement device.SpecKind and builds the device to that spec.
func (l *Lab) Add(kind, hostname string, seed []byte, opts ...AddOption) (*Node, error) {
	k, ok := device.Lookup(kind)
	if !ok {
		return nil, fmt.Errorf("add %s: unknown kind %q (registered: %v)", hostname, kind, device.Kinds())
	}
	if hostname == "" {
		return nil, fmt.Errorf("add %s device: empty hostname", kind)
	}
	var spec device.Spec
	for _, o := range opts {
		o(&spec)
	}
	if _, ok := k.(device.SpecKind); !ok && !spec.IsZero() {
		return nil, fmt.Errorf("add %s: kind %q cannot emulate a given model or ports", hostname, kind)
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, fmt.Errorf("add %s: lab is closed", hostname)
	}
	if l.names[hostname] {
		l.mu.Unlock()
		return nil, fmt.Errorf("add %s: duplicate device name", hostname)
	}
	l.names[hostname] = true
	l.mu.Unlock()
	n, err := l.start(k, kind, hostname, seed, spec)
	if err != nil {
		l.mu.Lock()
		delete(l.names, hostname)
		l.mu.Unlock()
		return nil, err
	}
	l.opts.logger.Info("device started", "device", hostname, "vendor", kind, "model", n.model, "addr", n.Addr())
	return n, nil
}

func (l *Lab) start(k device.Kind, kind, hostname string, seed []byte, spec device.Spec) (*Node, error) {
	var dev device.Device
	var err error
	if sk, ok := k.(device.SpecKind); ok && !spec.IsZero() {
		dev, err = sk.NewSpec(hostname, seed, spec)
	} else {
		dev, err = k.New(hostname, seed)
	}
	if err != nil {
		return nil, fmt.Errorf("add %s: %w", hostname, err)
	}
	model := spec.Model
	if m, ok := k.(device.Modeler); ok && model == "" {
		model = m.Model()
	}
	hostKey, err := newHostKey()
	if err != nil {
		return nil, fmt.Errorf("add %s: %w", hostname, err)
	}
	otherKey, err := newHostKey()
	if err != nil {
		return nil, fmt.Errorf("add %s: %w", hostname, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("add %s: %w", hostname, err)
	}
	n := &Node{
		name: hostname, kind: kind, model: model, dev: dev, faults: &device.Faults{}, ln: ln, lab: l,
		hostKey: hostKey, otherKey: otherKey, conns: map[net.Conn]struct{}{},
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		_ = ln.Close()
		return nil, fmt.Errorf("add %s: lab is closed", hostname)
	}
	l.nodes = append(l.nodes, n)
	l.wg.Add(1)
	l.mu.Unlock()
	go func() {
		defer l.wg.Done()
		n.acceptLoop()
	}()
	return n, nil
}

// Nodes returns the lab's devices in the order they were added.
func (l *Lab) Nodes() []*Node {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*Node(nil), l.nodes...)
}

// Close stops every device, drops every connection and waits for every
// goroutine the lab started. It is safe to call more than once.
func (l *Lab) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		l.wg.Wait()
		return nil
	}
	l.closed = true
	close(l.done)
	nodes := append([]*Node(nil), l.nodes...)
	l.mu.Unlock()
	for _, n := range nodes {
		_ = n.ln.Close()
		n.dropAll()
	}
	l.wg.Wait()
	return nil
}

// Name is the device's hostname.
func (n *Node) Name() string { return n.name }

// Kind is the device's kind name, as its personality registers it.
func (n *Node) Kind() string { return n.kind }

// Model is the platform model the device emulates: the one given to
// AddModel, else its kind's default (empty when the kind names none).
func (n *Node) Model() string { return n.model }

// Addr is the device's SSH listen address ("127.0.0.1:40123").
func (n *Node) Addr() string { return n.ln.Addr().String() }

// Port is the device's SSH TCP port.
func (n *Node) Port() int { return n.ln.Addr().(*net.TCPAddr).Port }

// Device is the emulated device, shared by all its sessions.
func (n *Node) Device() device.Device { return n.dev }

// Connections is the number of SSH connections the node is serving: a
// connection stays counted until the line it was running has ended and
// the node has seen it close.
func (n *Node) Connections() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.conns)
}

// Faults is the device's fault set; change it with its Update method, which
// is safe while sessions run. Transport faults apply to new connections and
// the next command; command faults to the next command the device runs.
func (n *Node) Faults() *device.Faults { return n.faults }

// HostKey is the public host key written to known_hosts (the one presented
// unless Faults.ChangeHostKey is set).
func (n *Node) HostKey() ssh.PublicKey { return n.hostKey.PublicKey() }

func newHostKey() (ssh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate host key: %w", err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, fmt.Errorf("generate host key: %w", err)
	}
	return s, nil
}
