package eos

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// Counters returns the device's health counters (device.CounterDevice).
func (d *Device) Counters() *device.Counters { return &d.counters }

// frontPanel names the device's front-panel ports.
func (d *Device) frontPanel() []string {
	out := make([]string, d.ports)
	for i := range out {
		out[i] = fmt.Sprintf("Ethernet%d", i+1)
	}
	return out
}

// doShowPFCCounters prints `show priority-flow-control counters | json`:
// port totals, as reference/eos.md "Counters for health checks" gives
// them ({"interfaceCounters": {IF: {"rxFrames", "txFrames"}}} [C:hc-anta]).
func doShowPFCCounters(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	type frames struct {
		RxFrames uint64 `json:"rxFrames"`
		TxFrames uint64 `json:"txFrames"`
	}
	out := map[string]map[string]frames{"interfaceCounters": {}}
	for _, p := range s.d.frontPanel() {
		c := s.d.counters.Read(p)
		var f frames
		for i := range 8 {
			f.RxFrames += c.PauseRx[i]
			f.TxFrames += c.PauseTx[i]
		}
		out["interfaceCounters"][p] = f
	}
	return jsonText(out), false
}

// doShowPFCWatchdog prints `show priority-flow-control counters watchdog
// | json`: an interface appears only after its first event, its queue 3
// with stuckCount and recoveryCount ([C:hc-fbwd]; "{"interfaces": {}}"
// until then).
func doShowPFCWatchdog(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	type queue struct {
		StuckCount    uint64 `json:"stuckCount"`
		RecoveryCount uint64 `json:"recoveryCount"`
	}
	type intf struct {
		TxQueues map[string]queue `json:"txQueues"`
	}
	out := map[string]map[string]intf{"interfaces": {}}
	for _, p := range s.d.frontPanel() {
		c := s.d.counters.Read(p)
		if c.Watchdog == 0 {
			continue
		}
		out["interfaces"][p] = intf{TxQueues: map[string]queue{fmt.Sprint(device.ClimbPriority): {StuckCount: c.Watchdog, RecoveryCount: c.Watchdog}}}
	}
	return jsonText(out), false
}

// jsonText is eAPI's indented JSON with a final newline.
func jsonText(v any) string {
	b, _ := json.MarshalIndent(v, "", "    ") // maps of plain values: cannot fail
	return string(b) + "\n"
}

// doShowVersion prints show version in EOS's form, field for field as
// public recordings show it (otpjeff/avdsnapshot All-Device-Report.md:
// a CCS-720XP-48ZC2-F on 4.29.4M and vEOS-lab on 4.26.2F: "Arista
// MODEL", hardware version, serial number, the two MAC addresses, a
// blank line, software image version, architecture, internal build
// version and ID, image format version, a blank line, uptime and
// memory), naming the device's model and the lab's release. The
// hardware version, serial number, MAC addresses, build, uptime and
// memory figures are the lab's own [I].
func doShowVersion(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	return fmt.Sprintf(`Arista %s
Hardware version: 11.00
Serial number: LAB%08X
Hardware MAC address: 001c.7300.0001
System MAC address: 001c.7300.0001

Software image version: %s
Architecture: i686
Internal build version: %s-0.%s
Internal build ID: 00000000-0000-0000-0000-000000000000
Image format version: 3.0

Uptime: 1 hour and 14 minutes
Total memory: 8099732 kB
Free memory: 5044864 kB
`, s.d.model, serial(s.d.host), version, version, strings.ReplaceAll(version, ".", "")), false
}

// serial is a stable lab serial number for a hostname.
func serial(host string) uint32 {
	var h uint32 = 2166136261
	for i := 0; i < len(host); i++ {
		h = (h ^ uint32(host[i])) * 16777619
	}
	return h
}
