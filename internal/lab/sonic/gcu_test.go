package sonic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSortedLikeGCU: apply-patch ignores the order of the patch's
// operations and writes GCU's sorted changes one at a time
// (generic_config_updater/patch_sorter.py, gcu.go): a PG range that
// grows on two admin-up ports is written port by port, each port turned
// admin down first (RequiredValueMoveExtender) and up again after, the
// old range removed before the new one is added (BulkKeyLevelMoveGenerator
// offers removals first), the new WRED profile added before the queue
// that uses it and the old one removed after (backlink order).
func TestSortedLikeGCU(t *testing.T) {
	const want = `1 PORT|Ethernet0 admin_status=down
2 BUFFER_PG|Ethernet0|3 deleted
3 BUFFER_PG|Ethernet0|3-4 profile=pg_lossless_100000_5m_profile
4 PORT_QOS_MAP|Ethernet0 pfc_enable=3,4
5 PORT|Ethernet0 admin_status=up
6 PORT|Ethernet4 admin_status=down
7 BUFFER_PG|Ethernet4|3 deleted
8 BUFFER_PG|Ethernet4|3-4 profile=pg_lossless_100000_5m_profile
9 PORT_QOS_MAP|Ethernet4 pfc_enable=3,4
10 PORT|Ethernet4 admin_status=up
`
	for _, order := range []string{"removals first", "additions first"} {
		t.Run(order, func(t *testing.T) {
			d := newTestDevice(t, canonicalJSON(t))
			var ops []string
			for _, p := range []string{"Ethernet0", "Ethernet4"} {
				rm := fmt.Sprintf(`{"op":"remove","path":"/BUFFER_PG/%s|3"}`, p)
				add := fmt.Sprintf(`{"op":"add","path":"/BUFFER_PG/%s|3-4","value":{"profile":"pg_lossless_100000_5m_profile"}}`, p)
				pfc := fmt.Sprintf(`{"op":"replace","path":"/PORT_QOS_MAP/%s/pfc_enable","value":"3,4"}`, p)
				if order == "removals first" {
					ops = append(ops, rm, add, pfc)
				} else {
					ops = append(ops, pfc, add, rm)
				}
			}
			var got strings.Builder
			d.Watch(func(w Write, _ map[string]map[string]map[string]string) {
				fmt.Fprintf(&got, "%d %s|%s", w.Change, w.Table, w.Key)
				if w.Fields == nil {
					got.WriteString(" deleted\n")
					return
				}
				switch w.Table {
				case "PORT":
					fmt.Fprintf(&got, " admin_status=%s\n", w.Fields["admin_status"])
				case "PORT_QOS_MAP":
					fmt.Fprintf(&got, " pfc_enable=%s\n", w.Fields["pfc_enable"])
				default:
					fmt.Fprintf(&got, " profile=%s\n", w.Fields["profile"])
				}
			})
			if err := d.Patch([]byte("[" + strings.Join(ops, ",") + "]")); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got.String()); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			for _, p := range []string{"Ethernet0", "Ethernet4"} {
				if s := d.DB()["PORT"][p]["admin_status"]; s != "up" {
					t.Errorf("%s admin_status %q after the patch, want up again", p, s)
				}
			}
		})
	}
}

// TestSortedObjectsAroundReferrers: a queue re-pointed to a new WRED
// profile gets the profile first and loses the old one after; changes to
// tables GCU does not tie to the port's admin status (WRED_PROFILE,
// SCHEDULER, the maps) do not flap it.
func TestSortedObjectsAroundReferrers(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	var got []string
	d.Watch(func(w Write, _ map[string]map[string]map[string]string) {
		got = append(got, fmt.Sprintf("%s|%s %v", w.Table, w.Key, w.Fields != nil))
	})
	patch := `[
{"op":"remove","path":"/WRED_PROFILE/ROCE_LOSSLESS"},
{"op":"replace","path":"/QUEUE/Ethernet0|3/wred_profile","value":"NEW"},
{"op":"replace","path":"/QUEUE/Ethernet4|3/wred_profile","value":"NEW"},
{"op":"add","path":"/WRED_PROFILE/NEW","value":{"ecn":"ecn_green","green_min_threshold":"1","green_max_threshold":"2","wred_green_enable":"true"}},
{"op":"replace","path":"/SCHEDULER/ROCE_LOSSY/weight","value":"20"}
]`
	if err := d.Patch([]byte(patch)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"WRED_PROFILE|NEW true",
		"SCHEDULER|ROCE_LOSSY true",
		"PORT|Ethernet0 true", "QUEUE|Ethernet0|3 true", "PORT|Ethernet0 true",
		"PORT|Ethernet4 true", "QUEUE|Ethernet4|3 true",
		"WRED_PROFILE|ROCE_LOSSLESS false", // removals are offered before field changes
		"PORT|Ethernet4 true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

// TestNoPossibleSorting: the sorter fails, as PatchSorter.sort does, when
// no move it can make is valid (here not even the target is; apply-patch
// refuses that earlier, when it validates the target).
func TestNoPossibleSorting(t *testing.T) {
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	// A map and the port binding it, on a port the config has no PORT
	// row for: every step is YANG-invalid.
	cur := db{"PORT": {"Ethernet0": {"lanes": "1", "speed": "100000"}}}
	target := db{"PORT": {"Ethernet0": {"lanes": "1", "speed": "100000"}}, "PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": "3"}}}
	if _, err := s.sortChanges(cur, target); err != errNoSorting {
		t.Errorf("sortChanges = %v, want %v", err, errNoSorting)
	}
}
