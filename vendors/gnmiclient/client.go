// Package gnmiclient is the gNMI client the gNMI-capable vendor drivers
// share (vendors/sonic, vendors/eos): it dials a target over TLS (a CA
// file, an optional client certificate; skipping verification or speaking
// plaintext only when the login asks for it), sends the username and
// password as the `username` and `password` gRPC metadata on every RPC
// (never logged, never in an error), bounds each RPC with its own timeout,
// and retries reads (Capabilities, Get) on transient failures, never a
// Set. Conn and Client.Apply are the part of a gNMI driver the drivers
// share: the connection, and a change sent as one Set (a confirmed commit
// when the target has the extension), checked, and taken back on a
// failure. It knows no vendor: paths, origins, encodings and how a change
// is undone are the drivers'.
package gnmiclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/gnmi/proto/gnmi_ext"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/lossless-net/lossless/vendors"
)

// Defaults of a Client whose options leave them unset.
const (
	// DefaultRPCTimeout bounds one RPC when the target gives no OpTimeout.
	DefaultRPCTimeout = 60 * time.Second
	// DefaultReadAttempts is how many times a read is tried in all.
	DefaultReadAttempts = 3
	// maxMessage is the largest answer accepted (Huawei's CE caps a Get
	// answer at 20 MB, reference/huawei-ce.md §7.2; the others say nothing).
	maxMessage = 64 << 20
	// retryBackoff is the wait before the second attempt of a read; it
	// doubles for each further attempt.
	retryBackoff = 250 * time.Millisecond
)

// Client is a connection to one gNMI target. Its methods are safe for
// concurrent use.
type Client struct {
	device   string
	target   string
	conn     *grpc.ClientConn
	rpc      gpb.GNMIClient
	timeout  time.Duration
	attempts int
	backoff  time.Duration
	log      *slog.Logger
	secret   vendors.Secret // only to scrub server messages
}

// Option configures a Client.
type Option func(*options) error

type options struct {
	target   string
	attempts int
	backoff  time.Duration
}

// WithTarget sets the Prefix.Target of every request (a gNMI server that
// serves several devices picks one by it). The default is empty.
func WithTarget(name string) Option {
	return func(o *options) error { o.target = name; return nil }
}

// WithReadAttempts sets how many times a read is tried in all; n must be
// at least 1.
func WithReadAttempts(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return fmt.Errorf("read attempts must be at least 1, got %d", n)
		}
		o.attempts = n
		return nil
	}
}

// WithRetryBackoff sets the wait before the second attempt of a read (it
// doubles for each further one); 0 retries at once.
func WithRetryBackoff(d time.Duration) Option {
	return func(o *options) error {
		if d < 0 {
			return fmt.Errorf("retry backoff must not be negative, got %s", d)
		}
		o.backoff = d
		return nil
	}
}

// Dial connects to t's gNMI server at t.Address:port, where port is t.Port
// or, when that is 0, defaultPort (the vendor's). TLS is checked against
// t.Login.TLSCA (else the system roots) unless the login sets
// InsecureSkipVerify or Plaintext. A login without a user or password is
// refused: gNMI authenticates each RPC by its metadata. The connection is
// made lazily by gRPC; Dial checks the TLS files, not the server.
func Dial(ctx context.Context, t vendors.Target, defaultPort int, opts ...Option) (*Client, error) {
	o := options{attempts: DefaultReadAttempts, backoff: retryBackoff}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, fmt.Errorf("connect %s: %w", t.Device, err)
		}
	}
	if t.Address == "" {
		return nil, fmt.Errorf("connect %s: no address", t.Device)
	}
	if t.Login.User == "" || t.Login.Password == "" {
		return nil, fmt.Errorf("connect %s: gNMI needs a username and a password (credentials username_env and password_env, password_file or password)", t.Device)
	}
	port := t.Port
	if port == 0 {
		port = defaultPort
	}
	addr := net.JoinHostPort(t.Address, strconv.Itoa(port))
	creds, err := transportCredentials(t.Login, t.Address)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", t.Device, err)
	}
	conn, err := grpc.NewClient(addr,
		grpc.WithTransportCredentials(creds),
		grpc.WithPerRPCCredentials(login{user: t.Login.User, password: t.Login.Password, secure: !t.Login.Plaintext}),
		// A large switch's running config or CONFIG_DB table can pass
		// gRPC's 4 MB default.
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessage)),
	)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", t.Device, err)
	}
	log := t.Log()
	timeout := t.OpTimeout
	if timeout <= 0 {
		timeout = DefaultRPCTimeout
	}
	c := &Client{device: t.Device, target: o.target, conn: conn, rpc: gpb.NewGNMIClient(conn), timeout: timeout,
		attempts: o.attempts, backoff: o.backoff, log: log.With("device", t.Device, "transport", "gnmi"), secret: t.Login.Password}
	c.log.Info("gnmi client ready", "op", "connect", "address", addr, "tls", !t.Login.Plaintext)
	return c, nil
}

// transportCredentials builds the TLS (or, when asked, plaintext)
// credentials of a login.
func transportCredentials(l vendors.Login, host string) (credentials.TransportCredentials, error) {
	if l.Plaintext {
		if l.TLSCA != "" || l.TLSCert != "" || l.InsecureSkipVerify {
			return nil, errors.New("plaintext excludes the TLS settings (tls_ca, tls_cert, -insecure-skip-verify)")
		}
		return insecure.NewCredentials(), nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: host}
	if l.TLSCA != "" {
		pem, err := os.ReadFile(l.TLSCA)
		if err != nil {
			return nil, fmt.Errorf("tls ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls ca %s: no PEM certificate in the file", l.TLSCA)
		}
		cfg.RootCAs = pool
	}
	if (l.TLSCert == "") != (l.TLSKey == "") {
		return nil, errors.New("tls client certificate: give both tls_cert and tls_key, or neither")
	}
	if l.TLSCert != "" {
		pair, err := tls.LoadX509KeyPair(l.TLSCert, l.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("tls client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	// Only with -insecure-skip-verify: the server's certificate is not
	// checked, so anyone on the path can read the password.
	cfg.InsecureSkipVerify = l.InsecureSkipVerify
	return credentials.NewTLS(cfg), nil
}

// login sends the username and password as gRPC metadata on every RPC,
// the way gNMI servers (sonic-gnmi, EOS, gnmi_cli -with_user_pass) expect.
type login struct {
	user     string
	password vendors.Secret
	secure   bool
}

// GetRequestMetadata returns the credentials metadata.
func (l login) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"username": l.user, "password": l.password.Reveal()}, nil
}

// RequireTransportSecurity is true unless plaintext was asked for: gRPC
// then refuses to send the password over an unencrypted connection.
func (l login) RequireTransportSecurity() bool { return l.secure }

// Device returns the device name the client was dialled for.
func (c *Client) Device() string { return c.device }

// Target returns the Prefix.Target the client sets.
func (c *Client) Target() string { return c.target }

// Close closes the connection. It is safe to call more than once.
func (c *Client) Close() error {
	if c == nil || c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	if status.Code(err) == codes.Canceled {
		err = nil // already closed
	}
	return err
}

// Capabilities asks what the target supports; it is a read, so it is
// retried on transient failures.
func (c *Client) Capabilities(ctx context.Context) (*gpb.CapabilityResponse, error) {
	var resp *gpb.CapabilityResponse
	err := c.read(ctx, "capabilities", func(ctx context.Context) error {
		var err error
		resp, err = c.rpc.Capabilities(ctx, &gpb.CapabilityRequest{})
		return err
	})
	return resp, err
}

// CommitConfirmed reports whether caps advertise the gNMI Commit Confirmed
// extension.
func CommitConfirmed(caps *gpb.CapabilityResponse) bool {
	for _, x := range caps.GetExtension() {
		if _, ok := x.GetExt().(*gnmi_ext.Extension_Commit); ok {
			return true
		}
	}
	return false
}

// Get sends req with the client's target set on its prefix; it is a read,
// so it is retried on transient failures.
func (c *Client) Get(ctx context.Context, req *gpb.GetRequest) (*gpb.GetResponse, error) {
	req.Prefix = c.prefix(req.GetPrefix())
	var resp *gpb.GetResponse
	err := c.read(ctx, "get", func(ctx context.Context) error {
		var err error
		resp, err = c.rpc.Get(ctx, req)
		return err
	})
	return resp, err
}

// Set sends req once, with the client's target set on its prefix. A Set is
// never retried: a Set whose answer was lost may have been applied, and
// only the caller, re-reading the device, can tell.
func (c *Client) Set(ctx context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error) {
	req.Prefix = c.prefix(req.GetPrefix())
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.rpc.Set(rctx, req)
	if err != nil {
		err = c.wrap("set", err)
		c.log.Debug("set failed", "op", "set", "duration", time.Since(start), "err", err)
		return nil, err
	}
	c.log.Debug("set", "op", "set", "duration", time.Since(start),
		"deletes", len(req.GetDelete()), "replaces", len(req.GetReplace()), "updates", len(req.GetUpdate()))
	return resp, nil
}

// prefix returns p (or a new path) with the client's target set.
func (c *Client) prefix(p *gpb.Path) *gpb.Path {
	if c.target == "" {
		return p
	}
	if p == nil {
		p = &gpb.Path{}
	}
	p.Target = c.target
	return p
}

// read runs a read RPC, each attempt with its own timeout, retrying while
// the failure is transient and attempts remain.
func (c *Client) read(ctx context.Context, op string, call func(ctx context.Context) error) error {
	wait := c.backoff
	var err error
	for attempt := 1; ; attempt++ {
		start := time.Now()
		rctx, cancel := context.WithTimeout(ctx, c.timeout)
		err = call(rctx)
		cancel()
		if err == nil {
			c.log.Debug(op, "op", op, "duration", time.Since(start), "attempt", attempt)
			return nil
		}
		if attempt >= c.attempts || !transient(err) || ctx.Err() != nil {
			break
		}
		c.log.Debug(op+" failed, retrying", "op", op, "attempt", attempt, "err", status.Convert(err).Message())
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return c.wrap(op, err)
			}
			wait *= 2
		}
	}
	return c.wrap(op, err)
}

// transient reports whether a read that failed with err may succeed if
// tried again: the server was unreachable, overloaded or aborted the call.
// A refusal (bad credentials, bad path, unknown target) is not retried.
func transient(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

// Error is a gNMI RPC that failed: the device, the RPC and the server's
// status. The password is never part of it.
type Error struct {
	Device string
	// Op is the RPC: "capabilities", "get" or "set".
	Op string
	// Code and Message are the gRPC status.
	Code    codes.Code
	Message string
}

// Error returns "gnmi OP DEVICE: CODE: MESSAGE".
func (e *Error) Error() string {
	return fmt.Sprintf("gnmi %s %s: %s: %s", e.Op, e.Device, e.Code, e.Message)
}

// Refused reports whether the server answered and refused the request (as
// opposed to a transport failure or a timeout, after which a Set may or may
// not have been applied).
func (e *Error) Refused() bool {
	switch e.Code {
	case codes.InvalidArgument, codes.FailedPrecondition, codes.NotFound, codes.Unimplemented,
		codes.PermissionDenied, codes.Unauthenticated, codes.AlreadyExists, codes.OutOfRange:
		return true
	}
	return false
}

// wrap turns an RPC error into an *Error, keeping a context error
// matchable with errors.Is.
func (c *Client) wrap(op string, err error) error {
	st := status.Convert(err)
	// A server may quote what it was sent; the password never leaves in
	// an error.
	msg := scrubbed(st.Message(), c.secret)
	e := &Error{Device: c.device, Op: op, Code: st.Code(), Message: msg}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", e, err)
	}
	return e
}

// Is lets errors.Is(err, ErrUnauthenticated) match.
func (e *Error) Is(target error) bool {
	return target == ErrUnauthenticated && e.Code == codes.Unauthenticated
}

// ErrUnauthenticated matches (errors.Is) an RPC the target refused for
// its credentials.
var ErrUnauthenticated = errors.New("gnmi: authentication refused")

// scrubbed returns msg with every occurrence of secret replaced.
func scrubbed(msg string, secret vendors.Secret) string {
	if secret == "" {
		return msg
	}
	return strings.ReplaceAll(msg, secret.Reveal(), "REDACTED")
}
