package inventory

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpandPorts(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string
	}{
		{"Ethernet1/1-4", []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/3", "Ethernet1/4"}},
		{"Ethernet1-3", []string{"Ethernet1", "Ethernet2", "Ethernet3"}},
		{"100GE1/0/1-2", []string{"100GE1/0/1", "100GE1/0/2"}},
		{"Ethernet0-12 step 4", []string{"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"}},
		{"Ethernet0-4/4", []string{"Ethernet0/4", "Ethernet1/4", "Ethernet2/4", "Ethernet3/4", "Ethernet4/4"}},
		{"Ethernet1-2/1-2", []string{"Ethernet1/1", "Ethernet1/2", "Ethernet2/1", "Ethernet2/2"}},
		{"Ethernet1/1-2, Ethernet1/5", []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/5"}},
		{"Ethernet49-50,53-54", []string{"Ethernet49", "Ethernet50", "Ethernet53", "Ethernet54"}},
		{"Ethernet1/1/1-2", []string{"Ethernet1/1/1", "Ethernet1/1/2"}},
		{"Ethernet1/7", []string{"Ethernet1/7"}},
		{"Ethernet1/3-3", []string{"Ethernet1/3"}},
		{"mgmt", []string{"mgmt"}},
		{"Port-channel10", []string{"Port-channel10"}},
	}
	for _, tt := range tests {
		got, err := ExpandPorts(tt.pattern)
		if err != nil {
			t.Errorf("ExpandPorts(%q): %v", tt.pattern, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ExpandPorts(%q) (-want +got):\n%s", tt.pattern, diff)
		}
	}
	if got, _ := ExpandPorts("Ethernet0-124 step 4"); len(got) != 32 || got[31] != "Ethernet124" {
		t.Errorf("SONiC 32-port range: %d ports, last %v", len(got), got[len(got)-1:])
	}
}

func TestExpandPortsErrors(t *testing.T) {
	tests := []struct{ pattern, reason string }{
		{"", "empty"},
		{"Ethernet1/32-1", "runs backwards: write 1-32"},
		{"Ethernet1/1-x", `"x" is not a port number`},
		{"Ethernet0-126 step 4", "126 is not reached from 0 in steps of 4"},
		{"Ethernet1-2/1-2 step 2", "a step needs exactly one range"},
		{"Ethernet1 step 0", "positive whole number"},
		{"Ethernet1//2", "empty number between slashes"},
		{"1-4", "no name before its number"},
		{"Ethernet1,,Ethernet2", "empty"},
		{"Ethernet1-100000", "more than 4096 ports"},
		{"Ethernet1-64/1-64/1-64", "more than 4096 ports"},
		{"Ether net1", "space"},
		{"Ethernet1234567", "not a port number"},
	}
	for _, tt := range tests {
		got, err := ExpandPorts(tt.pattern)
		if err == nil {
			t.Errorf("ExpandPorts(%q) = %v, want an error", tt.pattern, got)
			continue
		}
		var pe *PortPatternError
		if !errors.Is(err, ErrPortPattern) || !errors.As(err, &pe) || pe.Pattern != tt.pattern {
			t.Errorf("ExpandPorts(%q) error %v does not wrap ErrPortPattern with the pattern", tt.pattern, err)
		}
		if !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("ExpandPorts(%q) error %q, want it to say %q", tt.pattern, err, tt.reason)
		}
	}
}

func TestComparePorts(t *testing.T) {
	// Leading zeros compare by value: Ethernet01/5 sits with Ethernet1/5.
	sorted := []string{
		"100GE1/0/1", "100GE1/0/2", "100GE1/0/10",
		"Ethernet1", "Ethernet1/1", "Ethernet1/2", "Ethernet01/5", "Ethernet1/10", "Ethernet1/10/1", "Ethernet2", "Ethernet4", "Ethernet12", "Ethernet100",
	}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	shuffled[0], shuffled[5] = shuffled[5], shuffled[0]
	slices.SortFunc(shuffled, ComparePorts)
	if diff := cmp.Diff(sorted, shuffled); diff != "" {
		t.Errorf("natural order (-want +got):\n%s", diff)
	}
	for _, a := range sorted {
		for _, b := range sorted {
			if c, r := ComparePorts(a, b), ComparePorts(b, a); c != -r || (c == 0) != (a == b) {
				t.Errorf("ComparePorts(%q,%q)=%d, reverse %d", a, b, c, r)
			}
		}
	}
	if ComparePorts("Ethernet1", "Ethernet01") == 0 {
		t.Error("different strings compare equal")
	}
}

func BenchmarkExpandPorts(b *testing.B) {
	for b.Loop() {
		if _, err := ExpandPorts("Ethernet1/1-64"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkComparePorts(b *testing.B) {
	for b.Loop() {
		ComparePorts("Ethernet1/10", "Ethernet1/9")
	}
}
