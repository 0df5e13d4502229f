package inventory

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/internal/diag"
	"github.com/lossless-net/lossless/internal/units"
)

// errorMark is how a fixture line says which diagnostic it must get.
var errorMark = regexp.MustCompile(`# ERROR (LL\d{3}): (.+)$`)

// TestInvalidFixtures loads every file in testdata/invalid and checks that
// the diagnostics are exactly those its "# ERROR LLnnn: Summary" marks
// name: same rule, same summary, same file and line.
func TestInvalidFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			sc := bufio.NewScanner(bytes.NewReader(src))
			for line := 1; sc.Scan(); line++ {
				if m := errorMark.FindStringSubmatch(sc.Text()); m != nil {
					want = append(want, fmt.Sprintf("%s:%d %s %s", path, line, m[1], m[2]))
				}
			}
			if len(want) == 0 {
				t.Fatal("fixture has no # ERROR marks")
			}
			_, diags := Load(path, testVendors)
			var got []string
			for _, d := range diags {
				if d.Subject == nil {
					t.Errorf("diagnostic without a range: %s", d.Error())
					continue
				}
				got = append(got, fmt.Sprintf("%s:%d %s %s", d.Subject.Filename, d.Subject.Start.Line, diag.RuleOf(d), d.Summary))
			}
			slices.Sort(want)
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\nall: %v", diff, diags)
			}
		})
	}
}

// TestLiteralPasswordNeverPrinted checks that no diagnostic and no
// formatting of the loaded credentials reveals a password.
func TestLiteralPasswordNeverPrinted(t *testing.T) {
	for _, path := range []string{"testdata/invalid/literal_password.hcl", "testdata/valid.hcl"} {
		inv, diags := Load(path, testVendors)
		var buf bytes.Buffer
		wr := hcl.NewDiagnosticTextWriter(&buf, inv.Files, 100, false)
		_ = wr.WriteDiagnostics(diags)
		for _, d := range inv.Devices {
			if d.Credentials != nil {
				fmt.Fprintf(&buf, "%v %+v %#v", d.Credentials, *d.Credentials, d.Credentials.Password)
			}
		}
		// Not even the snippet of the LL112 diagnostic shows the value:
		// the file kept for snippets has it masked.
		out := buf.String()
		for _, secret := range []string{"s3cr3t-never-printed", "admin"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s: output reveals %q:\n%s", path, secret, out)
			}
		}
	}
	inv, diags := Load("testdata/valid.hcl", testVendors)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c := inv.Device("spine1").Credentials
	if c == nil || c.Password.Reveal() != "admin" || !c.AllowLiteralPassword {
		t.Fatalf("allowed literal password not kept: %+v", c)
	}
}

// TestLoadValid checks what a user relies on from a valid inventory:
// every field decoded, ports expanded and naturally sorted, links kept.
func TestLoadValid(t *testing.T) {
	inv, diags := Load("testdata/valid.hcl", testVendors)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	leaf := inv.Device("leaf1")
	if leaf == nil {
		t.Fatal("leaf1 missing")
	}
	type dev struct {
		Name, Vendor, Model, Address, Transport, Creds string
		Port                                           int
		Roles, Tags                                    []string
		NPorts                                         int
		First, Last                                    string
		HasPlatform                                    bool
	}
	sum := func(d *Device) dev {
		c := ""
		if d.Credentials != nil {
			c = d.Credentials.Name
		}
		return dev{d.Name, d.Vendor, d.Model, d.Address, d.Transport, c, d.Port, d.Roles, d.Tags, len(d.Ports),
			d.Ports[0].Name, d.Ports[len(d.Ports)-1].Name, d.Platform != nil}
	}
	want := []dev{
		{"leaf1", "nxos", "Arista-7060CX-32S", "192.0.2.11", "ssh", "ops", 22, []string{"leaf"}, []string{"ai", "pod1"}, 64, "Ethernet1/1", "Ethernet1/64", true},
		{"spine1", "sonic", "arista-7060cx-32s", "spine1.lab.example", "ssh", "lab", 2222, []string{"spine"}, nil, 32, "Ethernet0", "Ethernet124", true},
	}
	var got []dev
	for _, d := range inv.Devices {
		got = append(got, sum(d))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
	p := leaf.PortNamed("Ethernet1/40")
	if p == nil || p.Speed != 400*units.Gbps || p.Cable != 30*units.Metre {
		t.Errorf("Ethernet1/40 = %+v, want 400G 30m", p)
	}
	if p := leaf.PortNamed("Ethernet1/10"); p == nil || p.Cable != 3*units.Metre {
		t.Errorf("Ethernet1/10 = %+v, want 3m", p)
	}
	if leaf.Ports[1].Name != "Ethernet1/2" {
		t.Errorf("ports not in natural order: second is %s", leaf.Ports[1].Name)
	}
	if peer, ok := inv.Peer("spine1", "Ethernet0"); !ok || peer != (Endpoint{"leaf1", "Ethernet1/33"}) {
		t.Errorf("peer of spine1:Ethernet0 = %v %v", peer, ok)
	}
	if leaf.VendorRange.Start.Line != 15 || leaf.ModelRange.Start.Line != 16 {
		t.Errorf("vendor/model ranges at lines %d/%d, want 15/16", leaf.VendorRange.Start.Line, leaf.ModelRange.Start.Line)
	}
	if inv.Device("nope") != nil {
		t.Error("Device(nope) found something")
	}
}

// TestUnknownVendorListsValid checks the fix a user is offered.
func TestUnknownVendorListsValid(t *testing.T) {
	_, diags := Load("testdata/invalid/unknown_vendor.hcl", Vendors{Names: []string{"nxos", "eos"}})
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, `"eos" and "nxos"`) {
		t.Fatalf("want the valid vendors listed, got %v", diags)
	}
	_, diags = Load("testdata/invalid/unknown_platform.hcl", testVendors)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, `Did you mean "Arista-7060CX-32S"`) {
		t.Fatalf("want a close platform suggested, got %v", diags)
	}
	for typo, want := range map[string]string{"Z9332F": `"Z9332F-ON"`, "SN470": `"SN4700"`, "N9K-C93600CD-GX2": `"N9K-C93600CD-GX"`} {
		if d := unknownPlatform(typo, hcl.Range{}, hcl.Range{}); !strings.Contains(d.Detail, want) {
			t.Errorf("platform %q: %q does not suggest %s", typo, d.Detail, want)
		}
	}
	_, diags = Load("testdata/invalid/missing_unit.hcl", testVendors)
	if len(diags) < 2 || !strings.Contains(diags[0].Detail+diags[1].Detail, `speed = "400G"`) || !strings.Contains(diags[0].Detail+diags[1].Detail, `cable = "3m"`) {
		t.Fatalf("want the unit suggested, got %v", diags)
	}
}

// TestLoadUnreadable checks a missing file is one diagnostic, not a panic.
func TestLoadUnreadable(t *testing.T) {
	inv, diags := Load("testdata/does-not-exist.hcl", testVendors)
	if inv != nil || len(diags) != 1 || !diags.HasErrors() || diag.RuleOf(diags[0]) != RuleSyntax {
		t.Fatalf("got %v, %v", inv, diags)
	}
}

// TestEveryRuleHasAFixture keeps rules.go and testdata/invalid in step:
// each rule ID declared in rules.go is asserted by at least one fixture.
func TestEveryRuleHasAFixture(t *testing.T) {
	src, err := os.ReadFile("rules.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := regexp.MustCompile(`diag\.Rule = "(LL\d{3})"`).FindAllStringSubmatch(string(src), -1)
	if len(declared) < 20 {
		t.Fatalf("found %d rules in rules.go", len(declared))
	}
	var marks strings.Builder
	files, _ := filepath.Glob("testdata/invalid/*")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		marks.Write(b)
	}
	for _, m := range declared {
		if !strings.Contains(marks.String(), "# ERROR "+m[1]+":") {
			t.Errorf("rule %s has no fixture in testdata/invalid", m[1])
		}
	}
}
