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
	return bitsFor(n, 16)
}

// bandBucketBits chooses the number of 'K' bucket bits for n band records, aiming at
// about 64 per bucket: n counts every record the parse produced, before duplicates
// and the band keys with more than graph.MaxBandPostings postings are dropped, so
// that 16 (layout 2) left half of the 5M load's 554k buckets with at most three
// entries. A reader binary-searches a bucket, so its size costs little; each key
// costs the load a Badger decode, copy and index entry.
func bandBucketBits(n int64) uint { return bitsFor(n, 64) }

// nodeBucketBits chooses the number of 'N' bucket bits for about n nodes (n may
// count a term more than once), aiming at about nodeBucketNodes per bucket. The top
// bit of a bucket is the literal bit of its nodes' ids.
func nodeBucketBits(n int64) uint { return bitsFor(n, nodeBucketNodes) }

// bitsFor returns the bits (4 to 28) of a bucket number for about per entries per
// bucket of n.
func bitsFor(n, per int64) uint {
	b := uint(4)
	for b < 28 && int64(1)<<b*per < n {
		b++
	}
	return b
}
