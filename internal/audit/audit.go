// Package audit is lossless' change audit log: one JSON object per line,
// one line per device step of an apply (started, before the first command
// is sent; then applied, failed, rolled back or unchanged), of a health
// gate's rollback and of a recovery, appended to a file that several runs
// share, and read back by `lossless history`. Secrets in the commands or patch are masked before
// anything is written.
package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sync"
	"time"
)

// Steps an entry records.
const (
	// StepApply is a device's change being applied (or failing).
	StepApply = "apply"
	// StepRollback is an applied change undone because a health gate
	// tripped.
	StepRollback = "rollback"
	// StepRecover is an interrupted device taken back to its config from
	// before the change, or forward to the plan (lossless recover, apply
	// -resume).
	StepRecover = "recover"
)

// ResultStarted is the Result of an apply step written before the first
// command of the change is sent (the write-ahead record); the step's
// outcome follows in a later entry. A device whose last entry is
// "started" was left in flight.
const ResultStarted = "started"

// Entry is one line of the audit log.
type Entry struct {
	Time     time.Time `json:"time"`
	Operator string    `json:"operator"`
	// PlanHash identifies the plan the change came from (rollout.Hash).
	PlanHash string `json:"plan_hash"`
	Device   string `json:"device"`
	Vendor   string `json:"vendor,omitempty"`
	// Batch is the rollout batch, 0 for the canary.
	Batch int    `json:"batch"`
	Step  string `json:"step"`
	// Commands or Patch is what was sent, secrets masked.
	Commands []string        `json:"commands,omitempty"`
	Patch    json.RawMessage `json:"patch,omitempty"`
	// Fingerprint is the plan.Fingerprint of the device's scoped running
	// config before the change, on a "started" entry.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Mark is the restore point saved on the device before the change
	// (a checkpoint name), on a "started" entry; "" when none was saved.
	Mark string `json:"mark,omitempty"`
	// State is the rollout state file the step is recorded in, so that
	// an interrupted device's entry says where to recover it from.
	State string `json:"state,omitempty"`
	// Result is "started", "applied", "failed", "rolled back",
	// "unchanged", "restored" or "recovered".
	Result string `json:"result"`
	// RolledBack is true when the device undid the change itself.
	RolledBack bool    `json:"rolled_back,omitempty"`
	Error      string  `json:"error,omitempty"`
	Seconds    float64 `json:"seconds"`
}

// Log appends entries to a file; safe for concurrent use.
type Log struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (creating it 0600) the audit log at path for appending.
func Open(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	return &Log{f: f}, nil
}

// Write masks e's secrets and appends it as one line, synced to disk, so
// an interrupted run keeps every step it recorded. A nil Log writes
// nothing.
func (l *Log) Write(e Entry) error {
	if l == nil {
		return nil
	}
	e.Commands = MaskCommands(e.Commands)
	e.Patch = MaskPatch(e.Patch)
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	return nil
}

// Close closes the file; a nil Log does nothing.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}

// Masked replaces a secret.
const Masked = "<masked>"

// secretLine matches a CLI line's secret argument: the word after
// password, secret, key (string), community or a key/password keyword
// with an optional encryption type (EOS "secret 0 x", NX-OS
// "password 5 x", Huawei "password irreversible-cipher x").
var secretLine = regexp.MustCompile(`(?i)\b(password|secret|cipher|key-string|key|community|pre-shared-key|auth-key)(\s+(?:(?:[0-9]|irreversible-cipher|cipher|simple|sha512|encrypted)\s+)?)(\S+)`)

// MaskCommands returns lines with every secret argument replaced by
// Masked.
func MaskCommands(lines []string) []string {
	if len(lines) == 0 {
		return lines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = secretLine.ReplaceAllString(l, "${1}${2}"+Masked)
	}
	return out
}

// secretKey matches JSON field names that hold secrets.
var secretKey = regexp.MustCompile(`(?i)(password|secret|passkey|key|community|token)`)

// MaskPatch returns a JSON Patch with the value of every field, or
// operation, whose name or path names a secret replaced by Masked. A
// patch that is not JSON is replaced whole: it is never written as is.
func MaskPatch(p json.RawMessage) json.RawMessage {
	if len(p) == 0 {
		return p
	}
	var v any
	if err := json.Unmarshal(p, &v); err != nil {
		q, _ := json.Marshal(Masked)
		return q
	}
	v = mask(v, false)
	out, err := json.Marshal(v)
	if err != nil {
		q, _ := json.Marshal(Masked)
		return q
	}
	return out
}

func mask(v any, secret bool) any {
	switch x := v.(type) {
	case map[string]any:
		// A JSON Patch operation {"op","path","value"}: the path says
		// whether the value is secret.
		pathSecret := false
		if p, ok := x["path"].(string); ok && secretKey.MatchString(p) {
			pathSecret = true
		}
		for k, e := range x {
			switch {
			case k == "value" && pathSecret:
				x[k] = mask(e, true)
			case k == "path" || k == "op" || k == "from":
			default:
				x[k] = mask(e, secret || secretKey.MatchString(k))
			}
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = mask(e, secret)
		}
		return x
	case string:
		if secret {
			return Masked
		}
		return x
	}
	if secret && v != nil {
		return Masked
	}
	return v
}

// Read returns every entry of an audit log in file order. A line that is
// not an entry is an error naming its line number.
func Read(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("read audit log line %d: %w", n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read audit log: %w", err)
	}
	return out, nil
}

// ReadFile reads the audit log at path.
func ReadFile(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	defer f.Close()
	return Read(f)
}

// ForDevice returns the entries of one device (all when device is "").
func ForDevice(es []Entry, device string) []Entry {
	if device == "" {
		return es
	}
	return slices.DeleteFunc(slices.Clone(es), func(e Entry) bool { return e.Device != device })
}

// InFlight returns, per device, the last entry of es when it is a
// "started" apply step with nothing after it: a change whose result was
// never recorded (the apply died with it in flight, or still runs). In
// device order of first appearance.
func InFlight(es []Entry) []Entry {
	last := map[string]int{}
	var order []string
	for i, e := range es {
		if _, ok := last[e.Device]; !ok {
			order = append(order, e.Device)
		}
		last[e.Device] = i
	}
	var out []Entry
	for _, d := range order {
		if e := es[last[d]]; e.Step == StepApply && e.Result == ResultStarted {
			out = append(out, e)
		}
	}
	return out
}
