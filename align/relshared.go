package align

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// The facts of a value shared by several entities (an age, a postcode) name entities in
// every part of the KB, and the relation pass reads their anchors, spans and edges at
// random. The main pass visits its nodes in local order, so two values done one after the
// other seldom name the same entities. sharedAhead evaluates the shared values first, in
// the order of the first anchored entity they name: values of different relations that
// share an entity, and in a KB made of copies values whose entities sit at the same
// places in each copy, come one after the other, and their reads find the lines the
// previous value brought in. The pass then adds each value's recorded contributions
// where it would have computed them, in the same order, so its sums are unchanged.

// sharedMin is the number of edges from which a literal of `from` is evaluated ahead.
const sharedMin = 3

// sharedRec is what relationFacts added for one node: its contributions by pair of paths
// and by path of `from`, each key written once (a node's facts come sorted by path, and
// a path's pairs are summed before they are added), the paths it left out, and its work.
type sharedRec struct {
	scores  []relScore
	norm    []pathScore
	skipped []Path
	work    workCounts
}

// relScore is one pair of paths and its contribution.
type relScore struct {
	k relKey
	s float64
}

// sharedAhead evaluates with litSkip the literals of nodes that have at least sharedMin
// edges, in the order of their first anchored end, and returns their records by position
// in nodes (nil for the nodes left to the pass). A node whose evaluation meets a node not
// read yet is left to the pass, so the views are read in the same order as without it.
func (a *aligner) sharedAhead(ctx context.Context, fromR *reader, anchFrom func(int32) []anchor, nodes []int32, mid midIndex, reverse bool) ([]*sharedRec, error) {
	v := fromR.v
	type item struct {
		key uint64
		pos int32
	}
	var items []item
	for pos, x := range nodes {
		if !v.lit[x] {
			continue
		}
		es := v.nodeEdges(x)
		if len(es) < sharedMin {
			continue
		}
		first := int32(-1)
		for _, e := range es {
			if e.node != x && mid.isAnchored(e.node) && (first < 0 || e.node < first) {
				first = e.node
			}
		}
		if first < 0 {
			continue
		}
		items = append(items, item{key: uint64(uint32(first))<<32 | uint64(uint32(pos)), pos: int32(pos)})
	}
	if len(items) == 0 {
		return nil, nil
	}
	slices.SortFunc(items, func(p, q item) int { return cmp.Compare(p.key, q.key) })
	recs := make([]*sharedRec, len(nodes))
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	const chunk = 16
	for _, w := range a.workers {
		wg.Go(func() {
			acc := &relAcc{scores: map[relKey]float64{}, norm: map[Path]float64{}, skipped: map[Path]bool{}}
			from, to := &w.r1, &w.r2
			if reverse {
				from, to = to, from
			}
			for ctx.Err() == nil {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(items) {
					return
				}
				for _, it := range items[lo:min(lo+chunk, len(items))] {
					w.r1.miss, w.r2.miss = w.r1.miss[:0], w.r2.miss[:0]
					w.unitWork = workCounts{}
					w.relationFacts(from, to, nodes[it.pos], mid, anchFrom, litSkip, nil, acc)
					if len(w.r1.miss)+len(w.r2.miss) == 0 {
						recs[it.pos] = newSharedRec(acc, w.unitWork)
					}
					clear(acc.scores)
					clear(acc.norm)
					clear(acc.skipped)
				}
			}
		})
	}
	wg.Wait()
	for _, w := range a.workers {
		w.r1.miss, w.r2.miss, w.unitWork = w.r1.miss[:0], w.r2.miss[:0], workCounts{}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return recs, nil
}

func newSharedRec(acc *relAcc, work workCounts) *sharedRec {
	r := &sharedRec{work: work}
	for k, s := range acc.scores {
		r.scores = append(r.scores, relScore{k, s})
	}
	for p, n := range acc.norm {
		r.norm = append(r.norm, pathScore{p, n})
	}
	for p := range acc.skipped {
		r.skipped = append(r.skipped, p)
	}
	return r
}

// replay adds r to acc as relationFacts would have: every key is written once per node,
// so the order of the writes does not change the sums.
func (r *sharedRec) replay(w *worker, acc *relAcc) {
	for _, ps := range r.norm {
		acc.norm[ps.p] += ps.s
	}
	for _, rs := range r.scores {
		acc.scores[rs.k] += rs.s
	}
	for _, p := range r.skipped {
		acc.skipped[p] = true
	}
	w.unitWork.add(r.work)
}
