package ontology

import (
	"math/bits"
	"sync"
)

// Records of the external sort are arrays of uint64 words, ordered by their words in
// order. They are sorted by a most-significant-digit radix sort over all the words (8
// bits at a time, starting each bucket at the highest byte in which its records
// differ, so that digits every record shares cost nothing; moving records between the
// buffer and a scratch buffer without copying back), with an insertion sort for small
// buckets. Node identifiers are uniform hashes, so two passes usually leave buckets of
// a few dozen records; records with an equal first word (the facts of a frequent
// object) go on to the next word instead of falling back to a comparison sort.

type rec2 = [2]uint64
type rec3 = [3]uint64

const smallSort = 32

// sortWords sorts rs; tmp, if long enough, is scratch space. A large buffer is sorted
// by two goroutines: after the first pass its buckets are independent.
func sortWords[R words](rs, tmp []R) {
	if len(tmp) < len(rs) {
		tmp = make([]R, len(rs))
	}
	radixSort(rs, tmp[:len(rs)], 0, 56, false, len(rs) >= parallelSort)
}

// parallelSort is the size from which sortWords splits the work in two.
const parallelSort = 1 << 16

// radixSort sorts the records of x, which agree on the words before w and on the bits
// of word w above byte top (a shift, 56 for a fresh word), leaving the result in x (or,
// with toOther, in y); the other slice is scratch. With split, the buckets of the first
// pass are shared between this goroutine and another one, in two groups of about the
// same number of records.
func radixSort[R words](x, y []R, w int, top uint, toOther, split bool) {
	var r R
	for {
		if len(x) <= smallSort || w == len(r) {
			insertionSort(x, w) // (a small or all-equal buffer needs no second goroutine)
			if toOther {
				copy(y, x)
			}
			return
		}
		// Start at the highest byte (at or below top) in which the records differ.
		mask := ^uint64(0) >> (56 - top)
		first, diff := x[0][w], uint64(0)
		for i := range x {
			diff |= (x[i][w] ^ first) & mask
		}
		if diff != 0 {
			top = uint(63-bits.LeadingZeros64(diff)) &^ 7
			break
		}
		w, top = w+1, 56
	}
	var count [256]int
	for i := range x {
		count[byte(x[i][w]>>top)]++
	}
	var pos [256]int
	sum := 0
	for d, c := range count {
		pos[d] = sum
		sum += c
	}
	for i := range x {
		d := byte(x[i][w] >> top)
		y[pos[d]] = x[i]
		pos[d]++
	}
	// The buckets are in y: sort each, bringing the result back to x (or leaving it in
	// y).
	if !split {
		sortBuckets(x, y, count[:], 0, w, top, toOther)
		return
	}
	shared := count // a copy on the heap for the second goroutine, made only here
	d, half := 0, 0
	for ; d < len(shared) && half < len(x)/2; d++ {
		half += shared[d]
	}
	var wg sync.WaitGroup
	wg.Go(func() { sortBuckets(x, y, shared[:d], 0, w, top, toOther) })
	sortBuckets(x, y, shared[d:], half, w, top, toOther)
	wg.Wait()
}

// sortBuckets sorts the buckets of y whose sizes are count, the first starting at
// start, after a radix pass on byte top of word w (see radixSort).
func sortBuckets[R words](x, y []R, count []int, start, w int, top uint, toOther bool) {
	for _, c := range count {
		if c == 0 {
			continue
		}
		a, b := y[start:start+c], x[start:start+c]
		if top == 0 {
			radixSort(a, b, w+1, 56, !toOther, false)
		} else {
			radixSort(a, b, w, top-8, !toOther, false)
		}
		start += c
	}
}

// insertionSort sorts a small bucket whose records agree on the words before w.
func insertionSort[R words](x []R, w int) {
	for i := 1; i < len(x); i++ {
		v := x[i]
		j := i
		for j > 0 && lessFrom(v, x[j-1], w) {
			x[j] = x[j-1]
			j--
		}
		x[j] = v
	}
}

func lessFrom[R words](a, b R, w int) bool {
	for ; w < len(a); w++ {
		if a[w] != b[w] {
			return a[w] < b[w]
		}
	}
	return false
}
