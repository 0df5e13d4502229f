//go:build !unix

package plan_test

import "time"

// processCPU reports ok false: the process CPU time is read on unix only.
func processCPU() (time.Duration, bool) { return 0, false }
