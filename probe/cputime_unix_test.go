//go:build unix

package probe

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the test process has used, or 0 when
// it cannot be read. Chromium's processes are not in it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
