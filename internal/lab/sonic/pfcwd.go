package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// pfcwdConfig is pfcwd/main.py's CONFIG_DESCRIPTION: the columns of
// `pfcwd show config`, their field and the default shown when it is
// absent.
var pfcwdConfig = []struct{ header, field, def string }{
	{"ACTION", "action", "drop"},
	{"DETECTION TIME", "detection_time", "N/A"},
	{"RESTORATION TIME", "restoration_time", "infinite"},
	{"HISTORY", "pfc_stat_history", "disable"},
}

// intRange converts a Click IntRange argument; bad is Click's message.
func intRange(hint, v string, lo, hi int) (int, string) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Sprintf("Invalid value for '%s': '%s' is not a valid integer.", hint, v)
	}
	if n < lo || n > hi {
		return 0, fmt.Sprintf("Invalid value for '%s': %d is not in the range %d<=x<=%d.", hint, n, lo, hi)
	}
	return n, ""
}

// pfcwd runs pfcwd/main.py: start, stop, interval, start_default,
// counter_poll, big_red_switch, pfc_stat_history, show config. Writers
// need root ("Root privileges are required for this operation", exit 1).
// The ports are the lab's Ethernet PORT keys (get_all_ports).
func (s *Session) pfcwd(args []string, root bool) string {
	const usage = "pfcwd [OPTIONS] COMMAND [ARGS]..."
	if len(args) == 0 {
		return s.clickUsage(usage, "pfcwd", "Missing command.")
	}
	cmd, rest := args[0], args[1:]
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.status = 0
	needRoot := func() (string, bool) {
		if root {
			return "", true
		}
		s.status = 1
		return msgRoot + "\n", false
	}
	switch cmd {
	case "start":
		return s.pfcwdStart(rest, root)
	case "stop":
		if out, ok := needRoot(); !ok {
			return out
		}
		all := s.d.ethernetPorts()
		ports := rest
		if len(ports) == 0 {
			ports = all
		}
		for _, p := range ports {
			if slices.Contains(all, p) {
				s.d.modEntry("PFC_WD", p, nil)
			}
		}
		return ""
	case "interval":
		return s.pfcwdInterval(rest, root)
	case "start_default":
		if out, ok := needRoot(); !ok {
			return out
		}
		return s.pfcwdStartDefault()
	case "counter_poll", "big_red_switch":
		u := "pfcwd " + cmd + " [OPTIONS] {enable|disable}"
		switch {
		case len(rest) == 0:
			return s.clickUsage(u, "pfcwd "+cmd, "Missing argument '{enable|disable}'.")
		case rest[0] != "enable" && rest[0] != "disable":
			return s.clickUsage(u, "pfcwd "+cmd, fmt.Sprintf("Invalid value for '{enable|disable}': '%s' is not one of 'enable', 'disable'.", rest[0]))
		}
		if out, ok := needRoot(); !ok {
			return out
		}
		if cmd == "counter_poll" {
			s.d.modEntry("FLEX_COUNTER_TABLE", "PFCWD", map[string]string{"FLEX_COUNTER_STATUS": rest[0]})
		} else {
			s.d.modEntry("PFC_WD", "GLOBAL", map[string]string{"BIG_RED_SWITCH": rest[0]})
		}
		return ""
	case "pfc_stat_history":
		u := "pfcwd pfc_stat_history [OPTIONS] {enable|disable} [PORTS]..."
		switch {
		case len(rest) == 0:
			return s.clickUsage(u, "pfcwd pfc_stat_history", "Missing argument '{enable|disable}'.")
		case rest[0] != "enable" && rest[0] != "disable":
			return s.clickUsage(u, "pfcwd pfc_stat_history", fmt.Sprintf("Invalid value for '{enable|disable}': '%s' is not one of 'enable', 'disable'.", rest[0]))
		}
		if out, ok := s.invalidPorts(rest[1:]); !ok {
			return out
		}
		if out, ok := needRoot(); !ok {
			return out
		}
		return s.configurePorts(rest[1:], map[string]string{"pfc_stat_history": rest[0]}, false)
	case "show":
		if len(rest) == 0 {
			return s.clickUsage("pfcwd show [OPTIONS] COMMAND [ARGS]...", "pfcwd show", "Missing command.")
		}
		if rest[0] == "config" {
			vals, pos, bad := clickParse(rest[1:], []clickOpt{{names: []string{"-n", "--namespace"}}, {names: []string{"-d", "--display"}}})
			if bad != "" {
				return s.clickUsage("pfcwd show config [OPTIONS] [PORTS]...", "pfcwd show config", bad)
			}
			_ = vals
			return s.pfcwdShowConfig(pos)
		}
		return s.clickUsage("pfcwd show [OPTIONS] COMMAND [ARGS]...", "pfcwd show", "No such command '"+rest[0]+"'.")
	}
	return s.clickUsage(usage, "pfcwd", "No such command '"+cmd+"'.")
}

// invalidPorts is PfcwdCli.get_invalid_ports: a port given that is not
// one of the device's (other than "all") fails the command. d.mu is held.
func (s *Session) invalidPorts(ports []string) (string, bool) {
	all := s.d.ethernetPorts()
	var bad []string
	for _, p := range ports {
		if p != "all" && !slices.Contains(all, p) && !slices.Contains(bad, p) {
			bad = append(bad, p)
		}
	}
	if len(bad) == 0 {
		return "", true
	}
	// Python prints a set, in no set order; the lab prints them sorted.
	sortNatural(bad)
	s.status = 1
	return "Failed to run command, invalid options:\n" + strings.Join(bad, "\n") + "\n", false
}

// pfcwdStart is `pfcwd start [--action A] [--restoration-time R]
// [--pfc-stat-history] [PORTS]... DETECTION_TIME`. d.mu is held.
func (s *Session) pfcwdStart(args []string, root bool) string {
	const usage, cmd = "pfcwd start [OPTIONS] [PORTS]... DETECTION_TIME", "pfcwd start"
	vals, pos, bad := clickParse(args, []clickOpt{
		{names: []string{"--action", "-a"}},
		{names: []string{"--restoration-time", "-r"}},
		{names: []string{"--pfc-stat-history"}, flag: true},
	})
	if bad != "" {
		return s.clickUsage(usage, cmd, bad)
	}
	if a, ok := vals["--action"]; ok && a != "drop" && a != "forward" && a != "alert" {
		return s.clickUsage(usage, cmd, fmt.Sprintf("Invalid value for '--action' / '-a': '%s' is not one of 'drop', 'forward', 'alert'.", a))
	}
	restoration := -1
	if r, ok := vals["--restoration-time"]; ok {
		n, msg := intRange("--restoration-time' / '-r", r, 100, 60000)
		if msg != "" {
			return s.clickUsage(usage, cmd, msg)
		}
		restoration = n
	}
	if len(pos) == 0 {
		return s.clickUsage(usage, cmd, "Missing argument 'DETECTION_TIME'.")
	}
	detection, msg := intRange("DETECTION_TIME", pos[len(pos)-1], 100, 5000)
	if msg != "" {
		return s.clickUsage(usage, cmd, msg)
	}
	ports := pos[:len(pos)-1]
	if out, ok := s.invalidPorts(ports); !ok {
		return out
	}
	if !root {
		s.status = 1
		return msgRoot + "\n"
	}
	info := map[string]string{"detection_time": strconv.Itoa(detection)}
	if a, ok := vals["--action"]; ok {
		info["action"] = a
	}
	var b strings.Builder
	if restoration >= 0 {
		info["restoration_time"] = strconv.Itoa(restoration)
	} else {
		info["restoration_time"] = strconv.Itoa(2 * detection)
		fmt.Fprintf(&b, "restoration time not defined; default to 2 times detection time: %d ms\n", 2*detection)
	}
	if vals["--pfc-stat-history"] != "" {
		info["pfc_stat_history"] = "enable"
	}
	b.WriteString(s.configurePorts(ports, info, true))
	return b.String()
}

// configurePorts is PfcwdCli.configure_ports and
// verify_pfc_enable_status_per_port: each port ("all": every port; none:
// every port) without PORT_QOS_MAP pfc_enable is skipped with a warning;
// with overwrite the port's PFC_WD entry is replaced by info (keeping its
// pfc_stat_history unless info sets one: info is shared across the ports
// and setdefault fills it from the first port, as the tool does),
// otherwise info is merged in. d.mu is held.
func (s *Session) configurePorts(ports []string, info map[string]string, overwrite bool) string {
	all := s.d.ethernetPorts()
	if len(ports) == 0 {
		ports = all
	}
	var b strings.Builder
	one := func(p string) {
		if _, ok := s.d.db["PORT_QOS_MAP"][p]["pfc_enable"]; !ok {
			fmt.Fprintf(&b, "SKIPPED: PFC is not enabled on port: %s\n", p)
			return
		}
		if !overwrite {
			s.d.modEntry("PFC_WD", p, info)
			return
		}
		if _, ok := info["pfc_stat_history"]; !ok {
			cur, ok := s.d.db["PFC_WD"][p]["pfc_stat_history"]
			if !ok {
				cur = "disable"
			}
			info["pfc_stat_history"] = cur
		}
		s.d.setEntry("PFC_WD", p, info, true)
	}
	for _, p := range ports {
		switch {
		case p == "all":
			for _, q := range all {
				one(q)
			}
		case slices.Contains(all, p):
			one(p)
		}
	}
	return b.String()
}

// pfcwdInterval is `pfcwd interval N` (100..1000): refused when a port's
// detection or restoration time is below N. d.mu is held.
func (s *Session) pfcwdInterval(args []string, root bool) string {
	const usage, cmd = "pfcwd interval [OPTIONS] POLL_INTERVAL", "pfcwd interval"
	if len(args) == 0 {
		return s.clickUsage(usage, cmd, "Missing argument 'POLL_INTERVAL'.")
	}
	poll, msg := intRange("POLL_INTERVAL", args[0], 100, 1000)
	if msg != "" {
		return s.clickUsage(usage, cmd, msg)
	}
	if !root {
		s.status = 1
		return msgRoot + "\n"
	}
	entryMin, what := 1000, ""
	for _, k := range sortedKeys(s.d.db["PFC_WD"]) {
		if !strings.Contains(k, "Ethernet") {
			continue
		}
		e := s.d.db["PFC_WD"][k]
		if n, err := strconv.Atoi(e["detection_time"]); err == nil && n < entryMin {
			entryMin, what = n, "detection time"
		}
		if n, err := strconv.Atoi(e["restoration_time"]); err == nil && n < entryMin {
			entryMin, what = n, "restoration time"
		}
	}
	if entryMin < poll {
		s.status = 1
		return fmt.Sprintf("unable to use polling interval = %dms, value is bigger than one of the configured %s values, please choose a smaller polling_interval\n", poll, what)
	}
	s.d.modEntry("PFC_WD", "GLOBAL", map[string]string{"POLL_INTERVAL": strconv.Itoa(poll)})
	return ""
}

// pfcwdStartDefault is `pfcwd start_default` (reference/sonic.md §2.16):
// only with DEVICE_METADATA default_pfcwd_status=enable; the active ports
// are DEVICE_NEIGHBOR's plus admin-up PORTs of role Int. d.mu is held.
func (s *Session) pfcwdStartDefault() string {
	if !strings.EqualFold(s.d.db["DEVICE_METADATA"]["localhost"]["default_pfcwd_status"], "enable") {
		return ""
	}
	var active []string
	for p := range s.d.db["DEVICE_NEIGHBOR"] {
		active = append(active, p)
	}
	for p, e := range s.d.db["PORT"] {
		if e["admin_status"] == "up" && e["role"] == "Int" && !slices.Contains(active, p) {
			active = append(active, p)
		}
	}
	sortNatural(active)
	k := max(1, (len(s.d.db["PORT"])-1)/32+1)
	info := map[string]string{
		"detection_time":   strconv.Itoa(200 * k),
		"restoration_time": strconv.Itoa(200 * k),
		"action":           "drop",
		"pfc_stat_history": "disable",
	}
	var b strings.Builder
	for _, p := range active {
		if _, ok := s.d.db["PORT_QOS_MAP"][p]["pfc_enable"]; !ok {
			fmt.Fprintf(&b, "SKIPPED: PFC is not enabled on port: %s\n", p)
			continue
		}
		s.d.setEntry("PFC_WD", p, info, true)
	}
	s.d.modEntry("PFC_WD", "GLOBAL", map[string]string{"POLL_INTERVAL": strconv.Itoa(min(200*k, 1000))})
	return b.String()
}

// pfcwdShowConfig is PfcwdCli.config: the polling interval and big red
// switch lines when a port has an entry, then the table, right-aligned.
// d.mu is held.
func (s *Session) pfcwdShowConfig(ports []string) string {
	if len(ports) == 0 {
		ports = s.d.ethernetPorts()
	}
	var rows [][]string
	for _, p := range ports {
		e := s.d.db["PFC_WD"][p]
		if len(e) == 0 {
			continue
		}
		row := []string{p}
		for _, c := range pfcwdConfig {
			v, ok := e[c.field]
			if !ok {
				v = c.def
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	var b strings.Builder
	if len(rows) > 0 {
		g := s.d.db["PFC_WD"]["GLOBAL"]
		if v, ok := g["POLL_INTERVAL"]; ok {
			fmt.Fprintf(&b, "Changed polling interval to %sms\n", v)
		}
		if v, ok := g["BIG_RED_SWITCH"]; ok {
			fmt.Fprintf(&b, "BIG_RED_SWITCH status is %s\n", v)
		}
	}
	headers := []string{"PORT"}
	for _, c := range pfcwdConfig {
		headers = append(headers, c.header)
	}
	b.WriteString(tabulate(rows, headers, true))
	return b.String()
}
