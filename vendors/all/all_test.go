package all_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/lossless-net/lossless/internal/lab/all"
	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all"
)

// folders returns the folders of dir holding non-test Go files, but all,
// testdata and the …test test-support folders; with mark, only those
// whose Go files contain it.
func folders(t *testing.T, dir, mark string) []string {
	t.Helper()
	dirs, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		// A folder named …test (vendortest) is test support, not a
		// driver: only tests import it.
		if !d.IsDir() || d.Name() == "all" || d.Name() == "testdata" || strings.HasSuffix(d.Name(), "test") {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, d.Name(), "*.go"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(f, "_test.go") && strings.Contains(string(src), mark) {
				out = append(out, d.Name())
				break
			}
		}
	}
	return out
}

// TestEveryFolderImported: every vendor folder is in all.go and every lab
// personality in internal/lab/all, so a new vendor cannot be forgotten
// (run go generate ./vendors/all).
func TestEveryFolderImported(t *testing.T) {
	for _, list := range []struct{ file, dir, under, mark string }{
		{"all.go", "..", "vendors", ""},
		{"../../internal/lab/all/all.go", "../../internal/lab", "internal/lab", "device.Register("},
	} {
		src, err := os.ReadFile(list.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range folders(t, list.dir, list.mark) {
			if !strings.Contains(string(src), `"github.com/lossless-net/lossless/`+list.under+"/"+d+`"`) {
				t.Errorf("%s/%s is not imported by %s; run go generate ./vendors/all", list.under, d, list.file)
			}
		}
	}
}

// TestEveryRendererHasAVendor: a renderer reaches the CLI only through the
// vendor package of the same folder name, which registers it.
func TestEveryRendererHasAVendor(t *testing.T) {
	drivers := folders(t, "..", "")
	for _, r := range folders(t, "../../renderers", "") {
		if !slices.Contains(drivers, r) {
			t.Errorf("renderers/%s has no vendors/%s to register it", r, r)
		}
	}
}

// TestRegistered: vendors are registered, and the lab kind a vendor names
// is one the lab registers.
func TestRegistered(t *testing.T) {
	if len(vendors.Names()) == 0 {
		t.Fatal("no vendor registered")
	}
	for _, n := range vendors.Names() {
		v, _ := vendors.Lookup(n)
		if v.LabKind == "" {
			continue
		}
		if _, ok := device.Lookup(v.LabKind); !ok {
			t.Errorf("vendor %q is emulated by lab kind %q, which the lab does not register (registered: %v)", n, v.LabKind, device.Kinds())
		}
	}
}
