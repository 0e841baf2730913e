// Package align aligns two knowledge bases with the PARIS model: instance equivalence,
// relation subsumption (with joins of length two) and class subsumption, computed
// iteratively from literal anchors and relation functionalities. It also writes the
// alignment (TSV, the OAEI Alignment format, owl:sameAs links) and the enrichment of the
// reference ontology.
//
// It reads knowledge bases through the small KB interface defined here, which both the
// in-memory graph of package graph and the Badger store of package ontology satisfy.
//
// Reference: F. M. Suchanek, S. Abiteboul, P. Senellart, "PARIS: Probabilistic Alignment
// of Relations, Instances, and Schema", PVLDB 5(3), 2011. Behaviour where the paper is
// silent follows the reference code's v0.3 semantics as described in docs/decisions.
package align
