package rollout

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Window is a daily change window: rollouts start, and start new batches,
// only while it is open. End before Start spans midnight.
type Window struct {
	// Start and End are minutes after midnight in Loc.
	Start, End int
	Loc        *time.Location
	text       string
}

// ParseWindow parses "HH:MM-HH:MM" or "HH:MM-HH:MM,TZ" (an IANA zone such
// as "Europe/Paris", or "UTC"; default the local zone).
func ParseWindow(s string) (*Window, error) {
	span, tz, hasTZ := strings.Cut(s, ",")
	from, to, ok := strings.Cut(span, "-")
	if !ok {
		return nil, fmt.Errorf("parse window %q: want HH:MM-HH:MM[,TZ]", s)
	}
	w := &Window{Loc: time.Local, text: s}
	var err error
	if w.Start, err = clock(from); err != nil {
		return nil, fmt.Errorf("parse window %q: %w", s, err)
	}
	if w.End, err = clock(to); err != nil {
		return nil, fmt.Errorf("parse window %q: %w", s, err)
	}
	if w.Start == w.End {
		return nil, fmt.Errorf("parse window %q: start and end are the same time", s)
	}
	if hasTZ {
		if w.Loc, err = time.LoadLocation(strings.TrimSpace(tz)); err != nil || strings.TrimSpace(tz) == "" {
			return nil, fmt.Errorf("parse window %q: unknown time zone %q", s, tz)
		}
	}
	return w, nil
}

func clock(s string) (int, error) {
	h, m, ok := strings.Cut(strings.TrimSpace(s), ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || len(m) != 2 || hh < 0 || hh > 24 || mm < 0 || mm > 59 || (hh == 24 && mm != 0) {
		return 0, fmt.Errorf("%q is not a time HH:MM", s)
	}
	return hh*60 + mm, nil
}

// Open reports whether t falls inside the window.
func (w *Window) Open(t time.Time) bool {
	t = t.In(w.Loc)
	m := t.Hour()*60 + t.Minute()
	if w.Start < w.End {
		return m >= w.Start && m < w.End
	}
	return m >= w.Start || m < w.End
}

// String returns the window as it was written.
func (w *Window) String() string { return w.text }
