package vendortest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyTestsImport: no file of the module but a _test.go file imports
// this package, so the lab it pulls in never reaches a binary.
func TestOnlyTestsImport(t *testing.T) {
	const self = "github.com/lossless-net/lossless/vendors/vendortest"
	root := filepath.Join("..", "..")
	var seen int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == self && !strings.HasSuffix(path, "_test.go") {
				t.Errorf("%s imports %s; only tests may", path, self)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("read %d Go files under %s, want the whole module", seen, root)
	}
}
