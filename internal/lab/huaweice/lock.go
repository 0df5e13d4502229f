package huaweice

import (
	"fmt"
	"strings"
	"time"
)

// The configuration lock of a session, `configuration exclusive`, as the
// CloudEngine 6800 V300R023C00 documentation gives it (read in the
// markdown mirror of reference/huawei-ce.md §9 S1, WheaterW/INTA-project
// @ 9308062d7, under nassim-main/corpus/hw/hw_CE6800_V300R023C00/):
//   - cmd_corpus/…/Configuration_File_Management_Configuration_Commands/
//     configuration_exclusive.md: "allows only one user to configure the
//     system. During this period, all other users can only query
//     configurations"; they "can view, save, and maintain configurations,
//     but cannot deliver configurations"; "Only the user who locks
//     configurations can unlock the configurations in the session where
//     the lock command is executed"; "After the user logs out, the
//     configuration is unlocked automatically"; the lock also ends when
//     no configuration is delivered for the configuration exclusive
//     timeout.
//   - configuration_exclusive_timeout.md: that timeout, 1–7200 s,
//     "By default, the timeout period is 30 seconds."
//   - configuration_exclusive_by-user-name.md: "The configuration
//     exclusive command locks the device configuration based on the
//     session … After the session is logged out, the device configuration
//     is unlocked automatically"; other users "can view, edit, maintain,
//     and save the configuration but cannot commit the configuration".
//   - display_configuration_exclusive_user.md: the holder's User Index,
//     User Session Name, User Name, IP Address, Locked Time, Last
//     Configuration Time and timeout; "If the configuration set is not
//     locked, there is no display."
//   - config_corpus/…/CLI-based_Device_Login_Configuration/
//     Maintaining_the_Device_CLI.md: "If the configuration rights have
//     been locked, a message will be displayed when you attempt to lock
//     the configuration rights again."
//
// So another session edits its candidate as usual and is refused at
// commit. The refusal's text is NE40E V800R012C10's (the same VRPv8 CLI;
// same corpus, hw_NE40E_V800R012C10/config_corpus/…/Example_for_One_User_
// to_Configure_Services_After_Another_User_Locks_Configurations_in_Two-
// Phase_Validation_Mode.md): "Error: The configuration is locked by other
// user. [Session ID = 407]" after `commit`. [I] on CloudEngine, and [I]
// for the "message" of a second configuration exclusive, which the lab
// prints the same way. Also [I]: rollback configuration and abort trial
// deliver configuration, so they are refused alike; the trial timer's
// own revert is the system's, not a user's, and is not; any line the
// holder types counts as activity for the idle timeout (the display's
// "Last Configuration Time: Time when the user runs the last command").
const (
	msgLocked = "Error: The configuration is locked by other user. [Session ID = %d]"
	// lockTimeout is the configuration exclusive timeout default.
	lockTimeout = 30 * time.Second
	// firstSessionID numbers the sessions; the documentation's examples
	// show IDs from 108 to 14911 [I].
	firstSessionID = 100
	// vtyIndex0 is the User Index of VTY 0 (display configuration
	// exclusive user: "User Index: 34" beside "User Session Name: VTY 0").
	vtyIndex0 = 34
	// maxVTY is the last VTY number ("VTY0 to VTY14").
	maxVTY = 14
	// labAddress is the IP Address the display shows: the lab listens on
	// 127.0.0.1 only, so every client comes from there.
	labAddress = "127.0.0.1"
)

// exclusive is a held configuration lock.
type exclusive struct {
	holder     *Session
	since      time.Time
	last       time.Time
	timer      Timer
	timeoutSec int
}

// register gives a new session its ID and the lowest free VTY.
func (d *Device) register(s *Session) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s.id = d.nextSession
	d.nextSession++
	used := map[int]bool{}
	for _, o := range d.live {
		used[o.vty] = true
	}
	s.vty = 0
	for used[s.vty] && s.vty < maxVTY {
		s.vty++
	}
	d.live = append(d.live, s)
}

// unregister forgets a closed session and releases its lock ("After the
// user logs out, the configuration is unlocked automatically").
func (d *Device) unregister(s *Session) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, o := range d.live {
		if o == s {
			d.live = append(d.live[:i], d.live[i+1:]...)
			break
		}
	}
	if d.lock != nil && d.lock.holder == s {
		d.unlockLocked()
	}
}

// lockedByOtherLocked returns the refusal a session gets when another
// holds the lock, or "". d.mu is held.
func (d *Device) lockedByOtherLocked(s *Session) string {
	if d.lock == nil || d.lock.holder == s {
		return ""
	}
	return fmt.Sprintf(msgLocked, d.lock.holder.id) + "\n"
}

func (d *Device) unlockLocked() {
	d.lock.timer.Stop()
	d.lock = nil
}

// armLockLocked (re)starts the idle timer of the lock. d.mu is held.
func (d *Device) armLockLocked() {
	l := d.lock
	if l.timer != nil {
		l.timer.Stop()
	}
	l.last = d.opts.clock()
	l.timer = d.afterFunc(time.Duration(l.timeoutSec)*time.Second, func() { d.expireLock(l) })
}

// expireLock ends a lock whose holder was idle for the timeout.
func (d *Device) expireLock(l *exclusive) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock == l {
		d.unlockLocked()
	}
}

// touchLock counts a line the holder typed as activity.
func (s *Session) touchLock() {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if s.d.lock != nil && s.d.lock.holder == s {
		s.d.armLockLocked()
	}
}

// lockConfig runs configuration exclusive.
func (s *Session) lockConfig(args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if msg := s.d.lockedByOtherLocked(s); msg != "" {
		return msg
	}
	if s.d.lock == nil {
		now := s.d.opts.clock()
		s.d.lock = &exclusive{holder: s, since: now, timeoutSec: int(lockTimeout / time.Second)}
		s.d.armLockLocked()
	}
	return ""
}

// unlockConfig runs undo configuration exclusive: only the holder's
// session unlocks; with no lock it prints nothing [I].
func (s *Session) unlockConfig(args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	if msg := s.d.lockedByOtherLocked(s); msg != "" {
		return msg
	}
	if s.d.lock != nil {
		s.d.unlockLocked()
	}
	return ""
}

// displayLockUser runs display configuration exclusive user, in the
// layout of the V300R023 command reference's example.
func (s *Session) displayLockUser(args) string {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	l := s.d.lock
	if l == nil {
		return ""
	}
	const stamp = "2006-01-02 15:04:05"
	var b strings.Builder
	fmt.Fprintf(&b, "User Index: %d\n", vtyIndex0+l.holder.vty)
	fmt.Fprintf(&b, "User Session Name: VTY %d\n", l.holder.vty)
	fmt.Fprintf(&b, "User Name: %s\n", l.holder.user)
	fmt.Fprintf(&b, "IP Address: %s\n", labAddress)
	fmt.Fprintf(&b, "Locked Time: %s\n", l.since.UTC().Format(stamp))
	fmt.Fprintf(&b, "Last Configuration Time: %s\n", l.last.UTC().Format(stamp))
	fmt.Fprintf(&b, "The time out value of configuration right locked is: %d second(s)\n", l.timeoutSec)
	return b.String()
}
