package align

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
)

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	dir := testutil.SharedData(t, "oaei2010")
	set := os.Getenv("EXPLORE")
	var a, b, gold, sgold string
	if set == "p" {
		a, b, gold, sgold = "Persons1/person11.nt", "Persons1/person12.nt", "Persons1/dataset11_dataset12_goldstandard_person.xml.csv", "testdata/persons1-schema-gold.tsv"
	} else {
		a, b, gold, sgold = "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt", "Restaurants/DERIVED-goldstandard-data-iris.csv", "testdata/restaurants-schema-gold.tsv"
	}
	ctx := t.Context()
	kb1, err := graph.LoadMemory(ctx, filepath.Join(dir, a), graph.MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kb2, err := graph.LoadMemory(ctx, filepath.Join(dir, b), graph.MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	if os.Getenv("JOIN") != "" {
		o.JoinLength = int(os.Getenv("JOIN")[0] - '0')
		o.JoinSum = o.JoinLength + 1
	}
	if os.Getenv("LIT") != "" {
		o.Literals = LiteralMode(os.Getenv("LIT"))
	}
	if os.Getenv("MC") != "" {
		o.MatchCandidates = int(os.Getenv("MC")[0] - '0')
	}
	t0 := time.Now()
	res, err := Align(ctx, kb1, kb2, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("elapsed %v", time.Since(t0))
	for _, it := range res.Iterations {
		t.Logf("%+v", it)
	}
	for _, r := range res.Relations {
		t.Logf("rel %d %s ⊆ %s %.3f n=%.1f", r.SubKB, r.Sub(), r.Super(), r.Confidence, r.N)
	}
	for _, c := range res.Classes {
		t.Logf("class %d %s %s %.3f", c.SubKB, c.LeftTerm, c.RightTerm, c.Confidence)
	}
	for _, gf := range []string{filepath.Join(dir, gold), sgold} {
		g, err := LoadGold(ctx, gf, kb1, kb2)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range g.Problems {
			t.Log(p)
		}
		sc := Evaluate(res, g)
		for _, s := range sc {
			t.Logf("%+v", s)
		}
	}
}
