package plan

import (
	"fmt"
	"io"
	"strings"

	"github.com/lossless-net/lossless/vendors"
)

// WriteText prints the plan for people, device by device in name order:
// the scope read, the unified diff of scoped running vs desired, the exact
// commands (or JSON patch) apply would send and whether the change is
// disruptive; then the summary line.
func (p *Plan) WriteText(w io.Writer) {
	for _, d := range p.Devices {
		switch {
		case d.Error != "":
			fmt.Fprintf(w, "# %s (%s): failed\n  %s\n\n", d.Device, d.Vendor, indent(d.Error))
		case d.Change.Empty():
			fmt.Fprintf(w, "# %s (%s): no changes\n", d.Device, d.Vendor)
			WriteNotes(w, d.Change)
			fmt.Fprintln(w)
		default:
			WriteChange(w, d.Device, d.Vendor, d.Change)
		}
	}
	fmt.Fprintln(w, p.Counts())
}

// WriteChange prints one device's change: scope, diff, what apply sends,
// whether it is disruptive, then the notes (WriteNotes).
func WriteChange(w io.Writer, device, vendor string, c *vendors.Change) {
	fmt.Fprintf(w, "# %s (%s): to change\n", device, vendor)
	fmt.Fprintf(w, "Scope: %s\n\n", c.Scope)
	if c.Diff != "" {
		fmt.Fprintln(w, strings.TrimRight(c.Diff, "\n"))
		fmt.Fprintln(w)
	}
	if len(c.Commands) > 0 {
		fmt.Fprintln(w, "Commands apply will send:")
		for _, l := range c.Commands {
			fmt.Fprintf(w, "  %s\n", l)
		}
		fmt.Fprintln(w)
	}
	if len(c.Patch) > 0 {
		fmt.Fprintf(w, "JSON patch apply will send:\n  %s\n\n", indent(string(c.Patch)))
	}
	if len(c.Disruptive) == 0 {
		fmt.Fprint(w, "Disruptive: no\n")
	} else {
		fmt.Fprintln(w, "Disruptive: yes")
		for _, r := range c.Disruptive {
			fmt.Fprintf(w, "  - %s\n", r)
		}
	}
	if c.NotCrashAtomic != "" {
		fmt.Fprintf(w, "Crash-atomic: no, %s\n", c.NotCrashAtomic)
	}
	WriteNotes(w, c)
	fmt.Fprintln(w)
}

// WriteNotes prints what a change leaves on the device and the
// rendering's warnings, each under its own heading; nothing when there
// are none. It is shown for unchanged devices too.
func WriteNotes(w io.Writer, c *vendors.Change) {
	if c == nil {
		return
	}
	if len(c.Kept) > 0 {
		fmt.Fprintln(w, "Kept, not changed by lossless:")
		for _, k := range c.Kept {
			fmt.Fprintf(w, "  - %s: %s\n", k.Object, k.Reason)
		}
	}
	if len(c.Warnings) > 0 {
		fmt.Fprintln(w, "Warnings:")
		for _, x := range c.Warnings {
			fmt.Fprintf(w, "  - %s [%s]\n", x.Message, x.Rule)
		}
	}
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") }
