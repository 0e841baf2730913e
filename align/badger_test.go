package align

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/ontology"
)

// Graph-vs-KB mode with the Badger store of package ontology as KB2: the same aligner,
// through the same KB interface, no shortcut.

var _ KB = (*ontology.Store)(nil)

// badgerKB loads N-Triples into an in-memory Badger store.
func badgerKB(t testing.TB, name string, nt []byte) *ontology.Store {
	t.Helper()
	opts := ontology.DefaultLoadOptions()
	opts.SortMemoryMB = 64
	opts.DeriveLabels = false
	src := ontology.Source{Name: name, Format: ontology.FormatNTriples, Size: int64(len(nt)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(nt)), nil }}
	st, _, err := ontology.LoadMemory(t.Context(), []ontology.Source{src}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func ntBytes(t testing.TB, ts []graph.Triple) []byte {
	t.Helper()
	var b bytes.Buffer
	w := graph.NewWriter(&b)
	for _, tr := range ts {
		if err := w.Write(tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRestaurantsBadger(t *testing.T) {
	dir := testutil.SharedData(t, "oaei2010")
	kb1, mem2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	nt := readFile(t, filepath.Join(dir, "Restaurants/restaurant2.nt"))
	kb2 := badgerKB(t, "restaurant2.nt", nt)
	gold := loadGolds(t, kb1, kb2, "Restaurants/DERIVED-goldstandard-data-iris.csv", "testdata/restaurants-schema-gold.tsv")
	if len(gold.Problems) != 0 {
		t.Fatalf("gold problems: %v", gold.Problems)
	}
	res, err := Align(t.Context(), kb1, kb2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	scores := Evaluate(res, gold)
	var b bytes.Buffer
	WriteScores(&b, scores)
	t.Logf("Badger KB2:\n%s", b.String())
	if s := scoreOf(t, scores, "instance", ""); s.F1 < 0.95 {
		t.Errorf("instance F1 %.3f < 0.95", s.F1)
	}
	for _, dir := range []string{"KB1⊆KB2", "KB2⊆KB1"} {
		if s := scoreOf(t, scores, "relation", dir); s.Recall != 1 || s.Precision != 1 {
			t.Errorf("relations %s: P %.3f R %.3f (missed %v)", dir, s.Precision, s.Recall, s.Missed)
		}
	}
	// The two KB views of the same file give the same alignment.
	ref, err := Align(t.Context(), kb1, mem2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	pairs := func(r *Result) map[string]string {
		m := map[string]string{}
		for _, x := range r.Instances {
			m[x.LeftTerm.Value] = x.RightTerm.Value
		}
		return m
	}
	a, c := pairs(res), pairs(ref)
	diff := 0
	for l, r := range c {
		if a[l] != r {
			diff++
		}
	}
	if diff > 0 || len(a) != len(c) {
		t.Errorf("Badger and in-memory KB2 differ on %d pairs (%d vs %d pairs)", diff, len(a), len(c))
	}
}

func TestDeepWebBooksBadger(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("loads 250k triples into Badger (≈ 6 s, minutes under -race); run go test ./align without -short or -race. TestRestaurantsBadger covers the Badger KB under -race")
	}
	kbTriples, created := yagoKB(t)
	kb2 := badgerKB(t, "yago3-10-derived.nt", ntBytes(t, kbTriples))
	recs, want := bookRecords(created, otherEntities(created), 20, 80)
	kb1, err := graph.NewMemory(recs)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	res, err := Align(t.Context(), kb1, kb2, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range res.Iterations {
		t.Logf("iteration %d: matched %d, %v", it.Iteration, it.Matched, it.Elapsed)
	}
	best := map[string]RelationMatch{}
	for _, m := range res.Relations {
		if m.SubKB == 1 && !m.Left.Step(0).IsInverse() {
			if b, ok := best[m.LeftName]; !ok || m.Confidence > b.Confidence {
				best[m.LeftName] = m
			}
		}
	}
	if m := best[srcNS+"attr/title"]; m.RightName != graph.RDFSLabel {
		t.Errorf("title ⊆ %q", m.RightName)
	}
	if m := best[srcNS+"attr/author"]; m.RightName != schemaNS+"author / "+graph.RDFSLabel {
		t.Errorf("author ⊆ %q", m.RightName)
	}
	correct := 0
	for _, m := range res.Instances {
		w, inKB := want[m.LeftTerm.Value]
		if !inKB && m.Confidence >= opts.LinkThreshold {
			t.Errorf("record %s is not in the KB but links to %s at %.3f", m.LeftTerm.Value, m.RightTerm.Value, m.Confidence)
		}
		if inKB && m.Confidence >= opts.LinkThreshold && m.RightTerm.Value == w {
			correct++
		}
	}
	t.Logf("%d of %d records of KB works linked correctly; read %d KB2 nodes", correct, len(want), res.Stats.KB2Nodes)
	if correct < len(want)*3/4 {
		t.Errorf("%d of %d linked", correct, len(want))
	}
}
