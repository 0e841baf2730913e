package textnorm

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/cespare/xxhash/v2"
)

// KGrams returns the byte k-grams of s as a multiset (k-gram → count). A string shorter
// than k is its own single gram, so short literals still compare.
func KGrams(s string, k int) map[string]int {
	m := make(map[string]int, max(len(s)-k+1, 1))
	if s == "" {
		return m
	}
	if len(s) < k {
		m[s] = 1
		return m
	}
	for i := 0; i+k <= len(s); i++ {
		m[s[i:i+k]]++
	}
	return m
}

// Dice returns the multiset k-gram Dice coefficient of a and b:
// 2·|common k-grams| / (|kgrams(a)| + |kgrams(b)|), computed on the bytes as given (the
// caller normalises first). Two empty strings score 0.
func Dice(a, b string, k int) float64 {
	if a == "" || b == "" {
		return 0
	}
	if a == b {
		return 1
	}
	ga := KGrams(a, k)
	na := 0
	for _, c := range ga {
		na += c
	}
	nb, common := 0, 0
	if len(b) < k {
		nb = 1
		if ga[b] > 0 {
			common = 1
		}
	} else {
		for i := 0; i+k <= len(b); i++ {
			g := b[i : i+k]
			nb++
			if ga[g] > 0 {
				ga[g]--
				common++
			}
		}
	}
	return 2 * float64(common) / float64(na+nb)
}

// Shingles returns the distinct 64-bit hashes of the byte k-grams of s, sorted. They are
// the set on which MinHash estimates Jaccard similarity.
func Shingles(s string, k int) []uint64 {
	if s == "" {
		return nil
	}
	if len(s) < k {
		return []uint64{xxhash.Sum64String(s)}
	}
	hs := make([]uint64, 0, len(s)-k+1)
	for i := 0; i+k <= len(s); i++ {
		hs = append(hs, xxhash.Sum64String(s[i:i+k]))
	}
	slices.Sort(hs)
	return slices.Compact(hs)
}

// MinHash computes fixed-seed MinHash signatures, so that signatures written by one
// process (an index on disk) compare with those of another.
type MinHash struct {
	seeds []uint64
}

// NewMinHash returns a MinHash with n hash functions derived from fixed seeds.
func NewMinHash(n int) *MinHash {
	m := &MinHash{seeds: make([]uint64, n)}
	var buf [8]byte
	for i := range m.seeds {
		binary.LittleEndian.PutUint64(buf[:], uint64(i)*0x9E3779B97F4A7C15+1)
		m.seeds[i] = xxhash.Sum64(buf[:]) | 1
	}
	return m
}

// Len returns the number of hash functions.
func (m *MinHash) Len() int { return len(m.seeds) }

// Signature returns, for each hash function, the minimum over the shingles. An empty
// shingle set gives nil.
func (m *MinHash) Signature(shingles []uint64) []uint64 {
	if len(shingles) == 0 {
		return nil
	}
	sig := make([]uint64, len(m.seeds))
	for i := range sig {
		sig[i] = math.MaxUint64
	}
	for _, h := range shingles {
		for i, seed := range m.seeds {
			if v := mix(h ^ seed); v < sig[i] {
				sig[i] = v
			}
		}
	}
	return sig
}

// Similarity estimates the Jaccard similarity of two sets from their signatures.
func Similarity(a, b []uint64) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	eq := 0
	for i := range a {
		if a[i] == b[i] {
			eq++
		}
	}
	return float64(eq) / float64(len(a))
}

// Bands splits a signature into bands of r rows and hashes each band to one key, for
// locality-sensitive hashing: two sets share at least one band key with probability
// 1 − (1 − J^r)^(len/r). Band i's key has the band number mixed in.
func Bands(sig []uint64, r int) []uint64 {
	if r <= 0 || len(sig) == 0 {
		return nil
	}
	keys := make([]uint64, 0, (len(sig)+r-1)/r)
	var buf [8]byte
	for b := 0; b*r < len(sig); b++ {
		d := xxhash.New()
		binary.LittleEndian.PutUint64(buf[:], uint64(b))
		_, _ = d.Write(buf[:])
		for _, v := range sig[b*r : min((b+1)*r, len(sig))] {
			binary.LittleEndian.PutUint64(buf[:], v)
			_, _ = d.Write(buf[:])
		}
		keys = append(keys, d.Sum64())
	}
	return keys
}

// mix is the splitmix64 finaliser: a cheap, well-distributed permutation of uint64.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
