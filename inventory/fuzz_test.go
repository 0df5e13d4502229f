package inventory

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/diag"
)

// FuzzLoad feeds arbitrary bytes to the HCL and containerlab loaders. They
// must never panic, every diagnostic must carry a rule and a range inside
// the input, and a result without errors must be consistent: unique
// device names, sorted unique ports, links between declared ports.
// Seeds: every testdata file, inventories nested deep (HCL and YAML),
// plus the committed corpus in testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	for _, glob := range []string{"testdata/*.hcl", "testdata/*.yml", "testdata/invalid/*"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src, IsContainerlab(p))
		}
	}
	// Issue 12's crash was a list 100,000 deep; the other seeds nest
	// 10,000 deep, as large inputs slow the fuzzer down.
	r := strings.Repeat
	for _, deep := range []string{
		"device \"a\" {\n  roles = " + r("[", 100_000) + r("]", 100_000) + "\n}\n",
		r("device \"a\" {\n", 10_000) + r("}\n", 10_000),
		"device \"a\" {\n  vendor = " + r(`"${`, 10_000) + "x" + r(`}"`, 10_000) + "\n}\n",
		"device \"a\" {\n  port = " + r("-", 10_000) + "1\n}\n",
	} {
		f.Add([]byte(deep), false)
	}
	f.Add([]byte("name: x\ntopology:\n  nodes: "+r("[", 20_000)+r("]", 20_000)+"\n"), true)
	f.Fuzz(func(t *testing.T, src []byte, clab bool) {
		name := "fuzz.hcl"
		parse := Parse
		if clab {
			name = "fuzz.clab.yml"
			parse = ParseContainerlab
		}
		inv, diags := parse(src, name, testVendors)
		for _, d := range diags {
			if diag.RuleOf(d) == "" {
				t.Errorf("diagnostic without a rule: %s", d.Error())
			}
			if d.Subject != nil && (d.Subject.Start.Byte < 0 || d.Subject.End.Byte > len(src) || d.Subject.Start.Byte > d.Subject.End.Byte) {
				t.Errorf("diagnostic range %v outside the %d-byte input", d.Subject, len(src))
			}
		}
		if diags.HasErrors() {
			return
		}
		if inv == nil {
			t.Fatal("no inventory and no error")
		}
		names := map[string]bool{}
		for _, d := range inv.Devices {
			if names[d.Name] {
				t.Errorf("device %q twice", d.Name)
			}
			names[d.Name] = true
			if !slices.IsSortedFunc(d.Ports, func(a, b *Port) int { return ComparePorts(a.Name, b.Name) }) {
				t.Errorf("ports of %q not sorted", d.Name)
			}
			for i := 1; i < len(d.Ports); i++ {
				if d.Ports[i].Name == d.Ports[i-1].Name {
					t.Errorf("port %q of %q twice", d.Ports[i].Name, d.Name)
				}
			}
		}
		for _, l := range inv.Links {
			for _, e := range []Endpoint{l.A, l.B} {
				d := inv.Device(e.Device)
				if d == nil || d.PortNamed(e.Port) == nil {
					t.Errorf("link end %s does not exist", e)
				}
			}
		}
	})
}

// FuzzExpandPorts checks ExpandPorts never panics, stays within
// MaxPortsPerPattern, and returns names that re-expand to themselves.
func FuzzExpandPorts(f *testing.F) {
	for _, s := range []string{"Ethernet1/1-32", "Ethernet0-124 step 4", "100GE1/0/1-2", "Ethernet49-50,53-54", "Ethernet1-2/1-4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		got, err := ExpandPorts(pattern)
		if err != nil {
			return
		}
		if len(got) == 0 || len(got) > MaxPortsPerPattern {
			t.Fatalf("%q expanded to %d names", pattern, len(got))
		}
		for _, n := range got[:min(len(got), 4)] {
			again, err := ExpandPorts(n)
			if err != nil || len(again) != 1 || again[0] != n {
				t.Errorf("%q: name %q re-expands to %v, %v", pattern, n, again, err)
			}
		}
	})
}
