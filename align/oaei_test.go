package align

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
)

// The acceptance runs on OAEI 2010 (shared data; see its SOURCE.md).

func loadPair(t testing.TB, a, b string) (*graph.Memory, *graph.Memory) {
	t.Helper()
	dir := testutil.SharedData(t, "oaei2010")
	kb1, err := graph.LoadMemory(t.Context(), filepath.Join(dir, a), graph.MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kb2, err := graph.LoadMemory(t.Context(), filepath.Join(dir, b), graph.MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return kb1, kb2
}

func loadGolds(t testing.TB, kb1, kb2 KB, paths ...string) *Gold {
	t.Helper()
	var g *Gold
	for _, p := range paths {
		if !strings.HasPrefix(p, "testdata/") {
			p = filepath.Join(testutil.SharedData(t, "oaei2010"), p)
		}
		h, err := LoadGold(t.Context(), p, kb1, kb2)
		if err != nil {
			t.Fatal(err)
		}
		if g == nil {
			g = h
		} else {
			g.Merge(h)
		}
	}
	return g
}

func scoreOf(t testing.TB, scores []Score, kind, dir string) Score {
	t.Helper()
	for _, s := range scores {
		if s.Kind == kind && s.Direction == dir {
			return s
		}
	}
	t.Fatalf("no %s %s score", kind, dir)
	return Score{}
}

func TestPersons1(t *testing.T) {
	kb1, kb2 := loadPair(t, "Persons1/person11.nt", "Persons1/person12.nt")
	gold := loadGolds(t, kb1, kb2, "Persons1/dataset11_dataset12_goldstandard_person.xml", "testdata/persons1-schema-gold.tsv")
	if len(gold.Problems) != 0 {
		t.Fatalf("gold problems: %v", gold.Problems)
	}
	for _, joins := range []int{2, 3} {
		opts := DefaultOptions()
		if joins == 3 {
			opts.JoinLength, opts.JoinSum = 3, 4
		}
		res, err := Align(t.Context(), kb1, kb2, opts)
		if err != nil {
			t.Fatal(err)
		}
		scores := Evaluate(res, gold)
		var b bytes.Buffer
		WriteScores(&b, scores)
		t.Logf("joins %d:\n%s", joins, b.String())
		if s := scoreOf(t, scores, "instance", ""); s.Precision != 1 || s.Recall != 1 {
			t.Errorf("joins %d: instances P %.3f R %.3f, want 1 and 1", joins, s.Precision, s.Recall)
		}
		for _, dir := range []string{"KB1⊆KB2", "KB2⊆KB1"} {
			s := scoreOf(t, scores, "relation", dir)
			want := 12 // the ten plain relations, suburb ≙ is_in_suburb/name, state ≙ is_in_suburb/is_in_state/name
			if joins == 2 {
				want = 11 // the state of a person11 address is three steps away
			}
			if s.Wrong != 0 || s.Correct != want {
				t.Errorf("joins %d, relations %s: %d correct, %d wrong, want %d and 0 (missed %v)", joins, dir, s.Correct, s.Wrong, want, s.Missed)
			}
			if c := scoreOf(t, scores, "class", dir); c.Precision != 1 || c.Recall != 1 {
				t.Errorf("joins %d, classes %s: P %.3f R %.3f", joins, dir, c.Precision, c.Recall)
			}
		}
	}
}

func TestRestaurants(t *testing.T) {
	kb1, kb2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
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
	t.Logf("\n%s", b.String())
	// The Java PARIS v0.3 on the same files: P .961 R .875 F1 .916 (.883 with joins).
	// trawl before the evidence factors of issue 15 and since the shared-value inverse
	// functionality (decision record 2026-11-27-linking-shared-value-functionality):
	// 111 of 112, P and R 0.991; the acceptance of issue 15 holds it there.
	if s := scoreOf(t, scores, "instance", ""); s.F1 < 0.95 || s.Recall < 0.99 || s.Precision < 0.99 {
		t.Errorf("instance P %.3f R %.3f F1 %.3f, want P and R ≥ 0.99 (111 of 112)", s.Precision, s.Recall, s.F1)
	}
	for _, dir := range []string{"KB1⊆KB2", "KB2⊆KB1"} {
		// Including category ≙ has_category/name and is_in_city/name ≙ city.
		if s := scoreOf(t, scores, "relation", dir); s.Recall != 1 || s.Precision != 1 {
			t.Errorf("relations %s: P %.3f R %.3f (missed %v)", dir, s.Precision, s.Recall, s.Missed)
		}
		if s := scoreOf(t, scores, "class", dir); s.Recall != 1 {
			t.Errorf("classes %s: R %.3f", dir, s.Recall)
		}
	}
	// The unrepaired OAEI gold names 23 restaurants restaurant2.nt does not have.
	orig, err := LoadGold(t.Context(), filepath.Join(testutil.SharedData(t, "oaei2010"), "Restaurants/restaurant1_restaurant2_goldstandard.rdf"), kb1, kb2)
	if err != nil {
		t.Fatal(err)
	}
	if len(orig.Problems) != 23 || !strings.Contains(orig.Problems[0], "restaurant1_restaurant2_goldstandard.rdf:") || !strings.Contains(orig.Problems[0], "is not in KB2") {
		t.Errorf("%d problems, first %q; want 23 naming file:line and KB2", len(orig.Problems), orig.Problems[0])
	}
}

// TestDeterministic runs Restaurants three times, on different numbers of goroutines:
// the files must be byte-identical, and alignment.tsv must equal the golden file (review
// every -update diff).
func TestDeterministic(t *testing.T) {
	kb1, kb2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	var outs [3]map[string][]byte
	for i := range outs {
		opts := DefaultOptions()
		opts.Workers = []int{0, 1, 3}[i] // the result does not depend on the goroutines
		res, err := Align(t.Context(), kb1, kb2, opts)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := WriteDir(dir, res, RunInfo{KB1: "restaurant1.nt", KB2: "restaurant2.nt"}); err != nil {
			t.Fatal(err)
		}
		outs[i] = map[string][]byte{}
		for _, f := range []string{FileTSV, FileRDF, FileLinks, FileOptions, FileRun} {
			outs[i][f] = readFile(t, filepath.Join(dir, f))
		}
	}
	for i := 1; i < len(outs); i++ {
		for f, b := range outs[0] {
			if !bytes.Equal(b, outs[i][f]) {
				t.Errorf("%s differs between runs 1 and %d", f, i+1)
			}
		}
	}
	testutil.Golden(t, "restaurants.alignment.tsv", outs[0][FileTSV])
}
