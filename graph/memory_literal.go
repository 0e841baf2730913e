package graph

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// The literal index of a Memory: the LiteralIndex of MatchLiterals, built on first use.
//
// The forms indexed for approximate lookup are numbered by rank, in increasing
// FormHash order (the forms of one hash in the order of their first literal), and kept
// in flat tables without pointers: a band key leads to the ranks of its forms, a rank
// to its forms, a form to its text in one string and to its nodes in one array. An
// approximate lookup then reads tables by index instead of one map entry, one slice
// and one string per form, and the collector has nothing to scan in them. Ranks order
// as the hashes do, so a lookup selects and scores the same forms in the same order
// as through FormsInBands and FormsWithHash.
type literalIndex struct {
	m     *Memory
	years map[int][]DatedLiteral
	wild  []DatedLiteral // dates whose year has unknown digits

	// The normal forms of the literals of classes plain and string, by FormHash: the
	// forms of hash h are exact[p>>32:][:p&0xffffffff] for p = exactAt[h].
	exactAt map[uint64]uint64
	exact   []flatForm

	hashes    []uint64 // FormHash by rank, increasing
	group     []int32  // the forms of rank r are forms[group[r]:group[r+1]]
	forms     []flatForm
	norms     string            // the exact forms' texts, one after another
	grams     []uint32          // the approximate forms' sorted byte 2-grams, one run per form
	nodes     []ID              // the exact forms' literal nodes, one run per form
	bands     map[uint64]uint64 // band key → offset<<32 | count of its ranks in bandRanks
	bandRanks []uint32
}

// flatForm locates a form's text, 2-grams and nodes in the tables of its
// literalIndex.
type flatForm struct {
	norm, grams, nodes          int
	normLen, gramsLen, nodesLen int32
}

func (ix *literalIndex) formText(f flatForm) string { return ix.norms[f.norm : f.norm+int(f.normLen)] }

func (ix *literalIndex) formGrams(f flatForm) []uint32 {
	return ix.grams[f.grams : f.grams+int(f.gramsLen) : f.grams+int(f.gramsLen)]
}

func (ix *literalIndex) formNodes(f flatForm) []ID {
	return ix.nodes[f.nodes : f.nodes+int(f.nodesLen) : f.nodes+int(f.nodesLen)]
}

func (m *Memory) literalIndex() *literalIndex {
	m.litOnce.Do(func() { m.lit = buildLiteralIndex(m) })
	return m.lit
}

func buildLiteralIndex(m *Memory) *literalIndex {
	ix := &literalIndex{m: m, years: map[int][]DatedLiteral{}}
	exact := map[string][]ID{} // until the forms are laid out
	// The approximate forms in order of their first literal, and the band keys they
	// are under (by that order's index), until they are ranked.
	type newForm struct {
		h    uint64
		norm string
	}
	var found []newForm
	seen := map[string]struct{}{}
	bandForms := map[uint64][]int32{}
	for id := 1; id < m.terms.len(); id++ {
		t := m.terms.term(ID(id))
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
		exact[norm] = append(exact[norm], ID(id))
		if cls != LiteralString || len(norm) > MaxApproxForm {
			continue
		}
		if _, ok := seen[norm]; ok {
			continue
		}
		seen[norm] = struct{}{}
		for _, k := range BandKeys(norm) {
			bandForms[k] = append(bandForms[k], int32(len(found)))
		}
		found = append(found, newForm{FormHash(norm), norm})
	}
	ix.layOutExact(exact)
	order := make([]int32, len(found))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Or(cmp.Compare(found[a].h, found[b].h), cmp.Compare(a, b)) })
	rank := make([]uint32, len(found)) // by index in found
	ix.forms = make([]flatForm, 0, len(found))
	for _, i := range order {
		f := found[i]
		if len(ix.hashes) == 0 || ix.hashes[len(ix.hashes)-1] != f.h {
			ix.hashes = append(ix.hashes, f.h)
			ix.group = append(ix.group, int32(len(ix.forms)))
		}
		rank[i] = uint32(len(ix.hashes) - 1)
		ff, _ := ix.exactForm(f.norm) // every approximate form is an exact one
		ff.grams = len(ix.grams)
		ix.grams = bigrams(ix.grams, f.norm)
		ff.gramsLen = int32(len(ix.grams) - ff.grams)
		ix.forms = append(ix.forms, ff)
	}
	ix.group = append(ix.group, int32(len(ix.forms)))
	ix.bands = make(map[uint64]uint64, len(bandForms))
	for k, fs := range bandForms {
		rs := make([]uint32, len(fs))
		for j, i := range fs {
			rs[j] = rank[i]
		}
		slices.Sort(rs)
		if rs = slices.Compact(rs); len(rs) <= MaxBandPostings {
			ix.bands[k] = uint64(len(ix.bandRanks))<<32 | uint64(len(rs))
			ix.bandRanks = append(ix.bandRanks, rs...)
		}
	}
	return ix
}

// layOutExact puts the forms of exact, grouped by FormHash, in the index's tables.
func (ix *literalIndex) layOutExact(exact map[string][]ID) {
	type keyed struct {
		h    uint64
		norm string
	}
	all := make([]keyed, 0, len(exact))
	size, nodes := 0, 0
	for norm, ids := range exact {
		all = append(all, keyed{FormHash(norm), norm})
		size += len(norm)
		nodes += len(ids)
	}
	slices.SortFunc(all, func(a, b keyed) int { return cmp.Or(cmp.Compare(a.h, b.h), strings.Compare(a.norm, b.norm)) })
	var text strings.Builder
	text.Grow(size)
	ix.nodes = make([]ID, 0, nodes)
	ix.exact = make([]flatForm, 0, len(all))
	ix.exactAt = make(map[uint64]uint64, len(all))
	for i, f := range all {
		ids := exact[f.norm]
		ix.exact = append(ix.exact, flatForm{norm: text.Len(), nodes: len(ix.nodes), normLen: int32(len(f.norm)), nodesLen: int32(len(ids))})
		text.WriteString(f.norm)
		ix.nodes = append(ix.nodes, ids...)
		if i == 0 || all[i-1].h != f.h {
			ix.exactAt[f.h] = uint64(i) << 32
		}
		ix.exactAt[f.h]++
	}
	ix.norms = text.String()
}

// exactForm returns the exact form norm.
func (ix *literalIndex) exactForm(norm string) (flatForm, bool) {
	p, ok := ix.exactAt[FormHash(norm)]
	if !ok {
		return flatForm{}, false
	}
	for _, f := range ix.exact[p>>32 : p>>32+p&(1<<32-1)] {
		if ix.formText(f) == norm {
			return f, true
		}
	}
	return flatForm{}, false
}

// ranks returns the ranks of the forms under band key k.
func (ix *literalIndex) ranks(k uint64) []uint32 {
	p, ok := ix.bands[k]
	if !ok {
		return nil
	}
	off, n := p>>32, p&(1<<32-1)
	return ix.bandRanks[off : off+n : off+n]
}

func (ix *literalIndex) LiteralsWithForm(_ context.Context, norm string) ([]ID, error) {
	if f, ok := ix.exactForm(norm); ok {
		return ix.formNodes(f), nil
	}
	return nil, nil
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
	var out []uint64
	for _, k := range keys {
		for _, r := range ix.ranks(k) {
			out = append(out, ix.hashes[r])
		}
	}
	return out, nil
}

func (ix *literalIndex) FormsWithHash(_ context.Context, h uint64) ([]IndexedForm, error) {
	r, ok := slices.BinarySearch(ix.hashes, h)
	if !ok {
		return nil, nil
	}
	fs := ix.forms[ix.group[r]:ix.group[r+1]]
	out := make([]IndexedForm, len(fs))
	for i, f := range fs {
		out[i] = IndexedForm{Norm: ix.formText(f), Nodes: ix.formNodes(f)}
	}
	return out, nil
}

func (ix *literalIndex) Term(ctx context.Context, n ID) (Term, error) { return ix.m.Term(ctx, n) }

// approxLiterals is approxLiterals of package graph on the ranked tables: the same
// forms, selected by rank instead of hash (the same order), scored in the same order.
// Of their literals it returns those that rankLiterals may keep among the first k.
func (ix *literalIndex) approxLiterals(ctx context.Context, norm string, minScore float64, k int) ([]rankedLiteral, error) {
	sx := approxScratchPool.Get().(*approxScratch)
	defer sx.release()
	sx.keys = AppendBandKeys(sx.keys[:0], norm)
	for _, k := range sx.keys {
		if rs := ix.ranks(k); len(rs) > 0 {
			sx.runs = append(sx.runs, rs)
		}
	}
	self := ^uint32(0) // no rank
	if r, ok := slices.BinarySearch(ix.hashes, FormHash(norm)); ok {
		self = uint32(r)
	}
	sel := sx.selectRanks(sx.runs, self, MaxApproxForms)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Read ahead one table per loop (as approxLiterals does): the reads of a loop do
	// not depend on one another, so the processor keeps their misses in flight.
	spans := sx.spans[:0]
	for _, r := range sel {
		spans = append(spans, [2]int32{ix.group[r], ix.group[r+1]})
	}
	sx.spans = spans
	var first uint32
	for _, s := range spans {
		for _, f := range ix.forms[s[0]:s[1]] {
			first |= ix.grams[f.grams]
		}
	}
	runtime.KeepAlive(first)
	// The forms are scored on their stored 2-grams; none is norm itself, whose hash
	// selectForms left out with every form of that hash.
	var sc formScorer
	sc.init(norm, minScore)
	kept := sx.kept[:0]
	for _, s := range spans {
		for _, f := range ix.forms[s[0]:s[1]] {
			if score, ok := sc.diceOf(ix.formGrams(f)); ok {
				kept = append(kept, keptForm{score, f})
			}
		}
	}
	// rankLiterals returns the first k literals by decreasing score and every literal
	// tied with the k-th: the literals of forms scored below the k-th literal's score
	// are not read. (A Memory's forms have distinct nodes, so the k-th score is the
	// one rankLiterals sees; a repeated node would count once there.)
	sx.kept = kept
	cut := sx.kthScore(kept, k)
	for _, h := range kept {
		if h.score >= cut {
			sc.add(h.score, ix.formNodes(h.f))
		}
	}
	return sc.out, nil
}

// keptForm is a form of an approximate lookup with its score.
type keptForm struct {
	score float64
	f     flatForm
}

// kthScore returns the k-th highest score of the literals of forms, each form's score
// counted once per literal node, or 0 when they are at most k.
func (sx *approxScratch) kthScore(forms []keptForm, k int) float64 {
	n := 0
	for _, h := range forms {
		n += int(h.f.nodesLen)
	}
	if n <= k || k <= 0 {
		return 0
	}
	byScore := append(sx.byScore[:0], forms...)
	sx.byScore = byScore
	slices.SortFunc(byScore, func(a, b keptForm) int { return cmp.Compare(b.score, a.score) })
	seen := 0
	for _, h := range byScore {
		if seen += int(h.f.nodesLen); seen >= k {
			return h.score
		}
	}
	return 0
}

// selectRanks is selectForms for the ranks of the band keys of a text, runs[i] those of
// one key: increasing and distinct, as the index stores them. It merges the runs
// pairwise instead of sorting their concatenation, counting each rank as the runs that
// hold it meet, in log₂(len(runs)) linear passes.
//
// The ranks it returns are in sx's buffers, valid until sx is used again.
func (sx *approxScratch) selectRanks(runs [][]uint32, self uint32, limit int) []uint32 {
	n := 0
	for _, r := range runs {
		n += len(r)
	}
	// A merged run holds rank<<32 | count; two buffers take turns as source and
	// destination of a pass, ends[i] closes the i-th run of the source.
	if cap(sx.buf) < 2*n {
		sx.buf = make([]uint64, 2*n)
	}
	src, dst := sx.buf[:0:n], sx.buf[n:n:2*n]
	ends := sx.ends[:0]
	for _, r := range runs {
		for _, x := range r {
			src = append(src, uint64(x)<<32|1)
		}
		ends = append(ends, len(src))
	}
	for len(ends) > 1 {
		dst = dst[:0]
		start, kept := 0, 0
		for i := 0; i < len(ends); i += 2 {
			if i+1 < len(ends) {
				dst = mergeCounted(dst, src[start:ends[i]], src[ends[i]:ends[i+1]])
				start = ends[i+1]
			} else {
				dst = append(dst, src[start:ends[i]]...)
				start = ends[i]
			}
			ends[kept] = len(dst)
			kept++
		}
		ends = ends[:kept]
		src, dst = dst, src
	}
	sx.ends = ends
	forms, counts := sx.forms[:0], sx.counts[:0]
	for _, p := range src {
		if r := uint32(p >> 32); r != self {
			forms = append(forms, r)
			counts = append(counts, int32(p&(1<<32-1)))
		}
	}
	sx.forms, sx.counts = forms, counts
	return topForms(forms, counts, limit)
}

// approxScratch holds the buffers of an approximate lookup on a Memory's index, for
// the next lookup to reuse (approxScratchPool): at ×200 a lookup merges about 500
// band postings, and allocating and clearing its buffers each time cost as much as a
// tenth of the lookup.
type approxScratch struct {
	keys    []uint64
	runs    [][]uint32
	buf     []uint64
	ends    []int
	forms   []uint32
	counts  []int32
	spans   [][2]int32
	kept    []keptForm
	byScore []keptForm
}

var approxScratchPool = sync.Pool{New: func() any { return new(approxScratch) }}

// release returns sx to the pool, without the index's slices it held.
func (sx *approxScratch) release() {
	clear(sx.runs)
	sx.runs = sx.runs[:0]
	approxScratchPool.Put(sx)
}

// mergeCounted appends to dst the merge of two increasing runs of rank<<32 | count,
// a rank in both once with the sum of its counts.
func mergeCounted(dst, a, b []uint64) []uint64 {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		switch {
		case x>>32 < y>>32:
			dst = append(dst, x)
			i++
		case x>>32 > y>>32:
			dst = append(dst, y)
			j++
		default:
			dst = append(dst, x+y&(1<<32-1))
			i++
			j++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// Candidates returns up to k literal nodes that match text, by the rules of
// MatchLiterals (with MinApproxScore): exact normal-form matches, then dates that
// include or are included in the text's date, and, only when there is none, approximate
// matches of string texts, best first, ties by the literals' canonical form.
func (m *Memory) Candidates(ctx context.Context, text string, k int) ([]Candidate, error) {
	return MatchLiterals(ctx, m.literalIndex(), text, k, MinApproxScore)
}
