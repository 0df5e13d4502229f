package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

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
                    commit timer, Huawei commit trial); default 2m
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
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	var f fleetFlags
	f.register(fs)
	auto := fs.Bool("auto-approve", false, "apply without asking")
	confirm := fs.Duration("confirm-timeout", vendors.DefaultConfirmTimeout, "commit timer `DUR`ation")
	var sf stagingFlags
	sf.register(fs)
	stderr = &lockedWriter{w: stderr}
	if code := parseFlags(fs, args, applyUsage, stdout, stderr); code >= 0 {
		return code
	}
	sf.given(fs)
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
	staging, err := sf.staging()
	if err != nil {
		fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		return 1
	}
	arg := "."
	if fs.NArg() == 1 {
		arg = fs.Arg(0)
	}
	var saved *plan.Plan
	var resumed *rollout.State
	src := f.source(arg)
	if sf.resume != "" {
		if fs.NArg() > 0 {
			fmt.Fprintln(stderr, "lossless apply: -resume takes its plan from the state file: give no PLANFILE or DIR")
			return 1
		}
		if resumed, err = rollout.ReadState(sf.resume); err != nil {
			fmt.Fprintf(stderr, "lossless apply: %v\n", err)
			return 1
		}
		if resumed.Plan.Source == nil {
			fmt.Fprintf(stderr, "lossless apply: %s does not say which intent it was made from\n", sf.resume)
			return 1
		}
		saved, src = resumed.Plan, resumed.Plan.Source
	} else if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
		p, err := plan.ReadFile(arg)
		if err != nil {
			fmt.Fprintf(stderr, "lossless apply: %v\n", err)
			return 1
		}
		if p.Source == nil {
			fmt.Fprintf(stderr, "lossless apply: %s does not say which intent it was made from\n", arg)
			return 1
		}
		saved, src = p, p.Source
	}
	fl, ok := loadFleet(src, &f, stderr)
	if !ok {
		return 1
	}
	defer fl.close()
	// The intent's rollout block gives the defaults the flags left out.
	ro, err := intentRollout(src)
	if err != nil {
		fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		return 1
	}
	sf.fromIntent(ro, src.Dir, src.Lab)
	if staging, err = sf.staging(); err != nil {
		fmt.Fprintf(stderr, "lossless apply: %v\n", err)
		return 1
	}
	unlock, ok := sf.lock(src.Dir, src.Lab, stderr)
	if !ok {
		return 1
	}
	defer unlock()
	o := f.options(fl, "apply", stderr, len(fl.devs))
	o.ConfirmTimeout = *confirm

	p := saved
	if p == nil {
		var err error
		po := o
		po.Progress = nil
		if p, err = planFleet(ctx, fl, po); err != nil {
			fmt.Fprintf(stderr, "lossless apply: stopped (-fail-fast): %v\n", err)
			return 1
		}
		if !f.jsonOut {
			f.writePlan(stdout, fl, p)
		}
	}
	devs, skipped := toApply(fl.devs, p)
	if len(devs) == 0 {
		c := p.Counts()
		if !f.jsonOut {
			fmt.Fprintln(stdout, "Nothing to apply.")
		} else {
			_ = writeJSON(stdout, applyJSON{FormatVersion: plan.FormatVersion, Results: results(skipped), Summary: c})
		}
		if c.Failed > 0 {
			return 1
		}
		return 0
	}
	if saved == nil && !*auto {
		if !approved(len(devs), stderr) {
			return 1
		}
	}
	if resumed != nil || sf.staged() {
		st := resumed
		if st == nil {
			if p.Source == nil {
				p.Source = src
			}
			st = &rollout.State{FormatVersion: rollout.StateVersion, PlanHash: rollout.Hash(p), Plan: p, Staging: staging}
		}
		code := sf.rollOut(ctx, devs, skipped, st, o, f.jsonOut, stdout, stderr)
		if fl.lab != nil && !f.jsonOut {
			po := o
			po.Progress = nil
			if after, perr := planFleet(ctx, fl, po); perr == nil {
				fmt.Fprintf(stdout, "Plan after apply: %s\n", after.Counts())
			}
		}
		return code
	}
	rs, err := plan.Apply(ctx, devs, p, o)
	all := append(rs, skipped...)
	c := plan.ResultCounts(all)
	if f.jsonOut {
		if werr := writeJSON(stdout, applyJSON{FormatVersion: plan.FormatVersion, Results: results(all), Summary: c}); werr != nil {
			fmt.Fprintf(stderr, "lossless apply: %v\n", werr)
			return 1
		}
	} else {
		writeResults(stdout, all)
		fmt.Fprintf(stdout, "%d applied, %d unchanged, %d failed\n", c.Change, c.Unchanged, c.Failed)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lossless apply: stopped (-fail-fast): %v\n", err)
	}
	if fl.lab != nil && !f.jsonOut {
		// The lab goes away with this process: show the plan after.
		po := o
		po.Progress = nil
		if after, perr := planFleet(ctx, fl, po); perr == nil {
			fmt.Fprintf(stdout, "Plan after apply: %s\n", after.Counts())
		}
	}
	if err != nil || c.Failed > 0 {
		return 1
	}
	return 0
}

// toApply returns the devices with a change in p, and a result for each
// device p could not plan.
func toApply(devs []plan.Device, p *plan.Plan) ([]plan.Device, []plan.Result) {
	byName := map[string]plan.DevicePlan{}
	for _, d := range p.Devices {
		byName[d.Device] = d
	}
	var out []plan.Device
	var failed []plan.Result
	for _, d := range devs {
		dp, ok := byName[d.Intent.Name]
		switch {
		case !ok:
			// Not in a saved plan made with other -target flags.
		case dp.Error != "":
			failed = append(failed, plan.Result{Result: vendors.Result{Device: dp.Device, Err: fmt.Errorf("%s", dp.Error)}, Vendor: dp.Vendor})
		case !dp.Change.Empty():
			out = append(out, d)
		}
	}
	return out, failed
}

// approved asks for "yes" on a terminal.
func approved(n int, stderr io.Writer) bool {
	if !term.IsTerminal(int(os.Stdin.Fd())) {
		fmt.Fprintln(stderr, "lossless apply: not a terminal, so nothing can be confirmed: pass -auto-approve, or apply a saved plan (lossless plan -out FILE)")
		return false
	}
	fmt.Fprintf(stderr, "Apply these changes to %d device(s)? Only 'yes' is accepted: ", n)
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	if strings.TrimSpace(line) != "yes" {
		fmt.Fprintln(stderr, "Apply cancelled.")
		return false
	}
	return true
}

// applyJSON is the -json document of apply.
type applyJSON struct {
	FormatVersion string       `json:"format_version"`
	Results       []resultJSON `json:"results"`
	Summary       plan.Counts  `json:"summary"`
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
