package align

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
)

func fixEnrich(t *testing.T, o EnrichOptions) *Enrichment {
	t.Helper()
	kb1, kb2, res := fixAlign(t)
	e, err := Enrich(t.Context(), kb1, kb2, res, o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// newInstance is the IRI minted for the record of a book the KB lacks.
func newInstance(r fixRecord) graph.Term {
	return graph.NewIRI(MintIRI(fixSource+"/entity/", "record", fixRecordIRI(r).Value))
}

// newAuthor is the IRI minted for an author the KB lacks.
func newAuthor(name string) graph.Term {
	return graph.NewIRI(MintIRI(fixSource+"/entity/", "value", schemaNS+"author / "+graph.RDFSLabel, strings.ToLower(name)))
}

func tr(s, p, o graph.Term) graph.Triple { return graph.Triple{S: s, P: p, O: o} }

// TestEnrichBooks checks the enrichment of the book form precisely: new instances typed
// with the aligned class, facts under the aligned relations, joins through existing or
// minted authors, only missing facts for linked records, the publisher as a new relation
// named from its field label, and the confidences.
func TestEnrichBooks(t *testing.T) {
	kb1, kb2, res := fixAlign(t)
	e, err := Enrich(t.Context(), kb1, kb2, res, fixEnrichOptions())
	if err != nil {
		t.Fatal(err)
	}
	u := e.Understanding
	relConf := func(name string) float64 { return relationOf(t, u, name).Aligned.Confidence }
	classConf := u.Classes[0].Confidence
	instConf := map[string]float64{}
	for _, m := range res.Instances {
		instConf[m.RightTerm.Value] = m.Confidence
	}

	typ, label := graph.NewIRI(graph.RDFType), graph.NewIRI(graph.RDFSLabel)
	author, published := schemaIRI("author"), schemaIRI("datePublished")
	publisher := graph.NewIRI(fixSource + "/rel/publisher")

	// The expected facts, with their confidence, built from the fixture by the rules.
	type fact struct {
		t    graph.Triple
		conf float64
		kind FactKind
	}
	var want []fact
	existingAuthor := map[string]string{
		"Kazuo Ishiguro": "Kazuo_Ishiguro", "Margaret Atwood": "Margaret_Atwood",
		"Ian McEwan": "Ian_McEwan", "Hilary Mantel": "Hilary_Mantel",
		// A person in the KB without a book: the value class, not the role, finds her.
		"Bernardine Evaristo": "Bernardine_Evaristo",
	}
	for _, r := range fixRecords {
		if r.kb != "" {
			// Known books: only what the KB lacks. It has every title, so no label;
			// Stoner has no author, The Sea no year; no book has a publisher.
			book := yago(r.kb)
			c := instConf[book.Value]
			switch r.kb {
			case "Stoner_(novel)":
				// "John Williams" is also the composer, a Person who wrote no book:
				// the author is the one who plays the role.
				want = append(want, fact{tr(book, author, yago("John_Williams_(author)")), relConf("author") * c, FactJoin})
			case "The_Sea_(novel)":
				want = append(want, fact{tr(book, published, gYear("2005")), relConf("year") * c, FactValue})
			}
			want = append(want, fact{tr(book, publisher, graph.NewLiteral(r.publisher)), c, FactNewRelation})
			continue
		}
		n := newInstance(r)
		want = append(want,
			fact{tr(n, typ, schemaIRI("Book")), classConf, FactType},
			fact{tr(n, label, graph.NewLiteral(r.title)), relConf("title"), FactValue},
			fact{tr(n, publisher, graph.NewLiteral(r.publisher)), 1, FactNewRelation})
		if r.year != "" {
			want = append(want, fact{tr(n, published, gYear(r.year)), relConf("year"), FactValue})
		}
		switch {
		case existingAuthor[r.author] != "":
			want = append(want, fact{tr(n, author, yago(existingAuthor[r.author])), relConf("author"), FactJoin})
		case r.author == "William Gibson":
			// Two William Gibsons, both persons and both authors: ambiguous, left out.
		default:
			// Unknown to the KB (Homer is a city there, not a person): a new author,
			// the same entity for both books of Mara Halloway.
			a := newAuthor(r.author)
			// Each record gives its own facts (and reifiers) for the author.
			want = append(want,
				fact{tr(n, author, a), relConf("author"), FactJoin},
				fact{tr(a, label, graph.NewLiteral(r.author)), relConf("author"), FactEntityLabel},
				fact{tr(a, typ, schemaIRI("Person")), relConf("author"), FactEntityType})
		}
	}
	type row struct {
		Triple string
		Conf   string
		Kind   FactKind
	}
	var wantRows, gotRows []row
	for _, f := range want {
		wantRows = append(wantRows, row{f.t.String(), Confidence(f.conf), f.kind})
	}
	for _, f := range e.Facts {
		gotRows = append(gotRows, row{f.Triple.String(), Confidence(f.Confidence), f.Kind})
		if !(f.Confidence > 0 && f.Confidence <= 1) {
			t.Errorf("fact %s has confidence %g, want in (0, 1]", f.Triple, f.Confidence)
		}
		if f.Record.IsZero() {
			t.Errorf("fact %s has no record", f.Triple)
		}
	}
	byRow := func(a, b row) int { return strings.Compare(a.Triple+a.Conf, b.Triple+b.Conf) }
	slices.SortFunc(wantRows, byRow)
	slices.SortFunc(gotRows, byRow)
	if diff := cmp.Diff(wantRows, gotRows); diff != "" {
		t.Errorf("facts (-want +got):\n%s", diff)
	}

	// Nothing about the city of Homer, no price, no availability, no KB labels.
	for _, f := range e.Facts {
		s := f.Triple.String()
		if strings.Contains(s, "Homer,_Alaska") || strings.Contains(s, "/p/price") || strings.Contains(s, "Stock") {
			t.Errorf("unexpected fact %s", s)
		}
		if f.Triple.P == label && strings.HasPrefix(f.Triple.S.Value, yagoNS) {
			t.Errorf("label of a KB entity written: %s", s)
		}
	}

	distinct := map[graph.Triple]bool{}
	for _, f := range want {
		distinct[f.t] = true
	}
	st := e.Stats
	wantStats := EnrichStats{
		Records: 26, Linked: 16, NewInstances: 10, NearLinks: st.NearLinks,
		// A publisher for each linked book, Stoner's author, The Sea's year.
		Facts: len(distinct), FactsOnKnown: 16 + 2,
		// Titles 16, authors 15 (Stoner's missing), years 14 (The Sea's missing, and
		// Life of Pi's 2002 conflicts with the KB's 2001: left out).
		Present: 16 + 15 + 14, Conflicts: 1, ReusedEntities: 6, MintedEntities: 3, Ambiguous: 1,
		Unaligned: 2 * 26, NewRelations: 1,
	}
	if diff := cmp.Diff(wantStats, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	// Machines Like Me and Agency share an author with a KB book and get a partner
	// below the link threshold: counted for review.
	if st.NearLinks < 1 {
		t.Errorf("near links = %d, want ≥ 1", st.NearLinks)
	}

	// The new relation is declared with its label and origin; each new instance points
	// to its record.
	klara := fixRecords[slices.IndexFunc(fixRecords, func(r fixRecord) bool { return r.title == "Klara and the Sun" })]
	decls := map[string]bool{}
	for _, d := range e.Declarations {
		decls[d.String()] = true
	}
	for _, d := range []graph.Triple{
		tr(publisher, typ, graph.NewIRI(rdfProperty)),
		tr(publisher, label, graph.NewLiteral("Publisher")),
		tr(publisher, graph.NewIRI(provWasDerivedFrom), graph.NewIRI(fixPred("publisher"))),
		tr(publisher, graph.NewIRI(schemaDomainInclude), schemaIRI("Book")),
		tr(newInstance(klara), graph.NewIRI(provWasDerivedFrom), fixRecordIRI(klara)),
	} {
		if !decls[d.String()] {
			t.Errorf("missing declaration %s", d)
		}
	}
	if len(e.Declarations) != 4+10 {
		t.Errorf("%d declarations, want 14", len(e.Declarations))
	}
}

var confRe = regexp.MustCompile(`^"(\d\.\d+)"\^\^<http://www\.w3\.org/2001/XMLSchema#decimal>$`)

// checkReified reads enrichment.nt back with graph.Reader and checks that every fact has
// a reifier (RDF 1.2 or classic) with a confidence in (0,1] and its record.
func checkReified(t *testing.T, data []byte, mode Reification, facts int) {
	t.Helper()
	rd := graph.NewReader(bytes.NewReader(data), FileEnrichment)
	asserted := map[graph.Triple]bool{}
	reified := map[string]graph.Triple{}
	conf := map[string]string{}
	prov := map[string]bool{}
	var triples []graph.Triple
	for {
		tt, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("enrichment does not parse: %v", err)
		}
		triples = append(triples, tt)
	}
	parts := map[string]map[string]graph.Term{}
	for _, tt := range triples {
		switch {
		case !tt.S.IsBlank():
			asserted[tt] = true
		case tt.P.Value == rdfReifies:
			q, err := tt.O.Triple()
			if err != nil {
				t.Fatal(err)
			}
			reified[tt.S.Value] = q
		case tt.P.Value == DefaultConfidencePredicate:
			conf[tt.S.Value] = tt.O.String()
		case tt.P.Value == provWasDerivedFrom:
			prov[tt.S.Value] = true
		case tt.P.Value == rdfSubject || tt.P.Value == rdfPredicate || tt.P.Value == rdfObject:
			if parts[tt.S.Value] == nil {
				parts[tt.S.Value] = map[string]graph.Term{}
			}
			parts[tt.S.Value][tt.P.Value] = tt.O
		}
	}
	for b, p := range parts {
		reified[b] = graph.Triple{S: p[rdfSubject], P: p[rdfPredicate], O: p[rdfObject]}
	}
	if mode == ReifyNone {
		if len(reified)+len(conf) != 0 {
			t.Errorf("mode none wrote %d reifiers", len(reified))
		}
		return
	}
	if len(reified) != facts {
		t.Errorf("%d reifiers, want one per fact (%d)", len(reified), facts)
	}
	for b, q := range reified {
		if !asserted[q] {
			t.Errorf("reifier %s: triple %s is not asserted", b, q)
		}
		m := confRe.FindStringSubmatch(conf[b])
		if m == nil {
			t.Errorf("reifier %s: confidence %q is not an xsd:decimal", b, conf[b])
			continue
		}
		if c, _ := strconv.ParseFloat(m[1], 64); !(c > 0 && c <= 1) {
			t.Errorf("reifier %s: confidence %v not in (0, 1]", b, c)
		}
		if !prov[b] {
			t.Errorf("reifier %s has no prov:wasDerivedFrom", b)
		}
	}
}

// TestEnrichOutput writes enrichment.nt in each reification mode: canonical and sorted,
// parsed back, the same bytes on a second run, and (RDF 1.2) equal to the golden file.
func TestEnrichOutput(t *testing.T) {
	for _, mode := range []Reification{ReifyRDF12, ReifyRDF11, ReifyNone} {
		t.Run(string(mode), func(t *testing.T) {
			o := fixEnrichOptions()
			o.Reification = mode
			var a, b bytes.Buffer
			e := fixEnrich(t, o)
			if err := WriteEnrichment(&a, e); err != nil {
				t.Fatal(err)
			}
			if err := WriteEnrichment(&b, fixEnrich(t, o)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("two runs on the same input gave different bytes")
			}
			lines := strings.Split(strings.TrimSuffix(a.String(), "\n"), "\n")
			if !slices.IsSorted(lines) {
				t.Error("output is not sorted")
			}
			checkReified(t, a.Bytes(), mode, len(e.Facts))
			if mode == ReifyRDF12 {
				testutil.Golden(t, "enrichment-books.nt", a.Bytes())
			}
		})
	}
}

// TestEnrichRapper checks that Raptor accepts the RDF 1.1 forms of the output. Raptor
// predates RDF 1.2 and rejects triple terms, so the RDF 1.2 form is only logged.
func TestEnrichRapper(t *testing.T) {
	rapper, err := exec.LookPath("rapper")
	if err != nil {
		t.Skip("rapper not installed (Debian raptor2-utils); CI installs it")
	}
	dir := t.TempDir()
	for _, mode := range []Reification{ReifyRDF11, ReifyNone, ReifyRDF12} {
		o := fixEnrichOptions()
		o.Reification = mode
		var buf bytes.Buffer
		if err := WriteEnrichment(&buf, fixEnrich(t, o)); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, string(mode)+".nt")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.CommandContext(t.Context(), rapper, "-i", "ntriples", "-c", path).CombinedOutput()
		lines := bytes.Count(buf.Bytes(), []byte("\n"))
		if mode == ReifyRDF12 {
			t.Logf("rapper on RDF 1.2 triple terms (expected to fail): err=%v\n%s", err, firstLines(out, 3))
			continue
		}
		if err != nil {
			t.Errorf("%s: rapper rejects the output: %v\n%s", mode, err, out)
			continue
		}
		if want := "returned " + strconv.Itoa(lines) + " triples"; !bytes.Contains(out, []byte(want)) {
			t.Errorf("%s: rapper: %s; want %q", mode, out, want)
		}
	}
}

func firstLines(b []byte, n int) string {
	ls := strings.SplitN(string(b), "\n", n+1)
	return strings.Join(ls[:min(n, len(ls))], "\n")
}

// TestEnrichNothingLinked: with a link threshold no partner reaches, no record is known,
// the record class has no aligned class, and nothing is written.
func TestEnrichNothingLinked(t *testing.T) {
	o := fixEnrichOptions()
	o.LinkThreshold = 0.999
	e := fixEnrich(t, o)
	if e.Stats.Linked != 0 || e.Stats.Untyped != len(fixRecords) || len(e.Facts) != 0 || e.Understanding.Classes[0].Aligned != "" {
		t.Errorf("stats %+v, %d facts, class %q; want nothing linked, all untyped, no facts", e.Stats, len(e.Facts), e.Understanding.Classes[0].Aligned)
	}
	var buf bytes.Buffer
	if err := WriteEnrichment(&buf, e); err != nil || buf.Len() != 0 {
		t.Errorf("empty enrichment: %q, %v", buf.String(), err)
	}
}

// TestEnrichNamespaces: configured namespaces and confidence predicate are used.
func TestEnrichNamespaces(t *testing.T) {
	o := fixEnrichOptions()
	o.EntityNS = "http://kb.example/new#"
	o.RelationNS = "http://kb.example/rel#"
	o.ConfidencePredicate = "http://kb.example/conf"
	e := fixEnrich(t, o)
	var buf bytes.Buffer
	if err := WriteEnrichment(&buf, e); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	for _, want := range []string{"<http://kb.example/rel#publisher>", "<http://kb.example/new#", "<http://kb.example/conf>"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	if strings.Contains(s, fixSource+"/entity/") || strings.Contains(s, DefaultConfidencePredicate) {
		t.Error("output still uses the default namespaces")
	}
}

func TestEnrichOptionsValidate(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*EnrichOptions)
		field string
	}{
		{"link threshold 0", func(o *EnrichOptions) { o.LinkThreshold = 0 }, "LinkThreshold"},
		{"relation confidence > 1", func(o *EnrichOptions) { o.MinRelationConfidence = 1.5 }, "MinRelationConfidence"},
		{"class confidence NaN", func(o *EnrichOptions) { o.MinClassConfidence = nan() }, "MinClassConfidence"},
		{"reification", func(o *EnrichOptions) { o.Reification = "rdf-star" }, "Reification"},
		{"relative source", func(o *EnrichOptions) { o.Source = "books" }, "Source"},
		{"entity ns with space", func(o *EnrichOptions) { o.EntityNS = "http://x/ y" }, "EntityNS"},
		{"no confidence predicate", func(o *EnrichOptions) { o.ConfidencePredicate = "" }, "ConfidencePredicate"},
		{"candidates", func(o *EnrichOptions) { o.Candidates = 0 }, "Candidates"},
	}
	if err := fixEnrichOptions().Validate(); err != nil {
		t.Fatalf("fixture options: %v", err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := fixEnrichOptions()
			tc.edit(&o)
			err := o.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("Validate() = %v, want an error naming %s", err, tc.field)
			}
		})
	}
	kb1, kb2, res := fixAlign(t)
	o := fixEnrichOptions()
	o.Source = ""
	if _, err := Enrich(t.Context(), kb1, kb2, res, o); err == nil || !strings.Contains(err.Error(), "Source") {
		t.Errorf("Enrich without a source: %v", err)
	}
	o = fixEnrichOptions()
	o.RecordClass = "http://nowhere/Class"
	if _, err := Enrich(t.Context(), kb1, kb2, res, o); !errors.Is(err, ErrNoRecordClass) {
		t.Errorf("Enrich with an unknown class: %v", err)
	}
}

func nan() float64 { z := 0.0; return z / z }

func TestConfidenceLexical(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0.83, "0.83"}, {1, "1.0"}, {0.53134, "0.5313"}, {0.99996, "1.0"}, {0.00001, "0.0001"}, {0.5, "0.5"},
	}
	for _, tc := range tests {
		if got := Confidence(tc.in); got != tc.want {
			t.Errorf("Confidence(%g) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMintIRI(t *testing.T) {
	a := MintIRI("http://x/e/", "record", "http://x/rec/1")
	if a != MintIRI("http://x/e/", "record", "http://x/rec/1") || len(a) != len("http://x/e/")+16 {
		t.Errorf("MintIRI not stable or not 16 hex digits: %s", a)
	}
	// The parts are separated: ("ab", "c") and ("a", "bc") differ.
	if MintIRI("", "ab", "c") == MintIRI("", "a", "bc") || MintIRI("", "record", "x") == MintIRI("", "value", "x") {
		t.Error("MintIRI collides on different parts")
	}
}

// TestWriteEnrichmentDir writes both files of the run directory.
func TestWriteEnrichmentDir(t *testing.T) {
	e := fixEnrich(t, fixEnrichOptions())
	dir := t.TempDir()
	if err := WriteEnrichmentDir(dir, e); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FileEnrichment, FileUnderstanding} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestEnrichBadger runs the same enrichment with the reference KB in a Badger store
// (ontology.Store, as the pipeline does with YAGO) and expects the same bytes as with
// the in-memory KB.
func TestEnrichBadger(t *testing.T) {
	var want bytes.Buffer
	if err := WriteEnrichment(&want, fixEnrich(t, fixEnrichOptions())); err != nil {
		t.Fatal(err)
	}
	kb1, err := graph.NewMemory(fixGraph())
	if err != nil {
		t.Fatal(err)
	}
	kb2 := badgerKB(t, "books-kb", ntBytes(t, fixKB()))
	res, err := Align(t.Context(), kb1, kb2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	e, err := Enrich(t.Context(), kb1, kb2, res, fixEnrichOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := WriteEnrichment(&got, e); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), got.String()); diff != "" {
		t.Errorf("Badger KB gives another enrichment (-memory +badger):\n%s", diff)
	}
}
