package sonic

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/sonicyang"
)

// naiveText is the plain form of Text: encoding/json for every string and
// a fresh sort and map lookup for every level. Text must print the same
// bytes for any db.
func naiveText(db config.DB) []byte {
	var b bytes.Buffer
	quote := func(s string) {
		q, _ := json.Marshal(s)
		b.Write(q)
	}
	sorted := func(keys []string) []string {
		slices.SortFunc(keys, sonicyang.NaturalCompare)
		return keys
	}
	b.WriteString("{")
	tables := sorted(slicesKeys(db))
	for i, t := range tables {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		quote(t)
		b.WriteString(": {")
		keys := sorted(slicesKeys(db[t]))
		for j, k := range keys {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n        ")
			quote(k)
			b.WriteString(": {")
			fields := sorted(slicesKeys(db[t][k]))
			for l, f := range fields {
				if l > 0 {
					b.WriteString(",")
				}
				b.WriteString("\n            ")
				quote(f)
				b.WriteString(": ")
				quote(db[t][k][f])
			}
			if len(fields) > 0 {
				b.WriteString("\n        ")
			}
			b.WriteString("}")
		}
		if len(keys) > 0 {
			b.WriteString("\n    ")
		}
		b.WriteString("}")
	}
	if len(tables) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func slicesKeys[V any](m map[string]V) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

// TestTextMatchesNaive prints databases with the shapes Text meets (empty
// tables and rows, natural-order keys with leading zeros, ranges, strings
// that JSON escapes) and compares with naiveText and with what
// encoding/json reads back.
func TestTextMatchesNaive(t *testing.T) {
	many := config.DB{"QUEUE": {}, "CABLE_LENGTH": {"AZURE": {}}}
	for i := range 40 {
		p := "Ethernet" + strconv.Itoa(4*(39-i))
		many["CABLE_LENGTH"]["AZURE"][p] = strconv.Itoa(i%7) + "m"
		for _, q := range []string{"0-2", "3", "4", "5-6", "10", "007"} {
			many["QUEUE"][p+"|"+q] = map[string]string{"scheduler": "ROCE_LOSSY", "wred_profile": "ROCE_LOSSLESS", "a9": "x", "a10": "y"}
		}
	}
	tricky := map[string]string{}
	for _, n := range trickyNames() {
		tricky[n] = n
	}
	tests := map[string]config.DB{
		"tricky names":  {"T": {"row": tricky}},
		"empty":         {},
		"empty table":   {"PFC_WD": {}},
		"empty row":     {"PFC_WD": {"GLOBAL": {}}, "A": {"x": {"f": "v"}}},
		"escapes":       {"T<&>": {"k\"\\\n": {"f\u00e9": "v\t\u2028", "<": ">"}}},
		"leading zeros": {"T": {"a01": {"9": "", "09": "", "009": "", "10": "", "0": "", "00": ""}, "a1": {}, "a001x": {}, "a1x": {}, "a": {}}},
		"many ports":    many,
	}
	for name, db := range tests {
		t.Run(name, func(t *testing.T) {
			got := Text(db)
			if diff := cmp.Diff(string(naiveText(db)), string(got)); diff != "" {
				t.Errorf("Text differs from the plain printer (-want +got):\n%s", diff)
			}
			var back config.DB
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatalf("Text is not JSON: %v", err)
			}
			if len(db) > 0 && !cmp.Equal(db, back) {
				t.Errorf("JSON read back differs: %s", cmp.Diff(db, back))
			}
		})
	}
}

// trickyNames are every string of up to four bytes over an alphabet of
// digits (with zeros, so leading zeros), a letter, and bytes on either side
// of the digits ("/" below '0', "|" above '9').
func trickyNames() []string {
	alphabet := []string{"0", "1", "9", "a", "/", "|"}
	names := []string{""}
	last := []string{""}
	for range 4 {
		var next []string
		for _, p := range last {
			for _, c := range alphabet {
				next = append(next, p+c)
			}
		}
		names = append(names, next...)
		last = next
	}
	return names
}

// TestNaturalKey checks that natural sort keys compare as
// sonicyang.NaturalCompare compares their names, on every pair of
// trickyNames, and that distinct names get distinct keys.
func TestNaturalKey(t *testing.T) {
	names := trickyNames()
	keys := make([][]byte, len(names))
	for i, n := range names {
		keys[i] = naturalKey(nil, n)
	}
	bad := 0
	for i, a := range names {
		for j, b := range names {
			want := sonicyang.NaturalCompare(a, b)
			if got := bytes.Compare(keys[i], keys[j]); got != want {
				t.Errorf("keys of %q and %q compare %d, NaturalCompare says %d", a, b, got, want)
				if bad++; bad > 10 {
					t.FailNow()
				}
			}
		}
	}
}
