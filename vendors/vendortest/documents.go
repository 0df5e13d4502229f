package vendortest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lossless-net/lossless/internal/config"
)

// Testdata returns the contents of the calling package's testdata/name.
func Testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// CLIDocument is text, parsed with the vendor's parse, as DeviceName's
// desired CLI document.
func CLIDocument(t testing.TB, parse func([]byte) ([]*config.Node, error), text string) *config.Document {
	t.Helper()
	tree, err := parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return &config.Document{Device: DeviceName, Format: config.CLI, Tree: tree, Text: []byte(text)}
}
