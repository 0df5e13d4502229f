package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/audit"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
)

// stagingFlags are apply's rollout flags (issue 7).
type stagingFlags struct {
	canary          int
	batch           string
	maxFailures     int
	pause           time.Duration
	order           string
	window          string
	gate            bool
	gateMaxPause    float64
	gateMaxDrops    float64
	gateMaxWatchdog uint64
	auditFile       string
	operator        string
	lockFile        string
	forceUnlock     bool
	stateFile       string
	resume          string
	// set holds the names of the flags given on the command line, which
	// win over the intent's rollout block.
	set map[string]bool
	// now is the clock of the window and the gate; tests replace it.
	now func() time.Time
}

const stagingUsage = `
Staged rollout (any of these makes apply roll out in stages):
  -canary N         change the first N devices alone first
  -batch N|P%       then change N devices (or P% of them) per batch
  -max-failures N   halt after N failed devices (each rolled back by its
                    driver); 0: never
  -pause DUR        wait between batches (Ctrl-C during it stops cleanly)
  -order LIST       comma-separated role:R and tag:T: matching devices go
                    first, in that order (e.g. role:leaf,role:spine)
  -window HH:MM-HH:MM[,TZ]
                    do not start, and start no new batch, outside this
                    daily window (TZ an IANA zone; default local time)
  -gate             health gates: read each batch's PFC pause, drop and
                    PFC watchdog counters before and after it; a batch
                    over a limit halts the rollout and is put back to its
                    previous config with the vendor's rollback
  -gate-max-pause N pause frames per second per port (default 1000)
  -gate-max-drops N queue/no-buffer drops per second per port (0: no limit)
  -gate-max-watchdog N
                    PFC watchdog events per port during a batch (default 0)
  -audit FILE       append one JSON line per device step to FILE (secrets
                    masked); read it with lossless history
  -operator NAME    operator written in the audit log (default: $USER)
  -state FILE       rollout state, saved after each device (default:
                    DIR/.lossless-rollout.json)
  -resume FILE      continue the rollout of a state file: devices already
                    applied are skipped, the others' running configs must
                    still match the plan's fingerprints
  -lock FILE        fabric lock (default: DIR/.lossless.lock; none with
                    -lab unless set): a second apply is refused with the
                    first one's owner and start time
  -force-unlock     remove a stale lock (printing whose it was) first

The intent's rollout block gives the defaults of -audit (audit_log,
relative to the intent directory) and of -gate and its limits (a gate
block turns the gates on; max_pause, max_drops, max_watchdog): a flag
given on the command line wins over it, so -gate=false turns the intent's
gates off and -audit FILE writes FILE instead. With -lab the intent's
audit_log is not written (-audit still is). The audit log's directory is
created when missing.
`

func (s *stagingFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&s.canary, "canary", 0, "change the first `N` devices alone first")
	fs.StringVar(&s.batch, "batch", "", "batch size `N|P%`")
	fs.IntVar(&s.maxFailures, "max-failures", 0, "halt after `N` failed devices")
	fs.DurationVar(&s.pause, "pause", 0, "wait `DUR` between batches")
	fs.StringVar(&s.order, "order", "", "device order `LIST` of role:R and tag:T")
	fs.StringVar(&s.window, "window", "", "change window `HH:MM-HH:MM[,TZ]`")
	fs.BoolVar(&s.gate, "gate", false, "health gates between batches")
	fs.Float64Var(&s.gateMaxPause, "gate-max-pause", 1000, "pause frames per second per port `N`")
	fs.Float64Var(&s.gateMaxDrops, "gate-max-drops", 0, "drops per second per port `N`")
	fs.Uint64Var(&s.gateMaxWatchdog, "gate-max-watchdog", 0, "PFC watchdog events per port `N`")
	fs.StringVar(&s.auditFile, "audit", "", "audit log `FILE`")
	fs.StringVar(&s.operator, "operator", "", "operator `NAME` in the audit log")
	fs.StringVar(&s.stateFile, "state", "", "rollout state `FILE`")
	fs.StringVar(&s.resume, "resume", "", "resume the rollout of state `FILE`")
	fs.StringVar(&s.lockFile, "lock", "", "fabric lock `FILE`")
	fs.BoolVar(&s.forceUnlock, "force-unlock", false, "remove a stale lock first")
}

// given records the flags fs was given on the command line; call it after
// fs.Parse.
func (s *stagingFlags) given(fs *flag.FlagSet) {
	s.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { s.set[f.Name] = true })
}

// fromIntent takes each setting the command line left out from the
// intent's rollout block ro (nil: none): the intent gives the defaults, a
// flag given explicitly wins. dir is the intent directory, which a
// relative audit_log is relative to; with lab the intent's audit log is
// not used, as the lab's changes are not the fabric's history.
func (s *stagingFlags) fromIntent(ro *intent.Rollout, dir string, lab bool) {
	if ro == nil {
		return
	}
	if !s.set["audit"] && !lab {
		if p := ro.AuditPath(dir); p != "" {
			s.auditFile = p
		}
	}
	g := ro.Gate
	if g == nil {
		return
	}
	if !s.set["gate"] {
		s.gate = true
	}
	if g.MaxPause != nil && !s.set["gate-max-pause"] {
		s.gateMaxPause = *g.MaxPause
	}
	if g.MaxDrops != nil && !s.set["gate-max-drops"] {
		s.gateMaxDrops = *g.MaxDrops
	}
	if g.MaxWatchdog != nil && !s.set["gate-max-watchdog"] {
		s.gateMaxWatchdog = *g.MaxWatchdog
	}
}

// intentRollout reads the rollout block of src's intent; nil when it has
// none. The intent was loaded and checked already (loadFleet), so a
// diagnostic here is an error.
func intentRollout(src *plan.Source) (*intent.Rollout, error) {
	inv := src.Inventory
	if inv == "" {
		inv = filepath.Join(src.Dir, intent.DefaultInventoryFile)
	}
	fab, diags := intent.Load(src.Dir, src.Vars, src.VarFiles, intent.SkipFile(inv))
	if diags.HasErrors() || fab == nil {
		return nil, fmt.Errorf("read the rollout block of %s: %w", src.Dir, diags)
	}
	return fab.Rollout, nil
}

// staged reports whether apply rolls out through package rollout.
func (s *stagingFlags) staged() bool {
	return s.canary > 0 || s.batch != "" || s.maxFailures > 0 || s.pause > 0 || s.order != "" || s.window != "" ||
		s.gate || s.auditFile != "" || s.stateFile != "" || s.resume != ""
}

// staging checks the flags and returns the rollout settings.
func (s *stagingFlags) staging() (rollout.Staging, error) {
	st := rollout.Staging{Canary: s.canary, MaxFailures: s.maxFailures, Pause: s.pause, Window: s.window}
	switch {
	case s.canary < 0:
		return st, fmt.Errorf("-canary must not be negative, got %d", s.canary)
	case s.maxFailures < 0:
		return st, fmt.Errorf("-max-failures must not be negative, got %d", s.maxFailures)
	case s.pause < 0:
		return st, fmt.Errorf("-pause must not be negative, got %s", s.pause)
	case s.gateMaxPause < 0 || s.gateMaxDrops < 0:
		return st, errors.New("-gate-max-pause and -gate-max-drops must not be negative")
	}
	if s.batch != "" {
		b, err := rollout.ParseSize(s.batch)
		if err != nil {
			return st, err
		}
		st.Batch = b
	}
	if s.order != "" {
		st.Order = strings.Split(s.order, ",")
		if err := rollout.ParseOrder(st.Order); err != nil {
			return st, err
		}
	}
	if s.window != "" {
		if _, err := rollout.ParseWindow(s.window); err != nil {
			return st, err
		}
	}
	if s.gate {
		st.Gate = &rollout.Gate{MaxPausePerSec: s.gateMaxPause, MaxDropsPerSec: s.gateMaxDrops, MaxWatchdog: s.gateMaxWatchdog}
	}
	return st, nil
}

func operator() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}

// lock takes the fabric lock of the intent in dir (none for a lab run
// without -lock); the release function is never nil.
func (s *stagingFlags) lock(dir string, lab bool, stderr io.Writer) (func(), bool) {
	path := s.lockFile
	if path == "" {
		if lab {
			return func() {}, true
		}
		path = filepath.Join(dir, ".lossless.lock")
	}
	if s.forceUnlock {
		info, err := rollout.ForceUnlock(path)
		switch {
		case err == nil:
			fmt.Fprintf(stderr, "lossless apply: removed the lock %s of %s\n", path, info)
		case errors.Is(err, os.ErrNotExist):
		default:
			fmt.Fprintf(stderr, "lossless apply: %v\n", err)
			return nil, false
		}
	}
	host, _ := os.Hostname()
	l, err := rollout.Acquire(path, rollout.LockInfo{Owner: s.who(), Host: host, PID: os.Getpid(), Start: time.Now().UTC()})
	if err != nil {
		fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		return nil, false
	}
	return func() {
		if err := l.Release(); err != nil {
			fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		}
	}, true
}

func (s *stagingFlags) who() string {
	if s.operator != "" {
		return s.operator
	}
	return operator()
}

// rollOut runs a staged rollout of p's changes to devs and prints its
// batches, results and why it stopped; it returns the exit status.
func (s *stagingFlags) rollOut(ctx context.Context, devs []plan.Device, skipped []plan.Result, st *rollout.State, o plan.Options, jsonOut bool, stdout, stderr io.Writer) int {
	var al *audit.Log
	if s.auditFile != "" {
		var err error
		if err = os.MkdirAll(filepath.Dir(s.auditFile), 0o750); err != nil {
			fmt.Fprintf(stderr, "lossless apply: open audit log: %v\n", err)
			return 1
		}
		if al, err = audit.Open(s.auditFile); err != nil {
			fmt.Fprintf(stderr, "lossless apply: %v\n", err)
			return 1
		}
		defer al.Close()
	}
	statePath := s.stateFile
	if statePath == "" {
		statePath = s.resume
	}
	if statePath == "" && st.Plan.Source != nil && !st.Plan.Source.Lab {
		statePath = filepath.Join(st.Plan.Source.Dir, ".lossless-rollout.json")
	}
	rep, err := rollout.Run(ctx, devs, st, rollout.Options{Staging: st.Staging, Plan: o, Now: s.now, Audit: al, Operator: s.who(), StatePath: statePath})
	if err != nil {
		fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		return 1
	}
	all := append(rep.Results, skipped...)
	c := plan.ResultCounts(all)
	if jsonOut {
		doc := rolloutJSON{applyJSON: applyJSON{FormatVersion: plan.FormatVersion, Results: results(all), Summary: c}, Batches: rep.Batches, NotStarted: rep.NotStarted, Stopped: rep.Stopped, State: statePath}
		if werr := writeJSON(stdout, doc); werr != nil {
			fmt.Fprintf(stderr, "lossless apply: %v\n", werr)
			return 1
		}
	} else {
		fmt.Fprintln(stdout)
		for _, b := range rep.Batches {
			name := fmt.Sprintf("batch %d", b.Index)
			if b.Canary {
				name = "canary"
			}
			fmt.Fprintf(stdout, "%-9s %3d device(s) %s", name, len(b.Devices), b.Elapsed.Round(time.Millisecond))
			if len(b.Restored) > 0 {
				fmt.Fprintf(stdout, ", health gate tripped: %d restored", len(b.Restored))
			}
			fmt.Fprintln(stdout)
		}
		writeResults(stdout, all)
		fmt.Fprintf(stdout, "%d applied, %d unchanged, %d failed\n", c.Change, c.Unchanged, c.Failed)
	}
	if rep.Stopped != "" {
		fmt.Fprintf(stderr, "lossless apply: stopped: %s; %d device(s) not started", rep.Stopped, len(rep.NotStarted))
		if statePath != "" {
			fmt.Fprintf(stderr, "; continue with: lossless apply -resume %s", statePath)
		}
		fmt.Fprintln(stderr)
		return 1
	}
	if c.Failed > 0 {
		return 1
	}
	return 0
}

// rolloutJSON is apply's -json document for a staged rollout.
type rolloutJSON struct {
	applyJSON
	Batches    []rollout.Batch `json:"batches"`
	NotStarted []string        `json:"not_started,omitempty"`
	Stopped    string          `json:"stopped,omitempty"`
	State      string          `json:"state,omitempty"`
}
