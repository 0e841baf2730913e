package align

import (
	"context"

	"github.com/trawl-dev/trawl/graph"
)

// Copy-aware inverse functionality (decision record 2026-11-27-linking-evidence-factors).
//
// The discriminative requirement (Options.MinDiscriminative) asks how well a value
// identifies its subject: PARIS's inverse functionality, distinct values over facts. A
// source that lists one entity several times (the case of Options.OneToMany) lowers it
// for every relation, identifiers included: three copies of a person share one social
// security number. An author name shared by three different books is another matter.
// So, for KB1, the subjects that share a value are counted once when they can be copies
// of one another: on every relation that is functional in KB1 (functionality ≥
// copyFunctionality) where both have literal values, some pair of them is at least
// loosely similar (2-gram Dice ≥ copyMinDice, dates within DateTolerance years). Books
// of one author differ in title or year; copies of a person differ at most by a typo.

const (
	// copyFunctionality is the least functionality of a KB1 relation on which copies
	// must agree (a record has one title and one date, but several authors).
	copyFunctionality = 0.9
	// copyMinDice is the Dice coefficient under which two values of a functional
	// relation are different values rather than one value with a typo.
	copyMinDice = 0.3
	// copyMaxGroup is the largest number of subjects of one value compared pairwise; a
	// value shared by more identifies nothing, and is counted as PARIS counts it.
	copyMaxGroup = 16
	// copyMinFun is the least PARIS inverse functionality of a relation whose
	// copy-aware value is computed: below it, copies cannot lift it to any useful
	// bound.
	copyMinFun = 0.25
)

// copyAwareFun1 fills a.copyFun1 for the inverse KB1 relations (value → subject) whose
// PARIS inverse functionality is at least copyMinFun and below MinDiscriminative: the
// only ones the copies can move across the bound.
func (a *aligner) copyAwareFun1(ctx context.Context) error {
	a.copyFun1 = map[graph.Rel]float64{}
	if a.opts.MinDiscriminative == 0 {
		return nil
	}
	w := a.workers[0]
	w.ctx, w.err = ctx, nil
	objects, facts := map[graph.Rel]int{}, map[graph.Rel]int{}
	for z := int32(0); z < int32(a.v1.size()); z++ {
		if z%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for rel, subs := range byRelation(a.v1.nodeEdges(z)) {
			if !rel.IsInverse() {
				continue
			}
			fun := a.v1.funRel(rel)
			if fun < copyMinFun || fun >= a.opts.MinDiscriminative {
				continue
			}
			objects[rel]++
			facts[rel] += w.distinctSubjects(subs)
		}
	}
	for rel, n := range objects {
		if facts[rel] > 0 {
			a.copyFun1[rel] = float64(n) / float64(facts[rel])
		}
	}
	return w.err
}

// discFun1 returns the inverse functionality of the KB1 path p (value → subject) for
// the discriminative requirement: copy-aware for a single relation, PARIS's otherwise.
func (a *aligner) discFun1(p Path) float64 {
	fun := a.v1.funPath(p)
	if p.Len() == 1 {
		if f, ok := a.copyFun1[p.Step(0)]; ok {
			return max(fun, f)
		}
	}
	return fun
}

// distinctSubjects counts the subjects of one value (edges from it) that are not copies
// of an earlier one.
func (w *worker) distinctSubjects(subs []ledge) int {
	if len(subs) < 2 || len(subs) > copyMaxGroup {
		return len(subs)
	}
	var reps [copyMaxGroup]int32
	n := 0
	for _, e := range subs {
		copied := false
		for _, r := range reps[:n] {
			if w.copyOf(e.node, r) {
				copied = true
				break
			}
		}
		if !copied {
			reps[n] = e.node
			n++
		}
	}
	return n
}

// copyOf reports whether KB1 entities y and b can be copies of one entity: no relation
// functional in KB1 on which both have literal values, none of y's near one of b's.
func (w *worker) copyOf(y, b int32) bool {
	a := w.a
	loose := a.opts
	loose.ApproxMinDice, loose.ApproxPenalty = copyMinDice, 1
	eb := a.v1.nodeEdges(b)
	for rel, vals := range byRelation(a.v1.nodeEdges(y)) {
		if rel.IsInverse() || a.v1.funRel(rel) < copyFunctionality {
			continue
		}
		known, near := false, false
		for _, v := range vals {
			if !a.v1.lit[v.node] {
				continue
			}
			t1, ok := w.term1(v.node)
			if !ok {
				return false
			}
			for _, e := range eb {
				if e.rel != rel || !a.v1.lit[e.node] {
					continue
				}
				known = true
				if e.node == v.node {
					near = true
					break
				}
				t2, ok := w.term1(e.node)
				if !ok {
					return false
				}
				if literalSimilarity(t1, t2, loose) > 0 {
					near = true
					break
				}
			}
			if near {
				break
			}
		}
		if known && !near {
			return false
		}
	}
	return true
}
