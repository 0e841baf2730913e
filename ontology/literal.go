package ontology

import (
	"github.com/cespare/xxhash/v2"
	"github.com/trawl-dev/trawl/graph"
)

// The literal index. Every literal gets a normal form (textnorm.Literal: folded case
// and accents, no punctuation, stop words or bracketed parts, so that
// "Hamlet (French Edition)" and "hamlet" are the same). Literals are found:
//   - exactly, by the hash of the normal form (the 'L' buckets);
//   - approximately, for strings only, by MinHash locality-sensitive hashing of the byte
//     k-gram shingles of the normal form (the 'K' buckets), each candidate then
//     re-scored with the multiset 2-gram Dice coefficient, as PARIS's shingling does;
//   - as dates, by year (the 'A' index), with date inclusion for YAGO's '#' wildcards.
//
// Reference for the shingling scheme: F. M. Suchanek, S. Abiteboul, P. Senellart,
// "PARIS", PVLDB 5(3), 2011, and the shingling table of its v0.3 code as described in
// the project's design notes (k-gram shingles, MinHash, Dice re-scoring); LSH banding
// follows A. Rajaraman, J. Ullman, "Mining of Massive Datasets", ch. 3.4.
const (
	// shingleK is the k of the shingles hashed by MinHash. Trigrams keep the shingle
	// vocabulary large enough that band buckets stay small; the re-scoring uses 2-grams.
	shingleK = 3
	// minHashes and bandRows: 16 hash functions in 8 bands of 2 rows. Two strings share
	// a band with probability 1 − (1 − J²)⁸: 0.94 at a trigram Jaccard of 0.55 (one
	// changed letter in a ten-letter word), 0.52 at 0.3.
	minHashes = 16
	bandRows  = 2
	numBands  = minHashes / bandRows
	// diceK is the k of the Dice re-scoring (graph.Candidate documents 2-grams).
	diceK = 2
	// maxExactLen bounds the normal forms put in the exact index (longer literals are
	// descriptions, not names); maxApproxLen bounds those put in the approximate one.
	maxExactLen  = 512
	maxApproxLen = 160
)

// minHashSeeds are the fixed odd multipliers and offsets of the MinHash functions
// h_i(x) = a_i·x + b_i (mod 2⁶⁴) over the 64-bit hashes x of the shingles. They are
// part of the index format (LayoutVersion).
var minHashSeeds = func() (s [minHashes][2]uint64) {
	x := uint64(0x7472_6177_6c21) // "trawl!"
	for i := range s {
		x += 0x9E3779B97F4A7C15
		s[i][0] = mix64(x) | 1
		x += 0x9E3779B97F4A7C15
		s[i][1] = mix64(x)
	}
	return s
}()

// stringTypes are the datatypes of literals that are matched approximately.
var stringTypes = map[string]bool{
	"":               true, // xsd:string
	graph.LangString: true,
	graph.DirLangStr: true,
}

// literalKind says how a literal is indexed.
type literalKind int

const (
	litOther  literalKind = iota // exact index only (numbers, codes, typed values)
	litString                    // exact and approximate
	litDate                      // the date index
)

func kindOf(t graph.Term) literalKind {
	if graph.DateTypes[t.Datatype] {
		if _, ok := graph.DateOf(t); ok {
			return litDate
		}
		return litOther
	}
	if t.Lang != "" || stringTypes[t.Datatype] {
		return litString
	}
	return litOther
}

// normHash is the hash of a normal form, the key of the exact index.
func normHash(norm string) uint64 { return xxhash.Sum64String(norm) }

// bandKeys returns the LSH band keys of a normal form: the MinHash signature of its
// byte k-gram shingles (a string shorter than k is one shingle), cut into bands of
// bandRows values, each band hashed with its number.
func bandKeys(norm string) []uint64 {
	if norm == "" {
		return nil
	}
	var sig [minHashes]uint64
	for i := range sig {
		sig[i] = 1<<64 - 1
	}
	shingle := func(x uint64) {
		x = mix64(x)
		for i, ab := range minHashSeeds {
			if v := ab[0]*x + ab[1]; v < sig[i] {
				sig[i] = v
			}
		}
	}
	if len(norm) < shingleK {
		shingle(packBytes(norm))
	} else {
		for i := 0; i+shingleK <= len(norm); i++ {
			shingle(packBytes(norm[i : i+shingleK]))
		}
	}
	keys := make([]uint64, numBands)
	for b := range keys {
		h := uint64(b+1) * 0x9E3779B97F4A7C15
		for _, v := range sig[b*bandRows : (b+1)*bandRows] {
			h = mix64(h ^ v)
		}
		keys[b] = h
	}
	return keys
}

// packBytes packs up to 7 bytes and the length into a uint64.
func packBytes(s string) uint64 {
	x := uint64(len(s))
	for i := 0; i < len(s); i++ {
		x = x<<8 | uint64(s[i])
	}
	return x
}

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
