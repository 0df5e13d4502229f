package huaweice

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// Texts the device prints (reference/huawei-ce.md §3, §4, §5 and the
// V300R023 command reference pages of commit, rollback configuration and
// screen-length). Those marked [I] are not in the reference: the reference
// gives no text for a failed commit or a refused rollback (§3.3, §8.8), and
// clients rely only on the "Error:" prefix and the "*" prompt staying.
const (
	msgEnterSystem     = "Enter system view, return user view with return command."
	msgScreenLength    = "Info: The configuration takes effect on the current user terminal interface only."
	msgTrialEnter      = "Info: The system enters the trial configuration mode."
	msgTrialRevert     = "The system will revert to previous configuration if the trial configuration is not confirmed in %d seconds."
	qUncommitted       = "Warning: Uncommitted configurations found, commit them before exiting? [Y(yes)/N(no)/C(cancel)]:"
	qRollback          = "Warning: This operation will revert configuration changes to the previous status. During the rollback configuration process, some configurations involving differences may be temporarily invalid. Continue? [Y/N]:"
	qAbortTrial        = "Warning: The trial configuration will be rolled back. Continue? [Y/N]:"
	msgAbortTrialDone  = "Info: The trial configuration rollback succeeded."
	qSave              = "Warning: The current configuration will be written to the device. Continue? [Y/N]:"
	msgSaved           = "Info: Save the configuration successfully."
	msgRollbackDone    = "Checking changes...\nLoading rollback changes\nCommitting\nCheck rollback result\nConfiguration rollback succeeded.\nPlease use 'display configuration commit changes last 1' to view the changes."
	msgCommitFailed    = "Error: Failed to commit the configuration."                                                                               // [I]
	msgRollbackFailed  = "Error: Failed to roll back the configuration."                                                                            // [I]
	msgInTrial         = "Error: The system is in trial configuration mode."                                                                        // [I] §4: "refused (system is in trial configuration mode)"
	msgNotInTrial      = "Error: The system is not in trial configuration mode."                                                                    // [I]
	msgConflict        = "Error: The configuration has been changed by another user. Run the refresh configuration candidate command, then commit." // [I] §4: "first commit wins, others get a conflict"
	morePrompt         = "  ---- More ----"
	defaultScreenLines = 24 // §5: default 24 lines per screen
)

// frame is one level of the view stack.
type frame struct {
	v view
	// path holds the keys of the section and its parents, from the top
	// (empty for user and system view).
	path   []string
	suffix string  // prompt suffix: "-100GE1/0/1", "-ai-service-ai-ecn"
	header []*node // the headers along path, to recreate them in a fresh candidate
}

// section returns the frame's section in a tree; with create, missing
// sections along the path are added from the headers.
func (f frame) section(root *node, create bool) *node {
	cur := root
	for i, k := range f.path {
		next := cur.find(k)
		if next == nil {
			if !create {
				return nil
			}
			next = cur.put(f.header[i].clone())
		}
		cur = next
	}
	return cur
}

// question is a pending Y/N prompt.
type question struct {
	text   string
	answer func(s *Session, a string) (out string, ok bool)
}

// Session is one CLI session on a CloudEngine switch. It is used by one
// goroutine at a time; the Device it shares is locked.
type Session struct {
	d      *Device
	user   string
	faults *device.Faults
	// reject caches the compiled RejectPattern fault.
	reject    *regexp.Regexp
	rejectSrc string

	stack []frame
	// cand is the session's candidate configuration and base the running
	// configuration it was copied from; nil when nothing was edited.
	cand, base *node
	// dirty caches whether cand differs from base; it is set after each
	// change to cand, so that prompts need not compare the trees.
	dirty bool
	q     *question
	// screen is the page length (screen-length, default 24); noMore turns
	// paging off for the last command ("| no-more").
	screen int
	noMore bool
	canon  string // the canonical form of the exec command being run
	done   bool
	// id is the session ID the device shows (a lock refusal names it);
	// vty its VTY number (lock.go).
	id  int64
	vty int
}

// NewSession implements device.Device.
func (d *Device) NewSession(user string, f *device.Faults) device.Session {
	s := &Session{d: d, user: user, faults: f, stack: []frame{{v: viewUser}}, screen: defaultScreenLines}
	d.register(s)
	return s
}

// rejected reports whether the RejectPattern fault matches a config line.
// The fault is read at each line, so a test may change it mid-session.
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

// Greeting implements device.Session; a CE prints no banner by default.
func (s *Session) Greeting() string { return "" }

func (s *Session) view() frame { return s.stack[len(s.stack)-1] }

// Prompt implements device.Session (§3.1).
func (s *Session) Prompt() string {
	if s.q != nil {
		return s.q.text
	}
	s.d.mu.Lock()
	host := hostname(s.d.running)
	s.d.mu.Unlock()
	f := s.view()
	if f.v == viewUser {
		return "<" + host + ">"
	}
	mark := "~"
	if s.pending() {
		mark = "*"
	}
	return "[" + mark + host + f.suffix + "]"
}

// pending reports whether the candidate holds uncommitted changes.
func (s *Session) pending() bool {
	return s.cand != nil && s.dirty
}

// Close implements device.Session: a dropped session discards its
// candidate (reference/huawei-ce.md §4; issue 4 item 3) and releases its
// configuration lock (lock.go). An unconfirmed trial it started can no
// longer be confirmed and runs to expiry (§4: "a dropped session cannot
// confirm and must wait for expiry"); a persistent one stays confirmable
// from any session with commit persist ID.
func (s *Session) Close() {
	s.cand, s.base = nil, nil
	s.done = true
	s.d.unregister(s)
}

// Handle implements device.Session.
func (s *Session) Handle(line string) (string, bool) {
	if s.done {
		return "", true
	}
	s.touchLock()
	if s.q != nil {
		q := s.q
		out, ok := q.answer(s, strings.TrimSpace(line))
		if ok {
			s.q = nil
		}
		return out, s.done
	}
	s.noMore = false
	if strings.TrimSpace(line) == "" {
		return "", false
	}
	prompt := s.Prompt()
	cmdPart, filters, perr := splitPipes(line)
	if perr != nil {
		return perr.render(prompt), false
	}
	m, perr := parse(s.d.commands(s.view().v, true), cmdPart)
	if perr != nil {
		return perr.render(prompt), false
	}
	if m == nil { // only a pipe: "| include x"
		return (&parseError{errUnrecognized, len(line) - len(strings.TrimLeft(line, " \t"))}).render(prompt), false
	}
	if m.cmd.run != nil {
		s.canon = m.canon
		out := m.cmd.run(s, m.args)
		if len(filters) > 0 {
			out = applyFilters(out, filters)
			s.noMore = filters[len(filters)-1].kind == "no-more"
		}
		return out, s.done
	}
	if len(filters) > 0 {
		return (&parseError{errUnrecognized, len(cmdPart) + 1}).render(prompt), false
	}
	if s.rejected(line) {
		return (&parseError{errUnrecognized, splitWords(line)[0].col}).render(prompt), false
	}
	return s.config(m, prompt), false
}

// Page implements device.Pager: the lab's SSH server shows long output a
// screen at a time behind "  ---- More ----" until screen-length 0
// temporary (reference/huawei-ce.md §5: default 24 lines).
func (s *Session) Page() (int, string) {
	if s.noMore {
		return 0, morePrompt
	}
	return s.screen, morePrompt
}

// config applies a config command to the session's candidate.
func (s *Session) config(m *matchResult, prompt string) string {
	if s.cand == nil {
		s.d.mu.Lock()
		s.base = s.d.running.clone()
		s.d.mu.Unlock()
		s.cand = s.base.clone()
	}
	f := s.view()
	f.section(s.cand, true)
	work := s.cand.clone()
	wcur := f.section(work, false)
	e := &edit{root: work, cur: wcur, family: s.d.family, ports: s.d.ports}
	if f.v == viewPortGroup && m.cmd.usableIn(viewInterface) {
		// §1.2: the command lands under every member interface.
		for _, name := range members(wcur, s.d.ports) {
			sec := work.find("interface " + name)
			if sec == nil {
				sec = work.put(&node{line: "interface " + name, key: "interface " + name, rank: 80, section: true, view: viewInterface, children: []*node{}})
			}
			if bad := s.d.applyConfig(&edit{root: work, cur: sec, family: s.d.family, ports: s.d.ports}, m); bad != "" {
				return (&parseError{errWrongParameter, m.cols[bad]}).render(prompt)
			}
		}
		s.cand, s.dirty = work, !equal(work, s.base)
		return ""
	}
	if bad := s.d.applyConfig(e, m); bad != "" {
		return (&parseError{errWrongParameter, m.cols[bad]}).render(prompt)
	}
	s.cand, s.dirty = work, !equal(work, s.base)
	if v := m.cmd.enter; v != 0 {
		hdr := &node{line: e.entered.line, key: e.entered.key, rank: e.entered.rank, section: true,
			showEmpty: e.entered.showEmpty, view: v, children: []*node{}}
		s.stack = append(s.stack, frame{
			v:      v,
			path:   append(append([]string(nil), f.path...), e.entered.key),
			suffix: f.suffix + suffix(v, e.entered.line),
			header: append(append([]*node(nil), f.header...), hdr),
		})
	}
	return ""
}

// suffix is the prompt suffix of a section view (§3.1).
func suffix(v view, line string) string {
	switch v {
	case viewDCBPFC:
		if line == "dcb pfc" {
			return "-dcb-pfc-default"
		}
		return "-dcb-pfc-" + strings.TrimPrefix(line, "dcb pfc ")
	case viewInterface:
		return "-" + strings.TrimPrefix(line, "interface ")
	case viewDomain:
		return "-dsdomain-" + strings.TrimPrefix(line, "diffserv domain ")
	case viewDrop:
		return "-drop-" + strings.TrimPrefix(line, "drop-profile ")
	case viewPortGroup:
		return "-port-group-" + strings.TrimPrefix(line, "port-group ")
	case viewETS:
		return "-ets-" + strings.TrimPrefix(line, "dcb ets-profile ")
	case viewLIf:
		return "-" + strings.TrimPrefix(line, "interface ")
	case viewVlan:
		return "-vlan" + strings.TrimPrefix(line, "vlan ")
	case viewVPN:
		return "-vpn-instance-" + strings.TrimPrefix(line, "ip vpn-instance ")
	case viewVPNAF:
		return "-af-ipv4"
	case viewAAA:
		return "-aaa"
	case viewAAASub:
		f := strings.Fields(line)
		return "-" + strings.TrimSuffix(f[0], "-scheme") + "-" + f[len(f)-1]
	case viewBGP:
		return "-bgp"
	case viewBGPAF:
		if strings.HasPrefix(line, "ipv4-family vpn-instance ") {
			return "-" + strings.TrimPrefix(line, "ipv4-family vpn-instance ")
		}
		return "-af-ipv4"
	case viewRoutePolicy:
		return "-route-policy"
	case viewACL:
		return "-acl4-" + strings.TrimPrefix(line, "acl number ")
	case viewDragonfly:
		return "-dragonfly-profile-" + strings.TrimPrefix(line, "dragonfly profile ") // [*DeviceA1-dragonfly-profile-default]
	case viewECMP:
		return "-ecmp" // [*DeviceA1-ecmp]
	case viewUplink:
		return "-dcb-pfc-uplink-group-" + strings.TrimPrefix(line, "dcb pfc uplink group ")
	case viewAIService, viewAIECN, viewNPCC, viewIQCN:
		return "-" + line // [*DeviceA-ai-service], [*DeviceA-ai-service-ai-ecn], [*DeviceA-ai-service-npcc]
	}
	return ""
}

func (s *Session) systemView(args) string {
	s.stack = append(s.stack, frame{v: viewSystem})
	return msgEnterSystem + "\n"
}

// quit goes up one view; from system view with pending changes it asks
// first (§3.2); from user view it ends the session.
func (s *Session) quit(args) string {
	switch s.view().v {
	case viewUser:
		s.done = true
		return ""
	case viewSystem:
		return s.leaveSystem()
	}
	s.stack = s.stack[:len(s.stack)-1]
	return ""
}

// returnUser goes straight to user view, asking first when changes are
// pending.
func (s *Session) returnUser(args) string {
	return s.leaveSystem()
}

func (s *Session) leaveSystem() string {
	if !s.pending() {
		s.cand, s.base = nil, nil
		s.stack = s.stack[:1]
		return ""
	}
	s.q = &question{text: qUncommitted, answer: func(s *Session, a string) (string, bool) {
		switch strings.ToLower(a) {
		case "y", "yes":
			out := s.commitNow("", 0, false, "")
			if s.pending() {
				return out, true
			}
			s.stack = s.stack[:1]
			return out, true
		case "n", "no":
			s.cand, s.base = nil, nil
			s.stack = s.stack[:1]
			return "", true
		case "c", "cancel":
			return "", true
		}
		return "", false
	}}
	return ""
}

func (s *Session) screenLength(a args) string {
	s.screen = int(a.int("n"))
	return msgScreenLength + "\n"
}

// merged is what a commit would make the running config: the candidate's
// changes since its base applied to the current running config, so that
// another session's commit in between is kept.
func (s *Session) merged() *node {
	if s.cand == nil {
		return s.d.running.clone()
	}
	return merge3(s.base, s.cand, s.d.running)
}

// merge3 applies the changes from base to cand onto run, key by key.
func merge3(base, cand, run *node) *node {
	out := run.clone()
	for _, k := range unionKeys(base, cand) {
		b, c := base.find(k), cand.find(k)
		switch {
		case c == nil:
			out.removeKey(k)
		case c.section:
			o := out.find(k)
			if o == nil {
				out.put(c.clone())
				continue
			}
			bb := b
			if bb == nil {
				bb = &node{section: true}
			}
			m := merge3(bb, c, o)
			o.children = m.children
		case b == nil || b.line != c.line || b.hidden != c.hidden:
			out.removeKey(k)
			out.put(c.clone())
		}
	}
	return out
}

// conflicts reports whether a line the candidate changed since base was
// also changed, differently, in run: another session committed the same
// thing first (§4).
func conflicts(base, cand, run *node) bool {
	for _, k := range unionKeys(base, cand) {
		b, c, r := base.find(k), cand.find(k), run.find(k)
		switch {
		case c != nil && c.section && b != nil && r != nil:
			if conflicts(b, c, r) {
				return true
			}
		case c != nil && c.section && b == nil && r != nil:
			if conflicts(&node{section: true}, c, r) {
				return true
			}
		case sameLine(b, c):
			// not changed by this session
		case !sameLine(b, r) && !sameLine(c, r):
			return true
		}
	}
	return false
}

// sameLine compares two optional lines (nil = absent).
func sameLine(a, b *node) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.line == b.line && (!a.section || equal(a, b))
}

// refreshCandidate rebases the candidate on the current running config,
// keeping the session's changes (§4 refresh configuration candidate).
func (s *Session) refreshCandidate(args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.cand != nil {
		s.cand = merge3(s.base, s.cand, s.d.running)
		s.base = s.d.running.clone()
		s.dirty = !equal(s.cand, s.base)
	}
	return ""
}

// removeKey deletes the child with exactly key k.
func (n *node) removeKey(k string) {
	for i, c := range n.children {
		if c.key == k {
			n.children = append(n.children[:i], n.children[i+1:]...)
			return
		}
	}
}

// commit runs commit, commit label L, commit trial [T] [persist ID] and
// commit persist ID (§4; the persist forms from S5, annet's CE driver).
func (s *Session) commit(a args) string {
	trial := strings.HasPrefix(s.canon, "commit trial")
	secs := int64(600)
	if a["t"] != "" {
		secs = a.int("t")
	}
	if l := a["label"]; l != "" && (isDigit(l[0]) || l == "-") {
		return (&parseError{errWrongParameter, len("commit label ")}).render(s.Prompt())
	}
	if !trial && a["id"] != "" {
		// commit persist ID confirms that persistent trial from any
		// session.
		s.d.mu.Lock()
		t := s.d.trial
		s.d.mu.Unlock()
		if t == nil || t.persist != a["id"] {
			return (&parseError{errWrongParameter, len("commit persist ")}).render(s.Prompt())
		}
	}
	return s.commitNow(a["label"], secs, trial, a["id"])
}

// commitNow commits the candidate; trial starts (or refreshes) a commit
// trial, persist names it; a commit that is not a trial confirms the
// session's own trial, or the persistent trial named persist.
func (s *Session) commitNow(label string, secs int64, trial bool, persist string) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if msg := s.d.lockedByOtherLocked(s); msg != "" {
		return msg
	}
	if s.faults.Load().FailCommit {
		return msgCommitFailed + "\n"
	}
	before := s.d.running
	if s.pending() {
		if conflicts(s.base, s.cand, s.d.running) {
			return msgConflict + "\n"
		}
		s.d.commitLocked(s.merged(), s.user, label, "CLI")
		s.d.counters.Changed(s.faults)
	}
	s.cand, s.base = nil, nil
	if !trial {
		// A plain commit in the session that started a trial confirms it.
		if t := s.d.trial; t != nil && ((t.owner == s && t.persist == "") || (persist != "" && t.persist == persist)) {
			t.timer.Stop()
			s.d.trial = nil
		}
		return ""
	}
	s.d.startTrialLocked(before, s, persist, secs)
	out := msgTrialEnter + "\n" + fmt.Sprintf(msgTrialRevert, secs) + "\n"
	if s.faults.Load().ExpireCommitTimer {
		s.d.revertTrialLocked()
	}
	return out
}

// clearCandidate drops the uncommitted changes and, as the V300R023
// command reference says, returns to the system view.
func (s *Session) clearCandidate(args) string {
	s.cand, s.base = nil, nil
	s.stack = s.stack[:2]
	return ""
}

func (s *Session) abortTrial(a args) string {
	s.d.mu.Lock()
	t := s.d.trial
	s.d.mu.Unlock()
	if t == nil {
		return msgNotInTrial + "\n"
	}
	if id := a["id"]; id != "" && t.persist != id {
		return (&parseError{errWrongParameter, len("abort trial persist ")}).render(s.Prompt())
	}
	s.q = &question{text: qAbortTrial, answer: yesNo(func(s *Session) string {
		s.d.mu.Lock()
		defer s.d.mu.Unlock()
		if msg := s.d.lockedByOtherLocked(s); msg != "" {
			return msg
		}
		if s.d.trial == nil {
			return msgNotInTrial + "\n"
		}
		s.d.revertTrialLocked()
		return msgAbortTrialDone + "\n"
	})}
	return ""
}

// yesNo answers a [Y/N] question: Y runs do, N does nothing, anything else
// asks again.
func yesNo(do func(s *Session) string) func(s *Session, a string) (string, bool) {
	return func(s *Session, a string) (string, bool) {
		switch strings.ToLower(a) {
		case "y", "yes":
			return do(s), true
		case "n", "no":
			return "", true
		}
		return "", false
	}
}

// rollback runs rollback configuration (§4): to commit-id ID goes back to
// the configuration as that commit point made it, last N undoes the last N
// commits, to label L goes to the labelled point. The rollback is itself a
// new commit point.
func (s *Session) rollback(a args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.d.trial != nil {
		return msgInTrial + "\n"
	}
	var target *node
	cps := s.d.commits
	switch {
	case a["id"] != "":
		for _, c := range cps {
			if c.id == a.int("id") {
				target = c.after
			}
		}
	case a["n"] != "":
		if n := int(a.int("n")); n <= len(cps) {
			target = cps[len(cps)-n].before
		}
	default:
		for _, c := range cps {
			if c.label == a["label"] {
				target = c.after
			}
		}
	}
	if target == nil {
		col := len("rollback configuration to commit-id ")
		if a["n"] != "" {
			col = len("rollback configuration last ")
		} else if a["label"] != "" {
			col = len("rollback configuration to label ")
		}
		return (&parseError{errWrongParameter, col}).render(s.promptLocked())
	}
	target = target.clone()
	s.q = &question{text: qRollback, answer: yesNo(func(s *Session) string {
		s.d.mu.Lock()
		defer s.d.mu.Unlock()
		if msg := s.d.lockedByOtherLocked(s); msg != "" {
			return msg
		}
		if s.faults.Load().FailCommit {
			return msgRollbackFailed + "\n"
		}
		s.d.commitLocked(target, s.user, "", "ROLLBACK")
		return msgRollbackDone + "\n"
	})}
	return ""
}

// promptLocked is the user-view prompt while d.mu is held.
func (s *Session) promptLocked() string {
	return "<" + hostname(s.d.running) + ">"
}

func (s *Session) save(args) string {
	s.q = &question{text: qSave, answer: yesNo(func(s *Session) string {
		s.d.mu.Lock()
		defer s.d.mu.Unlock()
		s.d.saved = s.d.render(s.d.running, userOnly)
		return msgSaved + "\n"
	})}
	return ""
}

// displayCurrent runs display current-configuration [include-default |
// interface IF | configuration TYPE] (§5).
func (s *Session) displayCurrent(a args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	run := s.d.running
	switch {
	case a["if"] != "":
		n := run.find("interface " + a["if"])
		lines := []string{"#", "interface " + a["if"]}
		if n != nil {
			lines = n.lines(userOnly)
			lines = append([]string{"#"}, lines...)
		}
		return strings.Join(append(lines, "#", "return"), "\n") + "\n"
	case a["type"] != "":
		// The TYPE words the reference confirms (aaa, bgp, nqa) hold
		// nothing this lab models; for the QoS sections the first word of
		// the section header is taken as the TYPE [I].
		var lines []string
		for _, n := range run.children {
			if strings.HasPrefix(n.line, a["type"]+" ") && n.visible(userOnly) {
				lines = append(lines, "#")
				lines = append(lines, n.lines(userOnly)...)
			}
		}
		return strings.Join(append(lines, "#", "return"), "\n") + "\n"
	}
	m := userOnly
	if strings.HasSuffix(s.canon, "include-default") {
		m = withDefaults
	}
	return s.d.render(run, m)
}

// displayThis prints the current view's section of the running config.
func (s *Session) displayThis(args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	lines := []string{"#"}
	if n := s.view().section(s.d.running, false); n != nil {
		lines = append(lines, n.lines(userOnly)...)
	}
	return strings.Join(append(lines, "#", "return"), "\n") + "\n"
}

// displayCandidate prints the merged candidate, as display configuration
// candidate merge does.
func (s *Session) displayCandidate(args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return strings.Join(s.merged().body(userOnly), "\n") + "\n"
}

func (s *Session) displayChanges(args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return strings.Join(diff(s.d.running, s.merged()), "\n") + "\n"
}

func (s *Session) displayTrial(args) string {
	// The V300R023 command reference examples, trailing space included.
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	t := s.d.trial
	if t == nil {
		return "Trial status: INACTIVE \nTrial time left (sec): 0\n"
	}
	left := max(int64(t.ends.Sub(s.d.opts.clock()).Seconds()), 0)
	out := "Trial status: ACTIVE \n"
	if t.persist != "" {
		out += "Persist id: " + t.persist + "\n"
	}
	return out + "Trial time left (sec): " + strconv.FormatInt(left, 10) + "\n"
}

// displayCommitList prints the commit points, newest first: the compact
// form in the columns of §4 (No. CommitId Label User TimeStamp; the
// spacing is [I]), or the verbose form of the V300R023 command reference.
func (s *Session) displayCommitList(a args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	cps := s.d.commits
	if a["n"] != "" {
		if n := int(a.int("n")); n < len(cps) {
			cps = cps[len(cps)-n:]
		}
	}
	var b strings.Builder
	verbose := strings.Contains(s.canon, " verbose")
	if !verbose {
		fmt.Fprintf(&b, "%-4s %-11s %-10s %-12s %s\n", "No.", "CommitId", "Label", "User", "TimeStamp")
	}
	for i := len(cps) - 1; i >= 0; i-- {
		c := cps[i]
		label := c.label
		if label == "" {
			label = "-"
		}
		at := c.at.UTC().Format("2006-01-02 15:04:05")
		if verbose {
			fmt.Fprintf(&b, "%d) CommitId: %d\n        Label: %s\n        User: %s\n        User-Intf: VTY 0\n        Type: %s\n        TimeStamp: %s\n        Description:\n\n",
				len(cps)-i, c.id, label, c.user, c.kind, at)
			continue
		}
		fmt.Fprintf(&b, "%-4d %-11d %-10s %-12s %s\n", len(cps)-i, c.id, label, c.user, at)
	}
	return b.String()
}

// displayCommitChanges prints what commit points changed (§4: at ID, since
// ID, last N), in the +/- form of display configuration candidate changes
// [I: the reference gives no sample of this command's output].
func (s *Session) displayCommitChanges(a args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	cps := s.d.commits
	from, to := -1, len(cps)-1
	col := 0
	switch {
	case a["n"] != "":
		from, col = len(cps)-int(a.int("n")), len("display configuration commit changes last ")
	case a["id"] != "":
		col = len("display configuration commit changes at ")
		for i, c := range cps {
			if c.id == a.int("id") {
				from, to = i, i
			}
		}
	default:
		col = len("display configuration commit changes since ")
		for i, c := range cps {
			if c.id == a.int("since") {
				from = i
			}
		}
	}
	if from < 0 || from > to {
		return (&parseError{errWrongParameter, col}).render(s.promptLocked())
	}
	return strings.Join(diff(cps[from].before, cps[to].after), "\n") + "\n"
}

// filter is one "| include RE"-style output modifier (§5).
type filter struct {
	kind string
	re   *regexp.Regexp
}

// filterKinds are the pipe modifiers that take a regular expression;
// "no-more" takes none and turns paging off for the command. "count" and
// "section" are listed in §5 without their output format, so the lab
// refuses them as unknown.
var filterKinds = []string{"include", "exclude", "begin"}

// splitPipes splits "display … | include X | no-more" into the command and
// its filters.
func splitPipes(line string) (string, []filter, *parseError) {
	parts := strings.Split(line, "|")
	if len(parts) == 1 {
		return line, nil, nil
	}
	var fs []filter
	col := len(parts[0]) + 1
	for _, p := range parts[1:] {
		ws := splitWords(p)
		if len(ws) == 0 {
			return "", nil, &parseError{errIncomplete, col + len(p) + 1}
		}
		kind := ""
		for _, k := range append([]string{"no-more"}, filterKinds...) {
			if strings.HasPrefix(k, strings.ToLower(ws[0].text)) {
				if kind != "" {
					return "", nil, &parseError{errAmbiguous, col + ws[0].col}
				}
				kind = k
			}
		}
		switch kind {
		case "":
			return "", nil, &parseError{errUnrecognized, col + ws[0].col}
		case "no-more":
			if len(ws) > 1 {
				return "", nil, &parseError{errTooMany, col + ws[1].col}
			}
			fs = append(fs, filter{kind: kind})
		default:
			if len(ws) < 2 {
				return "", nil, &parseError{errIncomplete, col + len(strings.TrimRight(p, " ")) + 1}
			}
			expr := strings.TrimSpace(p[ws[1].col:])
			re, err := regexp.Compile(expr)
			if err != nil {
				return "", nil, &parseError{errWrongParameter, col + ws[1].col}
			}
			fs = append(fs, filter{kind: kind, re: re})
		}
		col += len(p) + 1
	}
	return parts[0], fs, nil
}

// applyFilters runs the output through the filters in order.
func applyFilters(out string, fs []filter) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, f := range fs {
		var kept []string
		switch f.kind {
		case "include", "exclude":
			for _, l := range lines {
				if f.re.MatchString(l) == (f.kind == "include") {
					kept = append(kept, l)
				}
			}
		case "begin":
			for i, l := range lines {
				if f.re.MatchString(l) {
					kept = lines[i:]
					break
				}
			}
		default:
			kept = lines
		}
		lines = kept
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}
