package align

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/trawl-dev/trawl/graph"
)

// viewKB is what a view reads from a KB.
type viewKB interface {
	Dictionary
	FactReader
	Schema
}

// view caches what the aligner reads from one KB. Every node it touches gets a local
// index (int32, in an order that depends only on the KB and the order of the reads, so
// a run is deterministic; see fetch and loadKB1; KB2's view is renumbered once, after
// the first iteration, in the order of KB1's partners: renumberKB2); the edges of a
// node are read once. KB1 is read completely at the start; of KB2 only the neighbourhood that
// literal candidates and equalities reach is ever read.
//
// A view changes only in fetch, which the aligner calls between its parallel phases;
// during a phase the workers read it through a reader, which records the nodes whose
// edges are missing instead of reading them.
type view struct {
	kb   viewKB
	name string
	ids  []graph.ID
	idx  nodeIndex
	lit  []bool
	// The edges of node i are arena[span[i].off:][:span[i].n], sorted by relation, then
	// KB node id; a node with more than byNodeMin edges also has them sorted by local
	// node, then relation, at byArena[byOff[i]-1:][:span[i].n] (byOff 0: none). Offsets
	// instead of one slice per node: the tables hold no pointers for the collector to
	// scan, take 12 bytes a node instead of 48, and the edges of the nodes read together
	// lie together.
	span    []edgeSpan
	byOff   []uint32
	arena   []ledge
	byArena []ledge
	fetched []bool
	hub     []bool
	fun     []float64 // functionality by relation (graph.Rel), for the relations the KB lists

	maxDegree int
	workers   int
	hubs      int // nodes skipped for having more than maxDegree edges
	reads     int // nodes whose edges were read
}

// edgeSpan locates the edges of a node in its view's arena; off is unread for a node
// whose edges have not been read. A hub's edges are read but not used: its span is
// empty.
type edgeSpan struct {
	off, n uint32
}

const unread = ^uint32(0)

// noEdges are the edges of a node that has been read and has none (or is a hub); never
// nil, so readers tell them from the edges of a node not read by one test.
var noEdges = []ledge{}

// nodeEdges returns the edges of node i, nil if they have not been read.
func (v *view) nodeEdges(i int32) []ledge {
	s := v.span[i]
	if s.off == unread {
		return nil
	}
	if s.n == 0 {
		return noEdges
	}
	return v.arena[s.off : s.off+s.n : s.off+s.n]
}

// nodeEdgesByNode returns the edges of node i sorted by node, nil if it has at most
// byNodeMin edges.
func (v *view) nodeEdgesByNode(i int32) []ledge {
	o := v.byOff[i]
	if o == 0 {
		return nil
	}
	n := v.span[i].n
	return v.byArena[o-1 : o-1+n : o-1+n]
}

// byNodeMin is the degree above which a node's edges are also kept sorted by node, so
// that the edges between it and a given node are found by binary search.
const byNodeMin = 16

// ledge is an edge with the local index of its other end.
type ledge struct {
	rel  graph.Rel
	node int32
}

func newView(kb viewKB, name string, maxDegree, workers int) *view {
	v := &view{kb: kb, name: name, idx: newNodeIndex(kb), maxDegree: maxDegree, workers: workers}
	rels := kb.Relations()
	if len(rels) > 0 && int(slices.Max(rels)) < 1<<22 {
		v.fun = make([]float64, slices.Max(rels)+2)
		for _, r := range rels {
			v.fun[r] = kb.Functionality(r)
			v.fun[r.Inverse()] = kb.Functionality(r.Inverse())
		}
	}
	return v
}

// reserve makes room for n nodes.
func (v *view) reserve(n int) {
	if len(v.ids) > 0 {
		return
	}
	v.idx.reserve(n)
	v.ids = make([]graph.ID, 0, n)
	v.lit = make([]bool, 0, n)
	v.span = make([]edgeSpan, 0, n)
	v.byOff = make([]uint32, 0, n)
	v.fetched = make([]bool, 0, n)
	v.hub = make([]bool, 0, n)
}

// nodeIndex maps the KB ids of a view's nodes to their local indices: a table by id
// when the KB numbers its nodes 1 … n (graph.Memory: one read of four bytes, where a
// map lookup in a table of a million nodes reads its directory, control word and slot,
// each a cache miss), a map for other KBs (the Badger store's ids are hashes) and for
// ids beyond n.
type nodeIndex struct {
	dense []int32 // by KB id: local index + 1, 0 for none
	m     map[graph.ID]int32
}

// denseNodes is a KB whose node ids are 1 … Nodes().
type denseNodes interface {
	Nodes() int
}

// maxDenseNodes bounds the table of a nodeIndex (4 bytes a KB node, whether the view
// reads the node or not).
const maxDenseNodes = 1 << 28

func newNodeIndex(kb viewKB) nodeIndex {
	x := nodeIndex{m: map[graph.ID]int32{}}
	if d, ok := kb.(denseNodes); ok && d.Nodes() < maxDenseNodes {
		x.dense = make([]int32, d.Nodes()+1)
	}
	return x
}

// reserve makes room for n nodes in the map of a KB without a table.
func (x *nodeIndex) reserve(n int) {
	if x.dense == nil && len(x.m) == 0 {
		x.m = make(map[graph.ID]int32, n)
	}
}

func (x *nodeIndex) get(id graph.ID) (int32, bool) {
	if id < graph.ID(len(x.dense)) {
		i := x.dense[id]
		return i - 1, i != 0
	}
	i, ok := x.m[id]
	return i, ok
}

func (x *nodeIndex) set(id graph.ID, i int32) {
	if id < graph.ID(len(x.dense)) {
		x.dense[id] = i + 1
		return
	}
	x.m[id] = i
}

// renumber gives every node the local index perm[old].
func (x *nodeIndex) renumber(perm []int32) {
	for id, i := range x.dense {
		if i != 0 {
			x.dense[id] = perm[i-1] + 1
		}
	}
	for id, old := range x.m {
		x.m[id] = perm[old]
	}
}

// local returns the local index of id, assigning one if needed.
func (v *view) local(id graph.ID) int32 {
	if i, ok := v.idx.get(id); ok {
		return i
	}
	i := int32(len(v.ids))
	v.ids = append(v.ids, id)
	v.idx.set(id, i)
	v.lit = append(v.lit, v.kb.IsLiteral(id))
	v.span = append(v.span, edgeSpan{off: unread})
	v.byOff = append(v.byOff, 0)
	v.fetched = append(v.fetched, false)
	v.hub = append(v.hub, false)
	return i
}

func (v *view) size() int { return len(v.ids) }

// fetch reads the edges of the nodes of ns that have not been read, through the KB's
// BatchFactReader if it has one, otherwise with Edges on several goroutines. Local
// indices are given to new neighbours in the order of ns and of each node's edges,
// those of the nodes with at most byNodeMin edges first, so the result does not depend
// on the order in which the reads finish. A hub (more than
// maxDegree edges) gets no edges.
func (v *view) fetch(ctx context.Context, ns []int32) error {
	var todo []int32
	for _, i := range ns {
		if !v.fetched[i] {
			todo = append(todo, i)
			v.fetched[i] = true // marks duplicates in ns too; undone on error below
		}
	}
	if len(todo) == 0 {
		return nil
	}
	got := make([][]graph.Edge, len(todo))
	hub := make([]bool, len(todo))
	keep := func(k int, es []graph.Edge, shared bool) {
		if len(es) > v.maxDegree {
			hub[k] = true
			return
		}
		if shared && sortedEdges(es) {
			got[k] = es // the KB keeps it unchanged: no copy
			return
		}
		es = slices.Clone(es)
		slices.SortFunc(es, compareEdges)
		got[k] = slices.Compact(es)
	}
	err := v.read(ctx, todo, keep)
	total := len(v.arena)
	for _, es := range got {
		total += len(es)
	}
	if err == nil && total >= int(unread) {
		err = fmt.Errorf("align: more than %d edges read from %s", unread-1, v.name)
	}
	if err != nil {
		for _, i := range todo {
			v.fetched[i] = false
		}
		return err
	}
	// New neighbours get local indices in order of todo, those of the nodes with few
	// edges first: the neighbours of a value shared by many entities (an age, a
	// postcode) come from every part of the KB, and numbered first they would scatter
	// the entities that the other nodes of todo reach one by one.
	locs := make([]int32, total-len(v.arena)) // got[k]'s at locs[offs[k]:]
	offs := make([]int, len(todo))
	for k := 1; k < len(got); k++ {
		offs[k] = offs[k-1] + len(got[k-1])
	}
	for _, small := range []bool{true, false} {
		for k, es := range got {
			if (len(es) <= byNodeMin) != small {
				continue
			}
			for j, e := range es {
				locs[offs[k]+j] = v.local(e.Node)
			}
		}
	}
	for k, i := range todo {
		v.reads++
		if hub[k] {
			v.hub[i] = true
			v.hubs++
			v.span[i] = edgeSpan{}
			continue
		}
		start := len(v.arena)
		for j, e := range got[k] {
			v.arena = append(v.arena, ledge{rel: e.Rel, node: locs[offs[k]+j]})
		}
		out := v.arena[start:]
		v.span[i] = edgeSpan{off: uint32(start), n: uint32(len(out))}
		if len(out) > byNodeMin {
			start := len(v.byArena)
			v.byArena = append(v.byArena, out...)
			bn := v.byArena[start:]
			slices.SortFunc(bn, func(a, b ledge) int { return cmp.Or(cmp.Compare(a.node, b.node), cmp.Compare(a.rel, b.rel)) })
			v.byOff[i] = uint32(start) + 1
		}
	}
	return nil
}

// edgeSlicer is a KB that hands out the edges of a node as a slice it never changes
// (graph.Memory): the view reads them without an iterator and, when they are sorted
// already, without a copy.
type edgeSlicer interface {
	EdgeSlice(n graph.ID) []graph.Edge
}

func compareEdges(a, b graph.Edge) int {
	return cmp.Or(cmp.Compare(a.Rel, b.Rel), cmp.Compare(a.Node, b.Node))
}

// sortedEdges reports whether es is strictly increasing by relation then node (sorted,
// no duplicates), the order fetch keeps.
func sortedEdges(es []graph.Edge) bool {
	for i := 1; i < len(es); i++ {
		if compareEdges(es[i-1], es[i]) >= 0 {
			return false
		}
	}
	return true
}

// read calls keep(k, edges, shared) for each node todo[k], shared when the KB keeps
// the slice unchanged after the call; calls for different k may run at the same time.
func (v *view) read(ctx context.Context, todo []int32, keep func(k int, es []graph.Edge, shared bool)) error {
	ids := make([]graph.ID, len(todo))
	for k, i := range todo {
		ids[k] = v.ids[i]
	}
	if s, ok := v.kb.(edgeSlicer); ok {
		for k, id := range ids {
			if k%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			keep(k, s.EdgeSlice(id), true)
		}
		return nil
	}
	if b, ok := v.kb.(BatchFactReader); ok {
		err := b.EdgesBatch(ctx, ids, func(k int, es []graph.Edge) error {
			if k < 0 || k >= len(ids) {
				return fmt.Errorf("align: EdgesBatch of %s returned node index %d of %d", v.name, k, len(ids))
			}
			keep(k, es, false)
			return nil
		})
		if err != nil {
			return fmt.Errorf("align: read the edges of %d nodes of %s: %w", len(ids), v.name, err)
		}
		return nil
	}
	one := func(k int, buf []graph.Edge) ([]graph.Edge, error) {
		buf = buf[:0]
		for e, err := range v.kb.Edges(ctx, ids[k]) {
			if err != nil {
				return buf, fmt.Errorf("align: read the edges of node %d of %s: %w", ids[k], v.name, err)
			}
			buf = append(buf, e)
			if len(buf) > v.maxDegree {
				break // a hub: its edges are not used
			}
		}
		keep(k, buf, false)
		return buf, nil
	}
	workers := min(v.workers, len(todo)/64+1)
	if workers <= 1 {
		var buf []graph.Edge
		for k := range todo {
			if k%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			var err error
			if buf, err = one(k, buf); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  int
	)
	for range workers {
		wg.Go(func() {
			var buf []graph.Edge
			for {
				mu.Lock()
				k := next
				next += 64
				stop := first != nil
				mu.Unlock()
				if stop || k >= len(todo) {
					return
				}
				if err := ctx.Err(); err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
					return
				}
				for j := k; j < min(k+64, len(todo)); j++ {
					var err error
					if buf, err = one(j, buf); err != nil {
						mu.Lock()
						first = cmp.Or(first, err)
						mu.Unlock()
						return
					}
				}
			}
		})
	}
	wg.Wait()
	return first
}

// funRel returns the functionality of r in this KB.
func (v *view) funRel(r graph.Rel) float64 {
	if int(r) < len(v.fun) {
		return v.fun[r]
	}
	return v.kb.Functionality(r)
}

// funPath returns the functionality of a path: the smallest of its steps' (paris.md §2).
func (v *view) funPath(p Path) float64 {
	f := v.funRel(p.r[0])
	for i := 1; i < int(p.n); i++ {
		f = min(f, v.funRel(p.r[i]))
	}
	return f
}

// reader reads a view during a parallel phase: the edges of a node not fetched yet are
// empty, and the node is recorded in miss, so that the unit of work can be done again
// once it is fetched.
type reader struct {
	v    *view
	miss []int32

	order   []int32 // scratch of firstOccurrences
	dup     []bool
	scratch []ledge // of between
}

// edges returns the edges of local node i, sorted by relation then KB node id.
func (r *reader) edges(i int32) []ledge {
	es := r.v.nodeEdges(i)
	if es == nil {
		r.miss = append(r.miss, i)
	}
	return es
}

// edgesRel returns the edges of i with relation rel.
func (r *reader) edgesRel(i int32, rel graph.Rel) []ledge {
	es := r.edges(i)
	lo, _ := slices.BinarySearchFunc(es, rel, func(e ledge, r graph.Rel) int { return cmp.Compare(e.rel, r) })
	hi := lo
	for hi < len(es) && es[hi].rel == rel {
		hi++
	}
	return es[lo:hi]
}

// between returns the edges of i whose other end is m, sorted by relation; the slice is
// valid until the next call. When i has many edges and m few, it reads m's edges (the
// same facts seen from m, every fact being listed at both ends) rather than searching
// i's: a value shared by thousands of entities (a postcode) is then never searched, and
// the facts read lie with m's, which the caller has just read.
func (r *reader) between(i, m int32) []ledge {
	v := r.v
	es := v.nodeEdgesByNode(i)
	if es != nil && !v.hub[m] {
		if s := v.span[m]; s.off != unread && s.n <= byNodeMin {
			r.scratch = r.scratch[:0]
			for _, e := range v.arena[s.off : s.off+s.n] {
				if e.node == i {
					r.scratch = append(r.scratch, ledge{rel: e.rel.Inverse(), node: m})
				}
			}
			// m's edges are sorted by relation; the inverse relations of one pair of
			// nodes are few (usually one): sort them by insertion.
			sc := r.scratch
			for k := 1; k < len(sc); k++ {
				for j := k; j > 0 && sc[j].rel < sc[j-1].rel; j-- {
					sc[j], sc[j-1] = sc[j-1], sc[j]
				}
			}
			return sc
		}
	}
	if es == nil {
		// Few edges, sorted by relation: copy those to m into scratch space.
		r.scratch = r.scratch[:0]
		for _, e := range r.edges(i) {
			if e.node == m {
				r.scratch = append(r.scratch, e)
			}
		}
		return r.scratch
	}
	lo, _ := slices.BinarySearchFunc(es, m, func(e ledge, m int32) int { return cmp.Compare(e.node, m) })
	hi := lo
	for hi < len(es) && es[hi].node == m {
		hi++
	}
	return es[lo:hi]
}

// pathEnd is a path from a start node and the node it leads to.
type pathEnd struct {
	p   Path
	end int32
}

// forwardPaths appends to out every distinct (path, end) that starts at x, has at most
// maxLen steps, never steps through a literal, never revisits a node (no loops), and
// never takes a relation right after its inverse (no trivial r ∘ r⁻). Ends may be
// literals. The one-step paths come first, in edge order, then the longer ones sorted.
func (r *reader) forwardPaths(x int32, maxLen int, out []pathEnd) []pathEnd {
	es := r.edges(x)
	for _, e := range es {
		if e.node != x {
			out = append(out, pathEnd{NewPath(e.rel), e.node})
		}
	}
	if maxLen < 2 {
		return out
	}
	start := len(out)
	for _, e := range es {
		m := e.node
		if m == x || r.v.lit[m] {
			continue
		}
		for _, e2 := range r.edges(m) {
			m2 := e2.node
			if e2.rel == e.rel.Inverse() || m2 == x || m2 == m {
				continue
			}
			q := NewPath(e.rel, e2.rel)
			out = append(out, pathEnd{q, m2})
			if maxLen < 3 || r.v.lit[m2] {
				continue
			}
			for _, e3 := range r.edges(m2) {
				if e3.rel == e2.rel.Inverse() || e3.node == x || e3.node == m || e3.node == m2 {
					continue
				}
				out = append(out, pathEnd{q.then(e3.rel), e3.node})
			}
		}
	}
	return append(out[:start], r.firstOccurrences(out[start:])...)
}

// firstOccurrences removes the repeated elements of ps in place, keeping the first of
// each in its position (a path reached through two middle nodes is one fact).
func (r *reader) firstOccurrences(ps []pathEnd) []pathEnd {
	if len(ps) < 2 {
		return ps
	}
	r.order = r.order[:0]
	for i := range ps {
		r.order = append(r.order, int32(i))
	}
	slices.SortFunc(r.order, func(i, j int32) int {
		return cmp.Or(comparePath(ps[i].p, ps[j].p), cmp.Compare(ps[i].end, ps[j].end), cmp.Compare(i, j))
	})
	r.dup = slices.Grow(r.dup[:0], len(ps))[:len(ps)]
	clear(r.dup)
	for k := 1; k < len(r.order); k++ {
		i, j := r.order[k-1], r.order[k]
		if ps[i] == ps[j] {
			r.dup[j] = true
		}
	}
	n := 0
	for i, pe := range ps {
		if !r.dup[i] {
			ps[n] = pe
			n++
		}
	}
	return ps[:n]
}
