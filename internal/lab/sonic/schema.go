package sonic

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/openconfig/goyang/pkg/yang"
)

// yangFS holds the SONiC YANG modules the validator reads: a byte-for-byte
// copy of shared/yang/sonic (sonic-buildimage 086b03bd, see
// yang/SOURCES.txt), embedded so that the lab validates without the
// shared folder. A test checks the copy against the shared one.
//
//go:embed yang/*.yang yang/SOURCES.txt
var yangFS embed.FS

// schema is what the validator knows of each CONFIG_DB table that has a
// SONiC YANG model (reference/sonic.md §6).
type schema struct {
	tables map[string]*table
	// patterns holds every YANG pattern compiled once at load, so that
	// validation is read-only and safe for concurrent use.
	patterns map[string]*regexp.Regexp
	// refCount counts the leafrefs that point at each table's keys, and
	// referrers lists the tables holding them (GCU's move order and the
	// tables a move's validation covers, gcu.go).
	refCount  map[string]int
	referrers map[string][]string
}

// table is one CONFIG_DB table's YANG shape.
type table struct {
	name   string // CONFIG_DB table name ("QUEUE")
	module string // YANG module ("sonic-queue")
	// list is the <TABLE>_LIST entry, nil for a table modelled as
	// containers (DEVICE_METADATA|localhost, FLEX_COUNTER_TABLE|PFCWD).
	list *yang.Entry
	keys []string
	// inner is set for map tables (DSCP_TO_TC_MAP, CABLE_LENGTH…): the
	// inner list whose two leaves take the CONFIG_DB field name and value.
	inner              *yang.Entry
	innerKey, innerVal string
	// containers is the table container, for container-modelled tables.
	containers *yang.Entry
}

// loadSchema parses the embedded modules with goyang and indexes their
// tables by CONFIG_DB name.
func loadSchema() (*schema, error) {
	ms := yang.NewModules()
	files, err := fs.Glob(yangFS, "yang/*.yang")
	if err != nil {
		return nil, fmt.Errorf("load sonic yang: %w", err)
	}
	sort.Strings(files)
	var names []string
	for _, f := range files {
		b, err := yangFS.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("load sonic yang %s: %w", f, err)
		}
		if err := ms.Parse(string(b), path.Base(f)); err != nil {
			return nil, fmt.Errorf("load sonic yang %s: %w", f, err)
		}
		if n := strings.TrimSuffix(path.Base(f), ".yang"); strings.HasPrefix(n, "sonic-") {
			names = append(names, n)
		}
	}
	if errs := ms.Process(); len(errs) > 0 {
		return nil, fmt.Errorf("load sonic yang: %w", errs[0])
	}
	s := &schema{tables: map[string]*table{}, patterns: map[string]*regexp.Regexp{}, refCount: map[string]int{}, referrers: map[string][]string{}}
	for _, n := range names {
		m, errs := ms.GetModule(n)
		if len(errs) > 0 {
			return nil, fmt.Errorf("load sonic yang %s: %w", n, errs[0])
		}
		top := m.Dir[n]
		if top == nil {
			continue // sonic-types, sonic-extension: no data
		}
		for tname, c := range top.Dir {
			if !c.IsContainer() {
				continue
			}
			t := &table{name: tname, module: n}
			if l := c.Dir[tname+"_LIST"]; l != nil && l.IsList() {
				t.list = l
				t.keys = strings.Fields(l.Key)
				if in := l.Dir[tname]; in != nil && in.IsList() {
					t.inner = in
					t.innerKey = strings.Fields(in.Key)[0]
					for ln := range in.Dir {
						if ln != t.innerKey {
							t.innerVal = ln
						}
					}
				}
			} else {
				t.containers = c
			}
			s.tables[tname] = t
			s.compilePatterns(c)
			s.countRefs(tname, c)
		}
	}
	for tn := range s.referrers {
		sort.Strings(s.referrers[tn])
	}
	return s, nil
}

// countRefs records the leafrefs of the leaves under e, a container of
// table tn.
func (s *schema) countRefs(tn string, e *yang.Entry) {
	var targets func(t *yang.YangType) []string
	targets = func(t *yang.YangType) []string {
		if t == nil {
			return nil
		}
		if t.Kind == yang.Yleafref {
			if target := leafrefTable(t.Path); target != "" {
				return []string{target}
			}
		}
		var out []string
		for _, u := range t.Type {
			out = append(out, targets(u)...)
		}
		return out
	}
	for _, target := range targets(e.Type) {
		s.refCount[target]++
		if !contains(s.referrers[target], tn) {
			s.referrers[target] = append(s.referrers[target], tn)
		}
	}
	for _, c := range e.Dir {
		s.countRefs(tn, c)
	}
}

// compilePatterns compiles the patterns of every leaf under e. YANG
// patterns are anchored XSD regular expressions; the ones SONiC uses are
// also valid RE2.
func (s *schema) compilePatterns(e *yang.Entry) {
	var walkType func(t *yang.YangType)
	walkType = func(t *yang.YangType) {
		if t == nil {
			return
		}
		for _, p := range t.Pattern {
			if _, ok := s.patterns[p]; !ok {
				if re, err := regexp.Compile("^(?:" + p + ")$"); err == nil {
					s.patterns[p] = re
				}
			}
		}
		for _, u := range t.Type {
			walkType(u)
		}
	}
	walkType(e.Type)
	for _, c := range e.Dir {
		s.compilePatterns(c)
	}
}

// db is CONFIG_DB: table → key → field → value.
type db map[string]map[string]map[string]string

// validate checks a whole CONFIG_DB against the YANG as `config
// apply-patch` does before writing (reference/sonic.md §6, §7.2): types,
// patterns, ranges, enumerations, leafrefs, mandatory leaves and the must
// expressions the lab knows. Tables without a model are not checked. It
// returns the first failure in libyang's wording, or "".
func (s *schema) validate(d db) string {
	return s.validateIn(d, sortedKeys(d))
}

// validateIn is validate for the named tables of d, in order.
func (s *schema) validateIn(d db, tables []string) string {
	for _, tn := range tables {
		t := s.tables[tn]
		if t == nil {
			continue
		}
		for _, key := range sortedKeys(d[tn]) {
			if msg := s.validateEntry(d, t, key, d[tn][key]); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// location is libyang's data path of a list entry.
func (t *table) location(key string) string {
	base := fmt.Sprintf("/%s:%s/%s", t.module, t.module, t.name)
	if t.list == nil {
		return base + "/" + key
	}
	parts := strings.Split(key, "|")
	var b strings.Builder
	b.WriteString(base + "/" + t.name + "_LIST")
	for i, k := range t.keys {
		if i < len(parts) {
			fmt.Fprintf(&b, "[%s='%s']", k, parts[i])
		}
	}
	return b.String()
}

func errAt(msg, loc string) string {
	return fmt.Sprintf("%s (Data location \"%s\".)", msg, loc)
}

func (s *schema) validateEntry(d db, t *table, key string, fields map[string]string) string {
	loc := t.location(key)
	var entry *yang.Entry
	if t.list == nil {
		entry = t.containers.Dir[key]
		if entry == nil || !entry.IsContainer() {
			return errAt(fmt.Sprintf("Node \"%s\" not found in the \"%s\" module.", key, t.module), "/"+t.module+":"+t.module+"/"+t.name)
		}
	} else {
		entry = t.list
		parts := strings.Split(key, "|")
		if len(parts) != len(t.keys) {
			return errAt(fmt.Sprintf("List instance is missing its key \"%s\".", t.keys[min(len(parts), len(t.keys)-1)]), loc)
		}
		for i, k := range t.keys {
			if msg := s.checkLeaf(d, entry.Dir[k], parts[i], fields); msg != "" {
				return errAt(msg, loc+"/"+k)
			}
		}
	}
	if t.inner != nil {
		for _, f := range sortedKeys(fields) {
			if msg := s.checkLeaf(d, t.inner.Dir[t.innerKey], f, nil); msg != "" {
				return errAt(msg, loc+"/"+t.name+"/"+t.innerKey)
			}
			if msg := s.checkLeaf(d, t.inner.Dir[t.innerVal], fields[f], nil); msg != "" {
				return errAt(msg, loc+"/"+t.name+"/"+t.innerVal)
			}
		}
		return ""
	}
	for _, f := range sortedKeys(fields) {
		leaf := entry.Dir[strings.TrimSuffix(f, "@")]
		if leaf != nil && leaf.IsLeafList() {
			// A leaf-list is one comma-separated CONFIG_DB string
			// (reference/sonic.md §1, §2.15).
			for _, item := range strings.Split(fields[f], ",") {
				if msg := s.checkLeaf(d, leaf, item, fields); msg != "" {
					return errAt(msg, loc+"/"+leaf.Name)
				}
			}
			continue
		}
		if leaf == nil || !leaf.IsLeaf() {
			// sonic_yang cannot translate a field the model lacks.
			return fmt.Sprintf("All Keys are not parsed in %s\ndict_keys(['%s'])", t.name, f)
		}
		if msg := s.checkLeaf(d, leaf, fields[f], fields); msg != "" {
			return errAt(msg, loc+"/"+f)
		}
		if msg := s.checkMust(d, t, key, leaf, fields); msg != "" {
			return errAt(msg, loc+"/"+f)
		}
	}
	for _, ln := range sortedKeys(entry.Dir) {
		leaf := entry.Dir[ln]
		if !leaf.IsLeaf() || leaf.Mandatory != yang.TSTrue || isKey(t, ln) {
			continue
		}
		if l, ok := leaf.Node.(*yang.Leaf); ok && l.When != nil {
			continue // conditional; the lab does not evaluate when
		}
		if _, ok := fields[ln]; !ok {
			return fmt.Sprintf("Mandatory node \"%s\" instance does not exist. (Schema location \"/%s:%s/%s/%s_LIST/%s\".)", ln, t.module, t.module, t.name, t.name, ln)
		}
	}
	return ""
}

func isKey(t *table, n string) bool {
	for _, k := range t.keys {
		if k == n {
			return true
		}
	}
	return false
}

// checkLeaf checks one value against a leaf's type.
func (s *schema) checkLeaf(d db, leaf *yang.Entry, v string, _ map[string]string) string {
	if leaf == nil || leaf.Type == nil {
		return ""
	}
	return s.checkType(d, leaf, leaf.Type, v)
}

// checkType checks v against a YANG type; the messages are libyang's.
func (s *schema) checkType(d db, leaf *yang.Entry, t *yang.YangType, v string) string {
	switch t.Kind {
	case yang.Ystring:
		if len(t.Length) > 0 {
			n, _ := yang.ParseInt(fmt.Sprint(len([]rune(v))))
			if !t.Length.Contains(yang.YangRange{{Min: n, Max: n}}) {
				if m := leafErrorMessage(leaf, "length"); m != "" {
					return m
				}
				return fmt.Sprintf("Unsatisfied length - string \"%s\" length is not allowed.", v)
			}
		}
		for _, p := range t.Pattern {
			if re := s.patterns[p]; re != nil && !re.MatchString(v) {
				if m := leafErrorMessage(leaf, "pattern"); m != "" {
					return m
				}
				return fmt.Sprintf("Unsatisfied pattern - \"%s\" does not conform to \"%s\".", v, p)
			}
		}
	case yang.Yint8, yang.Yint16, yang.Yint32, yang.Yint64, yang.Yuint8, yang.Yuint16, yang.Yuint32, yang.Yuint64:
		n, err := yang.ParseInt(v)
		if err != nil || strings.TrimSpace(v) != v || v == "" {
			return fmt.Sprintf("Invalid %s value \"%s\".", yang.TypeKindToName[t.Kind], v)
		}
		if !t.Range.Contains(yang.YangRange{{Min: n, Max: n}}) {
			if m := leafErrorMessage(leaf, "range"); m != "" {
				return m
			}
			return fmt.Sprintf("Unsatisfied range - value \"%s\" is out of the allowed range.", v)
		}
	case yang.Ybool:
		if v != "true" && v != "false" {
			return fmt.Sprintf("Invalid boolean value \"%s\".", v)
		}
	case yang.Yenum:
		if !t.Enum.IsDefined(v) {
			return fmt.Sprintf("Invalid enumeration value \"%s\".", v)
		}
	case yang.Yleafref:
		target := leafrefTable(t.Path)
		if target == "" {
			return ""
		}
		if _, ok := d[target][v]; !ok {
			return fmt.Sprintf("Invalid leafref value \"%s\" - no target instance \"%s\" with the same value.", v, t.Path)
		}
	case yang.Yunion:
		for _, u := range t.Type {
			if s.checkType(d, nil, u, v) == "" {
				return ""
			}
		}
		return fmt.Sprintf("Invalid union value \"%s\" - no matching subtype found.", v)
	}
	return ""
}

// leafrefTable returns the CONFIG_DB table a leafref path points into:
// "/port:sonic-port/port:PORT/port:PORT_LIST/port:name" → "PORT".
func leafrefTable(p string) string {
	els := strings.Split(strings.Trim(p, "/"), "/")
	for i, e := range els {
		if _, n, ok := strings.Cut(e, ":"); ok {
			e = n
		}
		if strings.HasSuffix(e, "_LIST") && i > 0 {
			return strings.TrimSuffix(e, "_LIST")
		}
	}
	return ""
}

// leafErrorMessage returns the error-message of a restriction on the
// leaf's type statement or on the typedef it derives from ("Invalid DSCP",
// "Invalid Traffic Class"), or "".
func leafErrorMessage(leaf *yang.Entry, kind string) string {
	if leaf == nil || leaf.Type == nil {
		return ""
	}
	var stmts []*yang.Type
	if l, ok := leaf.Node.(*yang.Leaf); ok && l.Type != nil {
		stmts = append(stmts, l.Type)
	}
	for yt, i := leaf.Type, 0; yt != nil && i < 8; yt, i = yt.Root, i+1 {
		if yt.Base != nil {
			stmts = append(stmts, yt.Base)
		}
		if yt.Root == yt {
			break
		}
	}
	for _, st := range stmts {
		var msgs []*yang.Value
		switch kind {
		case "pattern":
			for _, p := range st.Pattern {
				msgs = append(msgs, p.ErrorMessage)
			}
		case "range":
			if st.Range != nil {
				msgs = append(msgs, st.Range.ErrorMessage)
			}
		case "length":
			if st.Length != nil {
				msgs = append(msgs, st.Length.ErrorMessage)
			}
		}
		for _, m := range msgs {
			if m != nil && m.Name != "" {
				return m.Name
			}
		}
	}
	return ""
}

// sortedKeys returns a map's keys in natural order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return naturalLess(ks[i], ks[j]) })
	return ks
}
