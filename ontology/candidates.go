package ontology

import (
	"cmp"
	"context"
	"encoding/binary"
	"slices"
	"sort"
	"strings"

	"github.com/dgraph-io/badger/v4"
	"github.com/trawl-dev/trawl/graph"
)

// Candidates returns up to k literal nodes that match text, by the rules of
// graph.MatchLiterals (with Options.MinScore): exact normal-form matches, then dates
// that include or are included in the text's date, and, only when there is none (as
// PARIS's noApproxIfExact), approximate matches of string texts, best first, ties by
// the literals' canonical form. A graph.Memory with the same data gives the same
// answer.
func (s *Store) Candidates(ctx context.Context, text string, k int) ([]graph.Candidate, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	ix := &literalReader{s: s, txn: s.db.NewTransaction(false), buckets: map[bucketRef][]byte{}}
	defer ix.txn.Discard()
	return graph.MatchLiterals(ctx, ix, text, k, s.opts.MinScore)
}

// literalReader is the graph.LiteralIndex of one lookup: it reads the literal index in
// one read transaction and keeps the buckets it has read.
type literalReader struct {
	s       *Store
	txn     *badger.Txn
	buckets map[bucketRef][]byte
}

type bucketRef struct {
	pfx    byte
	bucket uint32
}

// bucket returns the value of an 'L' bucket (nil if absent).
func (r *literalReader) bucket(pfx byte, b uint32) ([]byte, error) {
	ref := bucketRef{pfx, b}
	if v, ok := r.buckets[ref]; ok {
		return v, nil
	}
	v, err := getValue(r.txn, bucketKey(nil, pfx, b))
	if err != nil {
		return nil, err
	}
	r.buckets[ref] = v
	return v, nil
}

// getValue returns a copy of the value of key, or nil if it is absent.
func getValue(txn *badger.Txn, key []byte) ([]byte, error) {
	item, err := txn.Get(key)
	if err == badger.ErrKeyNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return item.ValueCopy(nil)
}

// eachLiteralEntry calls fn for each entry (hash, normal form, ids) of an 'L' bucket,
// until fn returns false.
func eachLiteralEntry(v []byte, fn func(h uint64, norm []byte, ids []byte) bool) error {
	for len(v) > 0 {
		if len(v) < 8 {
			return errCorrupt("literal index")
		}
		h := binary.BigEndian.Uint64(v)
		v = v[8:]
		n, k := binary.Uvarint(v)
		if k <= 0 || uint64(len(v)-k) < n {
			return errCorrupt("literal index")
		}
		norm := v[k : k+int(n)]
		v = v[k+int(n):]
		c, k := binary.Uvarint(v)
		if k <= 0 || uint64(len(v)-k) < 8*c {
			return errCorrupt("literal index")
		}
		ids := v[k : k+int(8*c)]
		v = v[k+int(8*c):]
		if !fn(h, norm, ids) {
			return nil
		}
	}
	return nil
}

func decodeIDs(b []byte) []graph.ID {
	out := make([]graph.ID, len(b)/8)
	for i := range out {
		out[i] = graph.ID(binary.BigEndian.Uint64(b[8*i:]))
	}
	return out
}

// FormsWithHash returns the entries of the exact index with hash h.
func (r *literalReader) FormsWithHash(ctx context.Context, h uint64) ([]graph.IndexedForm, error) {
	v, err := r.bucket(pfxLiteral, bucketOf(h, r.s.info.LiteralBits))
	if err != nil || v == nil {
		return nil, err
	}
	var out []graph.IndexedForm
	err = eachLiteralEntry(v, func(eh uint64, norm []byte, ids []byte) bool {
		if eh == h {
			out = append(out, graph.IndexedForm{Norm: string(norm), Nodes: decodeIDs(ids)})
		}
		return eh <= h
	})
	return out, err
}

// LiteralsWithForm returns the literal nodes whose normal form is norm.
func (r *literalReader) LiteralsWithForm(ctx context.Context, norm string) ([]graph.ID, error) {
	fs, err := r.FormsWithHash(ctx, graph.FormHash(norm))
	for _, f := range fs {
		if f.Norm == norm {
			return f.Nodes, nil
		}
	}
	return nil, err
}

// FormsInBands returns the form hashes under each band key ('K' entries are sorted by
// band key: the run equal to the key is found by binary search).
func (r *literalReader) FormsInBands(ctx context.Context, keys []uint64) ([]uint64, error) {
	// The buckets are read in place, not copied: the band keys of one text seldom
	// share a bucket, and a bucket holds about 64 entries.
	var out []uint64
	var key []byte
	for _, band := range keys {
		key = bucketKey(key, pfxBand, bucketOf(band, r.s.info.BandBits))
		item, err := r.txn.Get(key)
		if err == badger.ErrKeyNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		err = item.Value(func(v []byte) error {
			n := len(v) / 16
			lo := sort.Search(n, func(m int) bool { return binary.BigEndian.Uint64(v[16*m:]) >= band })
			for j := lo; j < n && binary.BigEndian.Uint64(v[16*j:]) == band; j++ {
				out = append(out, binary.BigEndian.Uint64(v[16*j+8:]))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DatedLiterals returns the date literals that include d or that d includes: stored
// years that start with d's known year digits, and stored years with wildcards that
// include d's year.
func (r *literalReader) DatedLiterals(ctx context.Context, d graph.Date) ([]graph.DatedLiteral, error) {
	year := yearKey(d)
	known := 1 // sign
	for known < 5 && year[known] != '#' {
		known++
	}
	prefixes := [][]byte{append([]byte{pfxDate}, year[:known]...)}
	for i := known - 1; i >= 1; i-- {
		var y [5]byte
		copy(y[:], year[:i])
		for j := i; j < 5; j++ {
			y[j] = '#'
		}
		prefixes = append(prefixes, append([]byte{pfxDate}, y[:]...))
	}
	var out []graph.DatedLiteral
	for _, pfx := range prefixes {
		opt := badger.DefaultIteratorOptions
		opt.Prefix = pfx
		it := r.txn.NewIterator(opt)
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				it.Close()
				return nil, err
			}
			err := it.Item().Value(func(v []byte) error {
				for i := 0; i+16 <= len(v); i += 16 {
					out = append(out, graph.DatedLiteral{Node: graph.ID(binary.BigEndian.Uint64(v[i:])),
						Date: unpackDate(binary.BigEndian.Uint64(v[i+8:]))})
				}
				return nil
			})
			if err != nil {
				it.Close()
				return nil, err
			}
		}
		it.Close()
	}
	return out, nil
}

// Term returns the term of a literal node.
func (r *literalReader) Term(ctx context.Context, n graph.ID) (graph.Term, error) {
	return r.s.Term(ctx, n)
}

// EntityMatch is an entity found by FindEntities.
type EntityMatch struct {
	Entity   graph.ID
	IRI      string  // the entity's IRI (or blank node label)
	Label    string  // its best label (see Label)
	Literal  string  // the literal that matched
	Relation string  // the relation linking the entity to that literal
	Exact    bool    // the literal matched exactly
	Score    float64 // 1 for exact matches, else the Dice score
}

// FindOptions tune FindEntities.
type FindOptions struct {
	// AnyRelation also returns entities linked to a matching literal by relations
	// other than the name relations (Options.NameRelations), such as a birth date.
	AnyRelation bool
}

// FindEntities returns up to k entities that carry a literal matching text (see
// Candidates) through a name relation (rdfs:label, skos:prefLabel, schema:name,
// schema:alternateName …), best first, ties by increasing ID.
func (s *Store) FindEntities(ctx context.Context, text string, k int, opt FindOptions) ([]EntityMatch, error) {
	if k <= 0 {
		return nil, s.check(ctx)
	}
	cands, err := s.Candidates(ctx, text, max(4*k, 64))
	if err != nil {
		return nil, err
	}
	best := map[graph.ID]EntityMatch{}
	for _, c := range cands {
		var lit string
		for e, err := range s.Edges(ctx, c.Node) {
			if err != nil {
				return nil, err
			}
			if !e.Rel.IsInverse() {
				continue
			}
			f := e.Rel.Forward()
			if _, isName := s.names[f]; !isName && !opt.AnyRelation {
				continue
			}
			if m, ok := best[e.Node]; ok && (m.Exact || m.Score >= c.Score) {
				continue
			}
			if lit == "" {
				t, err := s.Term(ctx, c.Node)
				if err != nil {
					return nil, err
				}
				lit = t.Value
			}
			best[e.Node] = EntityMatch{Entity: e.Node, Literal: lit, Relation: s.RelationIRI(f), Exact: c.Exact, Score: c.Score}
		}
	}
	out := make([]EntityMatch, 0, len(best))
	for _, m := range best {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b EntityMatch) int {
		if a.Exact != b.Exact {
			if a.Exact {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Entity, b.Entity)
	})
	if len(out) > k {
		out = out[:k]
	}
	for i := range out {
		t, err := s.Term(ctx, out[i].Entity)
		if err != nil {
			return nil, err
		}
		out[i].IRI = t.Value
		if out[i].Label, err = s.Label(ctx, out[i].Entity); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Label returns a human-readable name of a node: a literal's value; else its name
// literal (the first of Options.NameRelations that it has, English or untagged
// preferred); else the local name of its IRI with underscores as spaces.
func (s *Store) Label(ctx context.Context, n graph.ID) (string, error) {
	t, err := s.Term(ctx, n)
	if err != nil {
		return "", err
	}
	if t.Kind == graph.KindLiteral {
		return t.Value, nil
	}
	type cand struct {
		rank int
		id   graph.ID
	}
	var cands []cand
	for e, err := range s.Edges(ctx, n) {
		if err != nil {
			return "", err
		}
		if rank, ok := s.names[e.Rel]; ok && isLiteralID(e.Node) {
			cands = append(cands, cand{rank, e.Node})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	var fallback string
	for _, c := range cands {
		lt, err := s.Term(ctx, c.id)
		if err != nil {
			return "", err
		}
		switch {
		case lt.Lang == "en" || strings.HasPrefix(lt.Lang, "en-") || lt.Lang == "":
			return lt.Value, nil
		case fallback == "":
			fallback = lt.Value
		}
	}
	if fallback != "" {
		return fallback, nil
	}
	return strings.ReplaceAll(cmp.Or(graph.LocalName(t.Value), t.Value), "_", " "), nil
}
