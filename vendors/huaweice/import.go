package huaweice

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/clidiff"
	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/renderers"
	render "github.com/lossless-net/lossless/renderers/huaweice"
	"github.com/lossless-net/lossless/vendors"
)

// Saved turns a saved `display current-configuration` file into what
// Driver.Running returns: its Scoped view. A file that is not CloudEngine
// display text (JSON, or text with no `#` section separator and no
// `return`, reference/huawei-ce.md §5) is refused.
func Saved(file []byte) ([]byte, error) {
	body := strings.TrimSpace(string(file))
	if body == "" {
		return nil, errors.New("read saved config: the file is empty")
	}
	if body[0] == '{' || body[0] == '[' {
		return nil, errors.New("read saved config: the file is JSON, not CloudEngine `display current-configuration` text")
	}
	sep, ret := false, false
	for _, l := range strings.Split(body, "\n") {
		switch strings.TrimRight(l, " \t\r") {
		case "#":
			sep = true
		case "return":
			ret = true
		}
	}
	if !sep || !ret {
		return nil, errors.New("read saved config: not CloudEngine `display current-configuration` text (no `#` section separators and `return`, reference/huawei-ce.md §5)")
	}
	out, err := Scoped(file)
	if err != nil {
		return nil, fmt.Errorf("read saved config: %w", err)
	}
	return out, nil
}

// iline is one line of a running config with its 1-based line number.
type iline = clidiff.Line

// readLines reads text into lines with their numbers, as Parse does.
func readLines(text []byte) ([]*iline, error) { return clidiff.ParseLines(text, scan, canon) }

// limits reads the thresholds and probability of an `ecn` or `color C`
// line after its first words: `buffer-size low-limit L high-limit H
// discard-percentage P` in bytes or `low-limit L high-limit H
// discard-percentage P` in percent of the queue (V300R023 command pages
// "ecn" and "color"). ok is false for other forms and for a share of 0,
// which the intent's shares (1–100 %) cannot say.
func limits(f []string) (lo, hi intent.Threshold, p units.Percent, ok bool) {
	bytes := len(f) == 7 && f[0] == "buffer-size"
	if bytes {
		f = f[1:]
	}
	if len(f) != 6 || f[0] != "low-limit" || f[2] != "high-limit" || f[4] != "discard-percentage" {
		return lo, hi, 0, false
	}
	l, e1 := strconv.ParseInt(f[1], 10, 64)
	h, e2 := strconv.ParseInt(f[3], 10, 64)
	pr, e3 := strconv.Atoi(f[5])
	if e1 != nil || e2 != nil || e3 != nil {
		return lo, hi, 0, false
	}
	if bytes {
		return intent.Threshold{Bytes: units.Bytes(l)}, intent.Threshold{Bytes: units.Bytes(h)}, units.Percent(pr), true
	}
	if l < 1 || h > 100 {
		return lo, hi, 0, false
	}
	return intent.Threshold{Percent: units.Percent(l)}, intent.Threshold{Percent: units.Percent(h)}, units.Percent(pr), true
}

// dropProfile is a drop-profile of the running config.
type dropProfile struct {
	line *iline
	ecn  *intent.ECN // nil when it has no `ecn` thresholds line the intent can say
	used bool
	bad  []vendors.Unexpressed // its lines the intent cannot say
}

// domain is a DiffServ domain of the running config: its explicit
// green inbound DSCP lines.
type domain struct {
	line *iline
	dscp map[int]int // DSCP → queue
	// cos maps each 802.1p priority to its queue when the domain has
	// green 802.1p lines (the others at their built-in queue); nil else.
	cos  map[int]int
	used bool
	bad  []vendors.Unexpressed // its lines the intent cannot say
}

// port is a managed-looking interface of the running config.
type port struct {
	line     *iline
	name     string
	lines    []*iline // its lines in lossless' scope
	trust    bool     // trust dscp
	upstream string   // trust upstream D
	pfc      *iline   // dcb pfc enable mode manual|auto
	pfcAuto  bool     // … mode auto (DCBX)
	routed   bool     // undo portswitch: DSCP trusted by default
	shape    map[int]units.BitRate
	drrFrom  int // S of qos drr S to E
	wred     map[int]*iline
	ecn      map[int]*iline
	drr      *iline
	drrTo    int // E of qos drr 0 to E; -1 without
	weight   map[int]int
	bad      []*iline // lines the intent cannot say, reasons in reason
	reason   map[*iline]string
	qos      *intent.QoS
	key      string
}

// importer holds what Import read.
type importer struct {
	famA bool
	un   []vendors.Unexpressed

	pfc            []int // the default PFC profile's priorities
	pfcLine        *iline
	interval       time.Duration // family B tick; 0 when not shown (10 ms)
	intervalLine   *iline
	detect, recov  map[int]int64 // family B ticks per priority
	deadlockLines  []*iline
	timerDetect    time.Duration // family A
	timerRecover   time.Duration
	action         string
	dscpMapping    *iline
	ecnEnable      *iline
	pool           units.Bytes
	poolLine       *iline
	domains        map[string]*domain
	drops          map[string]*dropProfile
	ports          []*port
	domainOrder    []string
	dropOrder      []string
	fullDSCPDomain map[string]bool
}

func (im *importer) say(l *iline, reason string) {
	im.un = append(im.un, vendors.Unexpressed{Line: l.N, Text: l.Text, Reason: reason})
}

// sayAll lists a section and all its lines.
func (im *importer) sayAll(l *iline, reason string) {
	im.say(l, reason)
	for _, k := range l.Kids {
		im.say(k, reason)
	}
}

// Import reads a CloudEngine device's QoS from what Driver.Running returns
// (or Saved makes of a saved file), in the form renderers/huaweice renders
// it: the DiffServ domain's green `ip-dscp-inbound` lines give each
// class's DSCPs, the default PFC profile's priorities the lossless
// classes, `qos queue Q wred P` + `qos queue Q ecn` with P's `ecn` line
// (in bytes, `ecn buffer-size low-limit …`, or in percent of the queue,
// `ecn low-limit …`) a class's ECN and P's `color yellow|red` lines its
// yellow and red WRED (drop = true: those lines drop packets, V300R023
// command page "color"), `qos drr 0 to E` and the DRR weights
// the scheduling (queues above E strict), the deadlock lines the PFC
// watchdog, the headroom pool the buffers. Lines equal to the device's
// defaults mean what their absence means (defaultLine) and are read as
// such. A port is imported when it binds a DiffServ domain other than
// `default` and trusts DSCP or has PFC or ECN, as lossless renders every
// port. Every other line in the scope is listed in Unexpressed with why.
// The domain's name is always given (names.classifier: its default, the
// profile's name, is not known here); a drop-profile's only where it is
// not the default <domain>-ecn-<queue>. Classes are named after their
// queue's per-hop behaviour (be, af1 … cs7; the default class
// "default"), the strict class carrying DSCP 48 is marked CNP (RoCE's
// CNP code point, reference §1).
func Import(dev *inventory.Device, running []byte) (*vendors.Imported, error) {
	roots, err := readLines(running)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", devName(dev), err)
	}
	im := &importer{domains: map[string]*domain{}, drops: map[string]*dropProfile{}, detect: map[int]int64{}, recov: map[int]int64{}, fullDSCPDomain: map[string]bool{}}
	switch {
	case dev != nil && dev.Platform != nil && dev.Platform.Family == render.FamilyA:
		im.famA = true
	case dev != nil && dev.Platform != nil && dev.Platform.Family == render.FamilyB:
	case dev != nil && dev.Platform != nil:
		return nil, fmt.Errorf("import %s: platform %s is of CloudEngine family %q; lossless reads families A and B (reference/huawei-ce.md §0)", devName(dev), dev.Platform.Model, dev.Platform.Family)
	default:
		nodes, _ := Parse(running)
		im.famA = familyA(nodes)
	}
	for _, l := range roots {
		im.top(l)
	}
	if im.pfc == nil {
		im.pfc = []int{3} // the default profile's default (reference §2.1)
	}
	imp := im.result()
	im.renders(dev, imp)
	imp.Unexpressed = im.sorted()
	return imp, nil
}

// renders checks that renderers/huaweice takes what was imported, on the
// device's platform and ports; when it refuses (a limit of the platform
// the running config exceeds), the refusal is listed at the first
// imported port, since the imported intent could not be planned.
func (im *importer) renders(dev *inventory.Device, imp *vendors.Imported) {
	if imp.QoS == nil || dev == nil || dev.Platform == nil {
		return
	}
	d := &intent.Device{Name: dev.Name, Vendor: dev.Vendor, Platform: dev.Platform, QoS: imp.QoS, Buffers: imp.Buffers, Options: imp.Options}
	speed := map[string]units.BitRate{}
	for _, p := range dev.Ports {
		speed[p.Name] = p.Speed
	}
	for _, ip := range imp.Ports {
		q := ip.QoS
		if q == nil {
			q = imp.QoS
		}
		d.Ports = append(d.Ports, intent.Port{Name: ip.Name, Speed: speed[ip.Name], QoS: q})
	}
	var ue *renderers.UnsupportedError
	if _, err := render.Render(d); errors.As(err, &ue) {
		for _, p := range im.ports {
			if len(imp.Ports) > 0 && p.name == imp.Ports[0].Name {
				im.say(p.line, "lossless cannot render the imported QoS on this platform: "+ue.Error())
			}
		}
	}
}

func devName(dev *inventory.Device) string {
	if dev == nil {
		return "device"
	}
	return dev.Name
}

// top reads one top-level section or line.
func (im *importer) top(l *iline) {
	t := l.Text
	f := strings.Fields(t)
	switch {
	case strings.HasPrefix(t, "interface "):
		im.iface(l)
	case t == "dcb pfc":
		im.pfcProfile(l)
	case strings.HasPrefix(t, "dcb pfc ") && isSection(t):
		im.sayAll(l, "a named PFC profile: lossless renders the default profile (dcb pfc) only")
	case strings.HasPrefix(t, "diffserv domain "):
		im.domain(l)
	case strings.HasPrefix(t, "drop-profile "):
		im.dropProfile(l)
	case len(f) == 5 && f[2] == "deadlock-detect" && f[3] == "interval" && !im.famA:
		ms, err := strconv.Atoi(f[4])
		if err != nil {
			im.say(l, "not a deadlock-detect interval")
			return
		}
		im.interval, im.intervalLine = time.Duration(ms)*time.Millisecond, l
		im.deadlockLines = append(im.deadlockLines, l)
	case len(f) == 5 && (f[2] == "deadlock-detect" || f[2] == "deadlock-recovery") && f[3] == "timer" && im.famA:
		ms, err := strconv.Atoi(f[4])
		if err != nil {
			im.say(l, "not a deadlock timer")
			return
		}
		if f[2] == "deadlock-detect" {
			im.timerDetect = time.Duration(ms) * time.Millisecond
		} else {
			im.timerRecover = time.Duration(ms) * time.Millisecond
		}
		im.deadlockLines = append(im.deadlockLines, l)
	case len(f) == 7 && f[2] == "deadlock" && f[3] == "recovery-behavior" && f[5] == "slot":
		if f[6] != "1" {
			im.say(l, "deadlock recovery on another slot than 1: lossless renders fixed CE6800/CE8800 switches, slot 1")
			return
		}
		im.action = map[string]string{"discard": "drop", "forwarding": "forward"}[f[4]]
		im.deadlockLines = append(im.deadlockLines, l)
	case defaultLine("", t, im.famA):
	case t == "dcb pfc dscp-mapping enable slot 1" && !im.famA:
		im.dscpMapping = l
	case t == "qos ecn enable" && im.famA:
		im.ecnEnable = l
	case len(f) == 8 && f[0] == "qos" && f[2] == "headroom-pool" && f[3] == "size" && f[6] == "slot":
		v, err := strconv.ParseInt(f[4], 10, 64)
		u := map[string]units.Bytes{"kbytes": units.KB, "mbytes": units.MB}[f[5]]
		if err != nil || f[7] != "1" || u == 0 {
			im.say(l, "a headroom pool lossless does not render (slot 1, kbytes or mbytes)")
			return
		}
		im.pool, im.poolLine = units.Bytes(v)*u, l
	case ownedGlobal(t):
		im.say(l, "a PFC/QoS system line the intent cannot say")
	}
}

// pfcProfile reads the default PFC profile.
func (im *importer) pfcProfile(l *iline) {
	for _, k := range l.Kids {
		f := strings.Fields(k.Text)
		switch {
		case len(f) >= 2 && f[0] == "priority" && !strings.Contains(k.Text, "-") && allInts(f[1:]):
			if !allQueues(f[1:]) {
				im.say(k, "not PFC priorities 0–7")
				continue
			}
			im.pfcLine = k
			for _, p := range f[1:] {
				v, _ := strconv.Atoi(p)
				if !slices.Contains(im.pfc, v) {
					im.pfc = append(im.pfc, v)
				}
			}
			sort.Ints(im.pfc)
		case len(f) == 5 && f[0] == "priority" && (f[2] == "deadlock-detect" || f[2] == "deadlock-recovery") && f[3] == "time" && !im.famA:
			p, err1 := strconv.Atoi(f[1])
			v, err2 := strconv.ParseInt(f[4], 10, 64)
			if err1 != nil || err2 != nil || p < 0 || p > 7 || v < 0 || v > 1000 {
				im.say(k, "not a deadlock time")
				continue
			}
			if f[2] == "deadlock-detect" {
				im.detect[p] = v
			} else {
				if v == 0 {
					im.say(k, "deadlock recovery time 0 (re-detect without recovery): the intent's restoration 0 means the vendor default")
					continue
				}
				im.recov[p] = v
			}
			im.deadlockLines = append(im.deadlockLines, k)
		case defaultLine("dcb pfc", k.Text, im.famA):
		case len(f) == 5 && f[0] == "priority" && (f[2] == "turn-off" || f[2] == "error-down"):
			im.say(k, "a PFC deadlock "+f[2]+" threshold: the intent has no per-priority deadlock threshold")
		default:
			im.say(k, "a default PFC profile line the intent cannot say")
		}
	}
}

// allQueues reports whether every word is a queue (priority) 0–7.
func allQueues(f []string) bool {
	for _, w := range f {
		if _, ok := queueOf(w); !ok {
			return false
		}
	}
	return true
}

func allInts(f []string) bool {
	for _, w := range f {
		if _, err := strconv.Atoi(w); err != nil {
			return false
		}
	}
	return true
}

// phbQueue is the queue of a per-hop behaviour (reference §1.1).
var phbQueue = map[string]int{"be": 0, "af1": 1, "af2": 2, "af3": 3, "af4": 4, "ef": 5, "cs6": 6, "cs7": 7}

var queuePHB = [8]string{"be", "af1", "af2", "af3", "af4", "ef", "cs6", "cs7"}

func (im *importer) domain(l *iline) {
	name := strings.TrimPrefix(l.Text, "diffserv domain ")
	d := &domain{line: l, dscp: map[int]int{}}
	say := func(k *iline, reason string) {
		d.bad = append(d.bad, vendors.Unexpressed{Line: k.N, Text: k.Text, Reason: reason})
	}
	cos := map[int]int{}
	for _, k := range l.Kids {
		f := strings.Fields(k.Text)
		if len(f) == 5 && f[0] == "ip-dscp-inbound" && f[2] == "phb" {
			v, err := strconv.Atoi(f[1])
			q, ok := phbQueue[f[3]]
			if err == nil && ok && f[4] == "green" && v >= 0 && v <= 63 {
				d.dscp[v] = q
				continue
			}
			if err == nil && ok && v >= 0 && v <= 63 {
				say(k, "DSCP marked "+f[4]+": the intent classifies into green only (drop precedence is not in the intent)")
				continue
			}
		}
		if len(f) == 5 && f[0] == "8021p-inbound" && f[2] == "phb" {
			v, err := strconv.Atoi(f[1])
			q, ok := phbQueue[f[3]]
			if err == nil && ok && f[4] == "green" && v >= 0 && v <= 7 {
				cos[v] = q
				continue
			}
		}
		switch {
		case strings.HasPrefix(k.Text, "8021p-inbound "):
			say(k, "802.1p classification with a colour other than green: the intent classifies into green only (drop precedence is not in the intent)")
		case strings.HasPrefix(k.Text, "ip-dscp-outbound "):
			say(k, "DSCP remarking: the intent has no remarking")
		default:
			say(k, "a DiffServ domain line the intent cannot say")
		}
	}
	if len(d.dscp) == 64 {
		im.fullDSCPDomain[name] = true
	}
	// The priorities the domain does not list keep the built-in map, p
	// → queue p (V300R023 configuration guide,
	// Default_Settings_for_Priority_Mapping.md Table 2), which
	// renderers/huaweice writes out and the device does not show.
	if len(cos) > 0 {
		for p := range 8 {
			if _, ok := cos[p]; !ok {
				cos[p] = p
			}
		}
		d.cos = cos
	}
	im.domains[name] = d
	im.domainOrder = append(im.domainOrder, name)
}

func (im *importer) dropProfile(l *iline) {
	name := strings.TrimPrefix(l.Text, "drop-profile ")
	p := &dropProfile{line: l}
	say := func(k *iline, reason string) {
		p.bad = append(p.bad, vendors.Unexpressed{Line: k.N, Text: k.Text, Reason: reason})
	}
	var colours [2]*intent.ColorWRED // yellow, red
	var colourLines []*iline
	for _, k := range l.Kids {
		f := strings.Fields(k.Text)
		switch {
		case len(f) >= 2 && f[0] == "ecn" && f[1] != "weight" && (len(f) < 3 || f[2] != "cell"):
			lo, hi, pr, ok := limits(f[1:])
			if !ok {
				say(k, "ECN thresholds the intent cannot say (a low limit of 0 %, or not a whole number)")
				continue
			}
			p.ecn = &intent.ECN{Min: lo, Max: hi, MaxProbability: pr}
		case len(f) >= 2 && f[0] == "color" && (f[1] == "yellow" || f[1] == "red") && (len(f) < 4 || f[3] != "cell"):
			lo, hi, pr, ok := limits(f[2:])
			if !ok {
				say(k, "WRED thresholds the intent cannot say (a low limit of 0 %, or not a whole number)")
				continue
			}
			colours[map[string]int{"yellow": 0, "red": 1}[f[1]]] = &intent.ColorWRED{Min: lo, Max: hi, MaxProbability: pr, Drop: true}
			colourLines = append(colourLines, k)
		case len(f) >= 2 && f[0] == "color" && f[1] == "green":
			say(k, "WRED drop thresholds per colour, green: the intent's green thresholds are the ECN marking (the ecn line), it has no WRED drop of green packets")
		case len(f) >= 2 && f[0] == "color" && f[1] == "non-tcp":
			say(k, "WRED drop thresholds per colour, non-tcp: the intent has yellow and red only")
		case len(f) >= 2 && f[0] == "color":
			say(k, "WRED drop thresholds per colour in cells: lossless renders bytes or percent")
		case len(f) >= 2 && f[0] == "ecn" && f[1] == "weight":
			say(k, "ecn weight: CloudEngine families A and B have no WRED weight (reference Errata), lossless does not render it")
		case len(f) >= 3 && f[0] == "ecn" && f[2] == "cell":
			say(k, "ECN thresholds in cells: lossless renders bytes or percent")
		default:
			say(k, "a drop-profile line the intent cannot say")
		}
	}
	if p.ecn != nil {
		// `color yellow|red` drop packets of the colour (V300R023 command
		// page "color"): the intent's yellow and red with drop = true.
		p.ecn.Yellow, p.ecn.Red = colours[0], colours[1]
	} else {
		for _, k := range colourLines {
			say(k, "WRED drop of one colour in a drop-profile without ECN thresholds: the intent's colours belong to an ECN profile (ecn …)")
		}
	}
	im.drops[name] = p
	im.dropOrder = append(im.dropOrder, name)
}

func (im *importer) iface(l *iline) {
	p := &port{line: l, name: strings.TrimPrefix(l.Text, "interface "), drrTo: -1,
		wred: map[int]*iline{}, ecn: map[int]*iline{}, weight: map[int]int{}, reason: map[*iline]string{}, shape: map[int]units.BitRate{}}
	bad := func(k *iline, reason string) {
		p.bad = append(p.bad, k)
		p.reason[k] = reason
	}
	for _, k := range l.Kids {
		t := k.Text
		if t == "undo portswitch" {
			p.routed = true
			continue
		}
		if !ownedIfLine(t) {
			continue
		}
		p.lines = append(p.lines, k)
		f := strings.Fields(t)
		if len(f) == 6 && f[0] == "qos" && f[1] == "queue" && f[3] == "drr" && f[4] == "weight" {
			q, ok := queueOf(f[2])
			w, err := strconv.Atoi(f[5])
			if ok && err == nil {
				p.weight[q] = w
				continue
			}
		}
		switch {
		case defaultLine(l.Text, t, im.famA):
		case t == "trust dscp":
			p.trust = true
		case len(f) == 3 && f[0] == "trust" && f[1] == "upstream":
			p.upstream = f[2]
		case t == "trust 8021p inner":
			bad(k, "inner 802.1p trust: the intent's cos trust is the outer tag's, the Layer 2 default (reference §2.4)")
		case strings.HasPrefix(t, "trust "):
			bad(k, "a trust the intent cannot say: it trusts DSCP or the outer 802.1p")
		case t == "dcb pfc enable mode manual":
			p.pfc = k
		case t == "dcb pfc enable mode auto":
			p.pfc, p.pfcAuto = k, true
		case strings.HasPrefix(t, "dcb pfc enable"):
			bad(k, "PFC in another mode or profile: lossless renders the default profile in manual mode")
		case strings.HasPrefix(t, "dcb pfc buffer "):
			bad(k, "per-port PFC buffer thresholds: lossless renders them only from explicit headroom, which the running config does not give back")
		case len(f) == 5 && f[0] == "qos" && f[1] == "queue" && f[3] == "wred":
			if q, ok := queueOf(f[2]); ok {
				p.wred[q] = k
				continue
			}
			bad(k, "not a queue 0–7")
		case len(f) == 4 && f[0] == "qos" && f[1] == "queue" && f[3] == "ecn":
			if q, ok := queueOf(f[2]); ok {
				p.ecn[q] = k
				continue
			}
			bad(k, "not a queue 0–7")
		case len(f) == 6 && f[0] == "qos" && f[1] == "queue" && f[3] == "drr" && f[4] == "weight":
			bad(k, "not a DRR weight")
		case len(f) == 7 && f[0] == "qos" && f[1] == "queue" && f[3] == "shaping" && f[4] == "cir" && f[6] == "kbps":
			// renderers/huaweice's shape: one bucket at C kbps.
			q, ok := queueOf(f[2])
			v, err := strconv.ParseInt(f[5], 10, 64)
			if ok && err == nil && v > 0 {
				p.shape[q] = units.BitRate(v * 1000)
				continue
			}
			bad(k, "not a queue shaping rate")
		case len(f) >= 4 && f[0] == "qos" && f[1] == "queue" && f[3] == "shaping":
			bad(k, "queue shaping with a CIR below its PIR, bursts or in percent: the intent's shape is one maximum rate (cir C kbps)")
		case len(f) == 5 && f[0] == "qos" && f[1] == "drr" && f[3] == "to" && p.drr == nil:
			s, ok1 := queueOf(f[2])
			if e, ok := queueOf(f[4]); ok && ok1 && s <= e {
				p.drr, p.drrFrom, p.drrTo = k, s, e
				continue
			}
			bad(k, "not a queue range")
		case len(f) >= 3 && f[0] == "qos" && (f[1] == "drr" || f[1] == "pq" || f[1] == "lpq" || f[1] == "wfq"):
			bad(k, "a scheduling range lossless does not render: it writes one `qos drr 0 to E` (queues above E strict)")
		case len(f) >= 5 && f[0] == "qos" && f[1] == "queue" && f[4] == "weight":
			bad(k, "a WFQ weight: lossless renders DRR")
		default:
			bad(k, "an interface QoS line the intent cannot say")
		}
	}
	if len(p.lines) > 0 {
		im.ports = append(im.ports, p)
	}
}

func queueOf(s string) (int, bool) {
	q, err := strconv.Atoi(s)
	return q, err == nil && q >= 0 && q <= 7
}

// result builds the Imported from what was read.
func (im *importer) result() *vendors.Imported {
	imp := &vendors.Imported{}
	var qosPorts []*port
	for _, p := range im.ports {
		why := ""
		if (p.upstream == "" || p.upstream == builtinName) && !p.routed && !p.trust && (p.pfc != nil || len(p.ecn) > 0 || len(p.shape) > 0 || p.drr != nil) {
			// A Layer 2 port classifying through the built-in domain
			// by the outer 802.1p, its default trust (reference §2.4;
			// V300R023 configuration guide, Default_Settings_for_Priority_Mapping.md):
			// an intent trust = "cos" on domain default, whose map
			// the running config shows where it was changed.
			p.upstream = builtinName
			if im.domains[builtinName] == nil {
				im.domains[builtinName] = &domain{dscp: map[int]int{}}
			}
			if d := im.domains[builtinName]; d.cos == nil && len(d.dscp) == 0 {
				d.cos = map[int]int{}
				for q := range 8 {
					d.cos[q] = q
				}
			}
		}
		switch {
		case p.upstream == "" || p.upstream == builtinName && (p.routed || p.trust) || p.upstream == "none":
			why = "binds no DiffServ domain of its own (trust upstream)"
			switch {
			case p.routed && p.upstream == "":
				why = "is a routed port (DSCP trusted by default) classifying through the built-in domain, whose full DSCP map has colours the intent cannot say"
			case !p.trust && p.upstream == "":
				why = "classifies by the outer 802.1p through the built-in domain but has no PFC, ECN, shaping or DRR the intent can say"
			}
		case im.domains[p.upstream] == nil:
			why = "binds DiffServ domain " + p.upstream + ", which the config does not define"
		case !p.trust && im.domains[p.upstream].cos == nil && p.pfc == nil && len(p.ecn) == 0:
			why = "has neither trust dscp, an 802.1p map, PFC nor ECN"
		}
		if why != "" {
			im.sayPort(p, fmt.Sprintf("port %s is not imported: it %s; lossless renders trust dscp, trust upstream and its QoS on every port it manages", p.name, why))
			continue
		}
		im.portQoS(p)
		qosPorts = append(qosPorts, p)
	}
	// Group the ports by QoS; the largest group is the device's.
	count := map[string]int{}
	var main *port
	for _, p := range qosPorts {
		count[p.key]++
		if main == nil || count[p.key] > count[main.key] {
			main = p
		}
	}
	if main == nil {
		im.noPorts()
		im.unused()
		return imp
	}
	// One domain name per QoS, one PFC set for all (renderers/huaweice).
	domainOf := map[string]string{main.upstream: main.key}
	var ports []*port
	for _, p := range qosPorts {
		if k, ok := domainOf[p.upstream]; ok && k != p.key {
			im.sayPort(p, fmt.Sprintf("port %s is not imported: it binds DiffServ domain %s with other port QoS (PFC, ECN or scheduling) than port %s; lossless renders one domain per port QoS", p.name, p.upstream, main.name))
			continue
		}
		if !slices.Equal(p.qos.LosslessPriorities(), main.qos.LosslessPriorities()) {
			im.sayPort(p, fmt.Sprintf("port %s is not imported: its lossless priorities %v differ from port %s's %v; CloudEngine's default PFC profile is one for all ports", p.name, p.qos.LosslessPriorities(), main.name, main.qos.LosslessPriorities()))
			continue
		}
		domainOf[p.upstream] = p.key
		im.domains[p.upstream].used = true
		for q, l := range p.wred {
			if d := im.drops[lastWord(l.Text)]; d != nil && p.ecn[q] != nil {
				d.used = true
			}
		}
		for _, l := range p.bad {
			im.say(l, p.reason[l])
		}
		ports = append(ports, p)
	}
	imp.QoS = main.qos
	for _, p := range ports {
		ip := vendors.ImportedPort{Name: p.name}
		if p.key != main.key {
			ip.QoS = p.qos
		}
		imp.Ports = append(imp.Ports, ip)
	}
	sort.SliceStable(imp.Ports, func(i, j int) bool { return inventory.ComparePorts(imp.Ports[i].Name, imp.Ports[j].Name) < 0 })
	im.globals(imp, main, ports)
	if im.fullDSCPDomain[main.upstream] {
		imp.Options = map[string]string{render.OptionDSCPMap: render.DSCPMapFull}
	}
	im.unused()
	return imp
}

// noPorts lists the system-wide lines in the scope when no port is
// imported: the intent holds them only with the QoS of its ports.
func (im *importer) noPorts() {
	const why = "no port is imported: the intent holds the device's PFC, deadlock, ECN and headroom settings only with the QoS of its ports"
	for _, l := range []*iline{im.pfcLine, im.dscpMapping, im.ecnEnable, im.poolLine} {
		if l != nil {
			im.say(l, why)
		}
	}
	for _, l := range im.deadlockLines {
		im.say(l, why)
	}
}

func lastWord(s string) string { return s[strings.LastIndexByte(s, ' ')+1:] }

// sayPort lists every scoped line of a port not imported, each with
// what the intent could not say about the line itself, if anything.
func (im *importer) sayPort(p *port, reason string) {
	for _, l := range p.lines {
		r := reason
		if w := p.reason[l]; w != "" {
			r = w + "; and " + reason
		}
		im.say(l, r)
	}
}

// unused lists the domains and drop-profiles no imported port uses: plan
// keeps them (another team's objects), but the intent does not hold them.
func (im *importer) unused() {
	for _, n := range im.domainOrder {
		d := im.domains[n]
		switch {
		case d.used:
			im.un = append(im.un, d.bad...)
		case n != builtinName:
			im.sayUnused(d.line, d.bad, "DiffServ domain "+n+", which no imported port uses: the intent does not hold it (plan keeps it)")
		}
	}
	for _, n := range im.dropOrder {
		d := im.drops[n]
		switch {
		case d.used:
			im.un = append(im.un, d.bad...)
		case n != builtinName:
			im.sayUnused(d.line, d.bad, "drop-profile "+n+", which no imported port uses for ECN: the intent does not hold it (plan keeps it)")
		}
	}
}

// sayUnused lists an object no imported port uses and its lines, each
// with what the intent could not say about it, if anything.
func (im *importer) sayUnused(l *iline, bad []vendors.Unexpressed, reason string) {
	im.say(l, reason)
	why := map[int]string{}
	for _, u := range bad {
		why[u.Line] = u.Reason
	}
	for _, k := range l.Kids {
		r := reason
		if w := why[k.N]; w != "" {
			r = w + "; and " + reason
		}
		im.say(k, r)
	}
}

func (im *importer) sorted() []vendors.Unexpressed {
	sort.SliceStable(im.un, func(i, j int) bool { return im.un[i].Line < im.un[j].Line })
	return im.un
}

// portQoS reads a port's QoS and its key.
func (im *importer) portQoS(p *port) {
	dom := im.domains[p.upstream]
	classes := map[int]*intent.Class{}
	class := func(q int) *intent.Class {
		if c := classes[q]; c != nil {
			return c
		}
		c := &intent.Class{Name: queuePHB[q], ID: q}
		classes[q] = c
		return c
	}
	full := im.fullDSCPDomain[p.upstream]
	defQueue := 0
	if full {
		// All 64 listed (huawei-ce.dscp-map = full): the default class
		// is the queue that takes DSCP 0's, whose DSCPs the renderer
		// fills in.
		defQueue = dom.dscp[0]
	}
	for v := range 64 {
		q, ok := dom.dscp[v]
		if !ok {
			continue
		}
		c := class(q)
		if full && q == defQueue {
			continue
		}
		c.DSCP = append(c.DSCP, v)
	}
	cosTrust := !p.trust && dom.cos != nil && len(dom.dscp) == 0
	if dom.cos != nil {
		// The class of 802.1p 0 takes cos = "default", the others list
		// theirs (renderers/huaweice cosLines writes all eight).
		def := dom.cos[0]
		class(def).DefaultCoS = true
		for v := range 8 {
			if q := dom.cos[v]; q != def {
				class(q).CoS = append(class(q).CoS, v)
			}
		}
	}
	if !cosTrust {
		dc := class(defQueue)
		dc.Default, dc.Name = true, "default"
	}

	if p.pfc != nil {
		for _, q := range im.pfc {
			class(q).Lossless = true
		}
	}
	for q, l := range p.ecn {
		w := p.wred[q]
		if w == nil {
			p.bad = append(p.bad, l)
			p.reason[l] = "ECN on a queue without a WRED profile (qos queue Q wred): the device refuses it"
			continue
		}
		name := lastWord(w.Text)
		d := im.drops[name]
		if d == nil || d.ecn == nil {
			p.bad = append(p.bad, l, w)
			p.reason[l] = "drop-profile " + name + " has no ECN thresholds the intent can say (ecn buffer-size … or ecn low-limit …)"
			p.reason[w] = p.reason[l]
			continue
		}
		c := class(q)
		e := *d.ecn
		c.ECN = &e
		if name != p.upstream+"-ecn-"+strconv.Itoa(q) {
			c.Names.DropProfile = name
		}
	}
	for q, l := range p.wred {
		if p.ecn[q] == nil {
			p.bad = append(p.bad, l)
			p.reason[l] = "WRED drop without ECN: the intent has ECN marking only"
		}
	}
	im.scheduling(p, class, classes)
	for q, r := range p.shape {
		class(q).Scheduling.Shape = r
	}
	q := &intent.QoS{Trust: "dscp", Names: intent.Names{Classifier: p.upstream}}
	if cosTrust {
		// No trust line: the Layer 2 default, outer 802.1p (reference
		// §2.4), which the device does not show.
		q.Trust = intent.TrustCoS
	}
	if p.pfcAuto {
		q.PFC.Mode = intent.PFCAuto
	}
	if !p.trust && !cosTrust {
		l := p.line
		if p.upstream != "" {
			for _, k := range p.lines {
				if strings.HasPrefix(k.Text, "trust upstream ") {
					l = k
				}
			}
		}
		p.bad = append(p.bad, l)
		p.reason[l] = "the port does not trust DSCP (no trust dscp): lossless renders trust dscp on every port it manages"
	}
	for _, id := range sortedIDs(classes) {
		c := classes[id]
		if c.Scheduling.Mode == intent.SchedulingStrict && slices.Contains(c.DSCP, 48) && !c.Lossless {
			c.CNP = true
		}
		q.Classes = append(q.Classes, *c)
	}
	if len(q.LosslessPriorities()) > 0 {
		q.PFC.Watchdog = &intent.Watchdog{}
	}
	p.qos = q
	p.key = fmt.Sprintf("%s|%s", p.upstream, qosText(q))
}

func sortedIDs(m map[int]*intent.Class) []int {
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// qosText is a QoS's content as text, for grouping ports.
func qosText(q *intent.QoS) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%+v|", q.Trust, q.PFC.Mode, q.Names)
	for _, c := range q.Classes {
		fmt.Fprintf(&b, "%d:%v:%v:%v:%v:%v:%v:%+v:%+v:", c.ID, c.DSCP, c.Default, c.CoS, c.DefaultCoS, c.Lossless, c.CNP, c.Scheduling, c.Names)
		if c.ECN != nil {
			e := *c.ECN
			e.Yellow, e.Red = nil, nil // pointers: written by value below
			fmt.Fprintf(&b, "%+v", e)
			for _, w := range []*intent.ColorWRED{c.ECN.Yellow, c.ECN.Red} {
				if w != nil {
					fmt.Fprintf(&b, "|%+v", *w)
				}
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

// scheduling reads `qos drr 0 to E` and the weights into the classes so
// that renderers/huaweice's rule (DRR below the lowest strict class;
// without one 0 to 5, further when a weighted class sits higher) gives
// E back: the classes above E are strict, with a class of its own for
// queue E+1 where none sits there (the queue is PQ on the device either
// way, reference §2.6, and the built-in map still feeds it); a range
// beyond 5 with no class above ends at a weighted queue E.
func (im *importer) scheduling(p *port, class func(int) *intent.Class, classes map[int]*intent.Class) {
	for q, w := range p.weight {
		if q > p.drrTo || q < p.drrFrom {
			l := p.drr
			if l == nil {
				l = p.line
			}
			for _, k := range p.lines {
				if strings.HasPrefix(k.Text, "qos queue "+strconv.Itoa(q)+" drr weight ") {
					l = k
				}
			}
			p.bad = append(p.bad, l)
			p.reason[l] = "a DRR weight on a queue outside the DRR range: it has no effect, and lossless renders weights only inside"
			continue
		}
		class(q).Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: w}
	}
	if p.drrTo < 0 {
		// Every queue PQ.
		for _, c := range classes {
			c.Scheduling = intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}
		}
		return
	}
	if !anyDWRR(classes) {
		// DRR needs a weighted class to be rendered: the default class's
		// queue at weight 1, the device's default (reference §2.6).
		class(p.drrFrom).Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 1}
	}
	if p.drrFrom > 0 {
		// qos drr S to E with S > 0: the queues below S are PQ, served
		// before DRR whatever their number (renderers/huaweice); the
		// highest of them, S-1, gives S back.
		class(p.drrFrom - 1)
		for id, c := range classes {
			if id < p.drrFrom {
				c.Scheduling = intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}
			}
		}
	}
	lowest := 8
	for id := range classes {
		if id > p.drrTo {
			lowest = min(lowest, id)
		}
	}
	switch {
	case lowest < 8 || p.drrTo < 5:
		// The classes above E are strict; the lowest must sit at E+1,
		// queue E+1 being PQ whether a class names it or not.
		if lowest != p.drrTo+1 {
			class(p.drrTo + 1)
		}
		for id, c := range classes {
			if id > p.drrTo {
				c.Scheduling = intent.Scheduling{Mode: intent.SchedulingStrict, Level: 1}
			}
		}
	default:
		// No class above E ≥ 5: DRR reaches the highest weighted queue,
		// at least 5; E's own queue is weighted (its default 1) when
		// none higher is.
		maxDRR := 0
		for id, c := range classes {
			if c.Scheduling.Mode == intent.SchedulingDWRR {
				maxDRR = max(maxDRR, id)
			}
		}
		if max(5, maxDRR) != p.drrTo {
			if c := class(p.drrTo); c.Scheduling.Mode != intent.SchedulingDWRR {
				c.Scheduling = intent.Scheduling{Mode: intent.SchedulingDWRR, Weight: 1}
			}
		}
	}
}

func anyDWRR(classes map[int]*intent.Class) bool {
	for _, c := range classes {
		if c.Scheduling.Mode == intent.SchedulingDWRR {
			return true
		}
	}
	return false
}

// globals reads the system-wide lines into the imported QoS and buffers,
// and lists those the QoS ports make meaningless.
func (im *importer) globals(imp *vendors.Imported, main *port, ports []*port) {
	lossless := len(main.qos.LosslessPriorities()) > 0
	anyECN := false
	var firstECN, firstPFC *iline
	for _, p := range ports {
		for _, q := range sortedKeys(p.ecn) {
			if firstECN == nil && p.qos.Class(q) != nil && p.qos.Class(q).ECN != nil {
				firstECN, anyECN = p.ecn[q], true
			}
		}
		// The DSCP mapping goes with PFC on DSCP-trusting ports
		// (renderers/huaweice): under 802.1p trust backpressure by
		// 802.1p is the default.
		if firstPFC == nil && p.pfc != nil && p.qos.Trust != intent.TrustCoS {
			firstPFC = p.pfc
		}
	}
	if !lossless {
		for _, l := range im.deadlockLines {
			im.say(l, "PFC deadlock settings on a device without lossless ports: lossless renders them with PFC only")
		}
		if im.dscpMapping != nil {
			im.say(im.dscpMapping, "PFC DSCP mapping on a device without lossless ports: lossless renders it with PFC only")
		}
		if im.pfcLine != nil && !slices.Equal(im.pfc, []int{3}) {
			im.say(im.pfcLine, "PFC priorities with no port enabling PFC: the intent's lossless classes are the PFC priorities of its ports")
		}
	} else {
		im.watchdog(main.qos.PFC.Watchdog)
		for _, p := range ports {
			if p.qos != main.qos {
				p.qos.PFC.Watchdog = main.qos.PFC.Watchdog
			}
		}
		if im.dscpMapping != nil && firstPFC == nil {
			im.say(im.dscpMapping, "PFC DSCP mapping where every PFC port trusts 802.1p: lossless renders it with DSCP trust only")
		}
		if !im.famA && im.dscpMapping == nil && firstPFC != nil {
			im.say(firstPFC, "family B PFC without `dcb pfc dscp-mapping enable slot 1` (backpressure by 802.1p): lossless renders the DSCP mapping with PFC (reference/huawei-ce.md §1.1)")
		}
	}
	if im.famA {
		switch {
		case im.ecnEnable != nil && !anyECN:
			im.say(im.ecnEnable, "qos ecn enable without an ECN queue: lossless renders it with ECN only")
		case im.ecnEnable == nil && anyECN:
			im.say(firstECN, "family A ECN without `qos ecn enable`: lossless renders the global switch with ECN (reference/huawei-ce.md §1.3)")
		}
	}
	if im.poolLine != nil {
		imp.Buffers = &intent.Buffers{Headroom: intent.HeadroomPolicy{Auto: true}, HeadroomPool: im.pool}
	}
}

func sortedKeys(m map[int]*iline) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// watchdog reads the deadlock lines into w: family B's ticks of one
// interval (the same for every PFC priority, as renderers/huaweice writes
// them), family A's timers, and the recovery behaviour.
func (im *importer) watchdog(w *intent.Watchdog) {
	w.Action = im.action
	if im.famA {
		w.Detection, w.Restoration = im.timerDetect, im.timerRecover
		return
	}
	iv := im.interval
	if iv == 0 {
		iv = 10 * time.Millisecond // the default interval (reference §2.2)
	}
	var det, rec int64 = -1, -1
	agree := true
	for _, p := range im.pfc {
		d, r := im.detect[p], im.recov[p]
		if det >= 0 && (d != det || r != rec) {
			agree = false
		}
		det, rec = d, r
	}
	for p := range im.detect {
		agree = agree && slices.Contains(im.pfc, p)
	}
	for p := range im.recov {
		agree = agree && slices.Contains(im.pfc, p)
	}
	if !agree {
		for _, l := range im.deadlockLines {
			if strings.HasPrefix(l.Text, "priority ") {
				im.say(l, "deadlock times that differ between PFC priorities (or on a priority without PFC): the intent has one PFC watchdog")
			}
		}
		return
	}
	w.Detection = time.Duration(det) * iv
	w.Restoration = time.Duration(rec) * iv
	if im.intervalLine != nil {
		w.Polling = im.interval
	}
}
