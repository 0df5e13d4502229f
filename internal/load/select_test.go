package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
)

func TestSelect(t *testing.T) {
	devs := []*intent.Device{{Name: "a1"}, {Name: "b2"}, {Name: "c3"}}
	devs[0].Roles = []string{"leaf"}
	devs[2].Tags = []string{"pod1"}
	for _, tc := range []struct {
		targets []string
		want    []string
	}{
		{nil, []string{"a1", "b2", "c3"}},
		{[]string{"b2"}, []string{"b2"}},
		{[]string{"role:leaf", "tag:pod1"}, []string{"a1", "c3"}},
	} {
		got, diags := selectDevices(devs, tc.targets)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		var n []string
		for _, d := range got {
			n = append(n, d.Name)
		}
		if d := cmp.Diff(tc.want, n); d != "" {
			t.Errorf("%v (-want +got):\n%s", tc.targets, d)
		}
	}
	if _, diags := selectDevices(devs, []string{"role:spine"}); !diags.HasErrors() {
		t.Error("a target matching nothing is not an error")
	}
}
