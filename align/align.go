package align

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"time"

	"github.com/trawl-dev/trawl/graph"
)

// Errors of Align.
var (
	// ErrEmptyKB means that a KB has no fact to align (taxonomy facts do not count).
	ErrEmptyKB = errors.New("align: knowledge base has no facts")
	// ErrNoLiterals means that KB1 has no literal, so PARIS has nothing to start from:
	// every first equality comes from a shared literal.
	ErrNoLiterals = errors.New("align: knowledge base has no literals")
)

// IterationStats reports what one iteration changed.
type IterationStats struct {
	Iteration int `json:"iteration"` // 0-based
	// Matched is the number of KB1 entities whose kept partner has a score ≥ Theta.
	Matched int `json:"matched"`
	// New, Changed and Lost count KB1 entities that got a partner, changed partner, or
	// lost theirs (counting partners ≥ Theta only) since the previous iteration.
	New     int `json:"new"`
	Changed int `json:"changed"`
	Lost    int `json:"lost"`
	// RelationPairs is the number of relation pairs with a score ≥ Theta in either
	// direction; RelationChanges how many entered or left that set.
	RelationPairs   int `json:"relation_pairs"`
	RelationChanges int `json:"relation_changes"`
	// MaxDelta is the largest change of a kept instance score or of a relation score.
	MaxDelta float64 `json:"max_delta"`
	// DroppedJoinPairs counts evidence for join pairs not tracked because
	// MaxRelationPairs was reached.
	DroppedJoinPairs int `json:"dropped_join_pairs"`
	// KB2Nodes is the number of KB2 nodes whose edges have been read so far.
	KB2Nodes int           `json:"kb2_nodes"`
	Elapsed  time.Duration `json:"elapsed_ns"`
}

// RunStats describes the inputs of a run.
type RunStats struct {
	KB1Nodes        int `json:"kb1_nodes"`        // nodes of KB1 (entities and literals)
	KB1Entities     int `json:"kb1_entities"`     // KB1 nodes that are not literals
	KB1Literals     int `json:"kb1_literals"`     // KB1 literal nodes
	LiteralsMatched int `json:"literals_matched"` // KB1 literals with a KB2 counterpart
	KB2Nodes        int `json:"kb2_nodes"`        // KB2 nodes whose edges were read
	KB2Hubs         int `json:"kb2_hubs"`         // KB2 nodes skipped for more than MaxDegree edges
}

type match struct {
	node                int32 // -1 = none
	score               float64
	support, comparable uint8 // of the candidate (see cand)
}

type aligner struct {
	opts    Options
	log     *slog.Logger
	v1      *view
	v2      *view
	lits    LiteralMatcher // KB2's
	workers []*worker

	// copyFun1 is the inverse functionality of KB1's relations that counts the subjects
	// of a value that are copies of one another once, by inverse relation (copies.go).
	copyFun1 map[graph.Rel]float64
	// sharedFun is the inverse functionality of literal relation pairs over the values
	// the KBs share (sharedfun.go).
	sharedFun map[relPair]sharedFun

	lit1   anchorTable // literal anchors of KB1 nodes, by KB1 local index
	lit2   anchorTable // literal anchors of KB2 nodes, by KB2 local index
	eq1    []match     // kept 1:1 partner of each KB1 node
	eq2    []match     // the same, by KB2 local index (shorter than the view: no partner)
	eqAnc1 []anchor    // eq1 as anchors, so anchors1 does not allocate
	eqAnc2 []anchor
	rels   *relTable  // relation scores of the previous relation pass
	types  *typeModel // nil without TypeEvidence or a taxonomy on both sides
	tgt    []int32    // KB1 entities (non-literal nodes), in local order
	it     int        // current iteration
	drop   int        // join pair updates dropped in this iteration
	work   workCounts // work outside the workers' units (literal candidates)
}

// Align aligns kb1 with kb2 with the PARIS model and returns instance equivalences,
// relation subsumptions (both directions, joins included) and class subsumptions, with
// their confidences. kb1 is read completely; of kb2, only the neighbourhood reached
// from the literal candidates of kb1's literals and from the equalities is read, so kb2
// can be a large store. Class subsumptions need both KBs to implement Taxonomy;
// otherwise the result says they were skipped.
func Align(ctx context.Context, kb1 Source, kb2 Reference, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := &aligner{
		opts: opts,
		log:  log,
		v1:   newView(kb1, "KB1", opts.MaxDegree, 1),
		v2:   newView(kb2, "KB2", opts.MaxDegree, 1),
		lits: kb2,
		rels: newRelTable(),
	}
	a.newWorkers()
	res := &Result{Options: opts}
	if opts.TypeEvidence {
		t1, ok1 := kb1.(Taxonomy)
		t2, ok2 := kb2.(Taxonomy)
		if ok1 && ok2 {
			a.types = newTypeModel(t1, t2, a.v1, a.v2)
		} else {
			res.Warnings = append(res.Warnings, "type evidence not used: a KB does not read rdf:type and rdfs:subClassOf (no Taxonomy)")
		}
	}
	start := time.Now()
	if err := a.loadKB1(ctx); err != nil {
		return nil, err
	}
	res.Stats.KB1Nodes = a.v1.size()
	res.Stats.KB1Entities = len(a.tgt)
	res.Stats.KB1Literals = a.v1.size() - len(a.tgt)
	if len(a.tgt) == 0 {
		return nil, fmt.Errorf("%w: KB1 has no entity with a fact (rdf:type and rdfs:subClassOf facts are not used as evidence)", ErrEmptyKB)
	}
	if res.Stats.KB1Literals == 0 {
		return nil, fmt.Errorf("%w: KB1 has no literal values; PARIS starts from equal literals (names, titles, dates), so nothing can align", ErrNoLiterals)
	}
	if err := a.copyAwareFun1(ctx); err != nil {
		return nil, err
	}
	a.eq1 = make([]match, a.v1.size())
	for i := range a.eq1 {
		a.eq1[i] = match{node: -1}
	}
	a.eqAnc1 = make([]anchor, a.v1.size())
	n, err := a.matchLiterals(ctx)
	if err != nil {
		return nil, err
	}
	res.Stats.LiteralsMatched = n
	if err := a.sharedValueFun(ctx); err != nil {
		return nil, err
	}
	log.Info("literals matched", "kb1_literals", res.Stats.KB1Literals, "matched", n, "elapsed", time.Since(start))
	if n == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("no literal of KB1 (%d literals) matches a literal of KB2: nothing to align", res.Stats.KB1Literals))
		res.Stats.KB2Nodes, res.Stats.KB2Hubs = a.v2.reads, a.v2.hubs
		return res, nil
	}

	for a.it = 0; a.it < opts.MaxIterations; a.it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		a.drop = 0
		cands, err := a.instancePass(ctx)
		if err != nil {
			return nil, err
		}
		st := IterationStats{Iteration: a.it}
		st.MaxDelta = a.assign(cands, &st)
		rels, err := a.relationPasses(ctx)
		if err != nil {
			return nil, err
		}
		st.RelationPairs = len(rels.pairs)
		st.RelationChanges, st.MaxDelta = a.rels.diff(rels, st.MaxDelta)
		a.rels = rels
		if a.types != nil {
			if err := a.types.update(ctx, a); err != nil {
				return nil, err
			}
		}
		if a.it == 0 && !opts.keepKB2Order {
			// The partners are known: lay KB2's view out in their order for the rest.
			a.renumberKB2()
		}
		st.DroppedJoinPairs = a.drop
		st.KB2Nodes = a.v2.reads
		st.Elapsed = time.Since(t0)
		res.Iterations = append(res.Iterations, st)
		log.Info("iteration", "iter", st.Iteration, "matched", st.Matched, "new", st.New, "changed", st.Changed,
			"lost", st.Lost, "relation_pairs", st.RelationPairs, "relation_changes", st.RelationChanges,
			"max_delta", st.MaxDelta, "kb2_nodes", st.KB2Nodes, "elapsed", st.Elapsed)
		if opts.Progress != nil {
			opts.Progress(st)
		}
		if a.drop > 0 {
			log.Warn("relation pair bound reached: join evidence dropped", "iter", a.it, "dropped", a.drop, "max_relation_pairs", opts.MaxRelationPairs)
		}
		if a.it >= 3 && opts.StopTolerance > 0 && st.New+st.Changed+st.Lost == 0 &&
			st.RelationChanges == 0 && st.MaxDelta < opts.StopTolerance {
			break
		}
	}
	if err := a.fillResult(ctx, res); err != nil {
		return nil, err
	}
	if opts.Classes {
		t1, ok1 := kb1.(Taxonomy)
		t2, ok2 := kb2.(Taxonomy)
		if ok1 && ok2 {
			cls, err := a.classPass(ctx, t1, t2)
			if err != nil {
				return nil, err
			}
			res.Classes = cls
		} else {
			res.Warnings = append(res.Warnings, "classes not aligned: a KB does not read rdf:type and rdfs:subClassOf (no Taxonomy)")
		}
	}
	res.Stats.KB2Nodes, res.Stats.KB2Hubs = a.v2.reads, a.v2.hubs
	res.work = a.work
	res.partnerJumps = a.partnerJumps()
	for _, w := range a.workers {
		res.work.add(w.work)
	}
	if a.v1.hubs > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d KB1 nodes have more than %d edges and were not used as evidence (MaxDegree)", a.v1.hubs, opts.MaxDegree))
	}
	return res, nil
}

// loadKB1 reads every node of KB1 and its edges.
//
// The local indices follow the order in which the passes read the nodes: KB1's entities
// a window at a time (kb1Window, in the KB's order), each window followed by the nodes
// they reach in a few steps (kb1Steps) through nodes with few edges, so that an entity, its neighbours (an address) and
// their values lie together in every per-node table and in the edge arena. A pass over
// the entities then reads the tables nearly in order instead of at random; at a few
// hundred thousand nodes the tables outgrow the processor's caches and a random read
// costs a memory access. The literals are read last: their edges lead back to entities
// already numbered, except those of a value shared by many entities, which would
// otherwise number entities of every part of the KB at once.
func (a *aligner) loadKB1(ctx context.Context) error {
	v := a.v1
	var ents []graph.ID
	for id, err := range v.kb.(EntityLister).Entities(ctx) {
		if err != nil {
			return fmt.Errorf("align: read the entities of KB1: %w", err)
		}
		ents = append(ents, id)
	}
	v.reserve(3 * len(ents)) // entities, their literals and neighbours: a guess
	var ns []int32
	for start := 0; start < len(ents); start += kb1Window {
		ns = ns[:0]
		for _, id := range ents[start:min(start+kb1Window, len(ents))] {
			i, ok := v.idx.get(id)
			if !ok {
				i = v.local(id)
			}
			if !v.fetched[i] { // numbered as another window's neighbour, not read yet
				ns = append(ns, i)
			}
		}
		for step := 0; step < kb1Steps && len(ns) > 0; step++ {
			from := int32(v.size())
			if err := v.fetch(ctx, ns); err != nil {
				return err
			}
			// The entities first reached in this step through nodes with few edges: a
			// node with many (a country, a class-like value) would bring in entities
			// of every part of the KB, and so would their neighbours.
			next := ns[len(ns):]
			for _, n := range ns {
				if v.span[n].n > byNodeMin {
					continue
				}
				for _, e := range v.nodeEdges(n) {
					if e.node >= from && !v.lit[e.node] {
						next = append(next, e.node)
					}
				}
			}
			ns = append(ns[:0], next...)
		}
	}
	// Everything not read yet: the literals, and the entities further away. Reading a node gives local indices to its neighbours, which are read in turn.
	for done := 0; done < v.size(); {
		n := v.size()
		ns := make([]int32, 0, n-done)
		for i := int32(done); i < int32(n); i++ {
			ns = append(ns, i)
		}
		if err := v.fetch(ctx, ns); err != nil {
			return err
		}
		done = n
	}
	for i := int32(0); i < int32(v.size()); i++ {
		if !v.lit[i] && len(v.nodeEdges(i)) > 0 {
			a.tgt = append(a.tgt, i)
		}
	}
	return nil
}

// kb1Steps is how far from a window's entities loadKB1 reads before the next window:
// a person, its address, the address's city and the city's country.
const kb1Steps = 4

// kb1Window is the number of KB1 entities numbered together with the nodes near them
// (loadKB1): enough for one read of the KB per window to cost little per node, few
// enough for a window's nodes to fit in a processor's cache.
const kb1Window = 256

// anchors1 returns the counterparts of KB1 node i that propagate evidence: its literal
// matches, or its kept partner if that scores at least θ.
func (a *aligner) anchors1(i int32) []anchor {
	if a.v1.lit[i] {
		return a.lit1.of(i)
	}
	if m := a.eq1[i]; m.node >= 0 && m.score >= a.opts.Theta {
		return a.eqAnc1[i : i+1]
	}
	return nil
}

// anchors2 is anchors1 seen from KB2.
func (a *aligner) anchors2(j int32) []anchor {
	if a.v2.lit[j] {
		return a.lit2.of(j)
	}
	if int(j) < len(a.eq2) {
		if m := a.eq2[j]; m.node >= 0 && m.score >= a.opts.Theta {
			return a.eqAnc2[j : j+1]
		}
	}
	return nil
}

// assign reduces the candidates to a 1:1 matching (greedy by decreasing score, ties by
// increasing node ids), or with OneToMany keeps the best candidate of each KB1 entity
// (PARIS's takeMax without takeMaxMax: a KB2 entity may have several KB1 partners, its
// equality being the best of them), replaces the equalities with it and fills the change
// counts of st. It returns the largest score change of a pair kept in both iterations.
func (a *aligner) assign(cands []cand, st *IterationStats) float64 {
	slices.SortFunc(cands, func(x, y cand) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		if c := compareID(a.v1.ids[x.y1], a.v1.ids[y.y1]); c != 0 {
			return c
		}
		return compareID(a.v2.ids[x.y2], a.v2.ids[y.y2])
	})
	eq1 := make([]match, len(a.eq1))
	for i := range eq1 {
		eq1[i] = match{node: -1}
	}
	eq2 := make([]match, a.v2.size())
	for i := range eq2 {
		eq2[i] = match{node: -1}
	}
	for _, c := range cands {
		if eq1[c.y1].node >= 0 || (eq2[c.y2].node >= 0 && !a.opts.OneToMany) {
			continue
		}
		eq1[c.y1] = match{node: c.y2, score: c.score, support: c.support, comparable: c.comparable}
		if eq2[c.y2].node < 0 {
			eq2[c.y2] = match{node: c.y1, score: c.score}
		}
	}
	theta := a.opts.Theta
	delta := 0.0
	for i := range eq1 {
		old, cur := a.eq1[i], eq1[i]
		oldOK, curOK := old.node >= 0 && old.score >= theta, cur.node >= 0 && cur.score >= theta
		switch {
		case curOK && !oldOK:
			st.New++
		case !curOK && oldOK:
			st.Lost++
		case curOK && oldOK && old.node != cur.node:
			st.Changed++
		case curOK && oldOK:
			delta = max(delta, math.Abs(cur.score-old.score))
		}
		if curOK {
			st.Matched++
		}
	}
	a.eq1, a.eq2 = eq1, eq2
	for i, m := range eq1 {
		a.eqAnc1[i] = anchor{node: m.node, score: m.score}
	}
	a.eqAnc2 = make([]anchor, len(eq2))
	for j, m := range eq2 {
		a.eqAnc2[j] = anchor{node: m.node, score: m.score}
	}
	return delta
}

func compareID(a, b graph.ID) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
