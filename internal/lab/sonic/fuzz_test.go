package sonic

import (
	"testing"
)

// FuzzPatch applies arbitrary JSON Patch documents: no panic, and a
// refused patch leaves CONFIG_DB as it was.
func FuzzPatch(f *testing.F) {
	for _, p := range []string{
		`[{"op":"add","path":"/DSCP_TO_TC_MAP/ROCE/64","value":"3"}]`,
		`[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/green_min_threshold","value":"4000000"}]`,
		`[{"op":"remove","path":"/PFC_WD/GLOBAL"}]`,
		`[{"op":"move","from":"/QUEUE/Ethernet0|3","path":"/QUEUE/Ethernet4|7"}]`,
		`[{"op":"copy","from":"/SCHEDULER","path":"/FOO"}]`,
		`[{"op":"test","path":"/PORT/Ethernet0/speed","value":"100000"}]`,
		`[{"op":"add","path":"","value":{}}]`,
		`[{"op":"add","path":"/a~1b/c~0d","value":{"x":["y"]}}]`,
		`{}`,
	} {
		f.Add([]byte(p))
	}
	seed := readFileF(f, "testdata/config_db.json")
	f.Fuzz(func(t *testing.T, patch []byte) {
		d := newTestDevice(t, seed)
		before := d.Checkpoint()
		if err := d.Patch(patch); err != nil && string(d.Checkpoint()) != string(before) {
			t.Fatalf("refused patch %q changed CONFIG_DB", patch)
		}
	})
}
