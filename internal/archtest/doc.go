// Package archtest holds the test that reads the module's import graph
// (go list -deps -json) and fails on any dependency ARCHITECTURE.md
// forbids. It has no code of its own: the rules live in its test, and the
// test also checks that ARCHITECTURE.md's rules table says the same.
package archtest
