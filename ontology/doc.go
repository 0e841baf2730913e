// Package ontology is the reference knowledge base on Badger: streaming loaders for
// N-Triples, YAGO 4.5-style Turtle and YAGO3 TSV (plain or gzipped), a term dictionary,
// fact indexes in both directions and per relation, the taxonomy (rdf:type,
// rdfs:subClassOf), per-relation functionalities computed at load, a literal index for
// candidate lookup (exact after normalisation and approximate by MinHash), and value
// sampling for ontology-guided probing. A small demo KB in YAGO 4.5 vocabulary is
// embedded in the binary.
//
// It is the only package that imports Badger.
package ontology
