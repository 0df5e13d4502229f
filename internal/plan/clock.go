package plan

import "time"

// Clock is the time source of plan and rollout: device durations, the
// change window, the gate's rates, audit stamps and state saves read it,
// so that a test sets the time. The nil Clock is the system clock, and
// the only place orchestration code reads it.
type Clock func() time.Time

// Now returns c's time; the system's when c is nil.
func (c Clock) Now() time.Time {
	if c == nil {
		return time.Now()
	}
	return c()
}

// Since returns the time elapsed on c since t.
func (c Clock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }
