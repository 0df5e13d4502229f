package sonic

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The lab's image, as /etc/sonic/sonic_version.yml would name it [I: the
// lab's own values; a real image's come from its build].
const (
	labBuildVersion = "master.0-lossless-lab"
	labOSVersion    = "12"
	labDebian       = "12.12"
	labKernel       = "6.1.0-29-2-amd64"
	labCommit       = "0000000"
	labBuiltBy      = "lossless@lab"
)

// asicType is platform_info's asic_type for an ASIC generation: the
// sonic-buildimage platform it is built for.
func asicType(gen string) string {
	switch {
	case strings.HasPrefix(gen, "spc"):
		return "mellanox"
	case gen == "vs", gen == "cisco-8000", gen == "marvell-teralynx":
		return gen
	}
	return "broadcom"
}

// showVersion is show/main.py's `show version [--brief]`: the image's
// version lines, then the platform's (Platform and HwSKU from
// DEVICE_METADATA, or the SKU's when it has none, ASIC from the SKU's ASIC generation; Model Number is
// the inventory's model [I: on a switch it is the chassis EEPROM's part
// number]), uptime and date; without --brief the docker images, which the
// lab has none of (docker prints its table header only). d.mu is held.
func (s *Session) showVersion(args []string) string {
	brief := false
	for _, a := range args {
		if a != "--brief" {
			return s.clickError("show version [OPTIONS]", "show version", "No such option: "+a)
		}
		brief = true
	}
	md := s.d.db["DEVICE_METADATA"]["localhost"]
	now := time.Now()
	var b strings.Builder
	fmt.Fprintf(&b, "\nSONiC Software Version: SONiC.%s\n", labBuildVersion)
	fmt.Fprintf(&b, "SONiC OS Version: %s\n", labOSVersion)
	fmt.Fprintf(&b, "Distribution: Debian %s\n", labDebian)
	fmt.Fprintf(&b, "Kernel: %s\n", labKernel)
	fmt.Fprintf(&b, "Build commit: %s\n", labCommit)
	fmt.Fprintf(&b, "Build date: %s\n", s.d.booted.UTC().Format("Mon Jan _2 15:04:05 UTC 2006"))
	fmt.Fprintf(&b, "Built by: %s\n", labBuiltBy)
	fmt.Fprintf(&b, "\nPlatform: %s\n", cmp.Or(md["platform"], s.d.sku.platform))
	fmt.Fprintf(&b, "HwSKU: %s\n", cmp.Or(md["hwsku"], s.d.sku.hwsku))
	fmt.Fprintf(&b, "ASIC: %s\n", asicType(s.d.asic))
	b.WriteString("ASIC Count: 1\n")
	b.WriteString("Serial Number: N/A\n")
	fmt.Fprintf(&b, "Model Number: %s\n", s.d.model)
	b.WriteString("Hardware Revision: N/A\n")
	fmt.Fprintf(&b, "Uptime: %s\n", uptime(now, s.d.booted))
	fmt.Fprintf(&b, "Date: %s\n", now.Format("Mon 02 Jan 2006 15:04:05"))
	if !brief {
		b.WriteString("\nDocker images:\nREPOSITORY   TAG       IMAGE ID   SIZE\n\n")
	}
	s.status = 0
	return b.String()
}

// uptime is procps' `uptime` line, stripped: the time, how long up
// ("5 min", "1:05", "2 days, 1:05"), one user, no load.
func uptime(now, booted time.Time) string {
	up := now.Sub(booted)
	days, h, m := int(up.Hours())/24, int(up.Hours())%24, int(up.Minutes())%60
	var u string
	switch {
	case days > 0:
		s := "s"
		if days == 1 {
			s = ""
		}
		u = fmt.Sprintf("%d day%s, %2d:%02d", days, s, h, m)
	case h > 0:
		u = fmt.Sprintf("%2d:%02d", h, m)
	default:
		u = fmt.Sprintf("%d min", m)
	}
	return fmt.Sprintf("%s up %s,  1 user,  load average: 0.00, 0.00, 0.00", now.Format("15:04:05"), u)
}

// splitPipe splits a command line at the pipes outside quotes, as bash
// does; one element when there is none.
func splitPipe(line string) []string {
	var parts []string
	var quote rune
	start := 0
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '|':
			parts = append(parts, strings.TrimSpace(line[start:i]))
			start = i + 1
		}
	}
	return append(parts, strings.TrimSpace(line[start:]))
}

// unquote strips one pair of matching quotes around a word.
func unquote(w string) string {
	if len(w) >= 2 && (w[0] == '\'' || w[0] == '"') && w[len(w)-1] == w[0] {
		return w[1 : len(w)-1]
	}
	return w
}

// filter runs one `grep` or `head` of a pipeline over in (GNU grep:
// -i, -v, -c, -E, -F, -w and a pattern; head: -n N, -N), returning its
// output and exit status: grep exits 1 when no line was selected, 2 on a
// bad pattern or usage. Basic and extended regular expressions are read
// with Go's RE2 syntax [I: close to ERE; BRE's \| \( \) are not told apart].
func filter(cmd string, in string) (string, int) {
	words := strings.Fields(cmd)
	lines := strings.SplitAfter(in, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	switch words[0] {
	case "head":
		n := 10
		for i := 1; i < len(words); i++ {
			w := words[i]
			switch {
			case w == "-n" && i+1 < len(words):
				i++
				v, err := strconv.Atoi(words[i])
				if err != nil {
					return fmt.Sprintf("head: invalid number of lines: ‘%s’\n", words[i]), 1
				}
				n = v
			case strings.HasPrefix(w, "-n"):
				v, err := strconv.Atoi(w[2:])
				if err != nil {
					return fmt.Sprintf("head: invalid number of lines: ‘%s’\n", w[2:]), 1
				}
				n = v
			case strings.HasPrefix(w, "-") && len(w) > 1:
				v, err := strconv.Atoi(w[1:])
				if err != nil {
					return fmt.Sprintf("head: invalid option -- '%s'\nTry 'head --help' for more information.\n", w[1:2]), 1
				}
				n = v
			}
		}
		if n < len(lines) {
			lines = lines[:n]
		}
		return strings.Join(lines, ""), 0
	case "grep":
		var ignore, invert, count, fixed, word bool
		var pattern string
		havePattern := false
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") && len(w) > 1 && !havePattern {
				for _, f := range w[1:] {
					switch f {
					case 'i':
						ignore = true
					case 'v':
						invert = true
					case 'c':
						count = true
					case 'F':
						fixed = true
					case 'w':
						word = true
					case 'E':
					default:
						return fmt.Sprintf("grep: invalid option -- '%c'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", f), 2
					}
				}
				continue
			}
			if !havePattern {
				pattern, havePattern = unquote(w), true
			}
		}
		if !havePattern {
			return "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2
		}
		if fixed {
			pattern = regexp.QuoteMeta(pattern)
		}
		if word {
			pattern = `\b(?:` + pattern + `)\b`
		}
		if ignore {
			pattern = "(?i)" + pattern
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return "grep: Unmatched ( or \\(\n", 2
		}
		var b strings.Builder
		n := 0
		for _, l := range lines {
			if re.MatchString(strings.TrimSuffix(l, "\n")) != invert {
				n++
				if !strings.HasSuffix(l, "\n") {
					l += "\n"
				}
				b.WriteString(l)
			}
		}
		out := b.String()
		if count {
			out = strconv.Itoa(n) + "\n"
		}
		if n == 0 {
			return out, 1
		}
		return out, 0
	}
	return "", 127
}
