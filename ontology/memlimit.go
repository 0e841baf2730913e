package ontology

import (
	"runtime/debug"
	"sync"
)

// The memory budget of a load (LoadOptions.SortMemoryMB) bounds the anonymous memory of
// the whole process: the loader's buffers outside the Go heap (mapBytes) plus the Go
// runtime's memory (the Go heap with its garbage, the parsers' chunks, Badger's
// memtable, table builders and write requests, the pair spool). The first part is
// counted here as it is mapped and unmapped; while a load runs, the Go runtime's soft
// memory limit (debug.SetMemoryLimit) is kept at what that part leaves of the budget,
// so that the collector runs sooner rather than let garbage take the room of the sort
// buffers. A lower limit set by the program (GOMEMLIMIT) is kept.

// memGovernorT is the process-wide account of the running loads' budgets and of the
// bytes mapped outside the Go heap; memGovernor is its one instance.
type memGovernorT struct {
	mu     sync.Mutex
	loads  int
	budget int64 // sum of the budgets of the running loads
	mapped int64 // bytes mapped by mapBytes and not yet unmapped (every load)
	prev   int64 // the limit before the first running load
}

// minGoMemory is the least soft limit a load gives the Go runtime, however much its
// buffers map: below it the collector would run without pause.
const minGoMemory = 16 << 20

// startBudget counts a load's budget (bytes) until the returned function is called.
func startBudget(budget int64) (stop func()) {
	g := &memGovernor
	g.mu.Lock()
	if g.loads == 0 {
		g.prev = debug.SetMemoryLimit(-1)
	}
	g.loads++
	g.budget += budget
	g.commitLocked()
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.loads--
			g.budget -= budget
			if g.loads == 0 {
				debug.SetMemoryLimit(g.prev)
			} else {
				g.commitLocked()
			}
			g.mu.Unlock()
		})
	}
}

// noteMapped records n bytes mapped (n > 0) or unmapped (n < 0) outside the Go heap.
func noteMapped(n int64) {
	g := &memGovernor
	g.mu.Lock()
	g.mapped += n
	if g.loads > 0 {
		g.commitLocked()
	}
	g.mu.Unlock()
}

// goMemoryLimit is the soft limit of the Go runtime for the budget and the bytes mapped
// outside the heap: the rest of the budget, at least minGoMemory, at most prev.
func goMemoryLimit(budget, mapped, prev int64) int64 {
	limit := max(budget-mapped, minGoMemory)
	if prev > 0 && prev < limit {
		return prev
	}
	return limit
}

// memGovernor is the process's one memGovernorT.
var memGovernor memGovernorT

// commitLocked sets the Go runtime's soft limit from the account (g.mu held).
func (g *memGovernorT) commitLocked() {
	debug.SetMemoryLimit(goMemoryLimit(g.budget, g.mapped, g.prev))
}
