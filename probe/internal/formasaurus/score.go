package formasaurus

import (
	"fmt"
	"io"
	"slices"

	"github.com/trawl-dev/trawl/probe"
)

// PRF counts the outcomes of a binary decision.
type PRF struct{ TP, FP, FN int }

// Precision returns TP/(TP+FP), 0 when nothing was predicted.
func (s PRF) Precision() float64 { return ratio(s.TP, s.TP+s.FP) }

// Recall returns TP/(TP+FN), 0 when there is nothing to find.
func (s PRF) Recall() float64 { return ratio(s.TP, s.TP+s.FN) }

// F1 returns the harmonic mean of precision and recall.
func (s PRF) F1() float64 {
	p, r := s.Precision(), s.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Support returns the number of true instances (TP+FN).
func (s PRF) Support() int { return s.TP + s.FN }

func (s *PRF) add(gold, pred bool) {
	switch {
	case gold && pred:
		s.TP++
	case pred:
		s.FP++
	case gold:
		s.FN++
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Scores are the figures of a classifier on annotated forms.
type Scores struct {
	// Forms is the number of forms with an annotated class; Correct how many got it.
	Forms, Correct int
	// Class holds precision and recall per form class.
	Class map[probe.Class]*PRF
	// Keyword scores the keyword boxes over the annotated fields of the forms whose
	// class and fields are annotated: a field counts as predicted when its name is in
	// the form's KeywordFields, as gold when it is annotated as a search query (qq).
	// Predicted names that are not annotated count as false positives.
	Keyword PRF
	// KeywordFields is the number of annotated fields scored for Keyword;
	// KeywordForms the number of forms they come from.
	KeywordFields, KeywordForms int
	// Role holds precision and recall per field role over the same fields.
	Role map[string]*PRF
}

// Score compares the classified forms pred (pred[i] is exs[i].Form after
// classification) with the annotations.
func Score(exs []Example, pred []probe.Form) Scores {
	s := Scores{Class: map[probe.Class]*PRF{}, Role: map[string]*PRF{}}
	for _, c := range probe.Classes {
		s.Class[c] = &PRF{}
	}
	for i, ex := range exs {
		if ex.Class == "" {
			continue
		}
		p := pred[i]
		s.Forms++
		if p.Class == ex.Class {
			s.Correct++
		}
		for _, c := range probe.Classes {
			s.Class[c].add(ex.Class == c, p.Class == c)
		}
		if ex.Roles == nil {
			continue
		}
		s.KeywordForms++
		predKW := map[string]bool{}
		for _, n := range p.KeywordFields {
			predKW[n] = true
		}
		// the role of a name is the role of its first visible field (Rails pairs a
		// checkbox with a hidden input of the same name)
		roleOf := map[string]string{}
		for _, fl := range p.Fields {
			if fl.Name != "" && fl.Type != "hidden" && roleOf[fl.Name] == "" {
				roleOf[fl.Name] = fl.Role
			}
		}
		for name, role := range ex.Roles {
			if role == "" {
				continue
			}
			s.KeywordFields++
			s.Keyword.add(role == probe.RoleKeyword, predKW[name])
			for _, r := range roleNames(role, roleOf[name]) {
				if s.Role[r] == nil {
					s.Role[r] = &PRF{}
				}
				s.Role[r].add(role == r, roleOf[name] == r)
			}
		}
		for n := range predKW {
			if _, ok := ex.Roles[n]; !ok {
				s.Keyword.FP++
			}
		}
	}
	return s
}

func roleNames(a, b string) []string {
	if a == b || b == "" {
		return []string{a}
	}
	return []string{a, b}
}

// Accuracy returns the fraction of scored forms classified correctly.
func (s Scores) Accuracy() float64 { return ratio(s.Correct, s.Forms) }

// Write prints the scores as a table.
func (s Scores) Write(w io.Writer) {
	fmt.Fprintf(w, "%-18s %9s %9s %9s %8s\n", "form class", "precision", "recall", "f1", "support")
	for _, c := range probe.Classes {
		p := s.Class[c]
		fmt.Fprintf(w, "%-18s %9.3f %9.3f %9.3f %8d\n", c, p.Precision(), p.Recall(), p.F1(), p.Support())
	}
	fmt.Fprintf(w, "forms: %d, correctly classified: %.1f %%\n\n", s.Forms, 100*s.Accuracy())
	fmt.Fprintf(w, "%-18s %9s %9s %9s %8s\n", "field role", "precision", "recall", "f1", "support")
	roles := make([]string, 0, len(s.Role))
	for r := range s.Role {
		roles = append(roles, r)
	}
	slices.Sort(roles)
	for _, r := range roles {
		p := s.Role[r]
		fmt.Fprintf(w, "%-18s %9.3f %9.3f %9.3f %8d\n", r, p.Precision(), p.Recall(), p.F1(), p.Support())
	}
	fmt.Fprintf(w, "keyword box (KeywordFields): precision %.3f recall %.3f f1 %.3f (%d gold boxes, %d fields in %d forms)\n",
		s.Keyword.Precision(), s.Keyword.Recall(), s.Keyword.F1(), s.Keyword.Support(), s.KeywordFields, s.KeywordForms)
}

// WriteErrors lists the forms whose search/non-search decision or keyword boxes are
// wrong, with their page, for error analysis.
func WriteErrors(w io.Writer, pages []Page, exs []Example, pred []probe.Form) {
	for i, ex := range exs {
		if ex.Class == "" {
			continue
		}
		p := pred[i]
		gold := ex.Class == probe.ClassSearch
		got := p.Class == probe.ClassSearch
		var goldKW []string
		for n, r := range ex.Roles {
			if r == probe.RoleKeyword {
				goldKW = append(goldKW, n)
			}
		}
		slices.Sort(goldKW)
		predKW := slices.Sorted(slices.Values(p.KeywordFields))
		kwWrong := ex.Roles != nil && !slices.Equal(goldKW, predKW)
		if gold == got && !kwWrong {
			continue
		}
		var fields []string
		for _, fl := range p.Fields {
			if fl.Type == "hidden" {
				continue
			}
			fields = append(fields, fmt.Sprintf("%s:%s[%s]", fl.Type, fl.Name, fl.Role))
		}
		fmt.Fprintf(w, "%s form %d: gold %s %v, predicted %s (%.2f) %v\n    action %s | fields %v | text %.100q\n",
			pages[ex.Page].Key, *p.Index, ex.Class, goldKW, p.Class, p.Confidence, predKW, p.Action, fields, p.Text)
	}
}
