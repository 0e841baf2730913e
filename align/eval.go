package align

import (
	"fmt"
	"io"
	"slices"
)

// Score is the evaluation of one kind of alignment (in one direction for relations and
// classes) against a gold, with PARIS's counting convention (paris.md §11):
// an alignment of an item the gold has a partner for is CORRECT or WRONG; one of an
// item the gold does not mention is not counted (DONTKNOW). For instances, a gold of
// 1:1 pairs also mentions the KB2 entity: a link to an entity that the gold pairs with
// another KB1 entity is WRONG even when its own KB1 entity is not in the gold, so that
// every link that contradicts the gold counts.
// Precision = correct / (correct + wrong); Recall = correct / gold.
type Score struct {
	Kind      string  `json:"kind"`                // instance, relation or class
	Direction string  `json:"direction,omitempty"` // "KB1⊆KB2" or "KB2⊆KB1" for relations and classes
	Gold      int     `json:"gold"`
	Correct   int     `json:"correct"`
	Wrong     int     `json:"wrong"`
	DontKnow  int     `json:"dont_know"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	// WeightedPrecision weights each relation by the n behind its score (its facts with
	// counterparts); relations only.
	WeightedPrecision float64 `json:"weighted_precision,omitempty"`
	// Missed lists gold items without a correct alignment (at most 20).
	Missed []string `json:"missed,omitempty"`
}

func (s *Score) finish() {
	if s.Correct+s.Wrong > 0 {
		s.Precision = float64(s.Correct) / float64(s.Correct+s.Wrong)
	}
	if s.Gold > 0 {
		s.Recall = float64(s.Correct) / float64(s.Gold)
	}
	if s.Precision+s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}
}

func (s *Score) miss(item string) {
	if len(s.Missed) < 20 {
		s.Missed = append(s.Missed, item)
	}
}

// Evaluate scores res against g: instances, then relations and classes in both
// directions (only the kinds the gold has). Relation pairs are compared up to
// inversion of both sides (r ⊆ s is r⁻ ⊆ s⁻), and for each subrelation only its best
// superrelation counts, as in PARIS's evaluation; joins are evaluated like relations.
func Evaluate(res *Result, g *Gold) []Score {
	var out []Score
	if len(g.Instances) > 0 {
		s := Score{Kind: "instance", Gold: len(g.Instances)}
		found := map[string]bool{}
		partnered := make(map[string]bool, len(g.Instances)) // KB2 entities of the gold
		for _, r := range g.Instances {
			partnered[r] = true
		}
		for _, m := range res.Instances {
			l, r := termText(m.LeftTerm), termText(m.RightTerm)
			want, ok := g.Instances[l]
			switch {
			case !ok && partnered[r]:
				s.Wrong++ // the gold gives r to another KB1 entity
			case !ok:
				s.DontKnow++
			case want == r:
				s.Correct++
				found[l] = true
			default:
				s.Wrong++
			}
		}
		for l, r := range g.Instances {
			if !found[l] {
				s.miss(l + " = " + r)
			}
		}
		sortStrings(s.Missed)
		s.finish()
		out = append(out, s)
	}
	if len(g.Relations) > 0 {
		for _, dir := range []int{1, 2} {
			out = append(out, evalRelations(res, g, dir))
		}
	}
	if len(g.Classes) > 0 {
		for _, dir := range []int{1, 2} {
			out = append(out, evalClasses(res, g, dir))
		}
	}
	return out
}

func direction(dir int) string {
	if dir == 1 {
		return "KB1⊆KB2"
	}
	return "KB2⊆KB1"
}

// canonical orients a relation pair so that its subrelation has as few inverse steps as
// possible (PARIS: "if the first relation ends in -, invert both"), ties broken by a
// forward first step, then by path order.
func canonical(sub, super Path) (Path, Path) {
	inv := sub.Inverse()
	ns, ni := inverseSteps(sub), inverseSteps(inv)
	switch {
	case ni < ns:
		return inv, super.Inverse()
	case ni > ns:
		return sub, super
	}
	fs, fi := !sub.Step(0).IsInverse(), !inv.Step(0).IsInverse()
	if fi && !fs || fi == fs && comparePath(inv, sub) < 0 {
		return inv, super.Inverse()
	}
	return sub, super
}

func inverseSteps(p Path) int {
	n := 0
	for i := 0; i < p.Len(); i++ {
		if p.Step(i).IsInverse() {
			n++
		}
	}
	return n
}

func evalRelations(res *Result, g *Gold, dir int) Score {
	s := Score{Kind: "relation", Direction: direction(dir), Gold: len(g.Relations)}
	type best struct {
		super Path
		conf  float64
		n     float64
	}
	bests := map[Path]best{}
	for _, m := range res.Relations {
		if m.SubKB != dir {
			continue
		}
		sub, super := m.Left, m.Right
		if dir == 2 {
			sub, super = m.Right, m.Left
		}
		sub, super = canonical(sub, super)
		if b, ok := bests[sub]; !ok || m.Confidence > b.conf {
			bests[sub] = best{super, m.Confidence, m.N}
		}
	}
	want := map[Path]Path{}
	names := map[Path]string{}
	for _, gr := range g.Relations {
		sub, super := gr.Left, gr.Right
		if dir == 2 {
			sub, super = gr.Right, gr.Left
		}
		sub, super = canonical(sub, super)
		want[sub] = super
		names[sub] = gr.Name
	}
	var wc, wt float64
	for sub, b := range bests {
		w, ok := want[sub]
		switch {
		case !ok:
			s.DontKnow++
			continue
		case w == b.super:
			s.Correct++
			wc += b.n
		default:
			s.Wrong++
		}
		wt += b.n
	}
	for sub, w := range want {
		if b, ok := bests[sub]; !ok || b.super != w {
			s.miss(names[sub])
		}
	}
	sortStrings(s.Missed)
	s.finish()
	if wt > 0 {
		s.WeightedPrecision = wc / wt
	}
	return s
}

func evalClasses(res *Result, g *Gold, dir int) Score {
	s := Score{Kind: "class", Direction: direction(dir), Gold: len(g.Classes)}
	type best struct {
		super string
		conf  float64
	}
	bests := map[string]best{}
	for _, m := range res.Classes {
		if m.SubKB != dir {
			continue
		}
		sub, super := termText(m.LeftTerm), termText(m.RightTerm)
		if dir == 2 {
			sub, super = super, sub
		}
		if b, ok := bests[sub]; !ok || m.Confidence > b.conf || m.Confidence == b.conf && super < b.super {
			bests[sub] = best{super, m.Confidence}
		}
	}
	want := map[string]string{}
	for _, c := range g.Classes {
		if dir == 1 {
			want[c[0]] = c[1]
		} else {
			want[c[1]] = c[0]
		}
	}
	for sub, b := range bests {
		w, ok := want[sub]
		switch {
		case !ok:
			s.DontKnow++
		case w == b.super:
			s.Correct++
		default:
			s.Wrong++
		}
	}
	for sub, w := range want {
		if b, ok := bests[sub]; !ok || b.super != w {
			s.miss(sub + " ⊆ " + w)
		}
	}
	sortStrings(s.Missed)
	s.finish()
	return s
}

// WriteScores prints scores as an aligned table.
func WriteScores(w io.Writer, scores []Score) error {
	if _, err := fmt.Fprintf(w, "%-9s %-8s %5s %7s %5s %8s %9s %6s %6s\n", "kind", "dir", "gold", "correct", "wrong", "dontknow", "precision", "recall", "F1"); err != nil {
		return err
	}
	for _, s := range scores {
		dir := s.Direction
		if dir == "" {
			dir = "-"
		}
		if _, err := fmt.Fprintf(w, "%-9s %-8s %5d %7d %5d %8d %9.3f %6.3f %6.3f\n", s.Kind, dir, s.Gold, s.Correct, s.Wrong, s.DontKnow, s.Precision, s.Recall, s.F1); err != nil {
			return err
		}
	}
	return nil
}

func sortStrings(s []string) { slices.Sort(s) }
