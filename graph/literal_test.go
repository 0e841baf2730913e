package graph

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBandKeys(t *testing.T) {
	share := func(a, b string) bool {
		ka, kb := BandKeys(LiteralForm(a)), BandKeys(LiteralForm(b))
		if len(ka) != MinHashes/BandRows || len(kb) != len(ka) {
			t.Fatalf("BandKeys gave %d and %d keys, want %d", len(ka), len(kb), MinHashes/BandRows)
		}
		for i := range ka {
			if ka[i] == kb[i] {
				return true
			}
		}
		return false
	}
	for _, p := range [][2]string{
		{"The Brothers Karamazov", "The Brothers Karamazow"},
		{"Busta Rhymes", "Rhymes, Busta"},
		{"Great Expectations", "great expectation"},
	} {
		if !share(p[0], p[1]) {
			t.Errorf("%q and %q share no band", p[0], p[1])
		}
	}
	if share("Crime and Punishment", "The Brothers Karamazov") {
		t.Errorf("unrelated titles share a band")
	}
	if BandKeys("") != nil {
		t.Errorf("BandKeys(\"\") is not nil")
	}
}

func TestClassOf(t *testing.T) {
	for _, tc := range []struct {
		t    Term
		want LiteralClass
	}{
		{NewLiteral("Hamlet"), LiteralString},
		{NewLangString("Hamlet", "en"), LiteralString},
		{NewLiteral("40"), LiteralPlain},         // a number in a plain string
		{NewLiteral("1838-05-12"), LiteralPlain}, // reads as a date, but is not typed as one
		{NewTyped("1838-05-12", XSD+"date"), LiteralDate},
		{NewTyped("969-##-##", XSD+"date"), LiteralDate},
		{NewTyped("soon", XSD+"date"), LiteralPlain},
		{NewTyped("12", XSD+"integer"), LiteralPlain},
	} {
		if got := ClassOf(tc.t); got != tc.want {
			t.Errorf("ClassOf(%s) = %d, want %d", tc.t, got, tc.want)
		}
	}
}

// TestCandidateTiesByTerm checks that ties are broken by the literals' canonical form,
// not by node identifier: the same literals read in another order give the same list.
func TestCandidateTiesByTerm(t *testing.T) {
	a := mustMemory(t, `<http://e/1> <http://e/p> "Paris"@fr .
<http://e/2> <http://e/p> "paris" .
<http://e/3> <http://e/p> "PARIS"@en .
<http://e/4> <http://e/d> "1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://e/5> <http://e/d> "1838-05-12T10:00:00"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
<http://e/6> <http://e/d> "1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .
`)
	b := mustMemory(t, `<http://e/6> <http://e/d> "1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://e/5> <http://e/d> "1838-05-12T10:00:00"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
<http://e/4> <http://e/d> "1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://e/3> <http://e/p> "PARIS"@en .
<http://e/2> <http://e/p> "paris" .
<http://e/1> <http://e/p> "Paris"@fr .
`)
	ctx := t.Context()
	for text, want := range map[string][]string{
		"Paris": {`"PARIS"@en`, `"Paris"@fr`, `"paris"`},
		"1838":  {`"1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date>`, `"1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date>`, `"1838-05-12T10:00:00"^^<http://www.w3.org/2001/XMLSchema#dateTime>`},
	} {
		for _, m := range []*Memory{a, b} {
			cs, err := m.Candidates(ctx, text, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != 2 {
				t.Fatalf("Candidates(%q, 2) = %v", text, cs)
			}
			for i, c := range cs {
				if got, _ := m.Term(ctx, c.Node); got.String() != want[i] {
					t.Errorf("Candidates(%q)[%d] = %s, want %s", text, i, got, want[i])
				}
			}
		}
	}
}

// TestSelectForms checks the bucketed selection of the forms to re-score against its
// definition: count the hashes, sort by decreasing count then increasing hash, keep
// the first limit, return them in increasing order.
func TestSelectForms(t *testing.T) {
	want := func(hashes []uint64, self uint64, limit int) []uint64 {
		hits := map[uint64]int{}
		for _, h := range hashes {
			if h != self {
				hits[h]++
			}
		}
		var forms []uint64
		for h := range hits {
			forms = append(forms, h)
		}
		slices.SortFunc(forms, func(a, b uint64) int { return cmp.Or(cmp.Compare(hits[b], hits[a]), cmp.Compare(a, b)) })
		forms = forms[:min(limit, len(forms))]
		slices.Sort(forms)
		return forms
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := rng.IntN(600)
		distinct := 1 + rng.IntN(300)
		hashes := make([]uint64, n)
		for i := range hashes {
			hashes[i] = uint64(rng.IntN(distinct))
		}
		self := uint64(rng.IntN(distinct + 5))
		limit := 1 + rng.IntN(160)
		w := want(hashes, self, limit)
		got := selectForms(slices.Clone(hashes), self, limit)
		if !slices.Equal(got, w) && !(len(got) == 0 && len(w) == 0) {
			t.Fatalf("trial %d (%d hashes, self %d, limit %d): got %v, want %v", trial, n, self, limit, got, w)
		}
	}
}
