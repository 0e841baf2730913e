// Package graph is trawl's bottom RDF layer: terms and triples, a streaming N-Triples
// reader that reports every bad line with file:line and never panics, the canonical
// N-Triples writer (RDF 1.2 canonical form), the in-memory graph, and IRI minting and the
// vocabulary (VoID, PROV, XSD) of the labeled graph of a deep-web source, which package
// schema builds. graph imports no other trawl package but internal/* (scripts/lint.sh
// checks it).
//
// The shared vocabulary of knowledge-base views (node and relation identifiers, edges)
// also lives here, so that the in-memory graph and the Badger store of package ontology
// can both satisfy the aligner's KB interface.
package graph
