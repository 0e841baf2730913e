package align

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync"

	"github.com/trawl-dev/trawl/graph"
)

// relKey is a pair of paths: p1 of KB1 and p2 of KB2.
type relKey struct {
	p1, p2 Path
}

// relEntry holds the scores of one relation pair, each kept only if ≥ θ (0 otherwise).
type relEntry struct {
	p2       Path
	s12, s21 float64 // Pr(p1 ⊆ p2), Pr(p2 ⊆ p1)
}

// relTable is the result of one relation pass.
type relTable struct {
	pairs map[relKey]relEntry
	byP1  map[Path][]relEntry // sorted by p2
	n1    map[Path]float64    // normaliser of each KB1 path: its facts with counterparts
	n2    map[Path]float64    // the same for KB2 paths
}

func newRelTable() *relTable {
	return &relTable{pairs: map[relKey]relEntry{}, byP1: map[Path][]relEntry{}, n1: map[Path]float64{}, n2: map[Path]float64{}}
}

// diff counts the pairs that entered or left the table and returns the largest score
// change, starting from delta.
func (t *relTable) diff(u *relTable, delta float64) (int, float64) {
	changes := 0
	for k, e := range u.pairs {
		old, ok := t.pairs[k]
		if !ok {
			changes++
			continue
		}
		delta = max(delta, math.Abs(old.s12-e.s12), math.Abs(old.s21-e.s21))
	}
	for k := range t.pairs {
		if _, ok := u.pairs[k]; !ok {
			changes++
		}
	}
	return changes, delta
}

// relationPasses computes relation subsumption in both directions from the current
// equalities (paris.md §5, with the v0.3 normaliser).
func (a *aligner) relationPasses(ctx context.Context) (*relTable, error) {
	o := a.opts
	from2 := a.anchoredNodes2()
	if err := a.v2.fetch(ctx, from2); err != nil {
		return nil, err
	}
	s12, n1, err := a.relationPass(ctx, &a.workers[0].r1, a.anchors1, a.anchoredNodes1(), false)
	if err != nil {
		return nil, err
	}
	s21, n2, err := a.relationPass(ctx, &a.workers[0].r2, a.anchors2, from2, true)
	if err != nil {
		return nil, err
	}
	t := newRelTable()
	t.n1, t.n2 = n1, n2
	score := func(s, n float64) float64 {
		v := (s + o.SmoothNumerator) / (n + o.SmoothDenominator)
		if v < o.Theta {
			return 0
		}
		return v
	}
	for k, s := range s12 {
		if v := score(s, n1[k.p1]); v > 0 {
			e := t.pairs[k]
			e.p2, e.s12 = k.p2, v
			t.pairs[k] = e
		}
	}
	for k, s := range s21 {
		// keys of the second pass are (KB2 path, KB1 path)
		if v := score(s, n2[k.p1]); v > 0 {
			key := relKey{k.p2, k.p1}
			e := t.pairs[key]
			e.p2, e.s21 = k.p1, v
			t.pairs[key] = e
		}
	}
	for k, e := range t.pairs {
		t.byP1[k.p1] = append(t.byP1[k.p1], e)
	}
	for _, es := range t.byP1 {
		slices.SortFunc(es, func(x, y relEntry) int { return comparePath(x.p2, y.p2) })
	}
	return t, nil
}

// anchoredNodes1 returns the KB1 nodes that have a counterpart, in local order.
func (a *aligner) anchoredNodes1() []int32 {
	var ns []int32
	for i := int32(0); i < int32(a.v1.size()); i++ {
		if len(a.anchors1(i)) > 0 {
			ns = append(ns, i)
		}
	}
	return ns
}

// anchoredNodes2 returns the KB2 nodes that have a counterpart, in local order.
func (a *aligner) anchoredNodes2() []int32 {
	var ns []int32
	for j := int32(0); j < int32(a.v2.size()); j++ {
		if len(a.anchors2(j)) > 0 {
			ns = append(ns, j)
		}
	}
	return ns
}

// frontEntry is a path of at most JoinLength−1 steps from a counterpart x′ to node, with
// the middle node of a two-step path (−1 otherwise). p.n == 0 for x′ itself.
type frontEntry struct {
	node int32
	p    Path
	mid  int32
}

// pairItem is one piece of evidence for a pair (pFrom, pTo): the KB facts pTo(x', y')
// with x' ≡ x and y' ≡ y contribute the factor 1 − Pr(x≡x')·Pr(y≡y').
type pairItem struct {
	p      Path
	xa, ya int32
	factor float64
}

// relAcc is what one unit of a relation pass adds: the numerators by pair of paths, the
// normalisers by path of `from`, and the paths whose literal-to-literal facts were left
// out (see litFacts).
type relAcc struct {
	scores  map[relKey]float64
	norm    map[Path]float64
	skipped map[Path]bool
}

// litFacts says what a relation pass does with the facts of a join from a literal to a
// literal when the pair leaves one step for the other KB: no edge links two literals, so
// they can never be matched, and count only in the normaliser of their path, which
// matters only if the path is matched by another of its facts. The main pass leaves them
// out (litSkip) and records their paths; a second pass counts them (litOnly) for the
// paths that got a score. Most of the facts from a value shared by many entities are
// such facts.
type litFacts int

const (
	litSkip litFacts = iota
	litOnly
)

// relationPass computes, for every path pF of `from` and path pT of `to`, the numerator
// Σ_{pF(x,y)} [1 − Π_{pT(x',y')} (1 − Pr(x≡x')·Pr(y≡y'))] and, for every pF, the
// normaliser Σ_{pF(x,y)} [1 − Π_{x',y'} (1 − Pr(x≡x')·Pr(y≡y'))], which counts only the
// facts whose two arguments have counterparts (paris.md §5). The facts of `from` are
// enumerated from its anchored nodes; the matching facts of `to` are found by meeting in
// the middle between the counterparts x' and y', so `to` is read only around them.
// fromR is a reader of `from` (any worker's) for building the reverse index; reverse
// says that `from` is KB2.
func (a *aligner) relationPass(ctx context.Context, fromR *reader, anchFrom func(int32) []anchor, nodes []int32, reverse bool) (map[relKey]float64, map[Path]float64, error) {
	o := a.opts
	scores := map[relKey]float64{}
	norm := map[Path]float64{}

	// mid marks the anchored nodes of `from` and lists, for each middle node m, the
	// steps from m to an anchored node.
	mid := buildMidIndex(fromR, nodes, o.JoinLength >= 2)
	fromR.miss = fromR.miss[:0] // the anchored nodes of KB2 were fetched before

	const unit = 256
	// The maps of combined units are cleared and reused: they keep their size.
	var pool sync.Pool
	skipped := map[Path]bool{}
	pass := func(mode litFacts, only map[Path]bool) error {
		return runUnits(ctx, a, (len(nodes)+unit-1)/unit, nil,
			func(w *worker, u int) *relAcc {
				acc, ok := pool.Get().(*relAcc)
				if !ok {
					acc = &relAcc{scores: map[relKey]float64{}, norm: map[Path]float64{}, skipped: map[Path]bool{}}
				}
				from, to := &w.r1, &w.r2
				if reverse {
					from, to = to, from
				}
				for _, x := range nodes[u*unit : min((u+1)*unit, len(nodes))] {
					w.relationFacts(from, to, x, mid, anchFrom, mode, only, acc)
				}
				return acc
			},
			func(_ int, acc *relAcc) {
				for p, n := range acc.norm {
					norm[p] += n
				}
				for k, s := range acc.scores {
					if _, ok := scores[k]; !ok && len(scores) >= o.MaxRelationPairs && (k.p1.IsJoin() || k.p2.IsJoin()) {
						a.drop++
						continue
					}
					scores[k] += s
				}
				for p := range acc.skipped {
					skipped[p] = true
				}
				clear(acc.norm)
				clear(acc.scores)
				clear(acc.skipped)
				pool.Put(acc)
			})
	}
	if err := pass(litSkip, nil); err != nil {
		return nil, nil, err
	}
	only := map[Path]bool{}
	for k := range scores {
		if skipped[k.p1] {
			only[k.p1] = true
		}
	}
	if len(only) > 0 {
		if err := pass(litOnly, only); err != nil {
			return nil, nil, err
		}
	}
	return scores, norm, nil
}

// relationFacts adds to acc the evidence of the facts of `from` that start at x, with
// the literal-to-literal facts handled as mode says (only: the paths of litOnly).
func (w *worker) relationFacts(from, to *reader, x int32, mid midIndex, anchFrom func(int32) []anchor, mode litFacts, only map[Path]bool, acc *relAcc) {
	o := w.a.opts
	ax := anchFrom(x)
	if len(ax) == 0 {
		return
	}
	w.facts = w.factsToAnchored(from, x, mid, mode, only, acc.skipped, w.facts[:0])
	if len(w.facts) == 0 {
		return
	}
	w.unitWork.relFacts += int64(len(w.facts))
	w.warmEnds(to, w.facts, anchFrom)
	if mode == litOnly {
		// Normalisers only: these facts have no pair.
		for _, f := range w.facts {
			prodN := 1.0
			for _, xa := range ax {
				for _, ya := range anchFrom(f.end) {
					prodN *= 1 - xa.score*ya.score
				}
			}
			if prodN < 1 {
				acc.norm[f.p] += 1 - prodN
			}
		}
		return
	}
	for len(w.fronts) < len(ax) {
		w.fronts = append(w.fronts, nil)
		w.frontNodes = append(w.frontNodes, nil)
	}
	for k, xa := range ax {
		w.fronts[k] = w.frontier(to, xa.node, w.fronts[k][:0])
		ns := w.frontNodes[k][:0]
		for _, fe := range w.fronts[k] {
			ns = append(ns, fe.node)
		}
		w.frontNodes[k] = ns
	}
	mark := w.markFronts(to.v.size(), len(ax))
	// Facts come sorted by path: sum each path's contributions before adding them to
	// the unit's maps, which are hashed once per path rather than once per fact.
	var runP Path
	runN := 0.0
	runS := w.runS[:0]
	flush := func() {
		if runP.n == 0 {
			return
		}
		acc.norm[runP] += runN
		for _, ps := range runS {
			acc.scores[relKey{runP, ps.p}] += ps.s
		}
	}
	for _, f := range w.facts {
		ay := anchFrom(f.end)
		maxTo := min(o.JoinLength, o.JoinSum-f.p.Len())
		if maxTo < 1 {
			continue
		}
		prodN := 1.0
		w.items = w.items[:0]
		for k, xa := range ax {
			for _, ya := range ay {
				fac := 1 - xa.score*ya.score
				prodN *= fac
				if xa.node == ya.node {
					continue // a loop in `to`
				}
				w.unitWork.pathPairs++
				w.pathsBetween(to, w.fronts[k], w.frontNodes[k], mark, xa.node, ya.node, maxTo, fac)
			}
		}
		if prodN >= 1 {
			continue
		}
		if f.p != runP {
			flush()
			runP, runN, runS = f.p, 0, runS[:0]
		}
		runN += 1 - prodN
		if len(w.items) == 0 {
			continue
		}
		items := w.items
		slices.SortFunc(items, func(u, v pairItem) int {
			return cmp.Or(comparePath(u.p, v.p), cmp.Compare(u.xa, v.xa), cmp.Compare(u.ya, v.ya))
		})
		for k := 0; k < len(items); {
			p := items[k].p
			prod := 1.0
			for ; k < len(items) && items[k].p == p; k++ {
				it := items[k]
				if k > 0 && items[k-1].p == p && items[k-1].xa == it.xa && items[k-1].ya == it.ya {
					continue // the same fact through another middle node
				}
				prod *= it.factor
			}
			i := slices.IndexFunc(runS, func(ps pathScore) bool { return ps.p == p })
			if i < 0 {
				i = len(runS)
				runS = append(runS, pathScore{p: p})
			}
			runS[i].s += 1 - prod
		}
	}
	flush()
	w.runS = runS
	if mark != nil {
		for _, ns := range w.frontNodes[:len(ax)] {
			for _, m := range ns {
				mark[m>>6] = 0
			}
		}
	}
}

// markMin is the number of front nodes from which relationFacts marks them in a bit
// table for pathsBetween.
const markMin = 64

// markFronts sets in w.mark the bits of the nodes of the first k fronts and returns it,
// or nil when the fronts are short: a value shared by many entities has a front as
// long, and pathsBetween then tests a bit, in a table of one bit per node of `to`, for
// each edge of a counterpart before searching the front, a search whose cost grows with
// the logarithm of the front.
func (w *worker) markFronts(size, k int) []uint64 {
	n := 0
	for _, ns := range w.frontNodes[:k] {
		n += len(ns)
	}
	if n < markMin {
		return nil
	}
	if words := size>>6 + 1; len(w.mark) < words {
		w.mark = make([]uint64, words)
	}
	for _, ns := range w.frontNodes[:k] {
		for _, m := range ns {
			w.mark[m>>6] |= 1 << (uint32(m) & 63)
		}
	}
	return w.mark
}

// pathScore is a path of `to` and the sum of its contributions to the current path of
// `from`.
type pathScore struct {
	p Path
	s float64
}

// pathsBetween adds to w.items the paths of `to` of at most maxTo steps from xa to ya:
// a path of front (from xa; nodes are its nodes) followed by one edge into ya. It walks
// the shorter of ya's edges and the front, searching the other, so a counterpart shared
// by many facts (a common postcode) costs no more per fact than a rare one. mark, if not
// nil, has the bit of every node of front set (markFronts): an edge of ya to a node
// whose bit is clear is in no path, and the front is not searched for it.
func (w *worker) pathsBetween(to *reader, front []frontEntry, nodes []int32, mark []uint64, xa, ya int32, maxTo int, fac float64) {
	if maxTo == 1 {
		// Only a single edge qualifies, and no edge links two literals.
		if !to.v.lit[xa] || !to.v.lit[ya] {
			for _, e := range to.between(ya, xa) {
				w.items = append(w.items, pairItem{p: NewPath(e.rel.Inverse()), xa: xa, ya: ya, factor: fac})
			}
		}
		return
	}
	add := func(e ledge, fe frontEntry) {
		if int(fe.p.n)+1 > maxTo {
			return
		}
		if fe.p.n == 0 {
			w.items = append(w.items, pairItem{p: NewPath(e.rel.Inverse()), xa: xa, ya: ya, factor: fac})
			return
		}
		if fe.p.last() == e.rel || fe.mid == ya {
			return // trivial r ∘ r⁻, or a loop through the middle
		}
		w.items = append(w.items, pairItem{p: fe.p.then(e.rel.Inverse()), xa: xa, ya: ya, factor: fac})
	}
	es := to.edges(ya)
	if to.v.byOff[ya] != 0 && len(front) < len(es) {
		for i := 0; i < len(front); {
			m := front[i].node
			j := i + 1
			for j < len(front) && front[j].node == m {
				j++
			}
			if m != ya {
				for _, e := range to.between(ya, m) {
					for _, fe := range front[i:j] {
						add(e, fe)
					}
				}
			}
			i = j
		}
		return
	}
	for _, e := range es {
		if e.node == ya {
			continue
		}
		if mark != nil && (int(e.node)>>6 >= len(mark) || mark[e.node>>6]&(1<<(uint32(e.node)&63)) == 0) {
			continue // in no front
		}
		lo, found := slices.BinarySearch(nodes, e.node)
		if !found {
			continue
		}
		for k := lo; k < len(nodes) && nodes[k] == e.node; k++ {
			add(e, front[k])
		}
	}
}

// midEdgeT is the last step of a path: from a middle node, relation rel leads to node.
type midEdgeT struct {
	rel  graph.Rel
	node int32
}

// midIndex is the index of the anchored nodes of a KB: anchored[n] says whether node
// n has a counterpart (a dense table: a pass asks it for every edge of the nodes it
// reads), and the steps from node m to anchored nodes are steps[off[m]:off[m+1]] (with
// joins only).
type midIndex struct {
	anchored []bool
	off      []int32
	steps    []midEdgeT
}

// isAnchored reports whether n is one of the anchored nodes; nodes numbered after the
// index was built have no counterpart.
func (ix midIndex) isAnchored(n int32) bool {
	return int(n) < len(ix.anchored) && ix.anchored[n]
}

// buildMidIndex marks nodes and, with joins, indexes the edges from the non-literal
// neighbours of nodes back to them.
func buildMidIndex(r *reader, nodes []int32, joins bool) midIndex {
	v := r.v
	ix := midIndex{anchored: make([]bool, v.size())}
	for _, y := range nodes {
		ix.anchored[y] = true
	}
	if !joins {
		return ix
	}
	ix.off = make([]int32, v.size()+1)
	for _, y := range nodes {
		for _, e := range r.edges(y) {
			if !v.lit[e.node] && e.node != y {
				ix.off[e.node+1]++
			}
		}
	}
	for i := 1; i < len(ix.off); i++ {
		ix.off[i] += ix.off[i-1]
	}
	ix.steps = make([]midEdgeT, ix.off[len(ix.off)-1])
	fill := slices.Clone(ix.off[:len(ix.off)-1])
	for _, y := range nodes {
		for _, e := range r.edges(y) {
			if !v.lit[e.node] && e.node != y {
				ix.steps[fill[e.node]] = midEdgeT{rel: e.rel.Inverse(), node: y}
				fill[e.node]++
			}
		}
	}
	return ix
}

// of returns the steps of m; nodes first seen after the index was built are no
// neighbours of an anchored node.
func (ix midIndex) of(m int32) []midEdgeT {
	if int(m)+1 < len(ix.off) {
		return ix.steps[ix.off[m]:ix.off[m+1]]
	}
	return nil
}

// factsToAnchored appends to out the distinct facts pF(x, y) of v with y anchored, pF of
// at most JoinLength steps, following the path rules (no literal in the middle, no
// loop, no r ∘ r⁻), sorted by path (shorter first) then y. The last step comes from mid,
// the reverse index of the anchored nodes. Joins from a literal to a literal that leave
// one step for the other KB are left out and their paths added to skipped (litSkip), or
// are the only facts listed, for the paths of only (litOnly).
func (w *worker) factsToAnchored(r *reader, x int32, mid midIndex, mode litFacts, only, skipped map[Path]bool, out []pathEnd) []pathEnd {
	o := w.a.opts
	L := o.JoinLength
	v := r.v
	es := r.edges(x)
	if mode == litSkip {
		// Edges are sorted by relation, then by KB node id: sort by local index instead,
		// on keys packing both (a value shared by thousands of entities has as many).
		keys := w.keys[:0]
		for _, e := range es {
			if e.node != x && mid.isAnchored(e.node) {
				keys = append(keys, uint64(e.rel)<<32|uint64(uint32(e.node)))
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = append(out, pathEnd{p: NewPath(graph.Rel(k >> 32)), end: int32(uint32(k))})
		}
		w.keys = keys
	}
	if L < 2 {
		return out
	}
	// keep says whether the join p of n steps to end is listed (see litFacts).
	w.skipSeen = w.skipSeen[:0]
	keep := func(p Path, end int32) bool {
		if !v.lit[x] || !v.lit[end] || o.JoinSum-p.Len() != 1 {
			return mode == litSkip
		}
		if mode == litOnly {
			return only[p]
		}
		if !slices.Contains(w.skipSeen, p) { // few paths per node: spare the map
			w.skipSeen = append(w.skipSeen, p)
			skipped[p] = true
		}
		return false
	}
	w.warmMiddles(r, es, mid)
	// Joins through different middle nodes can repeat: sort on packed keys and compact.
	two, three := w.two[:0], w.three[:0]
	for _, e := range es {
		m := e.node
		if m == x || v.lit[m] {
			continue
		}
		for _, me := range mid.of(m) {
			if me.node == x || me.node == m || me.rel == e.rel.Inverse() {
				continue
			}
			if keep(NewPath(e.rel, me.rel), me.node) {
				two = append(two, joinEnd{steps: uint64(e.rel)<<32 | uint64(me.rel), end: me.node})
			}
		}
		if L < 3 {
			continue
		}
		for _, e2 := range r.edges(m) {
			m2 := e2.node
			if m2 == x || m2 == m || v.lit[m2] || e2.rel == e.rel.Inverse() {
				continue
			}
			for _, me := range mid.of(m2) {
				if me.node == x || me.node == m || me.node == m2 || me.rel == e2.rel.Inverse() {
					continue
				}
				if q := NewPath(e.rel, e2.rel, me.rel); keep(q, me.node) {
					three = append(three, pathEnd{p: q, end: me.node})
				}
			}
		}
	}
	slices.SortFunc(two, func(u, w joinEnd) int { return cmp.Or(cmp.Compare(u.steps, w.steps), cmp.Compare(u.end, w.end)) })
	for _, j := range slices.Compact(two) {
		out = append(out, pathEnd{p: NewPath(graph.Rel(j.steps>>32), graph.Rel(j.steps)), end: j.end})
	}
	slices.SortFunc(three, func(u, w pathEnd) int { return cmp.Or(comparePath(u.p, w.p), cmp.Compare(u.end, w.end)) })
	out = append(out, slices.Compact(three)...)
	w.two, w.three = two, three
	return out
}

// joinEnd is a two-step path, its steps packed in one integer, and its end.
type joinEnd struct {
	steps uint64
	end   int32
}

// frontier appends to f the paths of at most JoinLength−1 steps from x in v, x itself
// included with the empty path, sorted by end node. Their ends are the middle nodes
// through which a relation pass reaches the counterparts of a fact's object.
func (w *worker) frontier(r *reader, x int32, f []frontEntry) []frontEntry {
	f = append(f, frontEntry{node: x, mid: -1})
	L := w.a.opts.JoinLength
	if L < 2 {
		return f
	}
	v := r.v
	for _, e := range r.edges(x) {
		m := e.node
		if m == x || v.lit[m] {
			continue
		}
		f = append(f, frontEntry{node: m, p: NewPath(e.rel), mid: -1})
		if L < 3 {
			continue
		}
		for _, e2 := range r.edges(m) {
			m2 := e2.node
			if m2 == x || m2 == m || v.lit[m2] || e2.rel == e.rel.Inverse() {
				continue
			}
			f = append(f, frontEntry{node: m2, p: NewPath(e.rel, e2.rel), mid: m})
		}
	}
	// Sort stably by node: on keys packing the node and the position (a literal's
	// frontier lists every entity that shares it), then permute.
	if len(f) > 1 {
		keys := w.keys[:0]
		for k, fe := range f {
			keys = append(keys, uint64(uint32(fe.node))<<32|uint64(k))
		}
		slices.Sort(keys)
		w.frontTmp = append(w.frontTmp[:0], f...)
		for k, key := range keys {
			f[k] = w.frontTmp[uint32(key)]
		}
		w.keys = keys
	}
	return f
}

// The relation passes read the tables of a view (anchors, edge spans, edges, the middle
// index) at nodes that the facts of the current node name: at a few hundred thousand
// nodes these reads miss the processor's caches, and in the passes' loops each waits for
// the one before (the anchors of a fact's end, then their spans, then their edges). The
// warm functions make the same first reads ahead, in short loops whose loads do not
// depend on one another, so the processor has many misses in flight at once; the loops
// that follow find the lines in the cache. They change nothing but the timing.

// warmEnds reads ahead the anchors of the ends of facts and, in `to`, the spans and
// first edges of those anchors: one table per loop, so that no load waits for another.
func (w *worker) warmEnds(to *reader, facts []pathEnd, anchFrom func(int32) []anchor) {
	v := to.v
	ys := w.warm[:0]
	for _, f := range facts {
		for _, ya := range anchFrom(f.end) {
			ys = append(ys, uint32(ya.node))
		}
	}
	var sink uint32
	for k, y := range ys {
		s := v.span[y]
		sink += v.byOff[y]
		ys[k] = unread
		if s.off != unread && s.n > 0 {
			ys[k] = s.off
		}
	}
	for _, off := range ys {
		if off != unread {
			sink += uint32(v.arena[off].node)
		}
	}
	w.warm = ys
	w.sink += sink
}

// warmMiddles reads ahead, for the non-literal ends of es, their steps in mid and
// whether the steps' ends are literals.
func (w *worker) warmMiddles(r *reader, es []ledge, mid midIndex) {
	v := r.v
	var sink uint32
	for _, e := range es {
		m := e.node
		if int(m)+1 < len(mid.off) {
			if lo := mid.off[m]; lo < mid.off[m+1] {
				if v.lit[mid.steps[lo].node] {
					sink++
				}
			}
		}
	}
	w.sink += sink
}
