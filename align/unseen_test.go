package align

import (
	"context"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/bookkb"
	"github.com/trawl-dev/trawl/internal/testutil"
)

// The linking cases nobody tuned the evidence factors on (issue 15): built after the
// factors and their constants were fixed, and only measured. Each one changes what the
// tuned cases hold in one way a new site or KB could:
//
//   - calibre against a bookkb KB drawn with seed 17 that has half the site's works (not
//     three quarters) among 8,000 other books (not 4,000);
//   - the same site showing its authors as "Last, First";
//   - the same site without its titles (author, date, series and tags only): the
//     author's name is the only name left, and a record must not become its author;
//   - the same site with neither titles nor authors (dates, series numbers, tags): no
//     discriminative value at all, so no link may appear;
//   - the films site against that KB;
//   - OAEI 2010 Restaurants and Persons1 the other way round (the KB1 of the tuned runs
//     is KB2), with trawl align's 1:1 matching since their gold is 1:1: Restaurants then
//     has 752 restaurants of which 640 have no partner (also measured with 1:n);
//   - the 1:n copies of Persons1 drawn with another seed.

// entitiesOf returns the IRIs of kb's instances of class c (directly).
func entitiesOf(t testing.TB, kb KB, c string) []string {
	ctx := context.Background()
	id, ok, err := kb.Lookup(ctx, graph.NewIRI(c))
	if err != nil || !ok {
		t.Fatalf("class %s: not in the KB (%v)", c, err)
	}
	var out []string
	for x, err := range kb.Instances(ctx, id) {
		if err != nil {
			t.Fatal(err)
		}
		tm, err := kb.Term(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tm.Value)
	}
	return out
}

// reversedGold is the gold of the task KB2 → KB1 over the KB2 entities of class c
// (those without a partner mapped to "").
func reversedGold(t testing.TB, g map[string]string, kb2 KB, c string) map[string]string {
	out := map[string]string{}
	for _, x := range entitiesOf(t, kb2, c) {
		out[x] = ""
	}
	for l, r := range g {
		if _, ok := out[r]; ok {
			out[r] = l
		}
	}
	return out
}

func unseenCases(t testing.TB) []linkCase {
	kb17, mem17 := bookKBWith(t, func(o *bookkb.Options) { o.Seed, o.InKB, o.OtherBooks = 17, 0.5, 8000 })
	films17 := filmsOf(t, mem17)
	cal, gold := calibreGraph(t, kb17.Books)
	inverted, _ := calibreView(t, kb17.Books, siteView{invertAuthors: true})
	noTitle, _ := calibreView(t, kb17.Books, siteView{drop: []string{"title"}})
	noName, _ := calibreView(t, kb17.Books, siteView{drop: []string{"title", "author"}})
	filmRecs, recs := filmsGraph(t, false)

	p11, p12 := loadPair(t, "Persons1/person11.nt", "Persons1/person12.nt")
	r1, r2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	pg := loadGolds(t, p11, p12, "Persons1/dataset11_dataset12_goldstandard_person.xml").Instances
	rg := loadGolds(t, r1, r2, "Restaurants/DERIVED-goldstandard-data-iris.csv").Instances
	copies, copiesGold := persons1Copies(t, 16, p11, p12)
	copies17, copiesGold17 := persons1Copies(t, 17, p11, p12)
	kb18, mem18 := bookKBWith(t, func(o *bookkb.Options) { o.Seed, o.InKB, o.OtherBooks = 18, 0.6, 6000 })
	films18 := filmsOf(t, mem18)
	cal18, gold18 := calibreGraph(t, kb18.Books)
	noTitle18, _ := calibreView(t, kb18.Books, siteView{drop: []string{"title"}})
	return []linkCase{
		{name: "calibre/bookkb-17, half in KB", kb1: cal, kb2: mem17, gold: gold, films: films17},
		{name: "calibre/bookkb-17, Last, First", kb1: inverted, kb2: mem17, gold: gold, films: films17},
		{name: "calibre/bookkb-17, no titles", kb1: noTitle, kb2: mem17, gold: gold, films: films17},
		{name: "calibre/bookkb-17, no names", kb1: noName, kb2: mem17, gold: gold, films: films17},
		{name: "films/bookkb-17", kb1: filmRecs, kb2: mem17, gold: filmGold(t, mem17, recs), films: films17},
		{name: "OAEI Restaurants reversed", kb1: r2, kb2: r1, gold: reversedGold(t, rg, r2, "http://www.okkam.org/ontology_restaurant2.owl#Restaurant"), oneToOne: true},
		{name: "OAEI Restaurants reversed, 1:n", kb1: r2, kb2: r1, gold: reversedGold(t, rg, r2, "http://www.okkam.org/ontology_restaurant2.owl#Restaurant"),
			known: "with 1:n, restaurants of one hotel that share its switchboard number and street link to the one restaurant of KB2 with that number although their names differ (negative evidence lowers the odds, the phone and street saturate them)"},
		{name: "OAEI Persons1 reversed", kb1: p12, kb2: p11, gold: reversedGold(t, pg, p12, "http://www.okkam.org/ontology_person2.owl#Person"), oneToOne: true},
		{name: "Persons1 1:n, seed 16", kb1: copies, kb2: p12, gold: copiesGold},
		// Built after the copy-aware inverse functionality, which the title-less seed-17
		// case above led to: they check it where it was not developed.
		{name: "calibre/bookkb-18", kb1: cal18, kb2: mem18, gold: gold18, films: films18},
		{name: "calibre/bookkb-18, no titles", kb1: noTitle18, kb2: mem18, gold: gold18, films: films18},
		{name: "Persons1 1:n, seed 17", kb1: copies17, kb2: p12, gold: copiesGold17},
	}
}

// TestLinkingUnseen measures the links on the cases above and holds them to what issue
// 15 asks of weak evidence: no confident wrong link where the record has no
// discriminative value or no partner, and high precision everywhere else. The figures
// go to docs/benchmarks.md (issue 15) next to the tuned ones; run with -v.
func TestLinkingUnseen(t *testing.T) {
	skipLinkingUnderRace(t)
	testutil.SharedData(t, "yago3-10")
	for _, c := range unseenCases(t) {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			opts := DefaultOptions()
			opts.OneToMany = !c.oneToOne
			res, err := Align(t.Context(), c.kb1, c.kb2, opts)
			if err != nil {
				t.Fatal(err)
			}
			s := scoreLinks(res, c)
			t.Logf("%s: %v", c.name, s)
			switch {
			case c.known != "":
				t.Logf("not held to issue 15's bound: %s", c.known)
			case strings.Contains(c.name, "no names") || strings.Contains(c.name, "no titles") || strings.HasPrefix(c.name, "films/"):
				if s.wrong > 0 {
					t.Errorf("%d wrong links from low-information evidence, want 0", s.wrong)
				}
			case s.p < 0.95:
				t.Errorf("P %.3f, want ≥ 0.95", s.p)
			}
			if strings.HasPrefix(c.name, "Persons1 1:n") && c.known == "" && s.r < 0.9 {
				t.Errorf("1:n R %.3f, want ≥ 0.9", s.r)
			}
			if s.toFilm > 0 && strings.HasPrefix(c.name, "calibre/") {
				t.Errorf("%d book records linked to films", s.toFilm)
			}
		})
	}
}
