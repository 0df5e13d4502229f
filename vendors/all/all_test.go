package all_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/renderers"
	"github.com/lossless-net/lossless/vendors"
	_ "github.com/lossless-net/lossless/vendors/all"
)

// TestEveryFolderImported: every vendor folder is in all.go, so a new
// vendor cannot be forgotten (run go generate ./vendors/all).
func TestEveryFolderImported(t *testing.T) {
	src, err := os.ReadFile("all.go")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		// A folder named …test (vendortest) is test support, not a
		// driver: only tests import it.
		if !d.IsDir() || d.Name() == "all" || d.Name() == "testdata" || strings.HasSuffix(d.Name(), "test") {
			continue
		}
		if m, _ := filepath.Glob(filepath.Join("..", d.Name(), "*.go")); len(m) == 0 {
			continue
		}
		if !strings.Contains(string(src), `"github.com/lossless-net/lossless/vendors/`+d.Name()+`"`) {
			t.Errorf("vendors/%s is not imported by all.go; run go generate ./vendors/all", d.Name())
		}
	}
}

// TestRegistered: every registered vendor has a renderer of the same name.
func TestRegistered(t *testing.T) {
	if len(vendors.Names()) == 0 {
		t.Fatal("no vendor registered")
	}
	for _, n := range vendors.Names() {
		if _, ok := renderers.Lookup(n); !ok {
			t.Errorf("vendor %q has no renderer", n)
		}
	}
}
