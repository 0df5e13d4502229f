package huaweice

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lossless-net/lossless/internal/lab/device"
)

// canonical is reference/huawei-ce.md §1.1 as display current-configuration
// include-default prints it, after the header and the sysname: the lines
// equal to a default the reference's tables give are marked "~"
// (V300R023 include-default example); testdata/display-family-b.txt is
// the same without them, as plain display current-configuration prints
// it. TestExpectedFilesFollowTheReference ties both to §1.1.
func canonical(t *testing.T) string {
	return header + "#\nsysname HUAWEI\n" + readFile(t, "testdata/display-family-b-include-default.txt")
}

// The expected displays are §1.1 (and §1.1 with the §1.3 deltas) with
// default-equal lines marked or left out, nothing else.
func TestExpectedFilesFollowTheReference(t *testing.T) {
	for _, fam := range []string{"a", "b"} {
		ref := readFile(t, "testdata/canonical-family-"+fam+".txt")
		inc := readFile(t, "testdata/display-family-"+fam+"-include-default.txt")
		if got := strings.ReplaceAll(inc, "~", ""); got != ref {
			t.Errorf("family %s: include-default without ~ is not the reference:\n%s", fam, cmp.Diff(ref, got))
		}
		var kept []string
		for _, l := range strings.Split(inc, "\n") {
			if !strings.HasPrefix(strings.TrimLeft(l, " "), "~") {
				kept = append(kept, l)
			}
		}
		user := strings.Join(kept, "\n")
		for strings.Contains(user, "#\n#\n") {
			user = strings.ReplaceAll(user, "#\n#\n", "#\n")
		}
		if want := readFile(t, "testdata/display-family-"+fam+".txt"); user != want {
			t.Errorf("family %s: display is not include-default without the ~ lines:\n%s", fam, cmp.Diff(want, user))
		}
	}
}

// pushCanonical types the §1.2 push sequence and commits it.
func pushCanonical(t *testing.T, d *Device) device.Session {
	t.Helper()
	s := d.NewSession("admin", nil)
	out := transcript(s, readLines(t, "testdata/push-family-b.txt")...)
	if strings.Contains(out, "Error") {
		t.Fatalf("push sequence refused:\n%s", out)
	}
	if got := transcript(s, "commit"); got != "[*HUAWEI]commit\n" {
		t.Fatalf("commit printed %q", got)
	}
	return s
}

func TestRegistered(t *testing.T) {
	k, ok := device.Lookup("huawei-ce")
	if !ok {
		t.Fatal("kind huawei-ce not registered")
	}
	d, err := k.New("leaf1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := d.NewSession("admin", nil).Prompt(); p != "<leaf1>" {
		t.Errorf("prompt = %q, want <leaf1>", p)
	}
}

// The §1.2 push sequence is accepted line by line and display
// current-configuration prints §1.1 back without the default-equal lines
// (reference §1.1: "expect priority 3 and other default-equal lines to be
// absent"; V300R023: the command "does not display parameters that use
// default settings"); include-default shows them, marked "~".
func TestCanonicalConfigFamilyB(t *testing.T) {
	d := newTestDevice(t, "")
	s := pushCanonical(t, d)
	want := canonical(t)
	if diff := cmp.Diff(header+"#\nsysname HUAWEI\n"+readFile(t, "testdata/display-family-b.txt"), string(d.Running())); diff != "" {
		t.Errorf("display current-configuration (-want +got):\n%s", diff)
	}
	out := transcript(s, "display current-configuration include-default")
	if diff := cmp.Diff("[~HUAWEI]display current-configuration include-default\n"+want, out); diff != "" {
		t.Errorf("include-default (-want +got):\n%s", diff)
	}
	// The printed config seeds an identical device.
	d2 := newTestDevice(t, want)
	if diff := cmp.Diff(string(d.Running()), string(d2.Running())); diff != "" {
		t.Errorf("seeded from its own output (-want +got):\n%s", diff)
	}
}

// The §1.3 family A deltas: the system-view deadlock timers, the recovery
// behaviour and qos ecn enable replace the family B lines; a CE8850-HAM
// accepts them and prints them back.
func TestCanonicalConfigFamilyA(t *testing.T) {
	d := newTestDevice(t, "", WithModel("CE8850-HAM"))
	s := d.NewSession("admin", nil)
	if out := transcript(s, append(readLines(t, "testdata/push-family-a.txt"), "commit")...); strings.Contains(out, "Error") {
		t.Fatalf("push refused:\n%s", out)
	}
	want := header + "#\nsysname HUAWEI\n" + readFile(t, "testdata/display-family-a-include-default.txt")
	out, _ := s.Handle("display current-configuration include-default")
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Family B refuses the family A system lines.
	b := newTestDevice(t, "")
	if out := transcript(b.NewSession("admin", nil), "system-view", "dcb pfc deadlock-detect timer 100", "qos ecn enable"); strings.Count(out, "Error: Unrecognized command") != 2 {
		t.Errorf("family B accepted family A lines:\n%s", out)
	}
}

// §1.2 bulk form: the interface lines typed once in a port-group land
// under each member, and the port-group section keeps its members.
func TestPortGroupBulkForm(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	push := readLines(t, "testdata/push-family-b.txt")
	var bulk []string
	for _, l := range push {
		if l == "interface 100GE1/0/2" {
			break
		}
		if l == "interface 100GE1/0/1" {
			l = "port-group all_using"
			bulk = append(bulk, l, "group-member 100ge 1/0/1 to 100ge 1/0/2")
			continue
		}
		bulk = append(bulk, l)
	}
	bulk = append(bulk, push[len(push)-4:]...) // the deadlock lines
	out := transcript(s, append(bulk, "commit")...)
	if strings.Contains(out, "Error") || !strings.Contains(out, "[*HUAWEI-port-group-all_using]trust dscp\n") {
		t.Fatalf("bulk push:\n%s", out)
	}
	want := strings.Replace(canonical(t), "#\nreturn\n", "#\nport-group all_using\n group-member 100GE1/0/1\n group-member 100GE1/0/2\n#\nreturn\n", 1)
	got, _ := s.Handle("display current-configuration include-default")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// §1.5: AI ECN typed as the reference shows it, nested two views deep,
// displayed with ai-ecn enable before assign queue.
func TestAIECN(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	out := transcript(s, "system-view", "ai-service", "ai-ecn", "assign queue 3", "ai-ecn enable", "quit", "quit", "commit",
		"display current-configuration | begin ai-service")
	want := `<HUAWEI>system-view
Enter system view, return user view with return command.
[~HUAWEI]ai-service
[*HUAWEI-ai-service]ai-ecn
[*HUAWEI-ai-service-ai-ecn]assign queue 3
[*HUAWEI-ai-service-ai-ecn]ai-ecn enable
[*HUAWEI-ai-service-ai-ecn]quit
[*HUAWEI-ai-service]quit
[*HUAWEI]commit
[~HUAWEI]display current-configuration | begin ai-service
ai-service
 #
 ai-ecn
  ai-ecn enable
  assign queue 3
#
return
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The printed config seeds an identical device (nested indentation).
	d2 := newTestDevice(t, string(d.Running()))
	if diff := cmp.Diff(string(d.Running()), string(d2.Running())); diff != "" {
		t.Errorf("reseeded (-want +got):\n%s", diff)
	}
	// Changes inside the nested view show with their context.
	out = transcript(s, "ai-service", "ai-ecn", "undo ai-ecn enable", "assign queue 4 model ai_ecn_hpc", "display configuration candidate changes")
	wantChanges := `Building configuration
  #
  ai-service
   ai-ecn
-   ai-ecn enable
+   assign queue 4 model ai_ecn_hpc
  #
`
	if !strings.HasSuffix(out, wantChanges) {
		t.Errorf("changes:\n%s", out)
	}
}

// A line equal to its default: a change in the candidate, absent from
// display current-configuration, marked "~" with include-default.
func TestDefaultEqualLines(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	out := transcript(s, "system-view", "interface 100GE1/0/1", "qos queue 0 drr weight 1", "qos queue 3 drr weight 60", "display configuration candidate changes", "commit")
	if !strings.Contains(out, "  interface 100GE1/0/1\n+  qos queue 0 drr weight 1\n+  qos queue 3 drr weight 60\n") &&
		!strings.Contains(out, "+ interface 100GE1/0/1\n+  qos queue 0 drr weight 1\n+  qos queue 3 drr weight 60\n") {
		t.Errorf("candidate changes:\n%s", out)
	}
	if run := string(d.Running()); strings.Contains(run, "weight 1\n") || !strings.Contains(run, " qos queue 3 drr weight 60\n") {
		t.Errorf("display current-configuration:\n%s", run)
	}
	got, _ := s.Handle("display current-configuration include-default | include weight")
	if got != " ~qos queue 0 drr weight 1\n qos queue 3 drr weight 60\n" {
		t.Errorf("include-default: %q", got)
	}
}

func TestPromptsAndViews(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	got := transcript(s, "system-view", "interface 100ge 1/0/3", "quit", "drop-profile p1", "quit",
		"diffserv domain d1", "return", "n", "system-view", "dcb pfc", "display this", "quit", "quit", "quit")
	want := `<HUAWEI>system-view
Enter system view, return user view with return command.
[~HUAWEI]interface 100ge 1/0/3
[~HUAWEI-100GE1/0/3]quit
[~HUAWEI]drop-profile p1
[*HUAWEI-drop-p1]quit
[*HUAWEI]diffserv domain d1
[*HUAWEI-dsdomain-d1]return
Warning: Uncommitted configurations found, commit them before exiting? [Y(yes)/N(no)/C(cancel)]:n
<HUAWEI>system-view
Enter system view, return user view with return command.
[~HUAWEI]dcb pfc
[*HUAWEI-dcb-pfc-default]display this
#
#
return
[*HUAWEI-dcb-pfc-default]quit
[*HUAWEI]quit
Warning: Uncommitted configurations found, commit them before exiting? [Y(yes)/N(no)/C(cancel)]:quit
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// An answer that is not Y/N/C asks again; C stays in the view.
	if got := transcript(s, "c"); got != qUncommitted+"c\n" || s.Prompt() != "[*HUAWEI]" {
		t.Errorf("cancel: %q, prompt %q", got, s.Prompt())
	}
	// Y commits and leaves.
	transcript(s, "quit", "y")
	if s.Prompt() != "<HUAWEI>" || !strings.Contains(string(d.Running()), "\ndcb pfc\n") {
		t.Errorf("yes did not commit and leave: prompt %q\n%s", s.Prompt(), d.Running())
	}
	if _, done := s.Handle("quit"); !done {
		t.Error("quit in user view did not end the session")
	}
}

// Every error form of reference/huawei-ce.md §3.3 the grammar can reach,
// with its caret under the echoed input.
func TestErrorStrings(t *testing.T) {
	tests := []struct {
		name   string
		model  string
		setup  []string
		line   string
		prompt string
		col    int
		want   string
	}{
		{"unknown command", "", nil, "foo bar", "[~HUAWEI]", 0, "Error: Unrecognized command found at '^' position."},
		{"unknown keyword", "", nil, "dcb pfc nonsense-word extra", "[~HUAWEI]", 22, "Error:Too many parameters found at '^' position."},
		{"queue out of range", "", []string{"interface 100GE1/0/1"}, "qos queue 8 ecn", "[~HUAWEI-100GE1/0/1]", 10, "Error: Wrong parameter found at '^' position."},
		{"not a number", "", []string{"interface 100GE1/0/1"}, "qos queue x ecn", "[~HUAWEI-100GE1/0/1]", 10, "Error: Wrong parameter found at '^' position."},
		{"incomplete", "", nil, "dcb pfc deadlock-detect interval", "[~HUAWEI]", 33, "Error: Incomplete command found at '^' position."},
		{"ambiguous", "", nil, "qos b", "[~HUAWEI]", 4, "Error: Ambiguous command found at '^' position."},
		{"too many", "", []string{"interface 100GE1/0/1"}, "trust dscp now", "[~HUAWEI-100GE1/0/1]", 11, "Error:Too many parameters found at '^' position."},
		{"unknown port", "", nil, "interface 100GE1/0/99", "[~HUAWEI]", 10, "Error: Wrong parameter found at '^' position."},
		{"deadlock interval not a tick", "", nil, "dcb pfc deadlock-detect interval 20", "[~HUAWEI]", 33, "Error: Wrong parameter found at '^' position."},
		{"detect time range", "", []string{"dcb pfc"}, "priority 3 deadlock-detect time 16", "[*HUAWEI-dcb-pfc-default]", 32, "Error: Wrong parameter found at '^' position."},
		{"deadlock before priority", "", []string{"dcb pfc"}, "priority 4 deadlock-detect time 10", "[*HUAWEI-dcb-pfc-default]", 9, "Error: Wrong parameter found at '^' position."},
		{"ecn high below low", "", []string{"drop-profile p"}, "ecn buffer-size low-limit 3072000 high-limit 153600 discard-percentage 10", "[*HUAWEI-drop-p]", 45, "Error: Wrong parameter found at '^' position."},
		{"ecn family B floor", "", []string{"drop-profile p"}, "ecn buffer-size low-limit 128 high-limit 153600 discard-percentage 10", "[*HUAWEI-drop-p]", 26, "Error: Wrong parameter found at '^' position."},
		{"discard percentage", "", []string{"drop-profile p"}, "ecn low-limit 10 high-limit 20 discard-percentage 0", "[*HUAWEI-drop-p]", 50, "Error: Wrong parameter found at '^' position."},
		{"wred before profile", "", []string{"interface 100GE1/0/1"}, "qos queue 3 wred nope", "[~HUAWEI-100GE1/0/1]", 17, "Error: Wrong parameter found at '^' position."},
		{"ecn before wred", "", []string{"interface 100GE1/0/1"}, "qos queue 3 ecn", "[~HUAWEI-100GE1/0/1]", 10, "Error: Wrong parameter found at '^' position."},
		{"trust unknown domain", "", []string{"interface 100GE1/0/1"}, "trust upstream roce", "[~HUAWEI-100GE1/0/1]", 15, "Error: Wrong parameter found at '^' position."},
		{"pfc before headroom pool (B)", "", []string{"interface 100GE1/0/1"}, "dcb pfc enable mode manual", "[~HUAWEI-100GE1/0/1]", 8, "Error: Wrong parameter found at '^' position."},
		{"drr weight range", "", []string{"interface 100GE1/0/1"}, "qos queue 0 drr weight 101", "[~HUAWEI-100GE1/0/1]", 23, "Error: Wrong parameter found at '^' position."},
		{"reserved domain name", "", nil, "diffserv domain none", "[~HUAWEI]", 16, "Error: Wrong parameter found at '^' position."},
		{"default domain undo", "", nil, "undo diffserv domain default", "[~HUAWEI]", 21, "Error: Wrong parameter found at '^' position."},
		{"B priority 8", "", []string{"dcb pfc"}, "priority 8", "[*HUAWEI-dcb-pfc-default]", 9, "Error: Wrong parameter found at '^' position."},
		{"A priority 6", "CE6866", []string{"dcb pfc"}, "priority 6", "[*HUAWEI-dcb-pfc-default]", 9, "Error: Wrong parameter found at '^' position."},
		{"A at most 3 priorities", "CE6866", []string{"dcb pfc"}, "priority 0 1 2 3", "[*HUAWEI-dcb-pfc-default]", 15, "Error: Wrong parameter found at '^' position."},
		{"A has no tick interval", "CE6866", nil, "dcb pfc deadlock-detect interval 10", "[~HUAWEI]", 24, "Error: Unrecognized command found at '^' position."},
		{"A headroom pool range", "CE6866", nil, "qos buffer headroom-pool size 4000 kbytes slot 1", "[~HUAWEI]", 30, "Error: Wrong parameter found at '^' position."},
		{"B has no global ecn", "", nil, "qos ecn enable", "[~HUAWEI]", 4, "Error: Unrecognized command found at '^' position."},
		{"A timer range", "CE6866", nil, "dcb pfc deadlock-detect timer 5", "[~HUAWEI]", 30, "Error: Wrong parameter found at '^' position."},
		{"A xon above xoff", "CE6866", []string{"interface 100GE1/0/1"}, "dcb pfc buffer 3 xon static 200 kbytes xoff static 100 kbytes", "[~HUAWEI-100GE1/0/1]", 51, "Error: Wrong parameter found at '^' position."},
		{"auto without lldp", "", []string{"qos buffer headroom-pool size 4 mbytes slot 1", "interface 100GE1/0/1"}, "dcb pfc enable mode auto", "[*HUAWEI-100GE1/0/1]", 20, "Error: Wrong parameter found at '^' position."},
		{"buffer queue under burst mode", "CE6866", []string{"qos burst-mode enhanced", "interface 100GE1/0/1"}, "qos buffer queue 1 shared-threshold dynamic 5", "[*HUAWEI-100GE1/0/1]", 17, "Error: Wrong parameter found at '^' position."},
		{"buffer queue B dynamic range", "", []string{"interface 100GE1/0/1"}, "qos buffer queue 1 shared-threshold dynamic 0", "[~HUAWEI-100GE1/0/1]", 44, "Error: Wrong parameter found at '^' position."},
		{"recovery behaviour word", "", nil, "dcb pfc deadlock recovery-behavior drop slot 1", "[~HUAWEI]", 35, "Error: Unrecognized command found at '^' position."},
		{"member range across cards", "", []string{"port-group g"}, "group-member 100GE1/0/1 to 100GE1/1/2", "[*HUAWEI-port-group-g]", 27, "Error: Wrong parameter found at '^' position."},
		{"A AI ECN queue limit", "CE6866", []string{"ai-service", "ai-ecn", "assign queue 3", "assign queue 4"}, "assign queue 5", "[*HUAWEI-ai-service-ai-ecn]", 13, "Error: Wrong parameter found at '^' position."},
		{"ets on a wred port", "", []string{"drop-profile p", "quit", "interface 100GE1/0/1", "qos queue 3 wred p"}, "dcb ets enable default", "[*HUAWEI-100GE1/0/1]", 8, "Error: Wrong parameter found at '^' position."},
		{"drr on an ets port", "", []string{"interface 100GE1/0/1", "dcb ets enable default"}, "qos drr 0 to 5", "[*HUAWEI-100GE1/0/1]", 0, "Error: Wrong parameter found at '^' position."},
		{"bad include regex", "", nil, "display current-configuration | include (", "[~HUAWEI]", 40, "Error: Wrong parameter found at '^' position."},
		{"unknown pipe", "", nil, "display current-configuration | grep x", "[~HUAWEI]", 32, "Error: Unrecognized command found at '^' position."},
		{"rollback outside user view", "", nil, "rollback configuration last 1", "[~HUAWEI]", 0, "Error: Unrecognized command found at '^' position."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []Option
			if tt.model != "" {
				opts = append(opts, WithModel(tt.model))
			}
			d := newTestDevice(t, "", opts...)
			s := d.NewSession("admin", nil)
			if out := transcript(s, append([]string{"system-view"}, tt.setup...)...); strings.Contains(out, "Error") {
				t.Fatalf("setup refused:\n%s", out)
			}
			if p := s.Prompt(); p != tt.prompt {
				t.Fatalf("prompt = %q, want %q", p, tt.prompt)
			}
			before := d.Running()
			got, _ := s.Handle(tt.line)
			want := strings.Repeat(" ", len(tt.prompt)+tt.col) + "^\n" + tt.want + "\n"
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s%s (-want +got):\n%s", tt.prompt, tt.line, diff)
			}
			if s.Prompt() != tt.prompt {
				t.Errorf("a refused line changed the prompt to %q", s.Prompt())
			}
			transcript(s, "commit")
			if diff := cmp.Diff(string(before), string(d.Running())); tt.setup == nil && diff != "" {
				t.Errorf("a refused line reached the running config:\n%s", diff)
			}
		})
	}
}

// Lines of the reference's tables (§2) and of the V300R023 examples the
// grammar accepts, stored as typed in canonical form.
func TestAcceptedLines(t *testing.T) {
	tests := []struct {
		model string
		setup []string
		line  string
		want  string // the line in display current-configuration
	}{
		{"", []string{"interface 100ge 1/0/1"}, "qos buffer queue 1 shared-threshold static 2000 bytes", " qos buffer queue 1 shared-threshold static 2000 bytes"},
		{"", []string{"interface 100GE1/0/1"}, "qos buffer queue 1 shared-threshold dynamic 5", " qos buffer queue 1 shared-threshold dynamic 5"},
		{"", []string{"interface 100GE1/0/1"}, "dcb pfc buffer 3 xoff dynamic 3 xon offset 6 kbytes", " dcb pfc buffer 3 xoff dynamic 3 xon offset 6 kbytes"},
		{"", []string{"interface 100GE1/0/1"}, "dcb pfc buffer 3 hdrm 256", " dcb pfc buffer 3 hdrm 256 kbytes"},
		{"", []string{"interface 100GE1/0/1"}, "dcb pfc buffer 3 guaranteed 1600 bytes", " dcb pfc buffer 3 guaranteed 1600 bytes"},
		{"CE6866", []string{"interface 100GE1/0/1"}, "dcb pfc buffer 3 xon static 100 kbytes xoff static 125 kbytes", " dcb pfc buffer 3 xon static 100 kbytes xoff static 125 kbytes"},
		{"CE6866", []string{"interface 100GE1/0/1"}, "dcb pfc buffer 3 xon dynamic 5 xoff dynamic 10", " dcb pfc buffer 3 xon dynamic 5 xoff dynamic 10"},
		{"", []string{"drop-profile p"}, "color green buffer-size low-limit 247520 high-limit 18000000 discard-percentage 100", " color green buffer-size low-limit 247520 high-limit 18000000 discard-percentage 100"},
		{"", []string{"drop-profile p"}, "ecn buffer-size cell low-limit 480 high-limit 9600 discard-percentage 10", " ecn buffer-size cell low-limit 480 high-limit 9600 discard-percentage 10"},
		{"", []string{"drop-profile p"}, "ecn low-limit 30 high-limit 30 discard-percentage 5", " ecn low-limit 30 high-limit 30 discard-percentage 5"},
		{"", []string{"diffserv domain d"}, "ip-dscp-inbound 26 phb af3", " ip-dscp-inbound 26 phb af3 green"},
		{"", []string{"diffserv domain d"}, "8021p-inbound 3 phb af3 yellow", " 8021p-inbound 3 phb af3 yellow"},
		{"", []string{"dcb pfc"}, "priority 3 4", " priority 3 4"},
		{"", []string{"dcb pfc"}, "priority 3 turn-off threshold 20", " priority 3 turn-off threshold 20"},
		{"", []string{"lldp enable", "qos buffer headroom-pool size 2048 kbytes slot 1", "interface 100GE1/0/1", "lldp tlv-enable dcbx"}, "dcb pfc enable mode auto", " dcb pfc enable mode auto"},
		{"", []string{"interface 100GE1/0/1"}, "port pfc-deadlock trigger error-down", " port pfc-deadlock trigger error-down"},
		{"", []string{"interface 100GE1/0/1"}, "qos wfq 0 to 7", " qos wfq 0 to 7"},
		{"", nil, "dcb pfc deadlock recovery-behavior forwarding slot 1", "dcb pfc deadlock recovery-behavior forwarding slot 1"},
		{"", nil, "qos burst-mode extreme slot 1", "qos burst-mode extreme slot 1"},
		{"", []string{"dcb ets-profile myets"}, "priority-group 1 queue 3", " priority-group 1 queue 3"},
		{"", []string{"dcb ets-profile myets", "quit", "interface 100GE1/0/1"}, "dcb ets enable myets", " dcb ets enable myets"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			var opts []Option
			if tt.model != "" {
				opts = append(opts, WithModel(tt.model))
			}
			d := newTestDevice(t, "", opts...)
			s := d.NewSession("admin", nil)
			out := transcript(s, append(append([]string{"system-view"}, tt.setup...), tt.line, "commit")...)
			if strings.Contains(out, "Error") {
				t.Fatalf("refused:\n%s", out)
			}
			// The whole configuration, default-equal lines included
			// (display current-configuration leaves those out).
			if cp := string(d.Checkpoint()); !strings.Contains(cp, "\n"+tt.want+"\n") {
				t.Errorf("configuration lacks %q:\n%s", tt.want, cp)
			}
		})
	}
}

// TestECNWeight: `ecn weight W` is its own line of the drop-profile
// (Errata; Huawei EDOC1100198444 as annetutil/annet's drop-profile test
// quotes it): setting the ECN thresholds does not replace it, `undo ecn`
// leaves it, `undo ecn weight [W]` removes it alone. It prints after the
// ECN line whichever was typed first, and a seed holding it in either
// order loads to the same configuration.
func TestECNWeight(t *testing.T) {
	const ecn = "ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10"
	profile := func(d *Device) string {
		run := string(d.Running())
		i := strings.Index(run, "drop-profile p\n")
		if i < 0 {
			return ""
		}
		return run[i : i+strings.Index(run[i:], "#")]
	}
	both := "drop-profile p\n " + ecn + "\n ecn weight 10\n"
	for _, order := range [][]string{{"ecn weight 10", ecn}, {ecn, "ecn weight 10"}} {
		d := newTestDevice(t, "")
		s := d.NewSession("admin", nil)
		if out := transcript(s, "system-view", "drop-profile p", order[0], order[1], "quit", "commit"); strings.Contains(out, "Error") {
			t.Fatalf("refused:\n%s", out)
		}
		if got := profile(d); got != both {
			t.Errorf("typed %q first: profile\n%s\nwant\n%s", order[0], got, both)
		}
		seed := "#\ndrop-profile p\n " + order[0] + "\n " + order[1] + "\n#\nreturn\n"
		if got := profile(newTestDevice(t, seed)); got != both {
			t.Errorf("seeded with %q first: profile\n%s\nwant\n%s", order[0], got, both)
		}
	}
	d := newTestDevice(t, "#\n"+both+"#\nreturn\n")
	s := d.NewSession("admin", nil)
	transcript(s, "system-view", "drop-profile p", "undo ecn", "quit", "commit")
	if got, want := profile(d), "drop-profile p\n ecn weight 10\n"; got != want {
		t.Errorf("after undo ecn:\n%s\nwant\n%s", got, want)
	}
	transcript(s, "drop-profile p", ecn, "undo ecn weight", "quit", "commit")
	if got, want := profile(d), "drop-profile p\n "+ecn+"\n"; got != want {
		t.Errorf("after undo ecn weight:\n%s\nwant\n%s", got, want)
	}
	transcript(s, "drop-profile p", "ecn weight 8", "quit", "commit", "drop-profile p", "undo ecn weight 8", "quit", "commit")
	if got, want := profile(d), "drop-profile p\n "+ecn+"\n"; got != want {
		t.Errorf("after undo ecn weight 8:\n%s\nwant\n%s", got, want)
	}
}

func TestFamilyAFromSeedHeader(t *testing.T) {
	seed := "!Model: CE6866\n#\ndcb pfc deadlock-detect timer 200\n#\nqos ecn enable\n#\nreturn\n"
	d := newTestDevice(t, seed)
	if d.Family() != "A" {
		t.Fatalf("family = %s, want A", d.Family())
	}
	want := header + "#\nsysname HUAWEI\n#\ndcb pfc deadlock-detect timer 200\n#\nqos ecn enable\n#\nreturn\n"
	if diff := cmp.Diff(want, string(d.Running())); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	k, err := NewKind(WithModel("CE6866"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.New("x", []byte("#\ndcb pfc deadlock-detect interval 10\n")); err == nil {
		t.Error("family B seed line accepted on family A")
	}
}

func TestBadSeedIsAnError(t *testing.T) {
	k, err := NewKind()
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []string{
		"#\ninterface 100GE1/0/1\n qos queue 3 ecn\n#\nreturn\n",
		"#\nbogus line\n",
		"!Model: CE9999\n",
	} {
		if _, err := k.New("x", []byte(seed)); err == nil {
			t.Errorf("seed %q accepted", seed)
		}
	}
}

// Negation, including the Errata: undo qos drr A to B also removes the
// per-queue drr weights.
func TestUndo(t *testing.T) {
	d := newTestDevice(t, "")
	s := pushCanonical(t, d)
	out := transcript(s, "interface 100GE1/0/1", "undo qos drr 0 to 5", "undo qos queue 3 ecn", "quit",
		"interface 100GE1/0/2", "undo qos drr 0 to 4", "quit",
		"dcb pfc", "undo priority 3 deadlock-recovery", "quit", "display configuration candidate changes", "commit")
	want := `[~HUAWEI]interface 100GE1/0/1
[~HUAWEI-100GE1/0/1]undo qos drr 0 to 5
[*HUAWEI-100GE1/0/1]undo qos queue 3 ecn
[*HUAWEI-100GE1/0/1]quit
[*HUAWEI]interface 100GE1/0/2
[*HUAWEI-100GE1/0/2]undo qos drr 0 to 4
                                 ^
Error: Wrong parameter found at '^' position.
[*HUAWEI-100GE1/0/2]quit
[*HUAWEI]dcb pfc
[*HUAWEI-dcb-pfc-default]undo priority 3 deadlock-recovery
[*HUAWEI-dcb-pfc-default]quit
[*HUAWEI]display configuration candidate changes
Building configuration
  #
  dcb pfc
-  priority 3 deadlock-recovery time 10
  #
  interface 100GE1/0/1
-  qos drr 0 to 5
-  qos queue 0 drr weight 40
-  qos queue 3 drr weight 60
-  qos queue 3 ecn
  #
[*HUAWEI]commit
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	run := string(d.Running())
	if strings.Contains(run, "interface 100GE1/0/1\n trust dscp\n trust upstream roce\n dcb pfc enable mode manual\n qos queue 3 wred roce-ecn\n#") == false {
		t.Errorf("interface 100GE1/0/1 not reduced as expected:\n%s", run)
	}
}

func TestCommitTrialConfirmed(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	out := transcript(s, "system-view", "sysname ROLLBACK", "commit trial 120", "display configuration trial status", "commit", "display configuration trial status")
	want := `<HUAWEI>system-view
Enter system view, return user view with return command.
[~HUAWEI]sysname ROLLBACK
[*HUAWEI]commit trial 120
Info: The system enters the trial configuration mode.
The system will revert to previous configuration if the trial configuration is not confirmed in 120 seconds.
[~ROLLBACK]display configuration trial status
Trial status: ACTIVE 
Trial time left (sec): 120
[~ROLLBACK]commit
[~ROLLBACK]display configuration trial status
Trial status: INACTIVE 
Trial time left (sec): 0
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A persistent trial survives its session and is confirmed from another
// with commit persist ID (§4).
func TestCommitTrialPersist(t *testing.T) {
	d := newTestDevice(t, "")
	s1 := d.NewSession("admin", nil)
	transcript(s1, "system-view", "drop-profile p1", "commit trial 300 persist job7")
	s1.Close()
	s2 := d.NewSession("admin", nil)
	out := transcript(s2, "system-view", "commit persist job8", "commit persist job7", "display configuration trial status")
	want := `<HUAWEI>system-view
Enter system view, return user view with return command.
[~HUAWEI]commit persist job8
                        ^
Error: Wrong parameter found at '^' position.
[~HUAWEI]commit persist job7
[~HUAWEI]display configuration trial status
Trial status: INACTIVE 
Trial time left (sec): 0
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.Contains(string(d.Running()), "drop-profile p1\n") {
		t.Error("confirmed trial lost its change")
	}
}

// The trial timer running out (fault ExpireCommitTimer) restores the
// previous running config byte for byte.
func TestCommitTrialExpires(t *testing.T) {
	d := newTestDevice(t, "")
	pushCanonical(t, d)
	before := string(d.Running())
	s := d.NewSession("admin", &device.Faults{ExpireCommitTimer: true})
	out := transcript(s, "system-view", "interface 100GE1/0/1", "undo trust", "commit trial", "display configuration trial status")
	if !strings.Contains(out, "confirmed in 600 seconds.\n[~HUAWEI-100GE1/0/1]display configuration trial status\nTrial status: INACTIVE \n") {
		t.Errorf("transcript:\n%s", out)
	}
	if diff := cmp.Diff(before, string(d.Running())); diff != "" {
		t.Errorf("running after expiry (-want +got):\n%s", diff)
	}
}

// A trial started by a session that then drops cannot be confirmed; abort
// trial from another session rolls it back.
func TestAbortTrial(t *testing.T) {
	d := newTestDevice(t, "")
	pushCanonical(t, d)
	before := string(d.Running())
	s1 := d.NewSession("admin", nil)
	transcript(s1, "system-view", "undo drop-profile roce-ecn")
	if !strings.Contains(transcript(s1, "interface 100GE1/0/1", "undo qos queue 3 ecn", "undo qos queue 3 wred", "quit", "interface 100GE1/0/2", "undo qos queue 3 ecn", "undo qos queue 3 wred", "quit", "undo drop-profile roce-ecn", "commit trial 60"), "trial configuration mode") {
		t.Fatal("trial did not start")
	}
	s1.Close()
	s2 := d.NewSession("ops", nil)
	out := transcript(s2, "rollback configuration last 1", "system-view", "abort trial", "y")
	want := `<HUAWEI>rollback configuration last 1
Error: The system is in trial configuration mode.
<HUAWEI>system-view
Enter system view, return user view with return command.
[~HUAWEI]abort trial
Warning: The trial configuration will be rolled back. Continue? [Y/N]:y
Info: The trial configuration rollback succeeded.
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, string(d.Running())); diff != "" {
		t.Errorf("running after abort (-want +got):\n%s", diff)
	}
}

func TestRollback(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	transcript(s, "system-view", "drop-profile p1", "commit label first", "quit")
	afterFirst := string(d.Running())
	transcript(s, "drop-profile p2", "quit", "commit")
	afterSecond := string(d.Running())
	transcript(s, "undo drop-profile p1", "commit", "return")
	list := transcript(s, "display configuration commit list")
	wantList := `<HUAWEI>display configuration commit list
No.  CommitId    Label      User         TimeStamp
1    1000000003  -          admin        2026-01-02 03:04:05
2    1000000002  -          admin        2026-01-02 03:04:05
3    1000000001  first      admin        2026-01-02 03:04:05
`
	if diff := cmp.Diff(wantList, list); diff != "" {
		t.Errorf("commit list (-want +got):\n%s", diff)
	}
	verbose := transcript(s, "display configuration commit list verbose 1")
	wantVerbose := `<HUAWEI>display configuration commit list verbose 1
1) CommitId: 1000000003
        Label: -
        User: admin
        User-Intf: VTY 0
        Type: CLI
        TimeStamp: 2026-01-02 03:04:05
        Description:

`
	if diff := cmp.Diff(wantVerbose, verbose); diff != "" {
		t.Errorf("verbose list (-want +got):\n%s", diff)
	}
	changes := transcript(s, "display configuration commit changes last 2", "display configuration commit changes at 1000000003")
	wantChanges := `<HUAWEI>display configuration commit changes last 2
Building configuration
  #
- drop-profile p1
  #
+ drop-profile p2
  #
<HUAWEI>display configuration commit changes at 1000000003
Building configuration
  #
- drop-profile p1
  #
`
	if diff := cmp.Diff(wantChanges, changes); diff != "" {
		t.Errorf("commit changes (-want +got):\n%s", diff)
	}
	tests := []struct {
		line, want string
	}{
		{"rollback configuration last 1", afterSecond},
		{"rollback configuration to commit-id 1000000001", afterFirst},
		{"rollback configuration to label first", afterFirst},
		// Undoes the last two commit points (the two rollbacks above),
		// back to the state the first of them started from.
		{"rollback configuration last 2", afterSecond},
	}
	for _, tt := range tests {
		out := transcript(s, tt.line, "y")
		if !strings.HasSuffix(out, qRollback+"y\n"+msgRollbackDone+"\n") {
			t.Errorf("%s:\n%s", tt.line, out)
		}
		if diff := cmp.Diff(tt.want, string(d.Running())); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.line, diff)
		}
	}
	// N declines; an unknown commit id is a wrong parameter.
	cur := string(d.Running())
	transcript(s, "rollback configuration last 3", "n")
	if string(d.Running()) != cur {
		t.Error("declined rollback changed the config")
	}
	got := transcript(s, "rollback configuration to commit-id 1000000999")
	if !strings.HasSuffix(got, strings.Repeat(" ", len("<HUAWEI>rollback configuration to commit-id "))+"^\nError: Wrong parameter found at '^' position.\n") {
		t.Errorf("unknown id:\n%s", got)
	}
}

// A dropped session discards its candidate; another session's candidate
// is its own.
func TestDroppedSessionDiscardsCandidate(t *testing.T) {
	d := newTestDevice(t, "")
	before := string(d.Running())
	s1 := d.NewSession("admin", nil)
	transcript(s1, "system-view", "drop-profile gone", "ecn low-limit 10 high-limit 20 discard-percentage 5")
	s1.Close()
	if out, done := s1.Handle("commit"); !done || out != "" {
		t.Errorf("closed session still runs commands: %q", out)
	}
	s2 := d.NewSession("admin", nil)
	if out := transcript(s2, "system-view", "display configuration candidate changes"); !strings.HasSuffix(out, "Building configuration\n") {
		t.Errorf("candidate leaked into another session:\n%s", out)
	}
	if string(d.Running()) != before {
		t.Error("dropped session changed the running config")
	}
}

// Two sessions editing different things both land: a commit applies the
// session's changes to the running config as it is at commit time.
func TestConcurrentSessionsMerge(t *testing.T) {
	d := newTestDevice(t, "")
	s1, s2 := d.NewSession("a", nil), d.NewSession("b", nil)
	transcript(s1, "system-view", "drop-profile one")
	transcript(s2, "system-view", "drop-profile two", "commit")
	transcript(s1, "commit")
	run := string(d.Running())
	if !strings.Contains(run, "drop-profile one\n") || !strings.Contains(run, "drop-profile two\n") {
		t.Errorf("lost a commit:\n%s", run)
	}
}

// Two sessions changing the same line: the first commit wins, the second
// gets a conflict until it refreshes its candidate (§4).
func TestConcurrentSessionsConflict(t *testing.T) {
	d := newTestDevice(t, "")
	s1, s2 := d.NewSession("a", nil), d.NewSession("b", nil)
	transcript(s1, "system-view", "sysname ONE")
	transcript(s2, "system-view", "sysname TWO", "commit")
	out := transcript(s1, "commit", "refresh configuration candidate", "commit")
	want := "[*TWO]commit\n" + msgConflict + "\n[*TWO]refresh configuration candidate\n[*TWO]commit\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if p := s1.Prompt(); p != "[~ONE]" {
		t.Errorf("prompt after refresh and commit: %q", p)
	}
}

func TestFaults(t *testing.T) {
	t.Run("fail commit keeps the candidate", func(t *testing.T) {
		d := newTestDevice(t, "")
		before := string(d.Running())
		s := d.NewSession("admin", &device.Faults{FailCommit: true})
		out := transcript(s, "system-view", "drop-profile p", "commit")
		if !strings.HasSuffix(out, "[*HUAWEI-drop-p]commit\n"+msgCommitFailed+"\n") || s.Prompt() != "[*HUAWEI-drop-p]" {
			t.Errorf("transcript:\n%s\nprompt %q", out, s.Prompt())
		}
		if string(d.Running()) != before {
			t.Error("failed commit changed the running config")
		}
		transcript(s, "clear configuration candidate")
		if s.Prompt() != "[~HUAWEI]" {
			t.Errorf("after clear: prompt %q", s.Prompt())
		}
	})
	t.Run("reject pattern", func(t *testing.T) {
		d := newTestDevice(t, "")
		s := d.NewSession("admin", &device.Faults{RejectPattern: `^drop-profile bad`})
		out := transcript(s, "system-view", "drop-profile bad1", "drop-profile good")
		want := "<HUAWEI>system-view\n" + msgEnterSystem + "\n[~HUAWEI]drop-profile bad1\n" +
			strings.Repeat(" ", 9) + "^\nError: Unrecognized command found at '^' position.\n[~HUAWEI]drop-profile good\n"
		if diff := cmp.Diff(want, out); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestDisplayFilters(t *testing.T) {
	d := newTestDevice(t, "")
	s := pushCanonical(t, d)
	tests := []struct{ line, want string }{
		{"display current-configuration | include ^interface", "interface 100GE1/0/1\ninterface 100GE1/0/2\n"},
		{"dis cur | inc weight 60 | exclude nothing", " qos queue 3 drr weight 60\n qos queue 3 drr weight 60\n"},
		{"display current-configuration | begin ^drop-profile | include ecn", "drop-profile roce-ecn\n ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n qos queue 3 wred roce-ecn\n qos queue 3 ecn\n qos queue 3 wred roce-ecn\n qos queue 3 ecn\n"},
		{"display current-configuration interface 100GE1/0/2", "#\ninterface 100GE1/0/2\n trust dscp\n trust upstream roce\n dcb pfc enable mode manual\n qos queue 3 wred roce-ecn\n qos drr 0 to 5\n qos queue 0 drr weight 40\n qos queue 3 drr weight 60\n qos queue 3 ecn\n#\nreturn\n"},
		{"display current-configuration configuration drop-profile", "#\ndrop-profile roce-ecn\n ecn buffer-size low-limit 153600 high-limit 3072000 discard-percentage 10\n#\nreturn\n"},
	}
	for _, tt := range tests {
		got, _ := s.Handle(tt.line)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.line, diff)
		}
	}
}

// Without screen-length 0 temporary the session pages at 24 lines (§5);
// "| no-more" turns paging off for one command. The SSH server does the
// paging (lab_test.go shows it over SSH).
func TestPaging(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil).(*Session)
	tests := []struct {
		line  string
		lines int
	}{
		{"display current-configuration", 24},
		{"display current-configuration | no-more", 0},
		{"display current-configuration | include sysname", 24},
		{"screen-length 0 temporary", 0},
		{"display current-configuration", 0},
	}
	for _, tt := range tests {
		s.Handle(tt.line)
		if n, more := s.Page(); n != tt.lines || more != morePrompt {
			t.Errorf("%s: Page() = %d, %q; want %d", tt.line, n, more, tt.lines)
		}
	}
}

func TestCheckpointRestore(t *testing.T) {
	d := newTestDevice(t, "")
	pushCanonical(t, d)
	cp := d.Checkpoint()
	want := string(d.Running())
	s := d.NewSession("admin", nil)
	transcript(s, "system-view", "sysname OTHER", "interface 100GE1/0/1", "undo trust", "commit")
	if string(d.Running()) == want {
		t.Fatal("change did not land")
	}
	if err := d.Restore(cp); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(d.Running())); diff != "" {
		t.Errorf("restored (-want +got):\n%s", diff)
	}
	if err := d.Restore([]byte("bogus\n")); err == nil {
		t.Error("bad checkpoint accepted")
	}
}

func TestSave(t *testing.T) {
	d := newTestDevice(t, "")
	s := d.NewSession("admin", nil)
	out := transcript(s, "save", "y")
	if out != "<HUAWEI>save\n"+qSave+"y\n"+msgSaved+"\n" {
		t.Errorf("transcript:\n%s", out)
	}
}

// The grammar table is well formed: every pattern compiles, no view holds
// the same pattern twice for a family, every entry either runs, enters,
// removes or stores, and every view a config command enters has a prompt.
func TestGrammarTable(t *testing.T) {
	g := grammar()
	if err := compile(g); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range g {
		for _, v := range c.views {
			for _, f := range []family{familyA, familyB} {
				if !c.inFamily(f) {
					continue
				}
				k := fmt.Sprintf("%d/%s/%s", v, f, c.pattern)
				if seen[k] {
					t.Errorf("pattern %q twice in view %d for family %s", c.pattern, v, f)
				}
				seen[k] = true
			}
		}
		if c.enter != 0 && suffix(c.enter, "x") == "" {
			t.Errorf("%q enters a view without a prompt suffix", c.pattern)
		}
		if c.run != nil && (c.enter != 0 || c.remove != nil || c.apply != nil) {
			t.Errorf("%q is both an exec and a config command", c.pattern)
		}
	}
}
