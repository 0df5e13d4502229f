package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/vendors"
)

// TestImportLabSeeded: for every vendor the lab emulates, import from a
// lab device seeded with the vendor's realistic running config (LabSeed
// of the canonical rendering: stale values, an extra class, config
// outside the scope) writes an intent whose plan against that device is
// empty, and the intent validates.
func TestImportLabSeeded(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the lab")
	}
	canon := filepath.Join("..", "..", "golden", "canonical")
	loaded, diags := load.Fabric(canon, load.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	seen := map[string]bool{}
	for _, d := range loaded.Devices {
		v, _ := vendors.Lookup(d.Vendor)
		if seen[d.Vendor] || v.LabKind == "" || v.LabSeed == nil {
			continue
		}
		seen[d.Vendor] = true
		t.Run(d.Vendor, func(t *testing.T) {
			if v.Import == nil {
				t.Fatalf("vendor %s has no importer", d.Vendor)
			}
			doc, err := v.Render(d)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			copyFile(t, filepath.Join(canon, "inventory.hcl"), filepath.Join(dir, "inventory.hcl"))
			seed := filepath.Join(t.TempDir(), "seed")
			if err := os.WriteFile(seed, v.LabSeed(doc.Text), 0o644); err != nil {
				t.Fatal(err)
			}
			r := cli(t, "import", "-lab", "-target", d.Name, "-from", d.Name+"="+seed, dir)
			if r.code == 1 || !strings.Contains(r.stdout, d.Name+" ("+d.Vendor) || !strings.Contains(r.stdout, "round-trips (its plan is empty)") {
				t.Fatalf("import:\n%s", r)
			}
			if r := cli(t, "validate", dir); r.code != 0 {
				t.Errorf("validate of the imported intent:\n%s", r)
			}
			// plan itself, against the lab seeded with the same config.
			if r := cli(t, "plan", "-lab", "-lab-seed", d.Name+"="+seed, "-target", d.Name, "-detailed-exitcode", dir); r.code != 0 || !strings.Contains(r.stdout, "0 to change, 1 unchanged, 0 failed") {
				t.Errorf("plan of the imported intent against the seeded lab:\n%s", r)
			}
		})
	}
	if len(seen) < 4 {
		t.Errorf("only %d vendors tried: %v", len(seen), seen)
	}
}

// TestImportRealWorld imports every fixture of testdata/realworld/<vendor>/
// (real switches' configs, each with its inventory and source) from the
// lab seeded with it: one whose unexpressed.txt is empty round-trips,
// exits 0, and `plan -lab -lab-seed` of the written intent against the
// lab seeded with the fixture shows 0 changes; every fixture writes an
// intent that validates, and its report lists as many lines as its
// unexpressed.txt.
func TestImportRealWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the lab")
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "realworld", "*", "*", "inventory.hcl"))
	perVendor := map[string]int{}
	for _, inv := range dirs {
		fx := filepath.Dir(inv)
		folder := filepath.Base(filepath.Dir(fx))
		if inv, diags := load.Inventory(inv); !diags.HasErrors() && len(inv.Devices) == 1 {
			perVendor[inv.Devices[0].Vendor]++ // counted whether or not -run selects it
		}
		t.Run(folder+"/"+filepath.Base(fx), func(t *testing.T) {
			running := filepath.Join(fx, "running.cfg")
			if _, err := os.Stat(running); err != nil {
				running = filepath.Join(fx, "config_db.json")
			}
			invLoaded, diags := load.Inventory(inv)
			if diags.HasErrors() || len(invLoaded.Devices) != 1 {
				t.Fatalf("fixture inventory must hold one device: %v", diags)
			}
			name := invLoaded.Devices[0].Name
			dir := t.TempDir()
			copyFile(t, inv, filepath.Join(dir, "inventory.hcl"))
			r := cli(t, "import", "-lab", "-from", name+"="+running, dir)
			unexp, _ := os.ReadFile(filepath.Join(fx, "unexpressed.txt"))
			want := strings.TrimSpace(string(unexp))
			switch {
			case r.code == 1:
				t.Fatalf("import:\n%s", r)
			case want == "" && (r.code != 0 || !strings.Contains(r.stdout, "round-trips (its plan is empty)")):
				t.Errorf("nothing is unexpressed, so the import must round-trip:\n%s", r)
			case want != "" && r.code != 2:
				t.Errorf("unexpressed.txt lists lines, so import must exit 2:\n%s", r)
			}
			// The vendor's own TestRealWorld compares each entry; here
			// the report must list as many.
			entries := 0
			for _, l := range strings.Split(want, "\n") {
				if n, _, ok := strings.Cut(l, ": "); ok && n != "" && strings.Trim(n, "0123456789") == "" {
					entries++
				}
			}
			if entries > 0 && !strings.Contains(r.stdout, fmt.Sprintf("not expressed in the intent (%d):", entries)) {
				t.Errorf("unexpressed.txt lists %d lines; the report does not:\n%s", entries, r.stdout)
			}
			if r := cli(t, "validate", dir); r.code != 0 {
				t.Errorf("validate of the imported intent:\n%s", r)
			}
			// A fixture that round-trips plans to nothing with plan
			// itself, against the lab seeded with it.
			if want == "" {
				if r := cli(t, "plan", "-lab", "-lab-seed", name+"="+running, "-detailed-exitcode", dir); r.code != 0 || !strings.Contains(r.stdout, "0 to change, 1 unchanged, 0 failed") {
					t.Errorf("plan of the imported intent against the seeded lab:\n%s", r)
				}
			}
		})
	}
	for _, v := range vendors.Names() {
		if lk, _ := vendors.Lookup(v); lk.LabKind != "" && perVendor[v] < 6 {
			t.Errorf("vendor %s has %d real-world fixtures, want at least 6", v, perVendor[v])
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLabSeedFlags: -lab-seed needs -lab, a selected device and a
// readable file; each mistake is exit 1 with why.
func TestLabSeedFlags(t *testing.T) {
	canon := filepath.Join("..", "..", "golden", "canonical")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-lab-seed", "nxos1=x.cfg", canon}, "-lab-seed needs -lab"},
		{[]string{"-lab", "-lab-seed", "nosuch=x.cfg", canon}, "no selected device is named nosuch"},
		{[]string{"-lab", "-lab-seed", "nxos1", canon}, "want DEVICE=FILE"},
		{[]string{"-lab", "-lab-seed", "nxos1=" + filepath.Join(t.TempDir(), "missing.cfg"), canon}, "missing.cfg"},
	} {
		r := cli(t, append([]string{"plan"}, tt.args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("plan %q: want exit 1 and %q:\n%s", tt.args, tt.want, r)
		}
	}
}
