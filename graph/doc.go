// Package graph is trawl's bottom RDF layer: terms and triples, a streaming N-Triples
// reader that reports every bad line with file:line and never panics, the canonical
// N-Triples writer (RDF 1.2 canonical form), the in-memory graph, IRI minting for the
// labeled graph of a deep-web source (one entity per record, one literal per attribute
// value) and its VoID/PROV description.
//
// The shared vocabulary of knowledge-base views (node and relation identifiers, edges)
// also lives here, so that the in-memory graph and the Badger store of package ontology
// can both satisfy the aligner's KB interface.
package graph
