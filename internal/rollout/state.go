package rollout

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/lossless-net/lossless/internal/plan"
)

// StateVersion is the version of the rollout state file. Version 2 adds
// the write-ahead records after the document; a version 1 file (without
// them) is still read.
const StateVersion = "2"

// Device statuses in a State.
const (
	StatusApplied    = "applied"
	StatusUnchanged  = "unchanged"
	StatusFailed     = "failed"
	StatusRolledBack = "rolled back"
	// StatusRestored is a device applied, then put back to its previous
	// config because its batch tripped a health gate.
	StatusRestored = "restored"
	// StatusStarted is a device whose change was about to be sent: its
	// write-ahead record is written, its result is not. Read back from a
	// file, it is a device the apply that wrote it left in flight
	// (Interrupted), unless that apply still runs.
	StatusStarted = "started"
	// StatusRecovered is an interrupted device found, or put back, at its
	// config from before the change (lossless recover); a resume applies
	// it again.
	StatusRecovered = "recovered"
)

// State is what a rollout writes as it goes, so that `apply -resume`
// continues it: the plan (with each device's fingerprint), the staging
// settings, and each device's status. On disk it is this document,
// rewritten whole at the start, after each batch and at the end, then one
// JSON line appended (and synced) per device step in between: the
// write-ahead records, read back into Devices and Started.
type State struct {
	FormatVersion string     `json:"format_version"`
	PlanHash      string     `json:"plan_hash"`
	Plan          *plan.Plan `json:"plan"`
	Staging       Staging    `json:"staging"`
	// Devices maps device names to their status; a device not in it has
	// not been started.
	Devices map[string]string `json:"devices"`
	// Started holds, for each device whose status is StatusStarted, what
	// was recorded before its first command was sent.
	Started map[string]Start `json:"started,omitempty"`
	// Stopped says why the rollout stopped before its end; "" when it
	// completed.
	Stopped string `json:"stopped,omitempty"`
}

// Start is a device's write-ahead record: what lossless knew just before
// the first command of its change reached it.
type Start struct {
	Time time.Time `json:"time"`
	// Fingerprint is the plan.Fingerprint of the scoped running config
	// the change was computed from.
	Fingerprint string `json:"fingerprint"`
	// Mark is the restore point saved on the device before the change
	// (vendors.Reverter), "" when the driver saves none.
	Mark string `json:"mark,omitempty"`
	// Operator, Host and PID are who ran the apply, and where.
	Operator string `json:"operator,omitempty"`
	Host     string `json:"host,omitempty"`
	PID      int    `json:"pid,omitempty"`
}

// Live reports whether the apply that wrote s still runs: its process,
// not this one, is alive on this host.
func (s Start) Live() bool {
	host, _ := os.Hostname()
	return s.Host == host && s.PID != os.Getpid() && alive(s.PID)
}

// record is one appended line of a state file.
type record struct {
	Time     time.Time `json:"time"`
	PlanHash string    `json:"plan_hash"`
	Device   string    `json:"device"`
	Status   string    `json:"status"`
	// Start is set with StatusStarted.
	Start *Start `json:"start,omitempty"`
	Error string `json:"error,omitempty"`
}

// Done reports whether a device needs nothing more.
func (s *State) Done(device string) bool {
	st := s.Devices[device]
	return st == StatusApplied || st == StatusUnchanged
}

// Interrupted returns the devices whose last record is StatusStarted, in
// name order: with no apply running, each was left in flight, and its
// running config may hold any part of its change. So is a device whose
// change failed after it started without its driver rolling it back (a
// session lost mid-push that could not be restored: StatusFailed with
// its start kept), until recover has looked at it.
func (s *State) Interrupted() []string {
	var out []string
	for d := range s.Devices {
		if s.InFlight(d) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// InFlight reports whether device is one of Interrupted's.
func (s *State) InFlight(device string) bool {
	_, started := s.Started[device]
	st := s.Devices[device]
	return started && (st == StatusStarted || st == StatusFailed)
}

// set applies a record to s.
func (s *State) set(r record) {
	if s.Devices == nil {
		s.Devices = map[string]string{}
	}
	s.Devices[r.Device] = r.Status
	if r.Status == StatusStarted && r.Start != nil {
		if s.Started == nil {
			s.Started = map[string]Start{}
		}
		s.Started[r.Device] = *r.Start
		return
	}
	if r.Status == StatusFailed {
		return // not rolled back: its start stays, for recover
	}
	delete(s.Started, r.Device)
}

// Hash identifies a plan: the SHA-256 (hex) of its devices, changes and
// fingerprints, as written in audit entries and the state file.
func Hash(p *plan.Plan) string {
	b, _ := json.Marshal(p.Devices) // plain data: cannot fail
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// SaveState writes s to path atomically and durably (a temporary file,
// synced, renamed over path, and the directory synced): the write-ahead
// records appended since are folded into it.
func SaveState(path string, s *State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("save state %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".rollout-state-*")
	if err != nil {
		return fmt.Errorf("save state %s: %w", path, err)
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("save state %s: %w", path, err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save state %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	return nil
}

// syncDir makes a rename in dir durable, best effort (not every system
// syncs a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// appendRecord appends r to the state file at path as one line and
// syncs it before returning.
func appendRecord(path string, r record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("record %s in %s: %w", r.Device, path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("record %s: %w", r.Device, err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("record %s in %s: %w", r.Device, path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("record %s in %s: %w", r.Device, path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("record %s in %s: %w", r.Device, path, err)
	}
	return nil
}

// ReadState reads a state file, its write-ahead records included, and
// checks that its plan is the one its hash names. A last record cut short
// (the writer was killed in the middle of it) was never written and is
// ignored; any other bad record is an error.
func ReadState(path string) (*State, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read state: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var s State
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("read state %s: %w", path, err)
	}
	switch {
	case s.FormatVersion != StateVersion && s.FormatVersion != "1":
		return nil, fmt.Errorf("read state %s: format version %q, want %q", path, s.FormatVersion, StateVersion)
	case s.Plan == nil:
		return nil, fmt.Errorf("read state %s: no plan", path)
	case Hash(s.Plan) != s.PlanHash:
		return nil, fmt.Errorf("read state %s: the plan does not match its hash %.12s (edited?)", path, s.PlanHash)
	}
	if s.Devices == nil {
		s.Devices = map[string]string{}
	}
	rest := b[dec.InputOffset():]
	for n := 1; len(bytes.TrimSpace(rest)) > 0; n++ {
		line, tail, complete := bytes.Cut(bytes.TrimLeft(rest, " \t\r\n"), []byte("\n"))
		rest = tail
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			if !complete {
				break // cut short by a kill: never written
			}
			return nil, fmt.Errorf("read state %s: record %d: %w", path, n, err)
		}
		if r.PlanHash != s.PlanHash || r.Device == "" || r.Status == "" {
			return nil, fmt.Errorf("read state %s: record %d is not one of this rollout's (plan %.12s, device %q)", path, n, r.PlanHash, r.Device)
		}
		s.set(r)
	}
	return &s, nil
}
