package align

import (
	"cmp"
	"slices"

	"github.com/trawl-dev/trawl/graph"
)

// Subject joins (Options.SubjectJoins; decision record
// 2026-11-28-align-subject-joins).
//
// A source's record is a star: its values (a title, an author's name, a publisher's
// name) hang off the record, while in the KB most of them sit one entity away (the
// book's author is a person whose label is the name). In the first two iterations,
// when no relation is known yet, PARIS has only the values that equal the KB entities'
// own literals, and the join bootstrap ι/(1 + 20·extra) is too small to count. When the
// record's most discriminative value is a neighbour's label (an author's name is nearly
// unique; titles repeat among many books), the record's best candidate is then that
// neighbour: every book record becomes its author, and the relations learnt from that
// (title ⊆ author⁻/label) keep it so.
//
// The subject of a record is the entity from which its values are reached by
// functional paths: its own literals, and the labels of the entities it points to by a
// relation it has one value of (a book has one author; a person has many books). So in
// the bootstrap, for every candidate e that a fact of the record proposes, each
// neighbour c of e that e is a many-to-one value of (c —q→ e with Functionality(q) ≥
// subjectMinFun and above Functionality(q⁻)), and that holds a value of another relation of the record as one of
// its own literals (corroboration), also gets that fact's evidence through the join,
// weakened by the functionality: 1 − fun(q)·(1 − factor). c is proposed, so its weak
// evidence (a title shared by several books) counts as well. The record's author, who
// wrote many books (author⁻ is not functional), does not get the books' evidence back.
// When no value proposes anything (names shared too), the entities of a small weak block
// are sources as well, towards the neighbours that jointProposals proposed only.

// subjectMinFun is the least functionality of the relation from a neighbour to a
// proposed candidate for the neighbour to receive the candidate's evidence: a relation
// most subjects have one value of (a book's author or publisher, a person's birthplace;
// not a place's inhabitants or an author's books).
const subjectMinFun = 0.7

// litFact is a KB2 literal that anchors a value of the current entity's fact evFacts[k].
type litFact struct {
	node int32
	k    int32
}

// subjectJoins adds, in the bootstrap iterations, the evidence of the proposed
// candidates' facts to their functional neighbours that another fact corroborates (see
// above). It appends items to w.ev and facts to w.evFacts, and proposes the neighbours.
func (w *worker) subjectJoins() {
	a := w.a
	v2 := a.v2
	lits := w.subLits[:0]
	for k, fe := range w.evFacts {
		if fe.p.Len() != 1 {
			continue
		}
		for _, x := range a.anchors1(fe.end) {
			if v2.lit[x.node] {
				lits = append(lits, litFact{node: x.node, k: int32(k)})
			}
		}
	}
	w.subLits = lits
	if len(lits) == 0 {
		return
	}
	slices.SortFunc(lits, func(x, y litFact) int { return cmp.Or(cmp.Compare(x.node, y.node), cmp.Compare(x.k, y.k)) })
	// corroborated reports whether neighbour c holds, as its own literal, a value of a
	// fact of another relation than fact k's, and none of fact k's own values (which
	// would support c directly).
	corroborated := func(c int32, k int) bool {
		other := false
		for _, e := range w.r2.edges(c) {
			if !v2.lit[e.node] {
				continue
			}
			i, _ := slices.BinarySearchFunc(lits, e.node, func(l litFact, n int32) int { return cmp.Compare(l.node, n) })
			for ; i < len(lits) && lits[i].node == e.node; i++ {
				j := int(lits[i].k)
				if j == k || w.evFacts[j].p == w.evFacts[k].p {
					return false
				}
				other = true
			}
		}
		return other
	}
	n := len(w.evFacts)
	for k := range n {
		fe := w.evFacts[k]
		if fe.p.Len() != 1 {
			continue
		}
		lo := len(w.ev)
		for _, it := range w.ev[fe.lo:fe.hi] {
			if it.p2.Len() != 1 {
				continue
			}
			if it.y2 >= 0 {
				if it.disc >= a.opts.MinDiscriminative || (w.joint && w.smallBlock(it.x, it.p2.Step(0))) {
					w.transfer(k, it, it.y2, corroborated)
				}
				continue
			}
			// A weak block: its entities are sources when it is small, towards the
			// neighbours that jointProposals proposed (none proposed: nothing to read).
			x := ^it.y2
			if !w.joint || !w.smallBlock(x, it.p2.Step(0)) {
				continue
			}
			for _, e := range w.r2.edgesRel(x, it.p2.Step(0)) {
				if e.node != x && !v2.lit[e.node] {
					w.transfer(k, it, e.node, corroborated)
				}
			}
		}
		if len(w.ev) > lo {
			w.evFacts = append(w.evFacts, factEvidence{lo: lo, hi: len(w.ev), dedup: true, p: fe.p, end: fe.end})
		}
	}
}

// smallBlock reports whether the block of KB2 node x along rel (x ≥ 0) is small enough
// for its entities to be sources of subject joins when it is weak.
func (w *worker) smallBlock(x int32, rel graph.Rel) bool {
	return x >= 0 && len(w.r2.edgesRel(x, rel)) <= jointMaxSmall
}

// transfer gives the evidence it of fact k, for KB2 entity e, to e's neighbours that e
// is a many-to-one value of and that another fact corroborates; from weak evidence only
// to the neighbours jointProposals proposed.
func (w *worker) transfer(k int, it evidence, e int32, corroborated func(int32, int) bool) {
	a := w.a
	v2 := a.v2
	if v2.hub[e] {
		return
	}
	weak := it.disc < a.opts.MinDiscriminative
	for _, ed := range w.r2.edges(e) {
		c := ed.node
		if c == e || v2.lit[c] || v2.hub[c] || (weak && !w.acc[c].joint) {
			continue
		}
		fun, ok := a.manyToOne(ed.rel)
		if !ok || !corroborated(c, k) {
			continue
		}
		fac := 1 - fun*(1-it.factor)
		if 1-fac <= a.opts.EvidenceCut {
			continue
		}
		w.propose(c)
		w.ev = append(w.ev, evidence{y2: c, x: -1, p2: it.p2.then(ed.rel), factor: fac, disc: it.disc})
	}
}

// manyToOne reports whether an edge r from e to c makes e a many-to-one value of c (c
// —r⁻→ e with Functionality(r⁻) ≥ subjectMinFun and above Functionality(r)), and
// returns Functionality(r⁻).
func (a *aligner) manyToOne(r graph.Rel) (float64, bool) {
	fun := a.v2.funRel(r.Inverse())
	return fun, fun >= subjectMinFun && fun > a.v2.funRel(r)
}

// Joint proposals. A candidate is kept only when its support is discriminative
// (MinDiscriminative: 1 / the mean number of subjects per value, at least 0.7), and only
// such evidence proposes candidates (addBlock). Two values of distinct relations, neither
// discriminative alone, can be together: a title that a few books share and the name of
// an author of a few books identify one book. jointProposals intersects the weak sets of
// every two facts of distinct relations (a weak block: the entities that share one KB2
// value; or the entities one fact reaches through a join) and proposes the entities of
// an intersection when
//
//   - one of the two relations identifies the entities of KB1 (its values are
//     discriminative there, as a title is among a source's records): the pair makes up
//     for values that collide in KB2, not for values that do not identify KB1's
//     entities (an author and a series name are shared by the series' books, and a
//     series named after its first book would take them all there);
//   - at most 1/MinDiscriminative entities share both values (the bound on one value,
//     applied to the pair), and
//   - chance would seldom give such an intersection: with sets of a and b entities out
//     of populations of at least n (the entities that have the relation), an entity
//     absent from the KB agrees with some entity on both values with probability about
//     a·b/n, which must be at most jointMaxChance. An author's ten books and the 80
//     books of a year among 8,000 share one by chance for one record in ten (a book of
//     the author from that year that is not the record's); the author's ten books and
//     the six books of a title among 140,000 for one in two thousand.
//
// The entities proposed count as discriminatively supported (candAcc.joint).

// jointMaxChance is the largest probability that two weak sets share an entity by
// chance for their intersection to be proposed (see above).
const jointMaxChance = 0.01

// weakSet is the weak evidence of one fact: a block (the edges of KB2 node x with
// relation rel) or, with x < 0, the fact's weak join items in w.weakNodes[lo:hi].
type weakSet struct {
	k      int
	x      int32
	last   graph.Rel // the step that reaches the set's entities
	rel    graph.Rel
	lo, hi int
}

// jointMaxSmall bounds the smaller set of an intersection: each of its entities is
// searched for in the larger one. A value shared by more entities (a year, a genre,
// a town) is intersected only with a smaller set.
const jointMaxSmall = 256

func (w *worker) jointProposals(boot bool) {
	a := w.a
	v2 := a.v2
	// Gate (a) first: a pair needs a fact of a relation that identifies KB1's entities
	// and has weak evidence itself (a name that collides in KB2, not one that proposes).
	ident := w.ident[:0]
	any := false
	for _, fe := range w.evFacts {
		id := a.discFun1(fe.p.Inverse()) >= a.opts.MinDiscriminative && w.hasWeak(fe)
		ident = append(ident, id)
		any = any || id
	}
	w.ident = ident
	if !any {
		return
	}
	sets := w.weakSets[:0]
	nodes := w.weakNodes[:0]
	for k, fe := range w.evFacts {
		lo := len(nodes)
		var last graph.Rel
		for _, it := range w.ev[fe.lo:fe.hi] {
			switch {
			case it.y2 < 0 || (it.x >= 0 && !a.proposes(it.disc)):
				// A weak block, kept as one item or (expandWeak) expanded.
				if n := len(sets); n > 0 && sets[n-1].k == k && sets[n-1].x == it.x && sets[n-1].rel == it.p2.Step(0) {
					continue
				}
				sets = append(sets, weakSet{k: k, x: it.x, rel: it.p2.Step(0), last: it.p2.Step(0)})
			case !a.proposes(it.disc):
				if len(nodes) == lo {
					last = it.p2.last()
				}
				nodes = append(nodes, ledge{node: it.y2})
			}
		}
		if boot && a.opts.SubjectJoins && fe.p.Len() == 1 {
			// In the bootstrap, the entities a small weak block's entities are a
			// many-to-one value of (the books of the persons named like the record's
			// author): the set a subject join would reach.
			nodes, last = w.neighbourSet(w.ev[fe.lo:fe.hi], nodes, last, len(nodes) > lo)
		}
		if n := nodes[lo:]; len(n) > 0 {
			ids := v2.ids
			slices.SortFunc(n, func(x, y ledge) int { return compareID(ids[x.node], ids[y.node]) })
			n = slices.CompactFunc(n, func(x, y ledge) bool { return x.node == y.node })
			nodes = nodes[:lo+len(n)]
			sets = append(sets, weakSet{k: k, x: -1, last: last, lo: lo, hi: len(nodes)})
		}
	}
	w.weakSets, w.weakNodes = sets, nodes
	if len(sets) < 2 {
		return
	}
	most := int(1 / a.opts.MinDiscriminative) // subjects a discriminative pair of values may share
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			si, sj := sets[i], sets[j]
			if (!ident[si.k] && !ident[sj.k]) || w.evFacts[si.k].p == w.evFacts[sj.k].p {
				continue
			}
			na, nb := w.setNodes(si), w.setNodes(sj)
			n := min(a.population(si.last), a.population(sj.last))
			if float64(len(na))*float64(len(nb)) > jointMaxChance*n {
				continue
			}
			w.intersect(na, nb, si.x, sj.x, most)
		}
	}
}

// population returns the number of distinct KB2 nodes that step s reaches (the subjects
// of a relation for its inverse, its objects for itself).
func (a *aligner) population(s graph.Rel) float64 {
	return a.v2.funRel(s.Inverse()) * float64(a.v2.kb.FactCount(s))
}

// neighbourSet appends to nodes the entities that the entities of the small weak blocks
// among items are many-to-one values of, and returns the relation of the first such edge
// as last unless the set has one (has).
func (w *worker) neighbourSet(items []evidence, nodes []ledge, last graph.Rel, has bool) ([]ledge, graph.Rel) {
	a := w.a
	v2 := a.v2
	for k, it := range items {
		x, rel := it.x, it.p2.Step(0)
		if it.p2.Len() != 1 || a.proposes(it.disc) || !w.smallBlock(x, rel) {
			continue
		}
		if k > 0 && items[k-1].x == x && items[k-1].p2 == it.p2 {
			continue // expandWeak: the block's next item
		}
		for _, e := range w.r2.edgesRel(x, rel) {
			if e.node == x || v2.lit[e.node] || v2.hub[e.node] {
				continue
			}
			for _, ed := range w.r2.edges(e.node) {
				if v2.lit[ed.node] || v2.hub[ed.node] {
					continue
				}
				if _, ok := a.manyToOne(ed.rel); ok {
					if !has {
						last, has = ed.rel, true
					}
					nodes = append(nodes, ledge{node: ed.node})
				}
			}
		}
	}
	return nodes, last
}

// hasWeak reports whether fact fe has weak evidence: a block kept unexpanded or an item
// that does not propose.
func (w *worker) hasWeak(fe factEvidence) bool {
	for _, it := range w.ev[fe.lo:fe.hi] {
		if it.y2 < 0 || !w.a.proposes(it.disc) {
			return true
		}
	}
	return false
}

// setNodes returns the KB2 nodes of a weak set as edges sorted by KB id.
func (w *worker) setNodes(s weakSet) []ledge {
	if s.x >= 0 {
		return w.r2.edgesRel(s.x, s.rel)
	}
	return w.weakNodes[s.lo:s.hi]
}

// intersect proposes, as jointly discriminative, the entities that lists a and b
// (sorted by KB id) share, other than the blocks' own value nodes xa and xb, when they
// are at most most.
func (w *worker) intersect(a, b []ledge, xa, xb int32, most int) {
	if len(a) > len(b) {
		a, b, xa, xb = b, a, xb, xa
	}
	if len(a) == 0 || len(a) > jointMaxSmall {
		return
	}
	v2 := w.a.v2
	ids := v2.ids
	var found [8]int32
	n := 0
	for _, e := range a {
		if e.node == xa || e.node == xb || v2.lit[e.node] {
			continue
		}
		if _, ok := slices.BinarySearchFunc(b, ids[e.node], func(f ledge, id graph.ID) int { return compareID(ids[f.node], id) }); !ok {
			continue
		}
		if n == most || n == len(found) {
			return // too many share both values
		}
		found[n] = e.node
		n++
	}
	for _, y2 := range found[:n] {
		w.joint = true
		w.propose(y2)
		w.acc[y2].joint = true
	}
}
