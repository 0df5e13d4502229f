package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/diag"
)

// A small fabric on the catalog's Arista-7060CX-32S, written to a
// temporary directory by writeFabric.
const testIntent = `qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    ecn {
      min_threshold   = var.ecn_min
      max_threshold   = "3000KB"
      max_probability = 7
    }
  }
  traffic_class "cnp" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
}

buffer_profile "b" {
  headroom = var.headroom
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.b
}
`

const testVariables = `variable "ecn_min" {
  type    = string
  default = "150KB"
  validation {
    condition     = length(regexall("KB$", var.ecn_min)) == 1
    error_message = "ecn_min must be in KB."
  }
}

variable "headroom" {
  type    = any
  default = "auto"
}
`

const testInventory = `device "sw1" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  ports "Ethernet0,Ethernet4" {
    speed = "100G"
    cable = "5m"
  }
}

device "sw2" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.2"
  ports "Ethernet0,Ethernet4" {
    speed = "100G"
    cable = "5m"
  }
}

link {
  a = "sw1:Ethernet0"
  b = "sw2:Ethernet0"
}
`

// writeFabric writes the test fabric to a new directory, with files
// replaced or added by name.
func writeFabric(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	all := map[string]string{"qos.hcl": testIntent, "variables.hcl": testVariables, "inventory.hcl": testInventory}
	for n, s := range files {
		all[n] = s
	}
	for n, s := range all {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	// Call the verbs directly, so these tests do not depend on the rest
	// of the command table.
	verbs := map[string]func(context.Context, []string, io.Writer, io.Writer) int{
		"validate": runValidate, "fmt": runFmt, "inspect": runInspect,
	}
	var out, errb bytes.Buffer
	code := verbs[args[0]](context.Background(), args[1:], &out, &errb)
	return code, out.String(), errb.String()
}

// nxosPair is an inventory of two NX-OS switches.
const nxosPair = `device "nx1" {
  vendor   = "nxos"
  platform = "N9K-C93600CD-GX"
  address  = "192.0.2.1"
  ports "Ethernet1/1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "nx2" {
  vendor   = "nxos"
  platform = "N9K-C93600CD-GX"
  address  = "192.0.2.2"
  ports "Ethernet1/1-2" {
    speed = "100G"
    cable = "5m"
  }
}
`

func TestValidate(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		args     []string
		code     int
		stdout   []string // substrings
		stderr   []string // substrings
		noStderr bool
		without  string // a substring stderr must not have
	}{
		{name: "valid", code: 0, stdout: []string{"The intent is valid: 2 devices, 4 ports."}, noStderr: true},
		{
			name:  "duplicate DSCP names both locations",
			files: map[string]string{"qos.hcl": strings.Replace(testIntent, "dscp     = [48]", "dscp     = [26, 48]", 1)},
			code:  1,
			stderr: []string{
				"Error [LL012]: Duplicate DSCP value",
				"qos.hcl:18:17", // the 26 in class cnp
				`already mapped to class "rdma" at`,
				"qos.hcl:8,21-23", // the 26 in class rdma
			},
		},
		{
			name:    "syntax error has file:line:col",
			files:   map[string]string{"qos.hcl": testIntent + "\nassign \"x\" {\n  devices = [\n}\n"},
			code:    1,
			stderr:  []string{"Error: Invalid expression", "qos.hcl:36:1"},
			without: "[LL0", // no semantic noise from a half-parsed file
		},
		{
			name:   "bare number suggests the unit",
			args:   []string{"-var", "ecn_min=150"},
			code:   1,
			stderr: []string{"Error [LL005]: Invalid value for variable", "ecn_min must be in KB. (given with -var ecn_min=150)", "variables.hcl:1:10"},
		},
		{
			name:   "var overrides default",
			args:   []string{"-var", "ecn_min=1000KB"},
			code:   0,
			stdout: []string{"The intent is valid"},
		},
		{
			name:   "unknown variable",
			args:   []string{"-var", "nope=1"},
			code:   1,
			stderr: []string{`-var sets "nope"`},
		},
		{
			name:   "warning passes without -strict",
			args:   []string{"-var-file", "explicit.hcl"},
			code:   0,
			stderr: []string{"Warning [LL023]: ECN marks only after PFC pauses"},
		},
		{
			name:   "warning fails with -strict",
			args:   []string{"-strict", "-var-file", "explicit.hcl"},
			code:   1,
			stderr: []string{"Warning [LL023]"},
		},
		{
			name: "what the renderer refuses fails validate",
			files: map[string]string{
				"qos.hcl":       strings.Replace(testIntent, "  traffic_class \"cnp\" {", "  pfc {\n    watchdog {\n      detection_time = \"200ms\"\n    }\n  }\n  traffic_class \"cnp\" {", 1),
				"inventory.hcl": nxosPair,
			},
			code:   1,
			stderr: []string{"Error [LL131]: Not supported by the device's vendor", "inventory.hcl:1:1", `Device "nx1" (nxos) cannot express PFC watchdog detection time 200ms`, "The same holds for 1 other devices"},
		},
		{
			// NX-OS needs a WRED weight the intent does not give: the
			// renderer's default is a warning (LL202), said once for both
			// devices, and -strict fails on it as plan would show it.
			name:   "renderer warning passes without -strict",
			files:  map[string]string{"inventory.hcl": nxosPair},
			code:   0,
			stderr: []string{"Warning [LL202]: A default is chosen for the device", "inventory.hcl:1:1", `Device "nx1" (nxos): ECN weight of class rdma is unset; NX-OS requires one,`, "The same holds for 1 other device(s): nx2."},
			stdout: []string{"The intent is valid"},
		},
		{
			name:   "renderer warning fails with -strict",
			files:  map[string]string{"inventory.hcl": nxosPair},
			args:   []string{"-strict"},
			code:   1,
			stderr: []string{"Warning [LL202]"},
		},
		{
			name:  "the renderer's warning goes once the intent says it",
			files: map[string]string{"inventory.hcl": nxosPair, "qos.hcl": strings.Replace(testIntent, "max_probability = 7", "max_probability = 7\n      weight          = 0", 1)},
			args:  []string{"-strict"},
			code:  0, noStderr: true,
		},
		{
			name:   "unmanaged takes keep or prune",
			files:  map[string]string{"qos.hcl": strings.Replace(testIntent, "  buffers = buffer_profile.b\n}", "  buffers = buffer_profile.b\n  unmanaged = \"delete\"\n}", 1)},
			code:   1,
			stderr: []string{"Error [LL004]: Invalid unmanaged", `unmanaged must be "keep"`},
		},
		{
			name: "NX-OS over gNMI is refused with the reason",
			files: map[string]string{"inventory.hcl": `device "nx1" {
  vendor    = "nxos"
  platform  = "N9K-C93600CD-GX"
  address   = "192.0.2.1"
  transport = "gnmi"
  ports "Ethernet1/1-2" {
    speed = "100G"
    cable = "5m"
  }
}
`},
			code:   1,
			stderr: []string{"Error [LL130]: Transport not supported for this vendor", "inventory.hcl:1:1", "Cisco's OpenConfig QoS", `use transport = "ssh"`},
		},
		{
			name: "containerlab topology as inventory",
			args: []string{"-inventory", "lab.clab.yml"},
			files: map[string]string{"lab.clab.yml": `name: t
topology:
  defaults:
    labels:
      lossless.platform: Arista-7060CX-32S
      lossless.speed: 100G
      lossless.cable: 5m
  nodes:
    sw1:
      kind: sonic-vs
      mgmt-ipv4: 172.20.20.11
    sw2:
      kind: sonic-vs
      mgmt-ipv4: 172.20.20.12
  links:
    - endpoints: ["sw1:eth1", "sw2:eth1"]
`},
			code:   0,
			stdout: []string{"The intent is valid: 2 devices, 2 ports."},
		},
		{
			name:   "missing inventory",
			args:   []string{"-inventory", "nowhere.hcl"},
			code:   1,
			stderr: []string{"No inventory"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFabric(t, tt.files)
			// The var file lives outside DIR so that Load does not read it
			// as intent.
			varFile := filepath.Join(t.TempDir(), "explicit.hcl")
			if err := os.WriteFile(varFile, []byte(`headroom = { xoff = "100KB", xon = "18KB" }`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"validate", "-no-color"}
			for _, a := range tt.args {
				switch a {
				case "explicit.hcl":
					a = varFile
				case "nowhere.hcl", "lab.clab.yml":
					a = filepath.Join(dir, a)
				}
				args = append(args, a)
			}
			args = append(args, dir)
			code, stdout, stderr := runCmd(t, args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if tt.without != "" && strings.Contains(stderr, tt.without) {
				t.Errorf("stderr has %q:\n%s", tt.without, stderr)
			}
			if tt.noStderr && stderr != "" {
				t.Errorf("unexpected stderr:\n%s", stderr)
			}
			if strings.Contains(stderr, "\x1b[") {
				t.Errorf("colour in non-terminal output:\n%q", stderr)
			}
		})
	}
}

func TestValidateJSON(t *testing.T) {
	dir := writeFabric(t, map[string]string{"qos.hcl": strings.Replace(testIntent, "dscp     = [48]", "dscp     = [26, 48]", 1)})
	code, stdout, stderr := runCmd(t, "validate", "-json", dir)
	if code != 1 {
		t.Fatalf("exit code %d, want 1; stderr:\n%s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("-json wrote to stderr:\n%s", stderr)
	}
	var doc diag.JSONDocument
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if doc.FormatVersion != "1.0" || doc.Valid || doc.ErrorCount != 1 || len(doc.Diagnostics) != 1 {
		t.Fatalf("document = %+v", doc)
	}
	d := doc.Diagnostics[0]
	if d.Rule != "LL012" || d.Severity != "error" || d.Summary != "Duplicate DSCP value" || d.Range == nil {
		t.Fatalf("diagnostic = %+v", d)
	}
	if d.Range.Filename != filepath.Join(dir, "qos.hcl") || d.Range.Start.Line != 18 || d.Range.Start.Column != 17 || d.Range.End.Column != 19 {
		t.Errorf("range = %+v", *d.Range)
	}
}

func TestValidateHelp(t *testing.T) {
	code, _, stderr := runCmd(t, "validate", "-help")
	if code != 0 {
		t.Errorf("-help exit code %d, want 0", code)
	}
	for _, s := range []string{"-strict", "-json", "-var NAME=VALUE", "-var-file FILE", "-inventory FILE", "-no-color", "Examples:"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("help lacks %q", s)
		}
	}
	if code, _, _ := runCmd(t, "validate", "-bogus"); code != 1 {
		t.Errorf("bad flag exit code %d, want 1", code)
	}
}

func TestFmt(t *testing.T) {
	dir := writeFabric(t, map[string]string{"ugly.hcl": "locals {\n  a = 1\n    bb   = 2\n}\n"})
	ugly := filepath.Join(dir, "ugly.hcl")
	code, stdout, _ := runCmd(t, "fmt", "-check", dir)
	if code != 1 || strings.TrimSpace(stdout) != ugly {
		t.Fatalf("fmt -check: code %d, stdout %q; want 1 and %q", code, stdout, ugly)
	}
	if b, _ := os.ReadFile(ugly); !strings.Contains(string(b), "    bb   = 2") {
		t.Fatal("fmt -check changed the file")
	}
	if code, stdout, _ := runCmd(t, "fmt", dir); code != 0 || strings.TrimSpace(stdout) != ugly {
		t.Fatalf("fmt: code %d, stdout %q", code, stdout)
	}
	if b, _ := os.ReadFile(ugly); string(b) != "locals {\n  a  = 1\n  bb = 2\n}\n" {
		t.Fatalf("fmt wrote %q", b)
	}
	if code, stdout, _ := runCmd(t, "fmt", "-check", dir); code != 0 || stdout != "" {
		t.Fatalf("fmt -check after fmt: code %d, stdout %q", code, stdout)
	}
	broken := writeFabric(t, map[string]string{"broken.hcl": "locals {\n"})
	code, _, stderr := runCmd(t, "fmt", broken)
	if code != 1 || !regexp.MustCompile(`broken\.hcl:\d+:\d+`).MatchString(stderr) {
		t.Fatalf("fmt on a syntax error: code %d, stderr:\n%s", code, stderr)
	}
	// A password on the line of a syntax error is masked in the snippet.
	secret := writeFabric(t, map[string]string{"inventory.hcl": "credentials \"x\" {\n  password = \"hunter2-secret\" +\n}\n"})
	code, _, stderr = runCmd(t, "fmt", secret)
	if code != 1 || strings.Contains(stderr, "hunter2") || !strings.Contains(stderr, `password = "**************" +`) {
		t.Fatalf("fmt on a syntax error next to a password: code %d, stderr:\n%s", code, stderr)
	}
}

func TestInspect(t *testing.T) {
	dir := writeFabric(t, nil)
	code, stdout, stderr := runCmd(t, "inspect", "-json", "sw1", dir)
	if code != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	var doc struct {
		FormatVersion string `json:"format_version"`
		Device        struct {
			Name string `json:"name"`
			QoS  struct {
				LosslessPriorities []int `json:"lossless_priorities"`
			} `json:"qos"`
			Ports []struct {
				Name     string `json:"name"`
				Peer     string `json:"peer"`
				Headroom []struct {
					Priority   int   `json:"priority"`
					XoffBytes  int64 `json:"xoff_bytes"`
					Derivation []struct {
						Name   string `json:"name"`
						Bytes  int64  `json:"bytes"`
						Source string `json:"source"`
					} `json:"derivation"`
				} `json:"headroom"`
			} `json:"ports"`
		} `json:"device"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	d := doc.Device
	if doc.FormatVersion != "1.0" || d.Name != "sw1" || len(d.Ports) != 2 || d.Ports[0].Name != "Ethernet0" || d.Ports[0].Peer != "sw2:Ethernet0" {
		t.Fatalf("device = %+v", d)
	}
	h := d.Ports[0].Headroom
	if len(h) != 1 || h[0].Priority != 3 || h[0].XoffBytes <= 0 || len(h[0].Derivation) == 0 {
		t.Fatalf("headroom = %+v", h)
	}
	var sum int64
	for _, term := range h[0].Derivation {
		if term.Source == "" {
			t.Errorf("term %q has no source", term.Name)
		}
		if strings.HasPrefix(term.Name, "Xon") || strings.HasPrefix(term.Name, "Size") {
			continue
		}
		sum += term.Bytes
	}
	if sum != h[0].XoffBytes {
		t.Errorf("xoff terms sum to %d, xoff is %d", sum, h[0].XoffBytes)
	}

	code, stdout, _ = runCmd(t, "inspect", "-text", "sw1", dir)
	if code != 0 || !strings.Contains(stdout, "priority 3 headroom: xoff") {
		t.Errorf("text inspect: code %d\n%s", code, stdout)
	}
	code, indented, _ := runCmd(t, "inspect", "sw1", dir)
	if code != 0 || !strings.HasPrefix(indented, "{\n  \"format_version\": \"1.0\"") || strings.Count(indented, "\n") < 10 {
		t.Errorf("default inspect is not indented JSON: code %d\n%s", code, indented)
	}
	_, compact, _ := runCmd(t, "inspect", "-json", "sw1", dir)
	var a, b any
	if json.Unmarshal([]byte(compact), &a) != nil || json.Unmarshal([]byte(indented), &b) != nil || !reflect.DeepEqual(a, b) || strings.Count(compact, "\n") != 1 {
		t.Errorf("-json is not the same document on one line:\n%s", compact)
	}
	if code, _, stderr := runCmd(t, "inspect", "nope", dir); code != 1 || !strings.Contains(stderr, `no assigned device "nope"; devices: sw1, sw2`) {
		t.Errorf("unknown device: code %d, stderr %q", code, stderr)
	}
}

// copyIntentDir copies the files of dir into a new temporary directory.
func copyIntentDir(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestValidateExample is the acceptance check on the bundled
// example: it validates clean, even with -strict; a copy with one DSCP in
// two classes fails naming both places; a syntax error fails with
// file:line:col.
func TestValidateExample(t *testing.T) {
	const example = "../../examples/ai-fabric"
	if code, stdout, stderr := runCmd(t, "validate", "-strict", example); code != 0 || stderr != "" {
		t.Fatalf("example: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	dup := copyIntentDir(t, example)
	qos := filepath.Join(dup, "qos.hcl")
	b, err := os.ReadFile(qos)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(b), "dscp     = local.cnp_dscp", "dscp     = [26, 48]", 1)
	if broken == string(b) {
		t.Fatal("example's CNP class no longer reads dscp = local.cnp_dscp")
	}
	if err := os.WriteFile(qos, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "validate", "-no-color", dup)
	line := 1 + strings.Count(broken[:strings.Index(broken, "[26, 48]")], "\n")
	roce := 1 + strings.Count(broken[:strings.Index(broken, "dscp      = local.roce_dscp")], "\n")
	for _, want := range []string{
		"Error [LL012]: Duplicate DSCP value",
		fmt.Sprintf("qos.hcl:%d:17", line),
		fmt.Sprintf("qos.hcl:%d,17-", roce),
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("duplicate DSCP: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 1 {
		t.Errorf("duplicate DSCP: exit %d, want 1", code)
	}

	syn := copyIntentDir(t, example)
	if err := os.WriteFile(filepath.Join(syn, "qos.hcl"), []byte(strings.Replace(string(b), `trust = "dscp"`, `trust = "dscp`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCmd(t, "validate", "-no-color", syn)
	if code != 1 || !regexp.MustCompile(`qos\.hcl:\d+:\d+`).MatchString(stderr) {
		t.Errorf("syntax error: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestInspectTextFeatures: inspect -text shows the features beyond the
// core as the intent says them, and a probability left to the vendor as
// such (not a number).
func TestInspectTextFeatures(t *testing.T) {
	for _, tt := range []struct {
		device, dir string
		want        []string
	}{
		{"sonic1", "../../golden/features-sonic", []string{"min bandwidth 10%, shape 40G", "at the vendor's default probability", "ecn 300KB–2MB at 0%", "priorities [3]"}},
		{"sonic3", "../../golden/features-sonic", []string{"red drops 100KB–1MB at 100%", "yellow marks 250KB–2MB at 20%"}},
		{"tor1", "../../golden/features-nxos", []string{"trust cos", "names classifier=AZS_SERVICES network_qos=QOS_NETWORK", `cos [3], match all`}},
		{"leaf1", "../../examples/ai-fabric", []string{"ecn 150KB–3000KB at 7% weight 0"}},
	} {
		code, stdout, stderr := runCmd(t, "inspect", "-text", tt.device, tt.dir)
		if code != 0 {
			t.Fatalf("inspect -text %s %s: exit %d\n%s", tt.device, tt.dir, code, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("inspect -text %s lacks %q:\n%s", tt.device, w, stdout)
			}
		}
		if strings.Contains(stdout, "%!") {
			t.Errorf("inspect -text %s has a formatting error:\n%s", tt.device, stdout)
		}
	}
}
