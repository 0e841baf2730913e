package schematest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// Truth is the ground truth of a site's records.
type Truth struct {
	// Attributes are the true attributes, in order.
	Attributes []string
	// Value returns the true value of attribute a in record i ("" when it has none).
	Value func(i int, a string) string
	// Fields maps an attribute to the form fields (text or select) that filter on it.
	Fields map[string][]string
}

// TruthOf returns the truth of a run of the site written by WriteRun.
func (s *Site) TruthOf(run *Run) Truth {
	attrs := s.Truth()
	t := Truth{Fields: map[string][]string{}}
	byName := map[string]Attribute{}
	for _, a := range attrs {
		t.Attributes = append(t.Attributes, a.Name)
		t.Fields[a.Name] = slices.Concat(a.Filters, a.Selects)
		byName[a.Name] = a
	}
	t.Value = func(i int, a string) string { return byName[a].Value(run.Books[i]) }
	return t
}

// Score is the comparison of an output schema with the truth.
type Score struct {
	Precision, Recall float64
	// Matched maps each matched attribute to its feature.
	Matched map[string]string
	// Extra are the features that match no attribute (or one already matched); Missed
	// the attributes no feature matches.
	Extra, Missed []string
	// WrongMappings are mappings to a feature of another attribute (or of none);
	// MissingMappings the fields that filter an attribute but are not mapped to it.
	WrongMappings, MissingMappings []string
}

func (sc Score) String() string {
	return fmt.Sprintf("P=%.3f R=%.3f matched=%v extra=%v missed=%v wrong-mappings=%v missing-mappings=%v",
		sc.Precision, sc.Recall, sc.Matched, sc.Extra, sc.Missed, sc.WrongMappings, sc.MissingMappings)
}

func normal(s string) string { return strings.Join(textnorm.Tokens(s), " ") }

// Evaluate compares the text features of s (the output schema's attributes; link
// features are not attributes) with the true attributes: a feature matches an attribute
// when, over the records where either has a value, its values equal the true value
// (after normalisation) in at least 90 % of them. Each attribute is matched by one
// feature at most.
func Evaluate(s *schema.Schema, recs []records.Record, t Truth) Score {
	vals := make([][][]string, len(recs))
	for i, r := range recs {
		vals[i] = s.Values(r)
	}
	sc := Score{Matched: map[string]string{}}
	used := map[string]bool{}
	featureAttr := map[string]string{}
	texts := 0
	for fi, f := range s.Features {
		if f.Kind != schema.KindText {
			continue
		}
		texts++
		best, bestAgree := "", 0.0
		for _, a := range t.Attributes {
			if used[a] {
				continue
			}
			union, agree := 0, 0
			for i := range recs {
				got := normal(strings.Join(vals[i][fi], " "))
				want := normal(t.Value(i, a))
				if got == "" && want == "" {
					continue
				}
				union++
				if got == want {
					agree++
				}
			}
			if union > 0 && float64(agree)/float64(union) > bestAgree {
				best, bestAgree = a, float64(agree)/float64(union)
			}
		}
		if bestAgree >= 0.9 {
			used[best] = true
			sc.Matched[best] = f.Name
			featureAttr[f.Name] = best
		} else {
			sc.Extra = append(sc.Extra, f.Name)
		}
	}
	for _, a := range t.Attributes {
		if !used[a] {
			sc.Missed = append(sc.Missed, a)
		}
	}
	if texts > 0 {
		sc.Precision = float64(len(sc.Matched)) / float64(texts)
	}
	if len(t.Attributes) > 0 {
		sc.Recall = float64(len(sc.Matched)) / float64(len(t.Attributes))
	}
	mapped := map[string]bool{}
	for _, m := range s.Mapping {
		a, ok := featureAttr[m.Feature]
		if !ok || !slices.Contains(t.Fields[a], m.Field) {
			sc.WrongMappings = append(sc.WrongMappings, m.Field+"->"+m.Feature)
			continue
		}
		mapped[m.Field+"\x00"+a] = true
	}
	for _, a := range t.Attributes {
		for _, fd := range t.Fields[a] {
			if !mapped[fd+"\x00"+a] {
				sc.MissingMappings = append(sc.MissingMappings, fd+"->"+a)
			}
		}
	}
	return sc
}
