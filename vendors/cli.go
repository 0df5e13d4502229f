package vendors

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/lossless-net/lossless/internal/config"
)

// CLI is what an SSH driver of a CLI device holds: its target, the open
// session and a logger naming the device and vendor, with the Diff and
// Close of the Driver interface. A driver embeds it and adds Running and
// Apply. Like a Driver, it is not safe for concurrent use.
type CLI struct {
	Target  Target
	Session *Session
	Log     *slog.Logger
	dial    SessionDialer
	diff    DiffFunc
}

// SessionDialer opens one SSH session to a device.
type SessionDialer func(ctx context.Context, t Target) (*Session, error)

// PlatformDialer returns the SessionDialer of a vendor whose sessions run
// on the scrapligo platform definition def (its embedded platform.yaml).
// def is parsed once, on the first dial; a bad definition fails every
// dial, naming the device.
func PlatformDialer(def []byte) SessionDialer {
	parsed := sync.OnceValues(func() (*Platform, error) { return ParsePlatform(def) })
	return func(ctx context.Context, t Target) (*Session, error) {
		p, err := parsed()
		if err != nil {
			return nil, fmt.Errorf("connect %s: %w", t.Device, err)
		}
		return DialPlatform(ctx, t, p)
	}
}

// DialDriver opens t's session like DialCLI and returns the vendor's
// driver that wrap makes of it (a driver type embedding CLI). A target
// whose Transport is other than SSH is refused before connecting: Lookup's
// Dial sends those to the vendor's own dial for that transport, so only a
// direct call gets here with one.
func DialDriver(ctx context.Context, t Target, vendor string, dial SessionDialer, diff DiffFunc, wrap func(CLI) Driver) (Driver, error) {
	if t.Transport != "" && t.Transport != "ssh" {
		return nil, fmt.Errorf("connect %s: the %s SSH driver speaks ssh, not %q", t.Device, vendor, t.Transport)
	}
	c, err := DialCLI(ctx, t, vendor, dial, diff)
	if err != nil {
		return nil, err
	}
	return wrap(c), nil
}

// DialCLI opens t's session with dial for the driver of vendor, whose
// Diff is diff.
func DialCLI(ctx context.Context, t Target, vendor string, dial func(context.Context, Target) (*Session, error), diff DiffFunc) (CLI, error) {
	s, err := dial(ctx, t)
	if err != nil {
		return CLI{}, err
	}
	return CLI{Target: t, Session: s, Log: t.Log().With("device", t.Device, "vendor", vendor), dial: dial, diff: diff}, nil
}

// Diff returns the change from running (a Running result) to desired.
func (c *CLI) Diff(running []byte, desired *config.Document) (*Change, error) {
	return c.diff(c.Target.Device, running, desired)
}

// Close ends the session.
func (c *CLI) Close() error { return c.Session.Close() }

// Redial closes the session (dropped, or cut by a cancelled ctx) and
// opens a new one in its place.
func (c *CLI) Redial(ctx context.Context) error {
	_ = c.Session.Close()
	s, err := c.dial(ctx, c.Target)
	if err != nil {
		return err
	}
	c.Session = s
	return nil
}

// Read runs cmd and returns view of its output: a driver's Running. Its
// errors read "read DEVICE: …".
func (s *Session) Read(ctx context.Context, cmd string, view func([]byte) ([]byte, error)) ([]byte, error) {
	out, err := s.Command(ctx, cmd)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.device, err)
	}
	v, err := view([]byte(out))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.device, err)
	}
	return v, nil
}
