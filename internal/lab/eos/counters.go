package eos

import (
	"encoding/json"
	"fmt"

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
