package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/load"
)

const inspectUsage = `Usage: lossless inspect [options] DEVICE [DIR]

Prints the resolved desired state of one device of the intent in DIR
(default: the current directory) as a JSON document: its classes, DSCP map,
scheduling, ECN, PFC watchdog, buffers, options, and every port with its
lossless headroom and how the headroom was derived (each term with its
bytes and its source). Sizes are bytes, speeds bits per second, cable
lengths metres, durations Go durations ("200ms").
Exits 1 when the intent has errors or the device is not assigned.

Options:
  -json             print the document on one line (for machines)
  -text             print a readable summary instead of JSON
  -inventory FILE   inventory file (default: DIR/inventory.hcl)
  -var NAME=VALUE   set a variable; repeatable
  -var-file FILE    read variable values from an HCL file (NAME = VALUE)
                    or a *.json object; repeatable, later files win

Examples:
  lossless inspect leaf1 examples/ai-fabric
  lossless inspect -text sonic1 golden/canonical
  lossless inspect -json sonic1 golden/canonical | jq '.device.ports[0].headroom'
`

// inspectDocument is inspect's output.
type inspectDocument struct {
	FormatVersion string             `json:"format_version"`
	Device        *intent.DeviceJSON `json:"device"`
}

func runInspect(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, inspectUsage) }
	var f intentFlags
	f.register(fs)
	compact := fs.Bool("json", false, "print the JSON document on one line")
	text := fs.Bool("text", false, "print a readable summary")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprint(stderr, "lossless inspect: want DEVICE [DIR]\n\n"+inspectUsage)
		return 1
	}
	name, dir := fs.Arg(0), "."
	if fs.NArg() == 2 {
		dir = fs.Arg(1)
	}
	// What validate refuses, inspect refuses too.
	o := f.options()
	o.Renderable = true
	res, diags := load.Fabric(dir, o)
	if diag.Failed(diags, false) {
		_ = diag.WriteText(stderr, res.Files, diags, useColor(stderr, false), 78)
		return 1
	}
	var dev *intent.Device
	var names []string
	for _, d := range res.Devices {
		names = append(names, d.Name)
		if d.Name == name {
			dev = d
		}
	}
	if dev == nil {
		fmt.Fprintf(stderr, "lossless inspect: no assigned device %q; devices: %s\n", name, strings.Join(names, ", "))
		return 1
	}
	if *text {
		writeDevice(stdout, dev.JSON())
		return 0
	}
	enc := json.NewEncoder(stdout)
	if !*compact {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(inspectDocument{FormatVersion: "1.0", Device: dev.JSON()}); err != nil {
		fmt.Fprintf(stderr, "lossless inspect: %v\n", err)
		return 1
	}
	return 0
}

// writeDevice prints the resolved state for a reader.
func writeDevice(w io.Writer, d *intent.DeviceJSON) {
	fmt.Fprintf(w, "device %s (%s", d.Name, d.Vendor)
	if d.Platform != nil {
		fmt.Fprintf(w, ", %s, %s, buffer %d B, cell %d B", d.Platform.Model, d.Platform.ASIC, d.Platform.BufferBytes, d.Platform.CellBytes)
	}
	fmt.Fprintf(w, ") declared at %s\n", d.Declared)
	for _, k := range sortedOptionKeys(d.Options) {
		fmt.Fprintf(w, "  option %s = %s\n", k, d.Options[k])
	}
	writeQoS(w, "  ", d.QoS)
	if b := d.Buffers; b != nil {
		fmt.Fprintf(w, "  buffers %q:", b.Profile)
		if b.HeadroomAuto {
			fmt.Fprint(w, " headroom auto")
		} else {
			fmt.Fprintf(w, " headroom xoff %d B, xon %d B, size %d B", b.XoffBytes, b.XonBytes, b.SizeBytes)
		}
		for _, p := range []struct {
			n string
			v int64
		}{{"lossless pool", int64(b.LosslessPoolBytes)}, {"lossy pool", int64(b.LossyPoolBytes)}, {"headroom pool", int64(b.HeadroomPoolBytes)}} {
			if p.v > 0 {
				fmt.Fprintf(w, ", %s %d B", p.n, p.v)
			}
		}
		if b.Alpha != nil {
			fmt.Fprintf(w, ", alpha %d", *b.Alpha)
		}
		fmt.Fprintln(w)
	}
	for _, p := range d.Ports {
		fmt.Fprintf(w, "  port %s: %d bps, cable %gm", p.Name, p.SpeedBps, p.CableMetres)
		if p.Peer != "" {
			fmt.Fprintf(w, ", peer %s", p.Peer)
		}
		fmt.Fprintln(w)
		if p.QoS != nil {
			writeQoS(w, "    ", p.QoS)
		}
		for _, h := range p.Headroom {
			fmt.Fprintf(w, "    priority %d headroom: xoff %d B, xon %d B, size %d B\n", h.Priority, h.XoffBytes, h.XonBytes, h.SizeBytes)
			for _, t := range h.Derivation {
				fmt.Fprintf(w, "      %-40s %8d B  (%s)\n", t.Name, t.Bytes, t.Source)
			}
		}
	}
}

func writeQoS(w io.Writer, indent string, q *intent.QoSJSON) {
	if q == nil {
		return
	}
	fmt.Fprintf(w, "%sqos %q: trust %s, lossless priorities %v", indent, q.Profile, q.Trust, q.LosslessPriorities)
	if q.PFCMode != "" {
		fmt.Fprintf(w, ", pfc %s", q.PFCMode)
	}
	if q.Names != nil {
		fmt.Fprintf(w, ", names %s", q.Names)
	}
	fmt.Fprintln(w)
	for _, c := range q.Classes {
		fmt.Fprintf(w, "%s  class %d %q: dscp %v", indent, c.ID, c.Name, c.DSCP)
		if c.Default {
			fmt.Fprint(w, " + default")
		}
		if len(c.CoS) > 0 || c.DefaultCoS {
			fmt.Fprintf(w, ", cos %v", c.CoS)
			if c.DefaultCoS {
				fmt.Fprint(w, " + default")
			}
		}
		if c.MatchAll {
			fmt.Fprint(w, ", match all")
		}
		if c.Lossless {
			fmt.Fprint(w, ", lossless")
		}
		if c.CNP {
			fmt.Fprint(w, ", cnp")
		}
		switch s := c.Scheduling; {
		case s.Mode == "strict":
			fmt.Fprintf(w, ", strict level %d", s.Level)
		case s.BandwidthPercent > 0:
			fmt.Fprintf(w, ", bandwidth %d%%", s.BandwidthPercent)
		case s.Weight > 0:
			fmt.Fprintf(w, ", weight %d", s.Weight)
		}
		if s := c.Scheduling; s.MinBandwidthPercent > 0 {
			fmt.Fprintf(w, ", min bandwidth %d%%", s.MinBandwidthPercent)
		}
		if s := c.Scheduling; s.ShapeBps > 0 {
			fmt.Fprintf(w, ", shape %s", s.ShapeBps)
		}
		if c.MTUBytes > 0 {
			fmt.Fprintf(w, ", mtu %d", c.MTUBytes)
		}
		if e := c.ECN; e != nil {
			fmt.Fprintf(w, ", ecn %s–%s at %s", thresholdText(e.MinBytes, e.MinTime, e.MinPercent), thresholdText(e.MaxBytes, e.MaxTime, e.MaxPercent), probabilityText(e.MaxProbabilityPercent))
			if e.Weight != nil {
				fmt.Fprintf(w, " weight %d", *e.Weight)
			}
			for _, col := range []struct {
				name string
				c    *intent.ColorJSON
			}{{"yellow", e.Yellow}, {"red", e.Red}} {
				if col.c == nil {
					continue
				}
				verb := "marks"
				if col.c.Drop {
					verb = "drops"
				}
				fmt.Fprintf(w, "; %s %s %s–%s at %d%%", col.name, verb, thresholdText(col.c.MinBytes, col.c.MinTime, col.c.MinPercent), thresholdText(col.c.MaxBytes, col.c.MaxTime, col.c.MaxPercent), col.c.MaxProbabilityPercent)
			}
		}
		if c.Names != nil {
			fmt.Fprintf(w, ", names %s", c.Names)
		}
		fmt.Fprintln(w)
	}
	if wd := q.Watchdog; wd != nil {
		fmt.Fprintf(w, "%s  pfc watchdog: detection %s, restoration %s, polling %s, action %s", indent,
			orDefault(wd.Detection), orDefault(wd.Restoration), orDefault(wd.Polling), orDefault(wd.Action))
		if len(wd.Priorities) > 0 {
			fmt.Fprintf(w, ", priorities %v", wd.Priorities)
		}
		fmt.Fprintln(w)
	}
}

// probabilityText is a marking probability, or the vendor's default.
func probabilityText(p *int) string {
	if p == nil {
		return "the vendor's default probability"
	}
	return fmt.Sprintf("%d%%", *p)
}

// thresholdText is a threshold in the one unit it has.
func thresholdText(b interface{ String() string }, t string, percent int) string {
	switch {
	case percent != 0:
		return fmt.Sprintf("%d%%", percent)
	case t != "":
		return t
	}
	return b.String()
}

func orDefault(s string) string {
	if s == "" {
		return "default"
	}
	return s
}

func sortedOptionKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
