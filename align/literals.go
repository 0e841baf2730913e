package align

import (
	"context"
	"fmt"
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

// matchLiterals finds the KB2 counterparts of every KB1 literal, once per run: the
// literal anchors of both sides. It returns how many KB1 literals found one.
func (a *aligner) matchLiterals(ctx context.Context) (int, error) {
	o := a.opts
	matched := 0
	for i := int32(0); i < int32(a.v1.size()); i++ {
		if !a.v1.lit[i] {
			continue
		}
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		t, err := a.v1.kb.Term(ctx, a.v1.ids[i])
		if err != nil {
			return 0, err
		}
		text := t.Value
		if strings.TrimSpace(text) == "" {
			continue
		}
		cands, err := a.v2.kb.Candidates(ctx, text, o.LiteralCandidates)
		if err != nil {
			return 0, fmt.Errorf("align: literal candidates of %s in %s: %w", t, a.v2.name, err)
		}
		var anchors []anchor
		hasExact := false
		for _, c := range cands {
			if c.Exact {
				hasExact = true
				break
			}
		}
		approxOK := o.Literals == LiteralApprox && !hasExact && graph.IsStringLiteral(t)
		var approxNorm string
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
					return 0, err
				}
				if t2.Value == text {
					score = 1
				}
			case c.Exact:
				score = 1
			case approxOK:
				t2, err := a.v2.kb.Term(ctx, c.Node)
				if err != nil {
					return 0, err
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
				anchors = append(anchors, anchor{node: a.v2.local(c.Node), score: score})
			}
		}
		if len(anchors) == 0 {
			continue
		}
		matched++
		a.lit1[i] = anchors
		for _, an := range anchors {
			a.lit2[an.node] = append(a.lit2[an.node], anchor{node: i, score: an.score})
		}
	}
	return matched, nil
}
