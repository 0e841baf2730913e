package align

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/trawl-dev/trawl/graph"
)

// view caches what the aligner reads from one KB. Every node it touches gets a local
// index (int32, in order of first touch, so a run is deterministic); the edges of a node
// are read once, on first use. KB1 is read completely at the start; of KB2 only the
// neighbourhood that literal candidates and equalities reach is ever read.
type view struct {
	kb      KB
	name    string
	ids     []graph.ID
	idx     map[graph.ID]int32
	lit     []bool
	edges   [][]ledge
	fetched []bool
	hub     []bool
	fun     map[graph.Rel]float64

	maxDegree int
	hubs      int // nodes skipped for having more than maxDegree edges
	reads     int // nodes whose edges were read
}

// ledge is an edge with the local index of its other end.
type ledge struct {
	rel  graph.Rel
	node int32
}

func newView(kb KB, name string, maxDegree int) *view {
	return &view{kb: kb, name: name, idx: map[graph.ID]int32{}, fun: map[graph.Rel]float64{}, maxDegree: maxDegree}
}

// local returns the local index of id, assigning one if needed.
func (v *view) local(id graph.ID) int32 {
	if i, ok := v.idx[id]; ok {
		return i
	}
	i := int32(len(v.ids))
	v.ids = append(v.ids, id)
	v.idx[id] = i
	v.lit = append(v.lit, v.kb.IsLiteral(id))
	v.edges = append(v.edges, nil)
	v.fetched = append(v.fetched, false)
	v.hub = append(v.hub, false)
	return i
}

func (v *view) size() int { return len(v.ids) }

// edgesOf returns the edges of local node i, sorted by relation then KB node id. A hub
// (more than maxDegree edges) has none.
func (v *view) edgesOf(ctx context.Context, i int32) ([]ledge, error) {
	if v.fetched[i] {
		return v.edges[i], nil
	}
	var es []graph.Edge
	hub := false
	for e, err := range v.kb.Edges(ctx, v.ids[i]) {
		if err != nil {
			return nil, fmt.Errorf("align: read the edges of node %d of %s: %w", v.ids[i], v.name, err)
		}
		if len(es) == v.maxDegree {
			hub = true
			break
		}
		es = append(es, e)
	}
	v.fetched[i] = true
	v.reads++
	if hub {
		v.hub[i] = true
		v.hubs++
		return nil, nil
	}
	slices.SortFunc(es, func(a, b graph.Edge) int {
		return cmp.Or(cmp.Compare(a.Rel, b.Rel), cmp.Compare(a.Node, b.Node))
	})
	es = slices.Compact(es)
	out := make([]ledge, len(es))
	for k, e := range es {
		out[k] = ledge{rel: e.Rel, node: v.local(e.Node)}
	}
	v.edges[i] = out
	return out, nil
}

// edgesRel returns the edges of i with relation r.
func (v *view) edgesRel(ctx context.Context, i int32, r graph.Rel) ([]ledge, error) {
	es, err := v.edgesOf(ctx, i)
	if err != nil {
		return nil, err
	}
	lo, _ := slices.BinarySearchFunc(es, r, func(e ledge, r graph.Rel) int { return cmp.Compare(e.rel, r) })
	hi := lo
	for hi < len(es) && es[hi].rel == r {
		hi++
	}
	return es[lo:hi], nil
}

// funRel returns the functionality of r in this KB (cached).
func (v *view) funRel(r graph.Rel) float64 {
	if f, ok := v.fun[r]; ok {
		return f
	}
	f := v.kb.Functionality(r)
	v.fun[r] = f
	return f
}

// funPath returns the functionality of a path: the smallest of its steps' (paris.md §2).
func (v *view) funPath(p Path) float64 {
	f := v.funRel(p.Step(0))
	for i := 1; i < p.Len(); i++ {
		f = min(f, v.funRel(p.Step(i)))
	}
	return f
}

// forwardPaths calls fn for every distinct (path, end) that starts at x, has at most
// maxLen steps, never steps through a literal, never revisits a node (no loops), and
// never takes a relation right after its inverse (no trivial r ∘ r⁻). Ends may be
// literals. Paths are produced shortest first, in edge order.
func (v *view) forwardPaths(ctx context.Context, x int32, maxLen int, fn func(p Path, end int32) error) error {
	es, err := v.edgesOf(ctx, x)
	if err != nil {
		return err
	}
	for _, e := range es {
		if e.node == x {
			continue
		}
		if err := fn(NewPath(e.rel), e.node); err != nil {
			return err
		}
	}
	if maxLen < 2 {
		return nil
	}
	type seenKey struct {
		p   Path
		end int32
	}
	seen := map[seenKey]bool{}
	var walk func(p Path, at int32, visited []int32) error
	walk = func(p Path, at int32, visited []int32) error {
		if v.lit[at] {
			return nil
		}
		es, err := v.edgesOf(ctx, at)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.rel == p.last().Inverse() || slices.Contains(visited, e.node) || e.node == at {
				continue
			}
			q := p.then(e.rel)
			k := seenKey{q, e.node}
			if !seen[k] {
				seen[k] = true
				if err := fn(q, e.node); err != nil {
					return err
				}
			}
			if q.Len() < maxLen {
				if err := walk(q, e.node, append(visited, at)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, e := range es {
		if e.node == x {
			continue
		}
		if err := walk(NewPath(e.rel), e.node, []int32{x}); err != nil {
			return err
		}
	}
	return nil
}
