package align

import (
	"cmp"
	"context"
	"math"
	"slices"

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

func (t *relTable) lookup(p1, p2 Path) (relEntry, bool) {
	e, ok := t.pairs[relKey{p1, p2}]
	return e, ok
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
	from1 := a.anchoredNodes1()
	s12, n1, err := a.relationPass(ctx, a.v1, a.v2, a.anchors1, from1)
	if err != nil {
		return nil, err
	}
	from2 := a.anchoredNodes2()
	s21, n2, err := a.relationPass(ctx, a.v2, a.v1, a.anchors2, from2)
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
	for j := range a.lit2 {
		ns = append(ns, j)
	}
	for j, m := range a.eq2 {
		if m.score >= a.opts.Theta {
			ns = append(ns, j)
		}
	}
	slices.Sort(ns)
	return slices.Compact(ns)
}

// factTo is a path from the current start node to an anchored end node.
type factTo struct {
	p   Path
	end int32
}

// frontier maps a node to the paths that reach it from an anchor (empty path for the
// anchor itself).
type frontEntry struct {
	p   Path // p.n == 0 for the anchor itself
	mid int32
}

// pairItem is one piece of evidence for a pair (pFrom, pTo): the KB facts pTo(x', y')
// with x' ≡ x and y' ≡ y contribute the factor 1 − Pr(x≡x')·Pr(y≡y').
type pairItem struct {
	p      Path
	xa, ya int32
	factor float64
}

// relationPass computes, for every path pF of `from` and path pT of `to`, the numerator
// Σ_{pF(x,y)} [1 − Π_{pT(x',y')} (1 − Pr(x≡x')·Pr(y≡y'))] and, for every pF, the
// normaliser Σ_{pF(x,y)} [1 − Π_{x',y'} (1 − Pr(x≡x')·Pr(y≡y'))], which counts only the
// facts whose two arguments have counterparts (paris.md §5). The facts of `from` are
// enumerated from its anchored nodes; the matching facts of `to` are found by meeting in
// the middle between the counterparts x' and y', so `to` is read only around them.
func (a *aligner) relationPass(ctx context.Context, from, to *view, anchFrom func(int32) []anchor, nodes []int32) (map[relKey]float64, map[Path]float64, error) {
	o := a.opts
	scores := map[relKey]float64{}
	norm := map[Path]float64{}

	// mid[m] lists the steps from middle node m to an anchored node of `from`.
	mid := map[int32][]midEdgeT{}
	if o.JoinLength >= 2 {
		for _, y := range nodes {
			es, err := from.edgesOf(ctx, y)
			if err != nil {
				return nil, nil, err
			}
			for _, e := range es {
				if !from.lit[e.node] && e.node != y {
					mid[e.node] = append(mid[e.node], midEdgeT{rel: e.rel.Inverse(), node: y})
				}
			}
		}
	}

	var facts []factTo
	var items []pairItem
	fronts := map[int32]map[int32][]frontEntry{}
	var pool []map[int32][]frontEntry // frontier maps, reused across nodes
	for n, x := range nodes {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		ax := anchFrom(x)
		if len(ax) == 0 {
			continue
		}
		var err error
		facts, err = a.factsToAnchored(ctx, from, x, mid, anchFrom, facts[:0])
		if err != nil {
			return nil, nil, err
		}
		if len(facts) == 0 {
			continue
		}
		for _, f := range fronts {
			pool = append(pool, f)
		}
		clear(fronts)
		for _, xa := range ax {
			var f map[int32][]frontEntry
			if n := len(pool); n > 0 {
				f, pool = pool[n-1], pool[:n-1]
				clear(f)
			} else {
				f = map[int32][]frontEntry{}
			}
			if err := a.frontier(ctx, to, xa.node, f); err != nil {
				return nil, nil, err
			}
			fronts[xa.node] = f
		}
		for _, f := range facts {
			ay := anchFrom(f.end)
			maxTo := min(o.JoinLength, o.JoinSum-f.p.Len())
			if maxTo < 1 {
				continue
			}
			prodN := 1.0
			items = items[:0]
			for _, xa := range ax {
				front := fronts[xa.node]
				for _, ya := range ay {
					fac := 1 - xa.score*ya.score
					prodN *= fac
					if xa.node == ya.node {
						continue // a loop in `to`
					}
					es, err := to.edgesOf(ctx, ya.node)
					if err != nil {
						return nil, nil, err
					}
					for _, e := range es {
						if e.node == ya.node {
							continue
						}
						for _, fe := range front[e.node] {
							if int(fe.p.n)+1 > maxTo {
								continue
							}
							if fe.p.n == 0 {
								items = append(items, pairItem{p: NewPath(e.rel.Inverse()), xa: xa.node, ya: ya.node, factor: fac})
								continue
							}
							if fe.p.last() == e.rel || fe.mid == ya.node {
								continue // trivial r ∘ r⁻, or a loop through the middle
							}
							items = append(items, pairItem{p: fe.p.then(e.rel.Inverse()), xa: xa.node, ya: ya.node, factor: fac})
						}
					}
				}
			}
			if prodN >= 1 {
				continue
			}
			norm[f.p] += 1 - prodN
			if len(items) == 0 {
				continue
			}
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
				key := relKey{f.p, p}
				if _, ok := scores[key]; !ok && len(scores) >= o.MaxRelationPairs && (f.p.IsJoin() || p.IsJoin()) {
					a.drop++
					continue
				}
				scores[key] += 1 - prod
			}
		}
	}
	return scores, norm, nil
}

// midEdgeT is the last step of a path: from a middle node, relation rel leads to node.
type midEdgeT struct {
	rel  graph.Rel
	node int32
}

// factsToAnchored lists the distinct facts pF(x, y) of v with y anchored, pF of at most
// JoinLength steps, following the path rules (no literal in the middle, no loop, no
// r ∘ r⁻). The last step comes from mid, the reverse index of the anchored nodes.
func (a *aligner) factsToAnchored(ctx context.Context, v *view, x int32, mid map[int32][]midEdgeT, anch func(int32) []anchor, out []factTo) ([]factTo, error) {
	L := a.opts.JoinLength
	es, err := v.edgesOf(ctx, x)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if e.node != x && len(anch(e.node)) > 0 {
			out = append(out, factTo{p: NewPath(e.rel), end: e.node})
		}
	}
	if L >= 2 {
		for _, e := range es {
			m := e.node
			if m == x || v.lit[m] {
				continue
			}
			for _, me := range mid[m] {
				if me.node == x || me.node == m || me.rel == e.rel.Inverse() {
					continue
				}
				out = append(out, factTo{p: NewPath(e.rel, me.rel), end: me.node})
			}
			if L < 3 {
				continue
			}
			es2, err := v.edgesOf(ctx, m)
			if err != nil {
				return nil, err
			}
			for _, e2 := range es2 {
				m2 := e2.node
				if m2 == x || m2 == m || v.lit[m2] || e2.rel == e.rel.Inverse() {
					continue
				}
				for _, me := range mid[m2] {
					if me.node == x || me.node == m || me.node == m2 || me.rel == e2.rel.Inverse() {
						continue
					}
					out = append(out, factTo{p: NewPath(e.rel, e2.rel, me.rel), end: me.node})
				}
			}
		}
	}
	slices.SortFunc(out, func(u, w factTo) int { return cmp.Or(comparePath(u.p, w.p), cmp.Compare(u.end, w.end)) })
	return slices.Compact(out), nil
}

// frontier fills f with the paths of at most JoinLength−1 steps from x in v, by end
// node, x itself included with the empty path. Their ends are the middle nodes through which
// a relation pass reaches the counterparts of a fact's object.
func (a *aligner) frontier(ctx context.Context, v *view, x int32, f map[int32][]frontEntry) error {
	f[x] = append(f[x][:0], frontEntry{mid: -1})
	if a.opts.JoinLength < 2 {
		return nil
	}
	es, err := v.edgesOf(ctx, x)
	if err != nil {
		return err
	}
	for _, e := range es {
		m := e.node
		if m == x || v.lit[m] {
			continue
		}
		f[m] = append(f[m], frontEntry{p: NewPath(e.rel), mid: -1})
		if a.opts.JoinLength < 3 {
			continue
		}
		es2, err := v.edgesOf(ctx, m)
		if err != nil {
			return err
		}
		for _, e2 := range es2 {
			m2 := e2.node
			if m2 == x || m2 == m || v.lit[m2] || e2.rel == e.rel.Inverse() {
				continue
			}
			f[m2] = append(f[m2], frontEntry{p: NewPath(e.rel, e2.rel), mid: m})
		}
	}
	return nil
}
