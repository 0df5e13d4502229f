package nxos

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lossless-net/lossless/vendors"
)

// NX-OS's configuration lock is the terminal lock (Cisco Nexus 9000
// System Management guide 10.5(x), "Terminal Lock for VSH Sessions"):
// `terminal lock [<60-43200>]` lets config commands run only in the
// session that took it, for that many seconds (1800 by default), while
// show and exec commands run everywhere; `terminal unlock` "releases the
// terminal lock taken by any session"; it needs network-admin. Releases
// before 10.x have no such command. No source read says what a blocked
// session is told, nor whether a lock outlives the SSH connection that
// took it: the driver reports the device's refusal as it comes, and
// takes the lock for lockTimeout only, so that a lossless killed while
// holding it blocks the switch for that long at most.

// lockTimeout is how long the terminal lock lossless takes lasts unless
// released: longer than an apply (a configuration session of a few
// hundred lines and its checks), short enough that a killed run's lock
// runs out soon.
const lockTimeout = 10 * time.Minute

// heldLock is a terminal lock the driver took.
type heldLock struct {
	// until is when NX-OS releases it by itself.
	until time.Time
}

// LockConfig takes NX-OS's terminal lock for this session
// (vendors.DeviceLocker): until UnlockConfig, no other session can change
// the configuration. When another session holds it, the error wraps
// vendors.ErrDeviceLocked and quotes the device, which names the holder.
// A release without the terminal lock (before NX-OS 10.x) refuses the
// command as invalid: then there is no lock to take, LockConfig logs it
// and returns nil.
func (d *Driver) LockConfig(ctx context.Context) error {
	dev := d.Target.Device
	until := d.now().Add(lockTimeout)
	_, err := d.Session.Exec(ctx, fmt.Sprintf("terminal lock %d", int(lockTimeout/time.Second)))
	de, refused := errors.AsType[*vendors.DeviceError](err)
	switch {
	case err == nil:
		d.lock = &heldLock{until: until}
		return nil
	case refused && strings.Contains(de.Reply, "Invalid command"):
		d.Log.Warn("this NX-OS has no terminal lock (NX-OS 10.x has): the configuration is not locked during the apply", "op", "lock")
		return nil
	case refused:
		return fmt.Errorf("lock %s: %w: %s (a lossless killed while holding the lock leaves it for %s at most; `terminal unlock` on the switch releases it)",
			dev, vendors.ErrDeviceLocked, de.Reply, lockTimeout)
	}
	return fmt.Errorf("lock %s: %w", dev, err)
}

// UnlockConfig releases the terminal lock LockConfig took. A lock not
// held, or whose timer has run out, is left alone: `terminal unlock`
// would release whichever session holds the lock now.
func (d *Driver) UnlockConfig(ctx context.Context) error {
	l := d.lock
	d.lock = nil
	if l == nil || !d.now().Before(l.until) {
		return nil
	}
	if _, err := d.Session.Exec(ctx, "terminal unlock"); err != nil {
		return fmt.Errorf("unlock %s: %w", d.Target.Device, err)
	}
	return nil
}

// redial replaces a dropped session with a new one. The terminal lock
// the driver held belongs to the dead session, and would refuse the new
// one's config commands: it is released and taken again for the new
// session.
func (d *Driver) redial(ctx context.Context) error {
	if err := d.Redial(ctx); err != nil {
		return err
	}
	if d.lock == nil || !d.now().Before(d.lock.until) {
		return nil
	}
	if _, err := d.Session.Exec(ctx, "terminal unlock"); err != nil {
		return fmt.Errorf("release the lock of the dropped session: %w", err)
	}
	d.lock = nil
	return d.LockConfig(ctx)
}
