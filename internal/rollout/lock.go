package rollout

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// LockInfo is what a lock file says about the run holding it.
type LockInfo struct {
	Owner string    `json:"owner"`
	Host  string    `json:"host"`
	PID   int       `json:"pid"`
	Start time.Time `json:"start"`
	// Token is the lock's own random name, written by Acquire: Release
	// removes the file only while it still holds this token.
	Token string `json:"token,omitempty"`
}

func (i LockInfo) String() string {
	return fmt.Sprintf("%s on %s (pid %d) since %s", i.Owner, i.Host, i.PID, i.Start.UTC().Format(time.RFC3339))
}

// Lock is a held fabric lock: a file created with O_EXCL, so two applies
// on the same fabric cannot both hold it.
type Lock struct {
	path string
	Info LockInfo
}

// LockedError is the refusal of a lock held by another run.
type LockedError struct {
	Path string
	Info LockInfo
	// Stale is true when the holder is a process of this host that no
	// longer runs; the lock is still not broken without -force-unlock.
	Stale bool
}

func (e *LockedError) Error() string {
	if e.Stale {
		return fmt.Sprintf("fabric is locked by %s, which no longer runs (stale lock %s): check the fabric, then remove it with -force-unlock", e.Info, e.Path)
	}
	return fmt.Sprintf("fabric is locked by %s (lock %s): another apply is running", e.Info, e.Path)
}

// Acquire creates the lock file at path holding info (and a token of its
// own); when it exists, the error is a *LockedError naming its holder.
func Acquire(path string, info LockInfo) (*Lock, error) {
	info.Token = rand.Text()
	b, err := json.Marshal(info)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		held, rerr := ReadLock(path)
		if rerr != nil {
			return nil, fmt.Errorf("lock %s: held, and its owner cannot be read: %w", path, rerr)
		}
		host, _ := os.Hostname()
		return nil, &LockedError{Path: path, Info: held, Stale: held.Host == host && !alive(held.PID)}
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{path: path, Info: info}, nil
}

// Release removes the lock file, only while it is l's: a lock file that
// another run holds now (after a -force-unlock) is left in place, and the
// error says whose it is.
func (l *Lock) Release() error {
	held, err := ReadLock(l.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("unlock %s: the lock was removed by someone else while this apply held it", l.path)
	case err != nil:
		return fmt.Errorf("unlock %s: %w", l.path, err)
	case held.Token != l.Info.Token:
		return fmt.Errorf("unlock %s: the lock is now held by %s, not by this apply: left in place", l.path, held)
	}
	if err := os.Remove(l.path); err != nil {
		return fmt.Errorf("unlock %s: %w", l.path, err)
	}
	return nil
}

// ReadLock returns the holder written in a lock file.
func ReadLock(path string) (LockInfo, error) {
	var i LockInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return i, err
	}
	if err := json.Unmarshal(b, &i); err != nil {
		return i, fmt.Errorf("read lock %s: %w", path, err)
	}
	return i, nil
}

// ErrLiveOwner is wrapped by ForceUnlock's refusal of a lock whose owner
// still runs.
var ErrLiveOwner = errors.New("the lock's owner still runs")

// ForceUnlock removes the lock file at path and returns whose lock it was
// (the caller prints it). It refuses, wrapping ErrLiveOwner, a lock held
// by a process alive on this host: only a lock its owner left behind is
// broken (a lock of another host cannot be checked and is removed).
func ForceUnlock(path string) (LockInfo, error) {
	i, err := ReadLock(path)
	if err != nil {
		return i, fmt.Errorf("force-unlock %s: %w", path, err)
	}
	if host, _ := os.Hostname(); i.Host == host && alive(i.PID) {
		return i, fmt.Errorf("force-unlock %s: %w: %s is alive on this host; let it finish, or stop it first", path, ErrLiveOwner, i)
	}
	if err := os.Remove(path); err != nil {
		return i, fmt.Errorf("force-unlock %s: %w", path, err)
	}
	return i, nil
}

// alive reports whether a process of this host runs with pid.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
