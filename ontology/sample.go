package ontology

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/dgraph-io/badger/v4"
	"github.com/trawl-dev/trawl/graph"
)

// Sample returns up to n distinct values of a relation or instances of a class, named
// by its IRI, for probing a form with ontology values. For a relation the values are
// the objects of its facts (append "-" to the IRI for its subjects, the values of the
// inverse relation); for a class, its instances. The sample is deterministic: values
// are taken at evenly spaced positions of the relation's facts (so frequent values are
// more likely) or of the class's instances (which, sorted by hashed identifiers, are in
// no meaningful order), then, if that gave fewer than n, in index order. It returns
// ErrUnknown if the IRI is neither a relation nor a class of the KB.
func (s *Store) Sample(ctx context.Context, iri string, n int) ([]graph.ID, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	inverse := false
	name := iri
	if len(name) > 1 && name[len(name)-1] == '-' {
		if _, ok := s.byIRI[name]; !ok {
			name, inverse = name[:len(name)-1], true
		}
	}
	if r, ok := s.byIRI[name]; ok {
		if inverse {
			r = r.Inverse()
		}
		return s.SampleRelation(ctx, r, n)
	}
	id, found, err := s.Lookup(ctx, graph.NewIRI(iri))
	if err != nil {
		return nil, err
	}
	if found {
		out, err := s.SampleClass(ctx, id, n)
		if err != nil || len(out) > 0 {
			return out, err
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrUnknown, iri)
}

// SampleRelation returns up to n distinct values (objects; subjects for an inverse
// relation) of relation r; see Sample.
func (s *Store) SampleRelation(ctx context.Context, r graph.Rel, n int) ([]graph.ID, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	i := int(r / 2)
	if n <= 0 || i >= len(s.rels) || s.rels[i].facts == 0 {
		return nil, nil
	}
	total := s.rels[i].facts
	var out []graph.ID
	seen := map[graph.ID]bool{}
	pick := func(p Pair) bool {
		v := p.O
		if r.IsInverse() {
			v = p.S
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
		return len(out) < n
	}
	err := s.db.View(func(txn *badger.Txn) error {
		blocks := map[uint32][]byte{}
		for j := range int64(n) {
			if err := ctx.Err(); err != nil {
				return err
			}
			pos := j * total / int64(n)
			b := uint32(pos / blockLen)
			v, ok := blocks[b]
			if !ok {
				var err error
				if v, err = getValue(txn, relBlockKey(nil, r, b)); err != nil {
					return err
				}
				blocks[b] = v
			}
			off := int(pos%blockLen) * 16
			if off+16 > len(v) {
				continue
			}
			if !pick(Pair{graph.ID(binary.BigEndian.Uint64(v[off:])), graph.ID(binary.BigEndian.Uint64(v[off+8:]))}) {
				return nil
			}
		}
		return nil
	})
	if err != nil || len(out) >= n {
		return out, err
	}
	for p, err := range s.Pairs(ctx, r.Forward()) {
		if err != nil {
			return nil, err
		}
		if !pick(p) {
			break
		}
	}
	return out, nil
}

// SampleClass returns up to n instances of class c at evenly spaced positions.
func (s *Store) SampleClass(ctx context.Context, c graph.ID, n int) ([]graph.ID, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	prefix := binary.BigEndian.AppendUint64([]byte{pfxInstance}, uint64(c))
	var out []graph.ID
	err := s.db.View(func(txn *badger.Txn) error {
		// Count the instances: full chunks before the last one, plus the last.
		opt := badger.DefaultIteratorOptions
		opt.Prefix = prefix
		opt.PrefetchValues = false
		it := txn.NewIterator(opt)
		chunks := 0
		var lastLen int64
		for it.Rewind(); it.Valid(); it.Next() {
			chunks++
			lastLen = it.Item().ValueSize()
		}
		it.Close()
		if chunks == 0 {
			return nil
		}
		total := int64(chunks-1)*chunkIDs + lastLen/8
		if int64(n) >= total {
			n = int(total)
		}
		cache := map[uint32][]byte{}
		for j := range int64(n) {
			pos := j * total / int64(n)
			ch := uint32(pos / chunkIDs)
			v, ok := cache[ch]
			if !ok {
				var err error
				if v, err = getValue(txn, idChunkKey(nil, pfxInstance, c, ch)); err != nil {
					return err
				}
				cache[ch] = v
			}
			off := int(pos%chunkIDs) * 8
			if off+8 <= len(v) {
				out = append(out, graph.ID(binary.BigEndian.Uint64(v[off:])))
			}
		}
		return nil
	})
	return out, err
}
