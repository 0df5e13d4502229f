package eos

import (
	"os"
	"testing"

	"github.com/lossless-net/lossless/config"
)

// readFile returns a testdata file's text.
func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// document is text as a desired EOS document.
func document(t testing.TB, text string) *config.Document {
	t.Helper()
	tree, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return &config.Document{Device: "leaf1", Format: config.CLI, Tree: tree, Text: []byte(text)}
}
