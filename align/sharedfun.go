package align

import (
	"context"

	"github.com/trawl-dev/trawl/graph"
)

// Inverse functionality over the shared values (decision record
// 2026-11-27-linking-shared-value-functionality).
//
// PARIS weighs a shared value by the inverse functionality of its relation over the whole
// KB (paris.md §2). A relation that several classes use mixes their statistics: in OAEI
// Restaurants, name names the restaurants (one name, one restaurant) and also the
// cities of restaurant1.nt (13 names over 113 cities) and the categories of
// restaurant2.nt (81 names over 752 category nodes), so its inverse functionality is
// 0.56 and 0.55 although a restaurant's name identifies it (1.0 and 0.99 among
// restaurants). A restaurant that agrees on its name only then falls under the
// discriminative bound and cannot outweigh a changed phone number.
//
// Evidence only ever flows through the values the two KBs share. So for a pair of
// relations (r1, r2) whose values are literals, the inverse functionality that matters is
// the one over the values of r1 that have an exact counterpart among the values of r2:
// distinct values / facts, on each side, over those values only (KB1's subjects counted
// copy-aware as in copies.go). A name shared by restaurants counts restaurants; a
// category name never matches a restaurant's name. A year, a category or a common author
// name stays shared by many subjects among the shared values too. A value that is a hub
// of KB2 (its edges unread) counts as shared by MaxDegree subjects on every relation.
//
// In the instance evidence of single literal steps (PARIS's factor and the discriminative
// requirement), the estimate lifts PARIS's global one on a side where that one is under
// the discriminative bound (MinDiscriminative), when it is higher and at least
// sharedMinValues values are shared on each side. It repairs what the bound would drop
// and nothing else. It never lowers PARIS's value: the shared values are few and lean to
// the contested ones (a title that names a book and a film), and lowering lost every link
// of the films site to the demo KB and a tenth of the calibre records whose authors are
// written "Last, First" (their dates fell under the evidence cut). Nor does it lift a
// value already over the bound: among the 40 records of the deep-web books test, the
// authors found in YAGO repeat less than the others (0.93 against 0.76), and the records
// became their authors.

// sharedMinValues is the least number of distinct shared values, on each side, behind an
// estimate over the shared values.
const sharedMinValues = 10

// relPair is a pair of inverse relations (value → subject) of KB1 and KB2.
type relPair struct{ r1, r2 graph.Rel }

// sharedFun is the inverse functionality of both relations of a pair over their shared
// values.
type sharedFun struct{ f1, f2 float64 }

// sharedValueFun fills a.sharedFun from the exact literal anchors of KB1.
func (a *aligner) sharedValueFun(ctx context.Context) error {
	a.sharedFun = map[relPair]sharedFun{}
	var nodes []int32
	seen := map[int32]bool{}
	for z := int32(0); z < int32(a.v1.size()); z++ {
		if !a.v1.lit[z] {
			continue
		}
		for _, x := range a.lit1.of(z) {
			if x.score >= 1 && !seen[x.node] {
				seen[x.node] = true
				nodes = append(nodes, x.node)
			}
		}
	}
	if len(nodes) == 0 {
		return nil
	}
	if err := a.v2.fetch(ctx, nodes); err != nil {
		return err
	}
	type acc struct {
		v1     map[int32]bool
		facts1 int
		v2     map[int32]int // KB2 value → its subjects along r2
	}
	accs := map[relPair]*acc{}
	get := func(p relPair) *acc {
		ac := accs[p]
		if ac == nil {
			ac = &acc{v1: map[int32]bool{}, v2: map[int32]int{}}
			accs[p] = ac
		}
		return ac
	}
	// A KB2 hub (edges unread) is shared by more subjects than MaxDegree on whichever
	// relation: it counts so on every pair of its KB1 relation.
	type hubValue struct {
		z, x int32
		subs []ledge
	}
	hubs := map[graph.Rel][]hubValue{}
	w := a.workers[0]
	w.ctx, w.err = ctx, nil
	for z := int32(0); z < int32(a.v1.size()); z++ {
		if z%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if !a.v1.lit[z] || len(a.lit1.of(z)) == 0 {
			continue
		}
		for r1, subs := range byRelation(a.v1.nodeEdges(z)) {
			n1 := 0 // distinct subjects of z along r1, computed once
			for _, x := range a.lit1.of(z) {
				if x.score < 1 {
					continue
				}
				add := func(r2 graph.Rel, n2 int) {
					ac := get(relPair{r1, r2})
					if !ac.v1[z] {
						if n1 == 0 {
							n1 = w.distinctSubjects(subs)
						}
						ac.v1[z] = true
						ac.facts1 += n1
					}
					ac.v2[x.node] = n2
				}
				if a.v2.hub[x.node] {
					hubs[r1] = append(hubs[r1], hubValue{z, x.node, subs})
					continue
				}
				for r2, block := range byRelation(a.v2.nodeEdges(x.node)) {
					n2 := 0
					for _, e := range block {
						if !a.v2.lit[e.node] {
							n2++
						}
					}
					if n2 > 0 {
						add(r2, n2)
					}
				}
			}
		}
	}
	for p, ac := range accs {
		for _, h := range hubs[p.r1] {
			if !ac.v1[h.z] {
				ac.v1[h.z] = true
				ac.facts1 += w.distinctSubjects(h.subs)
			}
			ac.v2[h.x] = a.opts.MaxDegree
		}
		if len(ac.v1) < sharedMinValues || len(ac.v2) < sharedMinValues || ac.facts1 == 0 {
			continue
		}
		facts2 := 0
		for _, n := range ac.v2 {
			facts2 += n
		}
		a.sharedFun[p] = sharedFun{f1: float64(len(ac.v1)) / float64(ac.facts1), f2: float64(len(ac.v2)) / float64(facts2)}
	}
	return w.err
}

// liftShared returns the inverse functionalities of the evidence of the single-step
// relation pair (p1, p2): f1 KB1's for PARIS's factor (divided by ε), d1 KB1's for the
// discriminative requirement, fun2 KB2's. On each side whose value is under
// MinDiscriminative, the estimate over the shared values replaces it when higher (see
// above); joins, pairs with few shared values and non-literal values keep PARIS's.
func (a *aligner) liftShared(p1, p2 Path, f1, d1, fun2 float64) (float64, float64, float64) {
	if p1.Len() != 1 || p2.Len() != 1 {
		return f1, d1, fun2
	}
	s, ok := a.sharedFun[relPair{p1.Step(0), p2.Step(0)}]
	if !ok {
		return f1, d1, fun2
	}
	bound := a.opts.MinDiscriminative
	if d1 < bound && s.f1 > d1 {
		f1, d1 = max(f1, s.f1/a.opts.Epsilon), s.f1
	}
	if fun2 < bound && s.f2 > fun2 {
		fun2 = s.f2
	}
	return f1, d1, fun2
}
