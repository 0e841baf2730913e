package ontology_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/ontology"
)

const books = `@prefix yago: <http://yago-knowledge.org/resource/> .
@prefix schema: <http://schema.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

schema:Book rdfs:subClassOf schema:CreativeWork .
schema:Novel rdfs:subClassOf schema:Book .
yago:Hamlet a schema:Book ; rdfs:label "Hamlet"@en, "Hamlet (French Edition)"@fr ;
    schema:author yago:William_Shakespeare ; schema:datePublished "1603"^^xsd:gYear .
yago:Great_Expectations a schema:Novel ; rdfs:label "Great Expectations"@en ;
    schema:author yago:Charles_Dickens ; schema:datePublished "1861"^^xsd:gYear .
yago:Oliver_Twist a schema:Novel ; rdfs:label "Oliver Twist"@en ;
    schema:author yago:Charles_Dickens ; schema:datePublished "1838"^^xsd:gYear .
yago:Charles_Dickens a schema:Person ; rdfs:label "Charles Dickens"@en ;
    schema:alternateName "Boz" ; schema:birthDate "1812-02-07"^^xsd:date .
yago:William_Shakespeare a schema:Person ; rdfs:label "William Shakespeare"@en ;
    schema:birthDate "1564-##-##"^^xsd:date .
yago:Oliver_Twist schema:author yago:Charles_Dickens .
`

func loadBooks(t *testing.T) *ontology.Store {
	t.Helper()
	st, rep, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.BytesSource("books.ttl", []byte(books), ontology.FormatTurtle)}, smallLoad())
	if err != nil {
		t.Fatal(err)
	}
	if rep.BadLines != 0 {
		t.Fatalf("bad lines: %v", rep.Errors)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestStoreAPI(t *testing.T) {
	st := loadBooks(t)
	ctx := t.Context()
	iri := func(s string) graph.ID { return mustNode(t, st, graph.NewIRI(s)) }
	dickens, oliver, great := iri(y+"Charles_Dickens"), iri(y+"Oliver_Twist"), iri(y+"Great_Expectations")
	author, ok := st.RelationID("http://schema.org/author")
	if !ok {
		t.Fatal("no schema:author")
	}

	t.Run("edges in both directions, no taxonomy, no duplicates", func(t *testing.T) {
		var got []string
		for e, err := range st.Edges(ctx, dickens) {
			if err != nil {
				t.Fatal(err)
			}
			name := st.RelationIRI(e.Rel)
			if e.Rel.IsInverse() {
				name += "⁻"
			}
			l, _ := st.Label(ctx, e.Node)
			got = append(got, name+" "+l)
		}
		slices.Sort(got)
		want := []string{
			"http://schema.org/alternateName Boz",
			"http://schema.org/author⁻ Great Expectations",
			"http://schema.org/author⁻ Oliver Twist",
			"http://schema.org/birthDate 1812-02-07",
			"http://www.w3.org/2000/01/rdf-schema#label Charles Dickens",
		}
		if !slices.Equal(got, want) {
			t.Errorf("Edges(Dickens) =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})

	t.Run("functionality counts distinct facts", func(t *testing.T) {
		// Oliver Twist's author is stated twice; three distinct facts, two authors.
		if st.FactCount(author) != 3 {
			t.Errorf("FactCount(author) = %d", st.FactCount(author))
		}
		if got := st.Functionality(author); got != 1 {
			t.Errorf("fun(author) = %v, want 1", got)
		}
		if got := st.Functionality(author.Inverse()); got != 2.0/3 {
			t.Errorf("fun⁻¹(author) = %v, want 2/3", got)
		}
	})

	t.Run("taxonomy", func(t *testing.T) {
		novel, book, cw := iri("http://schema.org/Novel"), iri("http://schema.org/Book"), iri("http://schema.org/CreativeWork")
		if sup, _ := st.SuperClasses(ctx, novel); !slices.Equal(sup, []graph.ID{book}) {
			t.Errorf("SuperClasses(Novel) = %v", sup)
		}
		if sup, _ := st.SuperClasses(ctx, book); !slices.Equal(sup, []graph.ID{cw}) {
			t.Errorf("SuperClasses(Book) = %v", sup)
		}
		if sub, _ := st.SubClasses(ctx, book); !slices.Equal(sub, []graph.ID{novel}) {
			t.Errorf("SubClasses(Book) = %v", sub)
		}
		var inst []graph.ID
		for id, err := range st.Instances(ctx, novel) {
			if err != nil {
				t.Fatal(err)
			}
			inst = append(inst, id)
		}
		want := []graph.ID{oliver, great}
		slices.Sort(want)
		if !slices.Equal(inst, want) {
			t.Errorf("Instances(Novel) = %v, want %v", inst, want)
		}
		if ty, _ := st.Types(ctx, oliver); !slices.Equal(ty, []graph.ID{novel}) {
			t.Errorf("Types(Oliver Twist) = %v", ty)
		}
	})

	t.Run("entities and relations", func(t *testing.T) {
		var ents []graph.ID
		for id, err := range st.Entities(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			ents = append(ents, id)
		}
		if len(ents) != 5 || !slices.IsSorted(ents) {
			t.Errorf("Entities = %v (5 books and people, sorted)", ents)
		}
		for _, r := range st.Relations() {
			if iri := st.RelationIRI(r); iri == graph.RDFType || iri == graph.SubClassOf || r.IsInverse() {
				t.Errorf("Relations has %s", iri)
			}
		}
		if n := len(st.Relations()); n != 5 {
			t.Errorf("%d relations, want 5", n)
		}
	})

	t.Run("lookup", func(t *testing.T) {
		if _, ok, _ := st.Lookup(ctx, graph.NewIRI(y+"Nobody")); ok {
			t.Error("found a node that is not there")
		}
		id, ok, err := st.Lookup(ctx, graph.NewLangString("Oliver Twist", "en"))
		if err != nil || !ok || !st.IsLiteral(id) || st.IsLiteral(oliver) {
			t.Errorf("Lookup(literal) = %v, %v, %v", id, ok, err)
		}
	})

	t.Run("candidates", func(t *testing.T) {
		c := candidateSet(t, st, "hamlet", 10)
		if !c[`"Hamlet"@en`].Exact || !c[`"Hamlet (French Edition)"@fr`].Exact {
			t.Errorf("Candidates(hamlet) = %v", c)
		}
		c = candidateSet(t, st, "Great Expectation", 10)
		if got := c[`"Great Expectations"@en`]; got.Exact || got.Score < 0.9 || got.Score >= 1 {
			t.Errorf("Candidates(Great Expectation) = %v", c)
		}
		c = candidateSet(t, st, "1838", 10)
		if !c[`"1838"^^<http://www.w3.org/2001/XMLSchema#gYear>`].Exact || len(c) != 1 {
			t.Errorf("Candidates(1838) = %v", c)
		}
		c = candidateSet(t, st, "7 February 1812", 10)
		if !c[`"1812-02-07"^^<http://www.w3.org/2001/XMLSchema#date>`].Exact {
			t.Errorf("Candidates(7 February 1812) = %v", c)
		}
		c = candidateSet(t, st, "1564-04-23", 10)
		if !c[`"1564-##-##"^^<http://www.w3.org/2001/XMLSchema#date>`].Exact {
			t.Errorf("Candidates(1564-04-23) = %v", c)
		}
		if cs, _ := st.Candidates(ctx, "zzzz qqqq", 10); len(cs) != 0 {
			t.Errorf("Candidates(nonsense) = %v", cs)
		}
		cs, _ := st.Candidates(ctx, "hamlet", 1)
		if len(cs) != 1 {
			t.Errorf("k=1 gave %d candidates", len(cs))
		}
	})

	t.Run("find entities", func(t *testing.T) {
		ms, err := st.FindEntities(ctx, "Hamlet (French Edition)", 5, ontology.FindOptions{})
		if err != nil || len(ms) != 1 || ms[0].Entity != iri(y+"Hamlet") || ms[0].Label != "Hamlet" || !ms[0].Exact {
			t.Errorf("FindEntities = %+v, %v", ms, err)
		}
		ms, _ = st.FindEntities(ctx, "boz", 5, ontology.FindOptions{})
		if len(ms) != 1 || ms[0].Entity != dickens || ms[0].Relation != "http://schema.org/alternateName" {
			t.Errorf("FindEntities(boz) = %+v", ms)
		}
		if ms, _ = st.FindEntities(ctx, "1838", 5, ontology.FindOptions{}); len(ms) != 0 {
			t.Errorf("a year is not a name: %+v", ms)
		}
		ms, _ = st.FindEntities(ctx, "1838", 5, ontology.FindOptions{AnyRelation: true})
		if len(ms) != 1 || ms[0].Entity != oliver {
			t.Errorf("FindEntities(1838, any) = %+v", ms)
		}
	})

	t.Run("sample", func(t *testing.T) {
		s1, err := st.Sample(ctx, "http://schema.org/author", 5)
		if err != nil || !slices.Equal(s1, sortedIDs(dickens, iri(y+"William_Shakespeare"))) && len(s1) != 2 {
			t.Errorf("Sample(author) = %v, %v", s1, err)
		}
		s2, _ := st.Sample(ctx, "http://schema.org/author", 5)
		if !slices.Equal(s1, s2) {
			t.Error("Sample is not deterministic")
		}
		books, err := st.Sample(ctx, "http://schema.org/author-", 5)
		if err != nil || len(books) != 3 {
			t.Errorf("Sample(author-) = %v, %v", books, err)
		}
		novels, err := st.Sample(ctx, "http://schema.org/Novel", 1)
		if err != nil || len(novels) != 1 || (novels[0] != oliver && novels[0] != great) {
			t.Errorf("Sample(Novel, 1) = %v, %v", novels, err)
		}
		if _, err := st.Sample(ctx, "http://schema.org/Nothing", 1); !errors.Is(err, ontology.ErrUnknown) {
			t.Errorf("Sample(unknown) error = %v", err)
		}
	})

	t.Run("pairs", func(t *testing.T) {
		n := 0
		for p, err := range st.Pairs(ctx, author.Inverse()) {
			if err != nil {
				t.Fatal(err)
			}
			if p.O != dickens && p.O != iri(y+"Hamlet") && p.O != oliver && p.O != great {
				t.Errorf("inverse pair %v", p)
			}
			n++
		}
		if n != 3 {
			t.Errorf("%d pairs", n)
		}
	})
}

func sortedIDs(ids ...graph.ID) []graph.ID {
	slices.Sort(ids)
	return ids
}

// TestLargeRecords checks nodes whose record is split into parts (more edges than a
// part holds) next to thousands of small nodes sharing the node buckets: every edge
// comes back once, in both directions, and every term is found and only those.
func TestLargeRecords(t *testing.T) {
	const knows, likes = "http://schema.org/knows", "http://schema.org/likes"
	var b strings.Builder
	hub := y + "Hub"
	fmt.Fprintf(&b, "<%s> <http://www.w3.org/2000/01/rdf-schema#label> \"the hub\" .\n", hub)
	// A long literal (its record's first part is kept out of its bucket) with 600
	// subjects (more than one part), and a long IRI with a short record.
	long := strings.Repeat("long text ", 5000)
	longIRI := y + strings.Repeat("L", 40000)
	fmt.Fprintf(&b, "<%s> <http://schema.org/knows> <%s> .\n", longIRI, hub)
	const people = 3000
	for i := range people {
		p := fmt.Sprintf("%sP%d", y, i)
		fmt.Fprintf(&b, "<%s> <%s> <%s> .\n", p, knows, hub) // 3,000 facts into the hub
		if i%2 == 0 {
			fmt.Fprintf(&b, "<%s> <%s> <%s> .\n", hub, likes, p) // 1,500 out of it
		}
		fmt.Fprintf(&b, "<%s> <http://www.w3.org/2000/01/rdf-schema#label> \"person %d\" .\n", p, i)
		if i < 600 {
			fmt.Fprintf(&b, "<%s> <http://schema.org/description> \"%s\" .\n", p, long)
		}
	}
	st, _, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.BytesSource("hub.nt", []byte(b.String()), ontology.FormatNTriples)}, smallLoad())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := t.Context()
	h := mustNode(t, st, graph.NewIRI(hub))
	counts := map[string]int{}
	seen := map[graph.Edge]bool{}
	for e, err := range st.Edges(ctx, h) {
		if err != nil {
			t.Fatal(err)
		}
		if seen[e] {
			t.Fatalf("edge %v twice", e)
		}
		seen[e] = true
		name := st.RelationIRI(e.Rel)
		if e.Rel.IsInverse() {
			name += "⁻"
		}
		counts[name]++
	}
	want := map[string]int{knows + "⁻": people + 1, likes: people / 2, "http://www.w3.org/2000/01/rdf-schema#label": 1}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("edges of the hub by relation = %v, want %v", counts, want)
	}
	if tm, err := st.Term(ctx, h); err != nil || tm != graph.NewIRI(hub) {
		t.Errorf("Term(hub) = %v, %v", tm, err)
	}
	for _, term := range []graph.Term{graph.NewLiteral(long), graph.NewIRI(longIRI)} {
		id := mustNode(t, st, term)
		if tm, err := st.Term(ctx, id); err != nil || tm != term {
			t.Errorf("Term(%.40s…) = %.40v…, %v", term.Value, tm, err)
		}
		n := 0
		for _, err := range st.Edges(ctx, id) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if want := map[bool]int{true: 600, false: 1}[st.IsLiteral(id)]; n != want {
			t.Errorf("%.40s… has %d edges, want %d", term.Value, n, want)
		}
	}
	for i := range people {
		p := graph.NewIRI(fmt.Sprintf("%sP%d", y, i))
		id := mustNode(t, st, p)
		if tm, err := st.Term(ctx, id); err != nil || tm != p {
			t.Fatalf("Term(%v) = %v, %v", p, tm, err)
		}
		n := 0
		for _, err := range st.Edges(ctx, id) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		want := 2 + (1 - i%2) // label, knows, likes⁻ for even i, description for i < 600
		if i < 600 {
			want++
		}
		if n != want {
			t.Fatalf("%v has %d edges, want %d", p, n, want)
		}
		if _, ok, err := st.Lookup(ctx, graph.NewIRI(fmt.Sprintf("%sQ%d", y, i))); ok || err != nil {
			t.Fatalf("Lookup(Q%d) = %v, %v: found a node that is not there", i, ok, err)
		}
	}
}

// TestLoadDirectory covers the life cycle of a KB directory: load, reopen read-only,
// refuse to overwrite, replace, refuse incomplete, foreign and incompatible ones.
func TestLoadDirectory(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "kb")
	src := []ontology.Source{ontology.BytesSource("books.ttl", []byte(books), ontology.FormatTurtle)}
	rep, err := ontology.Load(ctx, dir, src, smallLoad())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Facts == 0 || rep.Nodes == 0 {
		t.Errorf("report %+v", rep)
	}
	st, err := ontology.Open(dir, ontology.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if st.Stats().Facts != rep.Facts {
		t.Errorf("facts %d, loaded %d", st.Stats().Facts, rep.Facts)
	}
	// Two readers at once.
	st2, err := ontology.Open(dir, ontology.DefaultOptions())
	if err != nil {
		t.Errorf("second reader: %v", err)
	} else {
		st2.Close()
	}
	st.Close()

	if _, err := ontology.Load(ctx, dir, src, smallLoad()); !errors.Is(err, ontology.ErrExists) {
		t.Errorf("load over a KB: %v", err)
	}
	opts := smallLoad()
	opts.Replace = true
	if _, err := ontology.Load(ctx, dir, src, opts); err != nil {
		t.Errorf("replace: %v", err)
	}

	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	if _, err := ontology.Load(ctx, foreign, src, smallLoad()); !errors.Is(err, ontology.ErrNotKB) {
		t.Errorf("load into a foreign directory: %v", err)
	}
	if ents, _ := os.ReadDir(foreign); len(ents) != 1 {
		t.Errorf("a refused load left files in the directory: %v", ents)
	}
	if _, err := ontology.Open(foreign, ontology.DefaultOptions()); !errors.Is(err, ontology.ErrNotKB) {
		t.Errorf("open a foreign directory: %v", err)
	}
	if _, err := ontology.Open(filepath.Join(foreign, "missing"), ontology.DefaultOptions()); err == nil || !strings.Contains(err.Error(), "trawl kb load") {
		t.Errorf("open a missing directory: %v", err)
	}

	// A marker from a future layout is refused with a clear message.
	marker := filepath.Join(dir, "TRAWL_KB.json")
	data, _ := os.ReadFile(marker)
	os.WriteFile(marker, []byte(strings.Replace(string(data), fmt.Sprintf(`"layout": %d`, ontology.LayoutVersion), `"layout": 99`, 1)), 0o644)
	_, err = ontology.Open(dir, ontology.DefaultOptions())
	var le *ontology.LayoutError
	if !errors.As(err, &le) || !errors.Is(err, ontology.ErrLayoutVersion) || le.Found != 99 || !strings.Contains(err.Error(), "layout version 99") {
		t.Errorf("open a layout-99 KB: %v", err)
	}
	os.WriteFile(marker, []byte(strings.Replace(string(data), `"state": "complete"`, `"state": "loading"`, 1)), 0o644)
	if _, err = ontology.Open(dir, ontology.DefaultOptions()); !errors.Is(err, ontology.ErrIncomplete) {
		t.Errorf("open an unfinished KB: %v", err)
	}
	// A new load finishes it.
	if _, err := ontology.Load(ctx, dir, src, smallLoad()); err != nil {
		t.Fatalf("reload after an unfinished load: %v", err)
	}
	st, err = ontology.Open(dir, ontology.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
}

// TestBadLines: each bad line is reported with file:line and skipped; past
// MaxErrors the load stops with a clear error.
func TestBadLines(t *testing.T) {
	nt := "<http://a> <http://p> <http://b> .\n" +
		"<http://a> <http://p> \"unterminated .\n" +
		"<http://a> <http://p> <http://c> .\n" +
		"<http://a> http://p <http://d> .\n" +
		"<http://a> <http://p> <http://e> .\n"
	src := []ontology.Source{ontology.BytesSource("bad.nt", []byte(nt), ontology.FormatAuto)}
	opts := smallLoad()
	opts.MaxErrors = 2
	st, rep, err := ontology.LoadMemory(t.Context(), src, opts)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	want := []string{"bad.nt:2:38: unterminated string literal", "bad.nt:4:12: predicate must be an IRI"}
	if rep.BadLines != 2 || rep.Parsed != 3 || len(rep.Errors) != 2 {
		t.Fatalf("report %+v", rep)
	}
	for i, w := range want {
		if !strings.HasPrefix(rep.Errors[i], w) && !slices.ContainsFunc(rep.Errors, func(e string) bool { return strings.HasPrefix(e, w) }) {
			t.Errorf("errors %q lack %q", rep.Errors, w)
		}
	}
	opts.MaxErrors = 1
	_, _, err = ontology.LoadMemory(t.Context(), src, opts)
	var pe *graph.ParseError
	if !errors.Is(err, ontology.ErrTooManyErrors) || !errors.As(err, &pe) || pe.File != "bad.nt" || !strings.Contains(err.Error(), "--max-errors") {
		t.Errorf("load past MaxErrors: %v", err)
	}
}

// TestLoadLockAndOddInput: a second load into a directory being loaded is refused; a
// byte order mark and a line longer than the limit are handled.
func TestLoadLockAndOddInput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	started := make(chan struct{})
	release := make(chan struct{})
	opts := smallLoad()
	opts.Progress = func(p ontology.Progress) {
		if p.Phase == "index" {
			close(started)
			<-release
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := ontology.Load(t.Context(), dir, []ontology.Source{ontology.BytesSource("b.ttl", []byte(books), ontology.FormatTurtle)}, opts)
		done <- err
	}()
	<-started
	_, err := ontology.Load(t.Context(), dir, []ontology.Source{ontology.BytesSource("b.ttl", []byte(books), ontology.FormatTurtle)}, smallLoad())
	if err == nil || !strings.Contains(err.Error(), "another load") {
		t.Errorf("concurrent load: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("first load: %v", err)
	}

	long := "<http://a> <http://p> \"" + strings.Repeat("x", 17<<20) + "\" .\n"
	data := "\xEF\xBB\xBF<http://a> <http://p> <http://b> .\n" + long + "<http://a> <http://p> <http://c> .\n"
	st, rep, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.BytesSource("odd.nt", []byte(data), ontology.FormatAuto)}, smallLoad())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if rep.Parsed != 2 || rep.BadLines != 1 || len(rep.Errors) != 1 || !strings.HasPrefix(rep.Errors[0], "odd.nt:2: ") {
		t.Errorf("parsed %d, bad %d, errors %q", rep.Parsed, rep.BadLines, rep.Errors)
	}
}
