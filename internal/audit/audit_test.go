package audit_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/audit"
)

func TestMaskCommands(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"username admin password 5 $5$abc role network-admin", "username admin password 5 <masked> role network-admin"},
		{"snmp-server community s3cret group network-operator", "snmp-server community <masked> group network-operator"},
		{"local-user admin password irreversible-cipher Zx9", "local-user admin password irreversible-cipher <masked>"},
		{"priority-flow-control mode on", "priority-flow-control mode on"},
		{"tacacs-server key 7 0832", "tacacs-server key 7 <masked>"},
	} {
		got := audit.MaskCommands([]string{tc.in})[0]
		if got != tc.want {
			t.Errorf("MaskCommands(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMaskPatch(t *testing.T) {
	in := `[{"op":"add","path":"/TACPLUS_SERVER/10.0.0.1/passkey","value":"hunter2"},{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0","value":{"pfc_enable":"3,4","secret":"x"}}]`
	got := string(audit.MaskPatch(json.RawMessage(in)))
	if strings.Contains(got, "hunter2") || strings.Contains(got, `"x"`) {
		t.Errorf("secret left in %s", got)
	}
	if !strings.Contains(got, `"pfc_enable":"3,4"`) {
		t.Errorf("non-secret lost: %s", got)
	}
	if got := string(audit.MaskPatch(json.RawMessage(`not json password`))); strings.Contains(got, "password") {
		t.Errorf("unparsable patch written as is: %s", got)
	}
}

func TestWriteRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	for _, d := range []string{"leaf1", "leaf2", "leaf1"} {
		if err := l.Write(audit.Entry{Time: at, Operator: "ops", Device: d, Step: audit.StepApply, Result: "applied", Commands: []string{"feature tacacs+", "tacacs-server key 7 abc"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// A second run appends.
	l, err = audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Write(audit.Entry{Time: at, Device: "leaf2", Step: audit.StepRollback, Result: "restored"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	es, err := audit.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 4 {
		t.Fatalf("%d entries, want 4", len(es))
	}
	if es[0].Commands[1] != "tacacs-server key 7 <masked>" {
		t.Errorf("secret written: %q", es[0].Commands[1])
	}
	if got := audit.ForDevice(es, "leaf2"); len(got) != 2 || got[1].Step != audit.StepRollback {
		t.Errorf("ForDevice(leaf2) = %+v", got)
	}
	if _, err := audit.Read(strings.NewReader("{}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad line: err = %v", err)
	}
}

// TestInFlight: a device whose last entry is a start is in flight; a later
// result (or a start after a result) decides.
func TestInFlight(t *testing.T) {
	es := []audit.Entry{
		{Device: "a1", Step: audit.StepApply, Result: audit.ResultStarted},
		{Device: "b2", Step: audit.StepApply, Result: audit.ResultStarted},
		{Device: "a1", Step: audit.StepApply, Result: "applied"},
		{Device: "c3", Step: audit.StepApply, Result: audit.ResultStarted},
		{Device: "c3", Step: audit.StepApply, Result: "rolled back"},
		{Device: "c3", Step: audit.StepApply, Result: audit.ResultStarted},
	}
	var got []string
	for _, e := range audit.InFlight(es) {
		got = append(got, e.Device)
	}
	if strings.Join(got, ",") != "b2,c3" {
		t.Errorf("in flight: %v, want b2, c3", got)
	}
}
