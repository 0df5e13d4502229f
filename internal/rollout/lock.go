package rollout

import (
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

// Acquire creates the lock file at path holding info; when it exists, the
// error is a *LockedError naming its holder.
func Acquire(path string, info LockInfo) (*Lock, error) {
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

// Release removes the lock file.
func (l *Lock) Release() error {
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

// ForceUnlock removes the lock file at path and returns whose lock it was
// (the caller prints it).
func ForceUnlock(path string) (LockInfo, error) {
	i, err := ReadLock(path)
	if err != nil {
		return i, fmt.Errorf("force-unlock %s: %w", path, err)
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
