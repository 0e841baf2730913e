package align

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/bookkb"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/demokb"
)

// The linking evaluation of issue 15: record graphs shaped as trawl's labeled graphs
// (one star per record, literal values, dates typed as the site shows them) from the
// data of two test sites, aligned with KBs that have some of their records and many
// distractors, scored against the known truth.
//
//   - calibre: the calibre site's 3,100 records (title, series, each author, the
//     "02 Jan, YYYY" date as xsd:date, tags) against the KB of package bookkb (seed 15,
//     tuned on) and the same KB drawn with another seed (16: other works in and out, other
//     distractors, not tuned on), and against the demo KB;
//   - films: the films test site's 129 records (title, year, director, country, genre)
//     against the books-only bookkb KB (no true partner: every link is wrong), the bookkb
//     KB with YAGO3's films, and the demo KB (a partner is a film with the same title and
//     a year at most one apart).

const recNS = "http://site.example/"

type linkCase struct {
	name  string
	kb1   *graph.Memory
	kb2   KB
	gold  map[string]string // KB1 record IRI → KB2 IRI ("" = not in KB2)
	films map[string]bool   // KB2 entities that are films (for the count of book→film links)
	// oneToOne runs the case with PARIS's 1:1 matching (trawl align's default) instead
	// of the pipeline's 1:n.
	oneToOne bool
	// known, when set, says why the case does not meet issue 15's bound: its figures are
	// reported, not held to the bound.
	known string
}

// linkScore counts the links of a run against the gold.
type linkScore struct {
	links, correct, wrong, wrongNoPartner, toFilm, inKB int
	p, r                                                float64
}

func (s linkScore) String() string {
	return fmt.Sprintf("P %.3f R %.3f (links %d, wrong %d, of which %d for records not in the KB, %d to films; %d records in the KB)",
		s.p, s.r, s.links, s.wrong, s.wrongNoPartner, s.toFilm, s.inKB)
}

func scoreLinks(res *Result, c linkCase) linkScore {
	var s linkScore
	for _, w := range c.gold {
		if w != "" {
			s.inKB++
		}
	}
	for _, m := range res.Instances {
		want, ok := c.gold[m.LeftTerm.Value]
		if !ok || !m.Linked(res.Options) {
			continue
		}
		s.links++
		switch {
		case want == m.RightTerm.Value:
			s.correct++
		default:
			s.wrong++
			if want == "" {
				s.wrongNoPartner++
			}
			if c.films[m.RightTerm.Value] {
				s.toFilm++
			}
		}
	}
	if s.links > 0 {
		s.p = float64(s.correct) / float64(s.links)
	} else {
		s.p = 1
	}
	if s.inKB > 0 {
		s.r = float64(s.correct) / float64(s.inKB)
	}
	return s
}

func star(rec string, class graph.Term, vals map[string][]graph.Term) []graph.Triple {
	s := graph.NewIRI(recNS + "rec/" + rec)
	ts := []graph.Triple{{S: s, P: graph.NewIRI(graph.RDFType), O: class}}
	for p, os := range vals {
		for _, o := range os {
			ts = append(ts, graph.Triple{S: s, P: graph.NewIRI(recNS + "p/" + p), O: o})
		}
	}
	return ts
}

// calibreGraph is the calibre site's records as trawl's labeled graph holds them when
// the values are segmented well (one value per author).
func calibreGraph(t testing.TB, books []bookkb.Book) (*graph.Memory, map[string]string) {
	return calibreView(t, books, siteView{})
}

// siteView is how another book site could show the calibre records: without some of the
// features, or with the authors written "Last, First".
type siteView struct {
	drop          []string
	invertAuthors bool
}

// calibreView is calibreGraph as the site of view v shows the records.
func calibreView(t testing.TB, books []bookkb.Book, view siteView) (*graph.Memory, map[string]string) {
	class := graph.NewIRI(recNS + "calibre/Record")
	var ts []graph.Triple
	gold := map[string]string{}
	for _, bk := range books {
		id := bk.List + "-" + strconv.Itoa(bk.Row)
		v := map[string][]graph.Term{"title": {graph.NewLiteral(bk.Title)}}
		for _, a := range bk.Authors {
			name := strings.Fields(a)
			if view.invertAuthors && len(name) > 1 {
				name = append([]string{name[len(name)-1] + ","}, name[:len(name)-1]...)
			}
			v["author"] = append(v["author"], graph.NewLiteral(strings.Join(name, " ")))
		}
		if bk.Series != "" {
			v["series"] = []graph.Term{graph.NewLiteral(bk.Series)}
			v["series-index"] = []graph.Term{graph.NewTyped(bk.SeriesIndex, graph.XSD+"decimal")}
		}
		if bk.HasYear {
			v["date"] = []graph.Term{graph.NewTyped(fmt.Sprintf("%04d-01-02", bk.Year), graph.XSDDate)}
		}
		if bk.List == "goodbooks" {
			v["tags"] = []graph.Term{graph.NewLiteral("goodbooks-10k")}
		} else {
			v["tags"] = []graph.Term{graph.NewLiteral("100 best books")}
		}
		for _, f := range view.drop {
			delete(v, f)
		}
		ts = append(ts, star(id, class, v)...)
		gold[recNS+"rec/"+id] = bk.Work
	}
	m, err := graph.NewMemory(ts)
	if err != nil {
		t.Fatal(err)
	}
	return m, gold
}

// filmsGraph is the films test site's records; with swapTitles, each record shows the
// title of the film half the list away (a catalogue whose titles differ from the KB's: the title
// names another film than the year and the director do).
func filmsGraph(t testing.TB, swapTitles bool) (*graph.Memory, []testsites.Record) {
	var site *testsites.Site
	for _, s := range testsites.All() {
		if s.Name == "films" {
			site = s
		}
	}
	if site == nil {
		t.Fatal("no films test site")
		return nil, nil
	}
	class := graph.NewIRI(recNS + "films/Record")
	var ts []graph.Triple
	for i, r := range site.Records {
		v := map[string][]graph.Term{}
		for _, a := range []string{"title", "director", "country", "genre"} {
			if x := r.Values[a]; x != "" {
				v[a] = []graph.Term{graph.NewLiteral(x)}
			}
		}
		if swapTitles {
			v["title"] = []graph.Term{graph.NewLiteral(site.Records[(i+len(site.Records)/2)%len(site.Records)].Values["title"])}
		}
		if y := r.Values["year"]; y != "" {
			v["year"] = []graph.Term{graph.NewTyped(y, graph.XSDGYear)}
		}
		ts = append(ts, star(r.ID, class, v)...)
	}
	m, err := graph.NewMemory(ts)
	if err != nil {
		t.Fatal(err)
	}
	return m, site.Records
}

var (
	bookKBOnce sync.Map // seed/films → *bookKBEntry
)

type bookKBEntry struct {
	once sync.Once
	kb   *bookkb.KB
	mem  *graph.Memory
	err  error
}

func bookKB(t testing.TB, seed uint64, films bool) (*bookkb.KB, *graph.Memory) {
	t.Helper()
	return bookKBWith(t, func(o *bookkb.Options) { o.Seed, o.Films = seed, films })
}

// bookKBWith builds (once per set of options) the bookkb KB of the default options
// changed by set.
func bookKBWith(t testing.TB, set func(*bookkb.Options)) (*bookkb.KB, *graph.Memory) {
	t.Helper()
	shared := testutil.SharedData(t, "yago3-10")
	o := bookkb.DefaultOptions(strings.TrimSuffix(strings.TrimSuffix(shared, "/yago3-10"), "/data"))
	set(&o)
	key := fmt.Sprintf("%d/%v/%g/%d", o.Seed, o.Films, o.InKB, o.OtherBooks)
	e, _ := bookKBOnce.LoadOrStore(key, &bookKBEntry{})
	en := e.(*bookKBEntry)
	en.once.Do(func() {
		en.kb, en.err = bookkb.Build(o)
		if en.err == nil {
			en.mem, en.err = graph.NewMemory(en.kb.Triples)
		}
	})
	if en.err != nil {
		t.Fatal(en.err)
	}
	return en.kb, en.mem
}

// filmsOf returns the entities of class Movie (directly) in kb.
func filmsOf(t testing.TB, kb KB) map[string]bool {
	ctx := context.Background()
	out := map[string]bool{}
	c, ok, err := kb.Lookup(ctx, graph.NewIRI("http://schema.org/Movie"))
	if err != nil || !ok {
		return out
	}
	for id, err := range kb.Instances(ctx, c) {
		if err != nil {
			t.Fatal(err)
		}
		tm, err := kb.Term(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		out[tm.Value] = true
	}
	return out
}

// filmGold finds, for each film record, the KB2 films with the same title (normal form)
// and a creation year at most one apart: its partner when there is exactly one.
func filmGold(t testing.TB, kb KB, recs []testsites.Record) map[string]string {
	ctx := context.Background()
	films := filmsOf(t, kb)
	gold := map[string]string{}
	for _, r := range recs {
		gold[recNS+"rec/"+r.ID] = ""
		cands, err := kb.Candidates(ctx, r.Values["title"], 20)
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, c := range cands {
			if !c.Exact {
				continue
			}
			for e, err := range kb.Edges(ctx, c.Node) {
				if err != nil {
					t.Fatal(err)
				}
				tm, _ := kb.Term(ctx, e.Node)
				if !films[tm.Value] || slices.Contains(found, tm.Value) {
					continue
				}
				if filmYearNear(t, kb, e.Node, r.Values["year"]) {
					found = append(found, tm.Value)
				}
			}
		}
		if len(found) == 1 {
			gold[recNS+"rec/"+r.ID] = found[0]
		}
	}
	return gold
}

func filmYearNear(t testing.TB, kb KB, film graph.ID, y string) bool {
	want, err := strconv.Atoi(y)
	if err != nil {
		return false
	}
	for e, err := range kb.Edges(context.Background(), film) {
		if err != nil {
			t.Fatal(err)
		}
		if !kb.IsLiteral(e.Node) {
			continue
		}
		tm, _ := kb.Term(context.Background(), e.Node)
		if d, ok := graph.ParseDate(tm.Value); ok {
			if got, ok := d.Year(); ok && got >= want-1 && got <= want+1 {
				return true
			}
		}
	}
	return false
}

// demoGold maps the calibre records to the demo KB's books (same title and author).
func demoGold(books []bookkb.Book) map[string]string {
	byTitle := map[string][]demokb.Book{}
	for _, b := range demokb.Books() {
		byTitle[textnorm.Literal(b.Title)] = append(byTitle[textnorm.Literal(b.Title)], b)
		if b.AltTitle != "" {
			byTitle[textnorm.Literal(b.AltTitle)] = append(byTitle[textnorm.Literal(b.AltTitle)], b)
		}
	}
	gold := map[string]string{}
	for _, bk := range books {
		id := recNS + "rec/" + bk.List + "-" + strconv.Itoa(bk.Row)
		gold[id] = ""
		for _, d := range byTitle[textnorm.Literal(bk.Title)] {
			if len(bk.Authors) > 0 && textnorm.Dice(textnorm.Literal(bk.Authors[0]), textnorm.Literal(d.Author), 2) >= 0.75 {
				gold[id] = d.IRI
			}
		}
	}
	return gold
}

var demoOnce = sync.OnceValues(func() (*ontology.Store, error) {
	return ontology.OpenDemo(context.Background(), ontology.DefaultOptions())
})

func demoStore(t testing.TB) *ontology.Store {
	st, err := demoOnce()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func linkCases(t testing.TB) []linkCase {
	kb15, mem15 := bookKB(t, 15, true)
	kb16, mem16 := bookKB(t, 16, true)
	_, memBooks := bookKB(t, 15, false)
	cal15, gold15 := calibreGraph(t, kb15.Books)
	cal16, gold16 := calibreGraph(t, kb16.Books)
	films, recs := filmsGraph(t, false)
	swapped, _ := filmsGraph(t, true)
	demo := demoStore(t)
	noPartner := map[string]string{}
	for _, r := range recs {
		noPartner[recNS+"rec/"+r.ID] = ""
	}
	return []linkCase{
		{name: "calibre/bookkb-15 (tuned)", kb1: cal15, kb2: mem15, gold: gold15, films: filmsOf(t, mem15)},
		{name: "calibre/bookkb-16", kb1: cal16, kb2: mem16, gold: gold16, films: filmsOf(t, mem16)},
		{name: "calibre/demo", kb1: cal15, kb2: demo, gold: demoGold(kb15.Books), films: filmsOf(t, demo)},
		{name: "films/books-only", kb1: films, kb2: memBooks, gold: noPartner},
		{name: "films/bookkb-15", kb1: films, kb2: mem15, gold: filmGold(t, mem15, recs), films: filmsOf(t, mem15)},
		{name: "films/demo", kb1: films, kb2: demo, gold: filmGold(t, demo, recs), films: filmsOf(t, demo)},
		{name: "films/demo, titles differ", kb1: swapped, kb2: demo, gold: filmGold(t, demo, recs), films: filmsOf(t, demo)},
		{name: "films/bookkb-15, titles differ", kb1: swapped, kb2: mem15, gold: filmGold(t, mem15, recs), films: filmsOf(t, mem15)},
	}
}

// TestLinking checks the acceptance figures of issue 15 on the record graphs (the
// end-to-end runs through the real calibre site are in cmd/trawl).
func TestLinking(t *testing.T) {
	skipLinkingUnderRace(t)
	testutil.SharedData(t, "yago3-10")
	for _, c := range linkCases(t) {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			opts := DefaultOptions()
			opts.OneToMany = true
			res, err := Align(t.Context(), c.kb1, c.kb2, opts)
			if err != nil {
				t.Fatal(err)
			}
			s := scoreLinks(res, c)
			t.Logf("%s: %v", c.name, s)
			switch {
			case strings.HasPrefix(c.name, "calibre/bookkb"):
				if s.p < 0.99 || s.r < 0.97 {
					t.Errorf("P %.3f R %.3f, want ≥ 0.99 and ≥ 0.97", s.p, s.r)
				}
			case strings.HasPrefix(c.name, "films/"):
				if s.wrong > 0 {
					t.Errorf("%d wrong links, want 0", s.wrong)
				}
			}
			if s.toFilm > 0 && strings.HasPrefix(c.name, "calibre/") {
				t.Errorf("%d book records linked to films", s.toFilm)
			}
		})
	}
}

// TestLinkingFactors reports the effect of each evidence factor on every case, OAEI
// included, over the owl:sameAs links (the figures of the decision record); run with -v.
func TestLinkingFactors(t *testing.T) {
	if os.Getenv("TRAWL_FACTOR_TABLE") != "1" {
		t.Skip("the factor table aligns every case seven times (≈ 40 s of CPU, a report, no check): TRAWL_FACTOR_TABLE=1 runs it")
	}
	testutil.SharedData(t, "yago3-10")
	variants := []struct {
		name string
		f    func(*Options)
	}{
		{"all factors", func(*Options) {}},
		{"PARIS (none)", func(o *Options) {
			o.MinDiscriminative, o.Corroboration, o.NegativeEvidence, o.TypeEvidence = 0, false, false, false
		}},
		{"- discriminative", func(o *Options) { o.MinDiscriminative = 0 }},
		{"- corroboration", func(o *Options) { o.Corroboration = false }},
		{"- negative", func(o *Options) { o.NegativeEvidence = false }},
		{"- type", func(o *Options) { o.TypeEvidence = false }},
		{"all, 1:1", func(o *Options) { o.OneToMany = false }},
	}
	p11, p12 := loadPair(t, "Persons1/person11.nt", "Persons1/person12.nt")
	r1, r2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	copies, copiesGold := persons1Copies(t, 15, p11, p12)
	cases := []linkCase{
		{name: "OAEI Persons1", kb1: p11, kb2: p12, gold: loadGolds(t, p11, p12, "Persons1/dataset11_dataset12_goldstandard_person.xml").Instances},
		{name: "OAEI Restaurants", kb1: r1, kb2: r2, gold: loadGolds(t, r1, r2, "Restaurants/DERIVED-goldstandard-data-iris.csv").Instances},
		{name: "Persons1 1:n", kb1: copies, kb2: p12, gold: copiesGold},
	}
	var b strings.Builder
	for _, c := range append(cases, linkCases(t)...) {
		for _, v := range variants {
			opts := DefaultOptions()
			opts.OneToMany = true
			v.f(&opts)
			res, err := Align(t.Context(), c.kb1, c.kb2, opts)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%-31s %-17s %v\n", c.name, v.name, scoreLinks(res, c))
		}
	}
	t.Logf("\n%s", b.String())
}

// skipLinkingUnderRace skips the linking evaluations under the race detector: they align
// 3,100 records with KBs of 65,000 triples several times (≈ 10–15 s of CPU each without
// it, minutes with it), and the aligner's concurrency is covered under -race by the
// OAEI and determinism tests. Run go test -run 'TestLinking' ./align without -race.
func skipLinkingUnderRace(t *testing.T) {
	if raceEnabled {
		t.Skip("the linking evaluation takes minutes under -race; run go test -run TestLinking ./align without -race")
	}
}
