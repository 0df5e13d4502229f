package sonic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The QoS tools of sonic-utilities an operator runs on the box, each
// writing CONFIG_DB as the tool does (ConfigDBConnector mod_entry and
// set_entry, straight to redis: no YANG, no GCU, no Device.Watch). Source:
// sonic-net/sonic-utilities @ 691b1bbc4fd2b71657d1b0b334c37136deb51526,
// scripts/ecnconfig, pfc/main.py, pfcwd/main.py, show/main.py (the `show
// pfc priority` and `show pfcwd config` wrappers run `pfc show priority`
// and `pfcwd show config`).
const (
	// msgEcnRoot is ecnconfig's chk_exec_privilege text (it differs from
	// pfcwd's msgRoot).
	msgEcnRoot = "Root privileges required for this operation"
	// ecnOn is the WRED profile `ecnconfig -q N on` points queues at,
	// whatever they pointed at before.
	ecnOn = "AZURE_LOSSLESS"
)

// clickOpt is one option of a Click command: its names, and whether it is
// a flag (takes no value).
type clickOpt struct {
	names []string
	flag  bool
}

// clickParse splits args as Click does for the options given: options
// anywhere, a value as the next word or after "=" on a long name; the
// rest positional. vals is keyed by the option's first name. bad is
// Click's error text.
func clickParse(args []string, opts []clickOpt) (vals map[string]string, pos []string, bad string) {
	vals = map[string]string{}
	find := func(name string) (clickOpt, bool) {
		for _, o := range opts {
			if slices.Contains(o.names, name) {
				return o, true
			}
		}
		return clickOpt{}, false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, eq := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") {
			name, eq = a, false
		}
		o, ok := find(name)
		if !ok {
			return nil, nil, "No such option: " + name
		}
		switch {
		case o.flag:
			val = "true"
		case eq:
		case i+1 < len(args):
			i++
			val = args[i]
		default:
			return nil, nil, fmt.Sprintf("Option '%s' requires an argument.", name)
		}
		vals[o.names[0]] = val
	}
	return vals, pos, ""
}

// clickUsage prints Click 8's usage error for a command without a -h
// alias and sets exit status 2.
func (s *Session) clickUsage(usage, cmd, msg string) string {
	s.status = 2
	return fmt.Sprintf("Usage: %s\nTry '%s --help' for help.\n\nError: %s\n", usage, cmd, msg)
}

// modEntry writes fields into a key as ConfigDBConnector.mod_entry does:
// merged into what is there; nil fields delete the key. d.mu is held.
func (d *Device) modEntry(tn, k string, fields map[string]string) {
	if fields == nil {
		d.setEntry(tn, k, nil, false)
		return
	}
	merged := copyFields(d.db[tn][k])
	if merged == nil {
		merged = map[string]string{}
	}
	for f, v := range fields {
		merged[f] = v
	}
	d.setEntry(tn, k, merged, true)
}

// ethernetPorts are the PORT keys named Ethernet*, in natural order: the
// ports pfcwd's get_all_ports finds (it reads COUNTERS_PORT_NAME_MAP, which
// holds every PORT of the lab). d.mu is held.
func (d *Device) ethernetPorts() []string {
	var ports []string
	for p := range d.db["PORT"] {
		if strings.HasPrefix(p, "Ethernet") {
			ports = append(ports, p)
		}
	}
	sortNatural(ports)
	return ports
}

// ecnFields are ecnconfig's WRED_CONFIG_FIELDS, in the order main() sets
// them.
var ecnFields = []struct{ opt, long, field string }{
	{"-gmax", "--green-max", "green_max_threshold"},
	{"-gmin", "--green-min", "green_min_threshold"},
	{"-ymax", "--yellow-max", "yellow_max_threshold"},
	{"-ymin", "--yellow-min", "yellow_min_threshold"},
	{"-rmax", "--red-max", "red_max_threshold"},
	{"-rmin", "--red-min", "red_min_threshold"},
	{"-gdrop", "--green-drop-prob", "green_drop_probability"},
	{"-ydrop", "--yellow-drop-prob", "yellow_drop_probability"},
	{"-rdrop", "--red-drop-prob", "red_drop_probability"},
}

// ecnconfig runs scripts/ecnconfig: `-l [-vv]` lists the WRED profiles,
// `-p PROFILE -gmin … [-vv]` sets thresholds and probabilities with
// mod_entry, `-q 3,4 [on|off]` shows or sets QUEUE wred_profile on the
// DEVICE_NEIGHBOR ports.
func (s *Session) ecnconfig(args []string, root bool) string {
	opts := []clickOpt{
		{names: []string{"-l", "--list"}, flag: true},
		{names: []string{"-p", "--profile"}},
		{names: []string{"-vv", "--verbose"}, flag: true},
		{names: []string{"-q", "--queue"}},
	}
	for _, f := range ecnFields {
		opts = append(opts, clickOpt{names: []string{f.opt, f.long}})
	}
	vals, pos, bad := clickParse(args, opts)
	const usage = "ecnconfig [OPTIONS] [[on|off]]"
	switch {
	case bad != "":
		return s.clickUsage(usage, "ecnconfig", bad)
	case len(pos) > 1:
		return s.clickUsage(usage, "ecnconfig", fmt.Sprintf("Got unexpected extra argument (%s)", pos[1]))
	}
	command := ""
	if len(pos) == 1 {
		command = strings.ToLower(pos[0])
		if command != "on" && command != "off" {
			return s.clickUsage(usage, "ecnconfig", fmt.Sprintf("Invalid value for '[[on|off]]': '%s' is not one of 'on', 'off'.", pos[0]))
		}
	}
	fail := func(out, msg string) string {
		s.status = 1
		return out + "Exception caught:  " + msg + "\n"
	}
	verbose := vals["-vv"] != ""
	set := map[string]string{}
	for _, f := range ecnFields {
		if v := vals[f.opt]; v != "" {
			set[f.opt] = v
		}
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.status = 0
	switch {
	case vals["-l"] != "":
		if len(set) > 0 {
			return fail("", "Input arguments error. No set options allowed when -l[ist] specified")
		}
		var b strings.Builder
		names := sortedKeys(s.d.db["WRED_PROFILE"])
		for _, name := range names {
			// Redis returns a hash's fields in the order they were
			// written; the lab keeps no order and prints them sorted [I].
			fields := s.d.db["WRED_PROFILE"][name]
			rows := make([][]string, 0, len(fields))
			for _, f := range sortedKeys(fields) {
				rows = append(rows, []string{f, fields[f]})
			}
			b.WriteString("Profile: " + name + "\n")
			b.WriteString(tabulate(rows, nil, false) + "\n")
		}
		if verbose {
			fmt.Fprintf(&b, "Total profiles: %d\n", len(names))
		}
		return b.String()
	case vals["-p"] != "":
		profile := vals["-p"]
		if len(set) == 0 {
			return fail("", "Input arguments error. Specify at least one threshold parameter to set")
		}
		cur, ok := s.d.db["WRED_PROFILE"][profile]
		if !ok {
			return fail("", fmt.Sprintf("Input arguments error. Invalid WRED profile %s for namespace None", profile))
		}
		data := copyFields(cur)
		for _, f := range ecnFields {
			if v, ok := set[f.opt]; ok {
				data[f.field] = v
			}
		}
		if out := validateWRED(data); out != "" {
			return fail(out, "Input arguments error. Invalid WRED profile parameters")
		}
		if !root {
			s.status = 1
			return msgEcnRoot + "\n"
		}
		var b strings.Builder
		for _, f := range ecnFields {
			v, ok := set[f.opt]
			if !ok {
				continue
			}
			if verbose {
				pct := ""
				if strings.HasSuffix(f.field, "_probability") {
					pct = "%"
				}
				fmt.Fprintf(&b, "Setting %s value to %s%s\n", f.field, v, pct)
			}
			s.d.modEntry("WRED_PROFILE", profile, map[string]string{f.field: v})
		}
		return b.String()
	case vals["-q"] != "":
		return s.ecnQueues(strings.Split(vals["-q"], ","), command, verbose, root)
	}
	s.status = 1
	return ""
}

// validateWRED is EcnConfig.validate_profile_data: thresholds are
// non-negative integers, probabilities integers 0..100, and a colour's
// min is no larger than its max. It returns the lines printed, "" when
// valid.
func validateWRED(data map[string]string) string {
	var b strings.Builder
	for _, f := range ecnFields {
		v, ok := data[f.field]
		if !ok {
			continue
		}
		key := strings.TrimPrefix(f.opt, "-")
		n, err := strconv.Atoi(v)
		digits := err == nil && !strings.ContainsAny(v, "+-")
		switch {
		case strings.Contains(f.field, "threshold") && !digits:
			fmt.Fprintf(&b, "Invalid %s (%s). %s should be an non-negative integer.\n", key, v, key)
		case strings.Contains(f.field, "probability") && (!digits || n > 100):
			fmt.Fprintf(&b, "Invalid %s (%s). %s should be an integer between 0 and 100.\n", key, v, key)
		}
	}
	if b.Len() > 0 {
		return b.String()
	}
	for _, c := range []string{"g", "y", "r"} {
		minF, maxF := fieldOf("-"+c+"min"), fieldOf("-"+c+"max")
		lo, okLo := data[minF]
		hi, okHi := data[maxF]
		if !okLo || !okHi {
			continue
		}
		l, _ := strconv.Atoi(lo)
		h, _ := strconv.Atoi(hi)
		if l > h {
			fmt.Fprintf(&b, "Invalid %smin (%d) and %smax (%d). %smin should be smaller than %smax\n", c, l, c, h, c, c)
		}
	}
	return b.String()
}

func fieldOf(opt string) string {
	for _, f := range ecnFields {
		if f.opt == opt {
			return f.field
		}
	}
	return ""
}

// ecnQueues is ecnconfig's EcnQ: the ports are DEVICE_NEIGHBOR's keys
// (sorted by number); without on/off it prints the status read from the
// first port, with on it sets QUEUE|port|q wred_profile=AZURE_LOSSLESS,
// with off it removes the field (and the key once empty). d.mu is held.
func (s *Session) ecnQueues(queues []string, command string, verbose, root bool) string {
	if slices.Equal(queues, []string{""}) {
		s.status = 1
		return "Exception caught:  Input arguments error. Specify at least one queue by index\n"
	}
	if command != "" && !root {
		s.status = 1
		return msgEcnRoot + "\n"
	}
	ports := sortedKeys(s.d.db["DEVICE_NEIGHBOR"])
	if len(ports) == 0 {
		s.status = 1
		return "Exception caught:  No active ports detected in table 'DEVICE_NEIGHBOR'\n"
	}
	sortNatural(ports)
	var b strings.Builder
	if command == "" {
		b.WriteString("ECN status:\n")
		for _, q := range queues {
			out := "queue " + q
			if verbose {
				out = strings.Join(ports, ",") + " " + out
			}
			state := "off"
			if s.d.db["QUEUE"][ports[0]+"|"+q]["wred_profile"] == ecnOn {
				state = "on"
			}
			fmt.Fprintf(&b, "%s: %s\n", out, state)
		}
		return b.String()
	}
	for _, q := range queues {
		if verbose {
			verb := "Disable"
			if command == "on" {
				verb = "Enable"
			}
			fmt.Fprintf(&b, "%s ECN on %s queue %s\n", verb, strings.Join(ports, ","), q)
		}
		for _, p := range ports {
			k := p + "|" + q
			entry := copyFields(s.d.db["QUEUE"][k])
			if entry == nil {
				entry = map[string]string{}
			}
			if command == "on" {
				entry["wred_profile"] = ecnOn
			} else {
				delete(entry, "wred_profile")
			}
			s.d.setEntry("QUEUE", k, entry, len(entry) > 0)
		}
	}
	return b.String()
}

// pfc runs pfc/main.py: `pfc config priority on|off IFACE PRIO`, `pfc
// config asymmetric on|off IFACE`, `pfc show priority [IFACE]`, `pfc show
// asymmetric [IFACE]`. The tool checks no privilege itself.
func (s *Session) pfc(args []string) string {
	if len(args) == 0 {
		return s.clickUsage("pfc [OPTIONS] COMMAND [ARGS]...", "pfc", "Missing command.")
	}
	if len(args) < 2 || (args[0] != "config" && args[0] != "show") {
		if args[0] != "config" && args[0] != "show" {
			return s.clickUsage("pfc [OPTIONS] COMMAND [ARGS]...", "pfc", "No such command '"+args[0]+"'.")
		}
		return s.clickUsage("pfc "+args[0]+" [OPTIONS] COMMAND [ARGS]...", "pfc "+args[0], "Missing command.")
	}
	group, cmd, rest := args[0], args[1], args[2:]
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	switch group + " " + cmd {
	case "config priority":
		const usage = "pfc config priority [OPTIONS] {on|off} INTERFACE {0|1|2|3|4|5|6|7}"
		switch {
		case len(rest) < 1:
			return s.clickUsage(usage, "pfc config priority", "Missing argument '{on|off}'.")
		case rest[0] != "on" && rest[0] != "off":
			return s.clickUsage(usage, "pfc config priority", fmt.Sprintf("Invalid value for '{on|off}': '%s' is not one of 'on', 'off'.", rest[0]))
		case len(rest) < 2:
			return s.clickUsage(usage, "pfc config priority", "Missing argument 'INTERFACE'.")
		case len(rest) < 3:
			return s.clickUsage(usage, "pfc config priority", "Missing argument '{0|1|2|3|4|5|6|7}'.")
		case len(rest[2]) != 1 || rest[2][0] < '0' || rest[2][0] > '7':
			return s.clickUsage(usage, "pfc config priority", fmt.Sprintf("Invalid value for '{0|1|2|3|4|5|6|7}': '%s' is not one of '0', '1', '2', '3', '4', '5', '6', '7'.", rest[2]))
		case len(rest) > 3:
			return s.clickUsage(usage, "pfc config priority", fmt.Sprintf("Got unexpected extra argument (%s)", rest[3]))
		}
		return s.pfcPriority(rest[0], rest[1], rest[2])
	case "config asymmetric":
		const usage = "pfc config asymmetric [OPTIONS] {on|off} INTERFACE"
		switch {
		case len(rest) < 1:
			return s.clickUsage(usage, "pfc config asymmetric", "Missing argument '{on|off}'.")
		case rest[0] != "on" && rest[0] != "off":
			return s.clickUsage(usage, "pfc config asymmetric", fmt.Sprintf("Invalid value for '{on|off}': '%s' is not one of 'on', 'off'.", rest[0]))
		case len(rest) < 2:
			return s.clickUsage(usage, "pfc config asymmetric", "Missing argument 'INTERFACE'.")
		}
		s.d.modEntry("PORT", rest[1], map[string]string{"pfc_asym": rest[0]})
		s.status = 0
		return ""
	case "show priority":
		return s.pfcShow(rest, "PORT_QOS_MAP", "Lossless priorities", "pfc_enable")
	case "show asymmetric":
		return s.pfcShow(rest, "PORT", "Asymmetric", "pfc_asym")
	}
	return s.clickUsage("pfc "+group+" [OPTIONS] COMMAND [ARGS]...", "pfc "+group, "No such command '"+cmd+"'.")
}

// pfcPriority is Pfc.configPfcPrio: the priority is added to or removed
// from PORT_QOS_MAP|iface pfc_enable, sorted, with mod_entry. d.mu is
// held.
func (s *Session) pfcPriority(status, iface, prio string) string {
	s.status = 0
	entry, ok := s.d.db["PORT_QOS_MAP"][iface]
	if !ok {
		return "Cannot find interface " + iface + "\n"
	}
	var on []string
	for p := range strings.SplitSeq(entry["pfc_enable"], ",") {
		if p = strings.TrimSpace(p); p != "" {
			on = append(on, p)
		}
	}
	switch {
	case status == "on" && slices.Contains(on, prio):
		return fmt.Sprintf("Priority %s has already been enabled on %s\n", prio, iface)
	case status == "off" && !slices.Contains(on, prio):
		return fmt.Sprintf("Priority %s is not enabled on %s\n", prio, iface)
	case status == "on":
		on = append(on, prio)
	default:
		on = slices.DeleteFunc(on, func(p string) bool { return p == prio })
	}
	slices.Sort(on)
	s.d.modEntry("PORT_QOS_MAP", iface, map[string]string{"pfc_enable": strings.Join(on, ",")})
	return ""
}

// pfcShow is Pfc.showPfcPrio and showPfcAsym: an empty line (the
// namespace, none here), the table in natural order, an empty line.
// showPfcPrio lists PORT_QOS_MAP's keys, showPfcAsym the Ethernet PORT
// keys. d.mu is held.
func (s *Session) pfcShow(args []string, table, header, field string) string {
	s.status = 0
	var keys []string
	for k := range s.d.db[table] {
		if table == "PORT" && !strings.HasPrefix(k, "Ethernet") {
			continue
		}
		keys = append(keys, k)
	}
	if len(args) > 0 {
		if !slices.Contains(keys, args[0]) {
			if table == "PORT" {
				keys = nil // showPfcAsym prints an empty table
			} else {
				return "Cannot find interface " + args[0] + "\n"
			}
		} else {
			keys = []string{args[0]}
		}
	}
	sortNatural(keys)
	rows := make([][]string, 0, len(keys))
	for _, k := range keys {
		v, ok := s.d.db[table][k][field]
		if !ok {
			v = "N/A"
		}
		rows = append(rows, []string{k, v})
	}
	return "\n" + tabulate(rows, []string{"Interface", header}, false) + "\n"
}

// configTool runs the `config` commands of config/main.py that only run a
// tool: `config ecn -profile P -gmin N …` (ecnconfig -p P …, -v → -vv),
// `config pfcwd start|stop|interval|counter_poll|big_red_switch|
// pfc_stat_history|start_default …` (pfcwd …), `config interface pfc
// priority IFACE PRIO on|off` and `… asymmetric IFACE on|off` (pfc config
// …). --verbose prints the command run (clicommon.run_command's
// display_cmd, without the colours of a terminal). ok is false for any
// other command. The caller checked root.
func (s *Session) configTool(args []string) (string, bool) {
	switch {
	case args[0] == "ecn":
		return s.configEcn(args[1:]), true
	case args[0] == "pfcwd" && len(args) > 1:
		sub, rest := args[1], args[2:]
		verbose := slices.Contains(rest, "--verbose")
		rest = slices.DeleteFunc(slices.Clone(rest), func(a string) bool { return a == "--verbose" })
		if sub == "stop" || sub == "start_default" {
			rest = nil // `config pfcwd stop` stops every port
		}
		cmd := append([]string{sub}, rest...)
		out := ""
		if verbose {
			out = "Running command: pfcwd " + strings.Join(cmd, " ") + "\n"
		}
		return out + s.pfcwd(cmd, true), true
	case args[0] == "interface" && len(args) > 2 && args[1] == "pfc":
		rest := args[3:]
		usage := "config interface pfc " + args[2] + " [OPTIONS] <interface_name> "
		names := []string{"'<interface_name>'", "'{0|1|2|3|4|5|6|7}'", "'{on|off}'"}
		switch args[2] {
		case "priority":
			usage += "{0|1|2|3|4|5|6|7} {on|off}"
		case "asymmetric":
			usage += "{on|off}"
			names = []string{names[0], names[2]}
		default:
			return "", false
		}
		if len(rest) < len(names) {
			return s.clickError(usage, "config interface pfc "+args[2], "Missing argument "+names[len(rest)]+"."), true
		}
		if len(rest) > len(names) {
			return s.clickError(usage, "config interface pfc "+args[2], fmt.Sprintf("Got unexpected extra argument (%s)", rest[len(names)])), true
		}
		if args[2] == "priority" {
			return s.pfc([]string{"config", "priority", rest[2], rest[0], rest[1]}), true
		}
		return s.pfc([]string{"config", "asymmetric", rest[1], rest[0]}), true
	}
	return "", false
}

// configEcn is `config ecn`: Click converts the thresholds to integers
// and the probabilities to 0..100 before ecnconfig runs.
func (s *Session) configEcn(args []string) string {
	const usage, help = "config ecn [OPTIONS]", "config ecn"
	opts := []clickOpt{{names: []string{"-profile"}}, {names: []string{"-v", "--verbose"}, flag: true}}
	for _, f := range ecnFields {
		opts = append(opts, clickOpt{names: []string{f.opt}})
	}
	vals, pos, bad := clickParse(args, opts)
	switch {
	case bad != "":
		return s.clickError(usage, help, bad)
	case len(pos) > 0:
		return s.clickError(usage, help, fmt.Sprintf("Got unexpected extra argument (%s)", pos[0]))
	}
	profile, ok := vals["-profile"]
	if !ok {
		return s.clickError(usage, help, "Missing option '-profile'.")
	}
	cmd := []string{"-p", profile}
	// config/main.py appends them red, yellow, green; max before min.
	for _, opt := range []string{"-rmax", "-rmin", "-ymax", "-ymin", "-gmax", "-gmin", "-rdrop", "-ydrop", "-gdrop"} {
		v, ok := vals[opt]
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return s.clickError(usage, help, fmt.Sprintf("Invalid value for '%s': '%s' is not a valid integer.", opt, v))
		}
		if strings.HasSuffix(opt, "drop") && (n < 0 || n > 100) {
			return s.clickError(usage, help, fmt.Sprintf("Invalid value for '%s': %d is not in the range 0<=x<=100.", opt, n))
		}
		cmd = append(cmd, opt, strconv.Itoa(n))
	}
	out := ""
	if vals["-v"] != "" {
		cmd = append(cmd, "-vv")
		out = "Running command: ecnconfig " + strings.Join(cmd, " ") + "\n"
	}
	return out + s.ecnconfig(cmd, true)
}
