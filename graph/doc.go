// Package graph is trawl's bottom RDF layer: terms and triples, and the one RDF syntax
// layer of the code base. It holds the lexical rules that both RDF syntaxes share (IRIs,
// string escapes, literals, language tags with direction, blank node labels; lex.go),
// a streaming N-Triples reader that reports every bad line with file:line:col and never
// panics, a streaming Turtle parser (RDF 1.1 and the RDF 1.2 triple terms, reifiers and
// annotations) built on the same rules, RFC 3986 IRI resolution, the canonical
// N-Triples writer (RDF 1.2 canonical form), the in-memory graph, IRI minting for the
// labeled graph of a deep-web source (one entity per record, one literal per attribute
// value) and its VoID/PROV description.
//
// It also defines how literals match, for every knowledge base: the date type (Date,
// with YAGO's '#' wildcards and three-digit years, matched by inclusion), the literal
// classes and normal forms, and the candidate lookup (exact normal form, dates,
// approximate MinHash candidates re-scored by Dice) that both the in-memory graph and
// the Badger store of package ontology run over their own indexes.
//
// The shared vocabulary of knowledge-base views (node and relation identifiers, edges)
// also lives here, so that the in-memory graph and the Badger store of package ontology
// can both satisfy the aligner's KB interface.
package graph
