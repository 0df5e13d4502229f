// Command lossless validates a lossless-Ethernet QoS intent, renders it to
// native switch config, and plans and applies it over SSH or gNMI.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one verb of the CLI. run parses its own flags from args and
// returns the process exit code.
type command struct {
	synopsis string
	run      func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists the verbs. Each lives in its own file, <verb>.go.
func commands() map[string]command {
	return map[string]command{
		"render":   {"Render each device's native config; compare with or update golden files", runRender},
		"version":  {"Print the lossless version", runVersion},
		"validate": {"Check an intent and its inventory", runValidate},
		"fmt":      {"Rewrite intent files in canonical HCL form", runFmt},
		"inspect":  {"Print one device's resolved desired state", runInspect},
		"import":   {"Write an intent from devices' running configs, and check it round-trips", runImport},
		"lab":      {"Start emulated switches (SSH, gNMI) with inventory and known_hosts", runLab},
		"plan":     {"Show what apply would change on each device (never changes one)", runPlan},
		"apply":    {"Apply the intent (or a saved plan) atomically, device by device", runApply},
		"history":  {"Show the audit log of applies: one line per device step", runHistory},
		"recover":  {"Take devices an apply left in the middle of a change back (or forward)", runRecover},
	}
}

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stdout, cmds)
		if len(args) == 0 {
			return 1
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "lossless: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 1
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "Usage: lossless <command> [options] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "lossless validates a RoCEv2 lossless-Ethernet QoS intent written in HCL, renders")
	fmt.Fprintln(w, "native config for NX-OS, EOS, Huawei CE and SONiC, and pushes it safely.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].synopsis)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'lossless <command> -help' for a command's options and examples.")
}

func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) int {
	fmt.Fprintln(stdout, "lossless", version)
	return 0
}
