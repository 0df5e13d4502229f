package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/apply"
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
  -state FILE       rollout state, each device's start and result appended
                    as they happen (default: DIR/.lossless-rollout.json)
  -resume FILE      continue the rollout of a state file: devices already
                    applied are skipped, those it left in flight are
                    taken forward first (see lossless recover), the
                    others' running configs must still match the plan's
                    fingerprints; a lock left by a run that no longer
                    runs on this host is taken over
  -lock FILE        the intent directory's lock (default: DIR/.lossless.lock;
                    none with -lab unless set): a second apply is refused
                    with the first one's owner and start time. Every apply
                    but -lab's also takes the fabric's own lock on this
                    host, $XDG_STATE_HOME/lossless/fabrics/KEY/lock (else
                    ~/.local/state/...), KEY being the inventory's device
                    addresses: two checkouts of one fabric never apply at
                    once
  -force-unlock     remove a lock left by a run that no longer runs
                    (printing whose it was) first; a lock whose owner is
                    alive on this host is refused

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
	fs.Float64Var(&s.gateMaxPause, "gate-max-pause", apply.DefaultMaxPause, "pause frames per second per port `N`")
	fs.Float64Var(&s.gateMaxDrops, "gate-max-drops", 0, "drops per second per port `N`")
	fs.Uint64Var(&s.gateMaxWatchdog, "gate-max-watchdog", 0, "PFC watchdog events per port `N`")
	fs.StringVar(&s.auditFile, "audit", "", "audit log `FILE`")
	fs.StringVar(&s.operator, "operator", "", "operator `NAME` in the audit log")
	fs.StringVar(&s.stateFile, "state", "", "rollout state `FILE`")
	fs.StringVar(&s.resume, "resume", "", "resume the rollout of state `FILE`")
	fs.StringVar(&s.lockFile, "lock", "", "fabric lock `FILE`")
	fs.BoolVar(&s.forceUnlock, "force-unlock", false, "remove a lock left by a run that no longer runs first")
}

// staging checks the flags and returns the staging settings, with only
// the gate settings given on the command line (fs, parsed) set: the
// intent's rollout block gives the others.
func (s *stagingFlags) staging(fs *flag.FlagSet) (apply.Staging, error) {
	st := apply.Staging{Canary: s.canary, MaxFailures: s.maxFailures, Pause: s.pause, Window: s.window, Audit: s.auditFile, State: s.stateFile}
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
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "gate":
			st.Gate = &s.gate
		case "gate-max-pause":
			st.MaxPause = &s.gateMaxPause
		case "gate-max-drops":
			st.MaxDrops = &s.gateMaxDrops
		case "gate-max-watchdog":
			st.MaxWatchdog = &s.gateMaxWatchdog
		}
	})
	return st, nil
}

// who is the operator written in the lock and the audit log: -operator,
// else the user running lossless.
func (s *stagingFlags) who() string {
	if s.operator != "" {
		return s.operator
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}
