package align

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/trawl-dev/trawl/graph"
)

func relationOf(t *testing.T, u *Understanding, name string) RelationUnderstanding {
	t.Helper()
	for _, r := range u.Relations {
		if r.Relation == fixPred(name) {
			return r
		}
	}
	t.Fatalf("no understanding of feature %s", name)
	return RelationUnderstanding{}
}

// TestUnderstandBooks aligns the book form's labeled graph with the KB for real and
// checks what the alignment says about the records: their class, the meaning of each
// feature, and how many linked records' values the KB has.
func TestUnderstandBooks(t *testing.T) {
	kb1, kb2, res := fixAlign(t)
	// The alignment itself: every book the KB has is linked, to the right entity, and
	// no other record is.
	linked := 0
	for _, r := range fixRecords {
		m, ok := findInstance(res, fixRecordIRI(r).Value)
		switch {
		case r.kb != "" && (!ok || m.RightTerm != yago(r.kb) || m.Confidence < 0.9):
			t.Errorf("record %q: partner %s at %.3f, want %s ≥ 0.9", r.title, m.RightTerm, m.Confidence, r.kb)
		case r.kb == "" && ok && m.Confidence >= 0.9:
			t.Errorf("record %q is not in the KB but links to %s at %.3f", r.title, m.RightTerm, m.Confidence)
		case r.kb != "":
			linked++
		}
	}

	u, err := Understand(t.Context(), kb1, kb2, res, fixEnrichOptions())
	if err != nil {
		t.Fatal(err)
	}
	if u.Records != len(fixRecords) || u.Linked != linked || linked != 16 {
		t.Errorf("records %d, linked %d; want %d, 16", u.Records, u.Linked, len(fixRecords))
	}

	// The class: the records are books. Book, CreativeWork and Thing have the same
	// confidence over the linked records; the most specific wins.
	if len(u.Classes) != 1 {
		t.Fatalf("classes = %+v, want the record class only", u.Classes)
	}
	c := u.Classes[0]
	if c.Class != fixSource+"/Record" || c.Records != len(fixRecords) || c.Linked != 16 {
		t.Errorf("class %s: %d records, %d linked", c.Class, c.Records, c.Linked)
	}
	if c.Aligned != schemaNS+"Book" || c.Confidence < 0.9 || c.Confidence > 1 {
		t.Errorf("aligned class = %s (%.3f), want schema:Book ≥ 0.9", c.Aligned, c.Confidence)
	}
	var supers []string
	for _, s := range c.Superclasses {
		supers = append(supers, s.Class)
		if s.Linked != 16 || !near(s.Confidence, c.Confidence) {
			t.Errorf("superclass %s: %d linked, %.4f; want 16, %.4f", s.Class, s.Linked, s.Confidence, c.Confidence)
		}
		// PARIS's own score counts the 10 new books against the class.
		if s.Paris <= 0 || s.Paris >= s.Confidence {
			t.Errorf("superclass %s: PARIS score %.3f, want in (0, %.3f)", s.Class, s.Paris, s.Confidence)
		}
	}
	if want := []string{schemaNS + "Book", schemaNS + "CreativeWork", schemaNS + "Thing"}; !slices.Equal(supers, want) {
		t.Errorf("superclasses = %v, want %v", supers, want)
	}

	tests := []struct {
		feature, status, aligned string
		join                     bool
		matched                  int
		valueClass, newRelation  string
		labelMatches             []string
	}{
		// Every linked title matches ("ATONEMENT", "… (Vintage International)").
		{"title", RelationAligned, graph.RDFSLabel, false, 16, "", "", nil},
		// Stoner's entry in the KB has no author; "Atwood, Margaret" and "J.M. Coetzee"
		// match approximately.
		{"author", RelationAligned, schemaNS + "author / " + graph.RDFSLabel, true, 15, schemaNS + "Person", "", []string{schemaNS + "author"}},
		// The Sea's entry in the KB has no year; Life of Pi's record has another year.
		{"year", RelationAligned, schemaNS + "datePublished", false, 14, "", "", nil},
		// The KB has no publishers of these books: a new relation named from the field.
		{"publisher", RelationNew, "", false, 0, "", fixSource + "/rel/publisher", []string{schemaNS + "publisher"}},
		// No field: left out.
		{"price", RelationUnaligned, "", false, 0, "", "", nil},
		{"availability", RelationUnaligned, "", false, 0, "", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.feature, func(t *testing.T) {
			r := relationOf(t, u, tc.feature)
			if r.Status != tc.status {
				t.Errorf("status = %q, want %q", r.Status, tc.status)
			}
			if tc.aligned != "" {
				if r.Aligned == nil || r.Aligned.Relation != tc.aligned || r.Aligned.Join != tc.join {
					t.Fatalf("aligned = %+v, want %s", r.Aligned, tc.aligned)
				}
				if r.Aligned.Confidence < 0.25 || r.Aligned.Confidence > 1 || r.Aligned.N < 10 {
					t.Errorf("aligned confidence %.3f (n = %.1f), want ≥ 0.25 on ≥ 10 facts", r.Aligned.Confidence, r.Aligned.N)
				}
				// Both directions are reported.
				if len(r.Sub) == 0 || r.Sub[0].Relation != tc.aligned {
					t.Errorf("sub = %+v, want %s ⊆ feature too", r.Sub, tc.aligned)
				}
			} else if r.Aligned != nil {
				t.Errorf("aligned = %+v, want none", r.Aligned)
			}
			// The Odyssey has no year.
			if want := len(fixRecords) - map[bool]int{true: 1}[tc.feature == "year"]; r.Records != want {
				t.Errorf("records with a value = %d, want %d", r.Records, want)
			}
			if r.LinkedRecords != 16 || r.Matched != tc.matched {
				t.Errorf("linked records %d, matched %d; want 16, %d", r.LinkedRecords, r.Matched, tc.matched)
			}
			if r.ValueClass != tc.valueClass || tc.valueClass != "" && r.ValueClassConfidence != 1 {
				t.Errorf("value class = %q (%.2f), want %q", r.ValueClass, r.ValueClassConfidence, tc.valueClass)
			}
			if r.NewRelation != tc.newRelation {
				t.Errorf("new relation = %q, want %q", r.NewRelation, tc.newRelation)
			}
			if !slices.Equal(r.LabelMatches, tc.labelMatches) {
				t.Errorf("label matches = %v, want %v", r.LabelMatches, tc.labelMatches)
			}
		})
	}

	// understanding.json is plain JSON and the same bytes every time.
	var a, b bytes.Buffer
	if err := WriteUnderstanding(&a, u); err != nil {
		t.Fatal(err)
	}
	u2, err := Understand(t.Context(), kb1, kb2, res, fixEnrichOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteUnderstanding(&b, u2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("understanding.json differs between two runs on the same alignment")
	}
	var back Understanding
	if err := json.Unmarshal(a.Bytes(), &back); err != nil || len(back.Relations) != 6 {
		t.Errorf("understanding.json does not read back: %v", err)
	}
}

// TestUnderstandWithoutRecordClass finds the record class from the alignment.
func TestUnderstandWithoutRecordClass(t *testing.T) {
	kb1, kb2, res := fixAlign(t)
	o := fixEnrichOptions()
	o.RecordClass = ""
	u, err := Understand(t.Context(), kb1, kb2, res, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Classes) != 1 || u.Classes[0].Class != fixSource+"/Record" || u.Records != len(fixRecords) {
		t.Errorf("classes = %+v, records = %d; want the record class with all records", u.Classes, u.Records)
	}
}

func TestUnderstandBadInput(t *testing.T) {
	kb1, kb2, res := fixAlign(t)
	o := fixEnrichOptions()
	o.RecordClass = fixSource + "/NoSuchClass"
	if _, err := Understand(t.Context(), kb1, kb2, res, o); !errors.Is(err, ErrNoRecordClass) {
		t.Errorf("unknown record class: err = %v, want ErrNoRecordClass", err)
	}
	if _, err := Understand(t.Context(), kb1, kb2, nil, fixEnrichOptions()); err == nil {
		t.Error("nil result: no error")
	}
}

func TestRelationName(t *testing.T) {
	tests := []struct{ label, want string }{
		{"Publisher", "publisher"},
		{"Publication year", "publicationYear"},
		{"Date of publication:", "dateOfPublication"},
		{"ISBN-13", "isbn13"},
		{"  Éditeur  ", "editeur"},
		{"Author's name", "authorsName"},
		{"出版社", "出版社"},
		{"—", ""},
		{"", ""},
	}
	for _, tc := range tests {
		if got := RelationName(tc.label); got != tc.want {
			t.Errorf("RelationName(%q) = %q, want %q", tc.label, got, tc.want)
		}
	}
}

func TestLiteralsMatch(t *testing.T) {
	o := DefaultOptions()
	lit, year := graph.NewLiteral, func(s string) graph.Term { return graph.NewTyped(s, graph.XSD+"gYear") }
	tests := []struct {
		a, b graph.Term
		want bool
	}{
		{lit("ATONEMENT"), graph.NewLangString("Atonement", "en"), true},
		{lit("The Remains of the Day (Vintage International)"), lit("The Remains of the Day"), true},
		{lit("Atwood, Margaret"), lit("Margaret Atwood"), true},
		{lit("Saturday"), lit("Sunday"), false},
		{year("2005"), graph.NewTyped("2005-02-03", graph.XSD+"date"), true},
		{year("2005"), year("2006"), false},
		{lit("12.99"), lit("12.98"), false},
	}
	for _, tc := range tests {
		if got := literalsMatch(tc.a, tc.b, o); got != tc.want {
			t.Errorf("literalsMatch(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	o.Literals = LiteralExact
	if literalsMatch(lit("ATONEMENT"), lit("Atonement"), o) {
		t.Error("exact mode matched different lexical forms")
	}
}
