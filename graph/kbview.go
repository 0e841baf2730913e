package graph

// The shared vocabulary of knowledge-base views. A KB view (the in-memory graph of this
// package, or the Badger store of package ontology) gives every node and every relation a
// small integer identifier that is valid within that view only.

// ID identifies a node of one KB view: an entity, a class or a literal.
type ID uint64

// Rel identifies a relation of one KB view, with its direction. A relation's forward
// identifier is even; Inverse flips the lowest bit. An edge r(x, y) seen from y is the
// edge Inverse(r)(y, x).
type Rel uint32

// Inverse returns the inverse of r (r⁻ for a forward relation, r for an inverse one).
func (r Rel) Inverse() Rel { return r ^ 1 }

// IsInverse reports whether r is an inverse relation.
func (r Rel) IsInverse() bool { return r&1 == 1 }

// Forward returns the forward relation of r.
func (r Rel) Forward() Rel { return r &^ 1 }

// Edge is one fact seen from a node x: the fact Rel(x, Node). An incoming fact
// s —p→ x appears among x's edges as Inverse(p)(x, s).
type Edge struct {
	Rel  Rel
	Node ID
}

// Candidate is a literal node that matches a text, with how well it matches.
type Candidate struct {
	Node ID
	// Exact is true when the literal's normal form (textnorm.Literal) equals the text's,
	// or, for dates, when one includes the other (a year includes its days).
	Exact bool
	// Score is 1 for an exact match, otherwise the multiset byte 2-gram Dice coefficient
	// of the two normal forms (textnorm.Dice with k = 2), in [0, 1).
	Score float64
}
