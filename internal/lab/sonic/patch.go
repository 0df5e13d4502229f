package sonic

import (
	"encoding/json"
	"fmt"

	"strings"
)

// op is one RFC 6902 operation.
type op struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// parsePatch decodes a JSON Patch document.
func parsePatch(b []byte) ([]op, error) {
	var ops []op
	if err := json.Unmarshal(b, &ops); err != nil {
		return nil, fmt.Errorf("invalid JSON patch: %w", err)
	}
	for i, o := range ops {
		switch o.Op {
		case "add", "replace", "test":
			if o.Value == nil {
				return nil, fmt.Errorf("operation %d: %q needs a value", i, o.Op)
			}
		case "remove":
		case "move", "copy":
			if o.From == "" {
				return nil, fmt.Errorf("operation %d: %q needs from", i, o.Op)
			}
		default:
			return nil, fmt.Errorf("operation %d: unknown op %q", i, o.Op)
		}
	}
	return ops, nil
}

// pointer splits an RFC 6901 JSON Pointer into unescaped tokens.
func pointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("location must start with /: %q", p)
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, nil
}

// toTree turns CONFIG_DB into generic JSON objects for patching.
func toTree(d db) map[string]any {
	t := make(map[string]any, len(d))
	for tn, keys := range d {
		km := make(map[string]any, len(keys))
		for k, fields := range keys {
			fm := make(map[string]any, len(fields))
			for f, v := range fields {
				fm[f] = v
			}
			km[k] = fm
		}
		t[tn] = km
	}
	return t
}

// fromTree turns patched JSON back into CONFIG_DB; every value must be a
// string at table/key/field depth, as redis stores them.
func fromTree(t map[string]any) (db, error) {
	d := make(db, len(t))
	for tn, kv := range t {
		km, ok := kv.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("table %s is not an object", tn)
		}
		d[tn] = make(map[string]map[string]string, len(km))
		for k, fv := range km {
			fm, ok := fv.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("entry %s|%s is not an object", tn, k)
			}
			fields := make(map[string]string, len(fm))
			for f, v := range fm {
				s, ok := v.(string)
				if !ok {
					return nil, fmt.Errorf("field %s of %s|%s is not a string: CONFIG_DB holds strings", f, tn, k)
				}
				fields[f] = s
			}
			d[tn][k] = fields
		}
	}
	return d, nil
}

// applyPatch applies ops to a copy of d. Missing tables are created before
// an add that needs them, as GCU does (reference/sonic.md §7.2).
func applyPatch(d db, ops []op) (db, error) {
	root := any(toTree(d))
	for i, o := range ops {
		toks, err := pointer(o.Path)
		if err != nil {
			return nil, fmt.Errorf("operation %d: %w", i, err)
		}
		if o.Op == "add" && len(toks) > 1 {
			if top := root.(map[string]any); top[toks[0]] == nil {
				top[toks[0]] = map[string]any{}
			}
		}
		var val any
		if o.Value != nil {
			if err := json.Unmarshal(o.Value, &val); err != nil {
				return nil, fmt.Errorf("operation %d: %w", i, err)
			}
		}
		switch o.Op {
		case "add":
			root, err = setAt(root, toks, val, false)
		case "replace":
			root, err = setAt(root, toks, val, true)
		case "remove":
			root, _, err = removeAt(root, toks)
		case "test":
			var cur any
			if cur, err = getAt(root, toks); err == nil && !jsonEqual(cur, val) {
				err = fmt.Errorf("test failed at %s", o.Path)
			}
		case "move", "copy":
			from, ferr := pointer(o.From)
			if ferr != nil {
				return nil, fmt.Errorf("operation %d: %w", i, ferr)
			}
			var v any
			if o.Op == "move" {
				root, v, err = removeAt(root, from)
			} else {
				v, err = getAt(root, from)
				v = deepCopy(v)
			}
			if err == nil {
				root, err = setAt(root, toks, v, false)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("operation %d (%s %s): %w", i, o.Op, o.Path, err)
		}
	}
	top, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the patched document is not an object")
	}
	return fromTree(top)
}

func getAt(root any, toks []string) (any, error) {
	cur := root
	for _, t := range toks {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("member %q is not in an object", t)
		}
		if cur, ok = m[t]; !ok {
			return nil, fmt.Errorf("member %q not found", t)
		}
	}
	return cur, nil
}

// shapeOK reports whether v has the CONFIG_DB shape for a value placed
// depth levels above the fields: a string at 0, objects above. Checking it
// on every write keeps a patch from growing the document (a copy of a
// table into one of its own keys) beyond what CONFIG_DB can hold.
func shapeOK(v any, depth int) bool {
	if depth == 0 {
		_, ok := v.(string)
		return ok
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, e := range m {
		if !shapeOK(e, depth-1) {
			return false
		}
	}
	return true
}

// setAt adds (or, with mustExist, replaces) the value at toks.
func setAt(root any, toks []string, v any, mustExist bool) (any, error) {
	if len(toks) > 3 || !shapeOK(v, 3-len(toks)) {
		return nil, fmt.Errorf("value at %q does not fit CONFIG_DB's table/key/field form of strings", "/"+strings.Join(toks, "/"))
	}
	if len(toks) == 0 {
		return v, nil
	}
	parent, err := getAt(root, toks[:len(toks)-1])
	if err != nil {
		return nil, err
	}
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		if _, ok := p[last]; mustExist && !ok {
			return nil, fmt.Errorf("can't replace a non-existent object %q", last)
		}
		p[last] = v
	case []any:
		return nil, fmt.Errorf("arrays are not part of the CONFIG_DB form (%q)", last)
	default:
		return nil, fmt.Errorf("member %q is not in an object", last)
	}
	return root, nil
}

func removeAt(root any, toks []string) (any, any, error) {
	if len(toks) == 0 {
		return map[string]any{}, root, nil
	}
	parent, err := getAt(root, toks[:len(toks)-1])
	if err != nil {
		return nil, nil, err
	}
	last := toks[len(toks)-1]
	p, ok := parent.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("member %q is not in an object", last)
	}
	v, ok := p[last]
	if !ok {
		return nil, nil, fmt.Errorf("can't remove a non-existent object %q", last)
	}
	delete(p, last)
	return root, v, nil
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = deepCopy(e)
		}
		return s
	}
	return v
}

func jsonEqual(a, b any) bool {
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return string(ab) == string(bb)
}

// diffPatch is the JSON Patch from a to b, per field, in natural order:
// what `config replace` and `config rollback` compute (reference/sonic.md
// §7.3).
func diffPatch(a, b db) []op {
	var ops []op
	str := func(s string) json.RawMessage { q, _ := json.Marshal(s); return q }
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") }
	for _, tn := range sortedKeys(union(a, b)) {
		at, bt := a[tn], b[tn]
		if bt == nil {
			ops = append(ops, op{Op: "remove", Path: "/" + esc(tn)})
			continue
		}
		for _, k := range sortedKeys(union(at, bt)) {
			af, bf := at[k], bt[k]
			path := "/" + esc(tn) + "/" + esc(k)
			switch {
			case bf == nil:
				ops = append(ops, op{Op: "remove", Path: path})
			case af == nil:
				v, _ := json.Marshal(bf)
				ops = append(ops, op{Op: "add", Path: path, Value: v})
			default:
				for _, f := range sortedKeys(union(af, bf)) {
					av, aok := af[f]
					bv, bok := bf[f]
					switch {
					case !bok:
						ops = append(ops, op{Op: "remove", Path: path + "/" + esc(f)})
					case !aok:
						ops = append(ops, op{Op: "add", Path: path + "/" + esc(f), Value: str(bv)})
					case av != bv:
						ops = append(ops, op{Op: "replace", Path: path + "/" + esc(f), Value: str(bv)})
					}
				}
			}
		}
	}
	return ops
}

func union[V any](a, b map[string]V) map[string]bool {
	u := make(map[string]bool, len(a)+len(b))
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// copyDB deep-copies CONFIG_DB.
func copyDB(d db) db {
	c := make(db, len(d))
	for tn, keys := range d {
		c[tn] = copyTable(keys)
	}
	return c
}

// copyTable deep-copies one table.
func copyTable(keys map[string]map[string]string) map[string]map[string]string {
	c := make(map[string]map[string]string, len(keys))
	for k, fields := range keys {
		f := make(map[string]string, len(fields))
		for n, v := range fields {
			f[n] = v
		}
		c[k] = f
	}
	return c
}

// opsJSON prints ops compactly, as GCU logs the patch.
func opsJSON(ops []op) string {
	b, _ := json.Marshal(ops)
	return string(b)
}
