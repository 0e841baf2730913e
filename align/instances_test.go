package align

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
)

// TestProposedEvidence checks proposedEvidence against its definition on random cases:
// every item of a fact, weak blocks expanded in full (the edges of the block's node
// with its relation to entities other than itself), kept when its candidate is
// proposed, and marked brk when an item was dropped since the previous one kept.
func TestProposedEvidence(t *testing.T) {
	const ex = "http://ex.example/"
	rng := rand.New(rand.NewPCG(19, 1))
	var b strings.Builder
	// Two shared literal values and one shared entity (hub, with a label and a loop)
	// reached from 40 entities through three relations each, at random.
	for i := range 40 {
		for r := range 3 {
			for v := range 2 {
				if rng.IntN(2) == 0 {
					fmt.Fprintf(&b, "<%se%d> <%sr%d> \"v%d\" .\n", ex, i, ex, r, v)
				}
			}
			if rng.IntN(3) == 0 {
				fmt.Fprintf(&b, "<%se%d> <%sm%d> <%shub> .\n", ex, i, ex, r, ex)
			}
		}
	}
	fmt.Fprintf(&b, "<%shub> <%sm0> <%shub> .\n<%shub> <%slabel> \"hub\" .\n", ex, ex, ex, ex, ex)
	kb := memKB(t, b.String())
	a := &aligner{opts: DefaultOptions(), v1: newView(kb, "KB1", 10000, 1), v2: newView(kb, "KB2", 10000, 1)}
	v := a.v2
	id := func(term graph.Term) int32 {
		n, ok, err := kb.Lookup(t.Context(), term)
		if err != nil || !ok {
			t.Fatalf("no %s in the test KB (%v)", term, err)
		}
		return v.local(n)
	}
	values := []int32{id(graph.NewLiteral("v0")), id(graph.NewLiteral("v1")), id(graph.NewIRI(ex + "hub"))}
	var entities []int32
	for i := range 40 {
		entities = append(entities, id(graph.NewIRI(fmt.Sprintf("%se%d", ex, i))))
	}
	entities = append(entities, values[2])
	if err := v.fetch(t.Context(), append(slices.Clone(values), entities...)); err != nil {
		t.Fatal(err)
	}
	a.newWorkers()
	w := a.workers[0]
	w.acc = make([]candAcc, v.size())
	checked := 0
	for c := range 500 {
		w.proposed = w.proposed[:0]
		for k := range w.acc {
			w.acc[k] = candAcc{prod: 1}
		}
		for _, y := range entities {
			if rng.IntN(4) == 0 {
				w.propose(y)
			}
		}
		slices.SortFunc(w.proposed, func(x, y int32) int { return compareID(v.ids[x], v.ids[y]) })
		var items []evidence
		for range 1 + rng.IntN(6) {
			it := evidence{factor: rng.Float64(), disc: rng.Float64()}
			if rng.IntN(3) == 0 {
				it.y2, it.p2 = entities[rng.IntN(len(entities))], NewPath(graph.Rel(2))
			} else {
				x := values[rng.IntN(len(values))]
				es := w.r2.edges(x)
				it.y2, it.p2 = ^x, NewPath(es[rng.IntN(len(es))].rel)
			}
			items = append(items, it)
		}
		var want []evidence
		dropped := false
		keep := func(it evidence) {
			if !w.acc[it.y2].proposed {
				dropped = true
				return
			}
			it.brk, dropped = dropped, false
			want = append(want, it)
		}
		for _, it := range items {
			if it.y2 >= 0 {
				keep(it)
				continue
			}
			x := ^it.y2
			for _, e := range w.r2.edgesRel(x, it.p2.Step(0)) {
				if e.node != x && !v.lit[e.node] {
					one := it
					one.y2 = e.node
					keep(one)
				}
			}
		}
		got := w.proposedEvidence(items)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: items %v with proposed %v:\ngot  %v\nwant %v", c, items, w.proposed, got, want)
		}
		for k := 1; k < len(want); k++ {
			if want[k].brk && want[k].y2 == want[k-1].y2 {
				checked++
			}
		}
	}
	if checked == 0 {
		t.Error("no case kept two items of one candidate apart: the cases do not exercise brk")
	}
	t.Logf("%d pairs of adjacent items of one candidate kept apart", checked)
}
