package sonicyang

import (
	"fmt"
	"strconv"

	"github.com/lossless-net/lossless/internal/config"
)

// A must is one YANG `must` constraint ygot does not evaluate, written out
// in Go. Expr is the XPath exactly as the module states it (TestMustCoverage
// matches it against the YANG files); Check returns one message per
// violation.
type must struct {
	Module string
	Expr   string
	Check  func(db config.DB) []string
}

// musts returns the `must` constraints of the tables lossless writes or
// reads (shared/yang/sonic at sonic-buildimage 086b03bd).
func musts() []must {
	return []must{
		wredMust("yellow"), wredMust("green"), wredMust("red"),
		{"sonic-pfcwd", "../ifname != 'GLOBAL'", pfcwdPerPort},
		{"sonic-pfcwd", "(not(boolean(current()/../../PFC_WD_LIST[ifname='GLOBAL'])) or (current() >= current()/../../PFC_WD_LIST[ifname='GLOBAL']/POLL_INTERVAL))", pfcwdPoll},
		{"sonic-pfcwd", "../ifname = 'GLOBAL'", pfcwdGlobalOnly},
		{"sonic-scheduler", "((current()/../cir) and (current()/../cir > 0))", schedNeedsCIR},
		{"sonic-scheduler", "(current() >= current()/../cir)", schedPIR},
		{"sonic-scheduler", "((current()/../pir) and (current()/../pir > 0))", schedPBSNeedsPIR},
		{"sonic-scheduler", "((not(current()/../cbs)) or (current() >= current()/../cbs))", schedPBS},
		{"sonic-buffer-pool", "(not(current()/../size))", poolPercentSize},
		{"sonic-buffer-pool", "/device_metadata:sonic-device_metadata/device_metadata:DEVICE_METADATA/device_metadata:localhost/device_metadata:buffer_model = 'dynamic'", poolPercentDynamic},
	}
}

// mustsOutOfScope returns, per module, why Validate does not evaluate its
// `must` constraints: none is on a table lossless renders.
func mustsOutOfScope() map[string]string {
	return map[string]string{
		"sonic-port":            "adv_speeds / adv_interface_types leaf-lists: PORT is the switch's, never rendered",
		"sonic-device_metadata": "suppress-fib-pending: DEVICE_METADATA is the switch's, never rendered",
		"sonic-macsec":          "MACsec profiles: not a QoS table",
		"sonic-queue":           "VOQ_QUEUE local-port rule: lossless renders QUEUE, not the VOQ chassis list",
		"sonic-types":           "interface-name length typedef: enforced by ytypes as a pattern/length, not a must",
	}
}

func wredMust(colour string) must {
	return must{"sonic-wred-profile", fmt.Sprintf("(current() >= current()/../%s_min_threshold)", colour), func(db config.DB) []string {
		var errs []string
		for _, k := range sortedKeys(db["WRED_PROFILE"]) {
			f := db["WRED_PROFILE"][k]
			maxV, ok := f[colour+"_max_threshold"]
			if !ok {
				continue
			}
			minV, hasMin := f[colour+"_min_threshold"]
			if !hasMin || num(maxV) < num(minV) {
				// The must compares with an empty node-set when min is
				// absent, which is false (reference/sonic.md §2.8, tested).
				errs = append(errs, fmt.Sprintf("WRED_PROFILE|%s: %s max threshold must be greater than or equal to min threshold (max %s, min %q)", k, title(colour), maxV, minV))
			}
		}
		return errs
	}}
}

func title(s string) string { return string(s[0]-'a'+'A') + s[1:] }

func pfcwdPerPort(db config.DB) []string {
	var errs []string
	if g, ok := db["PFC_WD"]["GLOBAL"]; ok {
		for _, f := range []string{"action", "detection_time", "restoration_time", "pfc_stat_history"} {
			if _, ok := g[f]; ok {
				errs = append(errs, fmt.Sprintf("PFC_WD|GLOBAL: %s is a per-port field", f))
			}
		}
	}
	return errs
}

func pfcwdGlobalOnly(db config.DB) []string {
	var errs []string
	for _, k := range sortedKeys(db["PFC_WD"]) {
		if _, ok := db["PFC_WD"][k]["POLL_INTERVAL"]; ok && k != "GLOBAL" {
			errs = append(errs, fmt.Sprintf("PFC_WD|%s: POLL_INTERVAL belongs to GLOBAL only", k))
		}
	}
	return errs
}

func pfcwdPoll(db config.DB) []string {
	poll, ok := db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"]
	if !ok {
		return nil
	}
	var errs []string
	for _, k := range sortedKeys(db["PFC_WD"]) {
		for _, f := range []string{"detection_time", "restoration_time"} {
			if v, ok := db["PFC_WD"][k][f]; ok && num(v) < num(poll) {
				errs = append(errs, fmt.Sprintf("PFC_WD|%s: %s must be greater than or equal to POLL_INTERVAL (%s < %s)", k, f, v, poll))
			}
		}
	}
	return errs
}

func schedNeedsCIR(db config.DB) []string {
	var errs []string
	for _, k := range sortedKeys(db["SCHEDULER"]) {
		f := db["SCHEDULER"][k]
		for _, n := range []string{"pir", "cbs"} {
			if _, ok := f[n]; ok && num(f["cir"]) <= 0 {
				errs = append(errs, fmt.Sprintf("SCHEDULER|%s: %s can't be configured without cir", k, n))
			}
		}
	}
	return errs
}

func schedPIR(db config.DB) []string {
	var errs []string
	for _, k := range sortedKeys(db["SCHEDULER"]) {
		f := db["SCHEDULER"][k]
		if p, ok := f["pir"]; ok && num(p) < num(f["cir"]) {
			errs = append(errs, fmt.Sprintf("SCHEDULER|%s: pir must be greater than or equal to cir", k))
		}
	}
	return errs
}

func schedPBSNeedsPIR(db config.DB) []string {
	var errs []string
	for _, k := range sortedKeys(db["SCHEDULER"]) {
		f := db["SCHEDULER"][k]
		if _, ok := f["pbs"]; ok && num(f["pir"]) <= 0 {
			errs = append(errs, fmt.Sprintf("SCHEDULER|%s: pbs can't be configured without pir", k))
		}
	}
	return errs
}

func schedPBS(db config.DB) []string {
	var errs []string
	for _, k := range sortedKeys(db["SCHEDULER"]) {
		f := db["SCHEDULER"][k]
		p, ok := f["pbs"]
		if c, hasC := f["cbs"]; ok && hasC && num(p) < num(c) {
			errs = append(errs, fmt.Sprintf("SCHEDULER|%s: pbs must be greater than or equal to cbs", k))
		}
	}
	return errs
}

func poolPercentSize(db config.DB) []string {
	var errs []string
	for _, k := range sortedKeys(db["BUFFER_POOL"]) {
		f := db["BUFFER_POOL"][k]
		_, p := f["percentage"]
		if _, s := f["size"]; p && s {
			errs = append(errs, fmt.Sprintf("BUFFER_POOL|%s: percentage should not be configured along with size", k))
		}
	}
	return errs
}

func poolPercentDynamic(db config.DB) []string {
	var errs []string
	for _, k := range sortedKeys(db["BUFFER_POOL"]) {
		if _, p := db["BUFFER_POOL"][k]["percentage"]; p && db["DEVICE_METADATA"]["localhost"]["buffer_model"] != "dynamic" {
			errs = append(errs, fmt.Sprintf("BUFFER_POOL|%s: percentage must be configured in dynamic buffer model", k))
		}
	}
	return errs
}

// num parses a CONFIG_DB number; a malformed one is reported by the type
// checks, so here it counts as 0.
func num(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return f
}

func checkMusts(db config.DB) []string {
	var errs []string
	for _, m := range musts() {
		errs = append(errs, m.Check(db)...)
	}
	return errs
}
