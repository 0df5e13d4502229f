package eos

import (
	"testing"

	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// readFile returns a testdata file's text.
func readFile(t testing.TB, name string) string {
	return string(vendortest.Testdata(t, name))
}

// document is text as a desired EOS document.
func document(t testing.TB, text string) *config.Document {
	return vendortest.CLIDocument(t, Parse, text)
}
