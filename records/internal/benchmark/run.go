package benchmark

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"golang.org/x/net/html"
)

// Extractor predicts the records of pages: for each page, in order, its records as
// lists of absolute XPaths. It sees the pages' HTML only, never their truth.
type Extractor func(ctx context.Context, pages []Page) ([][][]string, error)

// Trainer fits whatever is learnt on the training pages and returns the extractor that
// uses it.
type Trainer func(ctx context.Context, train []Page) (Extractor, error)

// Row is the score of one page.
type Row struct {
	Page  string
	N     int
	Fold  int // -1 outside cross-validation
	True  int
	Found int
	Score PRF
	// Apart is true for pages whose truth does not resolve (not in the means).
	Apart bool
}

// Report holds the scores of an evaluation.
type Report struct {
	// Folds is the number of folds of a cross-validation (0 for a plain evaluation).
	Folds int
	Rows  []Row
	// Elapsed is the time the extractor took (over all folds), Training the time the
	// trainer took.
	Elapsed, Training time.Duration
}

// Evaluate runs ex once over all pages and scores every page.
func Evaluate(ctx context.Context, pages []Page, ex Extractor) (*Report, error) {
	rep := &Report{}
	t0 := time.Now()
	pred, err := ex(ctx, pages)
	if err != nil {
		return nil, err
	}
	rep.Elapsed = time.Since(t0)
	rows, err := score(pages, pred, -1)
	if err != nil {
		return nil, err
	}
	rep.Rows = rows
	return rep, nil
}

// CrossValidate runs a k-fold cross-validation: for each fold, train fits on the
// scorable pages of the other folds, and the extractor it returns runs over the
// fold's pages together and is scored on them.
func CrossValidate(ctx context.Context, pages []Page, k int, train Trainer) (*Report, error) {
	if k < 2 {
		return nil, fmt.Errorf("cross-validation needs at least 2 folds, got %d", k)
	}
	rep := &Report{Folds: k}
	for f := range k {
		var tr, te []Page
		for _, p := range pages {
			switch {
			case Fold(p.N, k) == f:
				te = append(te, p)
			case p.Scorable():
				tr = append(tr, p)
			}
		}
		if len(te) == 0 {
			continue
		}
		t0 := time.Now()
		ex, err := train(ctx, tr)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f, err)
		}
		t1 := time.Now()
		pred, err := ex(ctx, te)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f, err)
		}
		rep.Training += t1.Sub(t0)
		rep.Elapsed += time.Since(t1)
		rows, err := score(te, pred, f)
		if err != nil {
			return nil, err
		}
		rep.Rows = append(rep.Rows, rows...)
	}
	slices.SortStableFunc(rep.Rows, func(a, b Row) int { return a.N - b.N })
	return rep, nil
}

func score(pages []Page, pred [][][]string, fold int) ([]Row, error) {
	if len(pred) != len(pages) {
		return nil, fmt.Errorf("the extractor returned records for %d pages, not %d", len(pred), len(pages))
	}
	rows := make([]Row, len(pages))
	for i := range pages {
		p := &pages[i]
		doc, err := html.Parse(bytes.NewReader(p.HTML))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name(), err)
		}
		rows[i] = Row{Page: p.Name(), N: p.N, Fold: fold, True: len(p.Truth), Found: len(pred[i]),
			Score: Score(doc, pred[i], p.Truth), Apart: !p.Scorable()}
	}
	return rows, nil
}

// Mean is the mean score over the pages that are not apart.
func (r *Report) Mean() PRF { return Mean(r.scores(func(Row) bool { return true })) }

// FoldMean is the mean score over the pages of fold f that are not apart.
func (r *Report) FoldMean(f int) PRF { return Mean(r.scores(func(w Row) bool { return w.Fold == f })) }

// Pages counts the pages in the means.
func (r *Report) Pages() int { return len(r.scores(func(Row) bool { return true })) }

func (r *Report) scores(keep func(Row) bool) []PRF {
	var out []PRF
	for _, w := range r.Rows {
		if !w.Apart && keep(w) {
			out = append(out, w.Score)
		}
	}
	return out
}

// SetMean is the mean score over the pages of one set (folder) that are not apart.
func (r *Report) SetMean(set string) PRF {
	return Mean(r.scores(func(w Row) bool { return len(w.Page) > len(set) && w.Page[:len(set)+1] == set+"/" }))
}

// Print writes the report: one line per page, the pages reported apart, the mean over
// every set, every fold's mean, and the overall mean.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "%-22s %4s %6s %6s  %s\n", "page", "fold", "true", "found", "NEXT-EVAL measure")
	sets := []string{}
	for _, row := range r.Rows {
		fold := "-"
		if row.Fold >= 0 {
			fold = fmt.Sprint(row.Fold)
		}
		mark := ""
		if row.Apart {
			mark = "  (apart: its truth does not resolve)"
		}
		fmt.Fprintf(w, "%-22s %4s %6d %6d  %s%s\n", row.Page, fold, row.True, row.Found, row.Score, mark)
		if set := setOf(row.Page); !slices.Contains(sets, set) {
			sets = append(sets, set)
		}
	}
	for _, s := range sets {
		fmt.Fprintf(w, "mean %-20s %s\n", s+":", r.SetMean(s))
	}
	for f := range r.Folds {
		n := len(r.scores(func(w Row) bool { return w.Fold == f }))
		fmt.Fprintf(w, "fold %d (%d pages): %s\n", f, n, r.FoldMean(f))
	}
	kind := "mean"
	if r.Folds > 0 {
		kind = fmt.Sprintf("cross-validated mean (%d folds)", r.Folds)
	}
	fmt.Fprintf(w, "%s over %d pages: %s (extraction %v, training %v)\n", kind, r.Pages(), r.Mean(),
		r.Elapsed.Round(time.Millisecond), r.Training.Round(time.Millisecond))
}

func setOf(name string) string {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[:i]
		}
	}
	return name
}

// Group gathers predicted records by page: record k, named by the page it was found on
// (Page.Name) and given by its XPaths, goes to that page's list. Records of pages not
// given are ignored.
func Group(pages []Page, names []string, xpaths [][]string) [][][]string {
	idx := make(map[string]int, len(pages))
	for i := range pages {
		idx[pages[i].Name()] = i
	}
	out := make([][][]string, len(pages))
	for k, name := range names {
		if i, ok := idx[name]; ok {
			out[i] = append(out[i], xpaths[k])
		}
	}
	return out
}
