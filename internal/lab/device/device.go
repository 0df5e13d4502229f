// Package device is the contract between the lab's SSH server (package lab)
// and its vendor personalities (lab/nxos, lab/eos, lab/huaweice, lab/sonic):
// a personality is a state machine that turns typed lines into the text a
// real switch prints. It knows nothing of SSH, and the server knows nothing
// of any vendor.
package device

import (
	"sort"
	"sync"
	"time"
)

// Kind makes emulated devices of one NOS.
type Kind interface {
	// Name is the kind's name in the registry, unique. By convention it
	// is the name of the vendor it emulates as written in an inventory;
	// shared code finds the kind of a vendor in the vendor registry
	// (vendors.Vendor.LabKind), not by assuming the two are equal.
	Name() string
	// New makes a device with the given hostname, its running config
	// seeded from seed (the vendor's own running-config text, or CONFIG_DB
	// JSON for SONiC); nil seed means factory defaults.
	New(hostname string, seed []byte) (Device, error)
}

// Device is one emulated switch: its running config and other state,
// shared by all its sessions. Implementations are safe for concurrent use.
type Device interface {
	// NewSession starts a CLI session for a logged-in user.
	NewSession(user string, f *Faults) Session
	// Running returns the running config exactly as the device's full
	// show command prints it.
	Running() []byte
}

// Session is one interactive CLI session (one SSH shell).
type Session interface {
	// Greeting is what the device prints after login, before the first
	// prompt (banner, MOTD); may be empty.
	Greeting() string
	// Prompt is the prompt (or pending question) printed when the session
	// waits for input ("switch(config-if)# ", "[*CE1]", "Continue? [Y/N]:").
	Prompt() string
	// Handle runs one typed line (without the line ending) and returns the
	// output printed before the next prompt, with "\n" line endings. done
	// is true when the line ends the session (exit from the top mode).
	Handle(line string) (out string, done bool)
	// Close ends the session when the connection drops; a personality
	// discards or keeps pending changes as the real NOS does.
	Close()
}

// Faults are the failures injected into one device by tests and
// `lossless lab up` flags. The zero value injects nothing. The server
// applies the transport faults; personalities read the command faults.
//
// A Faults shared with running sessions must be changed only through
// Update and read only through Load, which take its lock; set the fields
// directly only before the value is shared. A nil *Faults injects nothing.
type Faults struct {
	mu sync.Mutex
	// Latency is added before each reply.
	Latency time.Duration
	// CloseAfter drops the connection after this many commands (0: never).
	CloseAfter int
	// RejectPattern is a regular expression; a config line matching it is
	// rejected with the vendor's generic invalid-input error.
	RejectPattern string
	// FailCommit makes the next commit (or apply-patch, or rollback target
	// change) fail with the vendor's commit error.
	FailCommit bool
	// ExpireCommitTimer makes a confirm-by-timer commit roll back at once,
	// as if the timer ran out before the confirm arrived.
	ExpireCommitTimer bool
	// RefuseAuth makes every login fail.
	RefuseAuth bool
	// ChangeHostKey makes the device present a new host key.
	ChangeHostKey bool
	// NoPrompt makes the device stop printing prompts after login.
	NoPrompt bool
	// ClimbAfterChange makes the device's health counters climb after its
	// next config change: every later read of them shows PFC pause
	// storms, drops and a watchdog event (see Counters).
	ClimbAfterChange bool
}

// Update changes f under its lock: safe while sessions read it.
func (f *Faults) Update(change func(f *Faults)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f)
}

// Load returns a copy of f's current values, taken under its lock; a nil f
// gives the zero value (no faults).
func (f *Faults) Load() Faults {
	if f == nil {
		return Faults{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return Faults{
		Latency:           f.Latency,
		CloseAfter:        f.CloseAfter,
		RejectPattern:     f.RejectPattern,
		FailCommit:        f.FailCommit,
		ExpireCommitTimer: f.ExpireCommitTimer,
		RefuseAuth:        f.RefuseAuth,
		ChangeHostKey:     f.ChangeHostKey,
		NoPrompt:          f.NoPrompt,
		ClimbAfterChange:  f.ClimbAfterChange,
	}
}

// ConfigDB is implemented by devices that keep SONiC CONFIG_DB (lab/sonic);
// the gNMI target's sonic-db origin goes through it.
type ConfigDB interface {
	// DB returns a deep copy of CONFIG_DB: table → key → field → value.
	DB() map[string]map[string]map[string]string
	// Patch applies an RFC 6902 JSON Patch over the CONFIG_DB JSON form
	// all-or-nothing, validated against SONiC YANG as `config apply-patch`
	// does; a refusal's error text is SONiC's.
	Patch(patch []byte) error
}

// CLIConfig is implemented by devices that can run config lines as one
// all-or-nothing session (EOS configure session; gNMI origin "cli").
type CLIConfig interface {
	ConfigureAtomic(lines []string) error
}

// Checkpointer is implemented by devices that can save and restore their
// whole configuration state (used by gNMI commit-confirmed rollback).
type Checkpointer interface {
	Checkpoint() []byte
	Restore(cp []byte) error
}

var (
	kindsMu sync.RWMutex
	kinds   = map[string]Kind{}
)

// Register adds a kind under its Name. Personalities call it from init; it
// panics on an empty or duplicate name.
func Register(k Kind) {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	if k == nil || k.Name() == "" {
		panic("device: Register with a nil kind or empty name")
	}
	if _, dup := kinds[k.Name()]; dup {
		panic("device: kind " + k.Name() + " registered twice")
	}
	kinds[k.Name()] = k
}

// Lookup returns the kind registered under name.
func Lookup(name string) (Kind, bool) {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	k, ok := kinds[name]
	return k, ok
}

// Kinds returns the registered kind names, sorted.
func Kinds() []string {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	n := make([]string, 0, len(kinds))
	for k := range kinds {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Modeler is implemented by kinds that name the switch model they emulate;
// the lab writes it as the device's platform in the inventory it generates.
type Modeler interface {
	// Model is the platform model as written in an inventory
	// ("N9K-C9364D-GX2A").
	Model() string
}

// Pager is implemented by sessions that page long output, as a switch CLI
// does until `terminal length 0`. The lab's SSH server asks it after each
// command: output longer than the page is shown a page at a time behind
// the more prompt (space: next page, Enter: next line, q: stop).
type Pager interface {
	// Page returns the page length in lines (0: no paging) and the more
	// prompt ("--More--").
	Page() (lines int, more string)
}

// Echoer is implemented by sessions whose device echoes the Enter key
// with something other than "\r\n" (NX-OS echoes "\r\r\n").
type Echoer interface {
	// EchoEnter returns the bytes printed when the user presses Enter.
	EchoEnter() string
}

// Spec says which switch a device is built as: the model and the ports an
// inventory gives it. The zero Spec asks for the kind's defaults.
type Spec struct {
	// Model is the platform model as written in an inventory
	// ("CE8850-HAM", "N9K-C93600CD-GX"); empty: the kind's default. A
	// kind refuses a model it cannot emulate with an error naming it.
	Model string
	// Ports are interface names, one each (ranges expanded), that the
	// device must have: each personality documents whether they come on
	// top of the model's own ports or must be among them, and refuses a
	// name the model cannot have.
	Ports []string
}

// IsZero reports whether s asks for nothing beyond the kind's defaults.
func (s Spec) IsZero() bool { return s.Model == "" && len(s.Ports) == 0 }

// SpecKind is implemented by kinds that build a device to a Spec (found by
// type assertion on a Kind); New is NewSpec with the zero Spec.
type SpecKind interface {
	// NewSpec is New for a device of spec's model with spec's ports.
	NewSpec(hostname string, seed []byte, spec Spec) (Device, error)
}
