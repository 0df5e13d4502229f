package sonic

import (
	"strings"

	"github.com/lossless-net/lossless/internal/config"
)

// mapTables are the map tables the renderer names after a QoS profile.
var mapTables = map[string]bool{
	"DSCP_TO_TC_MAP": true, "DOT1P_TO_TC_MAP": true, "TC_TO_QUEUE_MAP": true, "TC_TO_PRIORITY_GROUP_MAP": true,
	"MAP_PFC_PRIORITY_TO_QUEUE": true, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": true,
}

// kinds are the <KIND> parts of scheduler and WRED profile names (kind).
var kinds = []string{"CNP", "LOSSLESS", "LOSSY", "STRICT"}

// OwnName reports whether name is a name the renderer gives objects of
// table in a rendering like db, although db may not contain it: the map
// names of db's profiles (its DSCP_TO_TC_MAP and DOT1P_TO_TC_MAP names, upper-cased profile
// names) and their per-port variants (<MAP>_<n>); their schedulers and
// WRED profiles (<MAP>_<KIND>, with the _<queue>, _<queue>_<n> and
// _<speed> suffixes, KIND one of CNP, LOSSLESS, LOSSY, STRICT: today's
// <MAP>_CNP and <MAP>_<KIND>_<queue>, and the <MAP>_<KIND> of earlier
// renderings); the lossless PG profiles
// (pg_lossless_<speed>_<cable>_profile, buffermgrd's own name as well,
// reference/sonic.md §2.12). Only tables db renders count: a table the
// renderer does not write on this platform (the PFC priority → PG map on
// a Broadcom ASIC) holds no name of lossless'.
//
// The SONiC driver uses it to tell an object an earlier rendering left
// behind (lossless' to remove) from the platform's or an operator's
// (kept).
func OwnName(db config.DB, table, name string) bool {
	if len(db[table]) == 0 {
		return false
	}
	switch {
	case mapTables[table]:
		return profileMap(db, name)
	case table == "SCHEDULER", table == "WRED_PROFILE":
		for i := len(name) - 1; i > 0; i-- {
			if name[i] != '_' || !profileMap(db, name[:i]) {
				continue
			}
			rest := name[i+1:]
			for _, k := range kinds {
				if tail, ok := strings.CutPrefix(rest, k); ok && kindSuffix(table, tail) {
					return true
				}
			}
		}
		return false
	case table == "BUFFER_PROFILE":
		// pg_lossless_<Mb/s>_<metres>m_profile (bufferObjects).
		mid, ok := strings.CutPrefix(name, "pg_lossless_")
		if !ok {
			return false
		}
		if mid, ok = strings.CutSuffix(mid, "m_profile"); !ok {
			return false
		}
		speed, cable, ok := strings.Cut(mid, "_")
		return ok && digits(speed) && digits(cable)
	}
	return false
}

// profileMap reports whether name is one of db's map names or a per-port
// variant of one (maps: "ROCE", "ROCE_2").
func profileMap(db config.DB, name string) bool {
	return classifierMap(db["DSCP_TO_TC_MAP"], name) || classifierMap(db["DOT1P_TO_TC_MAP"], name)
}

// classifierMap is profileMap for the names of one classifier table
// (DSCP_TO_TC_MAP, or DOT1P_TO_TC_MAP of a profile that trusts CoS).
func classifierMap(t map[string]map[string]string, name string) bool {
	for m := range t {
		base := m
		if i := strings.LastIndexByte(m, '_'); i > 0 && digits(m[i+1:]) {
			base = m[:i]
		}
		if name == base {
			return true
		}
		if n, ok := strings.CutPrefix(name, base+"_"); ok && digits(n) {
			return true
		}
	}
	return false
}

// kindSuffix reports whether tail can follow <MAP>_<KIND> in a name of
// table: nothing, "_<queue>" (ObjectName), and "_<speed>" ("_100G": a
// WRED profile of time thresholds, wred; a scheduler with a guaranteed
// rate, scheduler).
func kindSuffix(table, tail string) bool {
	if tail == "" {
		return true
	}
	rest, ok := strings.CutPrefix(tail, "_")
	if !ok {
		return false
	}
	if q, after, _ := strings.Cut(rest, "_"); digits(q) {
		if after == "" && !strings.HasSuffix(rest, "_") || digits(after) {
			// "_3", or "_3_2": a per-port variant's default that
			// another profile on the device took (claim).
			return true
		}
		rest = after
		// "_<queue>_<speed>": a scheduler with a min_bandwidth (its cir
		// is bytes/s of the speed, scheduler).
		if table == "SCHEDULER" {
			return speedName(rest)
		}
	}
	if table != "WRED_PROFILE" {
		return false
	}
	return speedName(rest)
}

// speedName reports whether s is a BitRate as String prints it ("400G",
// "2500M", "1000bps").
func speedName(s string) bool {
	for _, unit := range []string{"G", "M", "bps"} {
		if n, ok := strings.CutSuffix(s, unit); ok && digits(n) {
			return true
		}
	}
	return false
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
