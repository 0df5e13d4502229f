package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/lossless-net/lossless/internal/apply"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
	"github.com/lossless-net/lossless/vendors"
)

const recoverUsage = `Usage: lossless recover [options] [STATEFILE | DIR]

Takes back the devices an apply left in the middle of a change: before
the first command of a device's change is sent, apply records the change,
its plan and the fingerprint of the running config (and the restore
point it saved on the device) in the rollout state file (and the audit
log); a device whose last record is "started", with no result, was in
flight when that apply died (a SIGKILL, a crash, a lost machine). plan
shows such devices, and apply refuses to start until they are recovered.

For each such device, recover reads its running config and says what it
found: untouched (the config from before the change), applied (the plan's
config), or partly applied. It then puts the device back to the config it
had before the change, with the restore point (the vendor's checkpoint or
rollback) recorded for it, or, with -forward, takes it to the plan's
config (first back to the restore point when it holds part of the change,
so that nothing outside lossless' scope is left over). apply -resume
STATEFILE also takes them forward, then goes on with the rollout. Each
step is recorded in the state file and the audit log.

STATEFILE is a rollout state file (default: the last one any checkout of
the fabric wrote on this host, and DIR/.lossless-rollout.json); DIR is the
intent directory (default: the current directory).

Exit status: 0 every interrupted device is back (or forward) at a known
config, or none was interrupted; 1 any failure.

Options:
  -forward          take each device forward to its plan instead of back
  -parallelism N    devices worked on at once (default 10)
  -insecure-ignore-host-key
                    skip the known_hosts check of device host keys
  -insecure-skip-verify
                    skip the check of gNMI server certificates
  -plaintext        speak gNMI without TLS
  -json             print one JSON document on stdout
  -log-level LEVEL  debug (wire traffic), info, warn or error (default warn)
  -inventory FILE   inventory file (default: DIR/inventory.hcl)
  -var NAME=VALUE   set a variable; repeatable
  -var-file FILE    read variable values from an HCL file; repeatable
  -audit FILE       also append each step to this audit log (default: the
                    intent's audit_log)
  -operator NAME    operator written in the records (default: $USER)
  -lock FILE        the intent directory's lock (default: DIR/.lossless.lock)
  -force-unlock     remove the locks first (a lock whose owner is alive
                    on this host is refused); a lock left by a run that no
                    longer runs on this host is taken over without it

Examples:
  lossless plan examples/ai-fabric        # shows interrupted devices first
  lossless recover examples/ai-fabric
  lossless recover -forward examples/ai-fabric/.lossless-rollout.json
  lossless apply -resume examples/ai-fabric/.lossless-rollout.json
  lossless recover -json . | jq '.states[].devices[] | {device, found, status}'
`

func runRecover(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("recover", flag.ContinueOnError)
	var f fleetFlags
	f.intentFlags.register(fs)
	fs.IntVar(&f.parallelism, "parallelism", plan.DefaultParallelism, "devices worked on at once")
	fs.BoolVar(&f.insecure, "insecure-ignore-host-key", false, "do not check host keys against known_hosts")
	fs.BoolVar(&f.skipVerify, "insecure-skip-verify", false, "do not check gNMI server certificates")
	fs.BoolVar(&f.plaintext, "plaintext", false, "speak gNMI without TLS")
	fs.BoolVar(&f.jsonOut, "json", false, "print one JSON document")
	fs.StringVar(&f.logLevel, "log-level", "warn", "log `LEVEL` on stderr")
	forward := fs.Bool("forward", false, "take each device forward to its plan")
	var sf stagingFlags
	fs.StringVar(&sf.auditFile, "audit", "", "audit log `FILE`")
	fs.StringVar(&sf.operator, "operator", "", "operator `NAME`")
	fs.StringVar(&sf.lockFile, "lock", "", "lock `FILE`")
	fs.BoolVar(&sf.forceUnlock, "force-unlock", false, "remove locks left by a run that no longer runs")
	stderr = &lockedWriter{w: stderr}
	if code := parseFlags(fs, args, recoverUsage, stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 1 || !f.validate("recover", stderr) {
		if fs.NArg() > 1 {
			fmt.Fprintf(stderr, "lossless recover: want at most one STATEFILE or DIR, got %d arguments\n", fs.NArg())
		}
		return 1
	}
	in := apply.Input{}
	arg := "."
	if fs.NArg() == 1 {
		arg = fs.Arg(0)
	}
	if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
		in.Resume = arg
	} else {
		in.Source = f.source(arg)
	}
	o, closeFleet := applyOptions(&f, &sf, apply.Staging{Audit: sf.auditFile}, vendors.DefaultConfirmTimeout, stdout, stderr)
	defer closeFleet()
	o.Unlocked = func(path string, held rollout.LockInfo) {
		fmt.Fprintf(stderr, "lossless recover: took over the lock %s of %s\n", path, held)
	}
	rep, err := apply.Recover(ctx, in, *forward, o)
	if errors.Is(err, errReported) {
		return 1
	}
	code := 0
	if rep != nil {
		code = writeRecover(stdout, rep, f.jsonOut)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lossless recover: %v\n", err)
		code = 1
	}
	return code
}

// recoverJSON is the -json document of recover.
type recoverJSON struct {
	FormatVersion string             `json:"format_version"`
	States        []recoverStateJSON `json:"states"`
}

type recoverStateJSON struct {
	State   string               `json:"state"`
	Devices []recoveryDeviceJSON `json:"devices"`
}

type recoveryDeviceJSON struct {
	rollout.Recovery
	Error string `json:"error,omitempty"`
}

// writeRecover prints what recover did and returns the exit status.
func writeRecover(w io.Writer, rep *apply.RecoverReport, jsonOut bool) int {
	code := 0
	if !rep.OK() {
		code = 1
	}
	if jsonOut {
		doc := recoverJSON{FormatVersion: plan.FormatVersion, States: []recoverStateJSON{}}
		for _, s := range rep.States {
			sj := recoverStateJSON{State: s.State, Devices: []recoveryDeviceJSON{}}
			for _, d := range s.Devices {
				dj := recoveryDeviceJSON{Recovery: d}
				if d.Err != nil {
					dj.Error = d.Err.Error()
				}
				sj.Devices = append(sj.Devices, dj)
			}
			doc.States = append(doc.States, sj)
		}
		if err := writeJSON(w, doc); err != nil {
			return 1
		}
		return code
	}
	if len(rep.States) == 0 {
		fmt.Fprintln(w, "Nothing to recover: no device is recorded as left in the middle of a change.")
		return code
	}
	counts := map[string]int{}
	for _, s := range rep.States {
		fmt.Fprintf(w, "\nState %s:\n", s.State)
		fmt.Fprintf(w, "%-16s %-10s %-15s %-12s %s\n", "DEVICE", "VENDOR", "FOUND", "NOW", "ACTION")
		for _, d := range s.Devices {
			now := d.Status
			if now == rollout.StatusStarted {
				now = "interrupted"
			}
			counts[now]++
			fmt.Fprintf(w, "%-16s %-10s %-15s %-12s %s\n", d.Device, d.Vendor, orDash(d.Found), now, d.Action)
		}
		for _, d := range s.Devices {
			if d.Err != nil {
				fmt.Fprintf(w, "\n%s:\n%s\n", d.Device, indentLines(d.Err.Error()))
			}
		}
	}
	fmt.Fprintf(w, "\n%d recovered (back before the change), %d applied, %d failed, %d still interrupted\n",
		counts[rollout.StatusRecovered], counts[rollout.StatusApplied], counts[rollout.StatusFailed]+counts[rollout.StatusRolledBack], counts["interrupted"])
	return code
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// interrupted returns the devices of fl an earlier apply left in flight;
// a state file that cannot be read is said on stderr. None for the
// embedded lab.
func (fl *fleet) interrupted(stderr io.Writer) []apply.Interrupted {
	if fl.source.Lab {
		return nil
	}
	found, err := apply.FindInterrupted(stateDir(), fl.source, fl.identity)
	if err != nil {
		fmt.Fprintf(stderr, "lossless: %v\n", err)
	}
	return found
}

// stateDir is the user's state directory (apply.StateDir).
func stateDir() string {
	home, _ := os.UserHomeDir()
	return apply.StateDir(os.LookupEnv, home)
}

// buildVersion is the lossless version written in plans: the release
// version, or for a development build its VCS revision.
func buildVersion() string {
	if version != "dev" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return version + "+" + rev
}

// interruptedJSON is one interrupted device in plan's -json document.
type interruptedJSON struct {
	Device      string    `json:"device"`
	Vendor      string    `json:"vendor"`
	State       string    `json:"state"`
	PlanHash    string    `json:"plan_hash"`
	Started     time.Time `json:"started"`
	Operator    string    `json:"operator,omitempty"`
	Host        string    `json:"host,omitempty"`
	PID         int       `json:"pid,omitempty"`
	Fingerprint string    `json:"fingerprint"`
	Mark        string    `json:"mark,omitempty"`
	// Now is what the running config read by the plan is: "untouched",
	// "applied", "partly applied" (rollout.Found*), or "in progress".
	Now     string   `json:"now,omitempty"`
	Recover []string `json:"recover"`
}

func interruptedDoc(ds []apply.Interrupted, p *plan.Plan) []interruptedJSON {
	var out []interruptedJSON
	for _, d := range ds {
		s := d.Start
		out = append(out, interruptedJSON{Device: d.Device, Vendor: d.Vendor, State: d.State, PlanHash: d.PlanHash, Started: s.Time,
			Operator: s.Operator, Host: s.Host, PID: s.PID, Fingerprint: s.Fingerprint, Mark: s.Mark, Now: nowFound(d, p),
			Recover: []string{"lossless recover " + d.State, "lossless apply -resume " + d.State}})
	}
	return out
}

// nowFound says what a fresh plan found on an interrupted device, as
// rollout.Recovery.Found does; "" when p did not read it.
func nowFound(d apply.Interrupted, p *plan.Plan) string {
	if d.Live {
		return "in progress"
	}
	if p == nil {
		return ""
	}
	for _, dp := range p.Devices {
		switch {
		case dp.Device != d.Device || dp.Err != nil:
		case dp.Fingerprint == d.Start.Fingerprint:
			return rollout.FoundUntouched
		case dp.Change.Empty():
			return rollout.FoundApplied
		default:
			return rollout.FoundPartly
		}
	}
	return ""
}

// writeInterrupted prints the devices an apply left in flight, what
// lossless knows of each (from its write-ahead record, and from p, a
// fresh plan, when not nil) and the commands that recover it.
func writeInterrupted(w io.Writer, ds []apply.Interrupted, p *plan.Plan) {
	if len(ds) == 0 {
		return
	}
	fmt.Fprintf(w, "Interrupted: an apply stopped in the middle of %d device(s)' change; its write-ahead record says:\n", len(ds))
	for _, d := range ds {
		s := d.Start
		n := 0
		if d.Change != nil {
			n = len(d.Change.Commands)
		}
		fmt.Fprintf(w, "  %s (%s): change of plan %.12s (%d command(s)) started %s by %s (pid %d on %s)\n",
			d.Device, d.Vendor, d.PlanHash, n, s.Time.UTC().Format(time.RFC3339), orDash(s.Operator), s.PID, orDash(s.Host))
		mark := "no restore point was saved on the device"
		if s.Mark != "" {
			mark = "restore point " + s.Mark + " saved on the device"
		}
		fmt.Fprintf(w, "    running config before it: fingerprint %.12s; %s\n", s.Fingerprint, mark)
		switch nowFound(d, p) {
		case "in progress":
			fmt.Fprintf(w, "    in progress: pid %d still runs on this host\n", s.PID)
			continue
		case rollout.FoundUntouched:
			fmt.Fprintln(w, "    running config now: the one from before it (nothing of the change is on the device)")
		case rollout.FoundApplied:
			fmt.Fprintln(w, "    running config now: the intent's (the change is all there)")
		case rollout.FoundPartly:
			fmt.Fprintln(w, "    running config now: neither the one before it nor the intent's (part of the change, or another change since)")
		}
		fmt.Fprintf(w, "    recover: lossless recover %s (back to before the change)\n", d.State)
		fmt.Fprintf(w, "         or: lossless apply -resume %s (forward to its plan)\n", d.State)
	}
	fmt.Fprintln(w)
}
