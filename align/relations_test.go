package align

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestMixedRangeNormaliser checks the normaliser of a join whose facts end at literals
// and at entities: contact has a phone number (a literal) and a friend (an entity). The
// literal-to-literal facts of name⁻ / contact can have no counterpart in KB2 (no edge
// links two literals) and are left out of the main relation pass, but they still count
// in the normaliser of the path, which is matched through its other facts:
// N = Σ (1 + Pr(friend ≡ friend′)) over the persons.
func TestMixedRangeNormaliser(t *testing.T) {
	const ex1, ex2 = "http://one.example/", "http://two.example/"
	var b1, b2 strings.Builder
	names := []string{"alma", "boris", "cyril", "dagny", "emeric", "fenna", "gideon", "hester"}
	for i, n := range names {
		friend := fmt.Sprintf("%s friend of %s", strings.ToUpper(n[:1]), n)
		phone := fmt.Sprintf("555-01%02d", i)
		fmt.Fprintf(&b1, "<%sp%d> <%sname> %q .\n", ex1, i, ex1, n)
		fmt.Fprintf(&b1, "<%sp%d> <%scontact> %q .\n", ex1, i, ex1, phone)
		fmt.Fprintf(&b1, "<%sp%d> <%scontact> <%sq%d> .\n", ex1, i, ex1, ex1, i)
		fmt.Fprintf(&b1, "<%sq%d> <%slabel> %q .\n", ex1, i, ex1, friend)
		fmt.Fprintf(&b2, "<%sP%d> <%sname> %q .\n", ex2, i, ex2, n)
		fmt.Fprintf(&b2, "<%sP%d> <%sphone> %q .\n", ex2, i, ex2, phone)
		fmt.Fprintf(&b2, "<%sQ%d> <%sfriendName> %q .\n", ex2, i, ex2, n)
		fmt.Fprintf(&b2, "<%sQ%d> <%slabel> %q .\n", ex2, i, ex2, friend)
	}
	kb1, kb2 := memKB(t, b1.String()), memKB(t, b2.String())
	opts := DefaultOptions()
	opts.SmoothDenominator = 0
	opts.Literals = LiteralExact
	res, err := Align(t.Context(), kb1, kb2, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for _, m := range res.Instances {
		if strings.HasPrefix(m.LeftTerm.Value, ex1+"q") {
			want += 1 + m.Confidence
		}
	}
	var got *RelationMatch
	for k, m := range res.Relations {
		if m.SubKB == 1 && m.LeftName == ex1+"name- / "+ex1+"contact" && m.RightName == ex2+"friendName-" {
			got = &res.Relations[k]
		}
	}
	if got == nil {
		t.Fatalf("no name- / contact ⊆ friendName- in %d relation matches", len(res.Relations))
	}
	if want < float64(len(names)) || !near(got.N, want) {
		t.Errorf("N = %.4f, want %.4f (literal-to-literal facts counted)", got.N, want)
	}
}

// replicaKB1Loaded returns an aligner whose KB1 view holds Persons1 replicated k times,
// numbered and read as loadKB1 does.
func replicaKB1Loaded(t *testing.T, k int) *aligner {
	t.Helper()
	kb1, _ := persons1Replica(t, k)
	a := &aligner{opts: DefaultOptions(), v1: newView(kb1, "KB1", DefaultOptions().MaxDegree, 1)}
	if err := a.loadKB1(t.Context()); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestBetweenBothEnds checks reader.between against its definition (the edges of i
// whose other end is m, sorted by relation) for every pair of neighbours of Persons1
// replicated three times, whichever end it reads: a value shared by many entities has
// its edges by node, and between then reads the small end.
func TestBetweenBothEnds(t *testing.T) {
	a := replicaKB1Loaded(t, 3)
	v := a.v1
	r := reader{v: v}
	small, large := 0, 0
	for i := int32(0); i < int32(v.size()); i++ {
		for _, e := range v.nodeEdges(i) {
			m := e.node
			var want []ledge
			for _, f := range v.nodeEdges(i) {
				if f.node == m {
					want = append(want, f)
				}
			}
			got := r.between(i, m)
			if !slices.Equal(got, want) {
				t.Fatalf("between(%d, %d) = %v, want %v", i, m, got, want)
			}
			if v.byOff[i] != 0 {
				if v.span[m].n <= byNodeMin {
					small++
				} else {
					large++
				}
			}
		}
	}
	if small == 0 {
		t.Errorf("no pair read from its small end (%d from the large one)", large)
	}
}

// TestKB1Numbering checks that loadKB1 numbers each entity near its neighbours: on
// Persons1 replicated three times, a person and its address are at most a window's
// nodes apart, while the KB lists its entities by hash.
func TestKB1Numbering(t *testing.T) {
	a := replicaKB1Loaded(t, 3)
	v := a.v1
	far, pairs := 0, 0
	for _, y := range a.tgt {
		for _, e := range v.nodeEdges(y) {
			if v.lit[e.node] {
				continue
			}
			pairs++
			if d := e.node - y; d > 16*kb1Window || -d > 16*kb1Window {
				if far < 5 {
					t.Logf("entity %d (KB node %d) and its neighbour %d (KB node %d) are far apart", y, v.ids[y], e.node, v.ids[e.node])
				}
				far++
			}
		}
	}
	if pairs == 0 || far > 0 {
		t.Errorf("%d of %d entity pairs more than %d nodes apart", far, pairs, 16*kb1Window)
	}
}

// TestMarkedFronts checks that the bit table of markFronts changes nothing in what
// pathsBetween finds: on Persons1 replicated three times, for every value with a long
// front (the values kept in every copy) and every node of the KB, the paths with the
// table are those without it.
func TestMarkedFronts(t *testing.T) {
	a := replicaKB1Loaded(t, 3)
	v := a.v1
	w := &worker{a: a, r1: reader{v: v}}
	long, found := 0, 0
	for xa := int32(0); xa < int32(v.size()); xa++ {
		w.fronts = append(w.fronts[:0], w.frontier(&w.r1, xa, nil))
		ns := []int32{}
		for _, fe := range w.fronts[0] {
			ns = append(ns, fe.node)
		}
		w.frontNodes = append(w.frontNodes[:0], ns)
		mark := w.markFronts(v.size(), 1)
		if mark == nil {
			continue
		}
		long++
		for ya := int32(0); ya < int32(v.size()); ya++ {
			if ya == xa {
				continue
			}
			w.items = w.items[:0]
			w.pathsBetween(&w.r1, w.fronts[0], ns, nil, xa, ya, 2, 0.5)
			want := slices.Clone(w.items)
			w.items = w.items[:0]
			w.pathsBetween(&w.r1, w.fronts[0], ns, mark, xa, ya, 2, 0.5)
			if !slices.Equal(w.items, want) {
				t.Fatalf("paths from %d to %d: %v with the bit table, %v without", xa, ya, w.items, want)
			}
			found += len(want)
		}
		for _, m := range ns {
			mark[m>>6] = 0
		}
		if slices.ContainsFunc(mark, func(b uint64) bool { return b != 0 }) {
			t.Fatalf("bits left set after the front of %d", xa)
		}
	}
	if long == 0 || found == 0 {
		t.Fatalf("%d long fronts, %d paths found: the test reads nothing", long, found)
	}
	t.Logf("%d long fronts, %d paths", long, found)
}
