package align

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// The passes of an iteration run on several goroutines. Their work is cut into units
// (a fixed number of KB1 entities, or of anchored nodes), independent of the number of
// goroutines, and the results of the units are combined in unit order, so a run gives
// the same result on any number of cores.
//
// KB2 is read lazily: a unit that needs the edges of a KB2 node not read yet records it
// (reader.miss) and is done again after the aligner has read all such nodes of the
// wave in one batch. The anchored nodes of KB2 are read before each pass, so only units
// that follow joins (or look at candidates' values, with negative evidence) are redone,
// once per step further out.

// unitsPerWave is the number of units done between two reads of KB2. It does not
// depend on the number of goroutines, so neither do the order of the reads nor the
// local indices they give.
const unitsPerWave = 128

// worker is the state of one goroutine of a pass: its readers and scratch space.
type worker struct {
	a      *aligner
	r1, r2 reader

	// instance pass
	ctx        context.Context
	err        error     // the first error of a read the pass cannot retry
	acc        []candAcc // the evidence of each KB2 node (by local index) for the current entity
	grp        []grouped // evidence of an entity that reaches one value through several relations
	touched    []int32
	endScratch []int32
	paths      []pathEnd
	paths2     []pathEnd
	ev         []evidence     // the evidence of the current entity's facts (weak blocks unexpanded)
	evFacts    []factEvidence // the facts' items in ev
	evFact     []evidence     // one fact's evidence for the proposed candidates
	proposed   []int32        // the candidates of the current entity that strong evidence proposed
	subLits    []litFact      // scratch of subjectJoins
	weakSets   []weakSet      // scratch of jointProposals
	weakNodes  []ledge
	ident      []bool
	joint      bool // jointProposals proposed a candidate of the current entity // by fact: its KB1 relation identifies KB1's entities
	ends       []int32

	// relation passes
	facts      []pathEnd
	two        []joinEnd // scratch of factsToAnchored
	three      []pathEnd
	fronts     [][]frontEntry
	frontNodes [][]int32 // the nodes of fronts, for binary search
	items      []pairItem
	runS       []pathScore
	skipSeen   []Path       // paths factsToAnchored left out for the current node
	keys       []uint64     // sort keys of factsToAnchored and frontier
	frontTmp   []frontEntry // scratch of frontier
	warm       []uint32     // scratch of warmEnds
	mark       []uint64     // the nodes of the current fronts, one bit per node of `to` (markFronts)
	sink       uint32       // keeps the reads of warmEnds and warmMiddles

	unitWork workCounts // the work of the current unit, kept in work if it is not redone
	work     workCounts // the work of the units done, summed over the run
}

// workCounts counts units of work of a run. They tell the growth of the algorithm (more
// work per fact: more candidates, more evidence, more paths) from the growth of the
// machine's cost of one unit (caches, memory bandwidth, the collector) when the data
// grows; the scaling benchmark reports them per fact. Units redone after a read of KB2
// are counted once.
type workCounts struct {
	litCands  int64 // KB2 literal candidates kept for the KB1 literals
	evidence  int64 // evidence factors of the instance passes (anchor fact × KB2 fact)
	supports  int64 // updates of a candidate's evidence product
	relFacts  int64 // facts between anchored nodes read by the relation passes
	pathPairs int64 // anchor pairs whose connecting paths the relation passes searched
}

func (c *workCounts) add(d workCounts) {
	c.litCands += d.litCands
	c.evidence += d.evidence
	c.supports += d.supports
	c.relFacts += d.relFacts
	c.pathPairs += d.pathPairs
}

func (a *aligner) newWorkers() {
	n := a.opts.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	a.workers = make([]*worker, n)
	for i := range a.workers {
		a.workers[i] = &worker{a: a, r1: reader{v: a.v1}, r2: reader{v: a.v2}}
	}
	a.v1.workers, a.v2.workers = n, n
}

// runUnits calls do for every unit in [0, n) on the workers and then commit with its
// result, in unit order. before, if set, is called on each worker before each round
// (the views may have grown).
func runUnits[T any](ctx context.Context, a *aligner, n int, before func(w *worker), do func(w *worker, u int) T, commit func(u int, t T)) error {
	wave := unitsPerWave
	results := make([]T, min(wave, n))
	misses := make([][2][]int32, min(wave, n))
	var pending []int
	for start := 0; start < n; start += wave {
		end := min(start+wave, n)
		pending = pending[:0]
		for u := start; u < end; u++ {
			pending = append(pending, u)
		}
		for len(pending) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			var next atomic.Int64
			runOne := func(w *worker) {
				if before != nil {
					before(w)
				}
				for {
					k := int(next.Add(1)) - 1
					if k >= len(pending) {
						return
					}
					u := pending[k]
					w.r1.miss, w.r2.miss = w.r1.miss[:0], w.r2.miss[:0]
					w.unitWork = workCounts{}
					t := do(w, u)
					m := &misses[u-start]
					m[0], m[1] = append(m[0][:0], w.r1.miss...), append(m[1][:0], w.r2.miss...)
					if len(m[0])+len(m[1]) == 0 {
						results[u-start] = t
						w.work.add(w.unitWork)
					}
				}
			}
			if len(a.workers) == 1 || len(pending) == 1 {
				runOne(a.workers[0])
			} else {
				var wg sync.WaitGroup
				for _, w := range a.workers {
					wg.Go(func() { runOne(w) })
				}
				wg.Wait()
			}
			var miss1, miss2 []int32
			redo := pending[:0]
			for _, u := range pending {
				m := misses[u-start]
				if len(m[0])+len(m[1]) > 0 {
					miss1, miss2 = append(miss1, m[0]...), append(miss2, m[1]...)
					redo = append(redo, u)
				}
			}
			if err := a.v1.fetch(ctx, miss1); err != nil {
				return err
			}
			if err := a.v2.fetch(ctx, miss2); err != nil {
				return err
			}
			pending = redo
		}
		for u := start; u < end; u++ {
			commit(u, results[u-start])
			var zero T
			results[u-start] = zero
		}
	}
	return nil
}

// parallelFor calls fn for every unit in [0, n) on up to workers goroutines and returns
// the first error; after an error no new unit starts.
func parallelFor(ctx context.Context, workers, n int, fn func(u int) error) error {
	var (
		next  atomic.Int64
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	run := func() {
		for {
			u := int(next.Add(1)) - 1
			if u >= n {
				return
			}
			mu.Lock()
			stop := first != nil
			mu.Unlock()
			if stop {
				return
			}
			err := ctx.Err()
			if err == nil {
				err = fn(u)
			}
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				return
			}
		}
	}
	for range min(workers, n) {
		wg.Go(run)
	}
	wg.Wait()
	return first
}
