package align

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/trawl-dev/trawl/graph"
)

// cand is a candidate equality between KB1 node y1 and KB2 node y2.
type cand struct {
	y1, y2 int32
	score  float64
	// support is the number of distinct KB1 relations of y1 that support y2 (up to
	// two); comparable the number of y1's relations with a usable counterpart (up to two).
	support, comparable uint8
}

// evidence is one factor of the product of a candidate: the best support that one KB1
// fact gives to y2 through the KB2 path p2. A negative y2 stands for a weak block (see
// proposals): the edges of KB2 node ^y2 with relation p2.Step(0), each an item with this
// factor and disc, expanded only for the proposed candidates.
type evidence struct {
	y2 int32
	// x is, for an item of a block (the edges of KB2 node x with relation p2.Step(0)),
	// that node; -1 for an item reached through a join.
	x  int32
	p2 Path
	// brk marks an item that followed, in the evidence of one KB1 fact, an item dropped
	// for lack of a proposal: two items of one candidate that were not adjacent before
	// the drop stay two updates of its product, so the product's rounding is unchanged.
	brk    bool
	factor float64
	disc   float64 // how discriminative the relation pair is: the smaller inverse functionality
}

// factEvidence locates the evidence of one KB1 fact of the current entity in w.ev.
type factEvidence struct {
	lo, hi int
	dedup  bool
	p      Path
	end    int32
}

// Factor returns the PARIS update factor of one pair of facts (paris.md §3.1):
// (1 − xeqv·sub·fun1) · (1 − xeqv·super·fun2), where sub = Pr(r2 ⊆ r1) and
// super = Pr(r1 ⊆ r2) are already divided by ε (or are the bootstrap value), and the
// functionalities are divided by ε.
func Factor(xeqv, sub, super, fun1, fun2 float64) float64 {
	return (1 - xeqv*sub*fun1) * (1 - xeqv*super*fun2)
}

// bootstrap returns ι for a pair of paths with the given total number of extra steps.
func (a *aligner) bootstrap(extra int) float64 {
	return a.opts.Iota / (1 + a.opts.IotaLengthPenalty*float64(extra))
}

// joinBootstrapUseful reports whether a join can give instance evidence with the
// bootstrap value: with PARIS's constants it cannot (ι/21 gives 1 − factor < 0.01).
func (a *aligner) joinBootstrapUseful() bool {
	s := a.bootstrap(1)
	return 1-Factor(1, s, s, 1/a.opts.Epsilon, 1/a.opts.Epsilon) > a.opts.EvidenceCut
}

// instancePass computes, for every KB1 entity, its best KB2 candidates from the
// equalities and relation scores of the previous iteration (paris.md §3.1, Jacobi style).
func (a *aligner) instancePass(ctx context.Context) ([]cand, error) {
	if err := a.v2.fetch(ctx, a.anchoredNodes2()); err != nil {
		return nil, err
	}
	const unit = 128
	parts := make([][]cand, (len(a.tgt)+unit-1)/unit)
	grow := func(w *worker) {
		w.ctx = ctx
		for len(w.acc) < a.v2.size() {
			w.acc = append(w.acc, candAcc{prod: 1})
		}
	}
	err := runUnits(ctx, a, len(parts), grow,
		func(w *worker, u int) []cand {
			var cs []cand
			for _, y := range a.tgt[u*unit : min((u+1)*unit, len(a.tgt))] {
				cs = w.candidates(y, cs)
			}
			return cs
		},
		func(u int, cs []cand) { parts[u] = cs })
	if err != nil {
		return nil, err
	}
	for _, w := range a.workers {
		if w.err != nil {
			err, w.err = w.err, nil
			return nil, fmt.Errorf("align: read a literal for negative evidence: %w", err)
		}
	}
	cands := slices.Concat(parts...)
	if a.types != nil && a.it >= 2 {
		if err := a.types.apply(ctx, a, cands); err != nil {
			return nil, err
		}
	}
	return cands, nil
}

// candidates appends the best candidates of KB1 entity y to out: those that pass the
// discriminative-evidence requirement, with negative evidence weighed in from the third
// iteration on (see factors.go), each with the number of y's relations that support it
// and of y's relations with a usable counterpart (for Corroboration).
func (w *worker) candidates(y int32, out []cand) []cand {
	a := w.a
	o := a.opts
	boot := a.it <= 1
	joinBoot := boot && a.joinBootstrapUseful()
	len1 := 1
	if a.it >= 1 {
		len1 = o.JoinLength // KB1 joins are explored from the second iteration on
	}
	w.paths = w.r1.forwardPaths(y, len1, w.paths[:0])
	var comparable relSeen
	group := w.sharedValues()
	// First the evidence of every fact, the strong kind marking its candidates as
	// proposed and the weak blocks kept unexpanded; then each fact's evidence for the
	// proposed candidates, in the order of the facts.
	w.ev, w.evFacts, w.proposed = w.ev[:0], w.evFacts[:0], w.proposed[:0]
	for _, f := range w.paths {
		an := a.anchors1(f.end)
		if len(an) == 0 {
			continue
		}
		if comparable.n < 2 && a.usableAnchor(an) {
			comparable.add(f.p, f.end)
		}
		p1 := f.p.Inverse()
		f1 := a.v1.funPath(p1) / o.Epsilon
		fun1 := a.discFun1(p1) // for the discriminative requirement only
		max2 := min(o.JoinLength, o.JoinSum-p1.Len())
		if max2 < 1 {
			continue
		}
		learned := a.rels.byP1[p1]
		lo := len(w.ev)
		for _, x2 := range an {
			switch {
			case joinBoot:
				w.bootJoinEvidence(p1, f1, fun1, x2, learned, max2)
			case boot:
				w.bootEvidence(p1, f1, fun1, x2, learned)
				w.learnedEvidence(p1, f1, fun1, x2, learned, max2, true) // joins learned in the first iteration
			default:
				w.learnedEvidence(p1, f1, fun1, x2, learned, max2, false)
			}
		}
		w.evFacts = append(w.evFacts, factEvidence{lo: lo, hi: len(w.ev), dedup: len(an) > 1 || joinBoot, p: f.p, end: f.end})
	}
	w.joint = false
	if o.MinDiscriminative > 0 && !o.expandWeak {
		w.jointProposals(boot)
	}
	if boot && o.SubjectJoins && len(w.proposed) > 0 {
		w.subjectJoins()
	}
	if len(w.proposed) > 0 {
		ids := a.v2.ids
		slices.SortFunc(w.proposed, func(x, y int32) int { return compareID(ids[x], ids[y]) })
		for _, fe := range w.evFacts {
			ev := w.proposedEvidence(w.ev[fe.lo:fe.hi])
			w.unitWork.evidence += int64(len(ev))
			w.applyEvidence(ev, fe.dedup, fe.p, fe.end, group)
		}
	}
	if group {
		w.applyGroups()
	}
	if len(w.touched) == 0 {
		return out
	}
	start := len(out)
	out = w.topCands(y, out, o.MatchCandidates, comparable.n)
	if o.NegativeEvidence && a.it >= 2 {
		cs := out[start:]
		for k := range cs {
			cs[k].score = applyOdds(cs[k].score, w.negative(cs[k].y1, cs[k].y2))
		}
		a.sortCands(cs)
	}
	return out
}

// sharedValues reports whether two of the paths of w.paths with a counterpart lead to
// the same node.
func (w *worker) sharedValues() bool {
	w.endScratch = w.endScratch[:0]
	for _, f := range w.paths {
		if len(w.a.anchors1(f.end)) > 0 {
			w.endScratch = append(w.endScratch, f.end)
		}
	}
	slices.Sort(w.endScratch)
	for k := 1; k < len(w.endScratch); k++ {
		if w.endScratch[k] == w.endScratch[k-1] {
			return true
		}
	}
	return false
}

// usableAnchor reports whether one of the anchors can carry evidence: it is not a KB2
// hub (a node with more than MaxDegree edges, never read).
func (a *aligner) usableAnchor(an []anchor) bool {
	for _, x := range an {
		if !a.v2.hub[x.node] {
			return true
		}
	}
	return false
}

// bootEvidence adds the evidence of the plain relations of anchor x2 in the first two
// iterations: each with its learned score, or the bootstrap value ι. The factor of a
// relation pair does not depend on the candidate, so a relation whose factor is below
// the evidence cut (a value shared by many entities has a low inverse functionality) is
// skipped without reading its candidates: the cost of an anchor does not grow with the
// number of entities that share it.
func (w *worker) bootEvidence(p1 Path, f1, fun1 float64, x2 anchor, learned []relEntry) {
	a := w.a
	o := a.opts
	b := a.bootstrap(p1.Len() - 1)
	for rel, block := range byRelation(w.r2.edges(x2.node)) {
		p2 := NewPath(rel)
		sub, super := b, b
		if e, ok := findLearned(learned, p2); ok {
			sub, super = e.s21/o.Epsilon, e.s12/o.Epsilon
		}
		fun2, g1, d1 := a.v2.funRel(rel), f1, fun1
		g1, d1, fun2 = a.liftShared(p1, p2, g1, d1, fun2)
		fac := Factor(x2.score, sub, super, g1, fun2/o.Epsilon)
		if 1-fac <= o.EvidenceCut {
			continue
		}
		w.addBlock(x2.node, block, p2, fac, min(d1, fun2))
	}
}

// addBlock adds the evidence of one block, the KB2 entities that KB2 node x reaches
// through the edges es (one relation, path p2), with one factor and discriminativeness.
// A block as discriminative as MinDiscriminative proposes its entities as candidates; a
// weaker one is kept as one item and only scores the candidates that stronger evidence
// proposes (proposedEvidence), so its cost does not grow with its size.
func (w *worker) addBlock(x int32, es []ledge, p2 Path, fac, disc float64) {
	a := w.a
	if !a.proposes(disc) {
		w.ev = append(w.ev, evidence{y2: ^x, x: x, p2: p2, factor: fac, disc: disc})
		return
	}
	for _, e := range es {
		if e.node != x && !a.v2.lit[e.node] {
			w.propose(e.node)
			w.ev = append(w.ev, evidence{y2: e.node, x: x, p2: p2, factor: fac, disc: disc})
		}
	}
}

// proposes reports whether evidence whose relation pair is as discriminative as disc
// proposes candidates: a candidate whose every support is less discriminative than
// MinDiscriminative is never kept (topCands).
func (a *aligner) proposes(disc float64) bool {
	return disc >= a.opts.MinDiscriminative || a.opts.expandWeak
}

// propose marks KB2 node y2 as a candidate of the current entity.
func (w *worker) propose(y2 int32) {
	if c := &w.acc[y2]; !c.proposed {
		c.proposed = true
		w.proposed = append(w.proposed, y2)
	}
}

// bootJoinEvidence is bootEvidence with joins, used when ι is large enough for a join to
// give evidence in the bootstrap (it is not with PARIS's constants).
func (w *worker) bootJoinEvidence(p1 Path, f1, fun1 float64, x2 anchor, learned []relEntry, max2 int) {
	a := w.a
	o := a.opts
	w.paths2 = w.r2.forwardPaths(x2.node, max2, w.paths2[:0])
	for _, pe := range w.paths2 {
		if a.v2.lit[pe.end] {
			continue
		}
		b := a.bootstrap(p1.Len() - 1 + pe.p.Len() - 1)
		sub, super := b, b
		if e, ok := findLearned(learned, pe.p); ok {
			sub, super = e.s21/o.Epsilon, e.s12/o.Epsilon
		}
		fun2 := a.v2.funPath(pe.p)
		if fac := Factor(x2.score, sub, super, f1, fun2/o.Epsilon); 1-fac > o.EvidenceCut {
			disc := min(fun1, fun2)
			if a.proposes(disc) {
				w.propose(pe.end)
			}
			w.ev = append(w.ev, evidence{y2: pe.end, x: -1, p2: pe.p, factor: fac, disc: disc})
		}
	}
}

// learnedEvidence adds the evidence of the learned relation pairs of p1 (only the joins
// if joinsOnly), following each KB2 path from anchor x2 when its factor passes the cut.
func (w *worker) learnedEvidence(p1 Path, f1, fun1 float64, x2 anchor, learned []relEntry, max2 int, joinsOnly bool) {
	a := w.a
	o := a.opts
	for _, e := range learned {
		if e.p2.Len() > max2 || (joinsOnly && !e.p2.IsJoin()) {
			continue
		}
		fun2, g1, d1 := a.v2.funPath(e.p2), f1, fun1
		g1, d1, fun2 = a.liftShared(p1, e.p2, g1, d1, fun2)
		fac := Factor(x2.score, e.s21/o.Epsilon, e.s12/o.Epsilon, g1, fun2/o.Epsilon)
		if 1-fac <= o.EvidenceCut {
			continue
		}
		disc := min(d1, fun2)
		if e.p2.Len() == 1 {
			w.addBlock(x2.node, w.r2.edgesRel(x2.node, e.p2.Step(0)), e.p2, fac, disc)
			continue
		}
		w.ends = w.followPath(&w.r2, x2.node, e.p2, w.ends[:0])
		strong := a.proposes(disc)
		for _, y2 := range w.ends {
			if !a.v2.lit[y2] {
				if strong {
					w.propose(y2)
				}
				w.ev = append(w.ev, evidence{y2: y2, x: -1, p2: e.p2, factor: fac, disc: disc})
			}
		}
	}
}

// byRelation yields the runs of edges with one relation of es (sorted by relation).
func byRelation(es []ledge) iter.Seq2[graph.Rel, []ledge] {
	return func(yield func(graph.Rel, []ledge) bool) {
		for lo := 0; lo < len(es); {
			rel := es[lo].rel
			// The run's end by binary search: a shared value's skipped run costs log n.
			n, _ := slices.BinarySearchFunc(es[lo:], rel+1, func(e ledge, r graph.Rel) int { return cmp.Compare(e.rel, r) })
			if !yield(rel, es[lo:lo+n]) {
				return
			}
			lo += n
		}
	}
}

// proposedEvidence returns the evidence of one KB1 fact (items of w.ev, weak blocks
// unexpanded) for the proposed candidates (w.proposed, sorted by KB id), in the order
// the items had, each weak block expanded by binary search for the proposed candidates
// among its edges (sorted by relation, then KB id).
func (w *worker) proposedEvidence(items []evidence) []evidence {
	v := w.a.v2
	out := w.evFact[:0]
	dropped := false
	for _, it := range items {
		if it.y2 >= 0 {
			if w.acc[it.y2].proposed {
				it.brk, dropped = dropped, false
				out = append(out, it)
			} else {
				dropped = true
			}
			continue
		}
		x := ^it.y2
		es := w.r2.edgesRel(x, it.p2.Step(0))
		next := 0 // the first edge of es after the last item kept
		for _, y2 := range w.proposed {
			if y2 == x {
				continue
			}
			j, ok := slices.BinarySearchFunc(es[next:], v.ids[y2], func(e ledge, id graph.ID) int { return compareID(v.ids[e.node], id) })
			if !ok {
				continue
			}
			j += next
			if w.blockItems(x, es[next:j]) {
				dropped = true
			}
			it.y2, it.brk, dropped = y2, dropped, false
			out = append(out, it)
			next = j + 1
		}
		if w.blockItems(x, es[next:]) {
			dropped = true
		}
	}
	w.evFact = out
	return out
}

// blockItems reports whether edges es of KB2 node x hold an item of a block: an edge to
// an entity other than x.
func (w *worker) blockItems(x int32, es []ledge) bool {
	for _, e := range es {
		if e.node != x && !w.a.v2.lit[e.node] {
			return true
		}
	}
	return false
}

// findLearned returns the entry of p2 in learned (sorted by p2).
func findLearned(learned []relEntry, p2 Path) (relEntry, bool) {
	i, ok := slices.BinarySearchFunc(learned, p2, func(e relEntry, p Path) int { return comparePath(e.p2, p) })
	if !ok {
		return relEntry{}, false
	}
	return learned[i], true
}

// applyEvidence multiplies the factors of w.ev, the evidence of the KB1 fact whose value
// is the node end, reached through path p, into the candidates' products (or, with
// group, keeps them for applyGroups), and records for each candidate the most
// discriminative relation pair that supports it and the distinct relations and values
// that do. One KB1 fact supports a (path, candidate) pair once, through its best anchor;
// with one anchor and no bootstrap joins no pair can repeat, and the evidence is already
// in path order.
func (w *worker) applyEvidence(ev []evidence, dedup bool, p Path, end int32, group bool) {
	sorted := dedup || group
	if sorted {
		slices.SortFunc(ev, func(x, y evidence) int {
			return cmp.Or(cmp.Compare(x.y2, y.y2), comparePath(x.p2, y.p2), cmp.Compare(x.factor, y.factor))
		})
	}
	for k := 0; k < len(ev); {
		y2, start := ev[k].y2, k
		fac, disc := 1.0, 0.0
		for ; k < len(ev) && ev[k].y2 == y2 && (k == start || sorted || !ev[k].brk); k++ {
			e := ev[k]
			if dedup && k > start && ev[k-1].p2 == e.p2 {
				continue
			}
			fac *= e.factor
			disc = max(disc, e.disc)
		}
		if group {
			w.grp = append(w.grp, grouped{end: end, y2: y2, factor: fac, disc: disc, p: p})
		} else {
			w.support(y2, fac, disc, p, end)
		}
	}
}

// grouped is the evidence of one KB1 fact for one candidate, kept when the entity
// reaches one value node through several relations.
type grouped struct {
	end, y2 int32
	factor  float64
	disc    float64
	p       Path
}

// applyGroups applies the evidence kept by applyEvidence: a value node that the entity
// reaches through several relations (a series named like the book's title) supports a
// candidate once, through the relation with the strongest evidence; two relations with
// one value are not independent evidence.
func (w *worker) applyGroups() {
	g := w.grp
	slices.SortFunc(g, func(x, y grouped) int {
		return cmp.Or(cmp.Compare(x.end, y.end), cmp.Compare(x.y2, y.y2), cmp.Compare(x.factor, y.factor), comparePath(x.p, y.p))
	})
	for k, e := range g {
		if k > 0 && g[k-1].end == e.end && g[k-1].y2 == e.y2 {
			continue
		}
		w.support(e.y2, e.factor, e.disc, e.p, e.end)
	}
	w.grp = g[:0]
}

// candAcc is the evidence gathered for one candidate of the current KB1 entity: the
// product of its evidence factors (1 when untouched), the best discriminativeness of the
// supporting relation pairs and the distinct KB1 relations supporting it. The three lie
// together, so that a support, a random access by KB2 node, reads one cache line
// rather than three.
type candAcc struct {
	prod, disc float64
	rel        relSeen
	proposed   bool // strong evidence proposed the node (see addBlock)
	joint      bool // two weak facts identify the node together (jointProposals)
}

// support multiplies one fact's evidence into candidate y2's product.
func (w *worker) support(y2 int32, fac, disc float64, p Path, end int32) {
	w.unitWork.supports++
	c := &w.acc[y2]
	if c.prod == 1 {
		w.touched = append(w.touched, y2)
	}
	c.prod *= fac
	c.disc = max(c.disc, disc)
	c.rel.add(p, end)
}

// relSeen counts the KB1 facts with distinct relations and distinct values that support
// a candidate (or that an entity has), up to two.
type relSeen struct {
	first Path
	end   int32
	n     uint8
}

func (r *relSeen) add(p Path, end int32) {
	switch {
	case r.n == 0:
		r.first, r.end, r.n = p, end, 1
	case r.n == 1 && p != r.first && end != r.end:
		r.n = 2
	}
}

// topCands appends the k best candidates of y (products of evidence factors in w.acc)
// that are supported by a relation pair at least MinDiscriminative, with their support
// and y's comparable relations, by decreasing score, ties by increasing KB2 node id,
// selecting without sorting them all (a literal shared with many KB2 entities, such as a
// year, can give thousands of candidates), and resets the products.
func (w *worker) topCands(y int32, out []cand, k int, comparable uint8) []cand {
	ids := w.a.v2.ids
	minDisc := w.a.opts.MinDiscriminative
	top := out[len(out):]
	better := func(x, y cand) bool {
		if x.score != y.score {
			return x.score > y.score
		}
		return ids[x.y2] < ids[y.y2]
	}
	for _, y2 := range w.touched {
		ac := &w.acc[y2]
		c := cand{y1: y, y2: y2, score: 1 - ac.prod, support: ac.rel.n, comparable: comparable}
		ok := ac.disc >= minDisc || ac.joint
		*ac = candAcc{prod: 1}
		if !ok || (len(top) == k && !better(c, top[k-1])) {
			continue
		}
		i := len(top)
		top = append(top, c)
		for ; i > 0 && better(c, top[i-1]); i-- {
			top[i] = top[i-1]
		}
		top[i] = c
		if len(top) > k {
			top = top[:k]
		}
	}
	w.touched = w.touched[:0]
	return append(out, top...)
}

// sortCands orders candidates of one KB1 node by decreasing score, ties by KB2 node id.
func (a *aligner) sortCands(cs []cand) {
	slices.SortFunc(cs, func(x, y cand) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return compareID(a.v2.ids[x.y2], a.v2.ids[y.y2])
	})
}

// followPath appends to ends every distinct end of path p from x, with the rules of
// forwardPaths (no literal in the middle, no loop): in edge order for one step, sorted
// for joins.
func (w *worker) followPath(r *reader, x int32, p Path, ends []int32) []int32 {
	v := r.v
	es := r.edgesRel(x, p.Step(0))
	if p.Len() == 1 {
		for _, e := range es {
			if e.node != x {
				ends = append(ends, e.node)
			}
		}
		return ends
	}
	start := len(ends)
	for _, e := range es {
		m := e.node
		if m == x || v.lit[m] {
			continue
		}
		for _, e2 := range r.edgesRel(m, p.Step(1)) {
			m2 := e2.node
			if m2 == x || m2 == m {
				continue
			}
			if p.Len() == 2 {
				ends = append(ends, m2)
				continue
			}
			if v.lit[m2] {
				continue
			}
			for _, e3 := range r.edgesRel(m2, p.Step(2)) {
				if e3.node != x && e3.node != m && e3.node != m2 {
					ends = append(ends, e3.node)
				}
			}
		}
	}
	slices.Sort(ends[start:])
	return append(ends[:start], slices.Compact(ends[start:])...)
}

func comparePath(a, b Path) int {
	if c := cmp.Compare(a.n, b.n); c != 0 {
		return c
	}
	for i := 0; i < int(a.n); i++ {
		if c := cmp.Compare(a.r[i], b.r[i]); c != 0 {
			return c
		}
	}
	return 0
}
