//go:build !unix

package articleeval

import "time"

// cpuTime is not measured on this system; Evaluate then uses the wall time.
func cpuTime() time.Duration { return 0 }
