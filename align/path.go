package align

import (
	"strings"

	"github.com/trawl-dev/trawl/graph"
)

// MaxJoinLength is the longest relation path (join) the aligner can consider.
const MaxJoinLength = 3

// Path is a relation of one KB or a join of its relations: a sequence of one to
// MaxJoinLength signed relations, read from the subject side. The join
// created⁻ ∘ hasPreferredName leads from a book to the name of its author. Paths are
// comparable values.
type Path struct {
	n uint8
	r [MaxJoinLength]graph.Rel
}

// NewPath returns the path of the given steps. It panics on an empty path or one longer
// than MaxJoinLength (a programming error, not an input error).
func NewPath(steps ...graph.Rel) Path {
	if len(steps) == 0 || len(steps) > MaxJoinLength {
		panic("align: path length out of range")
	}
	var p Path
	p.n = uint8(len(steps))
	copy(p.r[:], steps)
	return p
}

// Len returns the number of steps of p (1 for a plain relation).
func (p Path) Len() int { return int(p.n) }

// Step returns the i-th step of p.
func (p Path) Step(i int) graph.Rel { return p.r[i] }

// Steps returns the steps of p.
func (p Path) Steps() []graph.Rel { return append([]graph.Rel(nil), p.r[:p.n]...) }

// IsJoin reports whether p has more than one step.
func (p Path) IsJoin() bool { return p.n > 1 }

// Inverse returns the path read backwards: (r1 ∘ r2)⁻ = r2⁻ ∘ r1⁻.
func (p Path) Inverse() Path {
	q := Path{n: p.n}
	for i := 0; i < int(p.n); i++ {
		q.r[i] = p.r[int(p.n)-1-i].Inverse()
	}
	return q
}

// then returns p followed by r. The caller guarantees p.Len() < MaxJoinLength.
func (p Path) then(r graph.Rel) Path {
	p.r[p.n] = r
	p.n++
	return p
}

// last returns the last step of p.
func (p Path) last() graph.Rel { return p.r[p.n-1] }

// relationNamer gives the IRI of a relation; KB satisfies it.
type relationNamer interface {
	RelationIRI(r graph.Rel) string
}

// PathName writes p with the relation IRIs of kb: steps joined by " / ", an inverse step
// with a trailing "-" (the notation of alignment.tsv).
func PathName(kb relationNamer, p Path) string {
	var b strings.Builder
	for i := 0; i < p.Len(); i++ {
		if i > 0 {
			b.WriteString(" / ")
		}
		r := p.Step(i)
		b.WriteString(kb.RelationIRI(r))
		if r.IsInverse() {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// ParsePathName reads the notation of PathName back with the relations of kb. It
// reports false if a step names a relation kb does not have.
func ParsePathName(kb interface {
	RelationID(iri string) (graph.Rel, bool)
}, s string) (Path, bool) {
	parts := strings.Split(s, " / ")
	if len(parts) == 0 || len(parts) > MaxJoinLength {
		return Path{}, false
	}
	var p Path
	for _, part := range parts {
		part = strings.TrimSpace(part)
		inv := strings.HasSuffix(part, "-")
		r, ok := kb.RelationID(strings.TrimSuffix(part, "-"))
		if !ok && inv {
			r, ok = kb.RelationID(part) // an IRI that really ends in '-'
			inv = false
		}
		if !ok {
			return Path{}, false
		}
		if inv {
			r = r.Inverse()
		}
		p = p.then(r)
	}
	return p, true
}
