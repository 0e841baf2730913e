package graph

import (
	"fmt"
	"testing"
)

// TestTermTable checks that every term of a Memory is found at its ID and read back
// equal, including terms that differ only in datatype, language or direction, and
// that terms the graph does not have are not found.
func TestTermTable(t *testing.T) {
	var triples []Triple
	p := NewIRI("http://ex.org/p")
	var objs []Term
	for i := range 3000 {
		s := NewIRI(fmt.Sprintf("http://ex.org/s%d", i))
		v := fmt.Sprint(i % 700)
		for _, o := range []Term{
			NewLiteral(v),
			NewTyped(v, XSD+"integer"),
			NewTyped(v, XSD+"decimal"),
			NewLangString(v, "EN"),
			NewLangString(v, "fr"),
			{Kind: KindLiteral, Value: v, Lang: "ar", Dir: "rtl"},
			NewIRI("http://ex.org/" + v),
			NewBlank("b" + v),
		} {
			triples = append(triples, Triple{S: s, P: p, O: o})
			objs = append(objs, o)
		}
	}
	m, err := NewMemory(triples)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	seen := map[ID]bool{}
	for _, tm := range append(objs, triples[0].S) {
		id, ok, err := m.Lookup(ctx, tm)
		if err != nil || !ok {
			t.Fatalf("Lookup(%v) = %d, %v, %v", tm, id, ok, err)
		}
		back, err := m.Term(ctx, id)
		if err != nil || back != tm {
			t.Fatalf("Term(Lookup(%v) = %d) = %v, %v", tm, id, back, err)
		}
		seen[id] = true
	}
	if want := 3000 + 700*8; m.Nodes() != want {
		t.Errorf("Nodes() = %d, want %d", m.Nodes(), want)
	}
	for id := ID(1); id <= ID(m.Nodes()); id++ {
		tm, err := m.Term(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok, _ := m.Lookup(ctx, tm); !ok || got != id {
			t.Fatalf("Lookup(Term(%d) = %v) = %d, %v", id, tm, got, ok)
		}
		if m.IsLiteral(id) != (tm.Kind == KindLiteral) {
			t.Errorf("IsLiteral(%d) = %v for %v", id, m.IsLiteral(id), tm)
		}
	}
	for _, tm := range []Term{
		{},
		p, // a relation, not a node
		NewLiteral("700"),
		NewTyped("1", XSD+"double"),
		NewLangString("1", "de"),
		{Kind: KindLiteral, Value: "1", Lang: "ar", Dir: "ltr"},
		NewBlank("http://ex.org/1"),
		NewIRI("b1"),
	} {
		if id, ok, _ := m.Lookup(ctx, tm); ok {
			t.Errorf("Lookup(%v) = %d, want not found", tm, id)
		}
	}
	if _, err := m.Term(ctx, ID(m.Nodes()+1)); err == nil {
		t.Error("Term beyond Nodes() did not fail")
	}
}
