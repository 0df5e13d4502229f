package sonic

import (
	"regexp"
	"strconv"

	"github.com/openconfig/goyang/pkg/yang"
)

// mustRule evaluates one shape of YANG must expression found in the QoS
// modules. The lab does not carry an XPath engine: each expression the
// modules use is recognised by its text, and TestEveryMustIsKnown fails
// when a module gains one the lab cannot evaluate.
type mustRule struct {
	re *regexp.Regexp
	// ok evaluates the expression for the leaf's value v; m holds the
	// regexp's submatches.
	ok func(d db, key string, fields map[string]string, v string, m []string) bool
}

// num parses a CONFIG_DB number; ok is false for a missing or bad one.
func num(fields map[string]string, f string) (uint64, bool) {
	s, present := fields[f]
	if !present {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// mustRules are the must expressions of sonic-wred-profile,
// sonic-scheduler, sonic-pfcwd and sonic-buffer-pool.
var mustRules = []mustRule{
	{ // wred: "(current() >= current()/../green_min_threshold)"; scheduler pir >= cir
		regexp.MustCompile(`^\(current\(\) >= current\(\)/\.\./(\w+)\)$`),
		func(_ db, _ string, f map[string]string, v string, m []string) bool {
			lo, ok := num(f, m[1])
			hi, err := strconv.ParseUint(v, 10, 64)
			return ok && err == nil && hi >= lo
		}},
	{ // scheduler: "((current()/../cir) and (current()/../cir > 0))"
		regexp.MustCompile(`^\(\(current\(\)/\.\./(\w+)\) and \(current\(\)/\.\./\w+ > 0\)\)$`),
		func(_ db, _ string, f map[string]string, _ string, m []string) bool {
			n, ok := num(f, m[1])
			return ok && n > 0
		}},
	{ // scheduler: "((not(current()/../cbs)) or (current() >= current()/../cbs))"
		regexp.MustCompile(`^\(\(not\(current\(\)/\.\./(\w+)\)\) or \(current\(\) >= current\(\)/\.\./\w+\)\)$`),
		func(_ db, _ string, f map[string]string, v string, m []string) bool {
			lo, ok := num(f, m[1])
			hi, err := strconv.ParseUint(v, 10, 64)
			return !ok || (err == nil && hi >= lo)
		}},
	{ // pfcwd: "../ifname != 'GLOBAL'" and "../ifname = 'GLOBAL'"
		regexp.MustCompile(`^\.\./ifname (!?=) '(\w+)'$`),
		func(_ db, key string, _ map[string]string, _ string, m []string) bool {
			return (key == m[2]) == (m[1] == "=")
		}},
	{ // pfcwd: detection/restoration time >= GLOBAL POLL_INTERVAL
		regexp.MustCompile(`^\(not\(boolean\(current\(\)/\.\./\.\./PFC_WD_LIST\[ifname='GLOBAL'\]\)\) or \(current\(\) >= current\(\)/\.\./\.\./PFC_WD_LIST\[ifname='GLOBAL'\]/POLL_INTERVAL\)\)$`),
		func(d db, _ string, _ map[string]string, v string, _ []string) bool {
			g, ok := d["PFC_WD"]["GLOBAL"]
			if !ok {
				return true
			}
			poll, ok := num(g, "POLL_INTERVAL")
			n, err := strconv.ParseUint(v, 10, 64)
			return !ok || (err == nil && n >= poll)
		}},
	{ // buffer pool: "(not(current()/../size))"
		regexp.MustCompile(`^\(not\(current\(\)/\.\./(\w+)\)\)$`),
		func(_ db, _ string, f map[string]string, _ string, m []string) bool {
			_, present := f[m[1]]
			return !present
		}},
	{ // buffer pool: ".../DEVICE_METADATA/…:localhost/…:buffer_model = 'dynamic'"
		regexp.MustCompile(`^/[\w:-]+/[\w:-]*DEVICE_METADATA/[\w:-]*localhost/[\w:-]*buffer_model = '(\w+)'$`),
		func(d db, _ string, _ map[string]string, _ string, m []string) bool {
			return d["DEVICE_METADATA"]["localhost"]["buffer_model"] == m[1]
		}},
}

// findMust returns the rule and submatches for an expression, or nil.
func findMust(expr string) (*mustRule, []string) {
	for i := range mustRules {
		if m := mustRules[i].re.FindStringSubmatch(expr); m != nil {
			return &mustRules[i], m
		}
	}
	return nil, nil
}

// checkMust evaluates the must statements of a leaf that is present. A
// failure prints the statement's error-message, or libyang's generic text.
func (s *schema) checkMust(d db, t *table, key string, leaf *yang.Entry, fields map[string]string) string {
	l, ok := leaf.Node.(*yang.Leaf)
	if !ok {
		return ""
	}
	for _, must := range l.Must {
		r, m := findMust(must.Name)
		if r == nil {
			continue
		}
		if !r.ok(d, key, fields, fields[leaf.Name], m) {
			if must.ErrorMessage != nil && must.ErrorMessage.Name != "" {
				return must.ErrorMessage.Name
			}
			return "Must condition \"" + must.Name + "\" not satisfied."
		}
	}
	return ""
}
