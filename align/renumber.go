package align

import (
	"cmp"
	"slices"

	"github.com/trawl-dev/trawl/graph"
)

// kb2Order returns KB2's local nodes in the order of their KB1 counterparts: for each
// window of kb1Window KB1 nodes (in KB1's local order), the partners and literal
// anchors of the window's nodes, then the nodes they reach in a few steps through nodes
// with few edges; the nodes no window reaches follow in their present order. It
// depends only on the view and the anchors, never on the number of goroutines.
func (a *aligner) kb2Order() []int32 {
	v2 := a.v2
	n2 := v2.size()
	seen := make([]bool, n2)
	order := make([]int32, 0, n2)
	add := func(j int32) {
		if j >= 0 && !seen[j] {
			seen[j] = true
			order = append(order, j)
		}
	}
	n1 := int32(a.v1.size())
	for start := int32(0); start < n1; start += kb1Window {
		from := len(order)
		for i := start; i < min(start+kb1Window, n1); i++ {
			if m := a.eq1[i]; m.node >= 0 {
				add(m.node)
			}
			if a.v1.lit[i] {
				for _, an := range a.lit1.of(i) {
					add(an.node)
				}
			}
		}
		for step := 0; step < kb2Steps && from < len(order); step++ {
			end := len(order)
			for _, j := range order[from:end] {
				// Not through a literal: a value kept in several places (an age, a
				// postcode, a name in every copy of a KB) leads to entities of
				// other windows.
				if v2.lit[j] || v2.span[j].n > byNodeMin {
					continue
				}
				for _, e := range v2.nodeEdges(j) {
					add(e.node)
				}
			}
			from = end
		}
	}
	for j := range int32(n2) {
		add(j)
	}
	return order
}

// kb2Steps is how far from a KB1 window's counterparts kb2Order goes: an entity's
// values and address, the address's values.
const kb2Steps = 2

// renumberKB2 gives KB2's local nodes new indices in the order of kb2Order and rewrites
// every table that holds KB2 local indices. The aligner's tie-breaks compare KB ids,
// not local indices, so only the order of some floating-point sums depends on the
// numbering.
func (a *aligner) renumberKB2() {
	v := a.v2
	order := a.kb2Order()
	n := len(order)
	perm := make([]int32, n) // old → new
	for nw, old := range order {
		perm[old] = int32(nw)
	}
	ids := make([]graph.ID, n)
	lit := make([]bool, n)
	fetched := make([]bool, n)
	hub := make([]bool, n)
	span := make([]edgeSpan, n)
	byOff := make([]uint32, n)
	arena := make([]ledge, 0, len(v.arena))
	byArena := make([]ledge, 0, len(v.byArena))
	for nw, old := range order {
		ids[nw], lit[nw], fetched[nw], hub[nw] = v.ids[old], v.lit[old], v.fetched[old], v.hub[old]
		s := v.span[old]
		if s.off == unread || s.n == 0 {
			span[nw] = s
			continue
		}
		off := len(arena)
		for _, e := range v.arena[s.off : s.off+s.n] {
			arena = append(arena, ledge{rel: e.rel, node: perm[e.node]})
		}
		span[nw] = edgeSpan{off: uint32(off), n: s.n}
		if v.byOff[old] != 0 {
			bo := len(byArena)
			byArena = append(byArena, arena[off:]...)
			slices.SortFunc(byArena[bo:], func(x, y ledge) int { return cmp.Or(cmp.Compare(x.node, y.node), cmp.Compare(x.rel, y.rel)) })
			byOff[nw] = uint32(bo) + 1
		}
	}
	v.idx.renumber(perm)
	v.ids, v.lit, v.fetched, v.hub, v.span, v.byOff, v.arena, v.byArena = ids, lit, fetched, hub, span, byOff, arena, byArena

	for k := range a.lit1.an {
		a.lit1.an[k].node = perm[a.lit1.an[k].node]
	}
	lit2 := anchorTable{off: make([]int32, n+1), an: make([]anchor, 0, len(a.lit2.an))}
	for nw, old := range order {
		lit2.off[nw] = int32(len(lit2.an))
		if int(old)+1 < len(a.lit2.off) {
			lit2.an = append(lit2.an, a.lit2.of(old)...)
		}
	}
	lit2.off[n] = int32(len(lit2.an))
	a.lit2 = lit2
	for i := range a.eq1 {
		if a.eq1[i].node >= 0 {
			a.eq1[i].node = perm[a.eq1[i].node]
			a.eqAnc1[i].node = a.eq1[i].node
		}
	}
	eq2 := make([]match, n)
	eqAnc2 := make([]anchor, n)
	for nw, old := range order {
		eq2[nw] = match{node: -1}
		eqAnc2[nw] = anchor{node: -1}
		if int(old) < len(a.eq2) {
			eq2[nw], eqAnc2[nw] = a.eq2[old], a.eqAnc2[old]
		}
	}
	a.eq2, a.eqAnc2 = eq2, eqAnc2
	if a.types != nil {
		a.types.closed2.renumber(perm)
	}
}

// farJump is the distance between local indices that partnerJumps counts as a jump: a
// few cache lines of the per-node tables.
const farJump = 256

// partnerJumps counts the KB1 nodes, in local order, whose partner's KB2 local index is
// more than farJump away from the previous partner's: how scattered the reads of KB2's
// tables are when a pass goes through KB1 in order.
func (a *aligner) partnerJumps() int {
	n, prev := 0, int32(-1)
	for _, m := range a.eq1 {
		if m.node < 0 {
			continue
		}
		if prev >= 0 && (m.node-prev > farJump || prev-m.node > farJump) {
			n++
		}
		prev = m.node
	}
	return n
}
