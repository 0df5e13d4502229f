package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

// fakeOS is a fifth vendor that only this test registers, as a vendor's
// own package would: a trivial renderer, an extra render format, an
// in-memory driver, a containerlab kind and a port naming. Registering it
// is all it takes for validate, render and plan to accept its devices
// (TestFakeVendor): nothing in cmd, load, inventory, render or plan names
// a vendor.
const fakeOS = "fakeos"

// fakeRunning is what every fakeos device runs before lossless plans it.
const fakeRunning = "qos class bulk id 0\n"

func init() {
	vendors.Register(vendors.Vendor{
		Name:    fakeOS,
		Render:  fakeRender,
		Formats: map[string]func(*intent.Device) ([]byte, error){"fakejson": fakeJSON},
		Dial: func(context.Context, vendors.Target) (vendors.Driver, error) {
			return &fakeDriver{running: fakeRunning}, nil
		},
		Scope:        "the qos class lines",
		Ports:        inventory.PortNaming{Format: "port%d", Stride: 1, First: 1},
		Containerlab: []string{"fakeos-vm"},
	})
}

// fakeRender writes one line per class and one per port.
func fakeRender(d *intent.Device) (*config.Document, error) {
	var b strings.Builder
	for _, c := range d.QoS.Classes {
		fmt.Fprintf(&b, "qos class %s id %d\n", c.Name, c.ID)
	}
	for _, p := range d.Ports {
		fmt.Fprintf(&b, "port %s speed %d\n", p.Name, p.Speed)
	}
	return &config.Document{Device: d.Name, Format: config.CLI, Text: []byte(b.String())}, nil
}

func fakeJSON(d *intent.Device) ([]byte, error) {
	return fmt.Appendf(nil, "{\"device\": %q}\n", d.Name), nil
}

// fakeDriver is a device held in memory.
type fakeDriver struct{ running string }

func (f *fakeDriver) Running(context.Context) ([]byte, error) { return []byte(f.running), nil }

func (f *fakeDriver) Diff(running []byte, desired *config.Document) (*vendors.Change, error) {
	ch := &vendors.Change{Device: desired.Device, Vendor: fakeOS, Scope: "the qos class lines", Desired: desired,
		Diff: textdiff.Unified("running", "desired", string(running), string(desired.Text))}
	have := map[string]bool{}
	for l := range strings.Lines(string(running)) {
		have[l] = true
	}
	for l := range strings.Lines(string(desired.Text)) {
		if !have[l] {
			ch.Commands = append(ch.Commands, strings.TrimSuffix(l, "\n"))
		}
	}
	return ch, nil
}

func (f *fakeDriver) Apply(_ context.Context, c *vendors.Change, _ vendors.ApplyOptions) vendors.Result {
	f.running = string(c.Desired.Text)
	return vendors.Result{Device: c.Device, Applied: true}
}

func (f *fakeDriver) Close() error { return nil }

const fakeIntent = `qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
  }
}

buffer_profile "b" {
  headroom = "auto"
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.b
}
`

const fakeInventory = `credentials "ops" {
  username_env = "FAKE_USER"
  password_env = "FAKE_PASSWORD"
}

device "fk1" {
  vendor      = "fakeos"
  platform    = "Arista-7060CX-32S"
  address     = "192.0.2.1"
  credentials = credentials.ops
  ports "port1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "fk2" {
  vendor      = "fakeos"
  platform    = "Arista-7060CX-32S"
  address     = "192.0.2.2"
  credentials = credentials.ops
  ports "port1-2" {
    speed = "100G"
    cable = "5m"
  }
}

link {
  a = "fk1:port1"
  b = "fk2:port1"
}
`

const fakeClab = `name: fake
topology:
  defaults:
    labels:
      lossless.platform: Arista-7060CX-32S
      lossless.speed: 100G
  nodes:
    fk1:
      kind: fakeos-vm
      mgmt-ipv4: 172.20.20.11
    fk2:
      kind: fakeos-vm
      mgmt-ipv4: 172.20.20.12
  links:
    - endpoints: ["fk1:eth2", "fk2:eth2"]
`

// TestFakeVendor: a fabric of the registered-only fakeos vendor
// validates (also from a containerlab topology, its kind mapped by the
// registry), renders natively and in its own format, and plans through
// the fleet runner with its in-memory driver.
func TestFakeVendor(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"intent.hcl": fakeIntent, "inventory.hcl": fakeInventory, "lab.clab.yml": fakeClab} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("FAKE_USER", "ops")
	t.Setenv("FAKE_PASSWORD", "pw")

	if r := cli(t, "validate", dir); r.code != 0 || !strings.Contains(r.stdout, "The intent is valid: 2 devices, 4 ports.") {
		t.Errorf("validate:\n%s", r)
	}
	if r := cli(t, "validate", "-inventory", filepath.Join(dir, "lab.clab.yml"), dir); r.code != 0 || !strings.Contains(r.stdout, "2 devices, 2 ports") {
		t.Errorf("validate a containerlab topology:\n%s", r)
	}
	if r := cli(t, "inspect", "fk1", dir); r.code != 0 || !strings.Contains(r.stdout, `"vendor": "fakeos"`) {
		t.Errorf("inspect:\n%s", r)
	}
	want := "qos class bulk id 0\nqos class rdma id 3\nport port1 speed 100000000000\nport port2 speed 100000000000\n"
	if r := cli(t, "render", "-device", "fk1", dir); r.code != 0 || r.stdout != want {
		t.Errorf("render, want stdout %q:\n%s", want, r)
	}
	if r := cli(t, "render", "-format", "fakejson", "-device", "fk2", dir); r.code != 0 || r.stdout != "{\"device\": \"fk2\"}\n" {
		t.Errorf("render -format fakejson:\n%s", r)
	}
	// The in-memory driver speaks no SSH: there is no host key to check.
	r := cli(t, "plan", "-detailed-exitcode", "-insecure-ignore-host-key", dir)
	if r.code != 2 {
		t.Fatalf("plan -detailed-exitcode: want exit 2 (changes):\n%s", r)
	}
	for _, s := range []string{"fk1", "fk2", "qos class rdma id 3", "port port1 speed 100000000000"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("plan lacks %q:\n%s", s, r)
		}
	}
	if r := cli(t, "plan", "-target", "fk2", "-json", "-insecure-ignore-host-key", dir); r.code != 0 || strings.Contains(r.stdout, `"fk1"`) || !strings.Contains(r.stdout, `"fk2"`) {
		t.Errorf("plan -target fk2:\n%s", r)
	}
	if r := cli(t, "plan", "-lab", dir); r.code != 1 || !strings.Contains(r.stderr, "the lab emulates no fakeos device") {
		t.Errorf("plan -lab of a vendor the lab does not emulate:\n%s", r)
	}
}
