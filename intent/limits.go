package intent

import "time"

// watchdogLimit is the range a vendor accepts for each PFC watchdog timer
// and the actions it supports. A zero maximum means the vendor has no such
// setting, so the intent's value is not range-checked here (the renderer
// rejects what it cannot express).
type watchdogLimit struct {
	detection, restoration, polling [2]time.Duration
	actions                         []string
	source                          string
}

// watchdogLimits is data, keyed by vendor name or "vendor/family"; the
// family entry wins. Intent checks values against it without knowing what
// any vendor does with them.
var watchdogLimits = map[string]watchdogLimit{
	"eos": {
		detection:   [2]time.Duration{10 * time.Millisecond, 60 * time.Second},
		restoration: [2]time.Duration{10 * time.Millisecond, 60 * time.Second},
		polling:     [2]time.Duration{5 * time.Millisecond, 30 * time.Second},
		actions:     []string{"drop", "errdisable", "notify-only"},
		source:      "reference/eos.md §1a (timeout and recovery-time 0.01–60 s, polling-interval 0.005–30 s; actions drop, errdisable, notify-only)",
	},
	"sonic": {
		detection:   [2]time.Duration{100 * time.Millisecond, 5000 * time.Millisecond},
		restoration: [2]time.Duration{100 * time.Millisecond, 60000 * time.Millisecond},
		polling:     [2]time.Duration{100 * time.Millisecond, 1000 * time.Millisecond},
		actions:     []string{"drop", "forward"},
		source:      "reference/sonic.md §2.16 (sonic-pfcwd YANG: detection_time 100..5000 ms, restoration_time 100..60000 ms, POLL_INTERVAL 100..1000 ms)",
	},
	"huawei-ce/A": {
		detection:   [2]time.Duration{10 * time.Millisecond, 1500 * time.Millisecond},
		restoration: [2]time.Duration{10 * time.Millisecond, 1500 * time.Millisecond},
		actions:     []string{"drop", "forward"},
		source:      "reference/huawei-ce.md §2.2 (family A: dcb pfc deadlock-detect/recovery timer 10–1500 ms; recovery-behavior discard|forwarding)",
	},
	"huawei-ce/B": {
		detection:   [2]time.Duration{10 * time.Millisecond, 15 * time.Second},
		restoration: [2]time.Duration{0, 31 * time.Second},
		polling:     [2]time.Duration{10 * time.Millisecond, 1000 * time.Millisecond},
		actions:     []string{"drop", "forward"},
		source:      "reference/huawei-ce.md §2.2 (family B: deadlock-detect interval 10|100|500|1000 ms × 1–15 ticks, recovery 0–31 ticks; recovery-behavior discard|forwarding)",
	},
	"nxos": {
		polling: [2]time.Duration{100 * time.Millisecond, 1000 * time.Millisecond},
		actions: []string{"drop", "notify-only"},
		source:  "reference/nxos.md §2 (priority-flow-control watch-dog interval 100–1000 ms; disable-action: syslog only)",
	},
}

func watchdogLimitFor(vendor, family string) (watchdogLimit, bool) {
	if l, ok := watchdogLimits[vendor+"/"+family]; ok && family != "" {
		return l, true
	}
	l, ok := watchdogLimits[vendor]
	return l, ok
}
