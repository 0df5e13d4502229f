package gnmitarget

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/gnmi/proto/gnmi_ext"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/lossless-net/lossless/internal/lab/device"
)

const (
	testUser = "admin"
	testPass = "lab-secret-9"
)

// eosCanonical is reference/eos.md §1a, the running config for the
// canonical intent.
const eosCanonical = `interface Ethernet1
   qos trust dscp
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   priority-flow-control pause watchdog
   !
   tx-queue 3
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100
   !
   tx-queue 6
      priority strict
!
interface Ethernet2
   qos trust dscp
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   priority-flow-control pause watchdog
   !
   tx-queue 3
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100
   !
   tx-queue 6
      priority strict
!
qos map dscp 24 26 to traffic-class 3
qos map dscp 48 to traffic-class 6
!
priority-flow-control pause watchdog default timeout 0.2
priority-flow-control pause watchdog default recovery-time 0.4
priority-flow-control pause watchdog default polling-interval 0.1
priority-flow-control pause watchdog action drop
`

// served is one device for startTarget.
type served struct {
	name   string
	dev    device.Device
	faults *device.Faults
}

// startTarget starts a TLS target with the test credentials serving devs;
// it is closed when the test ends.
func startTarget(t *testing.T, devs []served, opts ...Option) *Target {
	t.Helper()
	tg, err := New(append([]Option{WithCredentials(testUser, testPass)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range devs {
		if err := tg.Add(d.name, d.dev, d.faults); err != nil {
			t.Fatal(err)
		}
	}
	if err := tg.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tg.Close() })
	return tg
}

// loginCreds sends username and password metadata on every RPC.
type loginCreds struct{ user, pass string }

func (c loginCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	m := map[string]string{}
	if c.user != "" {
		m["username"] = c.user
	}
	if c.pass != "" {
		m["password"] = c.pass
	}
	return m, nil
}

func (loginCreds) RequireTransportSecurity() bool { return false }

// dial connects to tg; cfg nil means plaintext.
func dial(t testing.TB, tg *Target, cfg *tls.Config, c loginCreds) gpb.GNMIClient {
	t.Helper()
	tc := insecure.NewCredentials()
	if cfg != nil {
		tc = credentials.NewTLS(cfg)
	}
	conn, err := grpc.NewClient(tg.Addr(), grpc.WithTransportCredentials(tc), grpc.WithPerRPCCredentials(c))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return gpb.NewGNMIClient(conn)
}

// client dials tg over TLS trusting its CA, with the right credentials.
func client(t *testing.T, tg *Target) gpb.GNMIClient { return benchClient(t, tg) }

// benchClient is client for tests and benchmarks.
func benchClient(t testing.TB, tg *Target) gpb.GNMIClient {
	return dial(t, tg, tg.CA().ClientTLS(), loginCreds{testUser, testPass})
}

// sonicPath builds /CONFIG_DB/localhost/<elems...>.
func sonicPath(elems ...string) *gpb.Path {
	p := &gpb.Path{Origin: "sonic-db", Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}}}
	for _, e := range elems {
		p.Elem = append(p.Elem, &gpb.PathElem{Name: e})
	}
	return p
}

func ietf(s string) *gpb.TypedValue {
	return &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: []byte(s)}}
}

func ascii(s string) *gpb.TypedValue {
	return &gpb.TypedValue{Value: &gpb.TypedValue_AsciiVal{AsciiVal: s}}
}

func wantCode(t *testing.T, err error, want codes.Code) {
	t.Helper()
	if got := status.Code(err); got != want {
		t.Fatalf("status code = %v (%v), want %v", got, err, want)
	}
}

func TestCapabilities(t *testing.T) {
	tg := startTarget(t, []served{{"leaf1", newFakeEOS(eosCanonical), nil}, {"leaf2", newFakeSonic(), nil}})
	resp, err := client(t, tg).Capabilities(t.Context(), &gpb.CapabilityRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetGNMIVersion() != "0.10.0" {
		t.Errorf("gNMI version = %q", resp.GetGNMIVersion())
	}
	models := map[string]bool{}
	for _, m := range resp.GetSupportedModels() {
		models[m.GetName()] = true
	}
	for _, m := range []string{"openconfig-qos", "openconfig-interfaces"} {
		if !models[m] {
			t.Errorf("model %s not advertised", m)
		}
	}
	enc := map[gpb.Encoding]bool{}
	for _, e := range resp.GetSupportedEncodings() {
		enc[e] = true
	}
	if !enc[gpb.Encoding_JSON_IETF] || !enc[gpb.Encoding_ASCII] {
		t.Errorf("encodings = %v, want JSON_IETF and ASCII among them", resp.GetSupportedEncodings())
	}
	commit := false
	for _, x := range resp.GetExtension() {
		commit = commit || x.GetCommit() != nil
	}
	if !commit {
		t.Error("commit confirmed extension not advertised")
	}
}

func TestTLS(t *testing.T) {
	tg := startTarget(t, []served{{"leaf1", newFakeSonic(), nil}})
	other, err := NewCA()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  *tls.Config
		want codes.Code
	}{
		{"the lab CA is trusted", tg.CA().ClientTLS(), codes.OK},
		{"system roots only: refused", &tls.Config{RootCAs: x509.NewCertPool()}, codes.Unavailable},
		{"another CA: refused", other.ClientTLS(), codes.Unavailable},
		{"plaintext client: refused", nil, codes.Unavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, tg, tt.cfg, loginCreds{testUser, testPass})
			_, err := c.Capabilities(t.Context(), &gpb.CapabilityRequest{})
			wantCode(t, err, tt.want)
		})
	}
}

func TestPlaintextOnlyWhenAsked(t *testing.T) {
	tg := startTarget(t, []served{{"leaf1", newFakeSonic(), nil}}, WithPlaintext())
	if tg.CA() != nil {
		t.Fatal("plaintext target has a CA")
	}
	c := dial(t, tg, nil, loginCreds{testUser, testPass})
	if _, err := c.Capabilities(t.Context(), &gpb.CapabilityRequest{}); err != nil {
		t.Fatal(err)
	}
	ca, err := NewCA()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(WithCredentials(testUser, testPass), WithPlaintext(), WithCA(ca)); err == nil {
		t.Error("New accepted both a CA and plaintext")
	}
}

func TestCredentials(t *testing.T) {
	refused := &device.Faults{RefuseAuth: true}
	tg := startTarget(t, []served{{"leaf1", newFakeSonic(), nil}, {"leaf2", newFakeSonic(), refused}})
	tests := []struct {
		name   string
		creds  loginCreds
		target string
		want   codes.Code
	}{
		{"right credentials", loginCreds{testUser, testPass}, "leaf1", codes.OK},
		{"wrong password", loginCreds{testUser, "nope"}, "leaf1", codes.Unauthenticated},
		{"wrong user", loginCreds{"guest", testPass}, "leaf1", codes.Unauthenticated},
		{"no metadata", loginCreds{}, "leaf1", codes.Unauthenticated},
		{"device refuses auth (fault)", loginCreds{testUser, testPass}, "leaf2", codes.Unauthenticated},
		{"unknown device", loginCreds{testUser, testPass}, "leaf9", codes.NotFound},
		{"no target with two devices", loginCreds{testUser, testPass}, "", codes.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, tg, tg.CA().ClientTLS(), tt.creds)
			_, err := c.Get(t.Context(), &gpb.GetRequest{
				Prefix:   &gpb.Path{Target: tt.target},
				Path:     []*gpb.Path{sonicPath("PORT")},
				Encoding: gpb.Encoding_JSON_IETF,
			})
			wantCode(t, err, tt.want)
			if err != nil && strings.Contains(err.Error(), testPass) {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
}

func getJSON(t *testing.T, c gpb.GNMIClient, target string, p *gpb.Path) string {
	t.Helper()
	resp, err := c.Get(t.Context(), &gpb.GetRequest{Prefix: &gpb.Path{Target: target}, Path: []*gpb.Path{p}, Encoding: gpb.Encoding_JSON_IETF})
	if err != nil {
		t.Fatalf("get %v: %v", p, err)
	}
	if n := len(resp.GetNotification()); n != 1 || len(resp.GetNotification()[0].GetUpdate()) != 1 {
		t.Fatalf("get: want 1 notification with 1 update, got %v", resp)
	}
	return string(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonIetfVal())
}

func TestSonicGet(t *testing.T) {
	tg := startTarget(t, []served{{"sonic1", newFakeSonic(), nil}})
	c := client(t, tg)
	tests := []struct {
		path *gpb.Path
		want string
	}{
		{sonicPath("PORT_QOS_MAP"), `{"Ethernet0":{"pfc_enable":"3,4"}}`},
		{sonicPath("PORT", "Ethernet4"), `{"mtu":"9100","speed":"400000"}`},
		{sonicPath("WRED_PROFILE", "AZURE_LOSSLESS", "ecn"), `"ecn_all"`},
	}
	for _, tt := range tests {
		if got := getJSON(t, c, "sonic1", tt.path); got != tt.want {
			t.Errorf("get %v = %s, want %s", tt.path.GetElem(), got, tt.want)
		}
	}
	// Origin on the prefix, elements on the path.
	resp, err := c.Get(t.Context(), &gpb.GetRequest{
		Prefix:   &gpb.Path{Origin: "sonic-db", Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}}},
		Path:     []*gpb.Path{{Elem: []*gpb.PathElem{{Name: "PORT_QOS_MAP"}, {Name: "Ethernet0"}, {Name: "pfc_enable"}}}},
		Encoding: gpb.Encoding_JSON_IETF,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonIetfVal()); got != `"3,4"` {
		t.Errorf("prefix form: got %s", got)
	}
	errs := []struct {
		name string
		req  *gpb.GetRequest
		want codes.Code
	}{
		{"missing key", &gpb.GetRequest{Path: []*gpb.Path{sonicPath("PORT", "Ethernet96")}, Encoding: gpb.Encoding_JSON_IETF}, codes.NotFound},
		{"other namespace", &gpb.GetRequest{Path: []*gpb.Path{{Origin: "sonic-db", Elem: []*gpb.PathElem{{Name: "CONFIG_DB"}, {Name: "asic0"}, {Name: "PORT"}}}}, Encoding: gpb.Encoding_JSON_IETF}, codes.NotFound},
		{"origin conflict", &gpb.GetRequest{Prefix: &gpb.Path{Origin: "openconfig"}, Path: []*gpb.Path{sonicPath("PORT")}, Encoding: gpb.Encoding_JSON_IETF}, codes.InvalidArgument},
		{"ascii encoding", &gpb.GetRequest{Path: []*gpb.Path{sonicPath("PORT")}, Encoding: gpb.Encoding_ASCII}, codes.Unimplemented},
		{"openconfig on SONiC", &gpb.GetRequest{Path: []*gpb.Path{{Elem: []*gpb.PathElem{{Name: "qos"}}}}, Encoding: gpb.Encoding_JSON_IETF}, codes.Unimplemented},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Get(t.Context(), tt.req)
			wantCode(t, err, tt.want)
		})
	}
}

func TestSonicSet(t *testing.T) {
	dev := newFakeSonic()
	tg := startTarget(t, []served{{"sonic1", dev, nil}})
	c := client(t, tg)
	_, err := c.Set(t.Context(), &gpb.SetRequest{
		Prefix: &gpb.Path{Target: "sonic1"},
		Delete: []*gpb.Path{sonicPath("PORT_QOS_MAP", "Ethernet0")},
		Replace: []*gpb.Update{
			{Path: sonicPath("WRED_PROFILE", "AZURE_LOSSLESS", "green_max_threshold"), Val: ietf(`"3145728"`)},
		},
		Update: []*gpb.Update{
			{Path: sonicPath("PORT_QOS_MAP", "Ethernet4"), Val: ietf(`{"pfc_enable":"3","dscp_to_tc_map":"ROCE"}`)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	db := dev.DB()
	want := map[string]map[string]string{"Ethernet4": {"pfc_enable": "3", "dscp_to_tc_map": "ROCE"}}
	if d := cmp.Diff(want, db["PORT_QOS_MAP"]); d != "" {
		t.Errorf("PORT_QOS_MAP (-want +got):\n%s", d)
	}
	if got := db["WRED_PROFILE"]["AZURE_LOSSLESS"]["green_max_threshold"]; got != "3145728" {
		t.Errorf("green_max_threshold = %q", got)
	}
}

// A Set whose result SONiC's YANG refuses changes nothing, and the
// refusal carries SONiC's text.
func TestSonicSetAllOrNothing(t *testing.T) {
	dev := newFakeSonic()
	tg := startTarget(t, []served{{"sonic1", dev, nil}})
	c := client(t, tg)
	before := dev.DB()
	tests := []struct {
		name string
		req  *gpb.SetRequest
		code codes.Code
		text string
	}{
		{
			name: "YANG violation after a valid update",
			req: &gpb.SetRequest{Update: []*gpb.Update{
				{Path: sonicPath("PORT_QOS_MAP", "Ethernet4"), Val: ietf(`{"pfc_enable":"3"}`)},
				{Path: sonicPath("WRED_PROFILE", "AZURE_LOSSLESS", "green_min_threshold"), Val: ietf(`"9999999"`)},
			}},
			code: codes.InvalidArgument,
			text: "Given patch will produce invalid config",
		},
		{
			name: "delete of a missing key",
			req: &gpb.SetRequest{
				Delete: []*gpb.Path{sonicPath("QUEUE", "Ethernet0|3")},
				Update: []*gpb.Update{{Path: sonicPath("PORT_QOS_MAP", "Ethernet4"), Val: ietf(`{"pfc_enable":"3"}`)}},
			},
			code: codes.InvalidArgument,
			text: "Failed to apply patch due to",
		},
		{
			name: "value not IETF JSON",
			req: &gpb.SetRequest{Update: []*gpb.Update{
				{Path: sonicPath("PORT_QOS_MAP", "Ethernet4"), Val: &gpb.TypedValue{Value: &gpb.TypedValue_JsonVal{JsonVal: []byte(`{"pfc_enable":"3"}`)}}},
			}},
			code: codes.InvalidArgument,
			text: "Value encoding is not IETF JSON",
		},
		{
			name: "two origins in one request",
			req: &gpb.SetRequest{Update: []*gpb.Update{
				{Path: sonicPath("PORT_QOS_MAP", "Ethernet4"), Val: ietf(`{"pfc_enable":"3"}`)},
				{Path: &gpb.Path{Origin: "cli"}, Val: ascii("qos map dscp 24 to traffic-class 3")},
			}},
			code: codes.InvalidArgument,
			text: "one origin",
		},
		{
			name: "whole-config replace",
			req:  &gpb.SetRequest{Replace: []*gpb.Update{{Path: sonicPath(), Val: ietf(`{}`)}}},
			code: codes.Unimplemented,
			text: "not emulated",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Set(t.Context(), tt.req)
			wantCode(t, err, tt.code)
			if !strings.Contains(status.Convert(err).Message(), tt.text) {
				t.Errorf("message %q does not contain %q", status.Convert(err).Message(), tt.text)
			}
			if d := cmp.Diff(before, dev.DB()); d != "" {
				t.Errorf("CONFIG_DB changed (-before +after):\n%s", d)
			}
		})
	}
}

func TestEOSCLISet(t *testing.T) {
	dev := newFakeEOS(eosCanonical)
	tg := startTarget(t, []served{{"leaf1", dev, nil}})
	c := client(t, tg)
	cli := &gpb.Path{Origin: "cli"}

	// One update, several lines; mode context carries over.
	_, err := c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{
		{Path: cli, Val: ascii("interface Ethernet3\nqos trust dscp\ntx-queue 3\nbandwidth percent 50\n")},
		{Path: cli, Val: ietf(`["qos map dscp 26 to traffic-class 5"]`)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	run := string(dev.Running())
	for _, want := range []string{"interface Ethernet3\n   qos trust dscp\n   !\n   tx-queue 3\n      bandwidth percent 50\n", "qos map dscp 26 to traffic-class 5\n"} {
		if !strings.Contains(run, want) {
			t.Errorf("running config lacks %q:\n%s", want, run)
		}
	}

	// All or nothing: a bad line rejects the whole request.
	before := dev.Running()
	_, err = c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{
		{Path: cli, Val: ascii("interface Ethernet4\nqos trust dscp\npriority-flow-control priority 9 no-drop\n")},
	}})
	wantCode(t, err, codes.InvalidArgument)
	if !strings.Contains(status.Convert(err).Message(), "% Invalid input") {
		t.Errorf("message %q lacks EOS's %% Invalid input", status.Convert(err).Message())
	}
	if d := cmp.Diff(string(before), string(dev.Running())); d != "" {
		t.Errorf("running config changed by a refused Set (-before +after):\n%s", d)
	}

	refusals := []struct {
		name string
		req  *gpb.SetRequest
	}{
		{"delete", &gpb.SetRequest{Delete: []*gpb.Path{cli}}},
		{"non-empty path", &gpb.SetRequest{Update: []*gpb.Update{{Path: &gpb.Path{Origin: "cli", Elem: []*gpb.PathElem{{Name: "interface"}}}, Val: ascii("qos trust dscp")}}}},
		{"int value", &gpb.SetRequest{Update: []*gpb.Update{{Path: cli, Val: &gpb.TypedValue{Value: &gpb.TypedValue_IntVal{IntVal: 3}}}}}},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Set(t.Context(), tt.req)
			wantCode(t, err, codes.InvalidArgument)
		})
	}
	_, err = c.Set(t.Context(), &gpb.SetRequest{Update: []*gpb.Update{{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "qos"}}}, Val: ietf(`{}`)}}})
	wantCode(t, err, codes.Unimplemented)
}

func TestEOSShowRunningConfig(t *testing.T) {
	dev := newFakeEOS(eosCanonical)
	tg := startTarget(t, []served{{"leaf1", dev, nil}})
	resp, err := client(t, tg).Get(t.Context(), &gpb.GetRequest{
		Path:     []*gpb.Path{{Origin: "cli", Elem: []*gpb.PathElem{{Name: "show running-config"}}}},
		Encoding: gpb.Encoding_ASCII,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetNotification()[0].GetUpdate()[0].GetVal().GetAsciiVal(); got != string(dev.Running()) {
		t.Errorf("show running-config = %q, want the device's running config", got)
	}
}

// commitExt builds a Commit extension.
func commitExt(id string, action string, d time.Duration) []*gnmi_ext.Extension {
	c := &gnmi_ext.Commit{Id: id}
	switch action {
	case "commit":
		c.Action = &gnmi_ext.Commit_Commit{Commit: &gnmi_ext.CommitRequest{RollbackDuration: durationpb.New(d)}}
	case "confirm":
		c.Action = &gnmi_ext.Commit_Confirm{Confirm: &gnmi_ext.CommitConfirm{}}
	case "cancel":
		c.Action = &gnmi_ext.Commit_Cancel{Cancel: &gnmi_ext.CommitCancel{}}
	case "extend":
		c.Action = &gnmi_ext.Commit_SetRollbackDuration{SetRollbackDuration: &gnmi_ext.CommitSetRollbackDuration{RollbackDuration: durationpb.New(d)}}
	}
	return []*gnmi_ext.Extension{{Ext: &gnmi_ext.Extension_Commit{Commit: c}}}
}

// snapshotter is what the commit tests compare: the device's whole state.
type snapshotter interface {
	device.Device
	device.Checkpointer
}

func TestCommitConfirmed(t *testing.T) {
	backends := []struct {
		name   string
		dev    func() snapshotter
		change []*gpb.Update
	}{
		{"sonic-db", func() snapshotter { return newFakeSonic() }, []*gpb.Update{{Path: sonicPath("PORT_QOS_MAP", "Ethernet4"), Val: ietf(`{"pfc_enable":"3"}`)}}},
		{"cli", func() snapshotter { return newFakeEOS(eosCanonical) }, []*gpb.Update{{Path: &gpb.Path{Origin: "cli"}, Val: ascii("qos map dscp 26 to traffic-class 5")}}},
	}
	type step struct {
		ext     string        // "commit", "confirm", "cancel", "extend", "" (plain Set)
		id      string        // commit id
		d       time.Duration // rollback duration
		advance time.Duration // clock advance after the step
		code    codes.Code
	}
	tests := []struct {
		name    string
		expire  bool // the device's ExpireCommitTimer fault
		steps   []step
		changed bool // the change is in place at the end
	}{
		{"not confirmed: rolled back when the timer runs out", false, []step{
			{ext: "commit", id: "c1", d: 5 * time.Minute, advance: 4 * time.Minute},
			{ext: "", code: codes.FailedPrecondition},
			{advance: 2 * time.Minute},
		}, false},
		{"confirmed in time: kept", false, []step{
			{ext: "commit", id: "c1", d: 5 * time.Minute, advance: 4 * time.Minute},
			{ext: "confirm", id: "c1", advance: time.Hour},
		}, true},
		{"confirm with the wrong id: refused, then rolled back", false, []step{
			{ext: "commit", id: "c1", d: 5 * time.Minute},
			{ext: "confirm", id: "c2", code: codes.InvalidArgument, advance: 6 * time.Minute},
		}, false},
		{"cancel: rolled back at once", false, []step{
			{ext: "commit", id: "c1", d: 5 * time.Minute},
			{ext: "cancel", id: "c1"},
		}, false},
		{"set_rollback_duration re-arms the timer", false, []step{
			{ext: "commit", id: "c1", d: 5 * time.Minute, advance: 4 * time.Minute},
			{ext: "extend", id: "c1", d: 10 * time.Minute, advance: 9 * time.Minute},
			{ext: "confirm", id: "c1", advance: time.Hour},
		}, true},
		{"confirm with nothing pending", false, []step{
			{ext: "confirm", id: "c1", code: codes.FailedPrecondition},
		}, false},
		{"timer expiry fault: rolled back at once", true, []step{
			{ext: "commit", id: "c1", d: 5 * time.Minute},
			{ext: "confirm", id: "c1", code: codes.FailedPrecondition},
		}, false},
	}
	for _, b := range backends {
		for _, tt := range tests {
			t.Run(b.name+"/"+tt.name, func(t *testing.T) {
				dev := b.dev()
				clock := &manualClock{}
				faults := &device.Faults{ExpireCommitTimer: tt.expire}
				tg := startTarget(t, []served{{"dut", dev, faults}}, WithClock(clock))
				c := client(t, tg)
				before := string(dev.Checkpoint())
				for i, s := range tt.steps {
					if s.ext != "" || s.code != codes.OK || s.advance == 0 {
						req := &gpb.SetRequest{}
						if s.ext == "commit" || s.ext == "" {
							req.Update = b.change
						}
						if s.ext != "" {
							req.Extension = commitExt(s.id, s.ext, s.d)
						}
						_, err := c.Set(t.Context(), req)
						if status.Code(err) != s.code {
							t.Fatalf("step %d (%s): code %v (%v), want %v", i, s.ext, status.Code(err), err, s.code)
						}
					}
					clock.Advance(s.advance)
				}
				after := string(dev.Checkpoint())
				if tt.changed && after == before {
					t.Error("the change was rolled back; want it kept")
				}
				if !tt.changed && after != before {
					t.Errorf("the device was not restored exactly (-before +after):\n%s", cmp.Diff(before, after))
				}
			})
		}
	}
}

func TestFaults(t *testing.T) {
	t.Run("latency delays every RPC", func(t *testing.T) {
		tg := startTarget(t, []served{{"leaf1", newFakeSonic(), &device.Faults{Latency: time.Hour}}})
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		_, err := client(t, tg).Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{sonicPath("PORT")}, Encoding: gpb.Encoding_JSON_IETF})
		wantCode(t, err, codes.DeadlineExceeded)
	})
	t.Run("failed commit changes nothing and is consumed", func(t *testing.T) {
		dev := newFakeSonic()
		faults := &device.Faults{FailCommit: true}
		tg := startTarget(t, []served{{"sonic1", dev, faults}})
		c := client(t, tg)
		before := dev.DB()
		req := &gpb.SetRequest{Update: []*gpb.Update{{Path: sonicPath("PORT_QOS_MAP", "Ethernet4"), Val: ietf(`{"pfc_enable":"3"}`)}}}
		_, err := c.Set(t.Context(), req)
		wantCode(t, err, codes.Aborted)
		if !strings.HasPrefix(status.Convert(err).Message(), "Failed to apply patch due to:") {
			t.Errorf("message %q is not apply-patch's", status.Convert(err).Message())
		}
		if d := cmp.Diff(before, dev.DB()); d != "" {
			t.Errorf("CONFIG_DB changed (-before +after):\n%s", d)
		}
		if _, err := c.Set(t.Context(), req); err != nil {
			t.Errorf("the next Set failed too: %v", err)
		}
	})
}

func TestNewRefusesBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
	}{
		{"no credentials", nil},
		{"empty password", []Option{WithCredentials("admin", "")}},
		{"bad address", []Option{WithCredentials("a", "b"), WithAddress("nowhere")}},
		{"nil clock", []Option{WithCredentials("a", "b"), WithClock(nil)}},
	}
	for _, tt := range tests {
		if _, err := New(tt.opts...); err == nil {
			t.Errorf("%s: New succeeded", tt.name)
		}
	}
	tg, err := New(WithCredentials("a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Add("x", nil, nil); err == nil {
		t.Error("Add accepted a nil device")
	}
	if err := tg.Add("x", newFakeSonic(), nil); err != nil {
		t.Fatal(err)
	}
	if err := tg.Add("x", newFakeSonic(), nil); err == nil {
		t.Error("Add accepted a duplicate name")
	}
}

// jsonEqual compares two JSON documents.
func jsonEqual(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want is not JSON: %v", err)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("JSON (-want +got):\n%s", d)
	}
}
