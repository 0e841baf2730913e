package align

import (
	"context"
	"slices"
)

// The facts of a value that several entities share (an age, a postcode, a surname kept
// in every copy of a KB) end at entities of every part of the KB. A relation pass that
// reads them literal by literal reads the anchors of each end, and the spans and edges
// of their counterparts in `to`, at random: once the tables outgrow the processor's
// caches, every such fact waits for memory (at ×200 Persons1 a shared value's fact
// cost 2.4 times an entity's). Each fact's evidence depends only on the literal's
// anchors and fronts and on the fact's end (factEvidence), so the pass computes the
// evidence of all the shared values' facts first, sorted by end: an entity's tables are
// then read once for all the values it holds, in the order of the tables. The sums are
// still made in the pass's order, so the result is the same bit for bit.

// sharedMin is the number of edges from which a literal of `from` has its facts'
// evidence computed ahead (sharedFacts).
const sharedMin = 3

// sharedFacts holds, for the shared literals of `from` in one relation pass, their facts
// (in factsToAnchored's order), the fronts of their anchors and the evidence of every
// fact, computed ahead of the pass in the order of the facts' ends.
type sharedFacts struct {
	nodes    []int32      // the literals, ascending
	info     []sharedNode // by literal
	facts    []pathEnd    // the literals' facts, each literal's together
	factOf   []int32      // the literal (index in nodes) of each fact
	fronts   []frontEntry // the fronts of the literals' anchors, one after the other
	frontN   []int32      // the nodes of fronts
	frontOff []int32      // front k of literal i: [frontOff[info[i].front+k], frontOff[info[i].front+k+1])
	ev       []sharedEv   // by fact
	scores   []pathScore  // the evidence by path of `to` of the facts (sharedEv.off, n)
}

// sharedNode locates the facts and fronts of a shared literal.
type sharedNode struct {
	ok             bool // computed: none of its reads met a node not read yet
	factOff, factN int32
	front          int32
}

// sharedEv is the evidence of one fact (factEvidence): its product, whether it may pair
// at all, the pairs of anchors searched and its scores by path of `to`.
type sharedEv struct {
	prodN  float64
	off, n int32
	pairs  int32
	ok     bool
}

// of returns the index of x among the shared literals, if its evidence was computed.
func (sf *sharedFacts) of(x int32) (int, bool) {
	if sf == nil {
		return 0, false
	}
	i, found := slices.BinarySearch(sf.nodes, x)
	return i, found && sf.info[i].ok
}

// sharedChunk is what one unit of sharedEvidence's first step lists.
type sharedChunk struct {
	ok        []bool
	factN     []int32
	facts     []pathEnd
	frontLens []int32
	fronts    []frontEntry
	skipped   map[Path]bool
}

// evChunk is what one unit of sharedEvidence's second step computes.
type evChunk struct {
	ev     []sharedEv
	scores []pathScore
	bad    []int32
}

// sharedUnit and sharedEvUnit are the sizes of sharedEvidence's units: literals, facts.
const (
	sharedUnit   = 16
	sharedEvUnit = 2048
)

// sharedEvidence computes ahead the evidence of the facts of the shared literals among
// nodes (sharedFacts) for a pass in litSkip mode, adding the paths left out to skipped.
// It never reads a node of `to` that was not read: a literal whose reads meet one is
// left to the pass, which reads it as before.
func (a *aligner) sharedEvidence(ctx context.Context, nodes []int32, mid midIndex, anchFrom func(int32) []anchor, reverse bool, skipped map[Path]bool) (*sharedFacts, error) {
	fromV := a.v1
	if reverse {
		fromV = a.v2
	}
	sf := &sharedFacts{}
	for _, x := range nodes {
		if fromV.lit[x] && len(fromV.nodeEdges(x)) >= sharedMin && len(anchFrom(x)) > 0 {
			sf.nodes = append(sf.nodes, x)
		}
	}
	if len(sf.nodes) == 0 {
		return nil, nil
	}
	readers := func(w *worker) (from, to *reader) {
		if reverse {
			return &w.r2, &w.r1
		}
		return &w.r1, &w.r2
	}
	clean := func(w *worker) bool {
		ok := len(w.r1.miss)+len(w.r2.miss) == 0
		w.r1.miss, w.r2.miss = w.r1.miss[:0], w.r2.miss[:0] // nothing is read here
		w.unitWork = workCounts{}                           // counted when the pass uses it
		return ok
	}
	sf.info = make([]sharedNode, len(sf.nodes))
	sf.frontOff = []int32{0}
	// First the literals' facts and fronts, literal by literal.
	err := runUnits(ctx, a, (len(sf.nodes)+sharedUnit-1)/sharedUnit, nil,
		func(w *worker, u int) *sharedChunk {
			from, to := readers(w)
			c := &sharedChunk{skipped: map[Path]bool{}}
			for _, x := range sf.nodes[u*sharedUnit : min((u+1)*sharedUnit, len(sf.nodes))] {
				ax := anchFrom(x)
				w.facts = w.factsToAnchored(from, x, mid, litSkip, nil, c.skipped, w.facts[:0])
				c.facts = append(c.facts, w.facts...)
				c.factN = append(c.factN, int32(len(w.facts)))
				if len(w.facts) > 0 {
					for _, xa := range ax {
						f := w.frontier(to, xa.node, w.frontTmp2[:0])
						c.fronts = append(c.fronts, f...)
						c.frontLens = append(c.frontLens, int32(len(f)))
						w.frontTmp2 = f
					}
				}
				c.ok = append(c.ok, clean(w))
			}
			return c
		},
		func(u int, c *sharedChunk) {
			fl := 0
			for k := range c.ok {
				i := u*sharedUnit + k
				nd := &sf.info[i]
				nd.ok = c.ok[k]
				nd.factOff, nd.factN = int32(len(sf.facts)), c.factN[k]
				nd.front = int32(len(sf.frontOff) - 1)
				sf.facts = append(sf.facts, c.facts[:nd.factN]...)
				c.facts = c.facts[nd.factN:]
				for range nd.factN {
					sf.factOf = append(sf.factOf, int32(i))
				}
				if nd.factN > 0 {
					for range anchFrom(sf.nodes[i]) {
						sf.frontOff = append(sf.frontOff, sf.frontOff[len(sf.frontOff)-1]+c.frontLens[fl])
						fl++
					}
				}
			}
			sf.fronts = append(sf.fronts, c.fronts...)
			for p := range c.skipped {
				skipped[p] = true
			}
		})
	if err != nil {
		return nil, err
	}
	sf.frontN = make([]int32, len(sf.fronts))
	for k, fe := range sf.fronts {
		sf.frontN[k] = fe.node
	}
	// Then the evidence of every fact, in the order of the facts' ends.
	keys := make([]uint64, 0, len(sf.facts))
	for f, pe := range sf.facts {
		if sf.info[sf.factOf[f]].ok {
			keys = append(keys, uint64(uint32(pe.end))<<32|uint64(f))
		}
	}
	slices.Sort(keys)
	sf.ev = make([]sharedEv, len(sf.facts))
	err = runUnits(ctx, a, (len(keys)+sharedEvUnit-1)/sharedEvUnit, nil,
		func(w *worker, u int) *evChunk {
			_, to := readers(w)
			c := &evChunk{}
			for _, key := range keys[u*sharedEvUnit : min((u+1)*sharedEvUnit, len(keys))] {
				f := int32(uint32(key))
				i := sf.factOf[f]
				nd := sf.info[i]
				ax := anchFrom(sf.nodes[i])
				w.sfFronts, w.sfFrontN = w.sfFronts[:0], w.sfFrontN[:0]
				for k := range ax {
					lo, hi := sf.frontOff[int(nd.front)+k], sf.frontOff[int(nd.front)+k+1]
					w.sfFronts = append(w.sfFronts, sf.fronts[lo:hi:hi])
					w.sfFrontN = append(w.sfFrontN, sf.frontN[lo:hi:hi])
				}
				prodN, ok := w.factEvidence(to, ax, w.sfFronts, w.sfFrontN, sf.facts[f], anchFrom)
				off := len(c.scores)
				if ok && prodN < 1 {
					c.scores = appendPathScores(w.items, c.scores)
				}
				c.ev = append(c.ev, sharedEv{prodN: prodN, off: int32(off), n: int32(len(c.scores) - off), pairs: int32(w.unitWork.pathPairs), ok: ok})
				if !clean(w) {
					c.bad = append(c.bad, i)
				}
			}
			return c
		},
		func(u int, c *evChunk) {
			base := int32(len(sf.scores))
			for k, key := range keys[u*sharedEvUnit : min((u+1)*sharedEvUnit, len(keys))] {
				e := c.ev[k]
				e.off += base
				sf.ev[int32(uint32(key))] = e
			}
			sf.scores = append(sf.scores, c.scores...)
			for _, i := range c.bad {
				sf.info[i].ok = false
			}
		})
	if err != nil {
		return nil, err
	}
	return sf, nil
}

// sharedRelationFacts adds to acc the evidence of the facts of the shared literal
// sf.nodes[i], computed ahead: what relationFacts would add.
func (w *worker) sharedRelationFacts(sf *sharedFacts, i int, acc *relAcc) {
	nd := sf.info[i]
	facts := sf.facts[nd.factOff : nd.factOff+nd.factN]
	w.unitWork.relFacts += int64(len(facts))
	run := w.startRun(acc)
	for k, f := range facts {
		e := sf.ev[int(nd.factOff)+k]
		w.unitWork.pathPairs += int64(e.pairs)
		if !e.ok || e.prodN >= 1 {
			continue
		}
		run.add(f.p, e.prodN, sf.scores[e.off:e.off+e.n])
	}
	run.flush()
	w.runS = run.runS
}
