package sonic

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lossless-net/lossless/internal/config"
)

// ParseRunning decodes `show runningconfiguration all` (or a Running
// result) and keeps the tables lossless reads. It drops "bgpraw", reads
// the "localhost" scope of a multi-ASIC device, and joins a leaf-list
// value into CONFIG_DB's comma-separated string.
//
// It scans the JSON itself: CONFIG_DB is objects of objects of strings,
// and encoding/json's generic maps cost several times the budget of a
// plan on a large switch. Anything that is not valid JSON is an error.
func ParseRunning(b []byte) (config.DB, error) {
	db, _, err := parseRunning(b, nil)
	return db, err
}

// parseRunning is ParseRunning with the tables of size (the rendering:
// a running table is usually about as large) sizing the tables read. It
// also returns each table's keys in the order the document has them.
func parseRunning(b []byte, size config.DB) (config.DB, map[string][]string, error) {
	// The strings read are cut from one copy of the document: no
	// allocation (and no interning) per key, field and value.
	p := &parser{b: b, s: string(b), size: size, order: map[string][]string{}}
	db, multi, err := p.top()
	if err != nil {
		return nil, nil, fmt.Errorf("parse running config: %w", err)
	}
	if multi[1] > 0 && !anyTable(db) {
		// Multi-ASIC: {"localhost": {tables}, "asic0": {…}}.
		p = &parser{b: p.b[multi[0]:multi[1]], s: p.s[multi[0]:multi[1]], size: size, order: map[string][]string{}}
		if db, _, err = p.top(); err != nil {
			return nil, nil, fmt.Errorf("parse running config: localhost: %w", err)
		}
	}
	return db, p.order, nil
}

func anyTable(db config.DB) bool { return len(db) > 0 }

// parser scans one JSON document.
type parser struct {
	b []byte
	s string // string(b): the strings read are substrings of it
	i int
	// size, when not nil, holds tables about the size of those read.
	size config.DB
	// order holds the keys of each table read, in document order.
	order map[string][]string
}

var errSyntax = errors.New("invalid JSON")

func (p *parser) fail(what string) error {
	return fmt.Errorf("%w: %s at byte %d", errSyntax, what, p.i)
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) expect(c byte) error {
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != c {
		return p.fail(fmt.Sprintf("want %q", c))
	}
	p.i++
	return nil
}

// object calls member for each member of an object; member must consume
// the value.
func (p *parser) object(member func(name string) error) error {
	if err := p.expect('{'); err != nil {
		return err
	}
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return nil
	}
	for {
		p.ws()
		name, err := p.str()
		if err != nil {
			return err
		}
		if err := p.expect(':'); err != nil {
			return err
		}
		if err := member(name); err != nil {
			return err
		}
		p.ws()
		if p.i >= len(p.b) {
			return p.fail("unterminated object")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return p.fail("want , or }")
		}
	}
}

// top reads the document's tables; multi is where the raw "localhost"
// value starts and ends, {0, 0} when there is none.
func (p *parser) top() (config.DB, [2]int, error) {
	db := config.DB{}
	var multi [2]int
	err := p.object(func(tn string) error {
		switch {
		case readTables[tn]:
			t, err := p.table(tn)
			db[tn] = t
			return err
		case tn == "localhost":
			p.ws()
			start := p.i
			err := p.skip()
			multi = [2]int{start, p.i}
			return err
		}
		return p.skip()
	})
	if err != nil {
		return nil, [2]int{}, err
	}
	p.ws()
	if p.i != len(p.b) {
		return nil, [2]int{}, p.fail("data after the document")
	}
	return db, multi, nil
}

func (p *parser) table(tn string) (map[string]map[string]string, error) {
	t := make(map[string]map[string]string, len(p.size[tn]))
	keys := make([]string, 0, len(p.size[tn]))
	defer func() { p.order[tn] = keys }()
	err := p.object(func(k string) error {
		f := map[string]string{}
		t[k] = f
		keys = append(keys, k)
		return p.object(func(name string) error {
			v, err := p.value()
			if err != nil {
				return fmt.Errorf("%s|%s field %s: %w", tn, k, name, err)
			}
			if len(v) > 0 && v[0] == '[' && refs[tn][name] != "" {
				v = bareRefs(v) // reference/sonic.md Errata
			}
			f[name] = v
			return nil
		})
	})
	return t, err
}

// value reads a field: a string, or a leaf-list (sonic-cfggen prints a
// "name@" field as a JSON array of strings) joined with commas.
func (p *parser) value() (string, error) {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '[' {
		p.i++
		var parts []string
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return "", nil
		}
		for {
			p.ws()
			s, err := p.str()
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
			p.ws()
			if p.i >= len(p.b) {
				return "", p.fail("unterminated array")
			}
			if p.b[p.i] == ']' {
				p.i++
				return strings.Join(parts, ","), nil
			}
			if p.b[p.i] != ',' {
				return "", p.fail("want , or ]")
			}
			p.i++
		}
	}
	return p.str()
}

// str reads a JSON string.
func (p *parser) str() (string, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", p.fail("want a string")
	}
	start := p.i
	p.i++
	plain := true
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if plain {
				return p.s[start+1 : p.i-1], nil
			}
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				return "", p.fail("bad string")
			}
			return s, nil
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", p.fail("control character in string")
		case c >= utf8.RuneSelf:
			plain = false
			p.i++
		default:
			p.i++
		}
	}
	return "", p.fail("unterminated string")
}

// skip consumes any JSON value, checking its syntax.
func (p *parser) skip() error {
	p.ws()
	if p.i >= len(p.b) {
		return p.fail("want a value")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(func(string) error { return p.skip() })
	case c == '[':
		p.i++
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return nil
		}
		for {
			if err := p.skip(); err != nil {
				return err
			}
			p.ws()
			if p.i >= len(p.b) {
				return p.fail("unterminated array")
			}
			if p.b[p.i] == ']' {
				p.i++
				return nil
			}
			if p.b[p.i] != ',' {
				return p.fail("want , or ]")
			}
			p.i++
		}
	case c == '"':
		_, err := p.str()
		return err
	default:
		start := p.i
		for p.i < len(p.b) && !strings.ContainsRune(" \t\r\n,}]", rune(p.b[p.i])) {
			p.i++
		}
		if !json.Valid(p.b[start:p.i]) {
			return p.fail("bad literal")
		}
		return nil
	}
}
