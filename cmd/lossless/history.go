package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/audit"
)

const historyUsage = `Usage: lossless history [options] FILE

Prints the audit log FILE written by "lossless apply -audit FILE": one
line per device step (the start of a change, written before its first
command is sent, then its result; the rollback of a batch whose health
gate tripped; a recovery) with its time, operator, plan hash, batch,
result and error, and the commands sent (secrets were masked when the log
was written). A device whose last step is "started" was left in the
middle of its change by an apply that stopped: history lists those at
the end, with the command that recovers them.

Exit status: 0 success, 1 the log cannot be read or a bad flag.

Options:
  -device NAME      only this device's steps
  -json             print the entries as one JSON array
  -commands         also print the commands (or patch) of each step

Examples:
  lossless history changes.jsonl
  lossless history -device leaf1 -commands changes.jsonl
  lossless history -json changes.jsonl | jq '.[] | select(.result != "applied")'
`

func runHistory(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	device := fs.String("device", "", "only this device `NAME`")
	jsonOut := fs.Bool("json", false, "print JSON")
	commands := fs.Bool("commands", false, "print the commands of each step")
	if code := parseFlags(fs, args, historyUsage, stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "lossless history: want one audit log FILE, got %d arguments\n\n%s", fs.NArg(), historyUsage)
		return 1
	}
	es, err := audit.ReadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "lossless history: %v\n", err)
		return 1
	}
	es = audit.ForDevice(es, *device)
	if *jsonOut {
		if es == nil {
			es = []audit.Entry{}
		}
		if err := writeJSON(stdout, es); err != nil {
			fmt.Fprintf(stderr, "lossless history: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "%-20s %-12s %-16s %-12s %5s %-8s %-11s %s\n", "TIME", "OPERATOR", "DEVICE", "PLAN", "BATCH", "STEP", "RESULT", "SECONDS")
	for _, e := range es {
		fmt.Fprintf(stdout, "%-20s %-12s %-16s %-12.12s %5d %-8s %-11s %.3f\n", e.Time.UTC().Format(time.RFC3339), e.Operator, e.Device, e.PlanHash, e.Batch, e.Step, e.Result, e.Seconds)
		if e.Error != "" {
			fmt.Fprintf(stdout, "%s\n", indentLines(e.Error))
		}
		if *commands {
			if len(e.Commands) > 0 {
				fmt.Fprintf(stdout, "%s\n", indentLines(strings.Join(e.Commands, "\n")))
			}
			if len(e.Patch) > 0 {
				fmt.Fprintf(stdout, "%s\n", indentLines(string(e.Patch)))
			}
		}
	}
	if len(es) == 0 && *device != "" {
		fmt.Fprintf(stdout, "No entries for %s.\n", *device)
	}
	if left := audit.InFlight(es); len(left) > 0 {
		fmt.Fprintf(stdout, "\nLeft in the middle of a change (started, no result recorded):\n")
		for _, e := range left {
			fmt.Fprintf(stdout, "  %s: plan %.12s, started %s by %s", e.Device, e.PlanHash, e.Time.UTC().Format(time.RFC3339), e.Operator)
			if e.State != "" {
				fmt.Fprintf(stdout, "; recover with: lossless recover %s", e.State)
			}
			fmt.Fprintln(stdout)
		}
	}
	return 0
}
