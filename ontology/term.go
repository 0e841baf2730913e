package ontology

import "github.com/trawl-dev/trawl/graph"

// Node identifiers are the hash identifiers of package graph (graph.TermHashID): 63-bit
// hashes of the terms' encodings, with the top bit set for literals. A hash needs no
// dictionary lookup while loading (so parsing runs in parallel and the dictionary never
// has to fit in memory); the loader detects the rare collision by comparing the stored
// terms, and a salt (LoadOptions.IDSalt) changes every hash when one happens.
const literalBit = graph.LiteralIDBit

// isLiteralID reports whether n is the identifier of a literal.
func isLiteralID(n graph.ID) bool { return uint64(n)&literalBit != 0 }

// termID returns the node identifier of t, using buf as scratch space.
func termID(t graph.Term, salt uint64, buf []byte) (graph.ID, []byte) {
	return graph.TermHashID(t, salt, buf)
}
