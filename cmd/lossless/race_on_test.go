//go:build race

package main

// raceEnabled is true in a -race build: the tests that only drive child
// processes (kills, memory) skip there, as the race detector slows each
// child tenfold and watches none of their goroutines; they run in the
// README's test command.
const raceEnabled = true
