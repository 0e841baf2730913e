package align

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// anchor is a counterpart of a node in the other KB, with the probability that the two
// are equal.
type anchor struct {
	node  int32
	score float64
}

// ApproxScore turns the Dice coefficient of an approximate literal match into PARIS's
// equality score (dice/penalty)², or 0 below minDice (paris.md §7: Dice 1.0 → 0.826,
// 0.9 → 0.669, 0.78 → 0.503 with penalty 1.1).
func ApproxScore(dice, minDice, penalty float64) float64 {
	if dice < minDice {
		return 0
	}
	s := dice / penalty
	return s * s
}

// anchorTable holds the anchors of the nodes of one view: node i's are
// an[off[i]:off[i+1]]; a node at or past len(off)-1 (numbered after the table was
// built) has none.
type anchorTable struct {
	off []int32
	an  []anchor
}

// of returns the anchors of node i.
func (t *anchorTable) of(i int32) []anchor {
	if int(i)+1 >= len(t.off) {
		return nil
	}
	return t.an[t.off[i]:t.off[i+1]:t.off[i+1]]
}

// litMatch is a KB2 literal that matches a KB1 literal, with its equality score.
type litMatch struct {
	node  graph.ID
	score float64
}

// exactScore scores a match of two string literals with the same normal form: 1 when they are
// equal once folded (case, accents, punctuation) and stripped of bracketed parts
// ("Hamlet (French Edition)" and "Hamlet"); otherwise, when only the removal of stop
// words made them equal ("The Woods" and "In the Woods", "The One & Only" and "The
// One"), the approximate score of their folded words, since the words that differ are
// part of what the text says.
func exactScore(a, b string, o Options) float64 {
	if a == b {
		return 1
	}
	wa, wb := wordForm(a), wordForm(b)
	if wa == wb {
		return 1
	}
	return ApproxScore(textnorm.Dice(wa, wb, o.ApproxK), o.ApproxMinDice, o.ApproxPenalty)
}

// wordForm is a text's folded words without bracketed parts, stop words kept.
func wordForm(s string) string {
	toks := textnorm.Tokens(textnorm.StripBracketed(s))
	if len(toks) == 0 {
		toks = textnorm.Tokens(s)
	}
	return strings.Join(toks, " ")
}

// matchLiterals finds the KB2 counterparts of every KB1 literal, once per run: the
// literal anchors of both sides. The lookups run on several goroutines (or in batches,
// if KB2 is a BatchLiteralMatcher); the anchors are then recorded in KB1 order. It
// returns how many KB1 literals found one.
func (a *aligner) matchLiterals(ctx context.Context) (int, error) {
	var lits []int32
	for i := int32(0); i < int32(a.v1.size()); i++ {
		if a.v1.lit[i] {
			lits = append(lits, i)
		}
	}
	found := make([][]litMatch, len(lits))
	const unit = 256
	err := parallelFor(ctx, len(a.workers), (len(lits)+unit-1)/unit, func(u int) error {
		lo, hi := u*unit, min((u+1)*unit, len(lits))
		return a.matchLiteralRange(ctx, lits[lo:hi], found[lo:hi])
	})
	if err != nil {
		return 0, err
	}
	// Both tables are flat (anchorTable): the anchors of the literals read one after
	// the other lie one after the other, with no pointer for the collector to follow.
	a.lit1 = anchorTable{off: make([]int32, a.v1.size()+1)}
	var pairs []anchor // (KB1 literal, score) for each KB2 anchor, in KB1 order
	var to2 []int32    // the KB2 literal of each element of pairs
	matched := 0
	next := 0 // lit1's offsets are filled up to node next
	for k, i := range lits {
		for ; next <= int(i); next++ {
			a.lit1.off[next] = int32(len(a.lit1.an))
		}
		if len(found[k]) == 0 {
			continue
		}
		matched++
		a.work.litCands += int64(len(found[k]))
		for _, m := range found[k] {
			an := anchor{node: a.v2.local(m.node), score: m.score}
			a.lit1.an = append(a.lit1.an, an)
			pairs = append(pairs, anchor{node: i, score: an.score})
			to2 = append(to2, an.node)
		}
	}
	for ; next <= a.v1.size(); next++ {
		a.lit1.off[next] = int32(len(a.lit1.an))
	}
	// lit2 lists the KB1 literals of each KB2 literal in KB1 order, as pairs has them.
	a.lit2 = anchorTable{off: make([]int32, a.v2.size()+1), an: make([]anchor, len(pairs))}
	for _, j := range to2 {
		a.lit2.off[j+1]++
	}
	for j := 1; j < len(a.lit2.off); j++ {
		a.lit2.off[j] += a.lit2.off[j-1]
	}
	fill := slices.Clone(a.lit2.off[:len(a.lit2.off)-1])
	for k, j := range to2 {
		a.lit2.an[fill[j]] = pairs[k]
		fill[j]++
	}
	return matched, nil
}

// matchLiteralRange fills found[k] with the KB2 literals matching KB1 literal lits[k].
func (a *aligner) matchLiteralRange(ctx context.Context, lits []int32, found [][]litMatch) error {
	o := a.opts
	texts := make([]string, len(lits))
	terms := make([]graph.Term, len(lits))
	for k, i := range lits {
		t, err := a.v1.kb.Term(ctx, a.v1.ids[i])
		if err != nil {
			return err
		}
		terms[k], texts[k] = t, t.Value
	}
	var batch [][]graph.Candidate
	if b, ok := a.lits.(BatchLiteralMatcher); ok {
		var ask []string
		for _, t := range texts {
			if strings.TrimSpace(t) != "" {
				ask = append(ask, t)
			}
		}
		got, err := b.CandidatesBatch(ctx, ask, o.LiteralCandidates)
		if err != nil {
			return fmt.Errorf("align: literal candidates of %d texts in %s: %w", len(ask), a.v2.name, err)
		}
		if len(got) != len(ask) {
			return fmt.Errorf("align: literal candidates in %s: %d answers for %d texts", a.v2.name, len(got), len(ask))
		}
		batch = got
	}
	for k, t := range terms {
		text := texts[k]
		if strings.TrimSpace(text) == "" {
			continue
		}
		var cands []graph.Candidate
		if batch != nil {
			cands, batch = batch[0], batch[1:]
		} else {
			var err error
			if cands, err = a.lits.Candidates(ctx, text, o.LiteralCandidates); err != nil {
				return fmt.Errorf("align: literal candidates of %s in %s: %w", t, a.v2.name, err)
			}
		}
		ms, err := a.scoreCandidates(ctx, t, cands)
		if err != nil {
			return err
		}
		found[k] = ms
	}
	return nil
}

// scoreCandidates turns the KB2 candidates of KB1 literal t into equality scores, as
// Options.Literals says: exact matches score 1; approximate ones, for a string literal
// without an exact match, (Dice/ApproxPenalty)² at Dice ≥ ApproxMinDice.
func (a *aligner) scoreCandidates(ctx context.Context, t graph.Term, cands []graph.Candidate) ([]litMatch, error) {
	o := a.opts
	text := t.Value
	hasExact := false
	for _, c := range cands {
		if c.Exact {
			hasExact = true
			break
		}
	}
	approxOK := o.Literals == LiteralApprox && !hasExact && graph.IsStringLiteral(t)
	var approxNorm string
	var out []litMatch
	for _, c := range cands {
		if !a.v2.kb.IsLiteral(c.Node) {
			continue
		}
		score := 0.0
		switch {
		case o.Literals == LiteralExact:
			if !c.Exact {
				continue
			}
			t2, err := a.v2.kb.Term(ctx, c.Node)
			if err != nil {
				return nil, err
			}
			if t2.Value == text {
				score = 1
			}
		case c.Exact:
			t2, err := a.v2.kb.Term(ctx, c.Node)
			if err != nil {
				return nil, err
			}
			score = 1
			if graph.IsStringLiteral(t) && graph.IsStringLiteral(t2) {
				score = exactScore(text, t2.Value, o)
			}
		case approxOK:
			t2, err := a.v2.kb.Term(ctx, c.Node)
			if err != nil {
				return nil, err
			}
			if !graph.IsStringLiteral(t2) {
				continue
			}
			dice := c.Score
			if o.ApproxK != graph.ShingleK {
				if approxNorm == "" {
					approxNorm = textnorm.Literal(text)
				}
				dice = textnorm.Dice(approxNorm, textnorm.Literal(t2.Value), o.ApproxK)
			}
			score = ApproxScore(dice, o.ApproxMinDice, o.ApproxPenalty)
		}
		if score > 0 {
			out = append(out, litMatch{node: c.Node, score: score})
		}
	}
	return out, nil
}
