package sonic

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/intent/headroom"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors"
)

// Saved turns a saved config_db.json (`config save`, `show
// runningconfiguration all`; a multi-ASIC file's "localhost" scope) into
// what Running returns: the tables lossless reads, printed as
// config_db.json. A file that is not a CONFIG_DB document (not JSON, not
// an object of tables, or holding no table of a SONiC switch) is refused.
func Saved(file []byte) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(file, &top); err != nil {
		return nil, fmt.Errorf("read saved config: not a config_db.json (a JSON object of CONFIG_DB tables): %w", err)
	}
	if inner, ok := top["localhost"]; ok && len(top) > 0 && top["DEVICE_METADATA"] == nil {
		if err := json.Unmarshal(inner, &top); err != nil {
			return nil, fmt.Errorf("read saved config: localhost: not an object of CONFIG_DB tables: %w", err)
		}
	}
	known := false
	for tn, v := range top {
		if t := bytes.TrimSpace(v); len(t) == 0 || t[0] != '{' {
			return nil, fmt.Errorf("read saved config: table %s is not a JSON object; a config_db.json holds {TABLE: {key: {field: value}}}", tn)
		}
		if readTables[tn] || tn == "DEVICE_METADATA" || tn == "PORT" {
			known = true
		}
	}
	if !known {
		return nil, errors.New("read saved config: no CONFIG_DB table (DEVICE_METADATA, PORT or a QoS table): not a SONiC config_db.json")
	}
	db, err := ParseRunning(file)
	if err != nil {
		return nil, fmt.Errorf("read saved config: %w", err)
	}
	return render.Text(db), nil
}

// Names and values of SONiC's templates that the rendering uses and
// import therefore expects (renderers/sonic, reference/sonic.md §2.10–2.14).
const (
	cableGroup          = "AZURE"
	losslessPool        = "ingress_lossless_pool"
	ingressLossyProfile = "ingress_lossy_profile"
	pgProfilePrefix     = "pg_lossless_"
	pgProfileSuffix     = "_profile"
	dscpCount           = 64
)

// portQoSFields are the PORT_QOS_MAP fields of a port that import reads;
// any other is unexpressed.
var portQoSFields = map[string]bool{
	"dscp_to_tc_map": true, "tc_to_queue_map": true, "tc_to_pg_map": true, "pfc_to_queue_map": true,
	"pfc_to_pg_map": true, "pfc_enable": true, "pfcwd_sw_enable": true, "dot1p_to_tc_map": true,
}

// Import reads a device's QoS from what Running returns (or Saved makes
// of a config_db.json): the ports are the PORT_QOS_MAP rows that bind a
// DSCP map, or an 802.1p map alone (trust = "cos"), only those of dev's
// inventory ports when it declares any; each port's classes are its
// map's TCs, its QUEUE rows' schedulers (cir as min_bandwidth, pir as
// shape) and WRED profiles (with their yellow and red WRED, wred) and its
// pfc_enable priorities, and its watchdog the PFC_WD row with the
// pfcwd_sw_enable priorities; a TC→PG map sending TC 7 to PG 7 is option
// sonic.tc_to_pg_map = "template" (options). The QoS
// most ports share is Imported.QoS (one that trusts CoS if any port
// does), the others' their own. Names: Classifier is always set (the
// renderer's default derives from a profile name import does not
// choose); the maps, scheduler and WRED profile names are set where they
// differ from the renderer's defaults for that classifier. Buffers: the
// lossless PG profiles' headroom is "auto" where every one equals
// lossless' computation for dev's platform, else explicit.
//
// Everything in the scope the intent cannot say is in Unexpressed with
// the line of the table key or field in running: what import reads and
// cannot express (an ECN mode that does not mark green or marks a colour
// with its WRED off, burst sizes and packet rates, a
// guaranteed rate that is not a whole percent of the port, non-identity
// maps, a watchdog on priorities without PFC…), and whatever else the
// rendering of the imported intent would change in the scope (the
// round-trip residue).
func Import(dev *inventory.Device, running []byte) (*vendors.Imported, error) {
	name := "device"
	if dev != nil {
		name = dev.Name
	}
	db, err := ParseRunning(running)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	lines, err := lineIndex(running)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	im := &importer{dev: dev, db: db, lines: lines, seen: map[string]bool{}}
	out, err := im.run()
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	return out, nil
}

// importer holds one Import.
type importer struct {
	dev   *inventory.Device
	db    config.DB
	lines map[string]int
	out   []vendors.Unexpressed
	// seen holds the table|key (and table|key|field) already reported.
	seen map[string]bool
	// polling is PFC_WD|GLOBAL's POLL_INTERVAL, 0 when unset.
	polling time.Duration
}

// lineIndex returns the 1-based line of each table ("T"), row ("T|k")
// and field ("T|k\x00f") key of a CONFIG_DB JSON document.
func lineIndex(b []byte) (map[string]int, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	idx := map[string]int{}
	line, pos := 1, 0
	// frame is one open object or array: whether the next token is a
	// key, and the last key read.
	type frame struct {
		object, wantKey bool
		key             string
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return idx, nil
		}
		if err != nil {
			return nil, fmt.Errorf("index lines: %w", err)
		}
		n := len(stack)
		if k, isKey := tok.(string); isKey && n > 0 && stack[n-1].object && stack[n-1].wantKey {
			stack[n-1].key, stack[n-1].wantKey = k, false
			off := int(dec.InputOffset())
			line += bytes.Count(b[pos:off], []byte{'\n'})
			pos = off
			switch n {
			case 1:
				idx[k] = line
			case 2:
				idx[stack[0].key+"|"+k] = line
			case 3:
				idx[stack[0].key+"|"+stack[1].key+"\x00"+k] = line
			}
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, frame{object: tok == json.Delim('{'), wantKey: true})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:n-1]
			n--
		}
		if n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
}

// line returns the line of table|key, or of its field when field is set.
func (im *importer) line(table, key, field string) int {
	if field != "" {
		if l, ok := im.lines[table+"|"+key+"\x00"+field]; ok {
			return l
		}
	}
	if l, ok := im.lines[table+"|"+key]; ok {
		return l
	}
	return im.lines[table]
}

// unexpressed records table|key (field: one of its fields) once.
func (im *importer) unexpressed(table, key, field, reason string, args ...any) {
	id := table + "|" + key
	if field != "" {
		id += "\x00" + field
	}
	if im.seen[id] {
		return
	}
	im.seen[id] = true
	im.seen[table+"|"+key+"\x00*"] = true // the row has a report
	text := table + "|" + key
	if field != "" {
		text += " " + strconv.Quote(field) + ": " + strconv.Quote(im.db[table][key][field])
	}
	im.out = append(im.out, vendors.Unexpressed{Line: im.line(table, key, field), Text: text, Reason: fmt.Sprintf(reason, args...)})
}

// portImport is what import reads of one port.
type portImport struct {
	name  string
	qos   *intent.QoS
	speed units.BitRate
	cable units.Length
	// pg is the port's lossless PG profile name, "" for none.
	pg string
}

func (im *importer) run() (*vendors.Imported, error) {
	if g := im.db["PFC_WD"][globalWD]; g != nil {
		if v, ok := g["POLL_INTERVAL"]; ok {
			ms, err := strconv.Atoi(v)
			if err != nil || ms <= 0 {
				im.unexpressed("PFC_WD", globalWD, "POLL_INTERVAL", "not a number of milliseconds")
			} else {
				im.polling = time.Duration(ms) * time.Millisecond
			}
		}
	}
	var ports []*portImport
	for _, p := range sortedKeys(im.db["PORT_QOS_MAP"]) {
		m := im.db["PORT_QOS_MAP"][p]
		if p == globalQoS || m["dscp_to_tc_map"] == "" && m["dot1p_to_tc_map"] == "" || !im.managed(p) {
			continue
		}
		pi, err := im.port(p)
		if err != nil {
			return nil, err
		}
		ports = append(ports, pi)
	}
	slices.SortFunc(ports, func(a, b *portImport) int { return inventory.ComparePorts(a.name, b.name) })
	out := &vendors.Imported{}
	if len(ports) == 0 {
		im.finish(out)
		return out, nil
	}
	// The QoS most ports have is the device's (the first port's on a tie).
	keys := make([]string, len(ports))
	count := map[string]int{}
	byKey := map[string]*intent.QoS{}
	for i, p := range ports {
		b, err := json.Marshal(p.qos)
		if err != nil {
			return nil, fmt.Errorf("port %s: %w", p.name, err)
		}
		keys[i] = string(b)
		count[keys[i]]++
		if byKey[keys[i]] == nil {
			byKey[keys[i]] = p.qos
		}
	}
	// Only a QoS whose DSCP map is bound switch-wide can be the device's
	// (the rendering binds the device's map in PORT_QOS_MAP|global).
	// A port that trusts CoS needs a device that trusts CoS (the
	// renderer binds no DSCP map switch-wide then), so the device's QoS
	// is one of those if any port has one.
	g := im.db["PORT_QOS_MAP"][globalQoS]["dscp_to_tc_map"]
	cos := slices.ContainsFunc(ports, func(p *portImport) bool { return p.qos.Trust == intent.TrustCoS })
	best := ""
	for _, k := range keys {
		bound := g == "" || byKey[k].Names.Classifier == g
		if cos {
			bound = byKey[k].Trust == intent.TrustCoS
		}
		if bound && (best == "" || count[k] > count[best]) {
			best = k
		}
	}
	if best == "" {
		best = keys[0]
		for _, k := range keys {
			if count[k] > count[best] {
				best = k
			}
		}
	}
	out.QoS = byKey[best]
	if g != "" && out.QoS.Trust == intent.TrustCoS {
		im.unexpressed("PORT_QOS_MAP", globalQoS, "dscp_to_tc_map", "the device's QoS trusts CoS, and lossless binds no DSCP map switch-wide then (qos_config.j2, storage back-end)")
	} else if g != "" && g != out.QoS.Names.Classifier {
		im.unexpressed("PORT_QOS_MAP", globalQoS, "dscp_to_tc_map", "lossless binds the device's own DSCP map (%s) switch-wide", out.QoS.Names.Classifier)
	}
	im.splitMaps(ports, out.QoS)
	for i, p := range ports {
		ip := vendors.ImportedPort{Name: p.name, Speed: p.speed, Cable: p.cable}
		if keys[i] != best {
			ip.QoS = byKey[keys[i]]
		}
		out.Ports = append(out.Ports, ip)
	}
	out.Buffers = im.buffers(ports)
	out.Options = im.options(ports)
	im.residue(out)
	im.finish(out)
	return out, nil
}

// options returns the renderer options the running config asks for:
// sonic.tc_to_pg_map = "template" when the TC→PG map of every imported
// port sends TC 7 to PG 7 and TC 7 is not lossless on some of them, as
// SONiC's qos_config.j2 AZURE map does (renderers/sonic OptionTCToPG).
func (im *importer) options(ports []*portImport) map[string]string {
	lossy7 := false
	for _, p := range ports {
		m := im.db["TC_TO_PRIORITY_GROUP_MAP"][bareRefs(im.db["PORT_QOS_MAP"][p.name]["tc_to_pg_map"])]
		if m["7"] != "7" {
			return nil
		}
		lossy7 = lossy7 || !slices.Contains(p.qos.LosslessPriorities(), 7)
	}
	if !lossy7 {
		return nil
	}
	return map[string]string{render.OptionTCToPG: render.TCToPGTemplate}
}

// splitMaps gives a per-port QoS its own maps name where the device's maps
// serve ports of different PFC priorities: lossless derives the TC→PG
// (and PFC priority → PG) map from the lossless classes, so one map cannot
// serve both, and the import names the other one <maps>_<n>, as the
// renderer names a per-port variant. The device's own QoS keeps its name.
func (im *importer) splitMaps(ports []*portImport, dev *intent.QoS) {
	effective := func(q *intent.QoS) string { return cmp.Or(q.Names.Maps, q.Names.Classifier) }
	used := map[string]string{effective(dev): fmt.Sprint(dev.LosslessPriorities())}
	renamed := map[*intent.QoS]bool{dev: true}
	for _, p := range ports {
		q := p.qos
		if renamed[q] {
			continue
		}
		renamed[q] = true
		name, pfc := effective(q), fmt.Sprint(q.LosslessPriorities())
		if have, ok := used[name]; !ok || have == pfc {
			used[name] = pfc
			continue
		}
		n := name
		for i := 2; used[n] != "" && used[n] != pfc; i++ {
			n = name + "_" + strconv.Itoa(i)
		}
		used[n] = pfc
		q.Names.Maps = n
		im.unexpressed("PORT_QOS_MAP", p.name, "tc_to_pg_map", "ports with PFC on %v share the maps %s with ports of PFC on %v; lossless derives the TC→PG map from the lossless classes (issue 13: Buffers, the TC→PG map), so the import names this port's maps %s", q.LosslessPriorities(), name, used[name], n)
	}
}

func (im *importer) finish(out *vendors.Imported) {
	slices.SortStableFunc(im.out, func(a, b vendors.Unexpressed) int { return a.Line - b.Line })
	out.Unexpressed = im.out
}

// managed reports whether port p is one import reads: any port when dev
// declares none, else a declared one.
func (im *importer) managed(p string) bool {
	if im.dev == nil || len(im.dev.Ports) == 0 {
		return true
	}
	return slices.ContainsFunc(im.dev.Ports, func(ip *inventory.Port) bool { return ip.Name == p })
}

// port reads one port's QoS.
func (im *importer) port(p string) (*portImport, error) {
	m := im.db["PORT_QOS_MAP"][p]
	pi := &portImport{name: p}
	for _, f := range sortedKeys(m) {
		if !portQoSFields[f] {
			im.unexpressed("PORT_QOS_MAP", p, f, "the intent classifies by DSCP only and binds no %s (issue 13: CoS trust, DSCP remarking, port schedulers)", f)
		}
	}
	classifier := m["dscp_to_tc_map"]
	q := &intent.QoS{Trust: intent.TrustDSCP, Names: intent.Names{Classifier: classifier}}
	dot1p := m["dot1p_to_tc_map"]
	switch {
	case dot1p != "" && classifier == "":
		// CoS trust as SONiC's template renders it (storage back-end,
		// qos_config.j2): a dot1p map and no DSCP map on the port.
		classifier = dot1p
		q.Trust, q.Names.Classifier = intent.TrustCoS, dot1p
	case dot1p != "":
		im.unexpressed("PORT_QOS_MAP", p, "dot1p_to_tc_map", "a port that binds both a DSCP and a CoS map: lossless binds one, by the profile's trust (CoS trust binds dot1p_to_tc_map alone, as qos_config.j2 does; no SONiC source shows which map classifies what when both are bound)")
		dot1p = ""
	}
	lossless, ok := priorities(m["pfc_enable"])
	if !ok {
		im.unexpressed("PORT_QOS_MAP", p, "pfc_enable", "not a list of priorities 0–7")
	}
	// The maps: one name for the TC→queue, TC→PG, PFC→queue (and PFC→PG)
	// maps; names.maps where it is not the DSCP map's.
	mapsName := ""
	for _, f := range []string{"tc_to_queue_map", "tc_to_pg_map", "pfc_to_queue_map", "pfc_to_pg_map"} {
		v, ok := m[f]
		if !ok {
			continue
		}
		if mapsName == "" {
			mapsName = v
		} else if v != mapsName {
			im.unexpressed("PORT_QOS_MAP", p, f, "lossless names the TC→queue, TC→PG and PFC priority maps alike (names.maps = %q)", mapsName)
		}
	}
	if mapsName != "" && mapsName != classifier {
		q.Names.Maps = mapsName
	}
	var tcs []int
	if q.Trust == intent.TrustCoS {
		tcs = im.dot1pMap(dot1p)
	} else {
		tcs = im.dscpMap(classifier)
	}
	ids := map[int]bool{}
	for _, t := range tcs {
		if t >= 0 {
			ids[t] = true
		}
	}
	for _, l := range lossless {
		ids[l] = true
	}
	queues := map[int]map[string]string{}
	for _, k := range sortedKeys(im.db["QUEUE"]) {
		port, idx, _ := strings.Cut(k, "|")
		if port != p {
			continue
		}
		n, err := strconv.Atoi(idx)
		if err != nil || n < 0 || n > 7 || strconv.Itoa(n) != idx {
			im.unexpressed("QUEUE", k, "", "lossless configures queues 0–7 one by one (a class per queue), not a range")
			continue
		}
		queues[n] = im.db["QUEUE"][k]
		ids[n] = true
	}
	im.cable(pi)
	im.pgs(pi, lossless)
	speed := pi.speed
	if ip := im.invPort(p); speed == 0 && ip != nil {
		speed = ip.Speed
	}
	def := defaultTC(tcs)
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		c := intent.Class{Name: "tc" + strconv.Itoa(id), ID: id, Lossless: slices.Contains(lossless, id)}
		var values []int
		if id != def {
			for v, t := range tcs {
				if t == id {
					values = append(values, v)
				}
			}
		}
		if q.Trust == intent.TrustCoS {
			c.DefaultCoS, c.CoS = id == def, values
		} else {
			c.Default, c.DSCP = id == def, values
		}
		q.Classes = append(q.Classes, c)
	}
	if def < 0 && len(q.Classes) > 0 {
		if q.Trust == intent.TrustCoS {
			q.Classes[0].DefaultCoS = true
		} else {
			q.Classes[0].Default = true
		}
	}
	for i := range q.Classes {
		c := &q.Classes[i]
		row, key := queues[c.ID], p+"|"+strconv.Itoa(c.ID)
		for _, f := range sortedKeys(row) {
			if f != "scheduler" && f != "wred_profile" {
				im.unexpressed("QUEUE", key, f, "the intent sets a queue's scheduler and WRED profile only")
			}
		}
		if s := row["scheduler"]; s != "" {
			c.Scheduling = im.scheduler(s, p, speed)
		}
		if w := row["wred_profile"]; w != "" {
			c.ECN = im.wred(w)
		}
	}
	markCNP(q)
	for i := range q.Classes {
		c := &q.Classes[i]
		row := queues[c.ID]
		def := render.ObjectName(classifier, *c)
		if c.Scheduling.MinBandwidth > 0 {
			def += "_" + speed.String() // one scheduler per speed (renderers/sonic scheduler)
		}
		if s := row["scheduler"]; s != "" && s != def {
			c.Names.Scheduler = s
		}
		if w := row["wred_profile"]; w != "" && w != render.ObjectName(classifier, *c) {
			c.Names.DropProfile = w
		}
	}
	wd, err := im.watchdog(p, m, lossless)
	if err != nil {
		return nil, err
	}
	q.PFC.Watchdog = wd
	pi.qos = q
	return pi, nil
}

// priorities parses a pfc_enable list ("3,4"); "" is none.
func priorities(s string) ([]int, bool) {
	if s == "" {
		return nil, true
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 7 || strconv.Itoa(n) != f {
			return nil, false
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, true
}

// dscpMap reads a DSCP_TO_TC_MAP: DSCP → TC, -1 where the map does not
// say (which the rendering, listing all 64, would).
func (im *importer) dscpMap(name string) []int {
	return im.classifierMap(classifierTable{
		table:  "DSCP_TO_TC_MAP",
		size:   dscpCount,
		badKey: "not a DSCP 0–63",
		badTC:  "lossless maps DSCPs to traffic classes 0–7 (TC = queue = PFC priority); the import puts the DSCP in the default class",
		short:  "the map lists %d of the 64 DSCPs; lossless lists all 64, the unlisted ones in the default class (reference/sonic.md §2.1)",
	}, name)
}

// dot1pMap reads a DOT1P_TO_TC_MAP: 802.1p priority → TC, -1 where the
// map does not say (which the rendering, listing all eight, would).
func (im *importer) dot1pMap(name string) []int {
	return im.classifierMap(classifierTable{
		table:  "DOT1P_TO_TC_MAP",
		size:   8,
		badKey: "not an 802.1p priority 0–7",
		badTC:  "lossless maps CoS to traffic classes 0–7 (TC = queue = PFC priority); the import puts the CoS in the default class",
		short:  "the map lists %d of the eight 802.1p priorities; lossless lists all eight, the unlisted ones in the default class (qos_config.j2)",
	}, name)
}

// classifierTable is what tells the two classifier maps apart for
// classifierMap: the table, its number of code points (0 to size-1) and
// the reasons of its unexpressed fields (short takes the number listed).
type classifierTable struct {
	table, badKey, badTC, short string
	size                        int
}

// classifierMap reads map name of a classifier table: code point → TC,
// -1 where the map does not say.
func (im *importer) classifierMap(c classifierTable, name string) []int {
	tcs := make([]int, c.size)
	for i := range tcs {
		tcs[i] = -1
	}
	m, ok := im.db[c.table][name]
	if !ok {
		return tcs
	}
	listed := 0
	for _, f := range sortedKeys(m) {
		d, err := strconv.Atoi(f)
		t, err2 := strconv.Atoi(m[f])
		switch {
		case err != nil || d < 0 || d >= c.size || strconv.Itoa(d) != f:
			im.unexpressed(c.table, name, f, "%s", c.badKey)
			continue
		case err2 != nil || t < 0 || t > 7 || strconv.Itoa(t) != m[f]:
			im.unexpressed(c.table, name, f, "%s", c.badTC)
		default:
			tcs[d] = t
		}
		listed++
	}
	if listed < c.size {
		im.unexpressed(c.table, name, "", c.short, listed)
	}
	return tcs
}

// defaultTC is the TC most DSCPs map to (the lowest on a tie), -1 for none.
func defaultTC(tcs []int) int {
	n := map[int]int{}
	for _, t := range tcs {
		if t >= 0 {
			n[t]++
		}
	}
	best := -1
	for t, c := range n {
		if best < 0 || c > n[best] || c == n[best] && t < best {
			best = t
		}
	}
	return best
}

// markCNP marks the CNP class: the strict, lossy class that carries DSCP
// 48 (the RoCE CNP code point of the vendors' designs), else none. CNP
// only changes the renderer's default names and the intent's checks.
func markCNP(q *intent.QoS) {
	for i := range q.Classes {
		c := &q.Classes[i]
		if c.Scheduling.Mode == intent.SchedulingStrict && !c.Lossless && slices.Contains(c.DSCP, 48) {
			c.CNP = true
			return
		}
	}
}

// scheduler reads a SCHEDULER as a class's scheduling.
func (im *importer) scheduler(name, port string, speed units.BitRate) intent.Scheduling {
	s, ok := im.db["SCHEDULER"][name]
	if !ok {
		return intent.Scheduling{}
	}
	for _, f := range sortedKeys(s) {
		switch f {
		case "type", "weight", "cir", "pir":
		case "cbs", "pbs":
			im.unexpressed("SCHEDULER", name, f, "the intent's shaping has no burst size (issue 13: Scheduling)")
		case "meter_type":
			if s[f] != "bytes" {
				im.unexpressed("SCHEDULER", name, f, "lossless shapes in bytes/s (the YANG default meter_type bytes); the intent has no packet rates")
			} else {
				im.unexpressed("SCHEDULER", name, f, "lossless leaves meter_type at its YANG default (bytes) and does not write it")
			}
		default:
			im.unexpressed("SCHEDULER", name, f, "the intent's scheduling is strict or DWRR with a weight")
		}
	}
	sc := im.schedulingMode(name, s)
	// cir is the guaranteed rate, pir the maximum, in bytes/s
	// (renderers/sonic shaping): min_bandwidth is cir as a whole percent
	// of the port's speed, shape is pir.
	rate := func(f string) int64 {
		v, ok := s[f]
		if !ok {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			im.unexpressed("SCHEDULER", name, f, "not a number of bytes/s")
			return 0
		}
		return n
	}
	if cir := rate("cir"); cir > 0 {
		switch share := cir * 800; {
		case sc.Mode == intent.SchedulingUnset:
			im.unexpressed("SCHEDULER", name, "cir", "a guaranteed rate on a scheduler lossless cannot read the mode of")
		case speed <= 0:
			im.unexpressed("SCHEDULER", name, "cir", "a guaranteed rate on port %s, whose speed is unknown: the intent's min_bandwidth is a share of the port (give the speed in the inventory)", port)
		case share%int64(speed) != 0 || share/int64(speed) > 100:
			im.unexpressed("SCHEDULER", name, "cir", "%d bytes/s is not a whole percent of port %s's %s: the intent's min_bandwidth is a whole percent of the port", cir, port, speed)
		default:
			sc.MinBandwidth = units.Percent(share / int64(speed))
		}
	}
	if pir := rate("pir"); pir > 0 {
		if sc.MinBandwidth == 0 || sc.Mode == intent.SchedulingUnset {
			im.unexpressed("SCHEDULER", name, "pir", "shaping (a maximum rate) without a guaranteed rate lossless reads: lossless writes pir only beside cir (sonic-scheduler YANG: \"pir can't be configured without cir\")")
		} else {
			sc.Shape = units.BitRate(pir * 8)
		}
	}
	return sc
}

// schedulingMode reads a SCHEDULER's type and weight.
func (im *importer) schedulingMode(name string, s map[string]string) intent.Scheduling {
	switch t := s["type"]; t {
	case "STRICT":
		if _, ok := s["weight"]; ok {
			im.unexpressed("SCHEDULER", name, "weight", "a strict queue's weight: the intent has none (issue 13: a strict queue with a bandwidth)")
		}
		return intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1} // SONiC serves strict queues by index; level 1 is the intent's default
	case "DWRR", "WRR", "":
		if t != "DWRR" {
			im.unexpressed("SCHEDULER", name, "type", "lossless renders DWRR (the intent has no WRR; SONiC's YANG default type is WRR)")
		}
		w, err := strconv.Atoi(s["weight"])
		if err != nil || w < 1 || w > 100 {
			im.unexpressed("SCHEDULER", name, "weight", "lossless writes a DWRR weight 1–100")
			w = 1 // the YANG default
		}
		return intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: w}
	default:
		im.unexpressed("SCHEDULER", name, "type", "not a SONiC scheduler type")
		return intent.Scheduling{}
	}
}

// ecnMarks are the colours (green, yellow, red) each WRED_PROFILE ecn
// mode marks: the sonic-wred-profile YANG enumeration, which orchagent
// maps to SAI_WRED_ATTR_ECN_MARK_MODE (qosorch.cpp ecn_map). Without the
// field the YANG default ecn_none stands.
var ecnMarks = map[string][3]bool{
	"ecn_none": {}, "ecn_green": {true, false, false}, "ecn_yellow": {false, true, false}, "ecn_red": {false, false, true},
	"ecn_green_yellow": {true, true, false}, "ecn_green_red": {true, false, true}, "ecn_yellow_red": {false, true, true},
	"ecn_all": {true, true, true},
}

// wredColours are the colours other than green, in ecnMarks' order after
// green.
var wredColours = []string{"yellow", "red"}

// wred reads a WRED_PROFILE as a class's ECN: green thresholds and
// probability, and a yellow or red block for a colour with WRED on
// (wred_<colour>_enable "true"), marked when the ecn mode names the
// colour, else dropped (renderers/sonic wred). Green is always marked in
// the intent; whatever else it cannot say is unexpressed.
func (im *importer) wred(name string) *intent.ECN {
	w, ok := im.db["WRED_PROFILE"][name]
	if !ok {
		return nil
	}
	mode, hasMode := w["ecn"]
	marks, known := ecnMarks[mode]
	switch {
	case !hasMode:
		im.unexpressed("WRED_PROFILE", name, "", "no ecn: the YANG default ecn_none marks no colour; lossless marks ECN on green (ecn_green, or ecn_green_yellow, ecn_green_red, ecn_all with the colours it marks)")
	case !known:
		im.unexpressed("WRED_PROFILE", name, "ecn", "not a SONiC ECN mode (sonic-wred-profile: ecn_none, ecn_green … ecn_all)")
	case !marks[0]:
		im.unexpressed("WRED_PROFILE", name, "ecn", "lossless marks ECN on green always (ecn_green, ecn_green_yellow, ecn_green_red or ecn_all)")
	}
	switch v, ok := w["wred_green_enable"]; {
	case !ok:
		im.unexpressed("WRED_PROFILE", name, "", "no wred_green_enable \"true\": lossless writes it")
	case v != "true":
		im.unexpressed("WRED_PROFILE", name, "wred_green_enable", "lossless turns WRED on for green with ECN")
	}
	for _, f := range sortedKeys(w) {
		switch {
		case f == "ecn", f == "wred_green_enable", strings.HasPrefix(f, "green_") && wredColourField(f):
		case strings.HasPrefix(f, "yellow_") && wredColourField(f), strings.HasPrefix(f, "red_") && wredColourField(f),
			f == "wred_yellow_enable", f == "wred_red_enable":
			// Read with their colour below.
		default:
			im.unexpressed("WRED_PROFILE", name, f, "not a field of lossless' ECN profile")
		}
	}
	num := func(f string) int64 {
		v, ok := w[f]
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil || n < 0 {
			if ok {
				im.unexpressed("WRED_PROFILE", name, f, "not a number")
			} else {
				im.unexpressed("WRED_PROFILE", name, "", "no %s: lossless writes it", f)
			}
			return -1
		}
		return n
	}
	prob := func(f string) units.Percent {
		p := num(f)
		if p < 0 {
			return 100 // the YANG default
		}
		if p > 100 {
			im.unexpressed("WRED_PROFILE", name, f, "above 100 percent")
			return 100
		}
		return units.Percent(p)
	}
	e := &intent.ECN{}
	lo, hi := num("green_min_threshold"), num("green_max_threshold")
	e.Min.Bytes, e.Max.Bytes = units.Bytes(max(lo, 0)), units.Bytes(max(hi, 0))
	if _, ok := w["green_drop_probability"]; ok {
		e.MaxProbability = prob("green_drop_probability")
	} else {
		// No probability: the YANG default (100) stands, as an ecn block
		// without max_probability renders it.
		e.DefaultProbability = true
	}
	for i, c := range wredColours {
		marked := marks[i+1]
		if w["wred_"+c+"_enable"] != "true" {
			// WRED off for the colour (the YANG default false): the
			// intent has no block for it, so none of its fields.
			off := fmt.Sprintf("WRED is off for %s (no wred_%s_enable \"true\", the YANG default false); lossless writes the %s fields only with a %s block, which turns it on", c, c, c, c)
			for _, f := range sortedKeys(w) {
				if f == "wred_"+c+"_enable" || strings.HasPrefix(f, c+"_") && wredColourField(f) {
					im.unexpressed("WRED_PROFILE", name, f, "%s", off)
				}
			}
			if marked {
				im.unexpressed("WRED_PROFILE", name, "ecn", "ecn marks %s but WRED is off for %s (no wred_%s_enable \"true\"); lossless marks a colour only with its WRED on (a %s block)", c, c, c, c)
			}
			continue
		}
		col := &intent.ColorWRED{Drop: !marked}
		lo, hi := num(c+"_min_threshold"), num(c+"_max_threshold")
		col.Min.Bytes, col.Max.Bytes = units.Bytes(max(lo, 0)), units.Bytes(max(hi, 0))
		col.MaxProbability = prob(c + "_drop_probability")
		switch c {
		case "yellow":
			e.Yellow = col
		case "red":
			e.Red = col
		}
	}
	return e
}

// wredColourField reports whether f, after its colour prefix, is one of
// a colour's WRED_PROFILE fields (min_threshold, max_threshold,
// drop_probability).
func wredColourField(f string) bool {
	_, rest, _ := strings.Cut(f, "_")
	return rest == "min_threshold" || rest == "max_threshold" || rest == "drop_probability"
}

// watchdog reads the port's PFC watchdog: its PFC_WD row and
// pfcwd_sw_enable.
func (im *importer) watchdog(p string, m map[string]string, lossless []int) (*intent.Watchdog, error) {
	row, hasRow := im.db["PFC_WD"][p]
	if !hasRow {
		// pfcwd_sw_enable alone starts no watchdog: orchagent watches a
		// port only with its PFC_WD row (pfcwd start, start_default), so
		// the port has none, as an intent without a watchdog renders it
		// (the field stays the device's, outside the scope).
		return nil, nil
	}
	w := &intent.Watchdog{Polling: im.polling}
	if sw, ok := m["pfcwd_sw_enable"]; !ok {
		im.unexpressed("PFC_WD", p, "", "a PFC_WD row without pfcwd_sw_enable: lossless sets pfcwd_sw_enable to the PFC priorities, without it the watchdog watches nothing (reference/sonic.md §2.6)")
	} else if got, ok := priorities(sw); !ok {
		im.unexpressed("PORT_QOS_MAP", p, "pfcwd_sw_enable", "not a list of priorities 0–7")
	} else if !slices.Equal(got, lossless) {
		// A subset of pfc_enable is the watchdog's priorities (reference
		// Errata: SONiC's own template watches 3,4 of PFC 2,3,4,6).
		for _, g := range got {
			if !slices.Contains(lossless, g) {
				im.unexpressed("PORT_QOS_MAP", p, "pfcwd_sw_enable", "priority %d is not in pfc_enable %q: lossless watches only PFC priorities", g, m["pfc_enable"])
				continue
			}
			w.Priorities |= 1 << g
		}
		if w.Priorities == 0 && len(lossless) > 0 {
			im.unexpressed("PORT_QOS_MAP", p, "pfcwd_sw_enable", "pfcwd_sw_enable watches none of the PFC priorities (pfc_enable %q): the intent's watchdog watches all of them or a non-empty subset (watchdog priorities)", m["pfc_enable"])
		}
	}
	if len(lossless) == 0 {
		im.unexpressed("PFC_WD", p, "", "a watchdog on a port without PFC: lossless writes none")
	}
	for _, f := range sortedKeys(row) {
		switch f {
		case "action":
			switch row[f] {
			case "drop", "forward":
				w.Action = row[f]
			case "alert":
				w.Action = "notify-only"
			default:
				im.unexpressed("PFC_WD", p, f, "not a SONiC watchdog action")
			}
		case "detection_time", "restoration_time":
			ms, err := strconv.Atoi(row[f])
			if err != nil || ms <= 0 {
				im.unexpressed("PFC_WD", p, f, "not a number of milliseconds")
				continue
			}
			if f == "detection_time" {
				w.Detection = time.Duration(ms) * time.Millisecond
			} else {
				w.Restoration = time.Duration(ms) * time.Millisecond
			}
		case "pfc_stat_history":
			if row[f] != "disable" {
				im.unexpressed("PFC_WD", p, f, "lossless writes pfc_stat_history disable (what pfcwd start_default writes); the intent has no watchdog statistics history")
			}
		default:
			im.unexpressed("PFC_WD", p, f, "not a field of lossless' watchdog")
		}
	}
	if w.Action == "" {
		im.unexpressed("PFC_WD", p, "", "no action: lossless writes one (drop by default)")
	}
	return w, nil
}

// cable reads the port's CABLE_LENGTH.
func (im *importer) cable(pi *portImport) {
	for _, g := range sortedKeys(im.db["CABLE_LENGTH"]) {
		v, ok := im.db["CABLE_LENGTH"][g][pi.name]
		if !ok {
			continue
		}
		if g != cableGroup {
			im.unexpressed("CABLE_LENGTH", g, pi.name, "lossless writes cable lengths in SONiC's group AZURE (reference/sonic.md §2.10)")
		}
		n, ok := strings.CutSuffix(v, "m")
		m, err := strconv.Atoi(n)
		if !ok || err != nil || m < 0 {
			im.unexpressed("CABLE_LENGTH", g, pi.name, "not a length in metres")
			continue
		}
		pi.cable = units.Length(m) * units.Metre
		return
	}
}

// pgs reads the port's lossless PG profile (its speed from the name
// buffermgrd gives it).
func (im *importer) pgs(pi *portImport, lossless []int) {
	if len(lossless) == 0 {
		return
	}
	for _, k := range sortedKeys(im.db["BUFFER_PG"]) {
		if port, _, _ := strings.Cut(k, "|"); port != pi.name {
			continue
		}
		lo, _, ok := indexRange(k)
		if !ok || !slices.Contains(lossless, lo) {
			continue
		}
		prof := im.db["BUFFER_PG"][k]["profile"]
		if pi.pg == "" {
			pi.pg = prof
		}
	}
	if pi.pg == "" {
		return
	}
	mid, ok := strings.CutPrefix(pi.pg, pgProfilePrefix)
	if !ok {
		return
	}
	mid, _ = strings.CutSuffix(mid, pgProfileSuffix)
	speed, _, _ := strings.Cut(mid, "_")
	if mb, err := strconv.ParseInt(speed, 10, 64); err == nil && mb > 0 {
		pi.speed = units.BitRate(mb) * units.Mbps
	}
}

// buffers reads the lossless PG profiles of the ports: nil when lossless'
// computed headroom gives every one with dynamic_th 0, else the headroom
// ("auto" where computed ones match) and alpha they hold.
func (im *importer) buffers(ports []*portImport) *intent.Buffers {
	type hr struct {
		xoff, xon, size units.Bytes
		th              string
	}
	var profiles []string
	vals := map[string]hr{}
	for _, p := range ports {
		if p.pg == "" || vals[p.pg] != (hr{}) {
			continue
		}
		f, ok := im.db["BUFFER_PROFILE"][p.pg]
		if !ok {
			continue
		}
		n := func(k string) units.Bytes {
			v, err := strconv.ParseInt(f[k], 10, 64)
			if err != nil || v < 0 {
				return -1
			}
			return units.Bytes(v)
		}
		h := hr{xoff: n("xoff"), xon: n("xon"), size: n("size"), th: f["dynamic_th"]}
		bad := h.xoff < 0 || h.xon < 0 || h.size < 0
		for _, k := range sortedKeys(f) {
			switch k {
			case "xoff", "xon", "size", "dynamic_th":
			case "pool":
				if f[k] != losslessPool {
					im.unexpressed("BUFFER_PROFILE", p.pg, k, "buffermgrd's lossless profiles take ingress_lossless_pool, as lossless' do")
				}
			case "xon_offset":
				if f[k] != f["xon"] {
					im.unexpressed("BUFFER_PROFILE", p.pg, k, "lossless writes xon_offset = xon; the intent has no separate xon offset")
				}
			default:
				im.unexpressed("BUFFER_PROFILE", p.pg, k, "not a field of lossless' lossless PG profile")
			}
		}
		if _, ok := f["xon_offset"]; !ok {
			im.unexpressed("BUFFER_PROFILE", p.pg, "", "no xon_offset: lossless writes xon_offset = xon")
		}
		if bad {
			im.unexpressed("BUFFER_PROFILE", p.pg, "", "size, xon or xoff is not a number of bytes")
			continue
		}
		if _, err := strconv.Atoi(h.th); err != nil {
			im.unexpressed("BUFFER_PROFILE", p.pg, "", "no dynamic_th: lossless writes the alpha as dynamic_th (static_th is not in the intent)")
			h.th = "0"
		}
		profiles = append(profiles, p.pg)
		vals[p.pg] = h
	}
	if len(profiles) == 0 {
		return nil
	}
	b := &intent.Buffers{Headroom: intent.HeadroomPolicy{Auto: true}}
	th := vals[profiles[0]].th
	if th != "0" {
		a, _ := strconv.Atoi(th)
		b.Alpha = &a
	}
	auto := im.dev != nil && im.dev.Platform != nil
	first := vals[profiles[0]]
	same := true
	for _, n := range profiles {
		h := vals[n]
		if h.th != th {
			im.unexpressed("BUFFER_PROFILE", n, "dynamic_th", "the intent has one alpha per device (dynamic_th %s elsewhere)", th)
		}
		if h.xoff != first.xoff || h.xon != first.xon || h.size != first.size {
			same = false
		}
		if auto {
			auto = im.autoMatches(n, ports, h.xoff, h.xon, h.size)
		}
	}
	if auto {
		if b.Alpha == nil {
			return nil
		}
		return b
	}
	b.Headroom = intent.HeadroomPolicy{Xoff: first.xoff, Xon: first.xon, Size: first.size}
	if !same {
		for _, n := range profiles[1:] {
			if h := vals[n]; h.xoff != first.xoff || h.xon != first.xon || h.size != first.size {
				im.unexpressed("BUFFER_PROFILE", n, "", "headroom xoff %d xon %d size %d: the intent's explicit headroom is one value per device (%s has xoff %d xon %d size %d), and lossless' computed headroom differs", h.xoff, h.xon, h.size, profiles[0], first.xoff, first.xon, first.size)
			}
		}
	}
	return b
}

// autoMatches reports whether lossless' computed headroom for the ports of
// profile name gives its values.
func (im *importer) autoMatches(name string, ports []*portImport, xoff, xon, size units.Bytes) bool {
	for _, p := range ports {
		if p.pg != name {
			continue
		}
		speed, cable := p.speed, p.cable
		if ip := im.invPort(p.name); ip != nil {
			if speed == 0 {
				speed = ip.Speed
			}
			if cable == 0 {
				cable = ip.Cable
			}
		}
		res, err := headroom.Compute(headroom.Input{Speed: speed, Cable: cable, MTU: units.Bytes(im.dev.Platform.MTUMax), Cell: im.dev.Platform.Cell})
		if err != nil || res.Xoff != xoff || res.Xon != xon || res.Size != size {
			return false
		}
	}
	return true
}

func (im *importer) invPort(name string) *inventory.Port {
	if im.dev == nil {
		return nil
	}
	for _, p := range im.dev.Ports {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// residue renders the imported intent and reports what of the running
// config's scope the rendering would change that nothing reported yet.
func (im *importer) residue(out *vendors.Imported) {
	d, err := ImportedDevice(im.dev, out)
	if err != nil {
		im.out = append(im.out, vendors.Unexpressed{Line: 1, Text: "(the imported intent)", Reason: "does not render: " + err.Error()})
		return
	}
	doc, err := render.Render(d)
	if err != nil {
		im.out = append(im.out, vendors.Unexpressed{Line: 1, Text: "(the imported intent)", Reason: "does not render: " + err.Error()})
		return
	}
	want := config.DB{}
	for tn, t := range doc.DB {
		if readTables[tn] {
			want[tn] = t
		}
	}
	have := newScope(want, im.db, false).scoped()
	for _, tn := range owned() {
		for _, k := range union(have[tn], want[tn]) {
			h, w := have[tn][k], want[tn][k]
			if im.seen[tn+"|"+k+"\x00*"] || im.objectSeen(tn, k) {
				continue
			}
			why := residueReason[tn]
			switch {
			case h == nil:
				im.unexpressed(tn, k, "", "missing: the rendering of the imported intent adds it (%s)%s", fieldList(w), why)
			case w == nil:
				im.unexpressed(tn, k, "", "the rendering of the imported intent removes it%s", why)
			default:
				for _, f := range union(h, w) {
					hv, hok := h[f]
					wv, wok := w[f]
					switch {
					case !wok:
						im.unexpressed(tn, k, f, "the rendering of the imported intent removes it%s", why)
					case !hok:
						im.unexpressed(tn, k, "", "no %s: the rendering of the imported intent adds %q%s", f, wv, why)
					case hv != wv:
						im.unexpressed(tn, k, f, "the rendering of the imported intent has %q%s", wv, why)
					}
				}
			}
		}
	}
}

// residueReason says, per table, why the rendering of an imported intent
// can differ from a running config where import found nothing to report.
var residueReason = map[string]string{
	"TC_TO_QUEUE_MAP":                    "; lossless' TC→queue map is the identity 0–7 (TC = queue = PFC priority)",
	"MAP_PFC_PRIORITY_TO_QUEUE":          "; lossless' PFC priority → queue map is the identity 0–7",
	"TC_TO_PRIORITY_GROUP_MAP":           "; lossless maps each lossless TC to its own PG and every other TC to PG 0, or TC 7 to PG 7 with option sonic.tc_to_pg_map = \"template\" (issue 13: Buffers, the TC→PG map)",
	"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": "; lossless maps each lossless priority to its own PG, on Mellanox and Barefoot ASICs only (reference/sonic.md §2.5)",
	"PORT_QOS_MAP":                       "; lossless binds the profile's maps, pfc_enable (the lossless classes), pfc_to_pg_map on Mellanox and Barefoot ASICs, and pfcwd_sw_enable with a watchdog",
	"BUFFER_PG":                          "; lossless writes PG 0 ingress_lossy_profile and the lossless PGs' buffermgrd profile, per port (reference/sonic.md §2.13)",
	"BUFFER_QUEUE":                       "; lossless writes the queue ranges and profiles of the platform's buffer template for the lossless queues (renderers/sonic family.go; issue 13: Buffers, queue ranges per ASIC)",
	"BUFFER_PROFILE":                     "; lossless writes the lossless PG profile from the intent's headroom and alpha",
	"CABLE_LENGTH":                       "; lossless writes the managed ports' cable lengths from the inventory",
	"PFC_WD":                             "; lossless writes a lossless port's watchdog from the intent",
	"QUEUE":                              "; lossless gives each class's queue its scheduler and WRED profile",
}

// objectSeen reports whether a row's difference follows from an object
// already reported: a field of the row names it.
func (im *importer) objectSeen(tn, k string) bool {
	for f, target := range refs[tn] {
		if v, ok := im.db[tn][k][f]; ok && im.seen[target+"|"+v+"\x00*"] {
			return true
		}
	}
	return false
}

func fieldList(m map[string]string) string {
	var parts []string
	for _, f := range sortedKeys(m) {
		parts = append(parts, f+" "+strconv.Quote(m[f]))
	}
	return strings.Join(parts, ", ")
}

// ImportedDevice is the resolved device an Imported describes on dev (its
// platform, options, ports with the inventory's speed and cable where the
// running config says none), with the headroom the intent's buffer
// profile gives each lossless port: what `lossless import` renders to
// check the round trip, here for the SONiC tests and Import's residue.
func ImportedDevice(dev *inventory.Device, im *vendors.Imported) (*intent.Device, error) {
	d := &intent.Device{Name: "device", Vendor: Vendor, Options: im.Options, QoS: im.QoS, Buffers: im.Buffers}
	if dev != nil {
		d.Name, d.Platform = dev.Name, dev.Platform
	}
	if d.Buffers == nil {
		d.Buffers = &intent.Buffers{Headroom: intent.HeadroomPolicy{Auto: true}}
	}
	if d.QoS == nil {
		return nil, errors.New("no QoS to render")
	}
	for _, ip := range im.Ports {
		p := intent.Port{Name: ip.Name, Speed: ip.Speed, Cable: ip.Cable, QoS: ip.QoS}
		if p.QoS == nil {
			p.QoS = d.QoS
		}
		if dev != nil {
			for _, inv := range dev.Ports {
				if inv.Name != ip.Name {
					continue
				}
				if p.Speed == 0 {
					p.Speed = inv.Speed
				}
				if p.Cable == 0 {
					p.Cable = inv.Cable
				}
			}
		}
		for _, c := range p.QoS.Classes {
			if !c.Lossless {
				continue
			}
			h := d.Buffers.Headroom
			if !h.Auto {
				p.Headroom = append(p.Headroom, intent.Headroom{Priority: c.ID, Xoff: h.Xoff, Xon: h.Xon, Size: h.Size})
				continue
			}
			if d.Platform == nil {
				return nil, fmt.Errorf("port %s: headroom \"auto\" needs the device's platform", p.Name)
			}
			mtu := c.MTU
			if mtu == 0 {
				mtu = d.Platform.MTUMax
			}
			res, err := headroom.Compute(headroom.Input{Speed: p.Speed, Cable: p.Cable, MTU: units.Bytes(mtu), Cell: d.Platform.Cell})
			if err != nil {
				return nil, fmt.Errorf("port %s: headroom: %w", p.Name, err)
			}
			p.Headroom = append(p.Headroom, intent.Headroom{Priority: c.ID, Xoff: res.Xoff, Xon: res.Xon, Size: res.Size})
		}
		d.Ports = append(d.Ports, p)
	}
	return d, nil
}
