// Package sparql reads a knowledge base through a SPARQL 1.1 endpoint (the SPARQL 1.1
// Protocol, results in application/sparql-results+json) and gives the aligner the same
// KB interface as the Badger store of package ontology and the in-memory graph of package
// graph, so that trawl can align with an ontology kept in a triple store (Virtuoso,
// Fuseki, GraphDB, a public endpoint such as Wikidata's or DBpedia's).
//
// What it asks the endpoint:
//   - the relations with their fact, subject and object counts, once, by one GROUP BY
//     query (PARIS's functionalities); the answer is kept in a cache file (Options.Cache)
//     so that later runs against the same endpoint and graph ask nothing;
//   - the facts of the nodes the aligner reads, in both directions, batched in VALUES
//     queries of Options.Batch nodes;
//   - rdf:type and rdfs:subClassOf facts of the classes and instances it reads;
//   - the literals of the KB, once, page by page, to build the literal index of
//     graph.MatchLiterals (the same candidates as the other KBs, exactly); for an
//     endpoint with more literals than Options.MaxLiterals the lookup is an exact
//     match of the text's lexical variants instead (Options.Literals).
//
// Every request has a timeout (Options.Timeout) and is retried (Options.Retries, with
// a growing pause) when the endpoint is unreachable, times out or answers 429, 502, 503
// or 504; a refused
// query (4xx) is an error that names the endpoint, the HTTP status and the endpoint's
// message. Node and relation identifiers are valid within one KB value; blank nodes of
// the endpoint cannot be followed (SPARQL gives no stable label for them) and have no
// facts.
package sparql
