package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
)

// Memory is an in-memory knowledge-base view of an RDF graph: every node and relation
// gets a small identifier, every fact is stored in both directions, and relation
// functionalities and a literal index are computed once. It satisfies the aligner's KB
// interface (package align) and serves both small graphs (the record graph of one deep-web
// source, OAEI files) and test knowledge bases of a few million triples.
//
// Node identifiers are 1 … Nodes(), assigned in the order of the terms' hash
// identifiers (TermHashID, those of the Badger store of package ontology), so that the
// same input always gives the same identifiers and both KBs order nodes alike. A forward relation has an even
// identifier (see Rel). rdf:type and rdfs:subClassOf facts are taxonomy: they are kept
// apart (Types, Instances, SuperClasses) and are not edges.
//
// A Memory is immutable once built and safe for concurrent use.
type Memory struct {
	terms termTable // by ID and by term; term 0 is the zero term
	isLit []bool    // by ID: IsLiteral reads a byte, not a term

	relIRIs []string // forward relation i has Rel 2i
	relIDs  map[string]Rel
	stats   []relStat // by forward relation index

	off   []int // edges of node n are edges[off[n]:off[n+1]]
	edges []Edge

	entities  []ID
	typeOff   []int // the classes of node n are typeArr[typeOff[n]:typeOff[n+1]]
	typeArr   []ID
	instances map[ID][]ID
	supers    map[ID][]ID
	triples   int // distinct non-taxonomy facts
	taxonomy  int // distinct taxonomy facts
	literals  int // literal nodes

	litOnce sync.Once
	lit     *literalIndex
}

type relStat struct {
	facts, subjects, objects int
}

// MemoryOptions configures reading an in-memory graph.
type MemoryOptions struct {
	// MaxBadLines is how many malformed N-Triples lines are skipped (each logged at Warn
	// with file:line) before reading fails. 0 fails on the first bad line.
	MaxBadLines int
	// Logger receives skipped lines. Nil discards them.
	Logger *slog.Logger
}

// ErrTooManyBadLines is returned (wrapped, with the count and the first error) when a
// file has more malformed lines than MemoryOptions.MaxBadLines.
var ErrTooManyBadLines = errors.New("graph: too many malformed lines")

// LoadMemory reads the N-Triples file at path into a Memory, or the RDF/XML file when
// its name ends in .rdf, .owl or .xml (ReadRDFXML).
func LoadMemory(ctx context.Context, path string, opts MemoryOptions) (*Memory, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return ReadMemory(ctx, f, path, opts)
}

// ReadMemory reads N-Triples from r into a Memory; name is used in error messages. A
// malformed line is reported as a *ParseError with name:line:column. A name ending in
// .rdf, .owl or .xml is read as RDF/XML (ReadRDFXML; any error fails the read).
func ReadMemory(ctx context.Context, r io.Reader, name string, opts MemoryOptions) (*Memory, error) {
	if IsRDFXML(name) {
		var b memoryBuilder
		b.init()
		n := 0
		err := ReadRDFXML(r, name, "", "", func(t Triple) error {
			if n++; n%65536 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			b.add(t)
			return nil
		})
		if err != nil {
			return nil, err
		}
		return b.build(), nil
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var b memoryBuilder
	b.init()
	rd := NewReader(r, name)
	bad := 0
	var firstBad error
	for n := 0; ; n++ {
		if n%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t, err := rd.Read()
		if err == io.EOF {
			break
		}
		var pe *ParseError
		if errors.As(err, &pe) {
			bad++
			if firstBad == nil {
				firstBad = err
			}
			if bad > opts.MaxBadLines {
				if opts.MaxBadLines == 0 {
					return nil, err
				}
				return nil, fmt.Errorf("%w: %d in %s (more than %d), first: %v", ErrTooManyBadLines, bad, name, opts.MaxBadLines, firstBad)
			}
			log.Warn("skipping malformed line", "error", err)
			continue
		}
		if err != nil {
			return nil, err
		}
		b.add(t)
	}
	return b.build(), nil
}

// NewMemory builds a Memory from triples, for example the record graph of a deep-web
// source. It returns an error naming the first triple that is not valid RDF.
func NewMemory(triples []Triple) (*Memory, error) {
	var b memoryBuilder
	b.init()
	for i, t := range triples {
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("graph: triple %d (%s): %w", i, t, err)
		}
		b.add(t)
	}
	return b.build(), nil
}

type memFact struct {
	s   ID
	r   Rel
	o   ID
	tax uint8 // 0 fact, 1 rdf:type, 2 rdfs:subClassOf
}

type memoryBuilder struct {
	m     *Memory
	facts []memFact
	// The terms by ID (terms[0] the zero term) and their IDs, until build lays them out
	// in the Memory's termTable.
	terms []Term
	ids   map[Term]ID
}

func (b *memoryBuilder) init() {
	b.terms = []Term{{}}
	b.ids = map[Term]ID{}
	b.m = &Memory{
		relIDs:    map[string]Rel{},
		instances: map[ID][]ID{},
		supers:    map[ID][]ID{},
	}
}

func (b *memoryBuilder) node(t Term) ID {
	if id, ok := b.ids[t]; ok {
		return id
	}
	id := ID(len(b.terms))
	b.terms = append(b.terms, t)
	b.ids[t] = id
	return id
}

func (b *memoryBuilder) add(t Triple) {
	s := b.node(t.S)
	switch t.P.Value {
	case RDFType:
		b.facts = append(b.facts, memFact{s: s, o: b.node(t.O), tax: 1})
		return
	case SubClassOf:
		b.facts = append(b.facts, memFact{s: s, o: b.node(t.O), tax: 2})
		return
	}
	r, ok := b.m.relIDs[t.P.Value]
	if !ok {
		r = Rel(2 * len(b.m.relIRIs))
		b.m.relIDs[t.P.Value] = r
		b.m.relIRIs = append(b.m.relIRIs, t.P.Value)
	}
	b.facts = append(b.facts, memFact{s: s, r: r, o: b.node(t.O)})
}

func (b *memoryBuilder) build() *Memory {
	m := b.m
	b.numberRelations()
	b.numberNodes()
	slices.SortFunc(b.facts, func(x, y memFact) int {
		return cmp.Or(cmp.Compare(x.tax, y.tax), cmp.Compare(x.s, y.s), cmp.Compare(x.r, y.r), cmp.Compare(x.o, y.o))
	})
	b.facts = slices.Compact(b.facts)

	n := len(b.terms)
	m.terms = newTermTable(b.terms)
	b.terms, b.ids = nil, nil
	m.typeOff = make([]int, n+1)
	m.isLit = make([]bool, n)
	for id, k := range m.terms.kinds {
		m.isLit[id] = k == KindLiteral
	}
	deg := make([]int, n+1)
	for _, f := range b.facts {
		switch f.tax {
		case 0:
			deg[f.s]++
			deg[f.o]++
			m.triples++
		case 1:
			// Sorted by subject, then class, and distinct: the classes of a node are
			// one run, appended in order.
			m.typeArr = append(m.typeArr, f.o)
			m.typeOff[f.s+1] = len(m.typeArr)
			m.instances[f.o] = append(m.instances[f.o], f.s)
			m.taxonomy++
		case 2:
			m.supers[f.s] = append(m.supers[f.s], f.o)
			m.taxonomy++
		}
	}
	m.off = make([]int, n+1)
	for i := 1; i <= n; i++ {
		m.off[i] = m.off[i-1] + deg[i-1]
	}
	m.edges = make([]Edge, m.off[n])
	fill := slices.Clone(m.off[:n])
	for _, f := range b.facts {
		if f.tax != 0 {
			continue
		}
		m.edges[fill[f.s]] = Edge{Rel: f.r, Node: f.o}
		fill[f.s]++
		m.edges[fill[f.o]] = Edge{Rel: f.r.Inverse(), Node: f.s}
		fill[f.o]++
	}
	b.facts = nil

	m.stats = make([]relStat, len(m.relIRIs))
	for id := 1; id < n; id++ {
		es := m.edges[m.off[id]:m.off[id+1]]
		slices.SortFunc(es, func(x, y Edge) int {
			return cmp.Or(cmp.Compare(x.Rel, y.Rel), cmp.Compare(x.Node, y.Node))
		})
		forward := false
		for i, e := range es {
			st := &m.stats[e.Rel>>1]
			if e.Rel.IsInverse() {
				st.facts++ // every fact appears once as an inverse edge of its object
			} else {
				forward = true
			}
			if i == 0 || es[i-1].Rel != e.Rel {
				if e.Rel.IsInverse() {
					st.objects++
				} else {
					st.subjects++
				}
			}
		}
		if forward {
			m.entities = append(m.entities, ID(id))
		}
		if m.isLit[id] {
			m.literals++
		}
	}
	for _, mp := range []map[ID][]ID{m.instances, m.supers} {
		for k, v := range mp {
			mp[k] = slices.Compact(v) // facts were sorted by subject, then object
		}
	}
	for i := 1; i <= n; i++ {
		m.typeOff[i] = max(m.typeOff[i], m.typeOff[i-1]) // nodes without classes
	}
	for k, v := range m.instances {
		slices.Sort(v)
		m.instances[k] = slices.Compact(v)
	}
	return m
}

// numberRelations renumbers the relations in IRI order (as the Badger store of package
// ontology does), so that the two KBs enumerate relations, and hence edges, alike.
func (b *memoryBuilder) numberRelations() {
	m := b.m
	order := make([]int, len(m.relIRIs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(m.relIRIs[x], m.relIRIs[y]) })
	newRel := make([]Rel, len(order))
	iris := make([]string, len(order))
	for rank, old := range order {
		newRel[old] = Rel(2 * rank)
		iris[rank] = m.relIRIs[old]
		m.relIDs[m.relIRIs[old]] = Rel(2 * rank)
	}
	m.relIRIs = iris
	for i := range b.facts {
		if b.facts[i].tax == 0 {
			b.facts[i].r = newRel[b.facts[i].r>>1]
		}
	}
}

// numberNodes renumbers the nodes in the order of their hash identifiers
// (TermHashID with salt 0, the identifiers of the Badger store of package ontology), so
// that anything that orders nodes by identifier (edges, entities, instances, the
// aligner's tie-breaks) orders them alike in both KBs.
func (b *memoryBuilder) numberNodes() {
	n := len(b.terms)
	type keyed struct {
		h   ID
		old ID
	}
	ks := make([]keyed, n-1)
	var buf []byte
	for i := 1; i < n; i++ {
		var h ID
		h, buf = TermHashID(b.terms[i], 0, buf)
		ks[i-1] = keyed{h, ID(i)}
	}
	// The terms' texts break ties of the hash only: cmp.Or would build both texts (two
	// allocations) at every comparison.
	slices.SortFunc(ks, func(x, y keyed) int {
		if c := cmp.Compare(x.h, y.h); c != 0 {
			return c
		}
		return strings.Compare(b.terms[x.old].String(), b.terms[y.old].String())
	})
	newID := make([]ID, n)
	terms := make([]Term, n)
	for i, k := range ks {
		newID[k.old] = ID(i + 1)
		terms[i+1] = b.terms[k.old]
	}
	b.terms = terms
	for i := range b.facts {
		f := &b.facts[i]
		f.s, f.o = newID[f.s], newID[f.o]
	}
}

// Triples returns the number of distinct facts, taxonomy facts excluded.
func (m *Memory) Triples() int { return m.triples }

// TaxonomyTriples returns the number of distinct rdf:type and rdfs:subClassOf facts.
func (m *Memory) TaxonomyTriples() int { return m.taxonomy }

// Nodes returns the number of nodes (entities, classes and literals).
func (m *Memory) Nodes() int { return m.terms.len() - 1 }

// LiteralCount returns the number of literal nodes that take part in a fact.
func (m *Memory) LiteralCount() int { return m.literals }

// Term returns the RDF term of node n.
func (m *Memory) Term(_ context.Context, n ID) (Term, error) {
	if n == 0 || int(n) >= m.terms.len() {
		return Term{}, fmt.Errorf("graph: node %d is not in this graph", n)
	}
	return m.terms.term(n), nil
}

// Lookup returns the node of term t, and false if the graph does not have it.
func (m *Memory) Lookup(_ context.Context, t Term) (ID, bool, error) {
	id := m.terms.lookup(t)
	return id, id != 0, nil
}

// IsLiteral reports whether n is a literal node.
func (m *Memory) IsLiteral(n ID) bool {
	return n < ID(len(m.isLit)) && m.isLit[n]
}

// Edges yields the facts of n in both directions, by increasing relation then node,
// taxonomy facts excluded.
func (m *Memory) Edges(ctx context.Context, n ID) iter.Seq2[Edge, error] {
	return func(yield func(Edge, error) bool) {
		if int(n) >= m.terms.len() {
			return
		}
		for _, e := range m.edges[m.off[n]:m.off[n+1]] {
			if !yield(e, nil) {
				return
			}
		}
	}
}

// EdgeSlice returns the edges of n as a shared slice, which the caller must not modify.
func (m *Memory) EdgeSlice(n ID) []Edge {
	if n == 0 || int(n) >= m.terms.len() {
		return nil
	}
	return m.edges[m.off[n]:m.off[n+1]]
}

// Entities yields, in increasing order, every node that is the subject of at least one
// fact that is not taxonomy.
func (m *Memory) Entities(ctx context.Context) iter.Seq2[ID, error] {
	return func(yield func(ID, error) bool) {
		for i, id := range m.entities {
			if i%4096 == 0 && ctx.Err() != nil {
				yield(0, ctx.Err())
				return
			}
			if !yield(id, nil) {
				return
			}
		}
	}
}

// Relations returns the forward relations, taxonomy excluded, in increasing order.
func (m *Memory) Relations() []Rel {
	rs := make([]Rel, len(m.relIRIs))
	for i := range rs {
		rs[i] = Rel(2 * i)
	}
	return rs
}

// RelationIRI returns the IRI of the forward relation of r, or "" for an unknown r.
func (m *Memory) RelationIRI(r Rel) string {
	if i := int(r >> 1); i < len(m.relIRIs) {
		return m.relIRIs[i]
	}
	return ""
}

// RelationID returns the forward relation with the given IRI.
func (m *Memory) RelationID(iri string) (Rel, bool) {
	r, ok := m.relIDs[iri]
	return r, ok
}

// Functionality returns PARIS's harmonic functionality of r: distinct subjects divided
// by distinct facts for a forward relation, distinct objects divided by distinct facts
// for an inverse one. It is 0 for an unknown relation.
func (m *Memory) Functionality(r Rel) float64 {
	i := int(r >> 1)
	if i >= len(m.stats) || m.stats[i].facts == 0 {
		return 0
	}
	st := m.stats[i]
	if r.IsInverse() {
		return float64(st.objects) / float64(st.facts)
	}
	return float64(st.subjects) / float64(st.facts)
}

// FactCount returns the number of distinct facts of the forward relation of r.
func (m *Memory) FactCount(r Rel) int {
	if i := int(r >> 1); i < len(m.stats) {
		return m.stats[i].facts
	}
	return 0
}

// Types returns the classes of n (objects of its rdf:type facts), in increasing order.
func (m *Memory) Types(_ context.Context, n ID) ([]ID, error) {
	if n >= ID(len(m.typeOff)-1) || m.typeOff[n] == m.typeOff[n+1] {
		return nil, nil
	}
	return slices.Clone(m.typeArr[m.typeOff[n]:m.typeOff[n+1]]), nil
}

// Instances yields the nodes with an rdf:type fact to class c, in increasing order.
func (m *Memory) Instances(ctx context.Context, c ID) iter.Seq2[ID, error] {
	return func(yield func(ID, error) bool) {
		for i, id := range m.instances[c] {
			if i%4096 == 0 && ctx.Err() != nil {
				yield(0, ctx.Err())
				return
			}
			if !yield(id, nil) {
				return
			}
		}
	}
}

// SuperClasses returns the direct superclasses of c (objects of rdfs:subClassOf), in
// increasing order.
func (m *Memory) SuperClasses(_ context.Context, c ID) ([]ID, error) {
	return slices.Clone(m.supers[c]), nil
}

// Classes returns every class (object of an rdf:type fact, or subject or object of an
// rdfs:subClassOf fact), in increasing order.
func (m *Memory) Classes() []ID {
	var cs []ID
	for c := range m.instances {
		cs = append(cs, c)
	}
	for c, ss := range m.supers {
		cs = append(cs, c)
		cs = append(cs, ss...)
	}
	slices.Sort(cs)
	return slices.Compact(cs)
}
