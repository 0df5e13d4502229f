package plan_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	_ "github.com/lossless-net/lossless/internal/lab/eos"
	gnmitarget "github.com/lossless-net/lossless/internal/lab/gnmi"
	_ "github.com/lossless-net/lossless/internal/lab/sonic"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/plan/plantest"
	"github.com/lossless-net/lossless/vendors"
	eosdrv "github.com/lossless-net/lossless/vendors/eos"
	sonicdrv "github.com/lossless-net/lossless/vendors/sonic"
)

// labDevice is one lab device of a fleet: over gNMI on a lab target of
// its own, or over SSH as a lab node.
type labDevice struct {
	name, vendor string
	dev          device.Device
	target       *gnmitarget.Target // nil over SSH
}

// gnmiFleet is labFleet2 over gNMI.
func gnmiFleet(tb testing.TB, nEOS, nSONiC int, latency time.Duration) ([]plan.Device, map[string]*labDevice, string) {
	return labFleet2(tb, "gnmi", nEOS, nSONiC, latency)
}

// labFleet2 starts nEOS EOS and nSONiC SONiC lab devices reachable over
// transport ("gnmi": each on a lab gNMI target of its own, one CA for all,
// TLS, credentials; "ssh": lab nodes), with latency before every reply,
// and loads golden/canonical's shared profile for them. Each device is
// then seeded with its vendor's lab seed for its own rendering (stale
// values, extra config, config outside the scope). It returns the devices,
// the lab devices by name and the CA file (gNMI).
func labFleet2(tb testing.TB, transport string, nEOS, nSONiC int, latency time.Duration) ([]plan.Device, map[string]*labDevice, string) {
	tb.Helper()
	dir := tb.TempDir()
	// golden/canonical's shared profile, for every device (its per-device
	// overrides name devices this fleet does not have).
	intent, err := os.ReadFile("../../golden/canonical/intent.hcl")
	if err != nil {
		tb.Fatal(err)
	}
	if i := bytes.Index(intent, []byte("  # reference/nxos.md §1: CNP")); i > 0 {
		intent = append(intent[:i:i], []byte("}\n")...)
	}
	if err := os.WriteFile(filepath.Join(dir, "intent.hcl"), intent, 0o644); err != nil {
		tb.Fatal(err)
	}
	blocks := map[string]string{
		"eos":   "  platform = \"DCS-7060CX-32S\"\n  ports \"Ethernet1-2\" {\n    speed = \"100G\"\n    cable = \"5m\"\n  }\n",
		"sonic": "  platform = \"Arista-7060CX-32S\"\n  ports \"Ethernet0,Ethernet4\" {\n    speed = \"100G\"\n    cable = \"5m\"\n  }\n",
	}
	var inv strings.Builder
	var caFile string
	var ca *gnmitarget.CA
	var l *lab.Lab
	kh := filepath.Join(dir, "known_hosts")
	if transport == "gnmi" {
		if ca, err = gnmitarget.NewCA(); err != nil {
			tb.Fatal(err)
		}
		caFile = filepath.Join(dir, "ca.pem")
		if err := os.WriteFile(caFile, ca.CertPEM, 0o600); err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(&inv, "credentials \"lab\" {\n  username_env = \"U\"\n  password_env = \"P\"\n  tls_ca = %q\n}\n", caFile)
	} else {
		if l, err = lab.New(lab.WithCredentials("ops", "bench-pw")); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { _ = l.Close() })
		fmt.Fprintf(&inv, "credentials \"lab\" {\n  username_env = \"U\"\n  password_env = \"P\"\n  known_hosts = %q\n}\n", kh)
	}
	served := map[string]*labDevice{}
	add := func(vendor, name string) {
		d := &labDevice{name: name, vendor: vendor}
		var port string
		if transport == "gnmi" {
			kind, _ := device.Lookup(vendor)
			if d.dev, err = kind.New(name, nil); err != nil {
				tb.Fatal(err)
			}
			if d.target, err = gnmitarget.New(gnmitarget.WithCA(ca), gnmitarget.WithCredentials("ops", "bench-pw")); err != nil {
				tb.Fatal(err)
			}
			if err := d.target.Add(name, d.dev, &device.Faults{Latency: latency}); err != nil {
				tb.Fatal(err)
			}
			if err := d.target.Start(tb.Context()); err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { _ = d.target.Close() })
			_, port, _ = strings.Cut(d.target.Addr(), ":")
		} else {
			n, err := l.Add(vendor, name, nil)
			if err != nil {
				tb.Fatal(err)
			}
			n.Faults().Update(func(f *device.Faults) { f.Latency = latency })
			d.dev, port = n.Device(), fmt.Sprint(n.Port())
		}
		served[name] = d
		fmt.Fprintf(&inv, "device %q {\n  vendor = %q\n  address = \"127.0.0.1\"\n  port = %s\n  transport = %q\n  credentials = credentials.lab\n  roles = [\"leaf\"]\n%s}\n",
			name, vendor, port, transport, blocks[vendor])
	}
	for i := range nEOS {
		add("eos", fmt.Sprintf("eos%03d", i))
	}
	for i := range nSONiC {
		add("sonic", fmt.Sprintf("sonic%03d", i))
	}
	if l != nil {
		if err := l.WriteKnownHosts(kh); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte(inv.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	env := map[string]string{"U": "ops", "P": "bench-pw"}
	devs := plantest.Load(tb, dir, env)
	seeds := map[string]func([]byte) []byte{"eos": eosdrv.LabSeed, "sonic": sonicdrv.LabSeed}
	for _, d := range devs {
		s := served[d.Intent.Name]
		v, _ := vendors.Lookup(s.vendor)
		doc, err := v.Render(d.Intent)
		if err != nil {
			tb.Fatal(err)
		}
		if err := s.dev.(device.Checkpointer).Restore(seeds[s.vendor](doc.Text)); err != nil {
			tb.Fatal(err)
		}
	}
	return devs, served, caFile
}

// The plan/apply behaviour of the SSH fleet, over gNMI: a plan of stale
// SONiC and EOS devices, a saved plan applied with a device changed since
// (refused as stale, the other applied), a fresh apply with
// -confirm-timeout that converges, and an empty plan afterwards; no
// output carries the password.
func TestGNMIFleet(t *testing.T) {
	devs, served, _ := gnmiFleet(t, 1, 1, 0)
	ctx := t.Context()
	p, err := plan.Make(ctx, devs, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Counts(); c.Change != 2 || c.Failed != 0 {
		t.Fatalf("plan: %s; first error: %s", c, firstErr(p))
	}
	var text bytes.Buffer
	p.WriteText(&text)
	for _, want := range []string{" sonic-db:/CONFIG_DB/localhost/", "random-detect ecn"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("plan text lacks %q:\n%s", want, text.String())
		}
	}
	js, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"openconfig":{`) {
		t.Errorf("plan -json has no OpenConfig view of the EOS change")
	}
	if strings.Contains(text.String()+string(js), "bench-pw") {
		t.Error("the plan shows the password")
	}
	path := filepath.Join(t.TempDir(), "p.plan")
	if err := plan.Save(path, p); err != nil {
		t.Fatal(err)
	}
	saved, err := plan.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Someone changes the SONiC device between plan and apply.
	if err := served["sonic000"].dev.(device.ConfigDB).Patch([]byte(`[{"op":"add","path":"/PORT_QOS_MAP/Ethernet0/pfc_enable","value":"4"}]`)); err != nil {
		t.Fatal(err)
	}
	rs, err := plan.Apply(ctx, devs, saved, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		switch r.Device {
		case "sonic000":
			if !errors.Is(r.Err, plan.ErrStale) {
				t.Errorf("sonic000: %v, want a stale-plan error", r.Err)
			}
		default:
			if r.Err != nil || !r.Applied {
				t.Errorf("%s: %+v", r.Device, r.Result)
			}
		}
	}
	rs, err = plan.Apply(ctx, devs, nil, plan.Options{ConfirmTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if c := plan.ResultCounts(rs); c.Change != 1 || c.Unchanged != 1 || c.Failed != 0 {
		t.Errorf("fresh apply: %s", c)
	}
	p, err = plan.Make(ctx, devs, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Counts(); c.Unchanged != 2 {
		t.Errorf("plan after apply: %s; first error %s", c, firstErr(p))
	}
}

// buildGnmiCli builds gnmi_cli, the reference client of openconfig/gnmi.
func buildGnmiCli(t *testing.T) string {
	t.Helper()
	// go test puts its own GOROOT/bin first on the test's PATH.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("cannot build gnmi_cli: no go command (%v)", err)
	}
	bin := filepath.Join(t.TempDir(), "gnmi_cli")
	if out, err := exec.CommandContext(t.Context(), goCmd, "build", "-o", bin, "github.com/openconfig/gnmi/cmd/gnmi_cli").CombinedOutput(); err != nil {
		t.Fatalf("go build gnmi_cli: %v\n%s", err, out)
	}
	return bin
}

// gnmiCliGet runs gnmi_cli -get with a GetRequest in text form and parses
// its answer.
func gnmiCliGet(t *testing.T, bin, addr, ca, req string) *gpb.GetResponse {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), bin, "-address", addr, "-ca_crt", ca, "-with_user_pass", "-timeout", "20s", "-logtostderr", "-get", "-proto", req)
	cmd.Env = append(os.Environ(), "GNMI_USER=ops", "GNMI_PASS=bench-pw", "TMPDIR="+dir)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("gnmi_cli -get: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	resp := &gpb.GetResponse{}
	if err := prototext.Unmarshal(out.Bytes(), resp); err != nil {
		t.Fatalf("parse gnmi_cli output: %v\n%s", err, out.String())
	}
	return resp
}

// What lossless pushed over gNMI, read back by gnmi_cli (a client lossless
// does not share code with), equals the rendering: every CONFIG_DB table
// of the SONiC rendering, key for key, and an EOS running config that
// leaves nothing to change.
func TestGnmiCliReadsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gnmi_cli; skipped in -short")
	}
	bin := buildGnmiCli(t)
	devs, served, ca := gnmiFleet(t, 1, 1, 0)
	ctx := t.Context()
	rs, err := plan.Apply(ctx, devs, nil, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Err != nil || !r.Applied {
			t.Fatalf("%s: %+v", r.Device, r.Result)
		}
		d := served[r.Device]
		switch d.vendor {
		case "sonic":
			for table, keys := range r.Change.Desired.DB {
				if table == "PORT" || table == "BUFFER_POOL" {
					continue // never pushed (the driver's Disruptive says so)
				}
				resp := gnmiCliGet(t, bin, d.target.Addr(), ca, fmt.Sprintf(`encoding: JSON_IETF
					path: <origin: "sonic-db" elem: <name: "CONFIG_DB"> elem: <name: "localhost"> elem: <name: %q>>`, table))
				var got map[string]map[string]string
				if err := json.Unmarshal(resp.GetNotification()[0].GetUpdate()[0].GetVal().GetJsonIetfVal(), &got); err != nil {
					t.Fatal(err)
				}
				for k, fields := range keys {
					for f, v := range fields {
						if got[k][f] != v {
							t.Errorf("%s %s|%s %s = %q, rendering %q", r.Device, table, k, f, got[k][f], v)
						}
					}
				}
			}
		case "eos":
			resp := gnmiCliGet(t, bin, d.target.Addr(), ca, `encoding: ASCII
				path: <origin: "cli" elem: <name: "show running-config">>`)
			text := resp.GetNotification()[0].GetUpdate()[0].GetVal().GetAsciiVal()
			left, err := eosdrv.Diff(r.Device, []byte(text), r.Change.Desired)
			if err != nil {
				t.Fatal(err)
			}
			if !left.Empty() {
				t.Errorf("%s: gnmi_cli's running config differs from the rendering:\n%s", r.Device, left.Diff)
			}
		}
	}
}

// BenchmarkApply applies golden/canonical's shared profile to n lab
// devices (half EOS, half SONiC; seeded stale, 5 ms of latency before
// every reply) at -parallelism 100, over gNMI (one lab target per device)
// and, for the same fabric, over SSH. Each iteration reseeds the devices
// (untimed), so every apply changes every device.
func BenchmarkApply(b *testing.B) {
	for _, transport := range []string{"gnmi", "ssh"} {
		for _, n := range []int{1, 500} {
			b.Run(fmt.Sprintf("%s/%d", transport, n), func(b *testing.B) {
				nEOS := n / 2
				devs, served, _ := labFleet2(b, transport, nEOS, n-nEOS, 5*time.Millisecond)
				initial := map[string][]byte{}
				for name, d := range served {
					initial[name] = d.dev.(device.Checkpointer).Checkpoint()
				}
				for b.Loop() {
					b.StopTimer()
					for name, d := range served {
						if err := d.dev.(device.Checkpointer).Restore(initial[name]); err != nil {
							b.Fatal(err)
						}
					}
					b.StartTimer()
					rs, err := plan.Apply(b.Context(), devs, nil, plan.Options{Parallelism: 100})
					if err != nil {
						b.Fatal(err)
					}
					if c := plan.ResultCounts(rs); c.Change != n {
						b.Fatalf("%s; first error: %v", c, firstResultErr(rs))
					}
				}
			})
		}
	}
}

func firstResultErr(rs []plan.Result) error {
	for _, r := range rs {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// recordingClock records the durations of the commit timers armed on a
// lab target, and never fires them.
type recordingClock struct {
	mu sync.Mutex
	ds []time.Duration
}

type stopped struct{}

func (stopped) Stop() bool { return true }

func (c *recordingClock) AfterFunc(d time.Duration, _ func()) gnmitarget.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ds = append(c.ds, d)
	return stopped{}
}

// apply -confirm-timeout becomes the rollback_duration of the gNMI
// Commit Confirmed extension, for SONiC and EOS alike, and the default
// when it is unset.
func TestGNMIConfirmTimeout(t *testing.T) {
	for _, tc := range []struct {
		timeout, want time.Duration
	}{{45 * time.Second, 45 * time.Second}, {0, vendors.DefaultConfirmTimeout}} {
		devs, served, _ := gnmiFleet(t, 1, 1, 0)
		clocks := map[string]*recordingClock{}
		// Serve each device again on a target with a recording clock.
		for i, d := range devs {
			clock := &recordingClock{}
			tg, err := gnmitarget.New(gnmitarget.WithCredentials("ops", "bench-pw"), gnmitarget.WithClock(clock))
			if err != nil {
				t.Fatal(err)
			}
			if err := tg.Add(d.Intent.Name, served[d.Intent.Name].dev, nil); err != nil {
				t.Fatal(err)
			}
			if err := tg.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = tg.Close() })
			caFile := filepath.Join(t.TempDir(), "ca.pem")
			if err := os.WriteFile(caFile, tg.CA().CertPEM, 0o600); err != nil {
				t.Fatal(err)
			}
			_, port, _ := strings.Cut(tg.Addr(), ":")
			devs[i].Target.Port, _ = strconv.Atoi(port)
			devs[i].Target.Login.TLSCA = caFile
			clocks[d.Intent.Name] = clock
		}
		rs, err := plan.Apply(t.Context(), devs, nil, plan.Options{ConfirmTimeout: tc.timeout})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Err != nil || !r.Applied {
				t.Fatalf("%s: %+v", r.Device, r.Result)
			}
			c := clocks[r.Device]
			c.mu.Lock()
			if len(c.ds) != 1 || c.ds[0] != tc.want {
				t.Errorf("%s (-confirm-timeout %s): commit timers %v, want [%s]", r.Device, tc.timeout, c.ds, tc.want)
			}
			c.mu.Unlock()
		}
	}
}

// NX-OS and CloudEngine over gNMI are refused when the inventory is
// loaded, with the reason and the supported transport, at the device.
func TestGNMIRefusedVendors(t *testing.T) {
	dir := t.TempDir()
	intent, err := os.ReadFile("../../cmd/lossless/testdata/plan/intent.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "intent.hcl"), intent, 0o644); err != nil {
		t.Fatal(err)
	}
	inv := `credentials "lab" {
  username_env = "U"
  password_env = "P"
}
device "nx1" {
  vendor      = "nxos"
  platform    = "N9K-C93600CD-GX"
  address     = "192.0.2.1"
  transport   = "gnmi"
  credentials = credentials.lab
  ports "Ethernet1/1-2" {
    speed = "100G"
    cable = "5m"
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte(inv), 0o644); err != nil {
		t.Fatal(err)
	}
	f, diags := load.Fabric(dir, load.Options{})
	if f.Devices != nil || len(diags) != 1 {
		t.Fatalf("devs %v, diags %v", f.Devices, diags)
	}
	d := diags[0]
	if diag.RuleOf(d) != load.RuleTransport || d.Subject == nil || !strings.HasSuffix(d.Subject.Filename, "inventory.hcl") || d.Subject.Start.Line != 5 {
		t.Errorf("diagnostic %v: rule %s at %v", d, diag.RuleOf(d), d.Subject)
	}
	for _, want := range []string{`"nx1"`, "Cisco", "OpenConfig", `transport = "ssh"`} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("detail %q lacks %q", d.Detail, want)
		}
	}
}
