package graph

import (
	"context"
	"slices"
)

// The literal index of a Memory: the LiteralIndex of MatchLiterals, in maps built on
// first use.
type literalIndex struct {
	m      *Memory
	exact  map[string][]ID          // normal form → literal nodes (classes plain and string)
	hashed map[uint64][]IndexedForm // FormHash → forms indexed under bands, with their nodes
	bands  map[uint64][]uint64      // band key → FormHash of its forms
	years  map[int][]DatedLiteral
	wild   []DatedLiteral // dates whose year has unknown digits
}

func (m *Memory) literalIndex() *literalIndex {
	m.litOnce.Do(func() {
		ix := &literalIndex{m: m, exact: map[string][]ID{}, hashed: map[uint64][]IndexedForm{},
			bands: map[uint64][]uint64{}, years: map[int][]DatedLiteral{}}
		hashed := map[uint64][]string{}
		for id := 1; id < len(m.terms); id++ {
			t := m.terms[id]
			if t.Kind != KindLiteral {
				continue
			}
			cls := ClassOf(t)
			if cls == LiteralDate {
				d, _ := DateOf(t)
				if y, ok := d.Year(); ok {
					ix.years[y] = append(ix.years[y], DatedLiteral{ID(id), d})
				} else {
					ix.wild = append(ix.wild, DatedLiteral{ID(id), d})
				}
				continue
			}
			norm := LiteralForm(t.Value)
			if norm == "" || len(norm) > MaxExactForm {
				continue
			}
			ids, seen := ix.exact[norm]
			ix.exact[norm] = append(ids, ID(id))
			if cls != LiteralString || len(norm) > MaxApproxForm {
				continue
			}
			h := FormHash(norm)
			if seen && slices.Contains(hashed[h], norm) {
				continue
			}
			hashed[h] = append(hashed[h], norm)
			for _, k := range BandKeys(norm) {
				ix.bands[k] = append(ix.bands[k], h)
			}
		}
		// The forms of a hash with their nodes in one entry: an approximate lookup
		// reads up to MaxApproxForms of them, one map access each.
		for h, norms := range hashed {
			fs := make([]IndexedForm, len(norms))
			for i, norm := range norms {
				fs[i] = IndexedForm{Norm: norm, Nodes: slices.Clip(ix.exact[norm])}
			}
			ix.hashed[h] = fs
		}
		for k, hs := range ix.bands {
			slices.Sort(hs)
			if hs = slices.Compact(hs); len(hs) > MaxBandPostings {
				delete(ix.bands, k)
			} else {
				ix.bands[k] = hs
			}
		}
		m.lit = ix
	})
	return m.lit
}

func (ix *literalIndex) LiteralsWithForm(_ context.Context, norm string) ([]ID, error) {
	return ix.exact[norm], nil
}

func (ix *literalIndex) DatedLiterals(_ context.Context, d Date) ([]DatedLiteral, error) {
	if y, ok := d.Year(); ok {
		return append(slices.Clip(ix.years[y]), ix.wild...), nil
	}
	var out []DatedLiteral
	for _, ds := range ix.years {
		out = append(out, ds...)
	}
	return append(out, ix.wild...), nil
}

func (ix *literalIndex) FormsInBands(_ context.Context, keys []uint64) ([]uint64, error) {
	n := 0
	for _, k := range keys {
		n += len(ix.bands[k])
	}
	out := make([]uint64, 0, n)
	for _, k := range keys {
		out = append(out, ix.bands[k]...)
	}
	return out, nil
}

func (ix *literalIndex) FormsWithHash(_ context.Context, h uint64) ([]IndexedForm, error) {
	return slices.Clip(ix.hashed[h]), nil
}

func (ix *literalIndex) Term(ctx context.Context, n ID) (Term, error) { return ix.m.Term(ctx, n) }

// Candidates returns up to k literal nodes that match text, by the rules of
// MatchLiterals (with MinApproxScore): exact normal-form matches, then dates that
// include or are included in the text's date, and, only when there is none, approximate
// matches of string texts, best first, ties by the literals' canonical form.
func (m *Memory) Candidates(ctx context.Context, text string, k int) ([]Candidate, error) {
	return MatchLiterals(ctx, m.literalIndex(), text, k, MinApproxScore)
}
