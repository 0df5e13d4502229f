//go:build !race

package main

// raceEnabled is true in a -race build (race_on_test.go).
const raceEnabled = false
