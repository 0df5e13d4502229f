package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/lossless-net/lossless/internal/plan"
)

const planUsage = `Usage: lossless plan [options] [DIR]

Shows, per device, what apply would change: the scope of the running
config lossless reads, a unified diff of that scoped running config
against the rendering of the intent in DIR (default: the current
directory), the exact commands or JSON patch apply would send, and
whether the change is disruptive. It never changes a device. It ends with
"N to change, M unchanged, K failed". Devices are read in parallel and
printed in name order; progress goes to stderr.

Exit status: 0 success, 1 any failure (invalid intent, a device that
could not be planned, a bad flag); with -detailed-exitcode, 0 no changes,
1 error, 2 changes.

Options:
  -out FILE         save the plan (changes and a fingerprint of each
                    device's running config) for lossless apply FILE
  -detailed-exitcode
                    exit 2 when there are changes
` + fleetUsage + `
Credentials come from the inventory's credentials block (environment
variables or files, never the command line); host keys are checked
against its known_hosts file.

Examples:
  lossless plan -lab examples/ai-fabric
  lossless plan -target role:leaf -out leaf.plan examples/ai-fabric
  lossless plan -lab -summary examples/ai-fabric
  lossless plan -json -detailed-exitcode . > plan.json
`

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	var f fleetFlags
	f.register(fs)
	out := fs.String("out", "", "save the plan to `FILE`")
	detailed := fs.Bool("detailed-exitcode", false, "exit 2 when there are changes")
	stderr = &lockedWriter{w: stderr}
	if code := parseFlags(fs, args, planUsage, stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 1 || !f.validate("plan", stderr) {
		if fs.NArg() > 1 {
			fmt.Fprintf(stderr, "lossless plan: want at most one DIR, got %d arguments\n", fs.NArg())
		}
		return 1
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	fl, ok := loadFleet(f.source(dir), &f, stderr)
	if !ok {
		return 1
	}
	defer fl.close()
	p, err := planFleet(ctx, fl, f.options(fl, "plan", stderr, len(fl.devs)))
	if err != nil {
		fmt.Fprintf(stderr, "lossless plan: stopped (-fail-fast): %v\n", err)
	}
	if *out != "" {
		if serr := plan.Save(*out, p); serr != nil {
			fmt.Fprintf(stderr, "lossless plan: %v\n", serr)
			return 1
		}
	}
	c := p.Counts()
	inFlight := fl.interrupted(stderr)
	if f.jsonOut {
		doc := planJSON{Plan: p, Summary: c, Interrupted: interruptedDoc(inFlight, p)}
		if f.summary {
			doc.Groups = p.Groups(fl.roles)
		}
		if err := writeJSON(stdout, doc); err != nil {
			fmt.Fprintf(stderr, "lossless plan: %v\n", err)
			return 1
		}
	} else {
		writeInterrupted(stdout, inFlight, p)
		f.writePlan(stdout, fl, p)
		if *out != "" {
			fmt.Fprintf(stdout, "Saved the plan to %s; run \"lossless apply %s\" to apply exactly it.\n", *out, *out)
		}
	}
	switch {
	case err != nil || c.Failed > 0:
		return 1
	case *detailed && c.Change > 0:
		return 2
	}
	return 0
}
