package rollout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lossless-net/lossless/internal/plan"
)

// StateVersion is the version of the rollout state file.
const StateVersion = "1"

// Device statuses in a State.
const (
	StatusApplied    = "applied"
	StatusUnchanged  = "unchanged"
	StatusFailed     = "failed"
	StatusRolledBack = "rolled back"
	// StatusRestored is a device applied, then put back to its previous
	// config because its batch tripped a health gate.
	StatusRestored = "restored"
)

// State is what a rollout writes as it goes, so that `apply -resume`
// continues it: the plan (with each device's fingerprint), the staging
// settings, and each device's status.
type State struct {
	FormatVersion string     `json:"format_version"`
	PlanHash      string     `json:"plan_hash"`
	Plan          *plan.Plan `json:"plan"`
	Staging       Staging    `json:"staging"`
	// Devices maps device names to their status; a device not in it has
	// not been started.
	Devices map[string]string `json:"devices"`
	// Stopped says why the rollout stopped before its end; "" when it
	// completed.
	Stopped string `json:"stopped,omitempty"`
}

// Done reports whether a device needs nothing more.
func (s *State) Done(device string) bool {
	st := s.Devices[device]
	return st == StatusApplied || st == StatusUnchanged
}

// Hash identifies a plan: the SHA-256 (hex) of its devices, changes and
// fingerprints, as written in audit entries and the state file.
func Hash(p *plan.Plan) string {
	b, _ := json.Marshal(p.Devices) // plain data: cannot fail
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// SaveState writes s to path atomically (a temporary file renamed).
func SaveState(path string, s *State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("save state %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".rollout-state-*")
	if err != nil {
		return fmt.Errorf("save state %s: %w", path, err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("save state %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save state %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save state %s: %w", path, err)
	}
	return nil
}

// ReadState reads a state file and checks that its plan is the one its
// hash names.
func ReadState(path string) (*State, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read state: %w", err)
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("read state %s: %w", path, err)
	}
	switch {
	case s.FormatVersion != StateVersion:
		return nil, fmt.Errorf("read state %s: format version %q, want %q", path, s.FormatVersion, StateVersion)
	case s.Plan == nil:
		return nil, fmt.Errorf("read state %s: no plan", path)
	case Hash(s.Plan) != s.PlanHash:
		return nil, fmt.Errorf("read state %s: the plan does not match its hash %.12s (edited?)", path, s.PlanHash)
	}
	if s.Devices == nil {
		s.Devices = map[string]string{}
	}
	return &s, nil
}
