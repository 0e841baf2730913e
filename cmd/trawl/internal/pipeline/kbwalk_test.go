package pipeline

import (
	"fmt"
	"testing"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
)

// TestGuidedPlanValues checks kbValues on the demo KB: book titles from instances of
// schema:Book, author names through schema:author / rdfs:label.
func TestGuidedPlanValues(t *testing.T) {
	p := New(DefaultOptions(), nil)
	defer p.Close()
	kb, err := p.reference(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	path, ok := align.ParsePathName(kb, "http://schema.org/author / http://www.w3.org/2000/01/rdf-schema#label")
	if !ok {
		t.Fatal("the demo KB lacks schema:author or rdfs:label")
	}
	vals, err := kbValues(t.Context(), kb, "http://schema.org/Book", path, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) < 5 {
		t.Fatalf("%d author names from 20 books: %v", len(vals), vals)
	}
	again, _ := kbValues(t.Context(), kb, "http://schema.org/Book", path, 20, nil)
	if fmt.Sprint(vals) != fmt.Sprint(again) {
		t.Error("kbValues is not deterministic")
	}
}

// TestGuidedPlanValuesThroughSubclasses: the KB's books are typed schema:Book; a record
// class aligned to schema:CreativeWork must still find them (issue 15: the guided
// rounds silently never ran because membership looked at direct types only), in the
// Badger store (SubClasses) and in an in-memory KB (Classes and SuperClasses).
func TestGuidedPlanValuesThroughSubclasses(t *testing.T) {
	p := New(DefaultOptions(), nil)
	defer p.Close()
	store, err := p.reference(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	mem, err := graph.NewMemory([]graph.Triple{
		{S: graph.NewIRI("http://kb.example/b1"), P: graph.NewIRI(graph.RDFType), O: graph.NewIRI("http://schema.org/Book")},
		{S: graph.NewIRI("http://kb.example/b1"), P: graph.NewIRI(graph.RDFSLabel), O: graph.NewLiteral("Emma")},
		{S: graph.NewIRI("http://kb.example/f1"), P: graph.NewIRI(graph.RDFType), O: graph.NewIRI("http://kb.example/Film")},
		{S: graph.NewIRI("http://kb.example/f1"), P: graph.NewIRI(graph.RDFSLabel), O: graph.NewLiteral("Vertigo")},
		{S: graph.NewIRI("http://kb.example/Film"), P: graph.NewIRI(graph.RDFS + "subClassOf"), O: graph.NewIRI("http://schema.org/CreativeWork")},
		{S: graph.NewIRI("http://schema.org/Book"), P: graph.NewIRI(graph.RDFS + "subClassOf"), O: graph.NewIRI("http://schema.org/CreativeWork")},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, kb := range []align.KB{store, mem} {
		path, ok := align.ParsePathName(kb, graph.RDFSLabel)
		if !ok {
			t.Fatal("no rdfs:label")
		}
		vals, err := kbValues(t.Context(), kb, "http://schema.org/CreativeWork", path, 20, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(vals) < 2 {
			t.Errorf("%T: %d labels of creative works (books and films are subclasses): %v", kb, len(vals), vals)
		}
	}
}
