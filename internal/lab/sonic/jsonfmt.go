package sonic

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
)

// naturalLess orders keys as natsort does in sonic-cfggen's output, with
// digit runs compared as numbers: "Ethernet4|0-2" before "Ethernet12|0",
// DSCP "2" before "10" (reference/sonic.md §5).
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			ra, rb := digitRun(a), digitRun(b)
			na, nb := strings.TrimLeft(ra, "0"), strings.TrimLeft(rb, "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[len(ra):], b[len(rb):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitRun(s string) string {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i]
}

// quote writes a JSON string as Python's json.dumps does (ASCII only,
// "/" and "<" left alone; CPython Lib/json/encoder.py: ESCAPE_DCT's short
// escapes for \b, \f, \n, \r and \t, \u00XX for the other characters
// outside ' '…'~', surrogate pairs above U+FFFF).
func quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(b, `\u%04x`, r)
		case r > 0x7f:
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
			} else {
				fmt.Fprintf(b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// formatDB prints CONFIG_DB as the config_db.json form: four-space indent,
// keys in natural order at every level (reference/sonic.md §5 shows this
// form). extra adds top-level string keys (show runningconfiguration all's
// "bgpraw").
func formatDB(d db, extra map[string]string) string {
	var b strings.Builder
	b.WriteString("{")
	tables := sortedKeys(d)
	for k := range extra {
		tables = append(tables, k)
	}
	sortNatural(tables)
	for i, tn := range tables {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		quote(&b, tn)
		b.WriteString(": ")
		if v, ok := extra[tn]; ok {
			quote(&b, v)
			continue
		}
		writeObj(&b, d[tn], 1)
	}
	if len(tables) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String()
}

func writeObj[V map[string]string | map[string]map[string]string](b *strings.Builder, m map[string]V, depth int) {
	if len(m) == 0 {
		b.WriteString("{}")
		return
	}
	ind := strings.Repeat("    ", depth+1)
	b.WriteString("{")
	for i, k := range sortedKeys(m) {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n" + ind)
		quote(b, k)
		b.WriteString(": ")
		switch v := any(m[k]).(type) {
		case map[string]string:
			writeFields(b, v, depth+1)
		case map[string]map[string]string:
			writeObj(b, v, depth+1)
		}
	}
	b.WriteString("\n" + strings.Repeat("    ", depth) + "}")
}

// writeFields prints a key's fields as ConfigDBConnector.get_config reads
// each hash, through raw_to_typed (swss-common common/configdb.h): the
// placeholder field NULL, which stands in redis for a key without fields
// (reference/sonic.md §7.1), is skipped, so sonic-cfggen -d --print-data
// shows such a key as {}; a field whose name ends in "@" is a leaf-list,
// printed under the name without "@" as the list of its ","-separated
// items (json.dumps indent=4: one item a line).
func writeFields(b *strings.Builder, m map[string]string, depth int) {
	keys := sortedKeys(m)
	keys = slices.DeleteFunc(keys, func(k string) bool { return k == "NULL" })
	if len(keys) == 0 {
		b.WriteString("{}")
		return
	}
	ind := strings.Repeat("    ", depth+1)
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n" + ind)
		if name, ok := strings.CutSuffix(k, "@"); ok {
			quote(b, name)
			b.WriteString(": [")
			for j, item := range strings.Split(m[k], ",") {
				if j > 0 {
					b.WriteString(",")
				}
				b.WriteString("\n" + ind + "    ")
				quote(b, item)
			}
			b.WriteString("\n" + ind + "]")
			continue
		}
		quote(b, k)
		b.WriteString(": ")
		quote(b, m[k])
	}
	b.WriteString("\n" + strings.Repeat("    ", depth) + "}")
}

// sortNatural sorts strings in natural order.
func sortNatural(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && naturalLess(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
