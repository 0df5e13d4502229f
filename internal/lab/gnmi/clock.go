package gnmitarget

import "time"

// Clock schedules the rollback of a confirmed commit. Tests inject a manual
// clock to drive time without sleeping; the default uses the runtime's
// timers.
type Clock interface {
	// AfterFunc calls f in its own goroutine once d has passed, unless the
	// returned Timer is stopped first.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending call scheduled by a Clock.
type Timer interface {
	// Stop cancels the call; it reports false when the call already ran
	// or was stopped.
	Stop() bool
}

// realClock is the runtime's clock.
type realClock struct{}

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
