package align

import (
	"context"
	"iter"

	"github.com/trawl-dev/trawl/graph"
)

// KB is read access to one knowledge base, as PARIS needs it. The in-memory graph of
// package graph (graph.Memory) and the Badger store of package ontology
// (ontology.Store) both satisfy it. Node and relation identifiers are valid within one KB
// only.
//
// Taxonomy facts (rdf:type and rdfs:subClassOf) are not edges: PARIS does not use them as
// instance evidence, and a class can have millions of instances. They are read through
// Types, Instances and SuperClasses.
type KB interface {
	// Term returns the RDF term of a node.
	Term(ctx context.Context, n graph.ID) (graph.Term, error)
	// Lookup returns the node of a term, and false if the KB does not have it.
	Lookup(ctx context.Context, t graph.Term) (graph.ID, bool, error)
	// IsLiteral reports whether n is a literal node.
	IsLiteral(n graph.ID) bool

	// Edges yields every fact of n in both directions (incoming facts with the inverse
	// relation), taxonomy facts excluded, each distinct fact once. An error ends the
	// sequence.
	Edges(ctx context.Context, n graph.ID) iter.Seq2[graph.Edge, error]
	// Entities yields every node that is the subject of at least one non-taxonomy fact,
	// in increasing ID order.
	Entities(ctx context.Context) iter.Seq2[graph.ID, error]

	// Relations returns the forward relations of the KB (taxonomy relations excluded),
	// in increasing order.
	Relations() []graph.Rel
	// RelationIRI returns the IRI of the forward relation of r.
	RelationIRI(r graph.Rel) string
	// RelationID returns the forward relation with the given IRI.
	RelationID(iri string) (graph.Rel, bool)
	// Functionality returns PARIS's harmonic functionality of r: distinct subjects /
	// distinct facts for a forward relation; for an inverse relation, distinct objects /
	// distinct facts of its forward relation (the inverse functionality).
	Functionality(r graph.Rel) float64
	// FactCount returns the number of distinct facts of the forward relation of r.
	FactCount(r graph.Rel) int

	// Candidates returns up to k literal nodes that match text after normalisation:
	// exact matches first, then approximate ones (k-gram MinHash candidates re-scored by
	// Dice), best first, ties by the literals' canonical form (graph.MatchLiterals, the
	// semantics both KBs implement). Date literals also match the text of a date that
	// includes them or that they include (a year and its days; YAGO's '#' wildcards).
	Candidates(ctx context.Context, text string, k int) ([]graph.Candidate, error)

	// Types returns the classes of n (objects of its rdf:type facts).
	Types(ctx context.Context, n graph.ID) ([]graph.ID, error)
	// Instances yields the nodes with an rdf:type fact to class c, in increasing order.
	Instances(ctx context.Context, c graph.ID) iter.Seq2[graph.ID, error]
	// SuperClasses returns the direct superclasses of c (objects of rdfs:subClassOf).
	SuperClasses(ctx context.Context, c graph.ID) ([]graph.ID, error)
}
