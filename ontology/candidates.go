package ontology

import (
	"cmp"
	"context"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// maxApproxCandidates bounds the normal forms re-scored by one approximate lookup:
// those sharing the most bands with the text are scored first.
const maxApproxCandidates = 128

// Candidates returns up to k literal nodes that match text after normalisation:
// exact matches (same normal form, or a date that includes or is included in the
// text's date) by increasing node ID; if there is none, approximate ones (MinHash LSH
// candidates re-scored by 2-gram Dice, kept if the score is at least
// Options.MinScore), best first, ties by increasing node ID. Like PARIS
// (noApproxIfExact), it looks for approximate matches only when no literal matches
// exactly.
func (s *Store) Candidates(ctx context.Context, text string, k int) ([]graph.Candidate, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	norm := textnorm.Literal(text)
	best := map[graph.ID]graph.Candidate{}
	add := func(id graph.ID, exact bool, score float64) {
		if c, ok := best[id]; ok && (c.Exact || c.Score >= score) && !exact {
			return
		}
		best[id] = graph.Candidate{Node: id, Exact: exact, Score: score}
	}
	txn := s.db.NewTransaction(false)
	defer txn.Discard()
	nExact := 0
	if norm != "" {
		ids, err := s.exactIDs(txn, norm)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			add(id, true, 1)
		}
		nExact = len(ids)
	}
	if d, ok := graph.ParseQueryDate(text); ok {
		ids, err := s.dateIDs(ctx, txn, d)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			add(id, true, 1)
		}
		nExact += len(ids)
	}
	if nExact == 0 && norm != "" && len(norm) <= maxApproxLen {
		if err := s.approx(ctx, txn, norm, func(id graph.ID, score float64) { add(id, false, score) }); err != nil {
			return nil, err
		}
	}
	out := make([]graph.Candidate, 0, len(best))
	for _, c := range best {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b graph.Candidate) int {
		if a.Exact != b.Exact {
			if a.Exact {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Node, b.Node)
	})
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
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

// literalBucket calls fn for each entry (hash, normal form, ids) of an 'L' bucket.
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

// exactIDs returns the literal nodes whose normal form is norm.
func (s *Store) exactIDs(txn *badger.Txn, norm string) ([]graph.ID, error) {
	h := normHash(norm)
	v, err := getValue(txn, bucketKey(nil, pfxLiteral, bucketOf(h, s.info.LiteralBits)))
	if err != nil || v == nil {
		return nil, err
	}
	var out []graph.ID
	err = eachLiteralEntry(v, func(eh uint64, en []byte, ids []byte) bool {
		if eh == h && string(en) == norm {
			for i := 0; i < len(ids); i += 8 {
				out = append(out, graph.ID(binary.BigEndian.Uint64(ids[i:])))
			}
		}
		return eh <= h
	})
	return out, err
}

// approx finds the normal forms that share a MinHash band with norm, scores them with
// 2-gram Dice and reports the literal nodes of those scoring at least MinScore.
func (s *Store) approx(ctx context.Context, txn *badger.Txn, norm string, report func(graph.ID, float64)) error {
	self := normHash(norm)
	hits := map[uint64]int{} // normal form hash → bands shared with the text
	buckets := map[uint32][]byte{}
	for _, band := range bandKeys(norm) {
		b := bucketOf(band, s.info.BandBits)
		v, ok := buckets[b]
		if !ok {
			var err error
			if v, err = getValue(txn, bucketKey(nil, pfxBand, b)); err != nil {
				return err
			}
			buckets[b] = v
		}
		// Entries are sorted by band key: find the run equal to band.
		n := len(v) / 16
		lo, hi := 0, n
		for lo < hi {
			m := (lo + hi) / 2
			if binary.BigEndian.Uint64(v[16*m:]) < band {
				lo = m + 1
			} else {
				hi = m
			}
		}
		for j := lo; j < n && binary.BigEndian.Uint64(v[16*j:]) == band; j++ {
			if h := binary.BigEndian.Uint64(v[16*j+8:]); h != self {
				hits[h]++
			}
		}
	}
	cands := make([]uint64, 0, len(hits))
	for h := range hits {
		cands = append(cands, h)
	}
	slices.SortFunc(cands, func(a, b uint64) int {
		if c := cmp.Compare(hits[b], hits[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(cands) > maxApproxCandidates {
		cands = cands[:maxApproxCandidates]
	}
	slices.Sort(cands) // bucket order
	lits := map[uint32][]byte{}
	for _, h := range cands {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := bucketOf(h, s.info.LiteralBits)
		v, ok := lits[b]
		if !ok {
			var err error
			if v, err = getValue(txn, bucketKey(nil, pfxLiteral, b)); err != nil {
				return err
			}
			lits[b] = v
		}
		err := eachLiteralEntry(v, func(eh uint64, en []byte, ids []byte) bool {
			if eh != h {
				return eh < h
			}
			score := textnorm.Dice(norm, string(en), diceK)
			if score >= s.opts.MinScore && score < 1 {
				for i := 0; i < len(ids); i += 8 {
					report(graph.ID(binary.BigEndian.Uint64(ids[i:])), score)
				}
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// dateIDs returns the date literals that include d or that d includes.
func (s *Store) dateIDs(ctx context.Context, txn *badger.Txn, d graph.Date) ([]graph.ID, error) {
	year := yearKey(d)
	known := 1 // sign
	for known < 5 && year[known] != '#' {
		known++
	}
	// Stored years that start with the query's known digits, then stored years with
	// wildcards that include the query's year.
	prefixes := [][]byte{append([]byte{pfxDate}, year[:known]...)}
	for i := known - 1; i >= 1; i-- {
		var y [5]byte
		copy(y[:], year[:i])
		for j := i; j < 5; j++ {
			y[j] = '#'
		}
		prefixes = append(prefixes, append([]byte{pfxDate}, y[:]...))
	}
	var out []graph.ID
	for _, pfx := range prefixes {
		opt := badger.DefaultIteratorOptions
		opt.Prefix = pfx
		it := txn.NewIterator(opt)
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				it.Close()
				return nil, err
			}
			err := it.Item().Value(func(v []byte) error {
				for i := 0; i+16 <= len(v); i += 16 {
					if d.Overlaps(unpackDate(binary.BigEndian.Uint64(v[i+8:]))) {
						out = append(out, graph.ID(binary.BigEndian.Uint64(v[i:])))
					}
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
