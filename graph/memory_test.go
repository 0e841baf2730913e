package graph

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

const ex = "http://example.org/"

func mustMemory(t *testing.T, nt string) *Memory {
	t.Helper()
	m, err := ReadMemory(t.Context(), strings.NewReader(nt), "test.nt", MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func node(t *testing.T, m *Memory, term string) ID {
	t.Helper()
	tt, err := ParseTerm(term)
	if err != nil {
		t.Fatal(err)
	}
	id, ok, _ := m.Lookup(t.Context(), tt)
	if !ok {
		t.Fatalf("%s not in graph", term)
	}
	return id
}

func TestMemoryEdgesAndTaxonomy(t *testing.T) {
	m := mustMemory(t, `
<http://example.org/elvis> <http://example.org/label> "Elvis" .
<http://example.org/elvis> <http://example.org/label> "Elvis" .
<http://example.org/elvis> <http://example.org/marriedTo> <http://example.org/priscilla> .
<http://example.org/elvis> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/Singer> .
<http://example.org/Singer> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.org/Person> .
`)
	ctx := t.Context()
	if m.Triples() != 2 || m.TaxonomyTriples() != 2 {
		t.Fatalf("triples = %d, taxonomy = %d; want 2, 2 (duplicates dropped)", m.Triples(), m.TaxonomyTriples())
	}
	elvis, pris := node(t, m, "<"+ex+"elvis>"), node(t, m, "<"+ex+"priscilla>")
	married, _ := m.RelationID(ex + "marriedTo")
	var got []Edge
	for e, err := range m.Edges(ctx, pris) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	if len(got) != 1 || got[0] != (Edge{Rel: married.Inverse(), Node: elvis}) {
		t.Errorf("edges of priscilla = %v, want the inverse of marriedTo to elvis", got)
	}
	var ents []ID
	for id, err := range m.Entities(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		ents = append(ents, id)
	}
	if len(ents) != 1 || ents[0] != elvis {
		t.Errorf("entities = %v, want only elvis (the only subject)", ents)
	}
	singer := node(t, m, "<"+ex+"Singer>")
	if ts, _ := m.Types(ctx, elvis); len(ts) != 1 || ts[0] != singer {
		t.Errorf("types(elvis) = %v", ts)
	}
	if ss, _ := m.SuperClasses(ctx, singer); len(ss) != 1 || ss[0] != node(t, m, "<"+ex+"Person>") {
		t.Errorf("superclasses(Singer) = %v", ss)
	}
	for e := range m.Edges(ctx, elvis) {
		if m.RelationIRI(e.Rel) == RDFType {
			t.Errorf("rdf:type is an edge")
		}
	}
}

func TestMemoryMalformed(t *testing.T) {
	_, err := ReadMemory(t.Context(), strings.NewReader("<http://a> <http://b> <http://c> .\n<http://a> <http://b> \"x .\n"), "bad.nt", MemoryOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "bad.nt" || pe.Line != 2 {
		t.Fatalf("error = %v, want a ParseError at bad.nt:2", err)
	}
	if !strings.HasPrefix(err.Error(), "bad.nt:2:") {
		t.Errorf("message %q does not start with file:line", err)
	}
	m, err := ReadMemory(t.Context(), strings.NewReader("<http://a> <http://b> <http://c> .\nnonsense\n<http://a> <http://b> \"d\" .\n"), "bad.nt", MemoryOptions{MaxBadLines: 1})
	if err != nil || m.Triples() != 2 {
		t.Fatalf("with MaxBadLines 1: %v, %v triples", err, m)
	}
	_, err = ReadMemory(t.Context(), strings.NewReader("x\ny\n"), "bad.nt", MemoryOptions{MaxBadLines: 1})
	if !errors.Is(err, ErrTooManyBadLines) {
		t.Errorf("error = %v, want ErrTooManyBadLines", err)
	}
}

func TestNewMemoryRejectsInvalid(t *testing.T) {
	_, err := NewMemory([]Triple{{S: NewLiteral("x"), P: NewIRI(ex + "p"), O: NewLiteral("y")}})
	if err == nil || !strings.Contains(err.Error(), "triple 0") {
		t.Errorf("error = %v, want one naming triple 0", err)
	}
}

// TestFunctionalityOracles checks the functionalities of paris.md §2.1, recomputed from
// the OAEI 2010 files.
func TestFunctionalityOracles(t *testing.T) {
	dir := testutil.SharedData(t, "oaei2010")
	const p1, p2 = "http://www.okkam.org/ontology_person1.owl#", "http://www.okkam.org/ontology_person2.owl#"
	const r1, r2 = "http://www.okkam.org/ontology_restaurant1.owl#", "http://www.okkam.org/ontology_restaurant2.owl#"
	tests := []struct {
		file   string
		facts  int // including rdf:type
		invFun map[string]float64
	}{
		{"Persons1/person11.nt", 9000, map[string]float64{
			p1 + "soc_sec_id": 1, p1 + "has_address": 1, p1 + "is_in_suburb": 1, p1 + "is_in_state": 1,
			p1 + "phone_numer": 0.950, p1 + "street": 0.944, p1 + "date_of_birth": 0.908, p1 + "surname": 0.874,
			p1 + "postcode": 0.796, p1 + "given_name": 0.524, p1 + "name": 0.432, p1 + "house_number": 0.320,
			p1 + "age": 0.054,
		}},
		{"Persons1/person12.nt", 7000, map[string]float64{
			p2 + "soc_sec_id": 1, p2 + "has_address": 1, p2 + "phone_numer": 0.946, p2 + "street": 0.938,
			p2 + "surname": 0.904, p2 + "date_of_birth": 0.900, p2 + "suburb": 0.870, p2 + "postcode": 0.818,
			p2 + "given_name": 0.590, p2 + "house_number": 0.330, p2 + "state": 0.068, p2 + "age": 0.066,
		}},
		{"Restaurants/restaurant1.nt", 1130, map[string]float64{
			r1 + "has_address": 1, r1 + "is_in_city": 1, r1 + "phone_number": 0.991, r1 + "street": 0.991,
			r1 + "name": 0.558, r1 + "category": 0.168,
		}},
		{"Restaurants/restaurant2.nt", 7520, map[string]float64{
			r2 + "has_address": 1, r2 + "has_category": 1, r2 + "phone_number": 0.995, r2 + "street": 0.973,
			r2 + "name": 0.550, r2 + "city": 0.065,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			m, err := LoadMemory(t.Context(), filepath.Join(dir, tc.file), MemoryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Triples() + m.TaxonomyTriples(); got != tc.facts {
				t.Errorf("facts = %d, want %d", got, tc.facts)
			}
			for _, r := range m.Relations() {
				if f := m.Functionality(r); f != 1 {
					t.Errorf("fun(%s) = %.3f, want 1", m.RelationIRI(r), f)
				}
			}
			for iri, want := range tc.invFun {
				r, ok := m.RelationID(iri)
				if !ok {
					t.Fatalf("relation %s missing", iri)
				}
				if got := m.Functionality(r.Inverse()); math.Abs(got-want) > 0.0005 {
					t.Errorf("fun⁻¹(%s) = %.4f, want %.3f", iri, got, want)
				}
			}
			if len(tc.invFun) != len(m.Relations()) {
				t.Errorf("%d relations, oracle has %d", len(m.Relations()), len(tc.invFun))
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	m := mustMemory(t, `
<http://example.org/b1> <http://example.org/label> "Hamlet" .
<http://example.org/b1> <http://example.org/label> "hamlet"@en .
<http://example.org/b2> <http://example.org/label> "Great Expectations" .
<http://example.org/b3> <http://example.org/label> "Great Expectation" .
<http://example.org/p1> <http://example.org/born> "1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://example.org/p2> <http://example.org/born> "1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://example.org/p3> <http://example.org/born> "1839-05-12"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://example.org/p4> <http://example.org/size> "12345" .
<http://example.org/p5> <http://example.org/size> "12346" .
<http://example.org/p6> <http://example.org/label> "" .
`)
	ctx := t.Context()
	lit := func(s string) ID { return node(t, m, s) }
	type want struct {
		id    ID
		exact bool
	}
	tests := []struct {
		name, text string
		want       []want
	}{
		{"normal form ignores brackets, case and language", "Hamlet (French Edition)", []want{{lit(`"Hamlet"`), true}, {lit(`"hamlet"@en`), true}}},
		{"exact match only when there is one", "great expectations", []want{{lit(`"Great Expectations"`), true}}},
		{"approximate when nothing matches exactly, best first", "great expectationz", []want{{lit(`"Great Expectation"`), false}, {lit(`"Great Expectations"`), false}}},
		{"year includes dates", "1838", []want{{lit(`"1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date>`), true}, {lit(`"1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date>`), true}}},
		{"wildcard date includes the day", "1838-05-12", []want{{lit(`"1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date>`), true}, {lit(`"1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date>`), true}}},
		{"numbers only exactly", "12345", []want{{lit(`"12345"`), true}}},
		{"empty text matches nothing", "  ", nil},
		{"punctuation only matches nothing", "--", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.Candidates(ctx, tc.text, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("Candidates(%q) = %v, want %v", tc.text, got, tc.want)
			}
			for i, w := range tc.want {
				if got[i].Node != w.id || got[i].Exact != w.exact {
					t.Errorf("candidate %d = %+v, want %+v", i, got[i], w)
				}
				if w.exact && got[i].Score != 1 || !w.exact && (got[i].Score >= 1 || got[i].Score < MinApproxScore) {
					t.Errorf("candidate %d score %v", i, got[i].Score)
				}
			}
		})
	}
	if got, _ := m.Candidates(ctx, "great expectations", 1); len(got) != 1 || !got[0].Exact {
		t.Errorf("k=1 gave %v, want the exact match only", got)
	}
	// The approximate score is the 2-gram Dice of the normal forms (paris.md §7 vector):
	// 32/33 against "great expectation", 32/34 against "great expectations".
	got, _ := m.Candidates(ctx, "great expectationz", 10)
	if len(got) != 2 || math.Abs(got[0].Score-0.9697) > 1e-4 || math.Abs(got[1].Score-0.9412) > 1e-4 {
		t.Errorf("Candidates(great expectationz) = %v, want Dice 0.9697 and 0.9412", got)
	}
}

func TestMemoryDeterministicIDs(t *testing.T) {
	nt := "<http://a> <http://p> \"x\" .\n<http://b> <http://p> <http://a> .\n"
	a, b := mustMemory(t, nt), mustMemory(t, nt)
	for i := 1; i <= a.Nodes(); i++ {
		ta, _ := a.Term(t.Context(), ID(i))
		tb, _ := b.Term(t.Context(), ID(i))
		if ta != tb {
			t.Fatalf("node %d: %v vs %v", i, ta, tb)
		}
	}
	if _, err := a.Term(t.Context(), 99); err == nil {
		t.Errorf("Term(99) gave no error")
	}
}

// TestBigramDice checks the index's Dice against textnorm.Dice.
func TestBigramDice(t *testing.T) {
	pairs := [][2]string{{"arts deli", "art s deli"}, {"great expectations", "great expectation"}, {"a", "a"}, {"a", "ab"},
		{"aaaa", "aa"}, {"charles dickens", "dickens charles"}, {"x", ""}, {"elvis presley", "elvis aaron presley"}}
	for _, p := range pairs {
		got := dice(bigrams(nil, p[0]), bigrams(nil, p[1]))
		want := textnorm.Dice(p[0], p[1], 2)
		if want < MinApproxScore {
			want = 0
		}
		if math.Abs(got-want) > 1e-12 && !(got == 0 && want < MinApproxScore) {
			t.Errorf("dice(%q, %q) = %v, want %v", p[0], p[1], got, want)
		}
	}
}

// TestDiceAtLeast checks the early stop of diceAtLeast against the full Dice
// coefficient: a score is kept exactly when dice is not below the minimum, and then it
// is dice's.
func TestDiceAtLeast(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	word := func() string {
		b := make([]byte, rng.IntN(14))
		for i := range b {
			b[i] = "abcde"[rng.IntN(5)]
		}
		return string(b)
	}
	stops := 0
	for range 20000 {
		a, b := bigrams(nil, word()), bigrams(nil, word())
		full := dice(a, b)
		for _, m := range []float64{0, 0.3, 0.5, 2.0 / 3, 0.78, 1, rng.Float64()} {
			got, ok := diceAtLeast(a, b, m)
			if ok != !(full < m) || ok && got != full {
				t.Fatalf("diceAtLeast(%v, %v, %v) = %v, %v; dice %v", a, b, m, got, ok, full)
			}
			if !ok && len(a) > 0 && len(b) > 0 {
				stops++
			}
		}
	}
	if stops == 0 {
		t.Errorf("no score was below its minimum")
	}
}

// hiddenIndex hides a Memory's literal index behind the LiteralIndex interface, so that
// MatchLiterals takes the path of any index (FormsInBands, FormsWithHash).
type hiddenIndex struct{ LiteralIndex }

// TestRankedApproxAsHashed checks that an approximate lookup on a Memory's ranked
// tables selects, scores and orders the same literals as the generic lookup through
// FormsInBands and FormsWithHash, on forms crowded enough that the lookups hit
// MaxApproxForms and some band keys exceed MaxBandPostings.
func TestRankedApproxAsHashed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 19))
	word := func(n int) string {
		const letters = "aeioubcdlmnrst"
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[rng.IntN(len(letters))]
		}
		return string(b)
	}
	stems := []string{"maria", "johnson", "street", "anderson"}
	var sb strings.Builder
	var texts []string
	for i := range 6000 {
		s := stems[i%len(stems)] + " " + word(3+rng.IntN(6))
		if i%7 == 0 {
			s = word(5 + rng.IntN(10))
		}
		fmt.Fprintf(&sb, "<%se%d> <%sname> %q .\n", ex, i, ex, s)
		if i%5 == 0 {
			fmt.Fprintf(&sb, "<%sf%d> <%sname> %q .\n", ex, i, ex, s) // a form with two nodes
		}
		if i%40 == 0 {
			texts = append(texts, s[:len(s)-1]+"x", word(8), stems[i%len(stems)]+" "+word(4))
		}
	}
	m := mustMemory(t, sb.String())
	ix := m.literalIndex()
	full := 0
	for _, text := range texts {
		for _, k := range []int{1, 3, 20, 500} { // the ranked lookup keeps only what ranks in the first k
			got, err := MatchLiterals(t.Context(), ix, text, k, MinApproxScore)
			if err != nil {
				t.Fatal(err)
			}
			want, err := MatchLiterals(t.Context(), hiddenIndex{ix}, text, k, MinApproxScore)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%q, k = %d: ranked lookup gave %v, the generic one %v", text, k, got, want)
			}
		}
		hs, _ := ix.FormsInBands(t.Context(), BandKeys(LiteralForm(text)))
		if len(selectForms(hs, FormHash(LiteralForm(text)), MaxApproxForms)) == MaxApproxForms {
			full++
		}
	}
	capped := 0
	for _, fs := range bandFormsOf(m) {
		if fs > MaxBandPostings {
			capped++
		}
	}
	if full == 0 || capped == 0 {
		t.Errorf("%d of %d lookups at MaxApproxForms and %d band keys over MaxBandPostings: the data does not exercise the caps", full, len(texts), capped)
	}
}

// bandFormsOf counts the distinct approximate forms under each band key of m's
// literals, capped keys included.
func bandFormsOf(m *Memory) map[uint64]int {
	forms := map[uint64]map[string]bool{}
	for id := 1; id < m.terms.len(); id++ {
		t := m.terms.term(ID(id))
		if t.Kind != KindLiteral || ClassOf(t) != LiteralString {
			continue
		}
		norm := LiteralForm(t.Value)
		if norm == "" || len(norm) > MaxApproxForm {
			continue
		}
		for _, k := range BandKeys(norm) {
			if forms[k] == nil {
				forms[k] = map[string]bool{}
			}
			forms[k][norm] = true
		}
	}
	out := map[uint64]int{}
	for k, fs := range forms {
		out[k] = len(fs)
	}
	return out
}
