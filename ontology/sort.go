package ontology

import (
	"cmp"
	"slices"
)

// Records of the external sort are arrays of uint64 words, ordered by their words in
// order. They are sorted by a most-significant-digit radix sort on the first word (8
// bits at a time, skipping digits that all records share, moving records between the
// buffer and a scratch buffer without copying back), with a comparison sort for small
// buckets. Node identifiers are uniform hashes, so two passes usually leave buckets of
// a few dozen records.

type rec2 = [2]uint64
type rec3 = [3]uint64

func cmpWords[R words](a, b R) int {
	for i := 0; i < len(a); i++ {
		if c := cmp.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func cmp2(a, b rec2) int { return cmpWords(a, b) }
func cmp3(a, b rec3) int { return cmpWords(a, b) }

const smallSort = 48

// sortWords sorts rs; tmp, if long enough, is scratch space.
func sortWords[R words](rs, tmp []R) {
	if len(tmp) < len(rs) {
		tmp = make([]R, len(rs))
	}
	sortKeep(rs, tmp[:len(rs)], 56)
}

// sortKeep sorts x in place, with y as scratch.
func sortKeep[R words](x, y []R, shift int) {
	for {
		if len(x) <= smallSort || shift < 0 {
			slices.SortFunc(x, cmpWords[R])
			return
		}
		count, ok := histogram(x, shift)
		if ok {
			scatter(x, y, shift, &count)
			recurse(y, x, shift, &count, false)
			return
		}
		shift -= 8
	}
}

// sortMove sorts the records of y into x, with y as scratch.
func sortMove[R words](y, x []R, shift int) {
	for {
		if len(y) <= smallSort || shift < 0 {
			copy(x, y)
			slices.SortFunc(x, cmpWords[R])
			return
		}
		count, ok := histogram(y, shift)
		if ok {
			scatter(y, x, shift, &count)
			recurse(x, y, shift, &count, true)
			return
		}
		shift -= 8
	}
}

// histogram counts the records per digit; ok is false if they all share one digit.
func histogram[R words](rs []R, shift int) (count [256]int, ok bool) {
	s := uint(shift)
	for i := range rs {
		count[byte(rs[i][0]>>s)]++
	}
	for _, c := range count {
		if c != 0 {
			return count, c != len(rs)
		}
	}
	return count, false
}

func scatter[R words](from, to []R, shift int, count *[256]int) {
	var pos [256]int
	sum := 0
	for d, c := range count {
		pos[d] = sum
		sum += c
	}
	s := uint(shift)
	for i := range from {
		d := byte(from[i][0] >> s)
		to[pos[d]] = from[i]
		pos[d]++
	}
}

// recurse sorts each bucket of the scattered records, leaving the results in
// scattered (resultInScattered) or in other.
func recurse[R words](scattered, other []R, shift int, count *[256]int, resultInScattered bool) {
	start := 0
	for _, c := range count {
		if c == 0 {
			continue
		}
		a, b := scattered[start:start+c], other[start:start+c]
		if resultInScattered {
			sortKeep(a, b, shift-8)
		} else {
			sortMove(a, b, shift-8)
		}
		start += c
	}
}

// psoKey builds the PSO record of (s, p, o): its first word combines the predicate with
// the top bits of the subject, so that the radix sort spreads a relation's facts.
func psoKey(s, p, o uint64) rec3 { return rec3{p<<40 | s>>24, s, o} }

// psoPred returns the predicate index of a PSO record.
func psoPred(r rec3) uint64 { return r[0] >> 40 }
