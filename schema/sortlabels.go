package schema

import (
	"context"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Labels from a sort control. A form's "sorted by" select names the record attributes
// the site can order by ("title", "author", "date"); submitted with one of its options,
// the site returns the records ordered by that attribute. The feature whose values on
// that page are in order (ascending or descending), and in order under no other option,
// takes the option's text as a label (source "sort"): a name the site gives, ranked
// below a header, a prefix or a field label and above a description derived from the
// values. Text is compared in matching form without a leading stop word ("The Hero of
// Ages" sorts under H in a library), or by its last word (names sorted by surname);
// ordered types by their value.

// LabelSort is the source of a label taken from a sort control's option.
const LabelSort = "sort"

// minSortedShare is the least share of consecutive pairs of a page's values in order
// for the feature to count as sorted; minSortedValues the least distinct values.
const (
	minSortedShare  = 0.9
	minSortedValues = 5
)

// sortLabels submits each option of the form's sort controls (the selected one is the
// control page) within the submission budget, and labels the feature each orders.
func (r *resubmission) sortLabels(ctx context.Context, form rundir.Form) error {
	s := r.s
	for _, fd := range form.Fields {
		if fd.Role != "sort" || fd.Disabled || len(fd.Options) < 2 {
			continue
		}
		byOption := map[string][]string{} // option text → features in order
		orderedBy := map[string]int{}     // feature → options it is in order under
		var texts []string
		for _, op := range fd.Options {
			text := CleanLabel(op.Text)
			if op.Disabled || op.Value == "" || text == "" {
				continue
			}
			got := r.baseline
			if !op.Selected || got == nil {
				if r.submissions >= r.o.MaxSubmissions {
					return nil
				}
				r.submissions++
				recs, err := r.sub.Submit(ctx, r.values(fd.Name, op.Value))
				if err != nil {
					if ctx.Err() != nil {
						return ctx.Err()
					}
					r.log.Warn("submission of a sort option failed", "field", fd.Name, "option", op.Value, "err", err)
					continue
				}
				got, _ = prepare(recs, nil)
			}
			texts = append(texts, text)
			for fi := range s.Features {
				f := &s.Features[fi]
				if f.Kind != KindText || f.Type == TypeURL {
					continue
				}
				if sortedShare(f, got) >= minSortedShare {
					byOption[text] = append(byOption[text], f.Key)
					orderedBy[f.Key]++
				}
			}
		}
		for _, text := range texts {
			fs := byOption[text]
			if len(fs) != 1 || orderedBy[fs[0]] != 1 {
				continue // none, several, or one in order under other options too
			}
			for i := range s.Features {
				if s.Features[i].Key == fs[0] {
					s.Features[i].Labels = append(s.Features[i].Labels, Label{Text: text, Source: LabelSort, Support: 1})
				}
			}
		}
	}
	return nil
}

// sortedShare returns the largest share of consecutive pairs of the page's first values
// of f that are in order, ascending or descending, over the sort keys; 0 when the page
// has fewer than minSortedValues distinct values.
func sortedShare(f *Feature, got []rec) float64 {
	var vals []string
	for ri := range got {
		if vs := featureValues(f.Locations, f.Split, &got[ri]); len(vs) > 0 {
			vals = append(vals, vs[0])
		}
	}
	best := 0.0
	for _, key := range []func(string) string{sortKey, lastWord} {
		keys := make([]string, len(vals))
		var nums []float64
		distinct := map[string]bool{}
		for i, v := range vals {
			keys[i] = key(v)
			distinct[keys[i]] = true
			if x, ok := orderValue(f, v); ok {
				nums = append(nums, x)
			}
		}
		if len(distinct) < minSortedValues {
			continue
		}
		cmp := func(i int) int { return strings.Compare(keys[i], keys[i+1]) }
		if len(nums) == len(vals) {
			cmp = func(i int) int {
				switch {
				case nums[i] < nums[i+1]:
					return -1
				case nums[i] > nums[i+1]:
					return 1
				}
				return 0
			}
		}
		asc, desc := 0, 0
		for i := 0; i+1 < len(vals); i++ {
			c := cmp(i)
			if c <= 0 {
				asc++
			}
			if c >= 0 {
				desc++
			}
		}
		best = max(best, float64(max(asc, desc))/float64(len(vals)-1))
	}
	return best
}

// sortKey is a value in matching form without a leading stop word.
func sortKey(v string) string {
	w := textnorm.Tokens(v)
	if len(w) > 1 && textnorm.IsStopWord(w[0]) {
		w = w[1:]
	}
	return strings.Join(w, " ")
}

// lastWord is the last word of a value in matching form: a name sorted by surname.
func lastWord(v string) string {
	w := textnorm.Tokens(v)
	if len(w) == 0 {
		return ""
	}
	return w[len(w)-1]
}
