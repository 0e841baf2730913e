package ontology

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/trawl-dev/trawl/graph"
)

// Store is a read-only knowledge base in Badger. It satisfies the aligner's KB
// interface (align.KB). Node identifiers (graph.ID) are hashes of the terms, stable
// across loads with the same ID salt; relation identifiers (graph.Rel) number the
// predicates in IRI order, forward even and inverse odd. A Store is safe for concurrent
// use.
type Store struct {
	db     *badger.DB
	dir    string
	opts   Options
	log    *slog.Logger
	info   kbInfo
	rels   []relation // by rel/2
	byIRI  map[string]graph.Rel
	typeR  graph.Rel         // rdf:type, or noRel
	subR   graph.Rel         // rdfs:subClassOf, or noRel
	names  map[graph.Rel]int // name relations → preference rank
	closed atomic.Bool
}

const noRel = graph.Rel(1<<32 - 2)

type relation struct {
	iri                      string
	pid                      uint64
	facts, subjects, objects int64
	blocks                   uint32
}

func newStore(db *badger.DB, dir string, opts Options) (*Store, error) {
	s := &Store{db: db, dir: dir, opts: opts, log: opts.logger(), byIRI: map[string]graph.Rel{},
		typeR: noRel, subR: noRel, names: map[graph.Rel]int{}}
	err := db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(metaKey("layout"))
		if errors.Is(err, badger.ErrKeyNotFound) {
			if _, cerr := txn.Get(metaKey("complete")); cerr != nil {
				return fmt.Errorf("%w: %s holds no completed load; run 'trawl kb load' again", ErrIncomplete, dir)
			}
			return fmt.Errorf("%w: %s has no layout version", ErrNotKB, dir)
		}
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		if err != nil {
			return err
		}
		if len(v) != 4 {
			return errCorrupt("layout version")
		}
		if got := int(binary.BigEndian.Uint32(v)); got != LayoutVersion {
			return &LayoutError{Dir: dir, Found: got, Supported: LayoutVersion}
		}
		if _, err := txn.Get(metaKey("complete")); err != nil {
			return fmt.Errorf("%w: the load into %s did not finish; run 'trawl kb load' again", ErrIncomplete, dir)
		}
		item, err = txn.Get(metaKey("info"))
		if err != nil {
			return fmt.Errorf("ontology: read the KB metadata: %w", err)
		}
		if err := item.Value(func(v []byte) error { return json.Unmarshal(v, &s.info) }); err != nil {
			return fmt.Errorf("ontology: read the KB metadata: %w", err)
		}
		opt := badger.DefaultIteratorOptions
		opt.Prefix = []byte{pfxRelation}
		it := txn.NewIterator(opt)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if len(k) != 5 {
				return errCorrupt("relation key")
			}
			r := graph.Rel(binary.BigEndian.Uint32(k[1:]))
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			if len(v) < 36 || int(r/2) != len(s.rels) {
				return errCorrupt("relation table")
			}
			rel := relation{pid: binary.BigEndian.Uint64(v), facts: int64(binary.BigEndian.Uint64(v[8:])),
				subjects: int64(binary.BigEndian.Uint64(v[16:])), objects: int64(binary.BigEndian.Uint64(v[24:])),
				blocks: binary.BigEndian.Uint32(v[32:]), iri: string(v[36:])}
			s.rels = append(s.rels, rel)
			s.byIRI[rel.iri] = r
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if r, ok := s.byIRI[graph.RDFType]; ok {
		s.typeR = r
	}
	if r, ok := s.byIRI[graph.SubClassOf]; ok {
		s.subR = r
	}
	for i, iri := range opts.NameRelations {
		if r, ok := s.byIRI[iri]; ok {
			s.names[r] = i
		}
	}
	return s, nil
}

// Close releases the database.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.db.Close()
}

func (s *Store) check(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	return ctx.Err()
}

func (s *Store) isTaxonomy(r graph.Rel) bool {
	f := r.Forward()
	return f == s.typeR || f == s.subR
}

// Term returns the RDF term of a node.
func (s *Store) Term(ctx context.Context, n graph.ID) (graph.Term, error) {
	if err := s.check(ctx); err != nil {
		return graph.Term{}, err
	}
	var t graph.Term
	err := s.db.View(func(txn *badger.Txn) error {
		found, err := s.node(txn, n, func(part0 []byte, _ uint64) error {
			var err error
			t, _, err = graph.DecodeTermKey(part0)
			return err
		})
		if err == nil && !found {
			err = fmt.Errorf("ontology: no node %016x in the KB", uint64(n))
		}
		return err
	})
	return t, err
}

// Lookup returns the node of a term, and false if the KB does not have it. Blank
// nodes are scoped to their file at load ("_:b" of the first file is "_:f0_b").
func (s *Store) Lookup(ctx context.Context, t graph.Term) (graph.ID, bool, error) {
	if err := s.check(ctx); err != nil {
		return 0, false, err
	}
	id, _ := termID(t, s.info.Salt, nil)
	found := false
	err := s.db.View(func(txn *badger.Txn) error {
		_, err := s.node(txn, id, func(part0 []byte, _ uint64) error {
			got, _, err := graph.DecodeTermKey(part0)
			found = err == nil && got == t
			return err
		})
		return err
	})
	return id, found, err
}

// IsLiteral reports whether n is a literal node.
func (s *Store) IsLiteral(n graph.ID) bool { return isLiteralID(n) }

// node calls fn with part 0 of n's record (the term, then edge groups) and the number
// of further parts, read from n's 'N' bucket. It returns false if the node does not
// exist (fn is not called).
func (s *Store) node(txn *badger.Txn, n graph.ID, fn func(part0 []byte, more uint64) error) (bool, error) {
	item, err := txn.Get(bucketKey(nil, pfxNode, bucketOf(uint64(n), s.info.NodeBits)))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	found, long := false, false
	var more uint64
	err = item.Value(func(v []byte) error {
		part0, m, ok, err := findNodeEntry(v, uint64(n))
		if err != nil || !ok {
			return err
		}
		found, more = true, m
		if long = len(part0) == 0; long {
			return nil
		}
		return fn(part0, more)
	})
	if err != nil || !long {
		return found, err
	}
	// A part 0 longer than inlinePart0 is under 'X' id 0.
	if item, err = txn.Get(nodePartKey(nil, n, 0)); err != nil {
		if errors.Is(err, badger.ErrKeyNotFound) {
			err = errCorrupt("node record")
		}
		return true, err
	}
	return true, item.Value(func(v []byte) error { return fn(v, more) })
}

// eachPart calls fn with the edge groups of each part of n's record (the term removed
// from part 0). It returns false if the node does not exist.
func (s *Store) eachPart(ctx context.Context, txn *badger.Txn, n graph.ID, fn func(groups []byte) (bool, error)) (bool, error) {
	more, parts := true, uint64(0)
	found, err := s.node(txn, n, func(part0 []byte, m uint64) error {
		groups, err := graph.SkipTermKey(part0)
		if err != nil {
			return err
		}
		parts = m
		more, err = fn(groups)
		return err
	})
	if err != nil || !found || !more || parts == 0 {
		return found, err
	}
	opt := badger.DefaultIteratorOptions
	opt.Prefix = nodePartPrefix(n)
	opt.PrefetchValues = false
	it := txn.NewIterator(opt)
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		if err := ctx.Err(); err != nil {
			return found, err
		}
		if binary.BigEndian.Uint32(it.Item().Key()[9:]) == 0 {
			continue // a long part 0, read by node
		}
		err := it.Item().Value(func(v []byte) error {
			var err error
			more, err = fn(v)
			return err
		})
		if err != nil || !more {
			return found, err
		}
	}
	return found, nil
}

// Edges yields every fact of n in both directions (incoming facts with the inverse
// relation), taxonomy facts excluded, each distinct fact once, grouped by relation in
// increasing order.
func (s *Store) Edges(ctx context.Context, n graph.ID) iter.Seq2[graph.Edge, error] {
	return func(yield func(graph.Edge, error) bool) {
		if err := s.check(ctx); err != nil {
			yield(graph.Edge{}, err)
			return
		}
		txn := s.db.NewTransaction(false)
		defer txn.Discard()
		stopped := false
		_, err := s.eachPart(ctx, txn, n, func(b []byte) (bool, error) {
			err := eachGroup(b, func(rel graph.Rel, ids []byte) bool {
				if s.isTaxonomy(rel) {
					return true
				}
				for i := 0; i < len(ids); i += 8 {
					if !yield(graph.Edge{Rel: rel, Node: graph.ID(binary.BigEndian.Uint64(ids[i:]))}, nil) {
						stopped = true
						return false
					}
				}
				return true
			})
			return !stopped, err
		})
		if err != nil && !stopped {
			yield(graph.Edge{}, err)
		}
	}
}

// groupIDs returns the ids of n's edges with relation rel.
func (s *Store) groupIDs(ctx context.Context, n graph.ID, rel graph.Rel) ([]graph.ID, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	if rel.Forward() == noRel {
		return nil, nil
	}
	var out []graph.ID
	err := s.db.View(func(txn *badger.Txn) error {
		_, err := s.eachPart(ctx, txn, n, func(b []byte) (bool, error) {
			return true, eachGroup(b, func(r graph.Rel, ids []byte) bool {
				if r == rel {
					for i := 0; i < len(ids); i += 8 {
						out = append(out, graph.ID(binary.BigEndian.Uint64(ids[i:])))
					}
				}
				return true
			})
		})
		return err
	})
	return out, err
}

// Types returns the classes of n (objects of its rdf:type facts).
func (s *Store) Types(ctx context.Context, n graph.ID) ([]graph.ID, error) {
	return s.groupIDs(ctx, n, s.typeR)
}

// SuperClasses returns the direct superclasses of c (objects of rdfs:subClassOf).
func (s *Store) SuperClasses(ctx context.Context, c graph.ID) ([]graph.ID, error) {
	return s.groupIDs(ctx, c, s.subR)
}

// SubClasses returns the direct subclasses of c (subjects of rdfs:subClassOf c).
func (s *Store) SubClasses(ctx context.Context, c graph.ID) ([]graph.ID, error) {
	if s.subR == noRel {
		return nil, s.check(ctx)
	}
	return s.groupIDs(ctx, c, s.subR.Inverse())
}

// idChunks yields the ids stored in the chunks under prefix, in order.
func (s *Store) idChunks(ctx context.Context, prefix []byte) iter.Seq2[graph.ID, error] {
	return func(yield func(graph.ID, error) bool) {
		if err := s.check(ctx); err != nil {
			yield(0, err)
			return
		}
		txn := s.db.NewTransaction(false)
		defer txn.Discard()
		opt := badger.DefaultIteratorOptions
		opt.Prefix = prefix
		it := txn.NewIterator(opt)
		defer it.Close()
		var buf []byte
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				yield(0, err)
				return
			}
			var err error
			if buf, err = it.Item().ValueCopy(buf); err != nil {
				yield(0, err)
				return
			}
			for i := 0; i+8 <= len(buf); i += 8 {
				if !yield(graph.ID(binary.BigEndian.Uint64(buf[i:])), nil) {
					return
				}
			}
		}
	}
}

// Instances yields the nodes with an rdf:type fact to class c, in increasing order.
func (s *Store) Instances(ctx context.Context, c graph.ID) iter.Seq2[graph.ID, error] {
	return s.idChunks(ctx, binary.BigEndian.AppendUint64([]byte{pfxInstance}, uint64(c)))
}

// Entities yields every node that is the subject of at least one non-taxonomy fact, in
// increasing ID order.
func (s *Store) Entities(ctx context.Context) iter.Seq2[graph.ID, error] {
	return s.idChunks(ctx, []byte{pfxEntity})
}

// Relations returns the forward relations of the KB (taxonomy relations excluded), in
// increasing order.
func (s *Store) Relations() []graph.Rel {
	out := make([]graph.Rel, 0, len(s.rels))
	for i := range s.rels {
		r := graph.Rel(2 * i)
		if !s.isTaxonomy(r) {
			out = append(out, r)
		}
	}
	return out
}

// RelationIRI returns the IRI of the forward relation of r ("" if r is unknown).
func (s *Store) RelationIRI(r graph.Rel) string {
	if i := int(r / 2); i < len(s.rels) {
		return s.rels[i].iri
	}
	return ""
}

// RelationID returns the forward relation with the given IRI.
func (s *Store) RelationID(iri string) (graph.Rel, bool) {
	r, ok := s.byIRI[iri]
	return r, ok
}

// Functionality returns PARIS's harmonic functionality of r: distinct subjects /
// distinct facts for a forward relation; for an inverse relation, distinct objects /
// distinct facts of its forward relation (the inverse functionality). It is 0 for an
// unknown relation.
func (s *Store) Functionality(r graph.Rel) float64 {
	i := int(r / 2)
	if i >= len(s.rels) || s.rels[i].facts == 0 {
		return 0
	}
	rel := s.rels[i]
	if r.IsInverse() {
		return float64(rel.objects) / float64(rel.facts)
	}
	return float64(rel.subjects) / float64(rel.facts)
}

// FactCount returns the number of distinct facts of the forward relation of r.
func (s *Store) FactCount(r graph.Rel) int {
	if i := int(r / 2); i < len(s.rels) {
		return int(s.rels[i].facts)
	}
	return 0
}

// Pair is one fact r(S, O) of a relation.
type Pair struct{ S, O graph.ID }

// Pairs yields the facts of relation r, sorted by subject then object (for an inverse
// relation, the facts of its forward relation with S and O swapped).
func (s *Store) Pairs(ctx context.Context, r graph.Rel) iter.Seq2[Pair, error] {
	return func(yield func(Pair, error) bool) {
		if err := s.check(ctx); err != nil {
			yield(Pair{}, err)
			return
		}
		if int(r/2) >= len(s.rels) {
			return
		}
		txn := s.db.NewTransaction(false)
		defer txn.Discard()
		opt := badger.DefaultIteratorOptions
		opt.Prefix = relKey(nil, pfxPairs, r)
		it := txn.NewIterator(opt)
		defer it.Close()
		var buf []byte
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				yield(Pair{}, err)
				return
			}
			var err error
			if buf, err = it.Item().ValueCopy(buf); err != nil {
				yield(Pair{}, err)
				return
			}
			for i := 0; i+16 <= len(buf); i += 16 {
				p := Pair{graph.ID(binary.BigEndian.Uint64(buf[i:])), graph.ID(binary.BigEndian.Uint64(buf[i+8:]))}
				if r.IsInverse() {
					p.S, p.O = p.O, p.S
				}
				if !yield(p, nil) {
					return
				}
			}
		}
	}
}

// Stats describes a KB.
type Stats struct {
	Dir       string
	Layout    int
	Created   time.Time
	Sources   []SourceReport
	Parsed    int64 // triples read at load
	BadLines  int64 // lines skipped at load
	Facts     int64 // distinct facts, taxonomy included
	Nodes     int64
	Literals  int64
	Entities  int64
	Classes   int64
	Relations []RelationStats // by decreasing number of facts
}

// RelationStats describes one relation.
type RelationStats struct {
	Rel                  graph.Rel
	IRI                  string
	Facts                int64
	Subjects, Objects    int64   // distinct
	Functionality        float64 // subjects / facts
	InverseFunctionality float64 // objects / facts
	Taxonomy             bool    // rdf:type or rdfs:subClassOf
}

// Stats returns the counts of the KB and its relations with their functionalities.
func (s *Store) Stats() Stats {
	st := Stats{Dir: s.dir, Layout: s.info.Layout, Created: s.info.Created, Sources: s.info.Sources,
		Parsed: s.info.Parsed, BadLines: s.info.BadLines, Facts: s.info.Facts, Nodes: s.info.Nodes,
		Literals: s.info.Literals, Entities: s.info.Entities, Classes: s.info.Classes}
	for i, r := range s.rels {
		rel := graph.Rel(2 * i)
		st.Relations = append(st.Relations, RelationStats{Rel: rel, IRI: r.iri, Facts: r.facts,
			Subjects: r.subjects, Objects: r.objects, Functionality: s.Functionality(rel),
			InverseFunctionality: s.Functionality(rel.Inverse()), Taxonomy: s.isTaxonomy(rel)})
	}
	slices.SortStableFunc(st.Relations, func(a, b RelationStats) int {
		if c := cmp.Compare(b.Facts, a.Facts); c != 0 {
			return c
		}
		return strings.Compare(a.IRI, b.IRI)
	})
	return st
}

// Triples yields every fact of the KB, taxonomy included, relation by relation (in
// relation order), each relation's facts sorted by subject then object identifier. It
// reads every term, so it is meant for small KBs, exports and tests.
func (s *Store) Triples(ctx context.Context) iter.Seq2[graph.Triple, error] {
	return func(yield func(graph.Triple, error) bool) {
		for i, rel := range s.rels {
			p := graph.NewIRI(rel.iri)
			for pr, err := range s.Pairs(ctx, graph.Rel(2*i)) {
				if err != nil {
					yield(graph.Triple{}, err)
					return
				}
				sub, err := s.Term(ctx, pr.S)
				if err != nil {
					yield(graph.Triple{}, err)
					return
				}
				obj, err := s.Term(ctx, pr.O)
				if err != nil {
					yield(graph.Triple{}, err)
					return
				}
				if !yield(graph.Triple{S: sub, P: p, O: obj}, nil) {
					return
				}
			}
		}
	}
}
