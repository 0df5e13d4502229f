package gnmiclient_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/lossless-net/lossless/internal/lab/device"
	gnmitarget "github.com/lossless-net/lossless/internal/lab/gnmi"
	"github.com/lossless-net/lossless/internal/lab/sonic"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/gnmiclient"
)

const (
	user     = "admin"
	password = "s3cret-pa55word"
)

// startTarget serves one lab SONiC device named sonic1 on a gNMI target
// with the test credentials; plaintext when asked.
func startTarget(t *testing.T, f *device.Faults, opts ...gnmitarget.Option) *gnmitarget.Target {
	t.Helper()
	k, err := sonic.NewKind()
	if err != nil {
		t.Fatal(err)
	}
	dev, err := k.New("sonic1", nil)
	if err != nil {
		t.Fatal(err)
	}
	tg, err := gnmitarget.New(append([]gnmitarget.Option{gnmitarget.WithCredentials(user, password)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Add("sonic1", dev, f); err != nil {
		t.Fatal(err)
	}
	if err := tg.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tg.Close() })
	return tg
}

// target is a vendors.Target for a served address.
func target(t *testing.T, addr string, l vendors.Login) vendors.Target {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	if l.User == "" {
		l.User = user
	}
	if l.Password == "" {
		l.Password = password
	}
	return vendors.Target{Device: "sonic1", Vendor: "sonic", Address: host, Port: p, Transport: "gnmi", Login: l}
}

// caFile writes tg's CA certificate to a file.
func caFile(t *testing.T, tg *gnmitarget.Target) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(f, tg.CA().CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func capabilities(t *testing.T, tgt vendors.Target, opts ...gnmiclient.Option) error {
	t.Helper()
	c, err := gnmiclient.Dial(t.Context(), tgt, 0, opts...)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Capabilities(t.Context())
	return err
}

// A target whose certificate comes from a CA the client was not given is
// refused by default; the CA file, or an explicit -insecure-skip-verify,
// makes it accepted.
func TestTLS(t *testing.T) {
	tg := startTarget(t, nil)
	other, err := gnmitarget.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	otherFile := filepath.Join(t.TempDir(), "other.pem")
	if err := os.WriteFile(otherFile, other.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		login vendors.Login
		ok    bool
	}{
		{"system roots refuse the lab CA", vendors.Login{}, false},
		{"another CA file is refused", vendors.Login{TLSCA: otherFile}, false},
		{"the CA file is accepted", vendors.Login{TLSCA: caFile(t, tg)}, true},
		{"insecure-skip-verify accepts", vendors.Login{InsecureSkipVerify: true}, true},
		{"plaintext to a TLS target fails", vendors.Login{Plaintext: true}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := capabilities(t, target(t, tg.Addr(), tc.login), gnmiclient.WithReadAttempts(1))
			if tc.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !tc.ok && err == nil {
				t.Fatal("accepted")
			}
			if !tc.ok && errors.Is(err, gnmiclient.ErrUnauthenticated) {
				t.Fatalf("refused for credentials, not TLS: %v", err)
			}
		})
	}
}

// Plaintext is spoken only when asked for, and then never mixed with TLS
// settings.
func TestPlaintext(t *testing.T) {
	tg := startTarget(t, nil, gnmitarget.WithPlaintext())
	if err := capabilities(t, target(t, tg.Addr(), vendors.Login{}), gnmiclient.WithReadAttempts(1)); err == nil {
		t.Error("TLS client accepted a plaintext target")
	}
	if err := capabilities(t, target(t, tg.Addr(), vendors.Login{Plaintext: true})); err != nil {
		t.Errorf("plaintext: %v", err)
	}
	_, err := gnmiclient.Dial(t.Context(), target(t, tg.Addr(), vendors.Login{Plaintext: true, TLSCA: "ca.pem"}), 0)
	if err == nil || !strings.Contains(err.Error(), "plaintext excludes") {
		t.Errorf("plaintext with a CA file: %v", err)
	}
}

// The password is sent as metadata and never appears in an error or a log
// line, even at Debug and even when the target refuses it.
func TestCredentialsNeverPrinted(t *testing.T) {
	tg := startTarget(t, nil)
	ca := caFile(t, tg)
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	good := target(t, tg.Addr(), vendors.Login{TLSCA: ca})
	good.Logger = log
	c, err := gnmiclient.Dial(t.Context(), good, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp, err := c.Get(t.Context(), &gpb.GetRequest{Path: []*gpb.Path{{Origin: "sonic-db", Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}, {Name: "PORT"}}}}, Encoding: gpb.Encoding_JSON_IETF})
	if err != nil || len(resp.GetNotification()) != 1 {
		t.Fatalf("get with the right password: %v", err)
	}

	bad := target(t, tg.Addr(), vendors.Login{TLSCA: ca, Password: "wrong-" + password})
	bad.Logger = log
	bc, err := gnmiclient.Dial(t.Context(), bad, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	_, err = bc.Capabilities(t.Context())
	if !errors.Is(err, gnmiclient.ErrUnauthenticated) {
		t.Fatalf("wrong password: got %v, want an authentication refusal", err)
	}
	for what, s := range map[string]string{"error": err.Error(), "logs": logs.String()} {
		if strings.Contains(s, password) {
			t.Errorf("the password appears in the %s:\n%s", what, s)
		}
	}
	if !strings.Contains(logs.String(), "device=sonic1") {
		t.Errorf("the logs name no device:\n%s", logs.String())
	}
}

// flaky is a gNMI server whose Get and Set fail with Unavailable for the
// first failures calls of each, counting calls.
type flaky struct {
	gpb.UnimplementedGNMIServer
	mu             sync.Mutex
	failures       int
	gets, sets     int
	getErr, setErr codes.Code
}

func (f *flaky) Get(context.Context, *gpb.GetRequest) (*gpb.GetResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets++
	if f.gets <= f.failures {
		return nil, status.Error(f.getErr, "try again")
	}
	return &gpb.GetResponse{}, nil
}

func (f *flaky) Set(context.Context, *gpb.SetRequest) (*gpb.SetResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sets++
	if f.sets <= f.failures {
		return nil, status.Error(f.setErr, "try again")
	}
	return &gpb.SetResponse{}, nil
}

func serveFlaky(t *testing.T, f *flaky) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	gpb.RegisterGNMIServer(srv, f)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// Reads are retried on transient failures (up to the attempts given), a
// refusal is not, and a Set is never retried.
func TestRetriesOnlyReads(t *testing.T) {
	tests := []struct {
		name      string
		failures  int
		code      codes.Code
		attempts  int
		wantGets  int
		wantGetOK bool
		wantSets  int
	}{
		{"transient failures retried", 2, codes.Unavailable, 3, 3, true, 1},
		{"attempts bound the retries", 5, codes.Unavailable, 3, 3, false, 1},
		{"a refusal is not retried", 1, codes.InvalidArgument, 3, 1, false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &flaky{failures: tc.failures, getErr: tc.code, setErr: codes.Unavailable}
			tgt := target(t, serveFlaky(t, f), vendors.Login{Plaintext: true})
			c, err := gnmiclient.Dial(t.Context(), tgt, 0, gnmiclient.WithReadAttempts(tc.attempts), gnmiclient.WithRetryBackoff(0))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, gerr := c.Get(t.Context(), &gpb.GetRequest{})
			if (gerr == nil) != tc.wantGetOK {
				t.Errorf("get: %v", gerr)
			}
			_, serr := c.Set(t.Context(), &gpb.SetRequest{})
			if serr == nil {
				t.Error("set succeeded on its first, failing, call: it was retried")
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.gets != tc.wantGets || f.sets != tc.wantSets {
				t.Errorf("gets = %d, sets = %d; want %d and %d", f.gets, f.sets, tc.wantGets, tc.wantSets)
			}
		})
	}
}

// Each RPC has its own timeout: a target slower than it fails with
// DeadlineExceeded, which is not retried.
func TestRPCTimeout(t *testing.T) {
	f := &device.Faults{Latency: DefaultLatency}
	tg := startTarget(t, f)
	tgt := target(t, tg.Addr(), vendors.Login{TLSCA: caFile(t, tg)})
	tgt.OpTimeout = 1 // the lab's latency is far longer than a nanosecond
	c, err := gnmiclient.Dial(t.Context(), tgt, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Capabilities(t.Context())
	var ge *gnmiclient.Error
	if !errors.As(err, &ge) || ge.Code != codes.DeadlineExceeded {
		t.Fatalf("got %v, want DeadlineExceeded", err)
	}
}

// DefaultLatency is the lab latency of TestRPCTimeout; the RPC gives up
// long before it, so the test never waits for it.
const DefaultLatency = 1 << 40 // about 18 minutes, as a time.Duration

// A login without a password cannot authenticate gNMI RPCs: refused at
// Dial, naming the device, not the value.
func TestDialNeedsCredentials(t *testing.T) {
	tgt := vendors.Target{Device: "leaf9", Address: "127.0.0.1", Login: vendors.Login{User: "admin"}}
	_, err := gnmiclient.Dial(t.Context(), tgt, 6030)
	if err == nil || !strings.Contains(err.Error(), "leaf9") {
		t.Fatalf("got %v", err)
	}
	tgt.Login.Password = password
	tgt.Login.TLSCert = "cert.pem"
	if _, err := gnmiclient.Dial(t.Context(), tgt, 6030); err == nil || !strings.Contains(err.Error(), "tls_key") {
		t.Fatalf("certificate without key: %v", err)
	}
}
