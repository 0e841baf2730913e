package ontology

// The literal index of the store: the graph.LiteralIndex of graph.MatchLiterals, in
// Badger. Which literals are indexed and how (normal forms, classes, MinHash bands,
// dates) is defined once in package graph, so that a Store and a graph.Memory holding
// the same data answer Candidates identically. Here:
//   - 'L' buckets hold the exact index: entries (FormHash, normal form, literal ids),
//     sorted by hash, a bucket being the top bits of the hash;
//   - 'K' buckets hold the LSH bands: entries (band key, FormHash), sorted;
//   - 'A' keys hold the date literals by year pattern: entries (id, packed date).

// bucketOf returns the top bits of a hash: the bucket of the 'L' and 'K' indexes.
func bucketOf(h uint64, bits uint) uint32 { return uint32(h >> (64 - bits)) }

// bucketBits chooses the number of bucket bits for n entries, aiming at about 16
// entries per bucket.
func bucketBits(n int64) uint {
	b := uint(4)
	for b < 28 && int64(1)<<b*16 < n {
		b++
	}
	return b
}
