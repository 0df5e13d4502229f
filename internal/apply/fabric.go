package apply

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
	"github.com/lossless-net/lossless/vendors"
)

// What the user's state directory holds per fabric, in
// fabrics/<key>/ (the key is plan.Identity.Key: every checkout of a
// fabric shares it).
const (
	// FabricLockFile is the fabric's lock, held by one apply on this host
	// whatever the checkout it runs from.
	FabricLockFile = "lock"
	// LastStateFile names the state file of the last apply of the fabric
	// that kept one, so that plan, apply and recover find the devices it
	// left in flight from any checkout.
	LastStateFile = "last-state"
)

// StateDir is where lossless keeps what outlives a run on this host
// (fabric locks, where the last rollout state is): $XDG_STATE_HOME/lossless,
// else ~/.local/state/lossless. env and home are the caller's environment
// lookup and home directory; "" comes back when neither is known.
func StateDir(env func(string) (string, bool), home string) string {
	if d, ok := env("XDG_STATE_HOME"); ok && d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "lossless")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "lossless")
}

// fabricDir is the directory of the fabric id under stateDir; "" when
// there is no state directory or no identity.
func fabricDir(stateDir string, id *plan.Identity) string {
	if stateDir == "" || id == nil {
		return ""
	}
	return filepath.Join(stateDir, "fabrics", id.Key()[:32])
}

// FabricLock is the path of the fabric lock of id under stateDir; "" when
// there is none (no state directory or no identity).
func FabricLock(stateDir string, id *plan.Identity) string {
	dir := fabricDir(stateDir, id)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, FabricLockFile)
}

// pointState records statePath as the fabric's last state file.
func pointState(stateDir string, id *plan.Identity, statePath string) error {
	dir := fabricDir(stateDir, id)
	if dir == "" || statePath == "" {
		return nil
	}
	abs, err := filepath.Abs(statePath)
	if err != nil {
		return fmt.Errorf("record the state file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".last-state-*")
	if err != nil {
		return fmt.Errorf("record the state file: %w", err)
	}
	_, werr := tmp.WriteString(abs + "\n")
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("record the state file: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, LastStateFile)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("record the state file: %w", err)
	}
	return nil
}

// Interrupted is a device an apply left in flight: its write-ahead record
// says its change was about to be sent, and no result followed.
type Interrupted struct {
	Device string
	Vendor string
	// State is the rollout state file that records it.
	State string
	// PlanHash is the plan of the apply (rollout.Hash).
	PlanHash string
	// Start is what was recorded before its first command was sent.
	Start rollout.Start
	// Change is the change that was being sent.
	Change *vendors.Change
	// Live is true when that apply still runs (its process is alive on
	// this host): it is in progress, not interrupted.
	Live bool
}

// FindInterrupted returns the devices left in flight by an earlier apply
// of the fabric of src: those recorded as started, with no result, in
// the fabric's last state file (found under stateDir by id; any checkout)
// and in the intent directory's StateFile. Devices come in name order. A
// state file that exists but cannot be read is an error: what it records
// cannot be known.
func FindInterrupted(stateDir string, src *plan.Source, id *plan.Identity) ([]Interrupted, error) {
	var paths []string
	if dir := fabricDir(stateDir, id); dir != "" {
		b, err := os.ReadFile(filepath.Join(dir, LastStateFile))
		if err == nil && strings.TrimSpace(string(b)) != "" {
			paths = append(paths, strings.TrimSpace(string(b)))
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("find interrupted applies: %w", err)
		}
	}
	if src != nil && !src.Lab && src.Dir != "" {
		paths = append(paths, filepath.Join(src.Dir, StateFile))
	}
	var out []Interrupted
	seen := map[string]bool{}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil || seen[abs] {
			continue
		}
		seen[abs] = true
		st, err := rollout.ReadState(abs)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("find interrupted applies: %w", err)
		}
		out = append(out, interrupted(abs, st)...)
	}
	slices.SortFunc(out, func(a, b Interrupted) int { return strings.Compare(a.Device, b.Device) })
	return out, nil
}

// interrupted returns the devices st, read from path, records as started.
func interrupted(path string, st *rollout.State) []Interrupted {
	var out []Interrupted
	for _, name := range st.Interrupted() {
		in := Interrupted{Device: name, State: path, PlanHash: st.PlanHash, Start: st.Started[name], Live: st.Started[name].Live()}
		for _, d := range st.Plan.Devices {
			if d.Device == name {
				in.Vendor, in.Change = d.Vendor, d.Change
			}
		}
		out = append(out, in)
	}
	return out
}

// InterruptedError refuses an apply while devices are left in flight by
// an earlier one: a new change on top of a half-applied one would hide
// what is left of it.
type InterruptedError struct {
	Devices []Interrupted
}

func (e *InterruptedError) Error() string {
	names := make([]string, len(e.Devices))
	var states []string
	for i, d := range e.Devices {
		names[i] = d.Device
		if !slices.Contains(states, d.State) {
			states = append(states, d.State)
		}
	}
	var how []string
	for _, s := range states {
		how = append(how, fmt.Sprintf("lossless recover %s (back to before the change), or lossless apply -resume %s (forward to its plan)", s, s))
	}
	return fmt.Sprintf("%d device(s) were left in the middle of a change by an apply that stopped (%s): recover them first with %s; nothing was changed",
		len(e.Devices), strings.Join(names, ", "), strings.Join(how, "; or "))
}
