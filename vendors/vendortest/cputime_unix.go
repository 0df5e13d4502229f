//go:build unix

package vendortest

import (
	"syscall"
	"time"
)

// CPUTime is the process's user and system CPU time so far, for
// benchmarks to report the work apart from waiting for a core on a shared
// machine; 0 when the system does not say.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
