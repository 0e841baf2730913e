package pipeline

import (
	"fmt"
	"testing"

	"github.com/trawl-dev/trawl/align"
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
