package sonic

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
)

var propFor = flag.Duration("sonic.prop", 0, "run TestPropertyRoundTrip for this long (0: a short run)")

// A genConfig is a CONFIG_DB built in the order `show runningconfiguration
// all` prints it (tables, keys and fields in natural order,
// TestCorpusPrintsBack): each slice is appended to in that order by
// construction, never sorted by the lab's code.
type genConfig []genTable

type genTable struct {
	name string
	keys []genKey
}

type genKey struct {
	name   string
	fields [][2]string
}

// randomConfig generates a whole CONFIG_DB of a data-centre switch from
// the config_db.json grammar (reference/sonic.md §1: {TABLE: {key: {field:
// "value"}}}, multi-part keys joined by "|"), with the tables of a
// deployed switch around the QoS ones (sonic-yang-models' DEVICE_METADATA,
// PORT, LOOPBACK_INTERFACE, INTERFACE, VLAN, VLAN_MEMBER, BGP_NEIGHBOR,
// ACL_TABLE, NTP_SERVER, SYSLOG_SERVER; the QoS tables of §2), leaf-lists
// (ACL_TABLE ports, VLAN dhcp_servers: a field named "name@" here, a JSON
// list in the file) and free text with the characters json.dumps escapes.
func randomConfig(r *rand.Rand) genConfig {
	pick := func() bool { return r.IntN(2) == 0 }
	nPorts := 1 + r.IntN(16)
	var ports []string
	for i := range nPorts {
		ports = append(ports, fmt.Sprintf("Ethernet%d", 4*i))
	}
	used := func() []string {
		var u []string
		for _, p := range ports {
			if pick() {
				u = append(u, p)
			}
		}
		return u
	}
	var c genConfig
	add := func(t string, keys ...genKey) {
		if len(keys) > 0 {
			c = append(c, genTable{t, keys})
		}
	}
	f := func(kv ...string) [][2]string {
		var out [][2]string
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, [2]string{kv[i], kv[i+1]})
		}
		return out
	}
	// Tables in natural (here: byte) order of their names.
	if pick() {
		var keys []genKey
		for i := range 1 + r.IntN(12) {
			keys = append(keys, genKey{"DATAACL|RULE_" + fmt.Sprint(8+i), f("PACKET_ACTION", "DROP", "PRIORITY", fmt.Sprint(9990-i), "SRC_IP", fmt.Sprintf("10.%d.0.0/16", i))})
		}
		add("ACL_RULE", keys...)
	}
	if pick() {
		fs := f("policy_desc", text(r))
		if u := used(); len(u) > 0 {
			fs = append(fs, [2]string{"ports@", strings.Join(u, ",")})
		}
		add("ACL_TABLE", genKey{"DATAACL", append(fs, f("stage", "ingress", "type", "L3")...)})
	}
	if pick() {
		var keys []genKey
		for i := 0; i < 1+r.IntN(4); i++ {
			keys = append(keys, genKey{fmt.Sprintf("10.0.0.%d", 2*i+1), f("admin_status", "up", "asn", fmt.Sprint(65200+i), "holdtime", "10", "keepalive", "3", "local_addr", fmt.Sprintf("10.0.0.%d", 2*i), "name", fmt.Sprintf("ARISTA%02dT2", i+1), "nhopself", "0", "rrclient", "0")})
		}
		add("BGP_NEIGHBOR", keys...)
	}
	qos := pick()
	lossless := []string{}
	if qos {
		lossless = used()
	}
	if len(lossless) > 0 {
		var pg, q []genKey
		for _, p := range lossless {
			pg = append(pg, genKey{p + "|0", f("profile", "ingress_lossy_profile")}, genKey{p + "|3-4", f("profile", "pg_lossless_100000_5m_profile")})
			q = append(q, genKey{p + "|0-2", f("profile", "egress_lossy_profile")}, genKey{p + "|3-4", f("profile", "egress_lossless_profile")}, genKey{p + "|5-6", f("profile", "egress_lossy_profile")})
		}
		add("BUFFER_PG", pg...)
		add("BUFFER_POOL", genKey{"egress_lossless_pool", f("mode", "static", "size", "15982720", "type", "egress")}, genKey{"ingress_lossless_pool", f("mode", "dynamic", "size", "10875072", "type", "ingress", "xoff", "4194112")})
		add("BUFFER_PROFILE", genKey{"pg_lossless_100000_5m_profile", f("dynamic_th", "-3", "pool", "ingress_lossless_pool", "size", "1248", "xoff", "96928", "xon", "1248")})
		add("BUFFER_QUEUE", q...)
		var cl [][2]string
		for _, p := range lossless {
			cl = append(cl, [2]string{p, []string{"5m", "40m", "300m"}[r.IntN(3)]})
		}
		add("CABLE_LENGTH", genKey{"AZURE", cl})
	}
	md := f("bgp_asn", fmt.Sprint(65100+r.IntN(100)), "buffer_model", "traditional", "hostname", "str-"+fmt.Sprint(r.IntN(99)), "hwsku", "Arista-7060CX-32S-C32", "mac", fmt.Sprintf("52:54:00:%02x:%02x:%02x", r.IntN(256), r.IntN(256), r.IntN(256)), "platform", "x86_64-arista_7060_cx32s", "type", "LeafRouter")
	add("DEVICE_METADATA", genKey{"localhost", md})
	if qos {
		var m [][2]string
		for d := range 64 {
			m = append(m, [2]string{fmt.Sprint(d), fmt.Sprint(map[int]int{24: 3, 26: 3, 48: 6}[d])})
		}
		add("DSCP_TO_TC_MAP", genKey{"AZURE", m})
	}
	if pick() {
		var keys []genKey
		for i, p := range used() {
			keys = append(keys, genKey{p, nil}, genKey{fmt.Sprintf("%s|10.0.%d.0/31", p, i), nil})
		}
		add("INTERFACE", keys...)
	}
	add("LOOPBACK_INTERFACE", genKey{"Loopback0", nil}, genKey{fmt.Sprintf("Loopback0|10.1.0.%d/32", 1+r.IntN(254)), nil})
	if pick() {
		add("NTP_SERVER", genKey{"10.20.8.129", nil}, genKey{"10.20.8.130", nil})
	}
	var pk []genKey
	for i, p := range ports {
		fs := f("admin_status", []string{"up", "down"}[r.IntN(2)], "alias", fmt.Sprintf("Ethernet%d/1", i+1))
		if pick() {
			fs = append(fs, [2]string{"description", text(r)})
		}
		fs = append(fs, f("index", fmt.Sprint(i+1), "lanes", fmt.Sprintf("%d,%d,%d,%d", 4*i+1, 4*i+2, 4*i+3, 4*i+4), "mtu", "9100", "speed", "100000")...)
		pk = append(pk, genKey{p, fs})
	}
	add("PORT", pk...)
	if qos {
		var keys []genKey
		for _, p := range lossless {
			keys = append(keys, genKey{p, f("dscp_to_tc_map", "AZURE", "pfc_enable", "3,4", "pfcwd_sw_enable", "3,4")})
		}
		add("PORT_QOS_MAP", keys...)
	}
	if qos {
		var keys []genKey
		for _, p := range lossless {
			keys = append(keys, genKey{p + "|3", f("scheduler", "scheduler.1", "wred_profile", "AZURE_LOSSLESS")}, genKey{p + "|4", f("scheduler", "scheduler.1", "wred_profile", "AZURE_LOSSLESS")})
		}
		add("QUEUE", keys...)
		add("SCHEDULER", genKey{"scheduler.0", f("type", "DWRR", "weight", "14")}, genKey{"scheduler.1", f("type", "DWRR", "weight", "15")})
	}
	if pick() {
		add("SYSLOG_SERVER", genKey{"10.0.0.5", nil}, genKey{"10.0.0.6", f("source", "10.1.0.1")})
	}
	if pick() {
		var keys []genKey
		vlans := []int{}
		for v := 2; v < 4000; v += 1 + r.IntN(900) {
			vlans = append(vlans, v)
		}
		for _, v := range vlans {
			var fs [][2]string
			if pick() {
				fs = f("dhcp_servers@", fmt.Sprintf("192.0.0.%d,192.0.0.%d", v%250+1, v%250+2))
			}
			keys = append(keys, genKey{fmt.Sprintf("Vlan%d", v), append(fs, f("vlanid", fmt.Sprint(v))...)})
		}
		add("VLAN", keys...)
		var members []genKey
		for _, v := range vlans {
			for _, p := range used() {
				members = append(members, genKey{fmt.Sprintf("Vlan%d|%s", v, p), f("tagging_mode", []string{"tagged", "untagged"}[r.IntN(2)])})
			}
		}
		add("VLAN_MEMBER", members...)
	}
	if qos {
		add("WRED_PROFILE", genKey{"AZURE_LOSSLESS", f("ecn", "ecn_all", "green_drop_probability", "5", "green_max_threshold", "2097152", "green_min_threshold", "1048576", "wred_green_enable", "true")})
	}
	return c
}

// text is free text: a port description or an ACL's policy_desc, with the
// characters json.dumps escapes.
func text(r *rand.Rand) string {
	parts := []string{"uplink", " ", "to", "spine-1", `"quoted"`, `back\slash`, "a/b", "<x>", "\t", "\b", "\f", "é", "中", "🙂", "\u007f", "\u0001"}
	var b strings.Builder
	for range 1 + r.IntN(6) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// pyQuote is a JSON string as Python's json.dumps writes it
// (ensure_ascii: json.encoder.ESCAPE_DCT and py_encode_basestring_ascii;
// "/" is not escaped).
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || r > 0x7e:
				if r > 0xffff {
					r1, r2 := utf16.EncodeRune(r)
					fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
				} else {
					fmt.Fprintf(&b, `\u%04x`, r)
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shown is what `show runningconfiguration all` prints of c:
// json.dumps(…, indent=4) with the bgpraw key last (TestCorpusPrintsBack).
func (c genConfig) shown() string {
	var b strings.Builder
	b.WriteString("{\n")
	for _, t := range c {
		b.WriteString("    " + pyQuote(t.name) + ": {\n")
		for i, k := range t.keys {
			b.WriteString("        " + pyQuote(k.name) + ": {")
			for j, f := range k.fields {
				if j > 0 {
					b.WriteString(",")
				}
				if name, ok := strings.CutSuffix(f[0], "@"); ok {
					// A leaf-list: json.dumps indent=4, one item a line.
					b.WriteString("\n            " + pyQuote(name) + ": [")
					for i, item := range strings.Split(f[1], ",") {
						if i > 0 {
							b.WriteString(",")
						}
						b.WriteString("\n                " + pyQuote(item))
					}
					b.WriteString("\n            ]")
					continue
				}
				b.WriteString("\n            " + pyQuote(f[0]) + ": " + pyQuote(f[1]))
			}
			if len(k.fields) > 0 {
				b.WriteString("\n        ")
			}
			b.WriteString("}")
			if i < len(t.keys)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("    },\n")
	}
	b.WriteString("    \"bgpraw\": \"\"\n}\n")
	return b.String()
}

// files splits c into n config_db.json files to `config load` one after
// the other: every field lands in one of them, a key without fields in
// one, and each file is written in a shuffled order and in its own layout
// (indent, one key a line, one table a line), as an operator's files are.
func (c genConfig) files(r *rand.Rand, n int) []string {
	type entry struct {
		key    string
		fields [][2]string
	}
	parts := make([]map[string][]entry, n)
	for i := range parts {
		parts[i] = map[string][]entry{}
	}
	for _, t := range c {
		for _, k := range t.keys {
			if len(k.fields) == 0 {
				i := r.IntN(n)
				parts[i][t.name] = append(parts[i][t.name], entry{k.name, nil})
				continue
			}
			split := make([][][2]string, n)
			for _, f := range k.fields {
				i := r.IntN(n)
				split[i] = append(split[i], f)
			}
			for i, fs := range split {
				if len(fs) > 0 {
					parts[i][t.name] = append(parts[i][t.name], entry{k.name, fs})
				}
			}
		}
	}
	var out []string
	for _, p := range parts {
		layout := r.IntN(3) // 0: indented, 1: a key a line, 2: a table a line
		ind := strings.Repeat(" ", r.IntN(5))
		var tables []string
		for tn := range p {
			tables = append(tables, tn)
		}
		sort.Strings(tables)
		r.Shuffle(len(tables), func(i, j int) { tables[i], tables[j] = tables[j], tables[i] })
		var b strings.Builder
		b.WriteString("{")
		for ti, tn := range tables {
			if ti > 0 {
				b.WriteString(",")
			}
			if layout != 2 {
				b.WriteString("\n" + ind)
			}
			b.WriteString(pyQuote(tn) + ": {")
			es := p[tn]
			r.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
			for ei, e := range es {
				if ei > 0 {
					b.WriteString(",")
				}
				if layout == 0 {
					b.WriteString("\n" + ind + ind)
				} else if layout == 1 {
					b.WriteString("\n" + ind + " ")
				}
				b.WriteString(pyQuote(e.key) + ": {")
				fs := e.fields
				r.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
				for fi, f := range fs {
					if fi > 0 {
						b.WriteString(", ")
					}
					if layout == 0 {
						b.WriteString("\n" + ind + ind + ind)
					}
					// Typed as the operator types it: raw UTF-8 or escapes.
					v := pyQuote(f[1])
					if r.IntN(2) == 0 && !strings.ContainsAny(f[1], "\"\\\x00\x01\x02\x03\x04\x05\x06\x07\b\t\n\v\f\r\x0e\x0f\x10\x7f") {
						v = `"` + f[1] + `"`
					}
					if name, ok := strings.CutSuffix(f[0], "@"); ok {
						v = `["` + strings.ReplaceAll(f[1], ",", `", "`) + `"]`
						f[0] = name
					}
					b.WriteString(pyQuote(f[0]) + ": " + v)
				}
				b.WriteString("}")
			}
			b.WriteString("}")
		}
		b.WriteString("\n}\n")
		out = append(out, b.String())
	}
	return out
}

// TestPropertyRoundTrip: random whole configs, generated from the
// config_db.json grammar (randomConfig), are typed line by line into
// files through a heredoc, as a driver or an operator uploads them,
// loaded with `sudo config load FILE -y` onto an empty CONFIG_DB (in one
// file or merged from several), and `show runningconfiguration all`
// prints them back as the device orders and writes them (issue 14 item
// 2). A short run in go test; -sonic.prop=60s runs it for a minute.
func TestPropertyRoundTrip(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 14))
	deadline := time.Now().Add(*propFor)
	runs := 0
	for runs < 20 || time.Now().Before(deadline) {
		runs++
		c := randomConfig(r)
		d, err := defaultKind.newDevice("sonic", []byte("{}"))
		if err != nil {
			t.Fatal(err)
		}
		s := d.NewSession("admin", nil)
		for i, file := range c.files(r, 1+r.IntN(3)) {
			path := fmt.Sprintf("/tmp/part%d.json", i)
			lines := append([]string{"cat > " + path + " <<'EOF'"}, strings.Split(strings.TrimSuffix(file, "\n"), "\n")...)
			lines = append(lines, "EOF", "sudo config load "+path+" -y", "echo $?")
			out := transcript(s, lines...)
			if !strings.HasSuffix(out, "--write-to-db\nadmin@sonic:~$ echo $?\n0\n") {
				t.Fatalf("seed %d run %d: config load failed:\n%s", seed, runs, out)
			}
		}
		got, _ := s.Handle("show runningconfiguration all")
		if diff := cmp.Diff(c.shown(), got); diff != "" {
			t.Fatalf("seed %d run %d (-generated +show runningconfiguration all):\n%s", seed, runs, diff)
		}
	}
	t.Logf("%d random configs (seed %d)", runs, seed)
}
