package graph

import (
	"hash/maphash"
	"math/bits"
	"strings"
)

// termTable is graph.Memory's table of terms once it is built: the terms by ID and the
// ID of each term, laid out so that the garbage collector has almost nothing to scan.
// A table of 72-byte terms (four strings each) and a map keyed by them are millions of
// pointers that the collector marks at every cycle although they never change.
//
// The values of all terms are one string (text), term i's value being
// text[ends[i-1]:ends[i]]; the datatype, language and direction, which few distinct
// combinations take, are an index into a small table (extras, 0 for none); the kind is
// a byte. Lookup by term is open addressing on a 64-bit hash of the term: a slot holds
// the hash's upper 32 bits and the ID, so a probe compares terms only when those bits
// match. Term 0 is the zero term, as in the builder.
type termTable struct {
	kinds  []Kind   // by ID
	ends   []int    // by ID: the value of term i ends at ends[i] in text (ends[0] = 0)
	extra  []uint32 // by ID: index into extras
	text   string
	extras []termExtra // extras[0] is the empty combination

	seed  maphash.Seed
	slots []uint64 // hash>>32<<32 | ID; 0 is an empty slot
	mask  uint64
}

type termExtra struct {
	datatype, lang, dir string
}

// newTermTable lays out terms (terms[0] the zero term, not looked up).
func newTermTable(terms []Term) termTable {
	n := len(terms)
	tt := termTable{
		kinds:  make([]Kind, n),
		ends:   make([]int, n),
		extra:  make([]uint32, n),
		extras: []termExtra{{}},
		seed:   maphash.MakeSeed(),
	}
	size := 0
	for _, t := range terms {
		size += len(t.Value)
	}
	var text strings.Builder
	text.Grow(size)
	extraIDs := map[termExtra]uint32{{}: 0}
	for i, t := range terms {
		tt.kinds[i] = t.Kind
		text.WriteString(t.Value)
		tt.ends[i] = text.Len()
		x := termExtra{t.Datatype, t.Lang, t.Dir}
		id, ok := extraIDs[x]
		if !ok {
			id = uint32(len(tt.extras))
			extraIDs[x] = id
			tt.extras = append(tt.extras, x)
		}
		tt.extra[i] = id
	}
	tt.text = text.String()

	// At most half full: a power of two at least twice the terms.
	nslots := uint64(1) << bits.Len64(uint64(2*n))
	tt.slots = make([]uint64, nslots)
	tt.mask = nslots - 1
	for i := 1; i < n; i++ {
		h := tt.hash(terms[i])
		for p := h & tt.mask; ; p = (p + 1) & tt.mask {
			if tt.slots[p] == 0 {
				tt.slots[p] = h>>32<<32 | uint64(i)
				break
			}
		}
	}
	return tt
}

// len returns the number of terms, the zero term included.
func (tt *termTable) len() int { return len(tt.kinds) }

// term returns term id, whose strings are substrings of the table's (no allocation).
func (tt *termTable) term(id ID) Term {
	x := &tt.extras[tt.extra[id]]
	var start int
	if id > 0 {
		start = tt.ends[id-1]
	}
	return Term{
		Kind:     tt.kinds[id],
		Value:    tt.text[start:tt.ends[id]],
		Datatype: x.datatype,
		Lang:     x.lang,
		Dir:      x.dir,
	}
}

// lookup returns the ID of t, or 0 when the table does not have it.
func (tt *termTable) lookup(t Term) ID {
	if len(tt.slots) == 0 {
		return 0
	}
	h := tt.hash(t)
	for p := h & tt.mask; ; p = (p + 1) & tt.mask {
		s := tt.slots[p]
		if s == 0 {
			return 0
		}
		if s>>32 == h>>32 {
			if id := ID(s & 0xffffffff); tt.term(id) == t {
				return id
			}
		}
	}
}

// hash is a 64-bit hash of every field of t. Its seed is the table's own: nothing
// depends on where a term lands, only on whether it is found.
func (tt *termTable) hash(t Term) uint64 {
	h := maphash.String(tt.seed, t.Value) ^ uint64(t.Kind)*0x9e3779b97f4a7c15
	if t.Datatype != "" || t.Lang != "" || t.Dir != "" {
		h ^= bits.RotateLeft64(maphash.String(tt.seed, t.Datatype), 17)
		h ^= bits.RotateLeft64(maphash.String(tt.seed, t.Lang), 31)
		h ^= bits.RotateLeft64(maphash.String(tt.seed, t.Dir), 47)
	}
	return h
}
