// Package sonicyang checks SONiC CONFIG_DB content against SONiC's own YANG
// models (sonic-yang-models) in-process, without yanglint: it converts
// CONFIG_DB tables to the sonic-yang instance form (RFC 7951 JSON, the form
// yanglint reads, reference/sonic.md §6) and validates that instance with
// ygot-generated Go structs (sonic.go, see gen.go) plus the `must`
// constraints and leafrefs ygot does not evaluate. It does no I/O.
//
// What ygot cannot digest, and how this package covers it:
//   - leafref members of unions (PORT_QOS_MAP ifname = PORT name or
//     "global", QUEUE ifname = PORT or "CPU", PFC_WD ifname = PORT or
//     "GLOBAL", BUFFER_PG profile = BUFFER_PROFILE or "NULL"): ytypes has no
//     Go type for a leafref inside a union and checks only the literal
//     branch, rejecting every port name. The union's leafref branch is
//     replaced by a plain string in a private copy of the schema, and
//     checkRefs resolves it against the DB instead.
//   - `must` and `when` XPath expressions: ygot ignores them; the ones on
//     the tables lossless writes are written out in musts (WRED max ≥ min,
//     PFC watchdog times ≥ POLL_INTERVAL and GLOBAL-only fields, scheduler
//     rate/burst pairs, buffer pool percentage); TestMustCoverage fails when
//     the YANG gains one that is neither covered nor listed as out of scope.
//   - leafrefs in general: resolved by checkRefs against the tables present
//     in the DB. A reference into a table the DB does not hold at all (the
//     switch's PORT or BUFFER_POOL rows, absent from a rendering) is not
//     checked; merge the running config first for a full check.
//   - mandatory leaves: checked by checkMandatory.
package sonicyang

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/openconfig/goyang/pkg/yang"
	"github.com/openconfig/ygot/util"
	"github.com/openconfig/ygot/ytypes"

	"github.com/lossless-net/lossless/internal/config"
)

// table is one CONFIG_DB table as the YANG models it.
type table struct {
	module string      // "sonic-queue"
	name   string      // "QUEUE"
	list   *yang.Entry // QUEUE_LIST
	keys   []string    // key leaves of list, in YANG order
	// inner is the inner list of a map table (DSCP_TO_TC_MAP): each
	// CONFIG_DB field becomes an entry {innerKey: field, innerVal: value}.
	inner              *yang.Entry
	innerKey, innerVal string
}

// model is the parsed schema: a private copy of the generated one, with the
// union leafrefs rewritten (see the package comment). It is built once and
// never changed afterwards.
type model struct {
	root   *yang.Entry
	tables map[string]*table
}

var loadModel = sync.OnceValues(func() (*model, error) {
	tree, err := UnzipSchema()
	if err != nil {
		return nil, fmt.Errorf("sonicyang: unzip schema: %w", err)
	}
	root := tree["Device"]
	if root == nil {
		return nil, errors.New("sonicyang: schema has no Device root")
	}
	m := &model{root: root, tables: map[string]*table{}}
	for _, mod := range root.Dir {
		for _, c := range mod.Dir {
			if !c.IsContainer() {
				continue
			}
			l := c.Dir[c.Name+"_LIST"]
			if l == nil || !l.IsList() {
				continue
			}
			t := &table{module: mod.Name, name: c.Name, list: l, keys: strings.Fields(l.Key)}
			if in := l.Dir[c.Name]; in != nil && in.IsList() {
				t.inner = in
				t.innerKey = in.Key
				for n := range in.Dir {
					if n != in.Key {
						t.innerVal = n
					}
				}
			}
			m.tables[c.Name] = t
		}
	}
	patchUnionLeafrefs(root)
	if err := resolveLeafrefs(root); err != nil {
		return nil, err
	}
	return m, nil
})

// resolveLeafrefs gives every leafref leaf of the private schema its
// target's type, once: ytypes then checks the value's type and pattern
// without resolving the path on every leaf it reads (most of its cost),
// and checkRefs checks the reference itself from the original schema.
func resolveLeafrefs(e *yang.Entry) error {
	if e.Type != nil && e.Type.Kind == yang.Yleafref {
		t, err := util.ResolveIfLeafRef(e)
		if err != nil {
			return fmt.Errorf("sonicyang: resolve leafref %s: %w", e.Path(), err)
		}
		if t != nil && t.Type != nil {
			e.Type = t.Type
		}
	}
	for _, c := range e.Dir {
		if err := resolveLeafrefs(c); err != nil {
			return err
		}
	}
	return nil
}

// patchUnionLeafrefs replaces the leafref members of unions with an
// unrestricted string, so ytypes checks the rest of the union and checkRefs
// checks the reference.
func patchUnionLeafrefs(e *yang.Entry) {
	if e.Type != nil && e.Type.Kind == yang.Yunion {
		for i, t := range e.Type.Type {
			if t.Kind == yang.Yleafref {
				e.Type.Type[i] = &yang.YangType{Name: "string", Kind: yang.Ystring}
			}
		}
	}
	for _, c := range e.Dir {
		patchUnionLeafrefs(c)
	}
}

// Instance returns db in the sonic-yang instance form yanglint reads
// (reference/sonic.md §6, shared/yang/sonic/examples/README.md): table T of
// module M becomes {"M:M": {"M:T": {"T_LIST": [...]}}}, multi-part keys
// are split onto the list's key leaves, map tables get their inner list,
// and each CONFIG_DB string is converted to the JSON its YANG type takes
// (numbers for 8–32-bit integers, strings for 64-bit ones, true/false for
// booleans). The output is indented JSON with sorted keys.
func Instance(db config.DB) ([]byte, error) {
	m, err := loadModel()
	if err != nil {
		return nil, err
	}
	inst, err := m.instance(db)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(inst, "", "    ")
	if err != nil {
		return nil, fmt.Errorf("sonicyang: encode instance: %w", err)
	}
	return append(b, '\n'), nil
}

func (m *model) instance(db config.DB) (map[string]any, error) {
	out := map[string]any{}
	for _, tn := range sortedKeys(db) {
		t := m.tables[tn]
		if t == nil {
			return nil, fmt.Errorf("table %s: no SONiC YANG model for it in this build", tn)
		}
		var entries []any
		for _, key := range sortedKeys(db[tn]) {
			e, err := t.entry(key, db[tn][key])
			if err != nil {
				return nil, fmt.Errorf("%s|%s: %w", tn, key, err)
			}
			entries = append(entries, e)
		}
		mod, _ := out[t.module+":"+t.module].(map[string]any)
		if mod == nil {
			mod = map[string]any{}
			out[t.module+":"+t.module] = mod
		}
		mod[t.module+":"+t.name] = map[string]any{t.list.Name: entries}
	}
	return out, nil
}

func (t *table) entry(key string, fields map[string]string) (map[string]any, error) {
	parts := strings.Split(key, "|")
	if len(parts) != len(t.keys) {
		return nil, fmt.Errorf("key has %d parts, %s takes %d (%s)", len(parts), t.list.Name, len(t.keys), strings.Join(t.keys, " "))
	}
	e := map[string]any{}
	for i, k := range t.keys {
		v, err := value(t.list.Dir[k], parts[i])
		if err != nil {
			return nil, fmt.Errorf("key %s: %w", k, err)
		}
		e[k] = v
	}
	if t.inner != nil {
		var in []any
		for _, f := range sortedKeys(fields) {
			kv, err := value(t.inner.Dir[t.innerKey], f)
			if err != nil {
				return nil, fmt.Errorf("%s %q: %w", t.innerKey, f, err)
			}
			vv, err := value(t.inner.Dir[t.innerVal], fields[f])
			if err != nil {
				return nil, fmt.Errorf("%s of %s %q: %w", t.innerVal, t.innerKey, f, err)
			}
			in = append(in, map[string]any{t.innerKey: kv, t.innerVal: vv})
		}
		e[t.inner.Name] = in
		return e, nil
	}
	for _, f := range sortedKeys(fields) {
		name := strings.TrimSuffix(f, "@")
		leaf := t.list.Dir[name]
		if leaf == nil || slicesContains(t.keys, name) {
			return nil, fmt.Errorf("field %q is not in the %s YANG model", f, t.name)
		}
		if leaf.IsLeafList() {
			var vs []any
			for _, s := range strings.Split(fields[f], ",") {
				v, err := value(leaf, s)
				if err != nil {
					return nil, fmt.Errorf("field %s: %w", f, err)
				}
				vs = append(vs, v)
			}
			e[name] = vs
			continue
		}
		v, err := value(leaf, fields[f])
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f, err)
		}
		e[name] = v
	}
	return e, nil
}

// value converts a CONFIG_DB string to its RFC 7951 JSON form.
func value(leaf *yang.Entry, s string) (any, error) {
	if leaf == nil || leaf.Type == nil {
		return s, nil
	}
	switch k := leaf.Type.Kind; k {
	case yang.Yint8, yang.Yint16, yang.Yint32:
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not a %s", s, k)
		}
		return float64(n), nil // as encoding/json decodes a number
	case yang.Yuint8, yang.Yuint16, yang.Yuint32:
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not a %s", s, k)
		}
		return float64(n), nil
	case yang.Ybool:
		switch s {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not a boolean (true or false)", s)
	}
	return s, nil
}

// Option changes what Validate checks.
type Option func(*options)

type options struct {
	external map[string]bool
}

// External names tables whose rows may live on the switch rather than in
// the DB being checked (a rendering refers to the switch's PORT rows and
// buffer pools): a reference into them that the DB cannot resolve is not
// an error. References into other tables must resolve.
func External(tables ...string) Option {
	return func(o *options) {
		for _, t := range tables {
			o.external[t] = true
		}
	}
}

// Validate checks db against the SONiC YANG models: types, ranges,
// patterns and enumerations (ytypes), mandatory leaves, the `must`
// constraints of the QoS tables, and leafrefs into the tables db holds
// (a table db does not hold at all is the switch's and is not checked).
// The error lists every violation, one per line.
func Validate(db config.DB, opts ...Option) error {
	o := options{external: map[string]bool{}}
	for _, opt := range opts {
		opt(&o)
	}
	m, err := loadModel()
	if err != nil {
		return err
	}
	// The instance goes to ytypes as encoding/json would decode it: maps,
	// slices, strings, float64 numbers and booleans.
	tree, err := m.instance(db)
	if err != nil {
		return fmt.Errorf("sonic yang: %w", err)
	}
	var errs []string
	dev := &Device{}
	if err := ytypes.Unmarshal(m.root, dev, tree); err != nil {
		return fmt.Errorf("sonic yang: %w", err)
	}
	if err := ytypes.Validate(m.root, dev, &ytypes.LeafrefOptions{IgnoreMissingData: true}); err != nil {
		var ue util.Errors
		if errors.As(err, &ue) {
			for _, e := range ue {
				errs = append(errs, e.Error())
			}
		} else {
			errs = append(errs, err.Error())
		}
	}
	errs = append(errs, m.checkMandatory(db)...)
	errs = append(errs, m.checkRefs(db, o.external)...)
	errs = append(errs, checkMusts(db)...)
	if len(errs) == 0 {
		return nil
	}
	sort.Strings(errs)
	return fmt.Errorf("sonic yang: %d violations:\n%s", len(errs), strings.Join(errs, "\n"))
}

// checkMandatory reports `mandatory true` leaves that an entry lacks.
func (m *model) checkMandatory(db config.DB) []string {
	var errs []string
	for _, tn := range sortedKeys(db) {
		t := m.tables[tn]
		if t == nil || t.inner != nil {
			continue
		}
		for _, key := range sortedKeys(db[tn]) {
			for _, name := range sortedKeys(t.list.Dir) {
				leaf := t.list.Dir[name]
				if leaf.Mandatory != yang.TSTrue {
					continue
				}
				if _, ok := db[tn][key][name]; !ok {
					errs = append(errs, fmt.Sprintf("%s|%s: mandatory field %s is missing", tn, key, name))
				}
			}
		}
	}
	return errs
}

// checkRefs resolves every leafref (and leafref branch of a union) whose
// target table db holds. A union leaf whose literal branch matches needs
// no target.
func (m *model) checkRefs(db config.DB, external map[string]bool) []string {
	var errs []string
	check := func(where string, leaf *yang.Entry, v string) {
		target, literal := refTarget(leaf)
		if target == "" || (literal != nil && literal(v)) {
			return
		}
		rows, ok := db[target]
		if !ok || external[target] {
			return // the switch's rows, not (all) in this DB
		}
		if _, ok := rows[v]; !ok {
			errs = append(errs, fmt.Sprintf("%s: %q refers to %s|%s, which does not exist", where, v, target, v))
		}
	}
	for _, tn := range sortedKeys(db) {
		t := m.tables[tn]
		if t == nil {
			continue
		}
		for _, key := range sortedKeys(db[tn]) {
			parts := strings.Split(key, "|")
			for i, k := range t.keys {
				if i < len(parts) {
					check(fmt.Sprintf("%s|%s key %s", tn, key, k), t.list.Dir[k], parts[i])
				}
			}
			if t.inner != nil {
				for f := range db[tn][key] {
					check(fmt.Sprintf("%s|%s %s", tn, key, f), t.inner.Dir[t.innerKey], f)
				}
				continue
			}
			for _, f := range sortedKeys(db[tn][key]) {
				if leaf := t.list.Dir[f]; leaf != nil {
					check(fmt.Sprintf("%s|%s field %s", tn, key, f), leaf, db[tn][key][f])
				}
			}
		}
	}
	return errs
}

// refTarget returns the table a leafref (or a union with a leafref member)
// points at, and for a union, a test for its literal branch. The original,
// unpatched type is read from the generated schema.
func refTarget(leaf *yang.Entry) (string, func(string) bool) {
	if leaf == nil || leaf.Type == nil {
		return "", nil
	}
	orig := originalType(leaf)
	if orig == nil {
		return "", nil
	}
	switch orig.Kind {
	case yang.Yleafref:
		return pathTable(orig.Path), nil
	case yang.Yunion:
		var target string
		var literals []*yang.YangType
		for _, t := range orig.Type {
			if t.Kind == yang.Yleafref {
				target = pathTable(t.Path)
			} else {
				literals = append(literals, t)
			}
		}
		if target == "" {
			return "", nil
		}
		return target, func(v string) bool {
			for _, t := range literals {
				if t.Kind == yang.Ystring && matchesPatterns(t, v) {
					return true
				}
			}
			return false
		}
	}
	return "", nil
}

// originalType finds leaf's type in the unpatched generated schema.
func originalType(leaf *yang.Entry) *yang.YangType {
	var path []string
	for e := leaf; e != nil && e.Parent != nil; e = e.Parent {
		path = append([]string{e.Name}, path...)
	}
	e := SchemaTree["Device"]
	for _, p := range path {
		if e == nil {
			return nil
		}
		e = e.Dir[p]
	}
	if e == nil {
		return nil
	}
	return e.Type
}

// pathTable returns the table a leafref path names:
// "/port:sonic-port/port:PORT/port:PORT_LIST/port:name" → "PORT".
func pathTable(p string) string {
	el := strings.Split(strings.Trim(p, "/"), "/")
	if len(el) < 3 {
		return ""
	}
	t := el[len(el)-3]
	if i := strings.IndexByte(t, ':'); i >= 0 {
		t = t[i+1:]
	}
	return t
}

// matchesPatterns reports whether v matches every pattern of a string
// type that has at least one (the literal branches: "global", "CPU" …).
func matchesPatterns(t *yang.YangType, v string) bool {
	for _, p := range t.Pattern {
		re, err := regexp.Compile("^(?:" + p + ")$")
		if err != nil || !re.MatchString(v) {
			return false
		}
	}
	return len(t.Pattern) > 0
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	slices.SortFunc(k, NaturalCompare)
	return k
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// NaturalLess orders strings as SONiC's `config save` and the references
// print keys: runs of digits compare by value ("Ethernet4" before
// "Ethernet12", "9" before "10"), everything else byte by byte.
func NaturalLess(a, b string) bool { return NaturalCompare(a, b) < 0 }

// NaturalCompare is NaturalLess as a three-way comparison for
// slices.SortFunc: -1, 0 or +1.
func NaturalCompare(a, b string) int {
	// Fast path: up to the first difference the strings agree, so only
	// a difference inside a run of digits needs the numeric comparison.
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	if k == len(a) || k == len(b) {
		return cmpInt(len(a), len(b))
	}
	if !isDigit(a[k]) && !isDigit(b[k]) {
		return cmpInt(int(a[k]), int(b[k]))
	}
	for k > 0 && isDigit(a[k-1]) {
		k--
	}
	i, j := k, k
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			// Skip leading zeros, then the longer run is the larger number;
			// equal lengths compare digit by digit; equal values order by
			// the number of leading zeros.
			si, sj := i, j
			for i < len(a) && a[i] == '0' {
				i++
			}
			for j < len(b) && b[j] == '0' {
				j++
			}
			zi, zj := i-si, j-sj
			ei, ej := i, j
			for ei < len(a) && isDigit(a[ei]) {
				ei++
			}
			for ej < len(b) && isDigit(b[ej]) {
				ej++
			}
			if ei-i != ej-j {
				return cmpInt(ei-i, ej-j)
			}
			if c := strings.Compare(a[i:ei], b[j:ej]); c != 0 {
				return c
			}
			if zi != zj {
				return cmpInt(zi, zj)
			}
			i, j = ei, ej
			continue
		}
		if ca != cb {
			return cmpInt(int(ca), int(cb))
		}
		i++
		j++
	}
	return cmpInt(len(a)-i, len(b)-j)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
