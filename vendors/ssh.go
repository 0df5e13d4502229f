package vendors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/opoptions"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/logging"
	"github.com/scrapli/scrapligo/util"
	"golang.org/x/crypto/ssh/knownhosts"
)

// readDelay is scrapligo's pause between polls of a session's output.
const readDelay = time.Millisecond

// Default timeouts of a Target that leaves them unset.
const (
	DefaultDialTimeout = 15 * time.Second
	DefaultOpTimeout   = 60 * time.Second
)

// Target is one device to connect to, resolved from the inventory.
type Target struct {
	// Device is the inventory name, used in every error and log line.
	Device  string
	Vendor  string
	Address string
	// Port is the management port; 0 means the transport's default.
	Port int
	// Transport is the inventory's "ssh" or "gnmi"; a driver that speaks
	// only one refuses the other.
	Transport string
	Login     Login
	// DialTimeout bounds the TCP connect and SSH handshake; 0 means
	// DefaultDialTimeout.
	DialTimeout time.Duration
	// OpTimeout bounds one command; 0 means DefaultOpTimeout.
	OpTimeout time.Duration
	// Logger receives connection milestones (Info) and wire traffic
	// (Debug); nil is silent.
	Logger *slog.Logger
}

// Log returns t.Logger, or a logger that discards everything when it is
// nil, so drivers log without checking.
func (t Target) Log() *slog.Logger {
	if t.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return t.Logger
}

// Session is an SSH CLI session with one device: scrapligo's network
// driver over scrapligo's standard transport code with our host key and
// ssh-agent hooks (sshTransport). Every call takes a ctx: cancelling it closes the transport,
// so no read can outlive it.
type Session struct {
	device    string
	drv       *network.Driver
	opTimeout time.Duration
	log       *slog.Logger
	closed    bool
}

// HostKeyError is a host key that known_hosts does not vouch for.
type HostKeyError struct {
	Device, Address string
	// Changed is true when known_hosts holds another key for the address
	// (a possible man in the middle); false when the address is unknown.
	Changed bool
	// KnownHosts is the file checked.
	KnownHosts string
}

// Error explains the refusal and the way out.
func (e *HostKeyError) Error() string {
	what := "is not in"
	if e.Changed {
		what = "differs from the key for it in"
	}
	return fmt.Sprintf("connect %s: host key of %s %s %s; check the key and add it there, or pass -insecure-ignore-host-key", e.Device, e.Address, what, e.KnownHosts)
}

// DialPlatform opens a CLI session with t using the scrapligo platform p.
// The host key must be in t.Login's known_hosts (HostKeys, else the
// KnownHosts file) unless t.Login.InsecureIgnoreHostKey is set.
func DialPlatform(ctx context.Context, t Target, plat *Platform) (*Session, error) {
	if t.Address == "" {
		return nil, fmt.Errorf("connect %s: no address", t.Device)
	}
	log := t.Log()
	log = log.With("device", t.Device)
	port := t.Port
	if port == 0 {
		port = 22
	}
	tr, err := newTransport(t.Login)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", t.Device, err)
	}
	opts := []util.Option{
		options.WithCustomTransport(tr),
		options.WithPort(port),
		options.WithAuthUsername(t.Login.User),
		options.WithTimeoutSocket(orDefault(t.DialTimeout, DefaultDialTimeout)),
		options.WithTimeoutOps(orDefault(t.OpTimeout, DefaultOpTimeout)),
		// scrapligo polls its read queue every ReadDelay (250 µs by
		// default); a fleet waiting on slow replies then spends its CPU
		// waking up. 1 ms adds at most that to a reply.
		options.WithReadDelay(readDelay),
		options.WithLogger(wireLogger(ctx, log)),
	}
	drv, err := plat.driver(t.Address, opts...)
	if err != nil {
		tr.closeAll()
		return nil, fmt.Errorf("connect %s: %w", t.Device, scrub(err, t.Login))
	}
	stop := context.AfterFunc(ctx, func() { _ = drv.Transport.Close(true) })
	defer stop()
	start := time.Now()
	if err := drv.Open(); err != nil {
		_ = tr.Close()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("connect %s: %w", t.Device, ctx.Err())
		}
		var ke *knownhosts.KeyError
		if errors.As(err, &ke) {
			return nil, &HostKeyError{Device: t.Device, Address: fmt.Sprintf("%s:%d", t.Address, port), Changed: len(ke.Want) > 0, KnownHosts: t.Login.KnownHosts}
		}
		return nil, fmt.Errorf("connect %s: %w", t.Device, scrub(err, t.Login))
	}
	log.Info("connected", "op", "connect", "duration", time.Since(start))
	return &Session{device: t.Device, drv: drv, opTimeout: orDefault(t.OpTimeout, DefaultOpTimeout), log: log}, nil
}

// Command runs one exec-mode command and returns its output. Output that
// matches the platform's failure strings is a *DeviceError.
func (s *Session) Command(ctx context.Context, cmd string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%s: %q: %w", s.device, cmd, err)
	}
	stop := context.AfterFunc(ctx, func() { _ = s.drv.Transport.Close(true) })
	defer stop()
	r, err := s.drv.SendCommand(cmd, opoptions.WithTimeoutOps(s.timeout(ctx)))
	if err != nil {
		return "", s.ioError(ctx, cmd, err)
	}
	if r.Failed != nil {
		return r.Result, &DeviceError{Device: s.device, Line: cmd, Reply: strings.TrimSpace(r.Result)}
	}
	return r.Result, nil
}

// Configure enters configuration mode and sends lines in order, stopping
// at the first one the device refuses (a *DeviceError naming it). Lines
// sent before a failure stay applied on NOSes that apply as they go.
func (s *Session) Configure(ctx context.Context, lines []string) error {
	if len(lines) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: configure: %w", s.device, err)
	}
	if err := s.sendConfigs(ctx, lines); err != nil {
		return err
	}
	s.log.Debug("configured", "op", "configure", "lines", len(lines))
	return nil
}

// sendConfigs sends lines with opts, stopping at the first one the
// device refuses (a *DeviceError naming it); ctx cuts the transport.
func (s *Session) sendConfigs(ctx context.Context, lines []string, opts ...util.Option) error {
	stop := context.AfterFunc(ctx, func() { _ = s.drv.Transport.Close(true) })
	defer stop()
	mr, err := s.drv.SendConfigs(lines, append(opts, opoptions.WithStopOnFailed(), opoptions.WithTimeoutOps(s.timeout(ctx)))...)
	if err != nil {
		return s.ioError(ctx, "configure", err)
	}
	for _, r := range mr.Responses {
		if r.Failed != nil {
			return &DeviceError{Device: s.device, Line: r.Input, Reply: strings.TrimSpace(r.Result)}
		}
	}
	if len(mr.Responses) < len(lines) {
		return fmt.Errorf("%s: configure: the device answered %d of %d lines", s.device, len(mr.Responses), len(lines))
	}
	return nil
}

// Exec leaves configuration mode if needed and runs cmd in exec mode, as
// Command does; use it for checkpoint and rollback commands.
func (s *Session) Exec(ctx context.Context, cmd string) (string, error) {
	if err := s.drv.AcquirePriv(s.drv.DefaultDesiredPriv); err != nil {
		return "", s.ioError(ctx, cmd, err)
	}
	return s.Command(ctx, cmd)
}

// Close ends the session; safe to call more than once.
func (s *Session) Close() error {
	if s == nil || s.closed {
		return nil
	}
	s.closed = true
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.drv.Close()
	}()
	select {
	case <-done:
	case <-time.After(closeTimeout):
		_ = s.drv.Transport.Close(true)
		<-done
	}
	return nil
}

// closeTimeout bounds the polite close (the on-close "exit") of a session.
const closeTimeout = 5 * time.Second

// timeout is the op timeout, shortened to what is left of ctx.
func (s *Session) timeout(ctx context.Context) time.Duration {
	d := s.opTimeout
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < d {
			d = max(left, time.Millisecond)
		}
	}
	return d
}

// ErrConnectionLost is wrapped by errors from a session whose transport
// failed (dropped, timed out) while a command was in flight.
var ErrConnectionLost = errors.New("connection lost")

func (s *Session) ioError(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %s: %w", s.device, what, ctx.Err())
	}
	return fmt.Errorf("%s: %s: %w: %v", s.device, what, ErrConnectionLost, err)
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// scrub removes the password from an error's text: scrapligo errors may
// quote options.
func scrub(err error, l Login) error {
	if l.Password == "" || !strings.Contains(err.Error(), l.Password.Reveal()) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), l.Password.Reveal(), "REDACTED"))
}

// wireLogger bridges scrapligo's logger to slog at Debug (wire traffic).
// Passwords never reach it: scrapligo logs what it reads and the commands
// it sends, and the password goes through crypto/ssh, not the channel.
func wireLogger(ctx context.Context, l *slog.Logger) *logging.Instance {
	if !l.Enabled(ctx, slog.LevelDebug) {
		inst, _ := logging.NewInstance() // silent, and formats nothing
		return inst
	}
	inst, err := logging.NewInstance(logging.WithLevel(logging.Debug), logging.WithLogger(func(args ...interface{}) {
		l.Debug(strings.TrimSpace(fmt.Sprint(args...)), "op", "wire")
	}))
	if err != nil {
		inst, _ = logging.NewInstance()
	}
	return inst
}
