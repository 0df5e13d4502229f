package gnmitarget

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// The fakes below stand in for lab/sonic and lab/eos in these tests: they
// implement the lab/device contract the target relies on, with just enough
// behaviour (JSON Patch with one YANG-like rule; a small EOS grammar) to
// show the target keeps the all-or-nothing promise.

// fakeSonic keeps CONFIG_DB as table → key → field → value.
type fakeSonic struct {
	mu sync.Mutex
	db map[string]map[string]map[string]string
}

func newFakeSonic() *fakeSonic {
	return &fakeSonic{db: map[string]map[string]map[string]string{
		"PORT":         {"Ethernet0": {"speed": "400000", "mtu": "9100"}, "Ethernet4": {"speed": "400000", "mtu": "9100"}},
		"PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3,4"}},
		"WRED_PROFILE": {"AZURE_LOSSLESS": {"ecn": "ecn_all", "green_min_threshold": "1048576", "green_max_threshold": "2097152"}},
	}}
}

func (s *fakeSonic) NewSession(string, *device.Faults) device.Session { return nil }

func (s *fakeSonic) Running() []byte {
	b, _ := json.MarshalIndent(s.DB(), "", "    ")
	return b
}

func (s *fakeSonic) DB() map[string]map[string]map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return copyDB(s.db)
}

func copyDB(db map[string]map[string]map[string]string) map[string]map[string]map[string]string {
	out := make(map[string]map[string]map[string]string, len(db))
	for t, rows := range db {
		out[t] = make(map[string]map[string]string, len(rows))
		for k, fields := range rows {
			out[t][k] = make(map[string]string, len(fields))
			for f, v := range fields {
				out[t][k][f] = v
			}
		}
	}
	return out
}

// Patch applies an RFC 6902 patch to a copy, checks it, and swaps it in.
func (s *fakeSonic) Patch(patch []byte) error {
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(patch, &ops); err != nil {
		return fmt.Errorf("Failed to apply patch due to: %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	db := copyDB(s.db)
	for _, op := range ops {
		parts := strings.Split(strings.TrimPrefix(op.Path, "/"), "/")
		for i := range parts {
			parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(parts[i])
		}
		if err := applyOp(db, op.Op, parts, op.Value); err != nil {
			return fmt.Errorf("Failed to apply patch due to: %v", err)
		}
	}
	// One rule from sonic-wred-profile.yang: green_max_threshold must not
	// be below green_min_threshold.
	for name, w := range db["WRED_PROFILE"] {
		var lo, hi int
		fmt.Sscan(w["green_min_threshold"], &lo)
		fmt.Sscan(w["green_max_threshold"], &hi)
		if w["green_min_threshold"] != "" && w["green_max_threshold"] != "" && lo > hi {
			return fmt.Errorf("Failed to apply patch due to: Given patch will produce invalid config. Error: WRED_PROFILE %s: green_max_threshold must be >= green_min_threshold", name)
		}
	}
	s.db = db
	return nil
}

func applyOp(db map[string]map[string]map[string]string, op string, p []string, raw json.RawMessage) error {
	exists := func() bool {
		switch len(p) {
		case 1:
			_, ok := db[p[0]]
			return ok
		case 2:
			_, ok := db[p[0]][p[1]]
			return ok
		case 3:
			_, ok := db[p[0]][p[1]][p[2]]
			return ok
		}
		return false
	}
	if (op == "remove" || op == "replace") && !exists() {
		return fmt.Errorf("path /%s does not exist", strings.Join(p, "/"))
	}
	if op == "remove" {
		switch len(p) {
		case 1:
			delete(db, p[0])
		case 2:
			delete(db[p[0]], p[1])
		case 3:
			delete(db[p[0]][p[1]], p[2])
		}
		return nil
	}
	switch len(p) {
	case 1:
		var v map[string]map[string]string
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("table %s: values must be strings: %v", p[0], err)
		}
		db[p[0]] = v
	case 2:
		var v map[string]string
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("%s|%s: values must be strings: %v", p[0], p[1], err)
		}
		if db[p[0]] == nil {
			db[p[0]] = map[string]map[string]string{}
		}
		db[p[0]][p[1]] = v
	case 3:
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("%s|%s %s: value must be a string: %v", p[0], p[1], p[2], err)
		}
		if db[p[0]][p[1]] == nil {
			return fmt.Errorf("path /%s/%s does not exist", p[0], p[1])
		}
		db[p[0]][p[1]][p[2]] = v
	default:
		return fmt.Errorf("bad path /%s", strings.Join(p, "/"))
	}
	return nil
}

func (s *fakeSonic) Checkpoint() []byte {
	b, _ := json.Marshal(s.DB())
	return b
}

func (s *fakeSonic) Restore(cp []byte) error {
	var db map[string]map[string]map[string]string
	if err := json.Unmarshal(cp, &db); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db = db
	return nil
}

// fakeEOS keeps a running config as global lines and interface blocks
// with tx-queue sub-blocks, and accepts a small grammar (reference/eos.md
// §3); any other line is refused with EOS's "% Invalid input".
type fakeEOS struct {
	mu      sync.Mutex
	global  []string
	ifaces  map[string]*fakeIf
	ifOrder []string
}

type fakeIf struct {
	lines []string
	txq   map[int][]string
}

var eosGrammar = []struct {
	mode string
	re   *regexp.Regexp
}{
	{"global", regexp.MustCompile(`^qos map dscp( ([0-9]|[1-5][0-9]|6[0-3]))+ to traffic-class [0-7]$`)},
	{"global", regexp.MustCompile(`^qos map traffic-class( [0-7])+ to tx-queue [0-7]$`)},
	{"if", regexp.MustCompile(`^qos trust (dscp|cos)$`)},
	{"if", regexp.MustCompile(`^priority-flow-control (on|priority [0-7] (no-drop|drop))$`)},
	{"if", regexp.MustCompile(`^mtu [0-9]+$`)},
	{"if", regexp.MustCompile(`^priority-flow-control pause watchdog$`)},
	{"global", regexp.MustCompile(`^priority-flow-control pause watchdog (default (timeout|recovery-time|polling-interval) [0-9.]+|action (drop|errdisable|notify-only))$`)},
	{"txq", regexp.MustCompile(`^(priority strict|no priority|bandwidth percent ([1-9][0-9]?|100))$`)},
	{"txq", regexp.MustCompile(`^random-detect ecn minimum-threshold [0-9]+ (kbytes|bytes|segments) maximum-threshold [0-9]+ (kbytes|bytes|segments)( max-mark-probability ([1-9][0-9]?|100))?$`)},
}

var (
	ifLine  = regexp.MustCompile(`^interface (Ethernet[0-9/]+)$`)
	txqLine = regexp.MustCompile(`^tx-queue ([0-7])$`)
)

func newFakeEOS(running string) *fakeEOS {
	e := &fakeEOS{ifaces: map[string]*fakeIf{}}
	var lines []string
	for _, l := range strings.Split(running, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "!") {
			lines = append(lines, t)
		}
	}
	if err := e.ConfigureAtomic(lines); err != nil {
		panic("fakeEOS seed: " + err.Error())
	}
	return e
}

func (e *fakeEOS) NewSession(string, *device.Faults) device.Session { return nil }

// ConfigureAtomic runs lines in a copy and keeps it only if all pass.
func (e *fakeEOS) ConfigureAtomic(lines []string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.clone()
	var cur *fakeIf
	q := -1
	for _, raw := range lines {
		l := strings.TrimSpace(raw)
		if m := ifLine.FindStringSubmatch(l); m != nil {
			if c.ifaces[m[1]] == nil {
				c.ifaces[m[1]] = &fakeIf{txq: map[int][]string{}}
				c.ifOrder = append(c.ifOrder, m[1])
			}
			cur, q = c.ifaces[m[1]], -1
			continue
		}
		if m := txqLine.FindStringSubmatch(l); m != nil && cur != nil {
			fmt.Sscan(m[1], &q)
			if _, ok := cur.txq[q]; !ok {
				cur.txq[q] = nil
			}
			continue
		}
		if l == "exit" || l == "end" {
			if q >= 0 {
				q = -1
			} else {
				cur = nil
			}
			continue
		}
		ok := false
		for _, g := range eosGrammar {
			if !g.re.MatchString(l) {
				continue
			}
			switch {
			case g.mode == "txq" && q >= 0:
				cur.txq[q] = append(cur.txq[q], l)
			case g.mode == "if" && cur != nil:
				cur.lines, q = append(cur.lines, l), -1
			case g.mode == "global":
				c.global, cur, q = append(c.global, l), nil, -1
			default:
				continue
			}
			ok = true
			break
		}
		if !ok {
			return fmt.Errorf("%% Invalid input (at line %q)", l)
		}
	}
	e.global, e.ifaces, e.ifOrder = c.global, c.ifaces, c.ifOrder
	return nil
}

func (e *fakeEOS) clone() *fakeEOS {
	c := &fakeEOS{global: append([]string(nil), e.global...), ifaces: map[string]*fakeIf{}, ifOrder: append([]string(nil), e.ifOrder...)}
	for n, i := range e.ifaces {
		ci := &fakeIf{lines: append([]string(nil), i.lines...), txq: map[int][]string{}}
		for k, v := range i.txq {
			ci.txq[k] = append([]string(nil), v...)
		}
		c.ifaces[n] = ci
	}
	return c
}

// Running prints the config as EOS does: interfaces, then global lines.
func (e *fakeEOS) Running() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	var b strings.Builder
	for _, n := range e.ifOrder {
		i := e.ifaces[n]
		fmt.Fprintf(&b, "interface %s\n", n)
		for _, l := range i.lines {
			fmt.Fprintf(&b, "   %s\n", l)
		}
		qs := make([]int, 0, len(i.txq))
		for q := range i.txq {
			qs = append(qs, q)
		}
		sort.Ints(qs)
		for _, q := range qs {
			fmt.Fprintf(&b, "   !\n   tx-queue %d\n", q)
			for _, l := range i.txq[q] {
				fmt.Fprintf(&b, "      %s\n", l)
			}
		}
		b.WriteString("!\n")
	}
	for _, l := range e.global {
		fmt.Fprintf(&b, "%s\n", l)
	}
	return []byte(b.String())
}

func (e *fakeEOS) Checkpoint() []byte { return e.Running() }

func (e *fakeEOS) Restore(cp []byte) error {
	n := newFakeEOS(string(cp))
	e.mu.Lock()
	defer e.mu.Unlock()
	e.global, e.ifaces, e.ifOrder = n.global, n.ifaces, n.ifOrder
	return nil
}

// manualClock fires timers only when the test advances it.
type manualClock struct {
	mu     sync.Mutex
	now    time.Duration
	timers []*manualTimer
}

type manualTimer struct {
	clock   *manualClock
	at      time.Duration
	f       func()
	stopped bool
}

func (c *manualClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{clock: c, at: c.now + d, f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *manualTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

// Advance moves time on by d and runs, in the calling goroutine, every
// timer that falls due.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now += d
	var due []*manualTimer
	for _, t := range c.timers {
		if !t.stopped && t.at <= c.now {
			t.stopped = true
			due = append(due, t)
		}
	}
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}
