package vendors

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/lossless-net/lossless/internal/config"
)

// Attempt is one apply under way: the Result it will return and when it
// started. Drivers set Applied and RolledBack on it and return Done.
type Attempt struct {
	Result
	// Start is when the apply began; names made for it (checkpoints,
	// sessions, commits) are stamped with it.
	Start time.Time
}

// Begin starts the apply of a change to device.
func Begin(device string) *Attempt {
	return &Attempt{Result: Result{Device: device}, Start: time.Now()}
}

// Done returns the Result with err and the time since Start.
func (a *Attempt) Done(err error) Result {
	a.Err, a.Duration = err, time.Since(a.Start)
	return a.Result
}

// Stamp returns prefix followed by t's Unix nanoseconds in base 36 (13
// characters): a name unique per apply, for a checkpoint, a
// configuration session or a commit.
func Stamp(prefix string, t time.Time) string {
	return prefix + strconv.FormatInt(t.UnixNano(), 36)
}

// DiffFunc is a driver's Diff: the change that takes running to desired
// on device.
type DiffFunc func(device string, running []byte, desired *config.Document) (*Change, error)

// Left reads the running config anew with read and returns what diff
// still finds to change to reach desired, or nil when nothing is left:
// the check after an apply. The error is read's or diff's, unwrapped.
func Left(ctx context.Context, read func(context.Context) ([]byte, error), diff DiffFunc, device string, desired *config.Document) (*Change, error) {
	running, err := read(ctx)
	if err != nil {
		return nil, err
	}
	left, err := diff(device, running, desired)
	if err != nil {
		return nil, err
	}
	if left.Empty() {
		return nil, nil
	}
	return left, nil
}

// IsDeviceError reports whether err is, or wraps, a line the device
// refused (*DeviceError) rather than a failed transport.
func IsDeviceError(err error) bool {
	_, ok := errors.AsType[*DeviceError](err)
	return ok
}
