package gnmitarget

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"

	"github.com/lossless-net/lossless/internal/ocqos"
)

// ocGet reads an OpenConfig path with JSON_IETF and decodes it into a
// fresh ocqos.Device with ygot's schema-checked unmarshal.
func ocGetDevice(t *testing.T, c gpb.GNMIClient) *ocqos.Device {
	t.Helper()
	raw := getJSON(t, c, "", &gpb.Path{})
	dev := &ocqos.Device{}
	if err := ocqos.Unmarshal([]byte(raw), dev); err != nil {
		t.Fatalf("unmarshal the target's OpenConfig JSON: %v\n%s", err, raw)
	}
	return dev
}

// The canonical EOS config (reference/eos.md §1a) read back as OpenConfig.
func TestOpenConfigFromCanonicalEOS(t *testing.T) {
	eos := newFakeEOS(eosCanonical)
	tg := startTarget(t, []served{{"leaf1", eos, nil}})
	c := client(t, tg)
	dev := ocGetDevice(t, c)
	checkValid(t, eos.Running())
	q := dev.GetQos()

	// DSCP → TC: EOS defaults (eos.md §0) with 24, 26 → 3 and 48 → 6,
	// which restate them.
	term3 := q.GetClassifier(classifierIPv4).GetTerm("tc3")
	if got, want := term3.GetConditions().GetIpv4().DscpSet, []uint8{24, 25, 26, 27, 28, 29, 30, 31}; !slices.Equal(got, want) {
		t.Errorf("ipv4 tc3 dscp-set = %v, want %v", got, want)
	}
	if got := term3.GetActions().GetTargetGroup(); got != "tc3" {
		t.Errorf("tc3 target-group = %q", got)
	}
	if got := q.GetClassifier(classifierIPv6).GetTerm("tc6").GetConditions().GetIpv6().DscpSet; !slices.Contains(got, 48) {
		t.Errorf("ipv6 tc6 dscp-set %v lacks 48", got)
	}
	if got := q.GetForwardingGroup("tc3").GetOutputQueue(); got != "3" {
		t.Errorf("forwarding-group tc3 output-queue = %q, want 3", got)
	}

	// ECN on tx-queue 3: 150/3000 kbytes (1024 B), probability 100.
	prof := q.GetQueueManagementProfile("ecn-150-3000-kbytes-p100")
	u := prof.GetWred().GetUniform()
	if u == nil {
		t.Fatalf("no wred/uniform profile ecn-150-3000-kbytes-p100; profiles: %v", keys(q.QueueManagementProfile))
	}
	wantU := &ocqos.Qos_QueueManagementProfile_Wred_Uniform{
		EnableEcn: ptr(true), Drop: ptr(false),
		MinThreshold: ptr(uint64(150 * 1024)), MaxThreshold: ptr(uint64(3000 * 1024)),
		MaxDropProbabilityPercent: ptr(uint8(100)),
	}
	if d := cmp.Diff(wantU, u); d != "" {
		t.Errorf("wred/uniform (-want +got):\n%s", d)
	}
	for _, ifn := range []string{"Ethernet1", "Ethernet2"} {
		qi := q.GetInterface(ifn)
		if got := qi.GetOutput().GetQueue("3").GetQueueManagementProfile(); got != "ecn-150-3000-kbytes-p100" {
			t.Errorf("%s output queue 3 profile = %q", ifn, got)
		}
		if got := qi.GetInput().GetClassifier(ocqos.Input_Classifier_Type_IPV4).GetName(); got != classifierIPv4 {
			t.Errorf("%s input ipv4 classifier = %q (qos trust dscp)", ifn, got)
		}
		if got := qi.GetOutput().GetSchedulerPolicy().GetName(); got != ifn {
			t.Errorf("%s scheduler-policy = %q", ifn, got)
		}
		s6 := q.GetSchedulerPolicy(ifn).GetScheduler(6)
		if s6.GetPriority() != ocqos.Scheduler_Priority_STRICT || s6.GetInput("6").GetQueue() != "6" {
			t.Errorf("%s scheduler 6 = priority %v input %v, want STRICT on queue 6", ifn, s6.GetPriority(), s6.GetInput("6"))
		}
	}
}

func ptr[T any](v T) *T { return &v }

// checkValid validates the OpenConfig view of a running config against the
// schema, leafrefs included: Get skips that check for speed
// (buildEOSOpenConfig), so each test that reads a view runs it.
func checkValid(t *testing.T, running []byte) {
	t.Helper()
	if _, err := eosOpenConfig(running); err != nil {
		t.Errorf("the OpenConfig view is invalid: %v\n%s", err, running)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// What a cli Set changes shows in the OpenConfig view.
func TestOpenConfigFollowsCLISet(t *testing.T) {
	eos := newFakeEOS(eosCanonical)
	tg := startTarget(t, []served{{"leaf1", eos, nil}})
	c := client(t, tg)
	_, err := c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{{Path: &gpb.Path{Origin: "cli"}, Val: ascii(
		"qos map dscp 26 to traffic-class 5\nqos map traffic-class 5 to tx-queue 4\n" +
			"interface Ethernet1\ntx-queue 3\nno priority\nbandwidth percent 40\n" +
			"random-detect ecn minimum-threshold 200 segments maximum-threshold 800 segments max-mark-probability 20\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	q := ocGetDevice(t, c).GetQos()
	checkValid(t, eos.Running())
	if got := q.GetClassifier(classifierIPv4).GetTerm("tc5").GetConditions().GetIpv4().DscpSet; !slices.Contains(got, 26) {
		t.Errorf("tc5 dscp-set %v lacks 26", got)
	}
	if got := q.GetClassifier(classifierIPv4).GetTerm("tc3").GetConditions().GetIpv4().DscpSet; slices.Contains(got, 26) {
		t.Errorf("tc3 dscp-set %v still holds 26", got)
	}
	if got := q.GetForwardingGroup("tc5").GetOutputQueue(); got != "4" {
		t.Errorf("tc5 output-queue = %q, want 4", got)
	}
	s3 := q.GetSchedulerPolicy("Ethernet1").GetScheduler(3)
	if s3.GetPriority() == ocqos.Scheduler_Priority_STRICT || s3.GetInput("3").GetWeight() != 40 {
		t.Errorf("Ethernet1 scheduler 3 = %v weight %d, want round-robin weight 40", s3.GetPriority(), s3.GetInput("3").GetWeight())
	}
	// Segments have no byte value: the thresholds stay unset, the name keeps the unit.
	u := q.GetQueueManagementProfile("ecn-200-800-segments-p20").GetWred().GetUniform()
	if u == nil || u.MinThreshold != nil || u.GetMaxDropProbabilityPercent() != 20 {
		t.Errorf("segments profile = %+v", u)
	}
}

func TestOpenConfigGetPaths(t *testing.T) {
	tg := startTarget(t, []served{{"leaf1", newFakeEOS(eosCanonical), nil}})
	c := client(t, tg)
	profile := &gpb.Path{Origin: "openconfig", Elem: []*gpb.PathElem{
		{Name: "qos"}, {Name: "queue-management-profiles"},
		{Name: "queue-management-profile", Key: map[string]string{"name": "ecn-150-3000-kbytes-p100"}},
	}}
	jsonEqual(t, getJSON(t, c, "leaf1", profile), `{
		"openconfig-qos:name": "ecn-150-3000-kbytes-p100",
		"openconfig-qos:config": {"name": "ecn-150-3000-kbytes-p100"},
		"openconfig-qos:wred": {"uniform": {"config": {
			"enable-ecn": true, "drop": false,
			"min-threshold": "153600", "max-threshold": "3072000",
			"max-drop-probability-percent": 100}}}}`)

	// PROTO: one typed update per leaf, with full paths.
	resp, err := c.Get(t.Context(), &gpb.GetRequest{Path: []*gpb.Path{profile}, Encoding: gpb.Encoding_PROTO})
	if err != nil {
		t.Fatal(err)
	}
	leaves := map[string]string{}
	for _, u := range resp.GetNotification()[0].GetUpdate() {
		leaves[pathString(u.GetPath().GetElem())] = u.GetVal().String()
	}
	maxT := "/qos/queue-management-profiles/queue-management-profile[name=ecn-150-3000-kbytes-p100]/wred/uniform/config/max-threshold"
	if !strings.Contains(leaves[maxT], "3072000") {
		t.Errorf("leaf %s = %q; leaves: %v", maxT, leaves[maxT], leaves)
	}

	missing := &gpb.Path{Elem: []*gpb.PathElem{{Name: "qos"}, {Name: "queue-management-profiles"}, {Name: "queue-management-profile", Key: map[string]string{"name": "nope"}}}}
	_, err = c.Get(t.Context(), &gpb.GetRequest{Path: []*gpb.Path{missing}, Encoding: gpb.Encoding_JSON_IETF})
	wantCode(t, err, codes.NotFound)
	_, err = c.Get(t.Context(), &gpb.GetRequest{Path: []*gpb.Path{profile}, Encoding: gpb.Encoding_ASCII})
	wantCode(t, err, codes.Unimplemented)
}

// A qos profile applied by service-profile counts for the interface, and a
// line on the interface wins over the profile's (reference/eos.md §1b).
func TestOpenConfigServiceProfile(t *testing.T) {
	running := `qos profile ROCE
   qos trust dscp
   !
   tx-queue 3
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100
   !
   tx-queue 6
      priority strict
!
interface Ethernet1
   service-profile ROCE
!
interface Ethernet2
   service-profile ROCE
   qos trust cos
   !
   tx-queue 3
      random-detect ecn minimum-threshold 100 kbytes maximum-threshold 2000 kbytes
`
	dev, err := eosOpenConfig([]byte(running))
	if err != nil {
		t.Fatal(err)
	}
	q := dev.GetQos()
	if got := q.GetInterface("Ethernet1").GetOutput().GetQueue("3").GetQueueManagementProfile(); got != "ecn-150-3000-kbytes-p100" {
		t.Errorf("Ethernet1 queue 3 profile = %q, want the qos profile's", got)
	}
	if q.GetInterface("Ethernet1").GetInput().GetClassifier(ocqos.Input_Classifier_Type_IPV4) == nil {
		t.Error("Ethernet1 lacks the DSCP classifier its profile's trust gives")
	}
	if got := q.GetInterface("Ethernet2").GetOutput().GetQueue("3").GetQueueManagementProfile(); got != "ecn-100-2000-kbytes" {
		t.Errorf("Ethernet2 queue 3 profile = %q, want its own line's", got)
	}
	if q.GetInterface("Ethernet2").GetInput().GetClassifier(ocqos.Input_Classifier_Type_IPV4) != nil {
		t.Error("Ethernet2 trusts cos but got the DSCP classifier")
	}
	if q.GetSchedulerPolicy("Ethernet2").GetScheduler(6).GetPriority() != ocqos.Scheduler_Priority_STRICT {
		t.Error("Ethernet2 lost the profile's strict tx-queue 6")
	}
}

func TestOpenConfigRefusesBrokenRunning(t *testing.T) {
	tests := []string{
		"qos map dscp 64 to traffic-class 3\n",
		"qos map dscp 24 to traffic-class 8\n",
		"interface Ethernet1\n   tx-queue 9\n",
		"interface Ethernet1\n   tx-queue 3\n      random-detect ecn minimum-threshold 1 kbytes maximum-threshold 2 bytes\n",
		"interface Ethernet1\n   tx-queue 3\n      random-detect ecn minimum-threshold 1 kbytes maximum-threshold 2 kbytes max-mark-probability 101\n",
		"interface Ethernet1\n   tx-queue 3\n      random-detect ecn minimum-threshold 1 kbytes maximum-threshold 2 kbytes max-mark-probability 356\n",
	}
	for _, running := range tests {
		if _, err := eosOpenConfig([]byte(running)); err == nil {
			t.Errorf("accepted %q", running)
		}
	}
}

// FuzzEOSOpenConfig feeds running-config text to the parser and the
// builder of the OpenConfig view (validation is left to the unit tests:
// it is too slow under the fuzzer's instrumentation).
func FuzzEOSOpenConfig(f *testing.F) {
	f.Add([]byte(eosCanonical))
	f.Add([]byte("qos map dscp 1 2 to traffic-class 4 drop-precedence 1\nqos map traffic-class 1 to tx-queue 2\n"))
	f.Add([]byte("qos profile P\n   tx-queue 3\n      bandwidth percent 5\ninterface Ethernet1\n   service-profile P\n   mtu 9214\n"))
	f.Fuzz(func(t *testing.T, running []byte) {
		q, err := parseEOSQoS(running)
		if err != nil {
			return
		}
		_, _ = q.openConfig() // must not panic
	})
}
