package plan

import (
	"fmt"
	"github.com/lossless-net/lossless/internal/config"
	"io"
	"slices"
	"strings"

	"github.com/lossless-net/lossless/vendors"
)

// Group is a set of devices whose changes are identical (same vendor,
// scope, commands or patch, and disruption), so that a reviewer reads the
// change once.
type Group struct {
	// Devices are in name order.
	Devices []string `json:"devices"`
	// Roles are the roles every device of the group has.
	Roles []string `json:"roles,omitempty"`
	// Change is the first device's change (its Diff names that device).
	Change *vendors.Change `json:"change"`
}

// Lines is the size of the change: its commands, or its patch operations.
func (g Group) Lines() int {
	if len(g.Change.Commands) > 0 {
		return len(g.Change.Commands)
	}
	return strings.Count(string(g.Change.Patch), `"op"`)
}

// Groups groups the devices with a change by identical change, largest
// group first (then by first device name). roles gives a device's roles
// (nil: none are named).
func (p *Plan) Groups(roles func(device string) []string) []Group {
	byKey := map[string]int{}
	var gs []Group
	for _, d := range p.Devices {
		if d.Error != "" || d.Change.Empty() {
			continue
		}
		c := d.Change
		key := strings.Join([]string{c.Vendor, c.Scope, strings.Join(c.Commands, "\n"), string(c.Patch), strings.Join(c.Disruptive, "\n"), fmt.Sprint(c.Kept), warningsKey(c.Warnings)}, "\x00")
		var rs []string
		if roles != nil {
			rs = roles(d.Device)
		}
		i, ok := byKey[key]
		if !ok {
			byKey[key] = len(gs)
			gs = append(gs, Group{Devices: []string{d.Device}, Roles: slices.Clone(rs), Change: c})
			continue
		}
		gs[i].Devices = append(gs[i].Devices, d.Device)
		gs[i].Roles = slices.DeleteFunc(gs[i].Roles, func(r string) bool { return !slices.Contains(rs, r) })
	}
	slices.SortStableFunc(gs, func(a, b Group) int {
		if len(a.Devices) != len(b.Devices) {
			return len(b.Devices) - len(a.Devices)
		}
		return strings.Compare(a.Devices[0], b.Devices[0])
	})
	return gs
}

// WriteSummary prints the plan grouped: each distinct change once, headed
// by how many devices (and of which roles) get it ("36 devices (role
// leaf): the same 4-line change"), then the devices that need nothing and
// each failure; then the summary line.
func (p *Plan) WriteSummary(w io.Writer, roles func(device string) []string) {
	for _, g := range p.Groups(roles) {
		who := fmt.Sprintf("%d device(s)", len(g.Devices))
		if len(g.Roles) > 0 {
			who += " (role " + strings.Join(g.Roles, ", ") + ")"
		}
		same := "the same"
		if len(g.Devices) == 1 {
			same = "a"
		}
		fmt.Fprintf(w, "## %s, %s: %s %d-line change\n", who, g.Change.Vendor, same, g.Lines())
		fmt.Fprintf(w, "Devices: %s\n", strings.Join(g.Devices, ", "))
		WriteChange(w, g.Devices[0], g.Change.Vendor, g.Change)
	}
	var same []string
	for _, d := range p.Devices {
		switch {
		case d.Error != "":
			fmt.Fprintf(w, "# %s (%s): failed\n  %s\n\n", d.Device, d.Vendor, indent(d.Error))
		case d.Change.Empty():
			same = append(same, d.Device)
		}
	}
	if len(same) > 0 {
		fmt.Fprintf(w, "No changes: %s\n\n", strings.Join(same, ", "))
	}
	fmt.Fprintln(w, p.Counts())
}

// warningsKey is the warnings without their device, for grouping.
func warningsKey(ws []config.Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.Rule + " " + w.Message + "\n")
	}
	return b.String()
}
