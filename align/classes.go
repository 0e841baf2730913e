package align

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/graph"
)

// ClassMatch is a class subsumption Sub ⊆ Super between a class of one KB and a class
// of the other.
type ClassMatch struct {
	// SubKB is 1 when Sub is a KB1 class (Pr(Left ⊆ Right)), 2 when it is a KB2 class.
	SubKB int `json:"sub_kb"`
	// Left is the KB1 class and Right the KB2 class, whatever the direction.
	Left      graph.ID   `json:"-"`
	Right     graph.ID   `json:"-"`
	LeftTerm  graph.Term `json:"-"`
	RightTerm graph.Term `json:"-"`
	// Confidence is Pr(Sub ⊆ Super) = (1/|Sub|)·Σ_{x ∈ Sub} Pr(x ≡ y), y ∈ Super.
	Confidence float64 `json:"confidence"`
	// N is |Sub|, the number of instances of the subclass, matched or not.
	N int `json:"n"`
}

// classPass computes class subsumptions once, after the last iteration (paris.md §6):
// Pr(c ⊆ d) = (1/|c|) Σ_{x ∈ c} [1 − Π_{y ∈ d, x ≡ y} (1 − Pr(x ≡ y))], over the kept 1:1
// pairs ≥ θ. The instances of the subclass are its direct instances (rdf:type facts);
// the superclass side also counts the superclasses of a type (rdfs:subClassOf, transitively),
// so that a record class can be found under a general YAGO class. Classes in the OWL
// namespace are skipped.
func (a *aligner) classPass(ctx context.Context, t1, t2 Taxonomy) ([]ClassMatch, error) {
	theta := a.opts.Theta
	c1 := newClassCache(taxKB{a.v1.kb, t1})
	c2 := newClassCache(taxKB{a.v2.kb, t2})
	type key struct{ sub, super graph.ID }
	acc12 := map[key]float64{}
	acc21 := map[key]float64{}
	for _, i := range a.tgt {
		m := a.eq1[i]
		if m.node < 0 || m.score < theta {
			continue
		}
		x, y := a.v1.ids[i], a.v2.ids[m.node]
		direct1, err := c1.types(ctx, x)
		if err != nil {
			return nil, err
		}
		direct2, err := c2.types(ctx, y)
		if err != nil {
			return nil, err
		}
		closed1, err := c1.closure(ctx, direct1)
		if err != nil {
			return nil, err
		}
		closed2, err := c2.closure(ctx, direct2)
		if err != nil {
			return nil, err
		}
		for _, c := range direct1 {
			for _, d := range closed2 {
				acc12[key{c, d}] += m.score // 1 − (1 − p): one partner per entity
			}
		}
		for _, d := range direct2 {
			for _, c := range closed1 {
				acc21[key{d, c}] += m.score
			}
		}
	}
	var out []ClassMatch
	emit := func(acc map[key]float64, subKB int, subCache *classCache) error {
		keys := make([]key, 0, len(acc))
		for k := range acc {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y key) int { return cmp.Or(cmp.Compare(x.sub, y.sub), cmp.Compare(x.super, y.super)) })
		for _, k := range keys {
			s := acc[k]
			if s < theta {
				continue // even with |sub| = 1 it stays below θ
			}
			// |sub| only matters up to the point where the score drops below θ.
			limit := int(math.Ceil(s/theta)) + 1
			n, err := subCache.count(ctx, k.sub, limit)
			if err != nil {
				return err
			}
			if n == 0 || s/float64(n) < theta {
				continue
			}
			cm := ClassMatch{SubKB: subKB, Confidence: s / float64(n), N: n}
			if subKB == 1 {
				cm.Left, cm.Right = k.sub, k.super
			} else {
				cm.Left, cm.Right = k.super, k.sub
			}
			out = append(out, cm)
		}
		return nil
	}
	if err := emit(acc12, 1, c1); err != nil {
		return nil, err
	}
	if err := emit(acc21, 2, c2); err != nil {
		return nil, err
	}
	for k := range out {
		var err error
		if out[k].LeftTerm, err = a.v1.kb.Term(ctx, out[k].Left); err != nil {
			return nil, err
		}
		if out[k].RightTerm, err = a.v2.kb.Term(ctx, out[k].Right); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// classKB is what the class pass reads from a KB.
type classKB interface {
	Dictionary
	Taxonomy
}

// taxKB puts a KB's dictionary and taxonomy together.
type taxKB struct {
	Dictionary
	Taxonomy
}

// classCache memoises the taxonomy reads of one KB.
type classCache struct {
	kb     classKB
	direct map[graph.ID][]graph.ID
	supers map[graph.ID][]graph.ID
	counts map[graph.ID]classCount
}

type classCount struct {
	n        int
	complete bool // n is the whole count, not a lower bound
}

func newClassCache(kb classKB) *classCache {
	return &classCache{kb: kb, direct: map[graph.ID][]graph.ID{}, supers: map[graph.ID][]graph.ID{}, counts: map[graph.ID]classCount{}}
}

// types returns the classes of n outside the OWL namespace.
func (c *classCache) types(ctx context.Context, n graph.ID) ([]graph.ID, error) {
	if ts, ok := c.direct[n]; ok {
		return ts, nil
	}
	ts, err := c.kb.Types(ctx, n)
	if err != nil {
		return nil, err
	}
	kept := ts[:0:0]
	for _, t := range ts {
		ok, err := c.usable(ctx, t)
		if err != nil {
			return nil, err
		}
		if ok {
			kept = append(kept, t)
		}
	}
	c.direct[n] = kept
	return kept, nil
}

func (c *classCache) usable(ctx context.Context, class graph.ID) (bool, error) {
	t, err := c.kb.Term(ctx, class)
	if err != nil {
		return false, err
	}
	return !(t.IsIRI() && strings.HasPrefix(t.Value, graph.OWL)), nil
}

// closure returns the classes and all their superclasses, sorted.
func (c *classCache) closure(ctx context.Context, classes []graph.ID) ([]graph.ID, error) {
	seen := map[graph.ID]bool{}
	stack := slices.Clone(classes)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		ok, err := c.usable(ctx, x)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		seen[x] = true
		sup, ok := c.supers[x]
		if !ok {
			sup, err = c.kb.SuperClasses(ctx, x)
			if err != nil {
				return nil, err
			}
			c.supers[x] = sup
		}
		stack = append(stack, sup...)
	}
	out := make([]graph.ID, 0, len(seen))
	for x := range seen {
		out = append(out, x)
	}
	slices.Sort(out)
	return out, nil
}

// count returns the number of instances of class, reading at most limit of them (the
// result is then limit).
func (c *classCache) count(ctx context.Context, class graph.ID, limit int) (int, error) {
	if e, ok := c.counts[class]; ok && (e.complete || e.n >= limit) {
		return e.n, nil
	}
	n := 0
	for _, err := range c.kb.Instances(ctx, class) {
		if err != nil {
			return 0, err
		}
		n++
		if n >= limit {
			break
		}
	}
	c.counts[class] = classCount{n: n, complete: n < limit}
	return n, nil
}
