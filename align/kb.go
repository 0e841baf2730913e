package align

import (
	"context"
	"iter"

	"github.com/trawl-dev/trawl/graph"
)

// The aligner reads knowledge bases through small interfaces, so that a backend
// implements what it can and each function asks for what it needs: Align reads KB1
// through Source and KB2 through Reference; the class pass, gold loading and the
// enrichment also need Taxonomy. KB is all of them, what both trawl KBs give: the
// in-memory graph of package graph (graph.Memory) and the Badger store of package
// ontology (ontology.Store).
//
// Node and relation identifiers are valid within one KB only. Implementations must be
// safe for concurrent use: the aligner reads with several goroutines.
//
// Taxonomy facts (rdf:type and rdfs:subClassOf) are not edges: PARIS does not use them as
// instance evidence, and a class can have millions of instances. They are read through
// Taxonomy.

// Dictionary maps nodes to RDF terms and back.
type Dictionary interface {
	// Term returns the RDF term of a node.
	Term(ctx context.Context, n graph.ID) (graph.Term, error)
	// Lookup returns the node of a term, and false if the KB does not have it.
	Lookup(ctx context.Context, t graph.Term) (graph.ID, bool, error)
	// IsLiteral reports whether n is a literal node.
	IsLiteral(n graph.ID) bool
}

// FactReader reads the facts of one node in both directions.
type FactReader interface {
	// Edges yields every fact of n in both directions (incoming facts with the inverse
	// relation), taxonomy facts excluded, each distinct fact once. An error ends the
	// sequence.
	Edges(ctx context.Context, n graph.ID) iter.Seq2[graph.Edge, error]
}

// BatchFactReader is implemented by a KB that reads the facts of many nodes faster
// together than one by one (a SPARQL endpoint answers one query for a batch). The
// aligner uses it when KB2 has it and otherwise calls Edges from several goroutines.
type BatchFactReader interface {
	// EdgesBatch calls fn once for each node of nodes, in any order, with the node's
	// index in nodes and the same edges Edges yields. The callback may be called from
	// several goroutines at once, and must not keep the slice. An error from fn ends the
	// batch and is returned.
	EdgesBatch(ctx context.Context, nodes []graph.ID, fn func(i int, edges []graph.Edge) error) error
}

// EntityLister enumerates the entities of a KB; Align needs it for KB1 only, which it
// reads completely.
type EntityLister interface {
	// Entities yields every node that is the subject of at least one non-taxonomy fact,
	// in increasing ID order.
	Entities(ctx context.Context) iter.Seq2[graph.ID, error]
}

// Schema describes the relations of a KB.
type Schema interface {
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
}

// LiteralMatcher finds the literals of a KB that match a text.
type LiteralMatcher interface {
	// Candidates returns up to k literal nodes that match text after normalisation:
	// exact matches first, then approximate ones (k-gram MinHash candidates re-scored by
	// Dice), best first, ties by the literals' canonical form (graph.MatchLiterals, the
	// semantics both KBs implement). Date literals also match the text of a date that
	// includes them or that they include (a year and its days; YAGO's '#' wildcards).
	Candidates(ctx context.Context, text string, k int) ([]graph.Candidate, error)
}

// BatchLiteralMatcher is implemented by a KB that looks many texts up faster together.
// The aligner uses it when KB2 has it and otherwise calls Candidates from several
// goroutines.
type BatchLiteralMatcher interface {
	// CandidatesBatch returns, for each text, what Candidates returns for it.
	CandidatesBatch(ctx context.Context, texts []string, k int) ([][]graph.Candidate, error)
}

// Taxonomy reads the rdf:type and rdfs:subClassOf facts.
type Taxonomy interface {
	// Types returns the classes of n (objects of its rdf:type facts).
	Types(ctx context.Context, n graph.ID) ([]graph.ID, error)
	// Instances yields the nodes with an rdf:type fact to class c, in increasing order.
	Instances(ctx context.Context, c graph.ID) iter.Seq2[graph.ID, error]
	// SuperClasses returns the direct superclasses of c (objects of rdfs:subClassOf).
	SuperClasses(ctx context.Context, c graph.ID) ([]graph.ID, error)
}

// Source is what Align reads from KB1, which it reads completely.
type Source interface {
	Dictionary
	FactReader
	EntityLister
	Schema
}

// Reference is what Align reads from KB2, of which it reads only the neighbourhood of
// KB1's literal candidates and of the equalities.
type Reference interface {
	Dictionary
	FactReader
	Schema
	LiteralMatcher
}

// KB is read access to a whole knowledge base: everything the aligner, the gold
// loader, the understanding and the enrichment read.
type KB interface {
	Source
	LiteralMatcher
	Taxonomy
}
