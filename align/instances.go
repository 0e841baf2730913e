package align

import (
	"cmp"
	"context"
	"slices"
)

// cand is a candidate equality between KB1 node y1 and KB2 node y2.
type cand struct {
	y1, y2 int32
	score  float64
}

// evidence is one factor of the product of a candidate: the best support that one KB1
// fact gives to y2 through the KB2 path p2.
type evidence struct {
	y2     int32
	p2     Path
	factor float64
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
	o := a.opts
	boot := a.it <= 1
	joinBoot := boot && a.joinBootstrapUseful()
	len1 := 1
	if a.it >= 1 {
		len1 = o.JoinLength // KB1 joins are explored from the second iteration on
	}
	var out []cand
	prod := map[int32]float64{}
	var ev []evidence
	type fact struct {
		p1 Path
		x  int32
	}
	var facts []fact
	for n, y := range a.tgt {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		clear(prod)
		facts = facts[:0]
		err := a.v1.forwardPaths(ctx, y, len1, func(q Path, end int32) error {
			facts = append(facts, fact{p1: q.Inverse(), x: end})
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, f := range facts {
			an := a.anchors1(f.x)
			if len(an) == 0 {
				continue
			}
			p1 := f.p1
			f1 := a.v1.funPath(p1) / o.Epsilon
			max2 := min(o.JoinLength, o.JoinSum-p1.Len())
			if max2 < 1 {
				continue
			}
			learned := a.rels.byP1[p1]
			ev = ev[:0]
			for _, x2 := range an {
				add := func(p2 Path, y2 int32, sub, super float64) {
					if a.v2.lit[y2] {
						return
					}
					fac := Factor(x2.score, sub, super, f1, a.v2.funPath(p2)/o.Epsilon)
					if 1-fac > o.EvidenceCut {
						ev = append(ev, evidence{y2: y2, p2: p2, factor: fac})
					}
				}
				if boot {
					// Every relation (and, if ι is large enough to matter, every join) of
					// the anchor, with its learned score or the bootstrap value.
					lim := 1
					if joinBoot {
						lim = max2
					}
					err := a.v2.forwardPaths(ctx, x2.node, lim, func(p2 Path, y2 int32) error {
						if p2.Len() > max2 {
							return nil
						}
						if e, ok := a.rels.lookup(p1, p2); ok {
							add(p2, y2, e.s21/o.Epsilon, e.s12/o.Epsilon)
							return nil
						}
						b := a.bootstrap(p1.Len() - 1 + p2.Len() - 1)
						add(p2, y2, b, b)
						return nil
					})
					if err != nil {
						return nil, err
					}
					if joinBoot {
						continue
					}
					// Joins learned in the first iteration already count in the second.
					for _, e := range learned {
						if !e.p2.IsJoin() || e.p2.Len() > max2 {
							continue
						}
						err := a.followPath(ctx, a.v2, x2.node, e.p2, func(y2 int32) {
							add(e.p2, y2, e.s21/o.Epsilon, e.s12/o.Epsilon)
						})
						if err != nil {
							return nil, err
						}
					}
					continue
				}
				for _, e := range learned {
					if e.p2.Len() > max2 {
						continue
					}
					err := a.followPath(ctx, a.v2, x2.node, e.p2, func(y2 int32) {
						add(e.p2, y2, e.s21/o.Epsilon, e.s12/o.Epsilon)
					})
					if err != nil {
						return nil, err
					}
				}
			}
			// One KB1 fact supports a (path, candidate) pair once, through its best anchor.
			slices.SortFunc(ev, func(x, y evidence) int {
				return cmp.Or(cmp.Compare(x.y2, y.y2), comparePath(x.p2, y.p2), cmp.Compare(x.factor, y.factor))
			})
			for k, e := range ev {
				if k > 0 && ev[k-1].y2 == e.y2 && ev[k-1].p2 == e.p2 {
					continue
				}
				if p, ok := prod[e.y2]; ok {
					prod[e.y2] = p * e.factor
				} else {
					prod[e.y2] = e.factor
				}
			}
		}
		if len(prod) == 0 {
			continue
		}
		cs := a.topCands(y, prod, o.MatchCandidates)
		if o.NegativeEvidence && a.it >= 2 {
			for k := range cs {
				neg, err := a.negative(ctx, cs[k].y1, cs[k].y2)
				if err != nil {
					return nil, err
				}
				cs[k].score *= neg
			}
			a.sortCands(cs)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// topCands returns the k best candidates of y in prod (products of evidence factors), by
// decreasing score, ties by increasing KB2 node id, selecting without sorting them all:
// a literal shared with many KB2 entities (a year) can give thousands of candidates.
func (a *aligner) topCands(y int32, prod map[int32]float64, k int) []cand {
	top := make([]cand, 0, k+1)
	better := func(x, y cand) bool {
		if x.score != y.score {
			return x.score > y.score
		}
		return a.v2.ids[x.y2] < a.v2.ids[y.y2]
	}
	for y2, p := range prod {
		c := cand{y1: y, y2: y2, score: 1 - p}
		if len(top) == k && !better(c, top[k-1]) {
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
	return top
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

// followPath calls fn for every distinct end of path p from x in v, with the rules of
// forwardPaths (no literal in the middle, no loop).
func (a *aligner) followPath(ctx context.Context, v *view, x int32, p Path, fn func(end int32)) error {
	es, err := v.edgesRel(ctx, x, p.Step(0))
	if err != nil {
		return err
	}
	if p.Len() == 1 {
		for _, e := range es {
			if e.node != x {
				fn(e.node)
			}
		}
		return nil
	}
	var ends []int32
	for _, e := range es {
		m := e.node
		if m == x || v.lit[m] {
			continue
		}
		es2, err := v.edgesRel(ctx, m, p.Step(1))
		if err != nil {
			return err
		}
		for _, e2 := range es2 {
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
			es3, err := v.edgesRel(ctx, m2, p.Step(2))
			if err != nil {
				return err
			}
			for _, e3 := range es3 {
				if e3.node != x && e3.node != m && e3.node != m2 {
					ends = append(ends, e3.node)
				}
			}
		}
	}
	slices.Sort(ends)
	for _, e := range slices.Compact(ends) {
		fn(e)
	}
	return nil
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

// negative returns the negative evidence against y1 ≡ y2 (paris.md §3.2): for each fact
// r1(y1, z1) whose value has a counterpart, and each path p2 with Pr(r1 ⊆ p2) ≥ θ along
// which y2 has values, the factor 1 − Pr(r1 ⊆ p2)·fun(r1)·Π_{p2(y2,z2)} (1 − Pr(z1 ≡ z2)).
// A value without counterpart, or a path along which y2 has no value, is no evidence
// against (KBs are incomplete).
func (a *aligner) negative(ctx context.Context, y1, y2 int32) (float64, error) {
	es1, err := a.v1.edgesOf(ctx, y1)
	if err != nil {
		return 0, err
	}
	neg := 1.0
	var vals []int32
	for _, e := range es1 {
		an := a.anchors1(e.node)
		if len(an) == 0 {
			continue
		}
		for _, re := range a.rels.byP1[NewPath(e.rel)] {
			if re.s12 < a.opts.Theta {
				continue
			}
			vals = vals[:0]
			err := a.followPath(ctx, a.v2, y2, re.p2, func(z2 int32) { vals = append(vals, z2) })
			if err != nil {
				return 0, err
			}
			if len(vals) == 0 {
				continue
			}
			inner := 1.0
			for _, z2 := range vals {
				for _, x := range an {
					if x.node == z2 {
						inner *= 1 - x.score
					}
				}
			}
			neg *= 1 - re.s12*a.v1.funRel(e.rel)*inner
		}
	}
	return neg, nil
}
