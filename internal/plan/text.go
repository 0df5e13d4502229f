package plan

import (
	"fmt"
	"io"
	"strings"
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
			fmt.Fprintf(w, "# %s (%s): no changes\n\n", d.Device, d.Vendor)
		default:
			WriteChange(w, d.Device, d.Vendor, d.Change.Scope, d.Change.Diff, d.Change.Commands, d.Change.Patch, d.Change.Disruptive)
		}
	}
	fmt.Fprintln(w, p.Counts())
}

// WriteChange prints one device's change.
func WriteChange(w io.Writer, device, vendor, scope, diff string, commands []string, patch []byte, disruptive []string) {
	fmt.Fprintf(w, "# %s (%s): to change\n", device, vendor)
	fmt.Fprintf(w, "Scope: %s\n\n", scope)
	if diff != "" {
		fmt.Fprintln(w, strings.TrimRight(diff, "\n"))
		fmt.Fprintln(w)
	}
	if len(commands) > 0 {
		fmt.Fprintln(w, "Commands apply will send:")
		for _, c := range commands {
			fmt.Fprintf(w, "  %s\n", c)
		}
		fmt.Fprintln(w)
	}
	if len(patch) > 0 {
		fmt.Fprintf(w, "JSON patch apply will send:\n  %s\n\n", indent(string(patch)))
	}
	if len(disruptive) == 0 {
		fmt.Fprint(w, "Disruptive: no\n\n")
	} else {
		fmt.Fprintln(w, "Disruptive: yes")
		for _, r := range disruptive {
			fmt.Fprintf(w, "  - %s\n", r)
		}
		fmt.Fprintln(w)
	}
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") }
