package gnmitarget

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sort"
	"sync"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// DefaultAddress is where a Target listens unless WithAddress says
// otherwise: the loopback, on a port the kernel picks.
const DefaultAddress = "127.0.0.1:0"

// gnmiVersion is the gNMI version the target reports: the one of the
// vendored proto (github.com/openconfig/gnmi v0.14.1, gnmi.proto's
// gnmi_service option).
const gnmiVersion = "0.10.0"

// Option configures a Target.
type Option func(*options) error

type options struct {
	ca        *CA
	plaintext bool
	user      string
	password  string
	clock     Clock
	logger    *slog.Logger
	address   string
}

// WithCA serves TLS with ca's server certificate. Without it (and without
// WithPlaintext) New makes a fresh CA; read it back with Target.CA.
func WithCA(ca *CA) Option {
	return func(o *options) error {
		if ca == nil {
			return errors.New("ca is nil")
		}
		o.ca = ca
		return nil
	}
}

// WithPlaintext serves gRPC without TLS. Only for clients that cannot do
// TLS; the credentials then cross the loopback in clear.
func WithPlaintext() Option {
	return func(o *options) error { o.plaintext = true; return nil }
}

// WithCredentials sets the username and password every RPC must carry as
// gRPC metadata (`username`, `password`). Required.
func WithCredentials(user, password string) Option {
	return func(o *options) error {
		if user == "" || password == "" {
			return errors.New("credentials need a username and a password")
		}
		o.user, o.password = user, password
		return nil
	}
}

// WithClock sets the clock that times commit-confirmed rollbacks.
func WithClock(c Clock) Option {
	return func(o *options) error {
		if c == nil {
			return errors.New("clock is nil")
		}
		o.clock = c
		return nil
	}
}

// WithLogger logs each RPC (device, op, result; never the password). The
// default discards.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) error {
		if l == nil {
			return errors.New("logger is nil")
		}
		o.logger = l
		return nil
	}
}

// WithAddress sets the listen address (host:port); the default is
// DefaultAddress.
func WithAddress(addr string) Option {
	return func(o *options) error {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return fmt.Errorf("address %q: %w", addr, err)
		}
		o.address = addr
		return nil
	}
}

// Target is a gNMI server for lab devices. Its methods are safe for
// concurrent use.
type Target struct {
	gpb.UnimplementedGNMIServer
	opts options

	mu      sync.Mutex
	devices map[string]*entry
	lis     net.Listener
	srv     *grpc.Server
	served  chan struct{}
}

// entry is one device served by the target. mu serialises the device's
// Sets and guards its pending commit.
type entry struct {
	name   string
	dev    device.Device
	faults *device.Faults

	mu      sync.Mutex
	pending *pendingCommit
}

// New makes a Target; Add devices, then Start it.
func New(opts ...Option) (*Target, error) {
	o := options{clock: realClock{}, logger: slog.New(slog.DiscardHandler), address: DefaultAddress}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, fmt.Errorf("new gnmi target: %w", err)
		}
	}
	if o.user == "" {
		return nil, errors.New("new gnmi target: credentials are required (WithCredentials)")
	}
	if o.ca != nil && o.plaintext {
		return nil, errors.New("new gnmi target: WithCA and WithPlaintext exclude each other")
	}
	if o.ca == nil && !o.plaintext {
		ca, err := NewCA()
		if err != nil {
			return nil, fmt.Errorf("new gnmi target: %w", err)
		}
		o.ca = ca
	}
	return &Target{opts: o, devices: map[string]*entry{}}, nil
}

// CA returns the CA whose certificate the target presents; nil in
// plaintext mode.
func (t *Target) CA() *CA { return t.opts.ca }

// Add serves d under name (the Prefix.Target clients use). f holds the
// device's injected faults (nil: none); the target applies Latency,
// RefuseAuth, FailCommit and ExpireCommitTimer. d must implement
// device.ConfigDB or device.CLIConfig.
func (t *Target) Add(name string, d device.Device, f *device.Faults) error {
	if name == "" || d == nil {
		return errors.New("add device: empty name or nil device")
	}
	_, db := d.(device.ConfigDB)
	_, cli := d.(device.CLIConfig)
	if !db && !cli {
		return fmt.Errorf("add device %s: it offers neither CONFIG_DB nor atomic CLI config, so gNMI cannot reach it", name)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.devices[name]; dup {
		return fmt.Errorf("add device %s: already served", name)
	}
	t.devices[name] = &entry{name: name, dev: d, faults: f}
	return nil
}

// Start listens and serves until Close or until ctx is done.
func (t *Target) Start(ctx context.Context) error {
	var lc net.ListenConfig
	lis, err := lc.Listen(ctx, "tcp", t.opts.address)
	if err != nil {
		return fmt.Errorf("start gnmi target: %w", err)
	}
	var sopts []grpc.ServerOption
	if !t.opts.plaintext {
		sopts = append(sopts, grpc.Creds(credentials.NewTLS(t.opts.ca.serverTLS())))
	}
	sopts = append(sopts, grpc.UnaryInterceptor(t.authenticate))
	srv := grpc.NewServer(sopts...)
	gpb.RegisterGNMIServer(srv, t)

	t.mu.Lock()
	if t.srv != nil {
		t.mu.Unlock()
		_ = lis.Close()
		return errors.New("start gnmi target: already started")
	}
	t.lis, t.srv, t.served = lis, srv, make(chan struct{})
	t.mu.Unlock()

	go func() {
		defer close(t.served)
		_ = srv.Serve(lis) // returns when Stop closes the listener
	}()
	context.AfterFunc(ctx, func() { _ = t.Close() })
	return nil
}

// Addr returns the address the target listens on ("127.0.0.1:40123"),
// or "" before Start.
func (t *Target) Addr() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.lis == nil {
		return ""
	}
	return t.lis.Addr().String()
}

// Close stops serving, waits for the server goroutine and cancels pending
// commit-confirmed timers (the devices keep their current config): no
// rollback starts after Close returns, since a timer that fires late finds
// its commit gone. It is safe to call more than once.
func (t *Target) Close() error {
	t.mu.Lock()
	srv, served := t.srv, t.served
	entries := make([]*entry, 0, len(t.devices))
	for _, e := range t.devices {
		entries = append(entries, e)
	}
	t.mu.Unlock()
	if srv != nil {
		srv.Stop()
		<-served
	}
	for _, e := range entries {
		e.mu.Lock()
		if e.pending != nil {
			e.pending.timer.Stop()
			e.pending = nil
		}
		e.mu.Unlock()
	}
	return nil
}

// authenticate checks the username and password metadata of every RPC.
func (t *Target) authenticate(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	user, pass := first(md, "username"), first(md, "password")
	okUser := subtle.ConstantTimeCompare([]byte(user), []byte(t.opts.user)) == 1
	okPass := subtle.ConstantTimeCompare([]byte(pass), []byte(t.opts.password)) == 1
	if !okUser || !okPass {
		t.opts.logger.Warn("refused credentials", "op", info.FullMethod, "user", user)
		return nil, status.Error(codes.Unauthenticated, "authentication failed: bad username or password")
	}
	return handler(ctx, req)
}

// first returns the first value of key in md, or "".
func first(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

// lookup returns the device a request names, after applying its
// per-RPC faults (latency, refused auth).
func (t *Target) lookup(ctx context.Context, target string) (*entry, error) {
	t.mu.Lock()
	e, ok := t.devices[target]
	if target == "" && len(t.devices) == 1 {
		for _, only := range t.devices {
			e, ok = only, true
		}
	}
	names := make([]string, 0, len(t.devices))
	for n := range t.devices {
		names = append(names, n)
	}
	t.mu.Unlock()
	if !ok {
		sort.Strings(names)
		if target == "" {
			return nil, status.Errorf(codes.InvalidArgument, "prefix target is required: this target serves %d devices %v", len(names), names)
		}
		return nil, status.Errorf(codes.NotFound, "unknown target %q: this target serves %v", target, names)
	}
	if err := e.rpcFaults(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// rpcFaults applies the device's injected latency and refused auth.
func (e *entry) rpcFaults(ctx context.Context) error {
	f := e.faults.Load()
	if f.Latency > 0 {
		tm := time.NewTimer(f.Latency)
		defer tm.Stop()
		select {
		case <-tm.C:
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		}
	}
	if f.RefuseAuth {
		return status.Error(codes.Unauthenticated, "authentication failed: bad username or password")
	}
	return nil
}

// Capabilities reports the models, encodings and extensions the target
// supports: OpenConfig QoS (ocqos) when it serves a CLI device, JSON_IETF
// (and JSON, ASCII, PROTO where a Get path accepts them), and Commit
// Confirmed when a device can checkpoint.
func (t *Target) Capabilities(ctx context.Context, _ *gpb.CapabilityRequest) (*gpb.CapabilityResponse, error) {
	t.mu.Lock()
	entries := make([]*entry, 0, len(t.devices))
	for _, e := range t.devices {
		entries = append(entries, e)
	}
	t.mu.Unlock()
	if len(entries) == 1 {
		if err := entries[0].rpcFaults(ctx); err != nil {
			return nil, err
		}
	}
	resp := &gpb.CapabilityResponse{
		SupportedEncodings: []gpb.Encoding{gpb.Encoding_JSON, gpb.Encoding_JSON_IETF, gpb.Encoding_ASCII, gpb.Encoding_PROTO},
		GNMIVersion:        gnmiVersion,
	}
	var cli, cp bool
	for _, e := range entries {
		_, c := e.dev.(device.CLIConfig)
		_, k := e.dev.(device.Checkpointer)
		cli, cp = cli || c, cp || k
	}
	if cli {
		resp.SupportedModels = openConfigModels()
	}
	if cp {
		resp.Extension = append(resp.Extension, commitCapability())
	}
	return resp, nil
}
