package platform

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// WatchdogActions are the PFC watchdog actions a catalog entry may list:
// the intent language's vocabulary. Each platform's network OS supports a
// subset.
var WatchdogActions = []string{"drop", "errdisable", "forward", "notify-only"}

// Watchdog is what the platform's network OS accepts for the PFC watchdog
// (Huawei: PFC deadlock detection): the range of each timer and the
// actions it supports. A timer whose Window has a zero Max is one the OS
// has no setting for; the intent's value is then not range-checked (the
// renderer rejects what it cannot express).
type Watchdog struct {
	// Detection bounds the detection time (storm declared after it).
	Detection Window `json:"detection"`
	// Restoration bounds the restoration (recovery) time.
	Restoration Window `json:"restoration"`
	// Polling bounds the polling interval.
	Polling Window `json:"polling"`
	// Actions lists the actions the OS supports, a subset of
	// WatchdogActions.
	Actions []string `json:"actions"`
	// Source says where the ranges and actions come from.
	Source string `json:"source"`
}

// Window is an inclusive range of durations. In JSON it is
// {"min": "10ms", "max": "60s"} (Go duration syntax); an absent window is
// the zero Window, meaning "no such setting".
type Window struct {
	Min, Max time.Duration
}

// UnmarshalJSON reads {"min": "10ms", "max": "60s"}.
func (w *Window) UnmarshalJSON(b []byte) error {
	var s struct {
		Min string `json:"min"`
		Max string `json:"max"`
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return fmt.Errorf("decode window: %w", err)
	}
	var err error
	if w.Min, err = time.ParseDuration(s.Min); err != nil {
		return fmt.Errorf("decode window min: %w", err)
	}
	if w.Max, err = time.ParseDuration(s.Max); err != nil {
		return fmt.Errorf("decode window max: %w", err)
	}
	return nil
}

// Set reports whether the OS has this setting (a non-zero maximum).
func (w Window) Set() bool { return w.Max != 0 }

// Contains reports whether d is within the window, bounds included.
func (w Window) Contains(d time.Duration) bool { return d >= w.Min && d <= w.Max }

// clone returns a deep copy of w, nil for nil.
func (w *Watchdog) clone() *Watchdog {
	if w == nil {
		return nil
	}
	c := *w
	c.Actions = slices.Clone(w.Actions)
	return &c
}

// check reports the first implausible figure of w: every window ordered
// with a non-negative minimum and at most one minute (no vendor's
// watchdog timer is longer), at least one timer or action, actions known
// and not repeated, and a source.
func (w *Watchdog) check() error {
	for _, t := range []struct {
		name string
		w    Window
	}{{"detection", w.Detection}, {"restoration", w.Restoration}, {"polling", w.Polling}} {
		if t.w == (Window{}) {
			continue
		}
		if t.w.Min < 0 || t.w.Max <= 0 || t.w.Min > t.w.Max || t.w.Max > time.Minute {
			return fmt.Errorf("watchdog %s range %s–%s is not plausible", t.name, t.w.Min, t.w.Max)
		}
	}
	if len(w.Actions) == 0 {
		return fmt.Errorf("watchdog lists no action")
	}
	for i, a := range w.Actions {
		if !slices.Contains(WatchdogActions, a) || slices.Contains(w.Actions[:i], a) {
			return fmt.Errorf("watchdog action %q repeated or not one of %s", a, strings.Join(WatchdogActions, ", "))
		}
	}
	if len(w.Source) < 20 {
		return fmt.Errorf("watchdog source must say where the ranges come from")
	}
	return nil
}
