package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/textdiff"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

// fakeImportOS is a vendor only this test registers, with an importer,
// so that the import command's flags, files, report and exit codes are
// tested apart from any real vendor's parser. Its config is one line per
// class ("class NAME id N dscp LIST [lossless]") and per port ("port
// NAME"); its saved files add "!" comment lines, which Saved drops.
const fakeImportOS = "fakeimport"

func init() {
	vendors.Register(vendors.Vendor{
		Name:   fakeImportOS,
		Render: fakeImportRender,
		Dial: func(context.Context, vendors.Target) (vendors.Driver, error) {
			return nil, errors.New("fakeimport devices are read from saved files only")
		},
		Diff:   fakeImportDiff,
		Import: fakeImportParse,
		Saved: func(b []byte) ([]byte, error) {
			var out strings.Builder
			for l := range strings.Lines(string(b)) {
				if !strings.HasPrefix(l, "!") {
					out.WriteString(l)
				}
			}
			return []byte(out.String()), nil
		},
		Ports: inventory.PortNaming{Format: "port%d", Stride: 1, First: 1},
	})
}

func fakeImportRender(d *intent.Device) (*config.Document, error) {
	var b strings.Builder
	for _, c := range d.QoS.Classes {
		var ds []string
		if c.Default {
			ds = append(ds, "default")
		}
		for _, v := range c.DSCP {
			ds = append(ds, strconv.Itoa(v))
		}
		fmt.Fprintf(&b, "class %s id %d dscp %s", c.Name, c.ID, strings.Join(ds, ","))
		if c.Lossless {
			b.WriteString(" lossless")
		}
		b.WriteString("\n")
	}
	for _, p := range d.Ports {
		fmt.Fprintf(&b, "port %s\n", p.Name)
	}
	return &config.Document{Device: d.Name, Format: config.CLI, Text: []byte(b.String())}, nil
}

func fakeImportDiff(device string, running []byte, desired *config.Document) (*vendors.Change, error) {
	c := &vendors.Change{Device: device, Vendor: fakeImportOS, Desired: desired,
		Diff: textdiff.Unified("running", "desired", string(running), string(desired.Text))}
	if c.Diff != "" {
		c.Commands = []string{"replace"}
	}
	return c, nil
}

func fakeImportParse(_ *inventory.Device, running []byte) (*vendors.Imported, error) {
	imp := &vendors.Imported{QoS: &intent.QoS{Trust: "dscp"}}
	n := 0
	for l := range strings.Lines(string(running)) {
		n++
		f := strings.Fields(l)
		switch {
		case len(f) >= 6 && f[0] == "class" && f[2] == "id" && f[4] == "dscp":
			id, err := strconv.Atoi(f[3])
			if err != nil {
				return nil, fmt.Errorf("line %d: id %q", n, f[3])
			}
			c := intent.Class{Name: f[1], ID: id, Lossless: len(f) > 6 && f[6] == "lossless"}
			for _, v := range strings.Split(f[5], ",") {
				if v == "default" {
					c.Default = true
					continue
				}
				d, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("line %d: dscp %q", n, v)
				}
				c.DSCP = append(c.DSCP, d)
			}
			imp.QoS.Classes = append(imp.QoS.Classes, c)
		case len(f) == 2 && f[0] == "port":
			imp.Ports = append(imp.Ports, vendors.ImportedPort{Name: f[1]})
		default:
			imp.Unexpressed = append(imp.Unexpressed, vendors.Unexpressed{Line: n, Text: strings.TrimSpace(l), Reason: "the intent has no such setting"})
		}
	}
	return imp, nil
}

const fakeImportInventory = `device "fi1" {
  vendor   = "fakeimport"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  ports "port1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "fi2" {
  vendor   = "fakeimport"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.2"
  ports "port1-2" {
    speed = "100G"
    cable = "5m"
  }
}
`

const fakeImportRunning = `! saved by hand
class bulk id 0 dscp default
class rdma id 3 dscp 24,26 lossless
port port1
port port2
`

// TestImportCLI: import writes qos.hcl, reports each device, exits 0
// when every device round-trips and 2 when a line cannot be said (at its
// line in the saved file), refuses to overwrite or mix with an intent,
// and the written intent validates and plans to nothing.
func TestImportCLI(t *testing.T) {
	dir := t.TempDir()
	files := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "inventory.hcl"), fakeImportInventory)
	fi1 := filepath.Join(files, "fi1.cfg")
	writeTestFile(t, fi1, fakeImportRunning)
	fi2 := filepath.Join(files, "fi2.cfg")
	writeTestFile(t, fi2, strings.Replace(fakeImportRunning, "24,26", "24,26,28", 1))

	r := cli(t, "import", "-from", "fi1="+fi1, "-from", "fi2="+fi2, dir)
	if r.code != 0 || strings.Count(r.stdout, "round-trips (its plan is empty)") != 2 || !strings.Contains(r.stdout, "2 of 2 devices round-trip") {
		t.Fatalf("import:\n%s", r)
	}
	written, err := os.ReadFile(filepath.Join(dir, "qos.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`qos_profile "qos"`, `device "fi2"`, `dscp = [24, 26, 28]`} {
		if !strings.Contains(string(written), want) {
			t.Errorf("qos.hcl lacks %q:\n%s", want, written)
		}
	}
	if r := cli(t, "validate", dir); r.code != 0 {
		t.Errorf("validate:\n%s", r)
	}

	r = cli(t, "import", "-from", "fi1="+fi1, "-from", "fi2="+fi2, "-o", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "pass -force") {
		t.Errorf("a second import without -force:\n%s", r)
	}

	writeTestFile(t, fi2, fakeImportRunning+"! a comment\nfrobnicate on\n")
	r = cli(t, "import", "-force", "-json", "-from", "fi1="+fi1, "-from", "fi2="+fi2, dir)
	if r.code != 2 {
		t.Fatalf("import with a line the intent cannot say: want exit 2:\n%s", r)
	}
	var doc struct {
		Devices []struct {
			Device      string
			RoundTrips  bool `json:"round_trips"`
			Unexpressed []vendors.Unexpressed
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("-json: %v\n%s", err, r.stdout)
	}
	if len(doc.Devices) != 2 || len(doc.Devices[1].Unexpressed) != 1 || doc.Devices[1].Unexpressed[0].Line != 7 || doc.Devices[1].RoundTrips {
		t.Errorf("fi2 in -json: %+v; want frobnicate at line 7 of the file and no round trip", doc.Devices)
	}
	r = cli(t, "import", "-force", "-from", "fi1="+fi1, "-from", "fi2="+fi2, dir)
	if !strings.Contains(r.stdout, fi2+":7: frobnicate on — the intent has no such setting") {
		t.Errorf("the report does not name the line:\n%s", r)
	}
	if written, _ := os.ReadFile(filepath.Join(dir, "qos.hcl")); !strings.Contains(string(written), "#   line 7: frobnicate on") {
		t.Errorf("qos.hcl does not list the line:\n%s", written)
	}

	writeTestFile(t, filepath.Join(dir, "extra.hcl"), "locals {}\n")
	if r := cli(t, "import", "-force", "-from", "fi1="+fi1, "-from", "fi2="+fi2, dir); r.code != 1 || !strings.Contains(r.stderr, "already holds an intent (extra.hcl)") {
		t.Errorf("import into a directory with an intent:\n%s", r)
	}
}

// TestImportFlags: bad flags fail with exit 1 and say why; -help exits 0
// with examples.
func TestImportFlags(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "inventory.hcl"), fakeImportInventory)
	bad := filepath.Join(t.TempDir(), "bad.hcl")
	writeTestFile(t, bad, "device \"x\" {\n  colour = 1\n}\n")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-from", "fi1", dir}, "want DEVICE=FILE"},
		{[]string{"-from", "nosuch=x.cfg", dir}, "no selected inventory device is named nosuch"},
		{[]string{"-target", "fi1", "-from", "fi1=" + filepath.Join(dir, "missing.cfg"), dir}, "missing.cfg"},
		{[]string{"-target", "nosuch", dir}, "matches no device"},
		{[]string{"-parallelism", "0", dir}, "-parallelism must be at least 1"},
		{[]string{dir, dir}, "want at most one DIR"},
		{[]string{"-o", t.TempDir(), dir}, "differ; give one"},
		{[]string{t.TempDir()}, "cannot read the inventory"},
		{[]string{"-inventory", bad, t.TempDir()}, "Unsupported argument"},
	} {
		r := cli(t, append([]string{"import"}, tt.args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("import %q: want exit 1 and %q:\n%s", tt.args, tt.want, r)
		}
	}
	if r := cli(t, "import", "-help"); r.code != 0 || !strings.Contains(r.stdout, "Examples:") {
		t.Errorf("import -help:\n%s", r)
	}
}

func writeTestFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
