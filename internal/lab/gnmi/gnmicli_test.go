package gnmitarget

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/device"
)

// buildGnmiCli builds gnmi_cli, the reference client of openconfig/gnmi,
// from the module cache into a temporary directory. It skips only when no
// go command can be found to run the build.
func buildGnmiCli(t *testing.T) string {
	t.Helper()
	// go test puts its own GOROOT/bin first on the test's PATH.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("cannot build gnmi_cli: no go command (%v)", err)
	}
	bin := filepath.Join(t.TempDir(), "gnmi_cli")
	cmd := exec.CommandContext(t.Context(), goCmd, "build", "-o", bin, "github.com/openconfig/gnmi/cmd/gnmi_cli")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build gnmi_cli: %v\n%s", err, out)
	}
	return bin
}

// gnmiCli runs gnmi_cli against tg over TLS with the lab CA and the test
// credentials (GNMI_USER/GNMI_PASS with -with_user_pass).
func gnmiCli(t *testing.T, bin string, tg *Target, args ...string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, tg.CA().CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	full := append([]string{"-address", tg.Addr(), "-ca_crt", caFile, "-with_user_pass", "-timeout", "20s", "-logtostderr"}, args...)
	cmd := exec.CommandContext(t.Context(), bin, full...)
	// glog writes files under TMPDIR unless told otherwise; keep them here.
	cmd.Env = append(os.Environ(), "GNMI_USER="+testUser, "GNMI_PASS="+testPass, "TMPDIR="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// The done-when item: a real client, gnmi_cli, runs Capabilities,
// Get and Set against the lab target over TLS, on the real SONiC and EOS
// personalities.
func TestGnmiCli(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gnmi_cli; skipped in -short")
	}
	bin := buildGnmiCli(t)
	sonicDev := realSonic(t)
	sonic := sonicDev.(device.ConfigDB)
	eos := realEOS(t)

	t.Run("sonic-db", func(t *testing.T) {
		tg := startTarget(t, []served{{"sonic1", sonicDev, nil}})
		out, err := gnmiCli(t, bin, tg, "-capabilities")
		if err != nil || !strings.Contains(out, `gNMI_version: "0.10.0"`) || !strings.Contains(out, "JSON_IETF") {
			t.Fatalf("capabilities: %v\n%s", err, out)
		}
		out, err = gnmiCli(t, bin, tg, "-set", "-proto", `
			prefix: <origin: "sonic-db" elem: <name: "CONFIG_DB"> elem: <name: "localhost">>
			update: <path: <elem: <name: "PORT_QOS_MAP"> elem: <name: "Ethernet4">>
			         val: <json_ietf_val: '{"pfc_enable":"3"}'>>`)
		if err != nil || !strings.Contains(out, "op: UPDATE") {
			t.Fatalf("set: %v\n%s", err, out)
		}
		if got := sonic.DB()["PORT_QOS_MAP"]["Ethernet4"]["pfc_enable"]; got != "3" {
			t.Errorf("after gnmi_cli set, pfc_enable = %q, want 3", got)
		}
		out, err = gnmiCli(t, bin, tg, "-get", "-proto", `
			encoding: JSON_IETF
			path: <origin: "sonic-db" elem: <name: "CONFIG_DB"> elem: <name: "localhost"> elem: <name: "PORT_QOS_MAP"> elem: <name: "Ethernet4">>`)
		if err != nil || !strings.Contains(out, `{\"pfc_enable\":\"3\"}`) {
			t.Fatalf("get: %v\n%s", err, out)
		}
		// A YANG violation (a port that does not exist) is refused with
		// SONiC's text and changes nothing.
		before := sonic.DB()
		out, err = gnmiCli(t, bin, tg, "-set", "-proto", `
			update: <path: <origin: "sonic-db" elem: <name: "CONFIG_DB"> elem: <name: "localhost"> elem: <name: "PORT_QOS_MAP"> elem: <name: "Ethernet9999">>
			         val: <json_ietf_val: '{"pfc_enable":"3"}'>>`)
		if err == nil || !strings.Contains(out, "Given patch will produce invalid config") {
			t.Errorf("invalid set: err %v\n%s", err, out)
		}
		if d := cmp.Diff(before, sonic.DB()); d != "" {
			t.Errorf("refused set changed CONFIG_DB (-before +after):\n%s", d)
		}
	})

	t.Run("eos", func(t *testing.T) {
		tg := startTarget(t, []served{{"leaf1", eos, nil}})
		out, err := gnmiCli(t, bin, tg, "-capabilities")
		if err != nil || !strings.Contains(out, `name: "openconfig-qos"`) {
			t.Fatalf("capabilities: %v\n%s", err, out)
		}
		out, err = gnmiCli(t, bin, tg, "-set", "-proto", `
			update: <path: <origin: "cli"> val: <ascii_val: "interface Ethernet1\ntx-queue 3\nbandwidth percent 50\n">>`)
		if err != nil {
			t.Fatalf("set: %v\n%s", err, out)
		}
		out, err = gnmiCli(t, bin, tg, "-get", "-proto", `
			encoding: JSON_IETF
			path: <origin: "openconfig" elem: <name: "qos"> elem: <name: "scheduler-policies">
			       elem: <name: "scheduler-policy" key: <key: "name" value: "Ethernet1">>>`)
		if err != nil || !strings.Contains(out, `\"weight\": \"50\"`) {
			t.Fatalf("get: %v\n%s", err, out)
		}
	})
}
