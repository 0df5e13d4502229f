package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/lossless-net/lossless/internal/apply"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
	"github.com/lossless-net/lossless/vendors"
)

const applyUsage = `Usage: lossless apply [options] [PLANFILE | DIR]

Applies the intent in DIR (default: the current directory), or exactly the
changes of a plan saved with "lossless plan -out PLANFILE". Without a saved
plan it first shows the plan and asks for "yes" on a terminal; elsewhere it
needs -auto-approve. A saved plan is refused for every device whose running
config changed since the plan was made (the message names the device).
A saved plan is applied exactly as reviewed or not at all: it is refused
whole when it was made for another fabric (a device at another address),
from another intent or by another lossless version, or when the change
apply computes now from the intent and the running config the plan
fingerprinted is not the saved one (an edited plan file: the message names
the device and the command that differs).

Before the first command of a device's change is sent, apply records the
change's plan, the fingerprint of the running config and the restore
point it saves on the device (the vendor's checkpoint) in the rollout
state file (DIR/.lossless-rollout.json; -state) and the audit log, synced
to disk; the result follows. If apply dies in the middle, plan shows the
devices left in flight and apply refuses to start until "lossless recover"
takes them back (or "lossless apply -resume STATEFILE" takes them forward).

Each device is changed atomically: NX-OS checkpoint, the commands, a
re-read that must show no difference, copy running-config
startup-config, and rollback to the checkpoint on any error (reconnecting
when the session dropped); other vendors use their own mechanism. A
failed device is rolled back and reported; the others carry on unless
-fail-fast. Results are printed as a table in device-name order.

Exit status: 0 every device applied or unchanged, 1 any failure.

Options:
  -auto-approve     apply without asking
  -confirm-timeout DUR
                    commit timer of vendors that confirm by timer (EOS
                    commit timer, Huawei commit trial); default 2m. A
                    device that rounds or clamps it to its own range (EOS
                    whole seconds, Huawei commit trial 60 s or more) runs
                    its own value, and apply says so on stderr
  -require-atomic   refuse every device whose push is not atomic on the
                    device itself (the plan says "Crash-atomic: no" and
                    why): nothing is sent to it and it counts as failed
` + fleetUsage + stagingUsage + `
With -lab, apply also plans again afterwards and prints that summary, as
the lab lives only as long as the command.

Examples:
  lossless apply -lab -auto-approve examples/ai-fabric
  lossless plan -target role:leaf -out leaf.plan examples/ai-fabric && lossless apply leaf.plan
  lossless apply -target leaf1 -fail-fast examples/ai-fabric
  lossless apply -auto-approve -canary 1 -batch 10% -gate -order role:leaf,role:spine \
      -window 22:00-04:00,Europe/Paris -audit changes.jsonl examples/ai-fabric
  lossless apply -resume examples/ai-fabric/.lossless-rollout.json
  # health gates and audit log from the intent's rollout block, one limit
  # overridden:
  lossless apply -auto-approve -canary 1 -batch 10% -gate-max-watchdog 1 examples/ai-fabric
`

func runApply(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return applyWith(ctx, args, stdout, stderr, terminalPrompt(os.Stdin))
}

// applyWith is runApply with the prompt that asks for approval.
func applyWith(ctx context.Context, args []string, stdout, stderr io.Writer, ask prompt) int {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	var f fleetFlags
	f.register(fs)
	auto := fs.Bool("auto-approve", false, "apply without asking")
	confirm := fs.Duration("confirm-timeout", vendors.DefaultConfirmTimeout, "commit timer `DUR`ation")
	requireAtomic := fs.Bool("require-atomic", false, "refuse devices whose push is not atomic on the device")
	var sf stagingFlags
	sf.register(fs)
	stderr = &lockedWriter{w: stderr}
	ask.out = stderr
	if code := parseFlags(fs, args, applyUsage, stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 1 || !f.validate("apply", stderr) {
		if fs.NArg() > 1 {
			fmt.Fprintf(stderr, "lossless apply: want at most one PLANFILE or DIR, got %d arguments\n", fs.NArg())
		}
		return 1
	}
	if *confirm <= 0 {
		fmt.Fprintf(stderr, "lossless apply: -confirm-timeout must be positive, got %s\n", *confirm)
		return 1
	}
	staging, err := sf.staging(fs)
	if err != nil {
		fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		return 1
	}
	in, err := applyInput(fs, &f, sf.resume)
	if err != nil {
		fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		return 1
	}
	o, closeFleet := applyOptions(&f, &sf, staging, *confirm, stdout, stderr)
	defer closeFleet()
	load := o.Load
	o.Load = func(src *plan.Source) (*apply.Fleet, error) {
		fl, err := load(src)
		if err == nil {
			fl.Options.RequireAtomic = *requireAtomic
			warnConfirmTimeout(stderr, fl.Devices, *confirm)
		}
		return fl, err
	}
	o.Approve = ask.approve
	if *auto {
		o.Approve = apply.AutoApprove
	}
	rep, err := apply.Run(ctx, in, o)
	if ie, ok := errors.AsType[*apply.InterruptedError](err); ok {
		writeInterrupted(stderr, ie.Devices, nil)
	}
	code := 0
	switch {
	case rep != nil:
		code = writeApply(stdout, stderr, rep, f.jsonOut)
	case errors.Is(err, errReported):
		return 1
	case errors.Is(err, apply.ErrCancelled):
		fmt.Fprintln(stderr, "Apply cancelled.")
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		code = 1
	}
	return code
}

// applyInput says what apply applies: the state file of -resume, a saved
// plan file, or the intent in a directory (default: the current one).
func applyInput(fs *flag.FlagSet, f *fleetFlags, resume string) (apply.Input, error) {
	if resume != "" {
		if fs.NArg() > 0 {
			return apply.Input{}, errors.New("-resume takes its plan from the state file: give no PLANFILE or DIR")
		}
		return apply.Input{Resume: resume}, nil
	}
	arg := "."
	if fs.NArg() == 1 {
		arg = fs.Arg(0)
	}
	if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
		return apply.Input{PlanFile: arg}, nil
	}
	return apply.Input{Source: f.source(arg)}, nil
}

// applyOptions are the options of apply.Run from the flags, with the CLI's
// loader and views; the function returned closes the fleet loaded.
func applyOptions(f *fleetFlags, sf *stagingFlags, staging apply.Staging, confirm time.Duration, stdout, stderr io.Writer) (apply.Options, func()) {
	var fl *fleet
	o := apply.Options{
		Load: func(src *plan.Source) (*apply.Fleet, error) {
			var ok bool
			if fl, ok = loadFleet(src, f, stderr); !ok {
				return nil, errReported
			}
			po := f.options(fl, "apply", stderr, len(fl.devs))
			po.ConfirmTimeout = confirm
			return &apply.Fleet{Devices: fl.devs, Options: po, Rollout: fl.loaded.Intent.Rollout, Identity: fl.identity}, nil
		},
		Staging: staging,
		Planned: func(p *plan.Plan) {
			if !f.jsonOut {
				f.writePlan(stdout, fl, p)
			}
		},
		Lock:        sf.lockFile,
		StateDir:    stateDir(),
		Version:     buildVersion(),
		ForceUnlock: sf.forceUnlock,
		Unlocked: func(path string, held rollout.LockInfo) {
			fmt.Fprintf(stderr, "lossless apply: removed the lock %s of %s\n", path, held)
		},
		Operator:  sf.who(),
		PlanAfter: !f.jsonOut,
	}
	return o, func() {
		if fl != nil {
			fl.close()
		}
	}
}

// warnConfirmTimeout says, once per vendor of devs, when its devices run
// another commit timer than the -confirm-timeout asked for.
func warnConfirmTimeout(w io.Writer, devs []plan.Device, want time.Duration) {
	seen := map[string]bool{}
	for _, d := range devs {
		name := d.Intent.Vendor
		if seen[name] {
			continue
		}
		seen[name] = true
		v, ok := vendors.Lookup(name)
		if !ok || v.ConfirmTimeout == nil {
			continue
		}
		if got := v.ConfirmTimeout(want); got != want {
			fmt.Fprintf(w, "lossless apply: warning: %s devices run a commit timer of %s, not the -confirm-timeout %s asked for\n", name, got, want)
		}
	}
}

// errReported is the error of a step that printed its own problems (the
// intent's diagnostics).
var errReported = errors.New("reported on stderr")

// prompt asks for "yes" on a terminal: the question goes to out (apply's
// stderr), the answer comes from in.
type prompt struct {
	in       io.Reader
	out      io.Writer
	terminal bool
}

// terminalPrompt reads the answer from f, which must be a terminal.
func terminalPrompt(f *os.File) prompt {
	return prompt{in: f, terminal: term.IsTerminal(int(f.Fd()))}
}

// errNoTerminal refuses a prompt without a terminal.
var errNoTerminal = errors.New("not a terminal, so nothing can be confirmed: pass -auto-approve, or apply a saved plan (lossless plan -out FILE)")

// approve is the apply.Approver of the CLI. Ctrl-C while it waits cancels
// the apply; the read of the answer then ends with the process, as a
// terminal read cannot be interrupted.
func (p prompt) approve(ctx context.Context, s apply.Summary) (bool, error) {
	if !p.terminal {
		return false, errNoTerminal
	}
	fmt.Fprintf(p.out, "Apply these changes to %d device(s)? Only 'yes' is accepted: ", len(s.Devices))
	answer := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(p.in).ReadString('\n')
		answer <- line
	}()
	select {
	case line := <-answer:
		return strings.TrimSpace(line) == "yes", nil
	case <-ctx.Done():
		fmt.Fprintln(p.out)
		return false, context.Cause(ctx)
	}
}

// writeApply prints the report of an apply (one JSON document with
// -json) and returns the exit status.
func writeApply(stdout, stderr io.Writer, rep *apply.Report, jsonOut bool) int {
	doc := applyJSON{FormatVersion: plan.FormatVersion, Results: results(rep.Results), Summary: rep.Summary}
	code := 0
	if !rep.OK() {
		code = 1
	}
	if rep.Empty {
		if jsonOut {
			_ = writeJSON(stdout, doc)
		} else {
			fmt.Fprintln(stdout, "Nothing to apply.")
		}
		return code
	}
	ro := rep.Rollout
	switch {
	case jsonOut:
		var v any = doc
		if ro != nil {
			v = rolloutJSON{applyJSON: doc, Batches: ro.Batches, NotStarted: ro.NotStarted, Stopped: ro.Stopped, State: rep.State, Recovered: rep.Recovered}
		}
		if err := writeJSON(stdout, v); err != nil {
			fmt.Fprintf(stderr, "lossless apply: %v\n", err)
			return 1
		}
	default:
		writeRecovered(stdout, rep.Recovered)
		if ro != nil {
			writeBatches(stdout, ro.Batches)
		}
		writeResults(stdout, rep.Results)
		fmt.Fprintf(stdout, "%d applied, %d unchanged, %d failed\n", rep.Summary.Change, rep.Summary.Unchanged, rep.Summary.Failed)
	}
	if rep.FailFast != nil {
		fmt.Fprintf(stderr, "lossless apply: stopped (-fail-fast): %v\n", rep.FailFast)
	}
	if ro != nil && ro.Stopped != "" {
		fmt.Fprintf(stderr, "lossless apply: stopped: %s; %d device(s) not started", ro.Stopped, len(ro.NotStarted))
		if rep.State != "" {
			fmt.Fprintf(stderr, "; continue with: lossless apply -resume %s", rep.State)
		}
		fmt.Fprintln(stderr)
	}
	if rep.After != nil && !jsonOut {
		fmt.Fprintf(stdout, "Plan after apply: %s\n", rep.After.Counts())
	}
	return code
}

// writeBatches prints one line per batch of a staged rollout.
func writeBatches(w io.Writer, bs []rollout.Batch) {
	fmt.Fprintln(w)
	for _, b := range bs {
		name := fmt.Sprintf("batch %d", b.Index)
		if b.Canary {
			name = "canary"
		}
		fmt.Fprintf(w, "%-9s %3d device(s) %s", name, len(b.Devices), b.Elapsed.Round(time.Millisecond))
		if len(b.Restored) > 0 {
			fmt.Fprintf(w, ", health gate tripped: %d restored", len(b.Restored))
		}
		if b.NotStarted != "" {
			fmt.Fprint(w, ", not started: nothing was changed")
		}
		fmt.Fprintln(w)
	}
}

// applyJSON is the -json document of apply.
type applyJSON struct {
	FormatVersion string       `json:"format_version"`
	Results       []resultJSON `json:"results"`
	Summary       plan.Counts  `json:"summary"`
}

// rolloutJSON is apply's -json document for a staged rollout.
type rolloutJSON struct {
	applyJSON
	Batches    []rollout.Batch `json:"batches"`
	NotStarted []string        `json:"not_started,omitempty"`
	Stopped    string          `json:"stopped,omitempty"`
	State      string          `json:"state,omitempty"`
	// Recovered are the devices an earlier apply left in flight, taken
	// forward first.
	Recovered []rollout.Recovery `json:"recovered,omitempty"`
}

// writeRecovered prints the devices a resume took forward first, with
// what it found on each.
func writeRecovered(w io.Writer, rs []rollout.Recovery) {
	if len(rs) == 0 {
		return
	}
	fmt.Fprintln(w, "\nLeft in flight by an earlier apply, taken forward first:")
	for _, r := range rs {
		fmt.Fprintf(w, "  %s: found %s; %s\n", r.Device, orDash(r.Found), r.Action)
	}
}

type resultJSON struct {
	Device     string   `json:"device"`
	Vendor     string   `json:"vendor"`
	Status     string   `json:"status"`
	RolledBack bool     `json:"rolled_back,omitempty"`
	Error      string   `json:"error,omitempty"`
	Commands   []string `json:"commands,omitempty"`
	Seconds    float64  `json:"seconds"`
}

func status(r plan.Result) string {
	switch {
	case r.Err != nil && r.RolledBack:
		return "rolled back"
	case r.Err != nil:
		return "failed"
	case r.Change.Empty():
		return "unchanged"
	}
	return "applied"
}

func results(rs []plan.Result) []resultJSON {
	out := make([]resultJSON, 0, len(rs))
	for _, r := range rs {
		j := resultJSON{Device: r.Device, Vendor: r.Vendor, Status: status(r), RolledBack: r.RolledBack, Seconds: r.Duration.Seconds()}
		if r.Err != nil {
			j.Error = r.Err.Error()
		}
		if r.Change != nil {
			j.Commands = r.Change.Commands
		}
		out = append(out, j)
	}
	return out
}

// writeResults prints the results table, then each failure's reason.
func writeResults(w io.Writer, rs []plan.Result) {
	fmt.Fprintf(w, "\n%-16s %-10s %-12s %s\n", "DEVICE", "VENDOR", "RESULT", "TIME")
	for _, r := range rs {
		fmt.Fprintf(w, "%-16s %-10s %-12s %s\n", r.Device, r.Vendor, status(r), r.Duration.Round(time.Millisecond))
	}
	for _, r := range rs {
		if r.Err != nil {
			fmt.Fprintf(w, "\n%s:\n%s\n", r.Device, indentLines(r.Err.Error()))
		}
	}
	fmt.Fprintln(w)
}
