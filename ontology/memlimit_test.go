//go:build unix

package ontology

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestGoMemoryLimit(t *testing.T) {
	for _, c := range []struct{ budget, mapped, prev, want int64 }{
		{1 << 30, 700 << 20, math.MaxInt64, 324 << 20},     // what the buffers leave
		{128 << 20, 120 << 20, math.MaxInt64, minGoMemory}, // never below the floor
		{1 << 30, 0, 200 << 20, 200 << 20},                 // a lower limit of the program stays
	} {
		if got := goMemoryLimit(c.budget, c.mapped, c.prev); got != c.want {
			t.Errorf("goMemoryLimit(%d, %d, %d) = %d, want %d", c.budget, c.mapped, c.prev, got, c.want)
		}
	}
}

// TestStartBudget checks that the soft limit follows the bytes mapped while a budget
// runs, and comes back when the last one stops.
func TestStartBudget(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	stop := startBudget(512 << 20)
	base := debug.SetMemoryLimit(-1)
	if base > 512<<20 {
		t.Fatalf("limit %d with a 512 MiB budget", base)
	}
	b, err := mapBytes(64 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != base-64<<20 {
		t.Errorf("limit %d after mapping 64 MiB, want %d", got, base-64<<20)
	}
	if err := unmapBytes(b); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != base {
		t.Errorf("limit %d after unmapping, want %d", got, base)
	}
	stop()
	stop() // a second call does nothing
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after the budget stopped, want %d", got, before)
	}
}
