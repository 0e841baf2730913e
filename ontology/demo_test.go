package ontology_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/demokb"
)

func TestDemoKB(t *testing.T) {
	ctx := t.Context()
	start := time.Now()
	st, err := ontology.OpenDemo(ctx, ontology.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t.Logf("demo KB opened in %v", time.Since(start))
	stats := st.Stats()
	if stats.Facts < 3000 || stats.BadLines != 0 {
		t.Errorf("demo KB: %d facts, %d bad lines", stats.Facts, stats.BadLines)
	}
	if n := len(demokb.Dump()); n > 1<<20 {
		t.Errorf("demo dump is %d bytes", n)
	}

	// Every listed book is in the KB, with its label.
	books := demokb.Books()
	if len(books) < 200 {
		t.Fatalf("%d books", len(books))
	}
	for _, b := range books {
		id := mustNode(t, st, graph.NewIRI(b.IRI))
		if l, _ := st.Label(ctx, id); l != b.Title {
			t.Errorf("%s: label %q, want %q", b.IRI, l, b.Title)
		}
	}

	// Facts the pipeline relies on.
	find := func(text string) ontology.EntityMatch {
		t.Helper()
		ms, err := st.FindEntities(ctx, text, 5, ontology.FindOptions{})
		if err != nil || len(ms) == 0 {
			t.Fatalf("FindEntities(%q) = %v, %v", text, ms, err)
		}
		return ms[0]
	}
	lee := find("Harper Lee")
	var birth, nation string
	for e, err := range st.Edges(ctx, lee.Entity) {
		if err != nil {
			t.Fatal(err)
		}
		switch st.RelationIRI(e.Rel) {
		case "http://schema.org/birthDate":
			birth, _ = st.Label(ctx, e.Node)
		case "http://schema.org/nationality":
			nation, _ = st.Label(ctx, e.Node)
		}
	}
	if birth != "1926-04-28" || nation != "United States" {
		t.Errorf("Harper Lee: born %q, nationality %q", birth, nation)
	}
	ms, _ := st.FindEntities(ctx, "To Kill a Mockingbird", 5, ontology.FindOptions{})
	var kinds []string
	for _, m := range ms {
		types, _ := st.Types(ctx, m.Entity)
		for _, c := range types {
			l, _ := st.Label(ctx, c)
			kinds = append(kinds, l)
		}
	}
	if strings.Join(kinds, ",") != "book,film" && strings.Join(kinds, ",") != "film,book" {
		t.Errorf("To Kill a Mockingbird is a %v", kinds)
	}
	// Authors are found under the goodbooks spelling too.
	if m := find("Fyodor Dostoyevsky"); m.Label != "Fyodor Dostoevsky" {
		t.Errorf("Dostoyevsky → %+v", m)
	}
}

// TestDemoKBCoversCalibrePartly: of the calibre site's goodbooks records, some are in
// the demo KB and most are not.
func TestDemoKBCoversCalibrePartly(t *testing.T) {
	path := filepath.Join(testutil.SharedDir(), "sites", "calibre", "data", "goodbooks-10k-books-first3000.csv")
	f, err := os.Open(path)
	if err != nil {
		if os.Getenv("TRAWL_REQUIRE_SHARED") == "1" {
			t.Fatalf("calibre data missing: %v", err)
		}
		t.Skipf("calibre data not here: %v (set TRAWL_SHARED)", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	inKB := map[string]bool{}
	for _, b := range demokb.Books() {
		inKB[textnorm.Literal(b.Title)] = true
		inKB[textnorm.Literal(b.AltTitle)] = true
	}
	in := 0
	for _, r := range rows[1:] {
		if inKB[textnorm.Literal(r[10])] {
			in++
		}
	}
	if frac := float64(in) / float64(len(rows)-1); frac < 0.05 || frac > 0.5 {
		t.Errorf("%d of %d calibre records are in the demo KB", in, len(rows)-1)
	}
	t.Logf("%d of %d calibre records have their title in the demo KB", in, len(rows)-1)
}
