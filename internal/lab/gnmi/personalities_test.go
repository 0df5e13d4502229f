package gnmitarget

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/eos"
	"github.com/lossless-net/lossless/internal/lab/sonic"
	"github.com/lossless-net/lossless/internal/ocqos"
)

// The tests in this file drive the real lab personalities (lab/sonic,
// lab/eos) through the target, where the fakes above stand in elsewhere.

func realSonic(t *testing.T) device.Device {
	t.Helper()
	k, err := sonic.NewKind()
	if err != nil {
		t.Fatal(err)
	}
	d, err := k.New("sonic1", nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func realEOS(t *testing.T) device.Device {
	t.Helper()
	d, err := eos.New("leaf1", []byte(eosCanonical))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRealSonic(t *testing.T) {
	dev := realSonic(t)
	db := dev.(device.ConfigDB)
	tg := startTarget(t, []served{{"sonic1", dev, nil}})
	c := client(t, tg)

	if got := getJSON(t, c, "sonic1", sonicPath("PORT", "Ethernet0", "mtu")); got != `"9100"` {
		t.Errorf("PORT|Ethernet0 mtu = %s", got)
	}
	// A valid change: a DSCP map bound to a port.
	_, err := c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{
		{Path: sonicPath("DSCP_TO_TC_MAP", "ROCE"), Val: ietf(`{"24":"3","26":"3","48":"6"}`)},
		{Path: sonicPath("PORT_QOS_MAP", "Ethernet0"), Val: ietf(`{"dscp_to_tc_map":"ROCE","pfc_enable":"3"}`)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := db.DB()["PORT_QOS_MAP"]["Ethernet0"]["dscp_to_tc_map"]; got != "ROCE" {
		t.Errorf("PORT_QOS_MAP|Ethernet0 dscp_to_tc_map = %q", got)
	}

	// A YANG violation in the same request as a valid op: refused whole,
	// with SONiC's text.
	before := db.DB()
	_, err = c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{
		{Path: sonicPath("DSCP_TO_TC_MAP", "OTHER"), Val: ietf(`{"10":"1"}`)},
		{Path: sonicPath("PORT_QOS_MAP", "Ethernet9999"), Val: ietf(`{"pfc_enable":"3"}`)},
	}})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "Given patch will produce invalid config") {
		t.Errorf("Set with a YANG violation: %v", err)
	}
	if d := cmp.Diff(before, db.DB()); d != "" {
		t.Errorf("CONFIG_DB changed by a refused Set (-before +after):\n%s", d)
	}

	// Commit confirmed, not confirmed: restored exactly.
	clock := &manualClock{}
	dev2 := realSonic(t)
	tg2 := startTarget(t, []served{{"sonic2", dev2, nil}}, WithClock(clock))
	c2 := client(t, tg2)
	cp := string(dev2.(device.Checkpointer).Checkpoint())
	_, err = c2.Set(t.Context(), &gpb.SetRequest{
		Update:    []*gpb.Update{{Path: sonicPath("DSCP_TO_TC_MAP", "ROCE"), Val: ietf(`{"24":"3"}`)}},
		Extension: commitExt("c1", "commit", time.Minute),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := dev2.(device.ConfigDB).DB()["DSCP_TO_TC_MAP"]; !ok {
		t.Fatal("commit did not take effect")
	}
	clock.Advance(time.Minute)
	if d := cmp.Diff(cp, string(dev2.(device.Checkpointer).Checkpoint())); d != "" {
		t.Errorf("not restored after the rollback (-before +after):\n%s", d)
	}
}

func TestRealEOS(t *testing.T) {
	dev := realEOS(t)
	tg := startTarget(t, []served{{"leaf1", dev, nil}})
	c := client(t, tg)

	// The OpenConfig view of the canonical config.
	q := ocGetDevice(t, c).GetQos()
	checkValid(t, dev.Running())
	if got := q.GetInterface("Ethernet1").GetOutput().GetQueue("3").GetQueueManagementProfile(); got != "ecn-150-3000-kbytes-p100" {
		t.Errorf("Ethernet1 queue 3 profile = %q", got)
	}
	if q.GetSchedulerPolicy("Ethernet2").GetScheduler(6).GetPriority() != ocqos.Scheduler_Priority_STRICT {
		t.Error("Ethernet2 tx-queue 6 is not strict in the OpenConfig view")
	}

	// cli Set: applied as one session.
	_, err := c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{{Path: &gpb.Path{Origin: "cli"}, Val: ascii(
		"interface Ethernet1\ntx-queue 3\nbandwidth percent 50\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(dev.Running()), "bandwidth percent 50") {
		t.Errorf("running config lacks the pushed line:\n%s", dev.Running())
	}

	// All or nothing: the bad third line leaves the first two out.
	before := string(dev.Running())
	_, err = c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{{Path: &gpb.Path{Origin: "cli"}, Val: ascii(
		"interface Ethernet2\ntx-queue 3\nbandwidth percent 30\npriority-flow-control priority 9 no-drop\n")}}})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "% Invalid input") {
		t.Errorf("bad line: %v", err)
	}
	if d := cmp.Diff(before, string(dev.Running())); d != "" {
		t.Errorf("running config changed by a refused Set (-before +after):\n%s", d)
	}

	// Commit confirmed, not confirmed: the running config comes back byte
	// for byte.
	clock := &manualClock{}
	dev2 := realEOS(t)
	tg2 := startTarget(t, []served{{"leaf2", dev2, nil}}, WithClock(clock))
	c2 := client(t, tg2)
	before = string(dev2.Running())
	_, err = c2.Set(t.Context(), &gpb.SetRequest{
		Update:    []*gpb.Update{{Path: &gpb.Path{Origin: "cli"}, Val: ascii("qos map dscp 26 to traffic-class 5")}},
		Extension: commitExt("c1", "commit", time.Minute),
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(dev2.Running()) == before {
		t.Fatal("commit did not take effect")
	}
	clock.Advance(time.Minute)
	if d := cmp.Diff(before, string(dev2.Running())); d != "" {
		t.Errorf("not restored after the rollback (-before +after):\n%s", d)
	}
}

// reference/eos.md §1b (Variant B, a qos profile applied with
// service-profile) pushed through origin cli on a factory device, and read
// back as OpenConfig: the profile's lines count for the interface, the
// interface's own tx-queue lines win.
func TestRealEOSVariantB(t *testing.T) {
	dev, err := eos.New("leaf3", nil)
	if err != nil {
		t.Fatal(err)
	}
	tg := startTarget(t, []served{{"leaf3", dev, nil}})
	c := client(t, tg)
	_, err = c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{{Path: &gpb.Path{Origin: "cli"}, Val: ascii(`qos profile ROCE_LOSSLESS
qos trust dscp
tx-queue 3
random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100
tx-queue 6
priority strict
exit
priority-flow-control on
priority-flow-control priority 3 no-drop
interface Ethernet1
service-profile ROCE_LOSSLESS
mtu 9214
tx-queue 6
no priority
bandwidth percent 20
qos map dscp 24 26 to traffic-class 3
`)}}})
	if err != nil {
		t.Fatal(err)
	}
	d := ocGetDevice(t, c)
	checkValid(t, dev.Running())
	q := d.GetQos()
	if got := q.GetInterface("Ethernet1").GetOutput().GetQueue("3").GetQueueManagementProfile(); got != "ecn-150-3000-kbytes-p100" {
		t.Errorf("Ethernet1 queue 3 profile = %q, want the qos profile's", got)
	}
	if q.GetInterface("Ethernet1").GetInput().GetClassifier(ocqos.Input_Classifier_Type_IPV6).GetName() != classifierIPv6 {
		t.Error("Ethernet1 lacks the DSCP classifier of its profile's qos trust dscp")
	}
	s6 := q.GetSchedulerPolicy("Ethernet1").GetScheduler(6)
	if s6.GetPriority() == ocqos.Scheduler_Priority_STRICT || s6.GetInput("6").GetWeight() != 20 {
		t.Errorf("Ethernet1 scheduler 6 = %v weight %d, want the interface's round-robin weight 20", s6.GetPriority(), s6.GetInput("6").GetWeight())
	}
	if got := d.GetInterface("Ethernet1").GetMtu(); got != 9214 {
		t.Errorf("Ethernet1 mtu = %d", got)
	}
}
