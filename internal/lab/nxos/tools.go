package nxos

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// The exec tools operators use on the box beside the QoS shows
// (issue 14 item 3):
//   - [ntcver] `show version`: networktocode/ntc-templates
//     tests/cisco_nxos/show_version/cisco_nxos_show_version6.raw (a
//     Nexus 9000 on NX-OS 10.3(6)) for the layout: the banner, Software
//     (BIOS, NXOS version, image file), Hardware ("cisco Nexus9000
//     C93108TC-EX chassis", "Device name:"), "Kernel uptime is D day(s),
//     H hour(s), M minute(s), S second(s)"; the Nexus 9000v prints
//     "cisco Nexus9000 9000v Chassis" (a public 9.3(1) 9000v transcript
//     the search tool found). The lab prints its own version (versionLine)
//     and model; serial numbers, memory and BIOS dates are [I] values.
//   - [fund] the Cisco Nexus 9000 Series NX-OS Fundamentals Configuration
//     Guide, "Searching and Filtering show Command Output": a show
//     command piped to `include`, `exclude` or `begin` and a regular
//     expression prints the lines that match, those that do not, or the
//     output from the first line that matches. [I] the expression's
//     dialect (the lab uses Go's, which takes the POSIX-like patterns
//     operators type) and that a bad expression is refused with the
//     invalid-command error under the pattern.

// showVersion is the output of show version [ntcver].
func (d *Device) showVersion() string {
	up := d.now().Sub(d.booted)
	if up < 0 {
		up = 0
	}
	days := int(up / (24 * time.Hour))
	h, m, s := int(up/time.Hour)%24, int(up/time.Minute)%60, int(up/time.Second)%60
	chassis := strings.TrimPrefix(d.model, "N9K-")
	ver := strings.TrimSuffix(strings.TrimPrefix(versionLine, "version "), " Bios:version")
	var b strings.Builder
	b.WriteString("Cisco Nexus Operating System (NX-OS) Software\n")
	b.WriteString("TAC support: http://www.cisco.com/tac\n")
	b.WriteString("Copyright (C) 2002-2021, Cisco and/or its affiliates.\n")
	b.WriteString("All rights reserved.\n\n")
	b.WriteString("Software\n")
	b.WriteString("  BIOS: version 05.45\n")
	fmt.Fprintf(&b, "  NXOS: version %s\n", ver)
	fmt.Fprintf(&b, "  NXOS image file is: bootflash:///nxos.%s.bin\n\n", strings.NewReplacer("(", ".", ")", "").Replace(ver))
	b.WriteString("Hardware\n")
	fmt.Fprintf(&b, "  cisco Nexus9000 %s Chassis\n", chassis)
	b.WriteString("  Intel(R) Xeon(R) CPU D-1526 @ 1.80GHz with 24571632 kB of memory.\n")
	b.WriteString("  Processor Board ID FDO00000000\n")
	fmt.Fprintf(&b, "  Device name: %s\n", d.host)
	b.WriteString("  bootflash:   53298520 kB\n\n")
	fmt.Fprintf(&b, "Kernel uptime is %d day(s), %d hour(s), %d minute(s), %d second(s)\n\n", days, h, m, s)
	b.WriteString("plugin\n  Core Plugin, Ethernet Plugin\n")
	return b.String()
}

func doShowVersion(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	return s.d.showVersion(), false
}

// pipeRe splits a show command from its filter [fund].
var pipeRe = regexp.MustCompile(`^(\s*sh\S*\s.*?)\s*\|\s*(\S+)\s+(.*?)\s*$`)

// filters are the output filters of [fund] the lab emulates.
var filters = []string{"begin", "exclude", "include"}

// piped cuts line into its show command and its filter [fund]: ok is
// false when line has no pipe. A filter word the lab does not know, or
// a bad expression, is refused (msg, with the caret under it).
func (s *session) piped(prompt, line string) (cmd string, filter func(string) string, msg string, ok bool) {
	m := pipeRe.FindStringSubmatchIndex(line)
	if m == nil || !strings.HasPrefix("show", strings.ToLower(strings.Fields(line)[0])) {
		return "", nil, "", false
	}
	cmd, word, expr := line[m[2]:m[3]], strings.ToLower(line[m[4]:m[5]]), line[m[6]:m[7]]
	var kind string
	for _, f := range filters {
		if strings.HasPrefix(f, word) {
			kind = f
			break
		}
	}
	if kind == "" {
		return "", nil, caret(prompt, m[4]) + errInvalid + "\n", true
	}
	re, err := regexp.Compile(expr)
	if err != nil || expr == "" {
		return "", nil, caret(prompt, m[6]) + errInvalid + "\n", true
	}
	return cmd, func(out string) string {
		var b strings.Builder
		begun := false
		for _, l := range strings.SplitAfter(out, "\n") {
			if l == "" {
				continue
			}
			hit := re.MatchString(strings.TrimSuffix(l, "\n"))
			switch kind {
			case "include":
				if !hit {
					continue
				}
			case "exclude":
				if hit {
					continue
				}
			case "begin":
				begun = begun || hit
				if !begun {
					continue
				}
			}
			b.WriteString(l)
		}
		return b.String()
	}, "", true
}
