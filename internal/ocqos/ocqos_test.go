package ocqos_test

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openconfig/ygot/ygot"

	"github.com/lossless-net/lossless/internal/ocqos"
	"github.com/lossless-net/lossless/internal/sonicyang/yangtest"
)

// ecnDevice is a small OpenConfig QoS tree: one ECN profile on one queue.
func ecnDevice() *ocqos.Device {
	d := &ocqos.Device{}
	q := d.GetOrCreateQos()
	u := q.GetOrCreateQueueManagementProfile("ecn").GetOrCreateWred().GetOrCreateUniform()
	u.EnableEcn = ygot.Bool(true)
	u.MinThreshold = ygot.Uint64(153600)
	u.MaxThreshold = ygot.Uint64(3072000)
	u.MaxDropProbabilityPercent = ygot.Uint8(100)
	q.GetOrCreateInterface("Ethernet1").GetOrCreateOutput().GetOrCreateQueue("3").QueueManagementProfile = ygot.String("ecn")
	q.GetOrCreateQueue("3").QueueId = ygot.Uint8(3)
	return d
}

// RFC 7951 JSON out of the structs reads back into equal structs: what the
// lab emits, the driver decodes.
func TestJSONRoundTrip(t *testing.T) {
	want := ecnDevice()
	js, err := ygot.EmitJSON(want, &ygot.EmitJSONConfig{Format: ygot.RFC7951, RFC7951Config: &ygot.RFC7951JSONConfig{AppendModuleName: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, `"openconfig-qos:qos"`) || !strings.Contains(js, `"max-threshold": "3072000"`) {
		t.Errorf("JSON lacks the module-qualified root or the uint64-as-string threshold:\n%s", js)
	}
	got := &ocqos.Device{}
	if err := ocqos.Unmarshal([]byte(js), got); err != nil {
		t.Fatal(err)
	}
	n, err := ygot.Diff(want, got)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.GetUpdate())+len(n.GetDelete()) != 0 {
		t.Errorf("round trip differs: %v", n)
	}
}

// The schema's ranges are enforced, by Validate and by Unmarshal: a
// probability over 100 percent and a queue-id beyond uint8 are refused.
func TestValidate(t *testing.T) {
	if err := ecnDevice().Validate(); err != nil {
		t.Fatalf("valid tree refused: %v", err)
	}
	bad := ecnDevice()
	bad.Qos.QueueManagementProfile["ecn"].Wred.Uniform.MaxDropProbabilityPercent = ygot.Uint8(101)
	if err := bad.Validate(); err == nil {
		t.Error("max-drop-probability-percent 101 accepted")
	}
	if err := ocqos.Unmarshal([]byte(`{"openconfig-qos:qos":{"queues":{"queue":[{"name":"3","config":{"name":"3","queue-id":300}}]}}}`), &ocqos.Device{}); err == nil {
		t.Error("queue-id 300 (uint8) accepted by Unmarshal")
	}
}

// yangDir returns the OpenConfig YANG folder: $LOSSLESS_YANG_DIR/openconfig
// or shared/yang/openconfig beside the repository. Without it the test is
// skipped, except with CI=true.
func yangDir(t *testing.T) string {
	t.Helper()
	var cands []string
	if d := os.Getenv("LOSSLESS_YANG_DIR"); d != "" {
		cands = append(cands, filepath.Join(d, "openconfig"))
	} else {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		for d := wd; filepath.Dir(d) != d; d = filepath.Dir(d) {
			cands = append(cands, filepath.Join(d, "shared", "yang", "openconfig"))
		}
	}
	for _, c := range cands {
		if _, err := os.Stat(filepath.Join(c, "openconfig-qos.yang")); err == nil {
			return c
		}
	}
	why := "no OpenConfig YANG folder (set LOSSLESS_YANG_DIR or check out shared/ beside the repository)"
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s; CI=true requires it", why)
	}
	t.Skip(why)
	return ""
}

// The committed ocqos.go is what the checked-in go:generate command makes
// from the shared YANG: the command in doc.go is run as written, from a
// directory where its relative paths reach the YANG folder.
func TestGeneratedUpToDate(t *testing.T) {
	yangtest.GeneratedCheck(t)
	yang := yangDir(t)
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, l := range strings.Split(string(doc), "\n") {
		if rest, ok := strings.CutPrefix(l, "//go:generate go run -trimpath github.com/openconfig/ygot/generator "); ok {
			args = strings.Fields(rest)
		}
	}
	if len(args) == 0 {
		t.Fatal("doc.go has no go:generate line running the ygot generator")
	}
	// go test puts its own GOROOT/bin first on the test's PATH.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("cannot build the generator: %v", err)
	}
	tmp := t.TempDir()
	gen := filepath.Join(tmp, "generator")
	if out, err := exec.CommandContext(t.Context(), goCmd, "build", "-trimpath", "-o", gen, "github.com/openconfig/ygot/generator").CombinedOutput(); err != nil {
		t.Fatalf("build generator: %v\n%s", err, out)
	}
	// ../../../shared/yang/openconfig from tmp/repo/internal/ocqos.
	if err := os.MkdirAll(filepath.Join(tmp, "shared", "yang"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(yang, filepath.Join(tmp, "shared", "yang", "openconfig")); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(tmp, "repo", "internal", "ocqos")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), gen, args...)
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join(work, "ocqos.go"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := format.Source(raw)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("ocqos.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("ocqos.go is stale: run `go generate ./internal/ocqos` and commit the result")
	}
}
