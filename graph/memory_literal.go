package graph

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// The literal index of a Memory: exact lookup on the literal normal form
// (textnorm.Literal), date inclusion, and approximate lookup by MinHash locality-sensitive
// hashing on byte 2-gram shingles, re-scored by the exact multiset 2-gram Dice
// coefficient. This is the shingling index the thesis (Oita 2012, ch. 3 §3.6) asks for,
// with PARIS's parameters (30 MinHash functions); see docs/decisions for the band shape.

const (
	// ShingleK is the k of the byte k-grams of the approximate literal index and of the
	// Dice score of Candidate (2, as in the thesis prototype).
	ShingleK = 2
	// minHashes is the number of MinHash functions (PARIS: shinglingFunctions = 30).
	minHashes = 30
	// bandRows is the number of signature rows per LSH band: 10 bands of 3 rows make
	// a pair with Jaccard 0.64 (the Jaccard of 2-gram sets at Dice 0.78) a candidate
	// with probability 0.95, and one with Jaccard 0.3 with probability 0.24.
	bandRows = 3
	// MinApproxScore is the lowest Dice coefficient an approximate candidate can have.
	// The aligner applies its own, stricter threshold (PARIS: 0.78).
	MinApproxScore = 0.5
	// maxRescore bounds the number of distinct normal forms re-scored per lookup: those
	// sharing the most bands with the text, as the Badger store does (with 128, which
	// loses recall among crowded phone numbers: TestCandidatesCrowded).
	maxRescore = 512
	// maxBandBucket is the largest band bucket a lookup reads. A larger one holds a
	// band common to a large part of the index (the 2-grams of digit strings such as
	// phone numbers) and tells little; without the bound the cost of a lookup would grow
	// with the index, and an alignment's with the square of its size.
	maxBandBucket = 1024
)

type literalIndex struct {
	exact   map[string][]ID // normal form → literal nodes, increasing
	forms   []string        // distinct normal forms of string literals
	formIDs [][]ID          // the literal nodes of each form: exact[forms[f]]
	gramOff []int32         // grams of form f are grams[gramOff[f]:gramOff[f+1]]
	grams   []uint32        // sorted 2-gram codes of each form (see bigrams)
	formID  map[string]int32
	bands   map[uint64][]int32 // band key → forms
	hits    sync.Pool          // *[]uint8 of len(forms), all 0: band hits of a lookup
	years   map[int][]datedID  // dates with a known year
	wild    []datedID          // dates whose year has unknown digits
	mh      *textnorm.MinHash
}

type datedID struct {
	d  Date
	id ID
}

func (m *Memory) literalIndex() *literalIndex {
	m.litOnce.Do(func() {
		ix := &literalIndex{
			exact:  map[string][]ID{},
			formID: map[string]int32{},
			bands:  map[uint64][]int32{},
			years:  map[int][]datedID{},
			mh:     textnorm.NewMinHash(minHashes),
		}
		for id := 1; id < len(m.terms); id++ {
			t := m.terms[id]
			if t.Kind != KindLiteral || m.off[id] == m.off[id+1] {
				continue
			}
			if d, ok := ParseDate(t.Value); ok {
				if y, ok := d.Year(); ok {
					ix.years[y] = append(ix.years[y], datedID{d, ID(id)})
				} else {
					ix.wild = append(ix.wild, datedID{d, ID(id)})
				}
			}
			norm := textnorm.Literal(t.Value)
			if norm == "" {
				continue
			}
			ix.exact[norm] = append(ix.exact[norm], ID(id))
			if !IsStringLiteral(t) {
				continue
			}
			if _, ok := ix.formID[norm]; ok {
				continue
			}
			f := int32(len(ix.forms))
			ix.forms = append(ix.forms, norm)
			ix.formID[norm] = f
			ix.gramOff = append(ix.gramOff, int32(len(ix.grams)))
			ix.grams = bigrams(ix.grams, norm)
			for _, k := range textnorm.Bands(ix.mh.Signature(textnorm.Shingles(norm, ShingleK)), bandRows) {
				ix.bands[k] = append(ix.bands[k], f)
			}
		}
		ix.gramOff = append(ix.gramOff, int32(len(ix.grams)))
		ix.formIDs = make([][]ID, len(ix.forms))
		for f, form := range ix.forms {
			ix.formIDs[f] = ix.exact[form]
		}
		nForms := len(ix.forms)
		ix.hits.New = func() any {
			h := make([]uint8, nForms)
			return &h
		}
		m.lit = ix
	})
	return m.lit
}

// IsStringLiteral reports whether t is a literal whose text is a string to compare
// approximately: a simple or language-tagged literal that does not read as a number or
// a date. Numbers and dates are only ever matched exactly (or dates by inclusion).
func IsStringLiteral(t Term) bool {
	if t.Kind != KindLiteral || (t.Datatype != "" && t.Datatype != LangString) {
		return false
	}
	return !looksNumeric(t.Value)
}

func looksNumeric(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	_, ok := ParseDate(s)
	return ok
}

// Candidates returns up to k literal nodes that match text: the exact matches (equal
// textnorm.Literal normal form, or, for a date, inclusion in either direction), by
// increasing ID; if there is none, approximate matches of string texts (MinHash
// candidates with a 2-gram Dice coefficient of at least MinApproxScore), best first,
// ties by increasing ID. Like PARIS (noApproxIfExact) and the aligner's LiteralMatcher
// contract, it looks for approximate matches only when no literal matches exactly.
// Text without letters or digits matches nothing.
func (m *Memory) Candidates(ctx context.Context, text string, k int) ([]Candidate, error) {
	if k <= 0 {
		return nil, nil
	}
	ix := m.literalIndex()
	norm := textnorm.Literal(text)
	var out []Candidate
	if norm != "" {
		for _, id := range ix.exact[norm] {
			out = append(out, Candidate{Node: id, Exact: true, Score: 1})
		}
	}
	if d, ok := ParseDate(strings.TrimSpace(text)); ok {
		seen := make(map[ID]bool, len(out))
		for _, c := range out {
			seen[c.Node] = true
		}
		var dated []ID
		check := func(list []datedID) {
			for _, x := range list {
				if !seen[x.id] && d.Overlaps(x.d) {
					dated = append(dated, x.id)
					seen[x.id] = true
				}
			}
		}
		if y, ok := d.Year(); ok {
			check(ix.years[y])
		} else {
			for _, y := range sortedKeys(ix.years) {
				check(ix.years[y])
			}
		}
		check(ix.wild)
		out = append(out, idsAsExact(dated)...)
	}
	slices.SortFunc(out, func(a, b Candidate) int { return cmp.Compare(a.Node, b.Node) })
	if len(out) > 0 {
		return out[:min(k, len(out))], nil
	}
	if norm == "" || looksNumeric(text) {
		return out, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var approx []Candidate
	q := bigrams(nil, norm)
	for _, f := range ix.bandCandidates(norm) {
		d := dice(q, ix.grams[ix.gramOff[f]:ix.gramOff[f+1]])
		if d < MinApproxScore {
			continue
		}
		d = min(d, 0.999999) // distinct normal forms are never an exact match
		for _, id := range ix.formIDs[f] {
			approx = append(approx, Candidate{Node: id, Score: d})
		}
	}
	slices.SortFunc(approx, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Node, b.Node))
	})
	out = append(out, approx...)
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}

// bandCandidates returns the normal forms other than norm that share a MinHash band
// with it, at most maxRescore of them: those sharing the most bands, ties by the order
// in which the bands find them. Band buckets larger than maxBandBucket are not read. The
// cost is linear in the bucket entries read: hits are counted in a pooled array, not
// sorted.
func (ix *literalIndex) bandCandidates(norm string) []int32 {
	self, hasSelf := ix.formID[norm]
	var buckets [minHashes / bandRows][]int32
	n := 0
	for i, key := range textnorm.Bands(ix.mh.Signature(textnorm.Shingles(norm, ShingleK)), bandRows) {
		if b := ix.bands[key]; len(b) <= maxBandBucket {
			buckets[i] = b
			n += len(b)
		}
	}
	hp := ix.hits.Get().(*[]uint8)
	hits := *hp
	forms := make([]int32, 0, n)
	for _, b := range buckets {
		for _, f := range b {
			if hits[f] == 0 && (!hasSelf || f != self) {
				forms = append(forms, f)
			}
			hits[f]++
		}
	}
	defer func() {
		for _, b := range buckets {
			for _, f := range b {
				hits[f] = 0
			}
		}
		ix.hits.Put(hp)
	}()
	if len(forms) <= maxRescore {
		return forms
	}
	// Every form above the cut-off count of bands, then the first ones at it.
	var count [minHashes/bandRows + 1]int
	for _, f := range forms {
		count[hits[f]]++
	}
	cut, above := len(count)-1, 0
	for ; cut > 0 && above+count[cut] < maxRescore; cut-- {
		above += count[cut]
	}
	room := maxRescore - above
	kept := forms[:0]
	for _, f := range forms {
		switch h := int(hits[f]); {
		case h > cut:
			kept = append(kept, f)
		case h == cut && room > 0:
			kept = append(kept, f)
			room--
		}
	}
	return kept
}

func idsAsExact(ids []ID) []Candidate {
	out := make([]Candidate, len(ids))
	for i, id := range ids {
		out[i] = Candidate{Node: id, Exact: true, Score: 1}
	}
	return out
}

func sortedKeys(m map[int][]datedID) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// bigrams appends the sorted byte 2-grams of s to dst, each coded as a uint32
// (1<<16 | b0<<8 | b1); a string of one byte is its own single gram (the byte itself),
// as in textnorm.KGrams.
func bigrams(dst []uint32, s string) []uint32 {
	start := len(dst)
	if len(s) < ShingleK {
		if s != "" {
			dst = append(dst, uint32(s[0]))
		}
		return dst
	}
	for i := 0; i+1 < len(s); i++ {
		dst = append(dst, 1<<16|uint32(s[i])<<8|uint32(s[i+1]))
	}
	slices.Sort(dst[start:])
	return dst
}

// dice returns the multiset Dice coefficient of two sorted gram lists:
// 2·|common| / (|a| + |b|), equal to textnorm.Dice with k = 2. It returns 0 early when
// the lengths alone keep it below MinApproxScore.
func dice(a, b []uint32) float64 {
	na, nb := len(a), len(b)
	if na == 0 || nb == 0 || 2*float64(min(na, nb))/float64(na+nb) < MinApproxScore {
		return 0
	}
	common := 0
	for i, j := 0, 0; i < na && j < nb; {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(na+nb)
}
