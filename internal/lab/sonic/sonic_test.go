package sonic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/openconfig/goyang/pkg/yang"
)

// defaultKind is shared by the tests that need no options, so the YANG is
// parsed once.
var defaultKind, _ = NewKind()

func newTestDevice(t *testing.T, seed []byte, opts ...Option) *Device {
	t.Helper()
	k := defaultKind
	if len(opts) > 0 {
		var err error
		if k, err = NewKind(opts...); err != nil {
			t.Fatal(err)
		}
	}
	d, err := k.newDevice("sonic", seed)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// transcript types each line and returns what a terminal shows.
func transcript(s device.Session, lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(s.Prompt() + l + "\n")
		out, _ := s.Handle(l)
		b.WriteString(out)
	}
	return b.String()
}

// checkTranscript fails t with the difference when the transcript got is
// not want.
func checkTranscript(t *testing.T, want, got string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
}

// upload writes a file on the device the way a driver does over SSH: a
// quoted heredoc typed line by line.
func upload(t *testing.T, s device.Session, path string, content []byte) {
	t.Helper()
	lines := append([]string{"cat > " + path + " <<'EOF'"}, strings.Split(strings.TrimRight(string(content), "\n"), "\n")...)
	if out := transcript(s, append(lines, "EOF")...); strings.Contains(out, "No such") {
		t.Fatalf("upload: %s", out)
	}
}

func readFileF(f *testing.F, path string) []byte {
	f.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

func canonicalJSON(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/config_db.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// canonicalPatch turns reference/sonic.md §5 into the JSON Patch a driver
// would send to a factory device: every owned table, never BUFFER_POOL or
// PORT (§7.5); tables the device has get per-key adds.
func canonicalPatch(t *testing.T, have db, skip ...string) ([]byte, db) {
	t.Helper()
	want, err := parseDB(canonicalJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tn := range append(skip, "BUFFER_POOL", "PORT") {
		delete(want, tn)
	}
	var ops []map[string]any
	for _, tn := range sortedKeys(want) {
		if have[tn] == nil {
			ops = append(ops, map[string]any{"op": "add", "path": "/" + tn, "value": want[tn]})
			continue
		}
		for _, k := range sortedKeys(want[tn]) {
			if _, ok := have[tn][k]; !ok {
				ops = append(ops, map[string]any{"op": "add", "path": "/" + tn + "/" + k, "value": want[tn][k]})
			}
		}
	}
	b, err := json.MarshalIndent(ops, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return b, want
}

// gcuChanges is canonicalPatch for d's running config, the config it
// leads to and GCU's sorted changes from one to the other.
func gcuChanges(t *testing.T, d *Device, skip ...string) ([]byte, db, []change) {
	t.Helper()
	patch, _ := canonicalPatch(t, d.db, skip...)
	ops, err := parsePatch(patch)
	if err != nil {
		t.Fatal(err)
	}
	target, err := applyPatch(d.db, ops)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := d.schema.sortChanges(d.db, target)
	if err != nil {
		t.Fatal(err)
	}
	return patch, target, changes
}

func TestRegistered(t *testing.T) {
	k, ok := device.Lookup("sonic")
	if !ok {
		t.Fatal("kind sonic not registered")
	}
	d, err := k.New("leaf9", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := d.NewSession("admin", nil).Prompt(); p != "admin@leaf9:~$ " {
		t.Errorf("prompt %q", p)
	}
	if _, ok := d.(device.ConfigDB); !ok {
		t.Error("not a device.ConfigDB")
	}
	if _, ok := d.(device.Checkpointer); !ok {
		t.Error("not a device.Checkpointer")
	}
}

// yangDir is where the shared YANG lives (LOSSLESS_YANG_DIR overrides).
func yangDir(t *testing.T) string {
	dir := os.Getenv("LOSSLESS_YANG_DIR")
	if dir == "" {
		dir = "/work/shared/yang"
	}
	dir = filepath.Join(dir, "sonic")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("YANG folder %s missing: %v", dir, err)
		}
		t.Skipf("YANG folder %s missing; set LOSSLESS_YANG_DIR", dir)
	}
	return dir
}

// The embedded modules are a byte-for-byte copy of the shared ones.
func TestEmbeddedYANGMatchesShared(t *testing.T) {
	dir := yangDir(t)
	shared, _ := filepath.Glob(filepath.Join(dir, "*.yang"))
	embedded, _ := filepath.Glob("yang/*.yang")
	if len(shared) != len(embedded) {
		t.Errorf("%d shared modules, %d embedded", len(shared), len(embedded))
	}
	for _, f := range shared {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join("yang", filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("yang/%s differs from %s", filepath.Base(f), f)
		}
	}
}

// Every must expression of the modules the lab validates is one it can
// evaluate, so none is silently skipped.
func TestEveryMustIsKnown(t *testing.T) {
	s, err := loadSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, tn := range []string{"WRED_PROFILE", "SCHEDULER", "PFC_WD", "BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE",
		"QUEUE", "PORT_QOS_MAP", "DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP", "MAP_PFC_PRIORITY_TO_QUEUE", "CABLE_LENGTH"} {
		tb := s.tables[tn]
		if tb == nil {
			t.Errorf("no YANG table %s", tn)
			continue
		}
		for name, e := range tb.list.Dir {
			l, ok := e.Node.(*yang.Leaf)
			if !ok {
				continue
			}
			for _, m := range l.Must {
				if r, _ := findMust(m.Name); r == nil {
					t.Errorf("%s.%s: must %q not evaluated", tn, name, m.Name)
				}
			}
		}
	}
}

// Leaf-lists are comma-separated strings in CONFIG_DB; each item is
// checked (PORT adv_speeds, BUFFER_PORT_INGRESS_PROFILE_LIST profile_list).
func TestLeafLists(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	ok := `[{"op":"add","path":"/BUFFER_PORT_INGRESS_PROFILE_LIST","value":{"Ethernet0":{"profile_list":"ingress_lossy_profile,pg_lossless_100000_5m_profile"}}}]`
	if err := d.Patch([]byte(ok)); err != nil {
		t.Fatalf("valid profile list refused: %v", err)
	}
	bad := `[{"op":"replace","path":"/BUFFER_PORT_INGRESS_PROFILE_LIST/Ethernet0/profile_list","value":"ingress_lossy_profile,nope"}]`
	if err := d.Patch([]byte(bad)); err == nil || !strings.Contains(err.Error(), `Invalid leafref value "nope"`) {
		t.Errorf("unknown profile in a list: %v", err)
	}
}

// TestFactoryConfigIsValid: every SKU's factory config is YANG-valid, and
// a Mellanox SKU has its template's buffer profiles, q_lossy_profile
// among them (mellanoxBuffers).
func TestFactoryConfigIsValid(t *testing.T) {
	d := newTestDevice(t, nil)
	if msg := d.schema.validate(d.db); msg != "" {
		t.Fatal(msg)
	}
	for _, model := range skuNames() {
		sk, _ := skuOf(model)
		f := factory("sonic", sk)
		if msg := d.schema.validate(f); msg != "" {
			t.Errorf("%s: %s", model, msg)
		}
		_, q := f["BUFFER_PROFILE"]["q_lossy_profile"]
		if mellanox := strings.HasPrefix(sk.platform, "x86_64-mlnx") || strings.HasPrefix(sk.platform, "x86_64-nvidia"); q != mellanox {
			t.Errorf("%s: q_lossy_profile present %v, want %v", model, q, mellanox)
		}
	}
}

// The canonical config_db.json of reference/sonic.md §5 seeds a device and
// `show runningconfiguration all` prints it back as the reference shows it,
// plus the bgpraw key the command adds.
func TestShowRunningPrintsCanonical(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	want := strings.TrimSuffix(string(canonicalJSON(t)), "\n}") + ",\n    \"bgpraw\": \"\"\n}\n"
	if diff := cmp.Diff(want, string(d.Running())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if msg := d.schema.validate(d.db); msg != "" {
		t.Errorf("canonical config fails the lab's YANG check: %s", msg)
	}
}

// The canonical config reaches a factory device through a heredoc upload
// and apply-patch, as a driver pushes it (§7.5).
func TestApplyPatchCanonical(t *testing.T) {
	d := newTestDevice(t, nil)
	patch, want := canonicalPatch(t, d.db)
	s := d.NewSession("admin", nil)
	upload(t, s, "/tmp/lossless-1.json", patch)
	before := string(d.Running())
	out := transcript(s, "sudo config apply-patch --dry-run /tmp/lossless-1.json", "echo $?")
	if !strings.HasPrefix(out, "admin@sonic:~$ sudo config apply-patch --dry-run /tmp/lossless-1.json\n"+msgDryRun+"\n") ||
		!strings.HasSuffix(out, msgPatchOK+"\nadmin@sonic:~$ echo $?\n0\n") {
		t.Errorf("dry run:\n%s", out)
	}
	if string(d.Running()) != before {
		t.Fatal("dry run changed the running config")
	}
	out = transcript(s, "sudo config checkpoint lossless-1", "sudo config apply-patch /tmp/lossless-1.json")
	if !strings.HasSuffix(out, msgPatchOK+"\n") || !strings.Contains(out, msgCheckpointOK) {
		t.Fatalf("apply:\n%s", out)
	}
	got := d.DB()
	for tn := range want {
		if diff := cmp.Diff(want[tn], got[tn]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tn, diff)
		}
	}
	// Rolling back to the factory checkpoint would remove PFC_WD|GLOBAL,
	// which GCU always refuses (§7.2, §7.3: "a rollback also goes
	// through the field-operation validators"); nothing changes.
	applied := string(d.Running())
	out = transcript(s, "sudo config rollback lossless-1")
	if !strings.HasPrefix(out, "admin@sonic:~$ sudo config rollback lossless-1\nFailed to rollback config\n") ||
		!strings.HasSuffix(out, "Error: Modification of PFC_WD table is illegal- validating function generic_config_updater.field_operation_validators.rdma_config_update_validator returned False\n") {
		t.Errorf("rollback:\n%s", out)
	}
	if string(d.Running()) != applied {
		t.Error("a refused rollback changed the config")
	}
}

// Rollback to a checkpoint restores the previous running config byte for
// byte when the change it undoes is one GCU lets it undo.
func TestRollbackRestoresBytes(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	before := string(d.Running())
	patch := `[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/green_max_threshold","value":"2048000"},
{"op":"remove","path":"/QUEUE/Ethernet4|6"},
{"op":"add","path":"/SCHEDULER/EXTRA","value":{"type":"DWRR","weight":"20"}},
{"op":"add","path":"/TC_TO_DSCP_MAP","value":{"ROCE":{"3":"24"}}}]`
	upload(t, s, "/tmp/p.json", []byte(patch))
	out := transcript(s, "sudo config checkpoint before", "sudo config apply-patch /tmp/p.json", "sudo config rollback before")
	if !strings.HasSuffix(out, msgPatchOK+"\nadmin@sonic:~$ sudo config rollback before\n"+msgRollbackOK+"\n") {
		t.Fatalf("transcript:\n%s", out)
	}
	if diff := cmp.Diff(before, string(d.Running())); diff != "" {
		t.Errorf("after rollback (-want +got):\n%s", diff)
	}
}

// yangRefusals are patches over the canonical config that SONiC YANG
// refuses (reference/sonic.md §6, shared/yang/sonic/examples/README.md),
// with the lab's message. sameText marks the ones whose wording is
// libyang's own (TestValidatorAgreesWithYanglint compares them).
var yangRefusals = []struct {
	name, patch, want string
	sameText          bool
}{
	{"dscp 64", `[{"op":"add","path":"/DSCP_TO_TC_MAP/ROCE/64","value":"3"}]`,
		`Invalid DSCP (Data location "/sonic-dscp-tc-map:sonic-dscp-tc-map/DSCP_TO_TC_MAP/DSCP_TO_TC_MAP_LIST[name='ROCE']/DSCP_TO_TC_MAP/dscp".)`, true},
	{"tc 16", `[{"op":"replace","path":"/DSCP_TO_TC_MAP/ROCE/24","value":"16"}]`,
		`Invalid Traffic Class (Data location "/sonic-dscp-tc-map:sonic-dscp-tc-map/DSCP_TO_TC_MAP/DSCP_TO_TC_MAP_LIST[name='ROCE']/DSCP_TO_TC_MAP/tc".)`, true},
	{"wred min above max", `[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/green_min_threshold","value":"4000000"}]`,
		`Green max threshold must be greater than or equal to min threshold (Data location "/sonic-wred-profile:sonic-wred-profile/WRED_PROFILE/WRED_PROFILE_LIST[name='ROCE_LOSSLESS']/green_max_threshold".)`, true},
	{"wred max without min", `[{"op":"add","path":"/WRED_PROFILE/ROCE_LOSSLESS/yellow_max_threshold","value":"4000000"}]`,
		`Yellow max threshold must be greater than or equal to min threshold (Data location "/sonic-wred-profile:sonic-wred-profile/WRED_PROFILE/WRED_PROFILE_LIST[name='ROCE_LOSSLESS']/yellow_max_threshold".)`, true},
	{"red max below min", `[{"op":"add","path":"/WRED_PROFILE/ROCE_LOSSLESS/red_min_threshold","value":"2000000"},{"op":"add","path":"/WRED_PROFILE/ROCE_LOSSLESS/red_max_threshold","value":"1000000"}]`,
		`Red max threshold must be greater than or equal to min threshold (Data location "/sonic-wred-profile:sonic-wred-profile/WRED_PROFILE/WRED_PROFILE_LIST[name='ROCE_LOSSLESS']/red_max_threshold".)`, true},
	{"yellow drop probability 101", `[{"op":"add","path":"/WRED_PROFILE/ROCE_LOSSLESS/yellow_drop_probability","value":"101"}]`,
		`Unsatisfied range - value "101" is out of the allowed range. (Data location "/sonic-wred-profile:sonic-wred-profile/WRED_PROFILE/WRED_PROFILE_LIST[name='ROCE_LOSSLESS']/yellow_drop_probability".)`, true},
	{"drop probability 101", `[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/green_drop_probability","value":"101"}]`,
		`Unsatisfied range - value "101" is out of the allowed range. (Data location "/sonic-wred-profile:sonic-wred-profile/WRED_PROFILE/WRED_PROFILE_LIST[name='ROCE_LOSSLESS']/green_drop_probability".)`, true},
	{"ecn mode", `[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/ecn","value":"ecn_blue"}]`,
		`Invalid enumeration value "ecn_blue". (Data location "/sonic-wred-profile:sonic-wred-profile/WRED_PROFILE/WRED_PROFILE_LIST[name='ROCE_LOSSLESS']/ecn".)`, true},
	{"pfc_enable 3,8", `[{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0/pfc_enable","value":"3,8"}]`,
		`Unsatisfied pattern - "3,8" does not conform to "([0-7](,[0-7])*)?". (Data location "/sonic-port-qos-map:sonic-port-qos-map/PORT_QOS_MAP/PORT_QOS_MAP_LIST[ifname='Ethernet0']/pfc_enable".)`, true},
	{"cable length without m", `[{"op":"replace","path":"/CABLE_LENGTH/AZURE/Ethernet0","value":"5"}]`,
		`Invalid cable length. (Data location "/sonic-cable-length:sonic-cable-length/CABLE_LENGTH/CABLE_LENGTH_LIST[name='AZURE']/CABLE_LENGTH/length".)`, true},
	{"comma port list", `[{"op":"add","path":"/PORT_QOS_MAP/Ethernet0,Ethernet4","value":{"pfc_enable":"3"}}]`,
		`Invalid union value "Ethernet0,Ethernet4" - no matching subtype found. (Data location "/sonic-port-qos-map:sonic-port-qos-map/PORT_QOS_MAP/PORT_QOS_MAP_LIST[ifname='Ethernet0,Ethernet4']/ifname".)`, true},
	{"queue on a missing port", `[{"op":"add","path":"/QUEUE/Ethernet8|3","value":{"scheduler":"ROCE_LOSSLESS"}}]`,
		`Invalid union value "Ethernet8" - no matching subtype found. (Data location "/sonic-queue:sonic-queue/QUEUE/QUEUE_LIST[ifname='Ethernet8'][qindex='3']/ifname".)`, true},
	{"missing scheduler", `[{"op":"replace","path":"/QUEUE/Ethernet0|3/scheduler","value":"NOPE"}]`,
		`Invalid leafref value "NOPE" - no target instance "/sch:sonic-scheduler/sch:SCHEDULER/sch:SCHEDULER_LIST/sch:name" with the same value. (Data location "/sonic-queue:sonic-queue/QUEUE/QUEUE_LIST[ifname='Ethernet0'][qindex='3']/scheduler".)`, true},
	{"poll interval above detection", `[{"op":"replace","path":"/PFC_WD/GLOBAL/POLL_INTERVAL","value":"300"}]`,
		`detection_time must be greater than or equal to POLL_INTERVAL (Data location "/sonic-pfcwd:sonic-pfcwd/PFC_WD/PFC_WD_LIST[ifname='Ethernet0']/detection_time".)`, true},
	{"scheduler weight 0", `[{"op":"replace","path":"/SCHEDULER/ROCE_LOSSY/weight","value":"0"}]`,
		`Unsatisfied range - value "0" is out of the allowed range. (Data location "/sonic-scheduler:sonic-scheduler/SCHEDULER/SCHEDULER_LIST[name='ROCE_LOSSY']/weight".)`, true},
	{"pir without cir", `[{"op":"add","path":"/SCHEDULER/ROCE_LOSSY/pir","value":"1000"}]`,
		`pir can't be configured without cir. (Data location "/sonic-scheduler:sonic-scheduler/SCHEDULER/SCHEDULER_LIST[name='ROCE_LOSSY']/pir".)`, true},
	{"pir below cir", `[{"op":"add","path":"/SCHEDULER/ROCE_LOSSY/cir","value":"2000"},{"op":"add","path":"/SCHEDULER/ROCE_LOSSY/pir","value":"1000"}]`,
		`pir must be greater than or equal to cir (Data location "/sonic-scheduler:sonic-scheduler/SCHEDULER/SCHEDULER_LIST[name='ROCE_LOSSY']/pir".)`, true},
	{"dot1p 8", `[{"op":"add","path":"/DOT1P_TO_TC_MAP","value":{"ROCE":{"8":"3"}}}]`,
		`Invalid DOT1P (Data location "/sonic-dot1p-tc-map:sonic-dot1p-tc-map/DOT1P_TO_TC_MAP/DOT1P_TO_TC_MAP_LIST[name='ROCE']/DOT1P_TO_TC_MAP/dot1p".)`, true},
	{"profile without pool", `[{"op":"add","path":"/BUFFER_PROFILE/extra","value":{"size":"0"}}]`,
		`Mandatory node "pool" instance does not exist. (Schema location "/sonic-buffer-profile:sonic-buffer-profile/BUFFER_PROFILE/BUFFER_PROFILE_LIST/pool".)`, true},
	{"unknown field", `[{"op":"add","path":"/WRED_PROFILE/ROCE_LOSSLESS/ecn_green_mark_probability","value":"5"}]`,
		// sonic_yang refuses a field without YANG before libyang sees it.
		"All Keys are not parsed in WRED_PROFILE\ndict_keys(['ecn_green_mark_probability'])", false},
	// Stock yanglint wants JSON-typed values, so for these two it
	// complains about the encoding ("non-boolean-encoded"); SONiC parses
	// CONFIG_DB strings (json_string_datatypes) and gets to the value.
	{"boolean", `[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/wred_green_enable","value":"yes"}]`,
		`Invalid boolean value "yes". (Data location "/sonic-wred-profile:sonic-wred-profile/WRED_PROFILE/WRED_PROFILE_LIST[name='ROCE_LOSSLESS']/wred_green_enable".)`, false},
	{"uint8 not a number", `[{"op":"replace","path":"/SCHEDULER/ROCE_LOSSY/weight","value":"abc"}]`,
		`Invalid uint8 value "abc". (Data location "/sonic-scheduler:sonic-scheduler/SCHEDULER/SCHEDULER_LIST[name='ROCE_LOSSY']/weight".)`, false},
	{"profile name too long", `[{"op":"add","path":"/WRED_PROFILE/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","value":{"ecn":"ecn_all"}}]`,
		`Invalid length for wred profile name. (Data location "/sonic-wred-profile:sonic-wred-profile/WRED_PROFILE/WRED_PROFILE_LIST[name='AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']/name".)`, true},
	{"detection time range", `[{"op":"replace","path":"/PFC_WD/Ethernet0/detection_time","value":"50"}]`,
		`Unsatisfied range - value "50" is out of the allowed range. (Data location "/sonic-pfcwd:sonic-pfcwd/PFC_WD/PFC_WD_LIST[ifname='Ethernet0']/detection_time".)`, true},
	{"pfc_stat_history", `[{"op":"replace","path":"/PFC_WD/Ethernet0/pfc_stat_history","value":"on"}]`,
		`pfc_stat_history must be either enable or disable (Data location "/sonic-pfcwd:sonic-pfcwd/PFC_WD/PFC_WD_LIST[ifname='Ethernet0']/pfc_stat_history".)`, true},
	{"buffer pg number", `[{"op":"add","path":"/BUFFER_PG/Ethernet0|8","value":{"profile":"ingress_lossy_profile"}}]`,
		`Invalid Buffer PG number (Data location "/sonic-buffer-pg:sonic-buffer-pg/BUFFER_PG/BUFFER_PG_LIST[port='Ethernet0'][pg_num='8']/pg_num".)`, true},
}

// TestWREDColoursAccepted: WRED of yellow and red packets as the
// sonic-wred-profile YANG has it (wred_<colour>_enable, the colour's
// thresholds and drop probability, an ecn mode naming the colours that
// mark) is applied and shown as written.
func TestWREDColoursAccepted(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	want := map[string]string{
		"ecn": "ecn_green_yellow", "wred_yellow_enable": "true", "yellow_min_threshold": "1048576", "yellow_max_threshold": "2097152",
		"yellow_drop_probability": "5", "wred_red_enable": "true", "red_min_threshold": "102400", "red_max_threshold": "1048576", "red_drop_probability": "100",
	}
	var ops []string
	for _, f := range sortedKeys(want) {
		op := "add"
		if f == "ecn" {
			op = "replace"
		}
		ops = append(ops, fmt.Sprintf(`{"op":%q,"path":"/WRED_PROFILE/ROCE_LOSSLESS/%s","value":%q}`, op, f, want[f]))
	}
	upload(t, s, "/tmp/p.json", []byte("["+strings.Join(ops, ",\n")+"]"))
	if out := transcript(s, "sudo config apply-patch /tmp/p.json"); !strings.Contains(out, msgPatchOK) {
		t.Fatalf("transcript:\n%s", out)
	}
	got := d.DB()["WRED_PROFILE"]["ROCE_LOSSLESS"]
	for f, v := range want {
		if got[f] != v {
			t.Errorf("%s = %q, want %q", f, got[f], v)
		}
	}
	if !strings.Contains(string(d.Running()), `"yellow_min_threshold": "1048576"`) {
		t.Errorf("running config does not show the yellow threshold:\n%s", d.Running())
	}
}

// Each YANG rule reference/sonic.md §6 and shared/yang/sonic/examples
// check, refused with libyang's text; the config stays as it was.
func TestYANGRefusals(t *testing.T) {
	prefix := "Failed to apply patch due to: Failed to apply patch on the following scopes:\n- localhost: Given patch will produce invalid config. Error: "
	for _, tt := range yangRefusals {
		t.Run(tt.name, func(t *testing.T) {
			d := newTestDevice(t, canonicalJSON(t))
			before := string(d.Running())
			s := d.NewSession("admin", nil)
			upload(t, s, "p.json", []byte(tt.patch))
			out, _ := s.Handle("sudo config apply-patch p.json")
			reason := "Failed to apply patch on the following scopes:\n- localhost: Given patch will produce invalid config. Error: " + tt.want
			want := prefix + tt.want + "\nUsage: config apply-patch [OPTIONS] PATCH_FILE_PATH\nTry 'config apply-patch -h' for help.\n\nError: " + reason + "\n"
			i := strings.Index(out, "Failed to apply patch due to")
			if i < 0 {
				t.Fatalf("not refused:\n%s", out)
			}
			if diff := cmp.Diff(want, out[i:]); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if string(d.Running()) != before {
				t.Error("a refused patch changed the running config")
			}
			if out, _ := s.Handle("echo $?"); out != "2\n" {
				t.Errorf("exit status %q, want 2", out)
			}
			// The gNMI path refuses with the same reason, all or nothing.
			if err := d.Patch([]byte(tt.patch)); err == nil || err.Error() != "Given patch will produce invalid config. Error: "+tt.want {
				t.Errorf("Patch: %v", err)
			}
		})
	}
}

// The field-operation validators of §7.2.
func TestFieldOperationValidators(t *testing.T) {
	tests := []struct {
		name  string
		opts  []Option
		patch string
		table string // refused table, "" = accepted
	}{
		{"buffer pool is never changed", nil, `[{"op":"replace","path":"/BUFFER_POOL/ingress_lossless_pool/size","value":"10000000"}]`, "BUFFER_POOL"},
		{"whole buffer profile may be added", nil, `[{"op":"add","path":"/BUFFER_PROFILE/extra","value":{"pool":"ingress_lossless_pool","size":"0","dynamic_th":"1"}}]`, ""},
		{"buffer profile xoff on th", nil, `[{"op":"replace","path":"/BUFFER_PROFILE/pg_lossless_100000_5m_profile/xoff","value":"170000"}]`, ""},
		{"buffer profile size field", nil, `[{"op":"replace","path":"/BUFFER_PROFILE/pg_lossless_100000_5m_profile/size","value":"2000"}]`, "BUFFER_PROFILE"},
		{"buffer profile xoff on vs", []Option{WithASIC("vs")}, `[{"op":"replace","path":"/BUFFER_PROFILE/pg_lossless_100000_5m_profile/xoff","value":"170000"}]`, "BUFFER_PROFILE"},
		{"pfcwd on th", nil, `[{"op":"replace","path":"/PFC_WD/Ethernet0/detection_time","value":"400"}]`, ""},
		{"pfcwd on vs", []Option{WithASIC("vs")}, `[{"op":"replace","path":"/PFC_WD/Ethernet0/detection_time","value":"400"}]`, "PFC_WD"},
		{"pfcwd global removal", nil, `[{"op":"remove","path":"/PFC_WD/GLOBAL"}]`, "PFC_WD"},
		{"wred is unrestricted", []Option{WithASIC("vs")}, `[{"op":"replace","path":"/WRED_PROFILE/ROCE_LOSSLESS/green_drop_probability","value":"7"}]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newTestDevice(t, canonicalJSON(t), tt.opts...)
			err := d.Patch([]byte(tt.patch))
			if tt.table == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			want := "Modification of " + tt.table + " table is illegal- validating function generic_config_updater.field_operation_validators.rdma_config_update_validator returned False"
			if err == nil || err.Error() != want {
				t.Errorf("got %v, want %q", err, want)
			}
		})
	}
}

func TestRootAndShellErrors(t *testing.T) {
	d := newTestDevice(t, nil)
	s := d.NewSession("admin", nil)
	out := transcript(s, "config save -y", "echo $?", "frobnicate", "sudo config apply-patch", "sudo config apply-patch missing.json", "show runningconfiguration bgp", "cat nothing")
	want := `admin@sonic:~$ config save -y
Root privileges are required for this operation
admin@sonic:~$ echo $?
1
admin@sonic:~$ frobnicate
-bash: frobnicate: command not found
admin@sonic:~$ sudo config apply-patch
Usage: config apply-patch [OPTIONS] PATCH_FILE_PATH
Try 'config apply-patch -h' for help.

Error: Missing argument 'PATCH_FILE_PATH'.
admin@sonic:~$ sudo config apply-patch missing.json
Failed to apply patch due to: [Errno 2] No such file or directory: 'missing.json'
Usage: config apply-patch [OPTIONS] PATCH_FILE_PATH
Try 'config apply-patch -h' for help.

Error: [Errno 2] No such file or directory: 'missing.json'
admin@sonic:~$ show runningconfiguration bgp
Usage: show runningconfiguration [OPTIONS] COMMAND [ARGS]...
Try 'show runningconfiguration -h' for help.

Error: No such command 'bgp'.
admin@sonic:~$ cat nothing
cat: nothing: No such file or directory
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, done := s.Handle("exit"); !done {
		t.Error("exit did not end the session")
	}
}

func TestCheckpointsAndReplace(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	before := string(d.Running())
	out := transcript(s, "sudo config checkpoint base", "sudo config list-checkpoints", "sudo config rollback nope")
	want := `admin@sonic:~$ sudo config checkpoint base
Checkpoint created successfully.
admin@sonic:~$ sudo config list-checkpoints
[
    "base"
]
admin@sonic:~$ sudo config rollback nope
Failed to rollback config
Usage: config rollback [OPTIONS] CHECKPOINT_NAME
Try 'config rollback -h' for help.

Error: Checkpoint 'nope' does not exist
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// config replace with a whole config: the WRED probability changes.
	target := strings.Replace(string(canonicalJSON(t)), `"green_drop_probability": "5"`, `"green_drop_probability": "7"`, 1)
	upload(t, s, "/tmp/full.json", []byte(target))
	if out := transcript(s, "sudo config replace /tmp/full.json"); !strings.HasSuffix(out, msgReplaceOK+"\n") {
		t.Fatalf("replace:\n%s", out)
	}
	if got := d.DB()["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_drop_probability"]; got != "7" {
		t.Fatalf("replace did not land: %s", got)
	}
	// A replace that would change BUFFER_POOL is refused as a whole.
	bad := strings.Replace(target, `"size": "15982720"`, `"size": "1"`, 1)
	upload(t, s, "/tmp/bad.json", []byte(bad))
	if out := transcript(s, "sudo config replace /tmp/bad.json"); !strings.Contains(out, "Failed to replace config\n") {
		t.Errorf("bad replace:\n%s", out)
	}
	transcript(s, "sudo config rollback base")
	if diff := cmp.Diff(before, string(d.Running())); diff != "" {
		t.Errorf("rollback (-want +got):\n%s", diff)
	}
	if out := transcript(s, "sudo config delete-checkpoint base", "sudo config list-checkpoints"); !strings.HasSuffix(out, msgDeleteCPOK+"\nadmin@sonic:~$ sudo config list-checkpoints\n[]\n") {
		t.Errorf("delete:\n%s", out)
	}
}

func TestSave(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	out := transcript(s, "sudo config save", "n", "sudo config save", "y", "sudo config save -y")
	want := "admin@sonic:~$ sudo config save\n" + msgSaveQuestion + "n\n" + msgAborted + "\n" +
		"admin@sonic:~$ sudo config save\n" + msgSaveQuestion + "y\n" + cfggenSave + "\n" +
		"admin@sonic:~$ sudo config save -y\n" + cfggenSave + "\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got, _ := s.Handle("cat /etc/sonic/config_db.json"); got != string(canonicalJSON(t))+"\n" {
		t.Errorf("saved file differs from the running config:\n%s", got)
	}
}

// With the FailCommit fault the applier stops part-way: the first half of
// GCU's sorted changes stays applied, the rest is not, as
// reference/sonic.md §7.2 says of a failure during apply-patch; a
// checkpoint rollback restores the config.
func TestFailCommitLeavesPartialPatch(t *testing.T) {
	d := newTestDevice(t, nil)
	// Without PFC_WD: removing PFC_WD|GLOBAL would make the rollback
	// below refused (see TestApplyPatchCanonical).
	patch, target, changes := gcuChanges(t, d, "PFC_WD")
	half := copyDB(d.db)
	for _, c := range changes[:(len(changes)+1)/2] {
		half = c.apply(half)
	}
	faults := &device.Faults{}
	s := d.NewSession("admin", faults)
	upload(t, s, "/tmp/p.json", patch)
	before := string(d.Running())
	transcript(s, "sudo config checkpoint pre")
	faults.Update(func(f *device.Faults) { f.FailCommit = true })
	out := transcript(s, "sudo config apply-patch /tmp/p.json")
	if !strings.Contains(out, "Failed to apply patch due to: Failed to apply patch on the following scopes:\n- localhost: "+msgNotUpdated+"\n") {
		t.Fatalf("transcript:\n%s", out)
	}
	if got := d.DB(); !equalDB(got, half) || equalDB(got, target) || string(d.Running()) == before {
		t.Errorf("want the first %d of %d changes applied; tables now: %v", (len(changes)+1)/2, len(changes), sortedKeys(got))
	}
	faults.Update(func(f *device.Faults) { f.FailCommit = false })
	out = transcript(s, "sudo config rollback pre")
	if string(d.Running()) != before {
		t.Errorf("rollback after a partial patch did not restore the config:\n%s", out)
	}
}

func TestCheckpointRestore(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	cp := d.Checkpoint()
	want := string(d.Running())
	if err := d.Patch([]byte(`[{"op":"remove","path":"/QUEUE/Ethernet0|6"}]`)); err != nil {
		t.Fatal(err)
	}
	if string(d.Running()) == want {
		t.Fatal("patch did not land")
	}
	if err := d.Restore(cp); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(d.Running())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// DB is a deep copy.
	c := d.DB()
	c["QUEUE"]["Ethernet0|3"]["scheduler"] = "X"
	if d.DB()["QUEUE"]["Ethernet0|3"]["scheduler"] != "ROCE_LOSSLESS" {
		t.Error("DB shares memory with the device")
	}
}

func TestPatchErrors(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	for _, p := range []string{
		`not json`,
		`[{"op":"remove","path":"/QUEUE/Ethernet9|9"}]`,
		`[{"op":"replace","path":"/QUEUE/Ethernet0|3/nope","value":"1"}]`,
		`[{"op":"add","path":"/QUEUE/Ethernet0|3/scheduler","value":3}]`,
		`[{"op":"test","path":"/QUEUE/Ethernet0|3/scheduler","value":"OTHER"}]`,
		`[{"op":"remove","path":"/SCHEDULER"}]`,
		`[{"op":"add","path":"/VLAN/Vlan10","value":{"vlanid":"10"}}]`,
	} {
		before := string(d.Running())
		if err := d.Patch([]byte(p)); err == nil {
			t.Errorf("patch %s accepted", p)
		}
		if string(d.Running()) != before {
			t.Errorf("refused patch %s changed the config", p)
		}
	}
}

// config load merges without validation (reference/sonic.md §7.1): an
// invalid value lands, and the next validated change is refused because of
// it.
func TestConfigLoadMergesWithoutValidation(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", nil)
	upload(t, s, "/tmp/l.json", []byte(`{"WRED_PROFILE": {"ROCE_LOSSLESS": {"green_drop_probability": "101"}}, "VLAN": {}, "FOO": {"x": {}}}`))
	out := transcript(s, "sudo config load /tmp/l.json", "n", "sudo config load /tmp/l.json -y")
	want := "admin@sonic:~$ sudo config load /tmp/l.json\nLoad config from the file(s) /tmp/l.json ? [y/N]: n\nAborted!\n" +
		"admin@sonic:~$ sudo config load /tmp/l.json -y\nRunning command: /usr/local/bin/sonic-cfggen -j /tmp/l.json --write-to-db\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	db := d.DB()
	if db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_drop_probability"] != "101" || db["WRED_PROFILE"]["ROCE_LOSSLESS"]["ecn"] != "ecn_green" {
		t.Errorf("not merged: %v", db["WRED_PROFILE"])
	}
	if _, ok := db["VLAN"]; ok {
		t.Error("an empty table was written")
	}
	if db["FOO"]["x"]["NULL"] != "NULL" {
		t.Error("an empty key was not written as NULL")
	}
	// sonic-cfggen reads the hash through raw_to_typed, which skips the
	// placeholder: the key prints as {}.
	if out, _ := s.Handle("show runningconfiguration all"); !strings.Contains(out, "\"FOO\": {\n        \"x\": {}\n    },") {
		t.Errorf("the empty key does not print as {}:\n%s", out)
	}
	if err := d.Patch([]byte(`[{"op":"replace","path":"/SCHEDULER/ROCE_LOSSY/weight","value":"20"}]`)); err == nil {
		t.Error("a patch over an invalid config was accepted")
	}
}

// A session that drops inside a heredoc leaves no file behind.
func TestDroppedHeredocWritesNothing(t *testing.T) {
	d := newTestDevice(t, nil)
	s := d.NewSession("admin", nil)
	transcript(s, "cat > /tmp/half.json <<'EOF'", "[")
	s.Close()
	s2 := d.NewSession("admin", nil)
	if out := transcript(s2, "cat /tmp/half.json"); !strings.HasSuffix(out, "No such file or directory\n") {
		t.Errorf("half-written file exists:\n%s", out)
	}
}

// The RejectPattern fault refuses a matching command line as the shell
// refuses an unknown command; nothing changes.
func TestRejectPattern(t *testing.T) {
	d := newTestDevice(t, canonicalJSON(t))
	s := d.NewSession("admin", &device.Faults{RejectPattern: `apply-patch`})
	upload(t, s, "p.json", []byte(`[{"op":"remove","path":"/QUEUE/Ethernet0|6"}]`))
	before := string(d.Running())
	out := transcript(s, "sudo config apply-patch p.json", "echo $?")
	if out != "admin@sonic:~$ sudo config apply-patch p.json\n-bash: sudo: command not found\nadmin@sonic:~$ echo $?\n127\n" {
		t.Errorf("transcript:\n%s", out)
	}
	if string(d.Running()) != before {
		t.Error("a rejected command changed the config")
	}
}

// A leaf-list in config_db.json (a JSON list, as deployed switches have
// in ACL_TABLE ports and VLAN dhcp_servers) is stored as sonic-cfggen -j
// writes it, the field "ports@" with the items joined by ",", and prints
// back as the list (swss-common configdb.h typed_to_raw, raw_to_typed). A
// value that is neither a string nor a list of strings is refused.
func TestLeafListsInConfigDBJSON(t *testing.T) {
	seed := `{"ACL_TABLE": {"DATAACL": {"policy_desc": "DATAACL", "ports": ["Ethernet0", "Ethernet4"], "stage": "ingress", "type": "L3"}}}`
	d := newTestDevice(t, []byte(seed))
	if got := d.DB()["ACL_TABLE"]["DATAACL"]["ports@"]; got != "Ethernet0,Ethernet4" {
		t.Errorf("ACL_TABLE|DATAACL ports@ = %q", got)
	}
	want := `{
    "ACL_TABLE": {
        "DATAACL": {
            "policy_desc": "DATAACL",
            "ports": [
                "Ethernet0",
                "Ethernet4"
            ],
            "stage": "ingress",
            "type": "L3"
        }
    },
    "bgpraw": ""
}
`
	if diff := cmp.Diff(want, string(d.Running())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := defaultKind.New("sonic", []byte(`{"PORT": {"Ethernet0": {"mtu": 9100}}}`)); err == nil || !strings.Contains(err.Error(), "field mtu: not a string or a list of strings") {
		t.Errorf("a number value: %v", err)
	}
}
