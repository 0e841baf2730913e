package graph

import (
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
