package align

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// The evidence factors trawl adds to PARIS's instance equation (decision record
// 2026-11-27-linking-evidence-factors). PARIS's positive evidence stays as it is; these
// decide which candidates may be kept at all, and weigh disagreement and type:
//
//   - Discriminative evidence (Options.MinDiscriminative): a candidate must agree with
//     the entity on at least one relation pair whose values identify their subjects: the
//     smaller of the two inverse functionalities (1 / the mean number of subjects per
//     value; KB1's counting copies of one entity once, copies.go) is at least
//     MinDiscriminative. A shared year, number or category alone is never enough,
//     however many entities share it, nor is a name shared by several (an author's).
//   - Corroboration (Options.Corroboration): an entity with values on two or more
//     relations that have counterparts in the other KB needs agreement on two of them.
//     A title alone does not link a film record to a book of the same title when the
//     record's year or director could have agreed and did not.
//   - Negative evidence (Options.NegativeEvidence): a relation r1 aligned to a path p2
//     (Pr(r1 ⊆ p2) = s ≥ θ) along which both entities have values, none of which agree,
//     is a likelihood ratio 1 − s·(1 − sim) against the pair, sim being the best
//     similarity of two of the values (dates within DateTolerance years are not counted
//     as disagreeing).
//   - Type (Options.TypeEvidence): once enough entities of a KB1 class are matched, the
//     most specific KB2 class that holds at least ClassSupport of their (Laplace-smoothed)
//     partners is the class's type; a candidate outside it gets the likelihood ratio
//     (1 − share)/share.
//
// The likelihood ratios multiply the odds of PARIS's score, Pr/(1 − Pr), rather than the
// score itself (PARIS's optional Pr1·Pr2, which its authors found costly in recall): a
// disagreement weighs against strong positive evidence without erasing it.

// applyOdds returns the probability whose odds are those of p times lr.
func applyOdds(p, lr float64) float64 {
	if lr == 1 || p <= 0 {
		return p
	}
	if p >= 1 {
		p = math.Nextafter(1, 0)
	}
	o := p / (1 - p) * lr
	return o / (1 + o)
}

// negative returns the likelihood ratio of the disagreements between KB1 entity y1 and
// its candidate y2 (Options.NegativeEvidence): for each relation of y1 aligned to paths
// of KB2 with a score ≥ θ along which y2 has values, when no value of y1 along it agrees
// with a value of y2 along any of them, the ratio 1 − s·(1 − sim) with s the best score
// among those paths and sim the best similarity of a value pair. A value without a
// counterpart and without a comparable literal form, or a path along which y2 has no
// value, is no evidence (KBs are incomplete).
func (w *worker) negative(y1, y2 int32) float64 {
	a := w.a
	lr := 1.0
	for rel, vals := range byRelation(w.r1.edges(y1)) {
		best, sBest, known := 0.0, 0.0, false
		for _, re := range a.rels.byP1[NewPath(rel)] {
			if re.s12 < a.opts.Theta {
				continue
			}
			w.ends = w.followPath(&w.r2, y2, re.p2, w.ends[:0])
			if len(w.ends) == 0 {
				continue
			}
			for _, v := range vals {
				if v.node == y1 {
					continue
				}
				sim, ok := w.similarity(v.node, w.ends)
				if !ok {
					continue
				}
				known = true
				best = max(best, sim)
				sBest = max(sBest, re.s12)
			}
		}
		if known && best < 1 {
			lr *= 1 - sBest*(1-best)
		}
	}
	return lr
}

// similarity returns the best equality score between KB1 node z1 and any of the KB2
// nodes zs, and false when they cannot be compared (an entity without a counterpart).
func (w *worker) similarity(z1 int32, zs []int32) (float64, bool) {
	a := w.a
	an := a.anchors1(z1)
	best := 0.0
	for _, x := range an {
		if slices.Contains(zs, x.node) {
			best = max(best, x.score)
		}
	}
	if best >= 1 || !a.v1.lit[z1] {
		return best, best > 0 || len(an) > 0
	}
	t1, ok := w.term1(z1)
	if !ok {
		return best, false
	}
	for _, z2 := range zs {
		if !a.v2.lit[z2] {
			continue
		}
		t2, ok := w.term2(z2)
		if !ok {
			continue
		}
		best = max(best, literalSimilarity(t1, t2, a.opts))
		if best >= 1 {
			break
		}
	}
	return best, true
}

// literalSimilarity compares two literals for negative evidence: 1 for the same
// normal form, dates that include one another or whose years differ by at most
// DateTolerance, or strings one of which holds the other's words; the approximate score
// for similar strings; else 0.
func literalSimilarity(t1, t2 graph.Term, o Options) float64 {
	if t1.Value == t2.Value {
		return 1
	}
	if d1, ok := graph.ParseDate(t1.Value); ok {
		d2, ok := graph.ParseDate(t2.Value)
		if !ok {
			return 0
		}
		if d1.Overlaps(d2) {
			return 1
		}
		y1, ok1 := d1.Year()
		y2, ok2 := d2.Year()
		if ok1 && ok2 && abs(y1-y2) <= o.DateTolerance {
			return 1
		}
		return 0
	}
	n1, n2 := textnorm.Literal(t1.Value), textnorm.Literal(t2.Value)
	if n1 == "" || n2 == "" {
		return 0
	}
	if n1 == n2 {
		return 1
	}
	if !graph.IsStringLiteral(t1) || !graph.IsStringLiteral(t2) {
		return 0
	}
	if contains(n1, n2) || contains(n2, n1) {
		return 1
	}
	return ApproxScore(textnorm.Dice(n1, n2, o.ApproxK), o.ApproxMinDice, o.ApproxPenalty)
}

// contains reports whether the words of b, at least two, appear in a in order: a list
// held as one value ("Stephen King & Peter Straub") holds each of its names, which is no
// disagreement with either.
func contains(a, b string) bool {
	if strings.Count(b, " ") < 1 {
		return false
	}
	return strings.Contains(" "+a+" ", " "+b+" ")
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// term1 and term2 read the terms of literal nodes for negative evidence; a read error
// is kept for the pass to return.
func (w *worker) term1(i int32) (graph.Term, bool) {
	t, err := w.a.v1.kb.Term(w.ctx, w.a.v1.ids[i])
	if err != nil {
		w.fail(err)
		return graph.Term{}, false
	}
	return t, true
}

func (w *worker) term2(j int32) (graph.Term, bool) {
	t, err := w.a.v2.kb.Term(w.ctx, w.a.v2.ids[j])
	if err != nil {
		w.fail(err)
		return graph.Term{}, false
	}
	return t, true
}

func (w *worker) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// isLink reports whether a kept pair would be an owl:sameAs link (InstanceMatch.Linked).
func (a *aligner) isLink(m match) bool {
	return m.score >= a.opts.LinkThreshold && (!a.opts.Corroboration || int(m.support) >= min(2, int(m.comparable)))
}

// typeModel is the class evidence of one iteration (Options.TypeEvidence): for each KB1
// class, the KB2 class its matched entities' partners fall in, and the share behind it.
type typeModel struct {
	t1, t2  Taxonomy
	c1, c2  *classCache
	class1  localLists // direct KB1 classes by KB1 local index
	closed2 localLists // KB2 class closures by KB2 local index
	chosen  map[graph.ID]classChoice
}

type classChoice struct {
	class graph.ID
	share float64 // Laplace-smoothed share of the matched partners in class
}

func newTypeModel(t1, t2 Taxonomy, v1, v2 *view) *typeModel {
	return &typeModel{t1: t1, t2: t2, c1: newClassCache(taxKB{v1.kb, t1}), c2: newClassCache(taxKB{v2.kb, t2})}
}

// localLists caches a list of classes by local node index: a table by index (4 bytes
// a node) into the lists, instead of a map whose every lookup, for a million nodes,
// misses the caches two or three times.
type localLists struct {
	slot  []int32 // by local index: 1 + the list's index in lists, 0 for none
	lists [][]graph.ID
}

func (c *localLists) get(i int32) ([]graph.ID, bool) {
	if int(i) >= len(c.slot) || c.slot[i] == 0 {
		return nil, false
	}
	return c.lists[c.slot[i]-1], true
}

func (c *localLists) set(i int32, cs []graph.ID) {
	if int(i) >= len(c.slot) {
		c.slot = append(c.slot, make([]int32, int(i)+1-len(c.slot))...)
	}
	c.lists = append(c.lists, cs)
	c.slot[i] = int32(len(c.lists))
}

// renumber moves the list of each old index to perm[old].
func (c *localLists) renumber(perm []int32) {
	slot := make([]int32, len(perm))
	for old, k := range c.slot {
		if k != 0 {
			slot[perm[old]] = k
		}
	}
	c.slot = slot
}

func (m *typeModel) classes1(ctx context.Context, a *aligner, i int32) ([]graph.ID, error) {
	if cs, ok := m.class1.get(i); ok {
		return cs, nil
	}
	cs, err := m.c1.types(ctx, a.v1.ids[i])
	if err != nil {
		return nil, err
	}
	m.class1.set(i, cs)
	return cs, nil
}

func (m *typeModel) closure2(ctx context.Context, a *aligner, j int32) ([]graph.ID, error) {
	if cs, ok := m.closed2.get(j); ok {
		return cs, nil
	}
	direct, err := m.c2.types(ctx, a.v2.ids[j])
	if err != nil {
		return nil, err
	}
	cs, err := m.c2.closure(ctx, direct)
	if err != nil {
		return nil, err
	}
	m.closed2.set(j, cs)
	return cs, nil
}

// update chooses, for each KB1 class, the most specific KB2 class that holds at least
// ClassSupport of the partners of its entities' links (pairs that would be owl:sameAs
// links, InstanceMatch.Linked), smoothed: (k + 1)/(n + 2) with k of the n links in the
// class (Laplace's rule of succession, so that a handful of links does not make a class
// certain).
func (m *typeModel) update(ctx context.Context, a *aligner) error {
	type acc struct {
		total float64
		in    map[graph.ID]float64
	}
	byClass := map[graph.ID]*acc{}
	for _, i := range a.tgt {
		p := a.eq1[i]
		if p.node < 0 || !a.isLink(p) {
			continue
		}
		cs, err := m.classes1(ctx, a, i)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			continue
		}
		closed, err := m.closure2(ctx, a, p.node)
		if err != nil {
			return err
		}
		for _, c := range cs {
			ac := byClass[c]
			if ac == nil {
				ac = &acc{in: map[graph.ID]float64{}}
				byClass[c] = ac
			}
			ac.total++
			for _, d := range closed {
				ac.in[d]++
			}
		}
	}
	m.chosen = map[graph.ID]classChoice{}
	for c, ac := range byClass {
		best, bestDepth, bestShare := graph.ID(0), -1, 0.0
		for d, s := range ac.in {
			share := (s + 1) / (ac.total + 2)
			if share < a.opts.ClassSupport {
				continue
			}
			cl, err := m.c2.closure(ctx, []graph.ID{d})
			if err != nil {
				return err
			}
			depth := len(cl)
			if depth > bestDepth || (depth == bestDepth && (share > bestShare || (share == bestShare && d < best))) {
				best, bestDepth, bestShare = d, depth, share
			}
		}
		if bestDepth >= 0 {
			m.chosen[c] = classChoice{class: best, share: bestShare}
		}
	}
	return nil
}

// apply multiplies the odds of each candidate whose KB2 entity is outside the chosen
// class of its KB1 entity's class by (1 − share)/share, and re-sorts the candidates of
// each KB1 entity.
func (m *typeModel) apply(ctx context.Context, a *aligner, cands []cand) error {
	if len(m.chosen) == 0 {
		return nil
	}
	for k := range cands {
		c := &cands[k]
		cs, err := m.classes1(ctx, a, c.y1)
		if err != nil {
			return err
		}
		lr := 1.0
		for _, cl := range cs {
			ch, ok := m.chosen[cl]
			if !ok {
				continue
			}
			closed, err := m.closure2(ctx, a, c.y2)
			if err != nil {
				return err
			}
			if _, in := slices.BinarySearch(closed, ch.class); !in {
				lr *= (1 - ch.share) / ch.share
			}
		}
		c.score = applyOdds(c.score, lr)
	}
	// The candidates of one entity are contiguous: re-sort each run.
	for lo := 0; lo < len(cands); {
		hi := lo + 1
		for hi < len(cands) && cands[hi].y1 == cands[lo].y1 {
			hi++
		}
		a.sortCands(cands[lo:hi])
		lo = hi
	}
	return nil
}
