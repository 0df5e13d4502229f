//go:build !unix

package vendortest

import "time"

// CPUTime is not measured here: 0, and benchmarks report wall time only.
func CPUTime() time.Duration { return 0 }
