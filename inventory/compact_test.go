package inventory

import (
	"fmt"
	"slices"
	"testing"
)

func TestCompactPorts(t *testing.T) {
	seq := func(prefix string, lo, hi, step int) []string {
		var out []string
		for i := lo; i <= hi; i += step {
			out = append(out, fmt.Sprintf("%s%d", prefix, i))
		}
		return out
	}
	tests := []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"Ethernet1/1"}, "Ethernet1/1"},
		{[]string{"Ethernet1/2", "Ethernet1/1"}, "Ethernet1/1,Ethernet1/2"},
		{seq("Ethernet1/", 1, 32, 1), "Ethernet1/1-32"},
		{seq("Ethernet", 0, 124, 4), "Ethernet0-124 step 4"},
		{append(seq("Ethernet1/", 1, 4, 1), "Ethernet1/10", "Ethernet2/1"), "Ethernet1/1-4,Ethernet1/10,Ethernet2/1"},
		{seq("100GE1/0/", 1, 3, 1), "100GE1/0/1-3"},
		{[]string{"Ethernet1", "Ethernet1", "Ethernet2", "Ethernet3"}, "Ethernet1-3"},
		{[]string{"Port-Channel1", "Port-Channel2", "Port-Channel3"}, "Port-Channel1,Port-Channel2,Port-Channel3"},
	}
	for _, tt := range tests {
		got := CompactPorts(tt.in)
		if got != tt.want {
			t.Errorf("CompactPorts(%q) = %q, want %q", tt.in, got, tt.want)
			continue
		}
		if got == "" {
			continue
		}
		back, err := ExpandPorts(got)
		if err != nil {
			t.Errorf("ExpandPorts(%q): %v", got, err)
			continue
		}
		want := slices.Clone(tt.in)
		slices.SortFunc(want, ComparePorts)
		want = slices.Compact(want)
		if !slices.Equal(back, want) {
			t.Errorf("ExpandPorts(CompactPorts(%q)) = %q", tt.in, back)
		}
	}
}
