package sonic

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// Texts SONiC prints (reference/sonic.md §7, §8).
const (
	msgRoot          = "Root privileges are required for this operation"
	msgPatchOK       = "Patch applied successfully."
	msgDryRun        = "** DRY RUN EXECUTION **"
	msgCheckpointOK  = "Checkpoint created successfully."
	msgRollbackOK    = "Config rolled back successfully."
	msgReplaceOK     = "Config replaced successfully." // [I] sonic-utilities config/main.py wording
	msgDeleteCPOK    = "Checkpoint deleted successfully."
	msgNotUpdated    = "after applying patch to config, there are still some parts not updated"
	msgSaveQuestion  = "Existing files will be overwritten, continue? [y/N]: "
	msgLoadQuestion  = "Load config from the file(s) %s ? [y/N]: "
	cfggenLoad       = "Running command: /usr/local/bin/sonic-cfggen -j %s --write-to-db"
	msgAborted       = "Aborted!"
	configDBPath     = "/etc/sonic/config_db.json"
	cfggenSave       = "Running command: /usr/local/bin/sonic-cfggen -d --print-data > " + configDBPath
	heredocPrompt    = "> "
	patchApplierName = "Patch Applier: localhost"
)

// heredocRe matches the shell heredoc forms that write a file:
// cat > F <<'EOF', cat >F << EOF, cat <<"EOF" > F.
var heredocRe = regexp.MustCompile(`^cat\s*(?:>\s*(\S+)\s*<<-?\s*(['"]?)(\w+)(['"]?)|<<-?\s*(['"]?)(\w+)(['"]?)\s*>\s*(\S+))\s*$`)

// Session is one `admin@sonic:~$` shell. It is used by one goroutine at a
// time; the Device it shares is locked.
type Session struct {
	d      *Device
	user   string
	faults *device.Faults
	status int // $? of the last command
	done   bool

	// heredoc collects the lines of a `cat > F <<EOF` until the delimiter.
	heredoc      *heredoc
	saveQuestion bool
	// loadQuestion holds the file of a `config load` waiting for y/N.
	loadQuestion string
	// reject caches the compiled RejectPattern fault.
	reject    *regexp.Regexp
	rejectSrc string
}

type heredoc struct {
	file, delim string
	lines       []string
}

// NewSession implements device.Device.
func (d *Device) NewSession(user string, f *device.Faults) device.Session {
	if user == "" {
		user = "admin"
	}
	return &Session{d: d, user: user, faults: f}
}

// Greeting implements device.Session: the Debian MOTD SONiC ships is
// site-specific; the lab prints none.
func (s *Session) Greeting() string { return "" }

// Prompt implements device.Session: bash's `user@host:~$ ` (§8), "> "
// inside a heredoc.
func (s *Session) Prompt() string {
	switch {
	case s.heredoc != nil:
		return heredocPrompt
	case s.saveQuestion:
		return msgSaveQuestion
	case s.loadQuestion != "":
		return fmt.Sprintf(msgLoadQuestion, s.loadQuestion)
	}
	return s.user + "@" + s.d.hostname + ":~$ "
}

// Close implements device.Session. A patch is applied while the command
// runs, so there is nothing pending to discard. The lab's SSH server runs
// a line to its end before it reads the connection again, so it never
// closes a session in the middle of a command: a command cut short by its
// session's hangup is Device.DropSessionAfter's fault.
func (s *Session) Close() { s.done = true }

// Handle implements device.Session.
func (s *Session) Handle(line string) (string, bool) {
	if s.done {
		return "", true
	}
	if h := s.heredoc; h != nil {
		if strings.TrimSpace(line) == h.delim {
			s.heredoc = nil
			s.d.mu.Lock()
			s.d.files[h.file] = []byte(strings.Join(h.lines, "\n") + "\n")
			s.d.mu.Unlock()
			s.status = 0
			return "", false
		}
		h.lines = append(h.lines, line)
		return "", false
	}
	if f := s.loadQuestion; f != "" {
		s.loadQuestion = ""
		if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
			return s.load(f), false
		}
		s.status = 1
		return msgAborted + "\n", false
	}
	if s.saveQuestion {
		s.saveQuestion = false
		if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
			return s.save(), false
		}
		s.status = 1
		return msgAborted + "\n", false
	}
	out := s.run(strings.TrimSpace(line))
	return out, s.done
}

// abs resolves a path against the user's home directory.
func (s *Session) abs(p string) string {
	if strings.HasPrefix(p, "~/") {
		p = "/home/" + s.user + p[1:]
	}
	if !path.IsAbs(p) {
		p = "/home/" + s.user + "/" + p
	}
	return path.Clean(p)
}

// rejected reports whether the RejectPattern fault matches a command
// line; the fault is read at each line.
func (s *Session) rejected(line string) bool {
	f := s.faults.Load()
	if f.RejectPattern == "" {
		return false
	}
	if f.RejectPattern != s.rejectSrc {
		s.reject, _ = regexp.Compile(f.RejectPattern)
		s.rejectSrc = f.RejectPattern
	}
	return s.reject != nil && s.reject.MatchString(line)
}

// run runs one shell command line.
func (s *Session) run(line string) string {
	if line == "" {
		return ""
	}
	if s.rejected(line) {
		// The shell's generic refusal; nothing runs.
		s.status = 127
		return "-bash: " + strings.Fields(line)[0] + ": command not found\n"
	}
	if m := heredocRe.FindStringSubmatch(line); m != nil {
		file, delim := m[1], m[3]
		if file == "" {
			file, delim = m[8], m[6]
		}
		s.heredoc = &heredoc{file: s.abs(file), delim: delim}
		return ""
	}
	if parts := splitPipe(line); len(parts) > 1 {
		return s.pipeline(parts)
	}
	args := strings.Fields(line)
	root := false
	if args[0] == "sudo" {
		args = args[1:]
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-E" || args[0] == "-H") {
			args = args[1:] // flags that change nothing here
		}
		if len(args) == 0 {
			s.status = 1
			return "usage: sudo -h | -K | -k | -V\n"
		}
		root = true
	}
	switch args[0] {
	case "exit", "logout":
		s.done = true
		return ""
	case "echo":
		out := strings.ReplaceAll(strings.Join(args[1:], " "), "$?", strconv.Itoa(s.status))
		s.status = 0
		return out + "\n"
	case "cat":
		return s.cat(args[1:])
	case "rm":
		return s.rm(args[1:])
	case "show":
		return s.show(args[1:])
	case "ecnconfig":
		return s.ecnconfig(args[1:], root)
	case "pfc":
		return s.pfc(args[1:])
	case "pfcwd":
		return s.pfcwd(args[1:], root)
	case "config":
		if !root {
			s.status = 1
			return msgRoot + "\n"
		}
		return s.config(args[1:])
	}
	s.status = 127
	if root {
		return "sudo: " + args[0] + ": command not found\n"
	}
	return "-bash: " + args[0] + ": command not found\n"
}

func (s *Session) cat(args []string) string {
	var b strings.Builder
	s.status = 0
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	for _, a := range args {
		f, ok := s.d.files[s.abs(a)]
		if !ok {
			fmt.Fprintf(&b, "cat: %s: No such file or directory\n", a)
			s.status = 1
			continue
		}
		b.Write(f)
	}
	return b.String()
}

func (s *Session) rm(args []string) string {
	s.status = 0
	force := false
	var b strings.Builder
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	for _, a := range args {
		if a == "-f" {
			force = true
			continue
		}
		if _, ok := s.d.files[s.abs(a)]; !ok {
			if !force {
				fmt.Fprintf(&b, "rm: cannot remove '%s': No such file or directory\n", a)
				s.status = 1
			}
			continue
		}
		delete(s.d.files, s.abs(a))
	}
	return b.String()
}

// clickError prints Click's usage error and sets exit status 2 (§8).
func (s *Session) clickError(usage, help, msg string) string {
	s.status = 2
	return fmt.Sprintf("Usage: %s\nTry '%s -h' for help.\n\nError: %s\n", usage, help, msg)
}

func (s *Session) show(args []string) string {
	if len(args) == 2 && args[0] == "runningconfiguration" && args[1] == "all" {
		s.d.mu.Lock()
		defer s.d.mu.Unlock()
		s.status = 0
		return s.d.showRunning()
	}
	if len(args) == 0 {
		return s.clickError("show [OPTIONS] COMMAND [ARGS]...", "show", "Missing command.")
	}
	if out, ok := s.showCounters(args); ok {
		return out
	}
	if args[0] == "version" {
		s.d.mu.Lock()
		defer s.d.mu.Unlock()
		return s.showVersion(args[1:])
	}
	// show/main.py: `show pfc priority|asymmetric [IFACE]` runs `pfc show
	// …`; `show pfcwd config` runs `pfcwd show config -d all`.
	if len(args) >= 2 && args[0] == "pfc" && (args[1] == "priority" || args[1] == "asymmetric") {
		return s.pfc(append([]string{"show"}, args[1:]...))
	}
	if len(args) == 2 && args[0] == "pfcwd" && args[1] == "config" {
		return s.pfcwd([]string{"show", "config"}, false)
	}
	if args[0] == "runningconfiguration" {
		return s.clickError("show runningconfiguration [OPTIONS] COMMAND [ARGS]...", "show runningconfiguration", "No such command '"+strings.Join(args[1:], " ")+"'.")
	}
	return s.clickError("show [OPTIONS] COMMAND [ARGS]...", "show", "No such command '"+args[0]+"'.")
}

// pipeline runs `cmd | grep … | head …`: the first command as any line,
// its output through each filter; bash's status is the last one's. A
// stage that is not grep or head is not in the lab ("command not found",
// 127) and nothing runs.
func (s *Session) pipeline(parts []string) string {
	for _, p := range parts[1:] {
		w := strings.Fields(p)
		if len(w) == 0 {
			s.status = 2
			return "-bash: syntax error near unexpected token `|'\n"
		}
		if w[0] != "grep" && w[0] != "head" {
			s.status = 127
			return "-bash: " + w[0] + ": command not found\n"
		}
	}
	if parts[0] == "" {
		s.status = 2
		return "-bash: syntax error near unexpected token `|'\n"
	}
	out := s.run(parts[0])
	for _, p := range parts[1:] {
		out, s.status = filter(p, out)
	}
	return out
}

// configArgs splits a config subcommand's words into flags and positional
// arguments, as Click would; unknown flags are an error.
func configArgs(args []string, flags map[string]string) (set map[string]bool, pos []string, bad string) {
	set = map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, ok := flags[a]
		if !ok {
			return nil, nil, a
		}
		if strings.HasSuffix(name, "=") { // takes a value
			i++
			name = strings.TrimSuffix(name, "=")
		}
		set[name] = true
	}
	return set, pos, ""
}

// config runs the `config` subcommands of reference/sonic.md §7.
func (s *Session) config(args []string) string {
	if len(args) == 0 {
		return s.clickError("config [OPTIONS] COMMAND [ARGS]...", "config", "Missing command.")
	}
	switch args[0] {
	case "apply-patch":
		out := s.applyPatch(args[1:])
		if s.status == 0 || s.done {
			s.d.counters.Changed(s.faults)
		}
		return out
	case "checkpoint":
		return s.checkpoint(args[1:])
	case "rollback":
		return s.replaceWith(args[1:], true)
	case "replace":
		return s.replaceWith(args[1:], false)
	case "list-checkpoints":
		return s.listCheckpoints()
	case "delete-checkpoint":
		return s.deleteCheckpoint(args[1:])
	case "load":
		set, pos, bad := configArgs(args[1:], map[string]string{"-y": "yes", "--yes": "yes"})
		switch {
		case bad != "":
			return s.clickError("config load [OPTIONS] [FILENAME]", "config load", "No such option: "+bad)
		case len(pos) != 1:
			// Without a file SONiC loads /etc/sonic/config_db.json.
			pos = []string{configDBPath}
		}
		if !set["yes"] {
			s.loadQuestion = pos[0]
			return ""
		}
		return s.load(pos[0])
	case "ecn", "pfcwd", "interface":
		if out, ok := s.configTool(args); ok {
			return out
		}
	case "save":
		set, _, bad := configArgs(args[1:], map[string]string{"-y": "yes", "--yes": "yes"})
		if bad != "" {
			return s.clickError("config save [OPTIONS] [FILENAME]", "config save", "No such option: "+bad)
		}
		if !set["yes"] {
			s.saveQuestion = true
			return ""
		}
		return s.save()
	}
	return s.clickError("config [OPTIONS] COMMAND [ARGS]...", "config", "No such command '"+args[0]+"'.")
}

// applyPatch runs `config apply-patch [-d] [-v] [-p] [-n] [-f F] FILE`
// (reference/sonic.md §7.2).
func (s *Session) applyPatch(args []string) string {
	const usage, help = "config apply-patch [OPTIONS] PATCH_FILE_PATH", "config apply-patch"
	set, pos, bad := configArgs(args, map[string]string{
		"-d": "dry", "--dry-run": "dry", "-v": "verbose", "--verbose": "verbose", "-p": "parallel", "--parallel": "parallel",
		"-n": "ignore-non-yang", "--ignore-non-yang-tables": "ignore-non-yang", "-f": "format=", "--format": "format=",
		"-i": "ignore-path=", "--ignore-path": "ignore-path=",
	})
	switch {
	case bad != "":
		return s.clickError(usage, help, "No such option: "+bad)
	case len(pos) == 0:
		return s.clickError(usage, help, "Missing argument 'PATCH_FILE_PATH'.")
	case len(pos) > 1:
		return s.clickError(usage, help, fmt.Sprintf("Got unexpected extra argument (%s)", pos[1]))
	}
	fail := func(reason string) string {
		return "Failed to apply patch due to: " + reason + "\n" + s.clickError(usage, help, reason)
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	patch, ok := s.d.files[s.abs(pos[0])]
	if !ok {
		return fail(fmt.Sprintf("[Errno 2] No such file or directory: '%s'", pos[0]))
	}
	var b strings.Builder
	if set["dry"] {
		b.WriteString(msgDryRun + "\n")
	}
	ops, err := parsePatch(patch)
	if err != nil {
		return b.String() + fail(err.Error())
	}
	fmt.Fprintf(&b, "%s: Patch application starting.\n", patchApplierName)
	fmt.Fprintf(&b, "%s: Patch: %s\n", patchApplierName, opsJSON(ops))
	fmt.Fprintf(&b, "%s getting current config db.\n", patchApplierName)
	target, err := applyPatch(s.d.db, ops)
	if err != nil {
		return b.String() + fail(scoped(err.Error()))
	}
	fmt.Fprintf(&b, "%s: validating all JsonPatch operations are permitted on the specified fields\n", patchApplierName)
	if reason := s.d.check(target, set["ignore-non-yang"]); reason != "" {
		return b.String() + fail(scoped(reason))
	}
	log, reason := s.write(target, set["dry"])
	b.WriteString(log)
	if s.done {
		return b.String() // the session hung up: GCU died part-way
	}
	if reason != "" {
		return b.String() + fail(scoped(reason))
	}
	s.status = 0
	return b.String() + msgPatchOK + "\n"
}

// scoped wraps a reason as the multi-scope applier reports it (§8).
func scoped(reason string) string {
	return "Failed to apply patch on the following scopes:\n- localhost: " + reason
}

// write sorts the move from running to target into GCU's changes and,
// unless dry, applies them one by one (gcu.go). It is not transactional
// (reference/sonic.md §7.2): with the FailCommit fault, the first half of
// the changes is applied and the rest is not, and the re-read finds the
// config short of the target; with Device.DropSessionAfter, the command
// dies after the changes it was told and the session ends (s.done). It
// returns GCU's log of the sorting and of the changes applied, and the
// reason of a failure. d.mu is held.
func (s *Session) write(target db, dry bool) (log, reason string) {
	changes, err := s.d.schema.sortChanges(s.d.db, target)
	if err != nil {
		return "", err.Error()
	}
	if dry {
		return describe(changes, len(changes)), ""
	}
	if n, ok := s.d.takeDrop(); ok {
		n = min(max(n, 0), len(changes))
		s.d.writeChanges(changes, n)
		s.done = true
		return describe(changes, n), ""
	}
	log = describe(changes, len(changes))
	if s.faults.Load().FailCommit {
		s.d.writeChanges(changes, (len(changes)+1)/2)
		return log, msgNotUpdated
	}
	s.d.writeChanges(changes, -1)
	return log + fmt.Sprintf("%s: verifying patch updates are reflected on ConfigDB.\n", patchApplierName), ""
}

func (s *Session) checkpoint(args []string) string {
	const usage, help = "config checkpoint [OPTIONS] CHECKPOINT_NAME", "config checkpoint"
	_, pos, bad := configArgs(args, map[string]string{"-v": "verbose", "--verbose": "verbose"})
	switch {
	case bad != "":
		return s.clickError(usage, help, "No such option: "+bad)
	case len(pos) != 1:
		return s.clickError(usage, help, "Missing argument 'CHECKPOINT_NAME'.")
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.d.checkpoints[pos[0]] = copyDB(s.d.db)
	s.status = 0
	return msgCheckpointOK + "\n"
}

// replaceWith runs `config rollback NAME` (rollback) or `config replace
// FILE`: the target is the whole config, reached through the same checks
// and applier as apply-patch (reference/sonic.md §7.3).
func (s *Session) replaceWith(args []string, rollback bool) string {
	usage, help, summary := "config replace [OPTIONS] TARGET_FILE_PATH", "config replace", "Failed to replace config"
	if rollback {
		usage, help, summary = "config rollback [OPTIONS] CHECKPOINT_NAME", "config rollback", "Failed to rollback config"
	}
	set, pos, bad := configArgs(args, map[string]string{"-d": "dry", "--dry-run": "dry", "-v": "verbose", "--verbose": "verbose",
		"-n": "ignore-non-yang", "--ignore-non-yang-tables": "ignore-non-yang", "-f": "format=", "--format": "format="})
	switch {
	case bad != "":
		return s.clickError(usage, help, "No such option: "+bad)
	case len(pos) != 1:
		arg := "TARGET_FILE_PATH"
		if rollback {
			arg = "CHECKPOINT_NAME"
		}
		return s.clickError(usage, help, "Missing argument '"+arg+"'.")
	}
	fail := func(reason string) string { return summary + "\n" + s.clickError(usage, help, reason) }
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	var target db
	if rollback {
		cp, ok := s.d.checkpoints[pos[0]]
		if !ok {
			return fail(fmt.Sprintf("Checkpoint '%s' does not exist", pos[0]))
		}
		target = copyDB(cp)
	} else {
		b, ok := s.d.files[s.abs(pos[0])]
		if !ok {
			return fail(fmt.Sprintf("[Errno 2] No such file or directory: '%s'", pos[0]))
		}
		var err error
		if target, err = parseDB(b); err != nil {
			return fail(err.Error())
		}
	}
	out := ""
	if set["dry"] {
		out = msgDryRun + "\n"
	}
	if reason := s.d.check(target, set["ignore-non-yang"]); reason != "" {
		return out + fail(reason)
	}
	// GCU's log of the sorting is not repeated here: the replacer's own
	// progress lines are left out as well [I: abbreviated].
	_, reason := s.write(target, set["dry"])
	switch {
	case s.done:
		return out // the session hung up: GCU died part-way
	case reason != "":
		return out + fail(reason)
	}
	s.status = 0
	if rollback {
		return out + msgRollbackOK + "\n"
	}
	return out + msgReplaceOK + "\n"
}

func (s *Session) listCheckpoints() string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	names := sortedKeys(s.d.checkpoints)
	s.status = 0
	if len(names) == 0 {
		return "[]\n"
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i, n := range names {
		b.WriteString("    ")
		quote(&b, n)
		if i < len(names)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return b.String()
}

func (s *Session) deleteCheckpoint(args []string) string {
	const usage, help = "config delete-checkpoint [OPTIONS] CHECKPOINT_NAME", "config delete-checkpoint"
	if len(args) != 1 {
		return s.clickError(usage, help, "Missing argument 'CHECKPOINT_NAME'.")
	}
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if _, ok := s.d.checkpoints[args[0]]; !ok {
		return "Failed to delete config checkpoint\n" + s.clickError(usage, help, fmt.Sprintf("Checkpoint '%s' does not exist", args[0]))
	}
	delete(s.d.checkpoints, args[0])
	s.status = 0
	return msgDeleteCPOK + "\n"
}

// save writes the running CONFIG_DB to /etc/sonic/config_db.json (§7.4).
func (s *Session) save() string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.d.files[configDBPath] = []byte(formatDB(s.d.db, nil) + "\n")
	s.status = 0
	return cfggenSave + "\n"
}

// load runs `config load FILE` (reference/sonic.md §7.1): sonic-cfggen
// writes every field of every key straight to redis, merging, without YANG
// validation. A table given as {} is skipped; a key given as {} is written
// as the placeholder field NULL=NULL; nothing is ever removed.
func (s *Session) load(file string) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	out := fmt.Sprintf(cfggenLoad, file) + "\n"
	b, ok := s.d.files[s.abs(file)]
	if !ok {
		s.status = 1
		return out + fmt.Sprintf("[Errno 2] No such file or directory: '%s'\n", file)
	}
	in, err := parseDB(b)
	if err != nil {
		s.status = 1
		return out + err.Error() + "\n"
	}
	for tn, keys := range in {
		if len(keys) == 0 {
			continue
		}
		if s.d.db[tn] == nil {
			s.d.db[tn] = map[string]map[string]string{}
		}
		for k, fields := range keys {
			if s.d.db[tn][k] == nil {
				s.d.db[tn][k] = map[string]string{}
			}
			if len(fields) == 0 {
				s.d.db[tn][k]["NULL"] = "NULL"
			}
			for f, v := range fields {
				s.d.db[tn][k][f] = v
			}
		}
	}
	s.status = 0
	return out
}
