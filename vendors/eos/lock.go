package eos

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lossless-net/lossless/vendors"
)

// The device's own lock (vendors.DeviceLocker). EOS has `configure lock`
// ("Acquire the configure lock") and `configure unlock` ("Remove the
// configure lock") in privileged exec: the `configure ?` help of EOS
// 4.25.4M in a public notes file of a DCS-7020SR ("Arista cli",
// repository not known); ansible-collections/arista.eos#409 (2023) uses
// its transaction form, `configure lock transaction NAME REASON`, which a
// lock spanning several CLI sessions (eAPI requests) needs. The driver
// takes the plain form: a lock of its own CLI session, so that a killed
// lossless never leaves the device locked (the lab releases it with the
// session, internal/lab/eos/lock.go [I]).
//
// What EOS prints when another session holds the lock is in no source
// read, so the driver does not match its text: the device's reply to
// `configure lock`, whatever it is, is a refusal when a line starts with
// "%", EOS's error prefix (reference/eos.md §4), and it goes into the
// error as the device wrote it, naming the holder as the device does. A
// reply of the CLI's "unknown command" kind (% Invalid input, %
// Incomplete command, % Ambiguous command, % Unavailable command) means a
// release without the lock, not a held one.

// Commands of the configure lock.
const (
	lockCmd   = "configure lock"
	unlockCmd = "configure unlock"
)

// errNoLock is wrapped when the device does not know configure lock.
var errNoLock = errors.New("the device has no configure lock (EOS refused the command)")

// unknownCommand are EOS's replies to a command the CLI does not have
// (reference/eos.md §4).
var unknownCommand = []string{"% Invalid input", "% Incomplete command", "% Ambiguous command", "% Unavailable command"}

// unlockTimeout bounds the unlock after an apply, which runs even after
// ctx is cancelled.
const unlockTimeout = 30 * time.Second

// LockConfig implements vendors.DeviceLocker: it takes the device's
// configure lock for this session. When another session holds it the
// error wraps vendors.ErrDeviceLocked and quotes the device's reply; a
// device without the command gives an error wrapping neither.
func (d *Driver) LockConfig(ctx context.Context) error {
	if err := d.lock(ctx); err != nil {
		return fmt.Errorf("lock %s: %w", d.Target.Device, err)
	}
	return nil
}

// lock is LockConfig without the device in its errors.
func (d *Driver) lock(ctx context.Context) error {
	out, err := d.Session.Exec(ctx, lockCmd)
	if err != nil {
		de, ok := errors.AsType[*vendors.DeviceError](err)
		if !ok {
			return err
		}
		out = de.Reply
	}
	reply := refusal(out)
	switch {
	case reply == "":
		d.locked = d.Session
		return nil
	case unknown(reply):
		return fmt.Errorf("%w: %s", errNoLock, reply)
	}
	return fmt.Errorf("%w: %s", vendors.ErrDeviceLocked, reply)
}

// UnlockConfig implements vendors.DeviceLocker: it releases the lock
// LockConfig took. A lock not held, or held by a session since closed
// (the driver reconnected: the lock went with the old session), is not an
// error.
func (d *Driver) UnlockConfig(ctx context.Context) error {
	if d.locked == nil || d.locked != d.Session {
		d.locked = nil
		return nil
	}
	out, err := d.Session.Exec(ctx, unlockCmd)
	if err == nil {
		if reply := refusal(out); reply != "" {
			err = errors.New(reply)
		}
	}
	if err != nil {
		return fmt.Errorf("unlock %s: %w", d.Target.Device, err)
	}
	d.locked = nil
	return nil
}

// holdsLock reports whether this session holds the configure lock.
func (d *Driver) holdsLock() bool { return d.locked != nil && d.locked == d.Session }

// unlockAfter releases the lock Apply took, even after ctx is cancelled;
// a failure is logged, since the lock goes with the session anyway.
func (d *Driver) unlockAfter(ctx context.Context) {
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unlockTimeout)
	defer cancel()
	if err := d.UnlockConfig(uctx); err != nil {
		d.Log.Warn("unlock failed; the lock ends with the session", "op", "unlock", "err", err)
	}
}

// refusal returns the reply's lines from the first that starts with "%",
// trimmed; "" when there is none.
func refusal(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "%") {
			return strings.TrimSpace(strings.Join(lines[i:], "\n"))
		}
	}
	return ""
}

// unknown reports whether reply is the CLI refusing an unknown command.
func unknown(reply string) bool {
	for _, u := range unknownCommand {
		if strings.HasPrefix(reply, u) {
			return true
		}
	}
	return false
}
