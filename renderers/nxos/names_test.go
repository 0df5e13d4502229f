package nxos

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/renderers"
)

// objectRE finds the name of every object the renderer creates or
// attaches: class-maps, policy-maps, their uses in policies and
// service-policy lines.
var objectRE = regexp.MustCompile(`(?m)^\s*(?:class-map type qos match-any|policy-map type (?:qos|queuing|network-qos)|class|service-policy type (?:qos input|queuing output|network-qos)) (\S+)$`)

// renderedNames returns the sorted, unique object names of a rendering,
// without NX-OS's own class names (c-out-8q-*, c-8q-nq*, class-default).
func renderedNames(t *testing.T, d *intent.Device) []string {
	t.Helper()
	doc, err := Render(d)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range objectRE.FindAllStringSubmatch(string(doc.Text), -1) {
		if n := m[1]; n != "class-default" && !strings.HasPrefix(n, "c-out-8q-") && !strings.HasPrefix(n, "c-8q-nq") && !strings.HasPrefix(n, "type") {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestNamesRenameEveryObject renames every object of the canonical
// intent: the rendering uses each new name, in the user's case, and none
// of the old ones.
func TestNamesRenameEveryObject(t *testing.T) {
	old := renderedNames(t, canonical())
	if d := cmp.Diff([]string{"CNP", DefaultClassifier, DefaultQueuing, "ROCEv2", DefaultNetworkQoS}, old); d != "" {
		t.Fatalf("canonical object names (-want +got):\n%s", d)
	}
	d := canonical()
	d.QoS.Names = intent.Names{Classifier: "RoCE-Classify", Queuing: "egress_8q", NetworkQoS: "NQ.jumbo"}
	d.QoS.Classes[1].Names.ClassMap = "rdma"
	d.QoS.Classes[2].Names.ClassMap = "Cnp_Fast"
	got := renderedNames(t, d)
	if diff := cmp.Diff([]string{"Cnp_Fast", "NQ.jumbo", "RoCE-Classify", "egress_8q", "rdma"}, got); diff != "" {
		t.Errorf("renamed object names (-want +got):\n%s", diff)
	}
	doc, err := Render(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"class-map type qos match-any rdma\n", "class-map type qos match-any Cnp_Fast\n",
		"policy-map type qos RoCE-Classify\n  class rdma\n    set qos-group 3\n  class Cnp_Fast\n",
		"policy-map type queuing egress_8q\n", "policy-map type network-qos NQ.jumbo\n",
		"  service-policy type network-qos NQ.jumbo\n  service-policy type queuing output egress_8q\n",
		"  service-policy type qos input RoCE-Classify\n",
	} {
		if !strings.Contains(string(doc.Text), want) {
			t.Errorf("rendering lacks %q:\n%s", want, doc.Text)
		}
	}
}

// TestNamesStableWhenAClassIsAdded: adding a class to a profile adds its
// class-map and changes no other object's name.
func TestNamesStableWhenAClassIsAdded(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names intent.Names
	}{
		{"defaults", intent.Names{}},
		{"named", intent.Names{Classifier: "IN", Queuing: "OUT", NetworkQoS: "NQ"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := canonical()
			d.QoS.Names = tc.names
			before := renderedNames(t, d)
			d = canonical()
			d.QoS.Names = tc.names
			d.QoS.Classes = slices.Insert(d.QoS.Classes, 1, intent.Class{Name: "BULK", ID: 1, DSCP: []int{10}})
			after := renderedNames(t, d)
			if diff := cmp.Diff(append(slices.Clone(before), "BULK"), after, cmp.Transformer("sort", func(s []string) []string {
				s = slices.Clone(s)
				slices.Sort(s)
				return s
			})); diff != "" {
				t.Errorf("adding class BULK changed other names (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNamesRefused: a name NX-OS cannot take, and two objects that would
// share one name, are refused with the vendor's limit or the override to
// name.
func TestNamesRefused(t *testing.T) {
	long := strings.Repeat("n", nameMax+1)
	for _, tc := range []struct {
		name    string
		change  func(d *intent.Device)
		feature string
		reason  string
	}{
		{"classifier over 40 characters", func(d *intent.Device) { d.QoS.Names.Classifier = long }, "policy-map type qos name", "1–40 characters (batfish"},
		{"class-map over 40 characters", func(d *intent.Device) { d.QoS.Classes[1].Names.ClassMap = long }, "class-map of class ROCEv2 name", "more than 40"},
		{"default name with a long suffix", func(d *intent.Device) {
			q := *d.QoS
			q.Profile = strings.Repeat("p", 30)
			q.Classes = slices.Clone(q.Classes)
			q.Classes[1].DSCP = []int{24, 26, 28}
			q.Classes[1].Names.ClassMap = "RoCE3"
			d.Ports[1].QoS = &q
		}, "policy-map type qos name", "more than 40"},
		{"two classes, one class-map", func(d *intent.Device) { d.QoS.Classes[2].Names.ClassMap = "ROCEv2" }, "class-map of class CNP", "both be the class-map \"ROCEv2\""},
		{"override keeps the device's explicit queuing name with other contents", func(d *intent.Device) {
			d.QoS.Names.Queuing = "OUT"
			q := *d.QoS
			q.Classes = slices.Clone(q.Classes)
			e := *q.Classes[1].ECN
			e.MaxProbability = 9
			q.Classes[1].ECN = &e
			d.Ports[1].QoS = &q
		}, "QoS override on port Ethernet1/2", "policy-map type queuing OUT has the name of the one of the device's QoS profile but other contents; give the override's names block its own queuing name"},
		{"override renames network-qos", func(d *intent.Device) {
			q := *d.QoS
			q.Names.NetworkQoS = "NQ2"
			d.Ports[1].QoS = &q
		}, "QoS override on port Ethernet1/2", "one network-qos policy system-wide"},
		{"override class-map name with other DSCPs", func(d *intent.Device) {
			q := *d.QoS
			q.Profile = "other"
			q.Classes = slices.Clone(q.Classes)
			q.Classes[1].DSCP = []int{24}
			d.Ports[1].QoS = &q
		}, "class-map ROCEv2", "names { class_map = … }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := canonical()
			tc.change(d)
			_, err := Render(d)
			var ue *renderers.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("Render: %v, want an UnsupportedError", err)
			}
			if !strings.Contains(ue.Feature, tc.feature) || !strings.Contains(ue.Reason, tc.reason) {
				t.Errorf("got feature %q reason %q, want %q and %q", ue.Feature, ue.Reason, tc.feature, tc.reason)
			}
		})
	}
}

// TestNamesOverride: an override's explicit names are kept (its own
// policy even when its contents equal the device's); a default name
// shares the device's policy when the contents are equal.
func TestNamesOverride(t *testing.T) {
	d := canonical()
	q := *d.QoS
	q.Names.Classifier = "EDGE_IN"
	d.Ports[1].QoS = &q
	doc, err := Render(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"policy-map type qos EDGE_IN\n", "interface Ethernet1/2\n  priority-flow-control mode on\n  priority-flow-control watch-dog-interval on\n  service-policy type qos input EDGE_IN\n"} {
		if !strings.Contains(string(doc.Text), want) {
			t.Errorf("rendering lacks %q:\n%s", want, doc.Text)
		}
	}
	if strings.Contains(string(doc.Text), "QOS_EGRESS_PORT_") {
		t.Errorf("an equal queuing policy was not shared:\n%s", doc.Text)
	}
}
