// Package sonic renders one device's desired state as SONiC CONFIG_DB
// tables (reference/sonic.md §2, §4, §5) and, as the extra format "yang",
// the sonic-yang instance of those tables (§6). It does no I/O.
//
// Tables lossless owns and renders (reference §4, §7): the DSCP→TC, TC→queue,
// TC→PG and PFC-priority→queue maps, PORT_QOS_MAP (with `global`),
// SCHEDULER, QUEUE, WRED_PROFILE, PFC_WD, CABLE_LENGTH, BUFFER_PG and
// BUFFER_QUEUE of the managed ports, and the lossless PG BUFFER_PROFILE of
// each (speed, cable) pair, computed from the port's headroom. Where the
// platform's own templates render more in those tables, so does the
// rendering (family.go): on Mellanox (NVIDIA Spectrum) and Barefoot ASICs
// the PFC priority → PG map and its pfc_to_pg_map binding (§2.5), and on
// every ASIC the BUFFER_QUEUE ranges and lossy queue profile of its
// template. Tables it leaves to the switch: PORT (not the tool's, §4),
// BUFFER_POOL (`config apply-patch` refuses any change, §7.2; pool sizes
// are per SKU) and the platform template's lossy and egress profiles
// (`ingress_lossy_profile`, `egress_lossy_profile` or `q_lossy_profile`,
// `egress_lossless_profile`, §3), which the rendering refers to by name.
//
// Names (intent/doc.go "# Names"): the DSCP_TO_TC_MAP takes the profile's
// names.classifier, the other maps names.maps (by default the
// DSCP_TO_TC_MAP's name), a class's SCHEDULER names.scheduler and its
// WRED_PROFILE names.drop_profile. The defaults are the profile's name
// upper-cased for the maps ("ROCE", "ROCE_2" for a per-port variant) and
// <MAP>_CNP or <MAP>_<KIND>_<queue> for a class's objects (ObjectName):
// each depends on the profile and the class alone. An explicit name that
// would name two different objects is refused, naming the names block
// that must tell them apart.
//
// Features beyond the core (intent.Feature, vendors/sonic Features):
// trust = "cos" renders a DOT1P_TO_TC_MAP (names.classifier) bound per
// port by dot1p_to_tc_map, with no DSCP map and no PORT_QOS_MAP|global,
// as SONiC's qos_config.j2 renders a storage back-end switch;
// min_bandwidth and shape are the class SCHEDULER's cir and pir in
// bytes/s (cir a share of the port's speed, so such a scheduler's default
// name ends in _<speed>; a pir needs a cir, sonic-scheduler YANG); a
// watchdog on some priorities writes them as pfcwd_sw_enable beside
// pfc_enable; ECN without a probability leaves green_drop_probability out
// (the YANG default 100), and 0 is written; a yellow or red block
// (wred-colors) is wred_<colour>_enable "true" with the colour's
// thresholds in bytes and <colour>_drop_probability, and the ecn mode
// names the colours that mark (ecn_green_yellow, ecn_green_red, ecn_all)
// while a colour with drop = true is left out of it and dropped by WRED
// (sonic-wred-profile YANG, qosorch.cpp, qos_config.j2 AZURE_LOSSLESS).
// match = "all", pfc mode off
// or auto and cos beside DSCP trust have no SONiC source and stay
// undeclared.
//
// Options (intent assign options): sonic.tc_to_pg_map = "template" maps
// TC 7 to PG 7 as SONiC's qos_config.j2 does (OptionTCToPG); any other
// sonic. key is refused.
//
// OwnName tells the SONiC driver which names of objects it does not render
// are nevertheless lossless' own (left over from an earlier rendering).
package sonic

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/sonicyang"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/renderers"
)

// Vendor is the name SONiC devices carry in the inventory.
const Vendor = "sonic"

// Names SONiC's own templates use, which the rendering refers to or reuses
// (reference/sonic.md §2.10–2.14, §3).
const (
	cableGroup            = "AZURE" // CABLE_LENGTH key buffermgrd merges with (§2.10)
	losslessPool          = "ingress_lossless_pool"
	ingressLossyProfile   = "ingress_lossy_profile"
	egressLossyProfile    = "egress_lossy_profile"
	egressLosslessProfile = "egress_lossless_profile"
	qLossyProfile         = "q_lossy_profile" // Mellanox and Barefoot lossy queues (family.go)
	globalKey             = "global"
	wdGlobal              = "GLOBAL"
)

// Ranges from the SONiC YANG (reference/sonic.md §2).
const (
	queueCount             = 8
	dscpCount              = 64
	weightMin, weightMax   = 1, 100 // SCHEDULER weight uint8 1..100
	detectMin, detectMax   = 100 * time.Millisecond, 5000 * time.Millisecond
	restoreMin, restoreMax = 100 * time.Millisecond, 60000 * time.Millisecond
	pollMin, pollMax       = 100 * time.Millisecond, 1000 * time.Millisecond
	wredMax                = 1<<31 - 1 // orchagent parses thresholds with stoi (§2.8)
	mapNameMax             = 32
	defaultDynamicTh       = 0 // the threshold column of pg_profile_lookup.ini rows (§2.12, §4)
	pfcStatHistory         = "disable"
	dynThMin, dynThMax     = -8, 7 // BUFFER_PROFILE dynamic_th int32 −8..7
)

// Render returns d's CONFIG_DB tables, and as Text the config_db.json form
// of reference §5: JSON indented 4 spaces, keys in natural order (as
// `config save` writes them). Values that are not whole numbers of the
// field's unit (ms, metres) are rounded up and reported in
// Document.Warnings; intent SONiC cannot express is a
// *renderers.UnsupportedError.
func Render(d *intent.Device) (*config.Document, error) {
	r := &renderer{d: d, db: config.DB{}}
	if err := r.render(); err != nil {
		return nil, err
	}
	return &config.Document{
		Device:     d.Name,
		Format:     config.ConfigDB,
		DB:         r.db,
		Text:       Text(r.db),
		Warnings:   r.warnings,
		Disruptive: r.disruptive(),
	}, nil
}

// RenderYANG returns d's rendering in the sonic-yang instance form yanglint
// reads (reference/sonic.md §6). It holds only the rendered tables: merge
// it with the switch's PORT and BUFFER_POOL rows to validate leafrefs.
func RenderYANG(d *intent.Device) ([]byte, error) {
	doc, err := Render(d)
	if err != nil {
		return nil, err
	}
	b, err := sonicyang.Instance(doc.DB)
	if err != nil {
		return nil, fmt.Errorf("render %s (%s): yang instance: %w", d.Name, Vendor, err)
	}
	return b, nil
}

// switchTables are the tables whose rows (all, or the ones lossless does
// not render) live on the switch: a rendering refers to them by name.
var switchTables = []string{"PORT", "BUFFER_POOL", "BUFFER_PROFILE"}

// Validate checks a SONiC rendering against the SONiC YANG in-process
// (sonicyang.Validate). References into the switch's own rows (PORT,
// BUFFER_POOL, the template's buffer profiles) cannot be resolved from the
// rendering alone and are not checked; merge the running config into
// doc.DB and call sonicyang.Validate for a full check.
func Validate(doc *config.Document) error {
	return sonicyang.Validate(doc.DB, sonicyang.External(switchTables...))
}

// Text prints db as config_db.json: 4-space indent, keys of every level in
// natural order ("Ethernet4" before "Ethernet12", DSCP "9" before "10").
//
// It runs once per rendered device, so it reads every map once, sorts
// (name, value) pairs rather than looking names up again, and writes into
// one buffer of the output's size.
func Text(db config.DB) []byte {
	var sortKeys naturalKeys // reused by every run that entries sorts
	tables := entries(db, make([]entry[map[string]map[string]string], 0, len(db)), &sortKeys)
	nk := 0
	for _, t := range tables {
		nk += len(t.v)
	}
	// keys holds the rows of every table, table after table (rows[i] is
	// where table i starts), each table's run sorted on its own.
	keys := make([]entry[map[string]string], 0, nk)
	rows := make([]int, len(tables)+1)
	size := len("{\n}\n")
	for i, t := range tables {
		rows[i] = len(keys)
		keys = entries(t.v, keys, &sortKeys)
		size += len(",\n    \"\": {\n    }") + len(t.k)
	}
	rows[len(tables)] = len(keys)
	for _, k := range keys {
		size += len(",\n        \"\": {\n        }") + len(k.k)
		for f, v := range k.v {
			size += len(",\n            \"\": \"\"") + len(f) + len(v)
		}
	}
	b := make([]byte, 0, size) // a string that needs escaping grows it
	b = append(b, '{')
	var fields []entry[string] // the fields of one row, reused row after row
	for i, t := range tables {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = str(b, t.k)
		b = append(b, ": {"...)
		for j, k := range keys[rows[i]:rows[i+1]] {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n        "...)
			b = str(b, k.k)
			b = append(b, ": {"...)
			fields = entries(k.v, fields[:0], &sortKeys)
			for l, f := range fields {
				if l > 0 {
					b = append(b, ',')
				}
				b = append(b, "\n            "...)
				b = str(b, f.k)
				b = append(b, ": "...)
				b = str(b, f.v)
			}
			if len(k.v) > 0 {
				b = append(b, "\n        "...)
			}
			b = append(b, '}')
		}
		if rows[i+1] > rows[i] {
			b = append(b, "\n    "...)
		}
		b = append(b, '}')
	}
	if len(tables) > 0 {
		b = append(b, '\n')
	}
	return append(b, "}\n"...)
}

// entry is a name and its value in one of db's maps.
type entry[V any] struct {
	k string
	v V
}

// naturalKeyMin is the number of names from which entries sorts by
// natural sort key: fewer are sorted by insertion, with few comparisons.
const naturalKeyMin = 12

// naturalKeys holds the natural sort keys of the names entries sorts:
// bytes holds the keys, order where each is and which entry it belongs
// to. Neither holds a pointer, so sorting moves no pointer around.
type naturalKeys struct {
	bytes []byte
	order []naturalKeyRef
}

type naturalKeyRef struct{ lo, hi, entry int32 }

// entries appends m's entries to dst, sorted by name in natural order.
// Many names (a table's ports and queues) are sorted by their natural
// sort keys, built once per name in keys, rather than calling
// sonicyang.NaturalCompare for every comparison.
func entries[V any](m map[string]V, dst []entry[V], keys *naturalKeys) []entry[V] {
	lo := len(dst)
	for k, v := range m {
		dst = append(dst, entry[V]{k, v})
	}
	run := dst[lo:]
	if len(run) < naturalKeyMin || len(run) > math.MaxInt32 {
		slices.SortFunc(run, func(a, b entry[V]) int { return sonicyang.NaturalCompare(a.k, b.k) })
		return dst
	}
	b, order := keys.bytes[:0], keys.order[:0]
	for i, e := range run {
		n := len(b)
		b = naturalKey(b, e.k)
		order = append(order, naturalKeyRef{int32(n), int32(len(b)), int32(i)})
	}
	keys.bytes, keys.order = b, order
	if len(b) > math.MaxInt32 {
		slices.SortFunc(run, func(a, b entry[V]) int { return sonicyang.NaturalCompare(a.k, b.k) })
		return dst
	}
	slices.SortFunc(order, func(x, y naturalKeyRef) int { return bytes.Compare(b[x.lo:x.hi], b[y.lo:y.hi]) })
	// Move run[order[i].entry] to run[i], one cycle of the permutation at
	// a time; a moved entry's ref is marked with entry -1.
	for i := range order {
		if order[i].entry < 0 {
			continue
		}
		first := run[i]
		j := i
		for {
			k := int(order[j].entry)
			order[j].entry = -1
			if k == i {
				run[j] = first
				break
			}
			run[j] = run[k]
			j = k
		}
	}
	return dst
}

// naturalKey appends the natural sort key of s to b: two keys compare
// byte by byte as sonicyang.NaturalCompare compares their names. A byte
// that is not a digit is itself. A run of digits is '0' (so that it
// compares with a byte that is not a digit as any digit does), the number
// of its digits after leading zeros (4 bytes, big-endian: the longer is
// the larger number), those digits (equal lengths compare digit by
// digit), then the number of leading zeros (equal values order by it).
// Distinct names have distinct keys.
func naturalKey(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			b = append(b, s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '0' {
			j++
		}
		e := j
		for e < len(s) && isDigit(s[e]) {
			e++
		}
		b = append(b, '0')
		b = binary.BigEndian.AppendUint32(b, uint32(e-j))
		b = append(b, s[j:e]...)
		b = binary.BigEndian.AppendUint32(b, uint32(j-i))
		i = e
	}
	return b
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// str appends s as a JSON string, escaped as encoding/json does.
func str(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	slices.SortFunc(k, sonicyang.NaturalCompare)
	return k
}

type renderer struct {
	d *intent.Device
	// fam is what the platform's own templates do (family.go).
	fam      family
	db       config.DB
	warnings []config.Warning
	// names of the maps per QoS content, so per-port overrides get
	// their own maps and schedulers; byPtr caches it per profile value.
	mapNames map[string]mapNames
	byPtr    map[*intent.QoS]mapNames
	// profiles holds what every port of a profile shares.
	profiles map[*intent.QoS]*profile
	// cables names each cable length ("5m").
	cables map[units.Length]string
	// keys is portKeys' result, reused port after port.
	keys []string
	// queueCache holds each profile's queue objects per port speed.
	queueCache map[queueKey]queueSet
	// bufferCache holds the buffer objects per speed, cable and headroom.
	bufferCache map[bufferKey]bufferObjects
	// pg7 is option sonic.tc_to_pg_map = "template": TC 7 to PG 7.
	pg7 bool
}

// Options of the SONiC renderer (the intent's assign options).
const (
	// OptionTCToPG chooses the TC_TO_PRIORITY_GROUP_MAP of the TCs
	// without PFC: TCToPGLossless (the default) puts each in PG 0,
	// TCToPGTemplate also sends TC 7 to PG 7, as SONiC's own qos_config.j2
	// AZURE map does ("3": "3", "4": "4", "7": "7", the others "0";
	// reference/sonic.md §3). The lossless TCs have their own PG either
	// way, and PG 7 gets no BUFFER_PG, as in SONiC's buffers_config.j2.
	OptionTCToPG   = "sonic.tc_to_pg_map"
	TCToPGLossless = "lossless"
	TCToPGTemplate = "template"
)

func (r *renderer) unsupported(feature, reason string, args ...any) error {
	return &renderers.UnsupportedError{Device: r.d.Name, Vendor: Vendor, Feature: feature, Reason: fmt.Sprintf(reason, args...)}
}

// warn records a warning once: a per-port conversion repeats on every
// port.
func (r *renderer) warn(rule, format string, args ...any) {
	w := config.Warning{Rule: rule, Device: r.d.Name, Message: fmt.Sprintf(format, args...)}
	if !slices.Contains(r.warnings, w) {
		r.warnings = append(r.warnings, w)
	}
}

func (r *renderer) set(table, key, field, value string) {
	r.row(table, key, 0, 1)[field] = value
}

// row returns the fields of table|key, creating them with room for n
// fields, and the table with room for rows rows: a table keyed by port
// is made for all the device's ports at once rather than grown port after
// port.
func (r *renderer) row(table, key string, rows, n int) map[string]string {
	t := r.db[table]
	if t == nil {
		t = make(map[string]map[string]string, rows)
		r.db[table] = t
	}
	k := t[key]
	if k == nil {
		k = make(map[string]string, n)
		t[key] = k
	}
	return k
}

// profile is what the ports of one QoS profile share: computed at the
// profile's first port, reused on the others.
type profile struct {
	maps     mapNames // the names of its maps
	lossless []int    // lossless priorities, ascending
	pfc      string   // lossless priorities as pfc_enable lists them ("3,4")
	// watchdog holds the PFC_WD fields of its ports (action, detection,
	// restoration), once rendered.
	watchdog *[3]string
}

// watched returns the lossless priorities w watches, as pfcwd_sw_enable
// lists them ("3,4").
func (pr *profile) watched(w *intent.Watchdog) string {
	if w.Priorities == 0 {
		return pr.pfc
	}
	var p []int
	for _, l := range pr.lossless {
		if w.Watches(l) {
			p = append(p, l)
		}
	}
	return joinInts(p, ",")
}

func (r *renderer) profile(q *intent.QoS, where string) (*profile, error) {
	if pr, ok := r.profiles[q]; ok {
		return pr, nil
	}
	name, err := r.maps(q, where)
	if err != nil {
		return nil, err
	}
	l := q.LosslessPriorities()
	pr := &profile{maps: name, lossless: l, pfc: joinInts(l, ",")}
	r.profiles[q] = pr
	return pr, nil
}

func (r *renderer) render() error {
	d := r.d
	for _, k := range slices.Sorted(maps.Keys(d.Options)) {
		v := d.Options[k]
		switch {
		case !strings.HasPrefix(k, "sonic."):
		case k == OptionTCToPG && (v == TCToPGLossless || v == TCToPGTemplate):
			r.pg7 = v == TCToPGTemplate
		case k == OptionTCToPG:
			return r.unsupported("option "+strconv.Quote(k), "value %q is neither %q nor %q", v, TCToPGLossless, TCToPGTemplate)
		default:
			return r.unsupported("option "+strconv.Quote(k), "the SONiC renderer knows only %q", OptionTCToPG)
		}
	}
	if d.QoS == nil {
		return r.unsupported("QoS", "the device has no QoS profile")
	}
	r.fam = familyOf(d.Platform)
	r.mapNames = map[string]mapNames{}
	r.byPtr = map[*intent.QoS]mapNames{}
	r.profiles = map[*intent.QoS]*profile{}
	r.cables = map[units.Length]string{}
	r.queueCache = map[queueKey]queueSet{}
	r.bufferCache = map[bufferKey]bufferObjects{}
	devMaps, err := r.maps(d.QoS, "the device's qos")
	if err != nil {
		return err
	}
	// global binds the device's DSCP map switch-wide (§2.6). A device
	// that trusts CoS has none, as SONiC's template renders it for
	// storage back-end switches (sonic-buildimage
	// files/build_templates/qos_config.j2: require_global_dscp_to_tc_map
	// false with DOT1P_TO_TC_MAP).
	if d.QoS.Trust != intent.TrustCoS {
		r.set("PORT_QOS_MAP", globalKey, "dscp_to_tc_map", devMaps.classifier)
	}
	if err := r.watchdogGlobal(); err != nil {
		return err
	}
	for i := range d.Ports {
		if err := r.port(&d.Ports[i]); err != nil {
			return err
		}
	}
	return nil
}

// qosKey identifies a QoS profile by the content the maps and schedulers
// use.
func qosKey(q *intent.QoS) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%+v|", q.Profile, q.Trust, q.Names)
	for _, c := range q.Classes {
		fmt.Fprintf(&b, "%d:%v:%v:%v:%v:%v:%v:%+v:%+v;", c.ID, c.DSCP, c.Default, c.CoS, c.DefaultCoS, c.Lossless, c.CNP, c.Scheduling, c.Names)
		if c.ECN != nil {
			fmt.Fprintf(&b, "%+v:%+v:%d:%v:%+v:%+v;", c.ECN.Min, c.ECN.Max, c.ECN.MaxProbability, c.ECN.DefaultProbability, c.ECN.Yellow, c.ECN.Red)
		}
	}
	return b.String()
}

// mapNames are the names of a profile's maps: its DSCP_TO_TC_MAP
// (classifier) and the other maps (maps).
type mapNames struct{ classifier, maps string }

// maps renders the maps of a QoS profile and returns their names. The
// DSCP_TO_TC_MAP takes names.classifier, by default the profile's name
// upper-cased ("ROCE"; "ROCE_2" for a different per-port variant); the
// TC→queue, TC→PG, PFC priority→queue and PFC priority→PG maps take
// names.maps, by default the DSCP_TO_TC_MAP's name: today's one name for
// every map, and SONiC's own (AZURE for all, reference/sonic.md §3) when
// names.classifier = "AZURE". where says whose profile it is ("port
// Ethernet4's qos"), for the refusal when an explicit name would name two
// different maps.
func (r *renderer) maps(q *intent.QoS, where string) (mapNames, error) {
	if n, ok := r.byPtr[q]; ok {
		return n, nil
	}
	key := qosKey(q)
	if n, ok := r.mapNames[key]; ok {
		r.byPtr[q] = n
		return n, nil
	}
	if err := r.checkProfile(q); err != nil {
		return mapNames{}, err
	}
	names := mapNames{classifier: q.Names.Classifier, maps: q.Names.Maps}
	if names.classifier == "" {
		base := strings.ToUpper(q.Profile)
		names.classifier = base
		for i := 2; r.nameUsed(names.classifier); i++ {
			names.classifier = base + "_" + strconv.Itoa(i)
		}
	}
	classifier := "DSCP_TO_TC_MAP"
	if q.Trust == intent.TrustCoS {
		classifier = "DOT1P_TO_TC_MAP"
	}
	if err := r.checkName(classifier+" name (names.classifier)", names.classifier); err != nil {
		return mapNames{}, err
	}
	if names.maps == "" {
		names.maps = names.classifier
	} else if err := r.checkName("map name (names.maps)", names.maps); err != nil {
		return mapNames{}, err
	}
	r.mapNames[key] = names
	r.byPtr[q] = names
	if q.Trust == intent.TrustCoS {
		if err := r.dot1pMap(q, names.classifier, where); err != nil {
			return mapNames{}, err
		}
	} else if err := r.dscpMap(q, names.classifier, where); err != nil {
		return mapNames{}, err
	}
	lossless := q.LosslessPriorities()
	identity := make(map[string]string, queueCount)
	pgs := make(map[string]string, queueCount)
	for t := range queueCount {
		s := strconv.Itoa(t)
		// TC = queue = PFC priority (intent/state.go), identity maps.
		identity[s] = s
		pg := "0"
		if slices.Contains(lossless, t) || t == 7 && r.pg7 {
			pg = s // each lossless TC gets its own PG, as SONiC's template (§3)
		}
		pgs[s] = pg
	}
	explicit := q.Names.Maps != "" || q.Names.Classifier != ""
	tables := []struct {
		name   string
		fields map[string]string
	}{{"TC_TO_QUEUE_MAP", identity}, {"MAP_PFC_PRIORITY_TO_QUEUE", identity}, {"TC_TO_PRIORITY_GROUP_MAP", pgs}}
	if r.fam.pfcToPG {
		// What qos_config.j2 renders on this ASIC, for the intent's
		// lossless priorities: each pauses its own PG, as the TC→PG map
		// puts it (family.go; reference/sonic.md §2.5).
		pfc := make(map[string]string, len(lossless))
		for _, p := range lossless {
			s := strconv.Itoa(p)
			pfc[s] = s
		}
		tables = append(tables, struct {
			name   string
			fields map[string]string
		}{"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", pfc})
	}
	for _, t := range tables {
		if err := r.object(t.name, names.maps, t.fields, explicit, where, "names.maps"); err != nil {
			return mapNames{}, err
		}
	}
	return names, nil
}

// dscpMap renders the profile's DSCP_TO_TC_MAP: all 64 DSCPs (§2.1).
func (r *renderer) dscpMap(q *intent.QoS, name, where string) error {
	def := q.DefaultClass()
	if def == nil {
		return r.unsupported("DSCP map of profile "+strconv.Quote(q.Profile), "no class takes the default DSCPs; SONiC lists all 64 DSCPs (reference/sonic.md §2.1), so one class needs dscp = \"default\"")
	}
	tc := make([]int, dscpCount)
	for i := range tc {
		tc[i] = def.ID
	}
	for _, c := range q.Classes {
		for _, v := range c.DSCP {
			tc[v] = c.ID
		}
	}
	dscp := make(map[string]string, dscpCount)
	for v, t := range tc {
		dscp[strconv.Itoa(v)] = strconv.Itoa(t)
	}
	return r.object("DSCP_TO_TC_MAP", name, dscp, q.Names.Classifier != "", where, "names.classifier")
}

// dot1pMap renders the DOT1P_TO_TC_MAP of a profile that trusts CoS: all
// eight 802.1p priorities, as SONiC's template lists them (sonic-buildimage
// files/build_templates/qos_config.j2, storage back-end: DOT1P_TO_TC_MAP
// AZURE "0": "1" … "7": "7", bound per port by dot1p_to_tc_map; field
// dot1p pattern [0-7]?, value tc 0..15, sonic-dot1p-tc-map YANG,
// reference/sonic.md §2.17).
func (r *renderer) dot1pMap(q *intent.QoS, name, where string) error {
	tc := make([]int, queueCount)
	for i := range tc {
		tc[i] = -1
	}
	for _, c := range q.Classes {
		if c.DefaultCoS {
			for i := range tc {
				tc[i] = c.ID
			}
		}
	}
	for _, c := range q.Classes {
		for _, v := range c.CoS {
			if v < 0 || v >= queueCount {
				return r.unsupported(fmt.Sprintf("class %q", c.Name), "CoS %d is outside 0–7", v)
			}
			tc[v] = c.ID
		}
	}
	m := make(map[string]string, queueCount)
	for v, t := range tc {
		if t < 0 {
			return r.unsupported("CoS map of profile "+strconv.Quote(q.Profile), "no class takes CoS %d; SONiC's template lists all eight, so one class needs cos = \"default\"", v)
		}
		m[strconv.Itoa(v)] = strconv.Itoa(t)
	}
	return r.object("DOT1P_TO_TC_MAP", name, m, q.Names.Classifier != "", where, "names.classifier")
}

// object writes the named object table|name. A name already holding other
// fields is refused: two different objects would share it. Default names
// never collide that way (maps suffixes them, defaultName reports a
// taken one), so the refusal names the names block that must tell them
// apart (where: whose profile or class it is).
func (r *renderer) object(table, name string, fields map[string]string, explicit bool, where, field string) error {
	if r.taken(table, name, fields) {
		how := "a default name"
		if explicit {
			how = "an explicit name"
		}
		return r.unsupported(fmt.Sprintf("%s %s of %s", table, name, where), "%s names two different %s objects on this device (%s); give %s its own %s", how, table, diffFields(r.db[table][name], fields), where, field)
	}
	for f, v := range fields {
		r.set(table, name, f, v)
	}
	return nil
}

// taken reports whether table already holds name with other fields.
func (r *renderer) taken(table, name string, fields map[string]string) bool {
	old, ok := r.db[table][name]
	return ok && !maps.Equal(old, fields)
}

// diffFields names the first field (in natural order) two objects
// disagree on.
func diffFields(a, b map[string]string) string {
	for _, f := range sortedKeys(union(a, b)) {
		if a[f] != b[f] {
			return fmt.Sprintf("%s %q and %q", f, a[f], b[f])
		}
	}
	return "the same fields"
}

func union(a, b map[string]string) map[string]bool {
	m := make(map[string]bool, len(a)+len(b))
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// nameUsed reports whether another profile's maps already use name.
func (r *renderer) nameUsed(name string) bool {
	for _, n := range r.mapNames {
		if n.classifier == name || n.maps == name {
			return true
		}
	}
	return false
}

func (r *renderer) checkName(what, name string) error {
	ok := name != "" && len(name) <= mapNameMax
	for i, c := range name {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '-' && c != '_') {
			ok = false
		}
	}
	if !ok {
		return r.unsupported(what+" "+strconv.Quote(name), "SONiC map and WRED profile names match [a-zA-Z0-9][-a-zA-Z0-9_]{0,31} (sonic-yang, reference/sonic.md §2.1, §2.8); rename the qos_profile or give the name in its names block")
	}
	return nil
}

func (r *renderer) checkProfile(q *intent.QoS) error {
	if q.Trust != "" && q.Trust != intent.TrustDSCP && q.Trust != intent.TrustCoS {
		return r.unsupported("trust "+strconv.Quote(q.Trust), "SONiC classifies by DSCP (DSCP_TO_TC_MAP) or CoS (DOT1P_TO_TC_MAP)")
	}
	if q.Trust == intent.TrustCoS && r.d.QoS.Trust != intent.TrustCoS {
		return r.unsupported("trust \"cos\" of profile "+strconv.Quote(q.Profile), "the device's DSCP map is bound switch-wide (PORT_QOS_MAP|global, reference/sonic.md §2.6), so a port cannot trust CoS where the device trusts DSCP; give the device the CoS profile")
	}
	for _, c := range q.Classes {
		if q.Trust != intent.TrustCoS && (len(c.CoS) > 0 || c.DefaultCoS) {
			return r.unsupported(fmt.Sprintf("cos of class %q", c.Name), "SONiC binds a port's DSCP or its 802.1p map; no SONiC source shows both bound on a port and which one classifies frames without an IP header")
		}
	}
	for _, c := range q.Classes {
		if c.ID < 0 || c.ID >= queueCount {
			return r.unsupported(fmt.Sprintf("class %q", c.Name), "class ID %d is outside the queues 0–7", c.ID)
		}
		for _, v := range c.DSCP {
			if v < 0 || v >= dscpCount {
				return r.unsupported(fmt.Sprintf("class %q", c.Name), "DSCP %d is outside 0–63", v)
			}
		}
		if c.MTU != 0 {
			r.warn(renderers.RuleNotRendered, "class %q MTU %d is not rendered: SONiC has no per-class MTU; the port MTU (PORT|<port> mtu) is the switch's", c.Name, c.MTU)
		}
	}
	return nil
}

// port renders everything keyed by one port.
func (r *renderer) port(p *intent.Port) error {
	q := p.QoS
	if q == nil {
		q = r.d.QoS
	}
	where := "the device's qos"
	if q != r.d.QoS {
		where = "the per-port override of " + p.Name
	}
	pr, err := r.profile(q, where)
	if err != nil {
		return err
	}
	name := pr.maps
	m := r.row("PORT_QOS_MAP", p.Name, len(r.d.Ports)+1, 7)
	if q.Trust == intent.TrustCoS {
		m["dot1p_to_tc_map"] = name.classifier // qos_config.j2, storage back-end
	} else {
		m["dscp_to_tc_map"] = name.classifier
	}
	m["tc_to_queue_map"] = name.maps
	m["tc_to_pg_map"] = name.maps
	m["pfc_to_queue_map"] = name.maps
	m["pfc_enable"] = pr.pfc
	if r.fam.pfcToPG && len(pr.lossless) > 0 {
		m["pfc_to_pg_map"] = name.maps // bound as qos_config.j2 binds it (family.go)
	}
	if w := q.PFC.Watchdog; w != nil {
		// The intent decides which priorities the watchdog watches: the
		// lossless ones, or the subset its priorities name. SONiC's own
		// template watches a subset of pfc_enable on some ports
		// (reference Errata: pfc_enable "2,3,4,6", pfcwd_sw_enable
		// "3,4"); orchagent watches only the priorities listed here
		// (§2.6).
		m["pfcwd_sw_enable"] = pr.watched(w)
	}
	if err := r.queues(p, q, name.classifier, where); err != nil {
		return err
	}
	if len(pr.lossless) == 0 {
		return nil
	}
	if err := r.watchdogPort(p, q, pr); err != nil {
		return err
	}
	return r.buffers(p, pr)
}

// queueObjects are the scheduler and WRED profile names of one class's
// queue.
type queueObjects struct {
	id              string
	scheduler, wred string
}

// queueSet is the queue objects of a profile at a port speed: of the
// queues that have any, and their QUEUE key suffixes (queue IDs).
type queueSet struct {
	objs []queueObjects
	ids  []string
}

// queueKey caches queueObjects per profile and port speed (a time-based
// ECN threshold depends on the speed).
type queueKey struct {
	q     *intent.QoS
	speed units.BitRate
}

// queues renders SCHEDULER, WRED_PROFILE and QUEUE for the port's classes.
func (r *renderer) queues(p *intent.Port, q *intent.QoS, mapName, where string) error {
	k := queueKey{q, p.Speed}
	set, ok := r.queueCache[k]
	if !ok {
		if err := r.checkStrictOrder(q); err != nil {
			return err
		}
		for _, c := range q.Classes {
			o := queueObjects{id: strconv.Itoa(c.ID)}
			s, err := r.scheduler(c, mapName, p, where)
			if err != nil {
				return err
			}
			o.scheduler = s
			if c.ECN != nil {
				if o.wred, err = r.wred(c, mapName, p, where); err != nil {
					return err
				}
			}
			if o.scheduler != "" || o.wred != "" {
				set.objs = append(set.objs, o)
				set.ids = append(set.ids, o.id)
			}
		}
		r.queueCache[k] = set
	}
	for i, key := range r.portKeys(p.Name, set.ids) {
		o := set.objs[i]
		row := r.row("QUEUE", key, len(r.d.Ports)*len(set.objs), 2)
		if o.scheduler != "" {
			row["scheduler"] = o.scheduler
		}
		if o.wred != "" {
			row["wred_profile"] = o.wred
		}
	}
	return nil
}

// kind names a class's scheduler and WRED profile: CNP, LOSSLESS, LOSSY
// or STRICT (reference §4).
func kind(c intent.Class) string {
	switch {
	case c.CNP:
		return "CNP"
	case c.Lossless:
		return "LOSSLESS"
	case c.Scheduling.Mode == intent.SchedulingStrict:
		return "STRICT"
	}
	return "LOSSY"
}

// ObjectName returns the default name of a class's scheduler or WRED
// profile: <MAP>_CNP for the CNP class (one per profile, LL036), else
// <MAP>_<KIND>_<queue> ("ROCE_LOSSLESS_3"). It depends on the profile's
// DSCP_TO_TC_MAP name and the class alone, so adding, removing or
// changing another class renames nothing (issue 13: today's
// <MAP>_<KIND>, which became <MAP>_<KIND>_<queue> once a second class of
// the kind differed, renamed objects no change of theirs touched).
func ObjectName(mapName string, c intent.Class) string {
	k := kind(c)
	if k == "CNP" {
		return mapName + "_" + k
	}
	return mapName + "_" + k + "_" + strconv.Itoa(c.ID)
}

// claim returns the name of a class's object in table: the class's own
// name (explicit) or def. An explicit name holding other fields already
// is refused (object); a default one another profile on the device took
// with other fields (two per-port variants that share an explicit
// DSCP_TO_TC_MAP name) is suffixed _2, _3…, as map names are.
func (r *renderer) claim(table, explicit, def string, fields map[string]string) string {
	if explicit != "" {
		return explicit
	}
	name := def
	for i := 2; r.taken(table, name, fields); i++ {
		name = def + "_" + strconv.Itoa(i)
	}
	return name
}

// scheduler renders the class's SCHEDULER entry and returns its name; ""
// when the class leaves scheduling unset.
func (r *renderer) scheduler(c intent.Class, mapName string, p *intent.Port, where string) (string, error) {
	fields := map[string]string{}
	switch c.Scheduling.Mode {
	case intent.SchedulingUnset:
		if c.Scheduling.MinBandwidth > 0 || c.Scheduling.Shape > 0 {
			return "", r.unsupported(fmt.Sprintf("min_bandwidth or shape of class %q", c.Name), "SONiC shapes a queue in its SCHEDULER (cir, pir), and a SCHEDULER without a type is WRR with weight 1 (sonic-scheduler YANG defaults); give the class a scheduling mode")
		}
		return "", nil
	case intent.SchedulingStrict:
		fields["type"] = "STRICT"
	case intent.SchedulingDWRR:
		w := c.Scheduling.Weight
		if w == 0 {
			// A bandwidth share in percent is the DWRR weight: weights
			// 1–100 are relative shares of the port.
			w = int(c.Scheduling.Bandwidth)
		}
		if w < weightMin || w > weightMax {
			return "", r.unsupported(fmt.Sprintf("DWRR weight of class %q", c.Name), "%d is outside SONiC's scheduler weights %d–%d (sonic-scheduler YANG)", w, weightMin, weightMax)
		}
		fields["type"] = "DWRR"
		fields["weight"] = strconv.Itoa(w)
	default:
		return "", r.unsupported(fmt.Sprintf("scheduling of class %q", c.Name), "unknown scheduling mode %d", c.Scheduling.Mode)
	}
	def := ObjectName(mapName, c)
	perSpeed, err := r.shaping(c, p, fields)
	if err != nil {
		return "", err
	}
	if perSpeed {
		// A guaranteed share is bytes/s of the port's speed: one
		// scheduler per speed, as a WRED profile of time thresholds.
		def += "_" + p.Speed.String()
	}
	name := r.claim("SCHEDULER", c.Names.Scheduler, def, fields)
	if r.taken("SCHEDULER", name, fields) && perSpeed && c.Names.Scheduler != "" {
		return "", r.unsupported(fmt.Sprintf("min_bandwidth of class %q", c.Name), "scheduler %s would need a different cir for ports of different speeds (SONiC takes the guaranteed rate in bytes/s); leave names.scheduler unset for one scheduler per speed", name)
	}
	if err := r.object("SCHEDULER", name, fields, c.Names.Scheduler != "", fmt.Sprintf("class %q in %s", c.Name, where), "names.scheduler"); err != nil {
		return "", err
	}
	return name, nil
}

// shaping adds the class's guaranteed and maximum rate to its SCHEDULER
// fields: min_bandwidth as cir and shape as pir, in bytes/s (meter_type
// bytes, the YANG default, left out). orchagent sets cir as
// SAI_SCHEDULER_ATTR_MIN_BANDWIDTH_RATE and pir as
// SAI_SCHEDULER_ATTR_MAX_BANDWIDTH_RATE (sonic-net/SONiC
// doc/qos/scheduler/SONiC_QoS_Scheduler_Shaper.md §3.4; reference/sonic.md
// §1, §2.7). perSpeed says cir depends on the port's speed (a share of
// it). The YANG takes pir only with a cir above 0 and at least cir
// (sonic-scheduler: "pir can't be configured without cir", "pir must be
// greater than or equal to cir"), so a shape needs a min_bandwidth.
func (r *renderer) shaping(c intent.Class, p *intent.Port, fields map[string]string) (perSpeed bool, err error) {
	s := c.Scheduling
	var cir int64
	if s.MinBandwidth > 0 {
		if p.Speed <= 0 {
			return false, r.unsupported(fmt.Sprintf("min_bandwidth of class %q", c.Name), "SONiC takes the guaranteed rate (SCHEDULER cir) in bytes/s, and port %s has no speed to convert %s of it; give the speed in the inventory", p.Name, s.MinBandwidth)
		}
		share := int64(p.Speed) * int64(s.MinBandwidth) // bit/s × 100
		cir = (share + 799) / 800
		if cir*800 != share {
			r.warn(renderers.RuleRounded, "min_bandwidth %s of class %q on %s rounded up to %d bytes/s", s.MinBandwidth, c.Name, p.Speed, cir)
		}
		fields["cir"] = strconv.FormatInt(cir, 10)
	}
	if s.Shape > 0 {
		if cir == 0 {
			return false, r.unsupported(fmt.Sprintf("shape of class %q", c.Name), "SONiC's SCHEDULER takes a maximum rate (pir) only beside a guaranteed one (cir above 0; sonic-scheduler YANG: \"pir can't be configured without cir\"); give the class a min_bandwidth too")
		}
		pir := bytesPerSecond(int64(s.Shape))
		if pir*8 != int64(s.Shape) {
			r.warn(renderers.RuleRounded, "shape %s of class %q rounded up to %d bytes/s", s.Shape, c.Name, pir)
		}
		if pir < cir {
			return false, r.unsupported(fmt.Sprintf("shape of class %q", c.Name), "shape %s (%d bytes/s) is below its min_bandwidth %s of %s (%d bytes/s); the YANG requires pir ≥ cir", s.Shape, pir, s.MinBandwidth, p.Speed, cir)
		}
		fields["pir"] = strconv.FormatInt(pir, 10)
	}
	return cir > 0, nil
}

// bytesPerSecond converts a rate in bit/s to bytes/s, rounding up.
func bytesPerSecond(bits int64) int64 { return (bits + 7) / 8 }

// checkStrictOrder rejects strict levels SONiC cannot honour: strict
// queues are served by queue index, highest first [I: SAI strict priority
// by queue index, as in SONiC's own templates].
func (r *renderer) checkStrictOrder(q *intent.QoS) error {
	for _, a := range q.Classes {
		for _, b := range q.Classes {
			if a.Scheduling.Mode != intent.SchedulingStrict || b.Scheduling.Mode != intent.SchedulingStrict {
				continue
			}
			if a.ID > b.ID && a.Scheduling.Level != 0 && b.Scheduling.Level != 0 && a.Scheduling.Level > b.Scheduling.Level {
				return r.unsupported(fmt.Sprintf("strict priority of class %q", a.Name), "strict queues are served by queue index, so queue %d cannot have a lower priority level (%d) than queue %d (%d)", a.ID, a.Scheduling.Level, b.ID, b.Scheduling.Level)
			}
		}
	}
	return nil
}

// wred renders the class's WRED_PROFILE: WRED and ECN on green, green
// thresholds in bytes and the marking probability as
// green_drop_probability (reference §2.8, §4); and for a yellow or red
// block of the intent, WRED on that colour with its thresholds and
// probability, marked (the colour in the ecn mode) or dropped (reference
// §2.8, wredColor, ecnMode).
func (r *renderer) wred(c intent.Class, mapName string, p *intent.Port, where string) (string, error) {
	e := c.ECN
	feature := fmt.Sprintf("ECN of class %q", c.Name)
	// WRED_PROFILE has no averaging weight field, so orchagent never sets
	// SAI_WRED_ATTR_WEIGHT and SAI's default 0 applies (SAI metadata for
	// saiwred.h: SAI_WRED_ATTR_WEIGHT default u8 0): weight 0 is what
	// SONiC does, any other weight cannot be expressed.
	if e.Weight != nil && *e.Weight != 0 {
		return "", r.unsupported(feature+" weight", "SONiC's WRED_PROFILE has no averaging weight field (sonic-wred-profile YANG), so the weight is SAI's default 0; use 0 or leave it unset")
	}
	fields := map[string]string{"wred_green_enable": "true"}
	if err := r.wredColor(fields, "green", feature, e.Min, e.Max, e.MaxProbability, e.DefaultProbability, p); err != nil {
		return "", err
	}
	marks := []string{"green"}
	timed := e.Min.Time != 0 || e.Max.Time != 0
	for _, col := range []struct {
		name string
		c    *intent.ColorWRED
	}{{"yellow", e.Yellow}, {"red", e.Red}} {
		if col.c == nil {
			continue
		}
		fields["wred_"+col.name+"_enable"] = "true"
		if err := r.wredColor(fields, col.name, fmt.Sprintf("%s %s WRED", feature, col.name), col.c.Min, col.c.Max, col.c.MaxProbability, false, p); err != nil {
			return "", err
		}
		if !col.c.Drop {
			marks = append(marks, col.name)
		}
		timed = timed || col.c.Min.Time != 0 || col.c.Max.Time != 0
	}
	fields["ecn"] = ecnMode(marks)
	def := ObjectName(mapName, c)
	if timed {
		// Time thresholds depend on the port speed: one profile per speed.
		def += "_" + p.Speed.String()
	}
	name := r.claim("WRED_PROFILE", c.Names.DropProfile, def, fields)
	if err := r.checkName(fmt.Sprintf("WRED profile name (names.drop_profile of class %q)", c.Name), name); err != nil {
		return "", err
	}
	if r.taken("WRED_PROFILE", name, fields) && timed && c.Names.DropProfile != "" {
		return "", r.unsupported(feature, "WRED profile %s would need different byte thresholds for ports of different speeds (the thresholds are times); give the thresholds in bytes or leave names.drop_profile unset for one profile per speed", name)
	}
	if err := r.object("WRED_PROFILE", name, fields, c.Names.DropProfile != "", fmt.Sprintf("class %q in %s", c.Name, where), "names.drop_profile"); err != nil {
		return "", err
	}
	return name, nil
}

// wredColor writes one colour's <colour>_min_threshold,
// <colour>_max_threshold (bytes, max ≥ min: the YANG must; below 2^31:
// orchagent's stoi) and <colour>_drop_probability (percent 0..100). With
// defaultProb the probability is left out: the YANG default is 100
// (sonic-wred-profile "default 100"), which orchagent also sends when
// wred_<colour>_enable is true and the field is absent (qosorch.cpp
// WredMapHandler::addQosItem; reference §2.8). 0 is in the range and is
// written as such.
func (r *renderer) wredColor(fields map[string]string, colour, feature string, minT, maxT intent.Threshold, prob units.Percent, defaultProb bool, p *intent.Port) error {
	if prob < 0 || prob > 100 {
		return r.unsupported(feature, "probability %d is outside 0–100 percent", prob)
	}
	lo, err := r.thresholdBytes(feature+" min threshold", minT, p)
	if err != nil {
		return err
	}
	hi, err := r.thresholdBytes(feature+" max threshold", maxT, p)
	if err != nil {
		return err
	}
	if lo > hi {
		return r.unsupported(feature, "min threshold %dB is above max %dB (the YANG requires max ≥ min)", int64(lo), int64(hi))
	}
	if hi > wredMax {
		return r.unsupported(feature, "max threshold %dB does not fit orchagent's 32-bit parse (at most %d bytes, reference/sonic.md §2.8)", int64(hi), wredMax)
	}
	fields[colour+"_min_threshold"] = strconv.FormatInt(int64(lo), 10)
	fields[colour+"_max_threshold"] = strconv.FormatInt(int64(hi), 10)
	if !defaultProb {
		fields[colour+"_drop_probability"] = strconv.Itoa(int(prob))
	}
	return nil
}

// ecnMode is the WRED_PROFILE ecn value that marks the colours given
// (green first, then yellow, then red): the sonic-wred-profile YANG's
// enumeration ecn_none, ecn_green … ecn_all, which orchagent maps to
// SAI_WRED_ATTR_ECN_MARK_MODE (qosorch.cpp ecn_map). The intent marks
// green always, so only ecn_green, ecn_green_yellow, ecn_green_red and
// ecn_all are rendered; SONiC's qos_config.j2 AZURE_LOSSLESS marks every
// colour with WRED on each (ecn_all).
func ecnMode(colours []string) string {
	if len(colours) == 3 {
		return "ecn_all"
	}
	if len(colours) == 0 {
		return "ecn_none"
	}
	return "ecn_" + strings.Join(colours, "_")
}

// thresholdBytes converts a threshold to bytes; a time uses the port speed.
func (r *renderer) thresholdBytes(feature string, t intent.Threshold, p *intent.Port) (units.Bytes, error) {
	if t.Time == 0 {
		return t.Bytes, nil
	}
	if p.Speed == 0 {
		return 0, r.unsupported(feature+" "+t.Time.String(), "SONiC takes WRED thresholds in bytes and port %s has no speed to convert the time; give the speed in the inventory or the threshold in bytes", p.Name)
	}
	return p.Speed.BytesIn(t.Time), nil
}

// watchdogGlobal renders PFC_WD|GLOBAL POLL_INTERVAL from the device's
// watchdog polling time.
func (r *renderer) watchdogGlobal() error {
	w := r.d.QoS.PFC.Watchdog
	if w == nil || w.Polling == 0 {
		return nil
	}
	if !r.anyLossless() {
		return nil
	}
	ms, err := r.ms("PFC watchdog polling", w.Polling, pollMin, pollMax)
	if err != nil {
		return err
	}
	r.set("PFC_WD", wdGlobal, "POLL_INTERVAL", ms)
	if det, rest := r.watchdogTimes(w); det < w.Polling || rest < w.Polling {
		return r.unsupported("PFC watchdog polling "+w.Polling.String(), "detection (%s) and restoration (%s) must be at least the polling interval (sonic-pfcwd YANG)", det, rest)
	}
	return nil
}

func (r *renderer) anyLossless() bool {
	for _, p := range r.d.Ports {
		q := p.QoS
		if q == nil {
			q = r.d.QoS
		}
		if slices.ContainsFunc(q.Classes, func(c intent.Class) bool { return c.Lossless }) {
			return true
		}
	}
	return false
}

// watchdogPort renders the port's PFC_WD entry (times in ms, §2.16).
func (r *renderer) watchdogPort(p *intent.Port, q *intent.QoS, pr *profile) error {
	w := q.PFC.Watchdog
	if w == nil {
		return nil
	}
	if dw := r.d.QoS.PFC.Watchdog; w.Polling != 0 && (dw == nil || dw.Polling != w.Polling) {
		return r.unsupported("PFC watchdog polling of port "+p.Name, "POLL_INTERVAL is switch-wide (PFC_WD|GLOBAL), so ports cannot override it")
	}
	if pr.watchdog == nil {
		f, err := r.watchdogFields(w)
		if err != nil {
			return err
		}
		pr.watchdog = &f
	}
	row := r.row("PFC_WD", p.Name, len(r.d.Ports)+1, 4)
	row["action"] = pr.watchdog[0]
	row["detection_time"] = pr.watchdog[1]
	row["restoration_time"] = pr.watchdog[2]
	// What `pfcwd start_default` writes (reference §2.16, §5).
	row["pfc_stat_history"] = pfcStatHistory
	return nil
}

// watchdogFields returns a watchdog's action, detection and restoration
// time as PFC_WD writes them.
func (r *renderer) watchdogFields(w *intent.Watchdog) ([3]string, error) {
	var action string
	switch w.Action {
	case "", "drop":
		action = "drop"
	case "forward":
		action = "forward"
	case "notify-only":
		action = "alert"
	default:
		return [3]string{}, r.unsupported("PFC watchdog action "+strconv.Quote(w.Action), "SONiC's watchdog actions are drop, forward and alert (notify-only) (sonic-pfcwd YANG)")
	}
	det, rest := r.watchdogTimes(w)
	dms, err := r.ms("PFC watchdog detection", det, detectMin, detectMax)
	if err != nil {
		return [3]string{}, err
	}
	rms, err := r.ms("PFC watchdog restoration", rest, restoreMin, restoreMax)
	if err != nil {
		return [3]string{}, err
	}
	return [3]string{action, dms, rms}, nil
}

// watchdogTimes returns the detection and restoration times, with SONiC's
// defaults for the ones the intent leaves unset: what `pfcwd
// start_default` writes, 200 ms × k with k = ceil(ports / 32) (reference
// §2.16), counting the managed ports. They cannot be left out: orchagent
// starts no watchdog on an entry without detection_time (sonic-swss
// orchagent/pfcwdorch.cpp createEntry: "detection_time missing").
func (r *renderer) watchdogTimes(w *intent.Watchdog) (det, rest time.Duration) {
	def := time.Duration(200*((len(r.d.Ports)+31)/32)) * time.Millisecond
	det, rest = w.Detection, w.Restoration
	if det == 0 {
		det = def
	}
	if rest == 0 {
		rest = def
	}
	return det, rest
}

// ms converts a duration to whole milliseconds, rounding up with a
// warning, and checks the YANG range.
func (r *renderer) ms(what string, v, lo, hi time.Duration) (string, error) {
	n := (v + time.Millisecond - 1) / time.Millisecond
	if n*time.Millisecond != v {
		r.warn(renderers.RuleRounded, "%s %s rounded up to %dms", what, v, n)
	}
	if n*time.Millisecond < lo || n*time.Millisecond > hi {
		return "", r.unsupported(what+" "+v.String(), "SONiC takes %d–%d ms (sonic-pfcwd YANG)", lo.Milliseconds(), hi.Milliseconds())
	}
	return strconv.FormatInt(int64(n), 10), nil
}

// buffers renders CABLE_LENGTH, the lossless PG profile, BUFFER_PG and
// BUFFER_QUEUE of a lossless port (reference §2.10–2.14).
func (r *renderer) buffers(p *intent.Port, pr *profile) error {
	lossless := pr.lossless
	if p.Cable <= 0 {
		return r.unsupported("cable length of port "+p.Name, "buffermgrd gives a port a lossless PG only with a cable length (not 0m, reference/sonic.md §10); set cable in the inventory")
	}
	if p.Speed <= 0 {
		return r.unsupported("speed of port "+p.Name, "the lossless PG profile is named and sized per speed (reference/sonic.md §2.12); set speed in the inventory")
	}
	m := (p.Cable + units.Metre - 1) / units.Metre
	if m*units.Metre != p.Cable {
		r.warn(renderers.RuleRounded, "cable length of %s %s rounded up to %dm", p.Name, p.Cable, m)
	}
	cable, ok := r.cables[m]
	if !ok {
		cable = strconv.FormatInt(int64(m), 10) + "m"
		r.cables[m] = cable
	}
	r.row("CABLE_LENGTH", cableGroup, 1, len(r.d.Ports))[p.Name] = cable

	if len(p.Headroom) == 0 {
		return r.unsupported("headroom of port "+p.Name, "the port has lossless classes but no computed headroom")
	}
	h := p.Headroom[0]
	for _, o := range p.Headroom[1:] {
		if o.Xoff != h.Xoff || o.Xon != h.Xon || o.Size != h.Size {
			return r.unsupported("headroom of port "+p.Name, "priorities %d and %d need different headroom, but SONiC gives every lossless PG of a port one profile per (speed, cable) (reference/sonic.md §2.12)", h.Priority, o.Priority)
		}
	}
	k := bufferKey{speed: p.Speed, cable: cable, xoff: h.Xoff, xon: h.Xon, size: h.Size, lossless: pr.pfc}
	b, ok := r.bufferCache[k]
	if !ok {
		var err error
		if b, err = r.bufferObjects(p, k, lossless); err != nil {
			return err
		}
		r.bufferCache[k] = b
	}
	keys := r.portKeys(p.Name, b.suffixes)
	pgs, queues := keys[:1+len(b.pgs)], keys[1+len(b.pgs):]
	n := len(r.d.Ports)
	r.row("BUFFER_PG", pgs[0], n*len(pgs), 1)["profile"] = ingressLossyProfile
	for _, k := range pgs[1:] {
		r.row("BUFFER_PG", k, n*len(pgs), 1)["profile"] = b.profile
	}
	for i, k := range queues {
		r.row("BUFFER_QUEUE", k, n*len(queues), 1)["profile"] = b.queues[i].profile
	}
	return nil
}

// portKeys returns port+"|"+s for each suffix s, cut from one string so
// that a port's keys cost one allocation. The slice is reused by the next
// call.
func (r *renderer) portKeys(port string, suffixes []string) []string {
	n := 0
	for _, s := range suffixes {
		n += len(port) + 1 + len(s)
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range suffixes {
		b.WriteString(port)
		b.WriteByte('|')
		b.WriteString(s)
	}
	all := b.String()
	r.keys = r.keys[:0]
	for _, s := range suffixes {
		n := len(port) + 1 + len(s)
		r.keys = append(r.keys, all[:n])
		all = all[n:]
	}
	return r.keys
}

// bufferKey is what a port's buffer objects depend on.
type bufferKey struct {
	speed           units.BitRate
	cable           string
	xoff, xon, size units.Bytes
	lossless        string
}

// bufferObjects are the lossless PG profile of a (speed, cable, headroom)
// and the PG and queue ranges of a lossless priority set.
type bufferObjects struct {
	profile string
	pgs     []string
	queues  []struct{ rng, profile string }
	// suffixes are the BUFFER_PG key suffixes ("0", then pgs) followed by
	// the BUFFER_QUEUE ones (the queue ranges).
	suffixes []string
}

// bufferObjects renders the lossless PG profile and computes the ranges.
func (r *renderer) bufferObjects(p *intent.Port, k bufferKey, lossless []int) (bufferObjects, error) {
	th := defaultDynamicTh
	if b := r.d.Buffers; b != nil && b.Alpha != nil {
		th = *b.Alpha
		if th < dynThMin || th > dynThMax {
			return bufferObjects{}, r.unsupported(fmt.Sprintf("buffer alpha %d", th), "dynamic_th is −8..7 (sonic-buffer-profile YANG)")
		}
	}
	// buffermgrd's own name for this profile, so it finds it present and
	// leaves it alone (reference §2.12–2.13, §4).
	mb := int64(p.Speed / units.Mbps)
	prof := fmt.Sprintf("pg_lossless_%d_%s_profile", mb, k.cable)
	fields := map[string]string{
		"pool":       losslessPool,
		"size":       strconv.FormatInt(int64(k.size), 10),
		"xoff":       strconv.FormatInt(int64(k.xoff), 10),
		"xon":        strconv.FormatInt(int64(k.xon), 10),
		"xon_offset": strconv.FormatInt(int64(k.xon), 10), // SKU rows give xon = xon_offset (reference §4: 2288 / 2288) [I]
		"dynamic_th": strconv.Itoa(th),
	}
	if r.taken("BUFFER_PROFILE", prof, fields) {
		return bufferObjects{}, r.unsupported("headroom of port "+p.Name, "ports with the same speed and cable (%s) need different headroom, but share buffermgrd's profile %s", k.cable, prof)
	}
	for f, v := range fields {
		r.set("BUFFER_PROFILE", prof, f, v)
	}
	b := bufferObjects{profile: prof, pgs: ranges(lossless, func(int) bool { return true })}
	isLossless := func(q int) bool { return slices.Contains(lossless, q) }
	last := max(r.fam.lastQueue, lossless[len(lossless)-1])
	all := make([]int, last+1)
	for i := range all {
		all[i] = i
	}
	for _, rg := range ranges(all, isLossless) {
		prof := r.fam.lossyQueueProfile
		first, _, _ := strings.Cut(rg, "-")
		if n, _ := strconv.Atoi(first); isLossless(n) {
			prof = egressLosslessProfile
		}
		b.queues = append(b.queues, struct{ rng, profile string }{rg, prof})
	}
	b.suffixes = append([]string{"0"}, b.pgs...)
	for _, q := range b.queues {
		b.suffixes = append(b.suffixes, q.rng)
	}
	return b, nil
}

// ranges groups ascending ints into "a-b" runs of consecutive values with
// the same class (buffermgrd's grouping: 3,4 → "3-4", 3 → "3").
func ranges(v []int, class func(int) bool) []string {
	var out []string
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 && class(v[j+1]) == class(v[i]) {
			j++
		}
		if i == j {
			out = append(out, strconv.Itoa(v[i]))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", v[i], v[j]))
		}
		i = j + 1
	}
	return out
}

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, sep)
}

// disruptive lists the rendered parts that `config apply-patch` may refuse
// to change in place (reference/sonic.md §7.2).
func (r *renderer) disruptive() []string {
	var out []string
	for _, p := range sortedKeys(r.db["BUFFER_PROFILE"]) {
		out = append(out, "BUFFER_PROFILE|"+p+": apply-patch changes only dynamic_th and xoff of an existing profile in place, and only on listed ASICs and images; other changes need the whole profile replaced or a config reload (reference/sonic.md §7.2)")
	}
	if len(r.db["PFC_WD"]) > 0 {
		out = append(out, "PFC_WD: apply-patch changes watchdog fields only on listed ASICs and images (unknown ASICs are refused) and never removes GLOBAL POLL_INTERVAL; elsewhere a change needs `pfcwd` commands or a config reload (reference/sonic.md §7.2)")
	}
	return out
}
