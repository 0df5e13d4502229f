package sonic

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/lossless-net/lossless/internal/config"
	render "github.com/lossless-net/lossless/renderers/sonic"
)

// Platform rows of a freshly installed Arista-7060CX-32S (the SKU of
// reference/sonic.md §4–§5): what the switch writes and lossless never
// owns.
const (
	seedPorts = 32
	seedSpeed = "100000"
)

// LabSeed returns a realistic whole CONFIG_DB for an emulated SONiC switch
// that should end at desired (its rendering, config_db.json form): the
// platform's rows (DEVICE_METADATA, PORT, BUFFER_POOL, the template's
// buffer profiles), desired with stale WRED thresholds, other scheduler
// weights and watchdog times, a stale DSCP→TC entry, an extra class (a
// scheduler on queue 1 of every managed port), a stale pfc_to_pg_map with
// its map, and config lossless must never touch: another port with
// SONiC's default AZURE QoS (sharing the CABLE_LENGTH group), NTP and
// syslog servers. Nil when desired does not parse.
func LabSeed(desired []byte) []byte {
	var want config.DB
	if err := json.Unmarshal(desired, &want); err != nil || len(want) == 0 {
		return nil
	}
	db := config.DB{}
	for tn, keys := range want {
		db[tn] = map[string]map[string]string{}
		for k, f := range keys {
			db[tn][k] = maps.Clone(f)
		}
	}
	ports := sortedKeys(managedPorts(want))
	set := func(tn, k, f, v string) {
		if db[tn] == nil {
			db[tn] = map[string]map[string]string{}
		}
		if db[tn][k] == nil {
			db[tn][k] = map[string]string{}
		}
		db[tn][k][f] = v
	}
	platform(set, ports, mellanoxTemplate(want))

	// Stale values from an earlier rendering.
	for _, f := range db["WRED_PROFILE"] {
		f["green_min_threshold"], f["green_max_threshold"] = "1048576", "2097152"
	}
	for i, name := range sortedKeys(db["SCHEDULER"]) {
		if w, err := strconv.Atoi(db["SCHEDULER"][name]["weight"]); err == nil {
			db["SCHEDULER"][name]["weight"] = strconv.Itoa(min(100, max(1, w+6-12*(i%2))))
		}
	}
	for k, f := range db["PFC_WD"] {
		if k == globalWD {
			f["POLL_INTERVAL"] = "100"
			continue
		}
		f["detection_time"], f["restoration_time"] = "400", "400"
	}
	mapName := ""
	for _, n := range sortedKeys(db["DSCP_TO_TC_MAP"]) {
		mapName = n
		db["DSCP_TO_TC_MAP"][n]["10"] = "1"
		break
	}
	if mapName != "" {
		bulk := mapName + "_BULK"
		set("SCHEDULER", bulk, "type", "DWRR")
		set("SCHEDULER", bulk, "weight", "20")
		set("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", mapName, "3", "3")
		for _, p := range ports {
			if db["QUEUE"][p+"|1"] == nil {
				set("QUEUE", p+"|1", "scheduler", bulk)
			}
			if db["PORT_QOS_MAP"][p] != nil {
				set("PORT_QOS_MAP", p, "pfc_to_pg_map", mapName)
			}
		}
	}

	// Another team's port on SONiC's default QoS (reference/sonic.md §3).
	if other := unmanaged(ports); other != "" {
		for i := 0; i < 64; i++ {
			tc := "1"
			switch i {
			case 3, 4:
				tc = strconv.Itoa(i)
			case 8:
				tc = "0"
			}
			set("DSCP_TO_TC_MAP", "AZURE", strconv.Itoa(i), tc)
		}
		for i := 0; i < 8; i++ {
			set("TC_TO_QUEUE_MAP", "AZURE", strconv.Itoa(i), strconv.Itoa(i))
		}
		set("PORT_QOS_MAP", other, "dscp_to_tc_map", "AZURE")
		set("PORT_QOS_MAP", other, "tc_to_queue_map", "AZURE")
		set("SCHEDULER", "scheduler.0", "type", "DWRR")
		set("SCHEDULER", "scheduler.0", "weight", "14")
		set("SCHEDULER", "scheduler.1", "type", "DWRR")
		set("SCHEDULER", "scheduler.1", "weight", "15")
		set("WRED_PROFILE", "AZURE_LOSSLESS", "ecn", "ecn_all")
		for _, c := range []string{"green", "yellow", "red"} {
			set("WRED_PROFILE", "AZURE_LOSSLESS", "wred_"+c+"_enable", "true")
			set("WRED_PROFILE", "AZURE_LOSSLESS", c+"_min_threshold", "1048576")
			set("WRED_PROFILE", "AZURE_LOSSLESS", c+"_max_threshold", "2097152")
			set("WRED_PROFILE", "AZURE_LOSSLESS", c+"_drop_probability", "5")
		}
		set("QUEUE", other+"|0", "scheduler", "scheduler.0")
		set("QUEUE", other+"|3", "scheduler", "scheduler.1")
		set("QUEUE", other+"|3", "wred_profile", "AZURE_LOSSLESS")
		set("BUFFER_PG", other+"|0", "profile", "ingress_lossy_profile")
		lossyQueue := "egress_lossy_profile"
		if mellanoxTemplate(want) {
			lossyQueue = "q_lossy_profile"
		}
		set("BUFFER_QUEUE", other+"|0-2", "profile", lossyQueue)
		set("CABLE_LENGTH", "AZURE", other, "40m")
	}
	set("NTP_SERVER", "10.20.0.1", "association_type", "server")
	set("SYSLOG_SERVER", "10.20.0.5", "port", "514")
	return render.Text(db)
}

// mellanoxTemplate reports whether a rendering is for a Mellanox (or
// Barefoot) ASIC: only there does the renderer write the PFC priority →
// PG map and the q_lossy_profile queues (renderers/sonic family.go).
func mellanoxTemplate(desired config.DB) bool {
	if len(desired["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"]) > 0 {
		return true
	}
	for _, f := range desired["BUFFER_QUEUE"] {
		if f["profile"] == "q_lossy_profile" {
			return true
		}
	}
	return false
}

// platform adds the rows a factory switch has: DEVICE_METADATA, a PORT row
// per front-panel port (and per managed port beyond them), the SKU's
// buffer pools and template profiles, and watchdog counter polling
// (reference/sonic.md §2.16, §3, §5). With mellanox, the buffer rows are
// those of the Mellanox ACS SKUs' template (sonic-buildimage 086b03bd
// device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700/buffers_defaults_objects.j2,
// pool sizes of ACS-MSN4700's buffers_defaults_t1.j2, and every port's
// BUFFER_PORT_*_PROFILE_LIST), and DEVICE_METADATA
// names no SKU: the rendering does not say which Spectrum switch it is, so
// the lab fills in its model's.
func platform(set func(tn, k, f, v string), managed []string, mellanox bool) {
	md := map[string]string{"hostname": "sonic", "buffer_model": "traditional", "default_pfcwd_status": "disable", "type": "LeafRouter"}
	if !mellanox {
		md["hwsku"], md["platform"] = "Arista-7060CX-32S-C32", "x86_64-arista_7060_cx32s"
	}
	for k, v := range md {
		set("DEVICE_METADATA", "localhost", k, v)
	}
	port := func(name string, i int) {
		for k, v := range map[string]string{
			"admin_status": "up", "alias": fmt.Sprintf("Ethernet%d/1", i+1), "index": strconv.Itoa(i + 1),
			"lanes": fmt.Sprintf("%d,%d,%d,%d", 4*i+1, 4*i+2, 4*i+3, 4*i+4), "mtu": "9100", "speed": seedSpeed,
		} {
			set("PORT", name, k, v)
		}
	}
	names := map[string]bool{}
	for i := range seedPorts {
		n := "Ethernet" + strconv.Itoa(4*i)
		names[n] = true
		port(n, i)
	}
	i := seedPorts
	for _, p := range managed {
		if !names[p] {
			names[p] = true
			port(p, i)
			i++
		}
	}
	if mellanox {
		// generate_profile_lists of the same template, for active ports.
		for p := range names {
			set("BUFFER_PORT_INGRESS_PROFILE_LIST", p, "profile_list", "ingress_lossless_profile,ingress_lossy_profile")
			set("BUFFER_PORT_EGRESS_PROFILE_LIST", p, "profile_list", "egress_lossless_profile,egress_lossy_profile")
		}
	}
	pools := map[string]map[string]string{
		"egress_lossless_pool":  {"mode": "static", "size": "15982720", "type": "egress"},
		"egress_lossy_pool":     {"mode": "dynamic", "size": "9243812", "type": "egress"},
		"ingress_lossless_pool": {"mode": "dynamic", "size": "10875072", "type": "ingress", "xoff": "4194112"},
	}
	profiles := map[string]map[string]string{
		"egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "1518", "static_th": "15982720"},
		"egress_lossy_profile":    {"dynamic_th": "3", "pool": "egress_lossy_pool", "size": "1518"},
		"ingress_lossy_profile":   {"dynamic_th": "3", "pool": "ingress_lossless_pool", "size": "0"},
	}
	if mellanox {
		pools = map[string]map[string]string{
			"ingress_lossless_pool": {"size": "20627456", "type": "ingress", "mode": "dynamic"},
			"ingress_lossy_pool":    {"size": "20627456", "type": "ingress", "mode": "dynamic"},
			"egress_lossless_pool":  {"size": "60817392", "type": "egress", "mode": "dynamic"},
			"egress_lossy_pool":     {"size": "20627456", "type": "egress", "mode": "dynamic"},
		}
		profiles = map[string]map[string]string{
			"ingress_lossless_profile": {"pool": "ingress_lossless_pool", "size": "0", "dynamic_th": "7"},
			"ingress_lossy_profile":    {"pool": "ingress_lossy_pool", "size": "0", "dynamic_th": "3"},
			"egress_lossless_profile":  {"pool": "egress_lossless_pool", "size": "0", "dynamic_th": "7"},
			"egress_lossy_profile":     {"pool": "egress_lossy_pool", "size": "9216", "dynamic_th": "7"},
			"q_lossy_profile":          {"pool": "egress_lossy_pool", "size": "0", "dynamic_th": "3"},
		}
	}
	for k, f := range pools {
		for n, v := range f {
			set("BUFFER_POOL", k, n, v)
		}
	}
	for k, f := range profiles {
		for n, v := range f {
			set("BUFFER_PROFILE", k, n, v)
		}
	}
	set("FLEX_COUNTER_TABLE", "PFCWD", "FLEX_COUNTER_STATUS", "enable")
}

// unmanaged returns the last front-panel port lossless does not manage.
func unmanaged(managed []string) string {
	for i := seedPorts - 1; i >= 0; i-- {
		n := "Ethernet" + strconv.Itoa(4*i)
		if !slices.Contains(managed, n) {
			return n
		}
	}
	return ""
}
