package vendors

import (
	"context"
	"fmt"
	"log/slog"

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
	dial    func(context.Context, Target) (*Session, error)
	diff    DiffFunc
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
