package records

import (
	"context"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// loadNextEvalSet loads one NEXT-EVAL folder of the shared data.
func loadNextEvalSet(t testing.TB, name string) []benchmark.Page {
	t.Helper()
	pages, err := benchmark.Load(testutil.SharedData(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// nextEvalOptions are the options of the NEXT-EVAL runs: every data region (the
// benchmark annotates all record lists of a page), signifiers from tf-idf over the
// pages (the benchmark has no query terms).
func nextEvalOptions() Options {
	o := DefaultOptions()
	o.Regions = RegionsAll
	return o
}

// nextEvalExtractor runs Extract over the pages together with opts.
func nextEvalExtractor(opts Options) benchmark.Extractor {
	return func(ctx context.Context, pages []benchmark.Page) ([][][]string, error) {
		in := make([]Page, len(pages))
		for i, p := range pages {
			in[i] = Page{Name: p.Name(), HTML: p.HTML}
		}
		_, recs, err := Extract(ctx, in, opts)
		if err != nil {
			return nil, err
		}
		names, xpaths := make([]string, len(recs)), make([][]string, len(recs))
		for k, r := range recs {
			names[k], xpaths[k] = r.Page, append([]string{r.XPath}, r.Extra...)
		}
		return benchmark.Group(pages, names, xpaths), nil
	}
}

// nextEvalTarget is the acceptance target of issue 13 for the cross-validated mean F1.
const nextEvalTarget = 0.90

// Floors of the NEXT-EVAL figures: the cross-validated mean per-page F1 over the 120
// scorable pages of the sample and the training set, and every fold's mean.
const (
	nextEvalCVFloor   = 0.84
	nextEvalFoldFloor = 0.79
)

// TestNextEvalCrossValidation is the headline figure of record isolation: a 5-fold
// cross-validation over the NEXT-EVAL sample and training set (pages assigned to folds
// by a hash of their number), in which the selection model is fitted on four folds and
// Extract runs over the pages of the fifth together, scored with the benchmark's own
// measure. The examples of the list model are collected once over all pages (the
// document frequencies of tf-idf count every page: examples computed over the pages of
// each fold alone, as the fold is extracted, gave 0.817 instead of 0.834); no truth of
// a fold's pages reaches its model. Run with -v to see every page, every fold and the means:
//
//	go test ./records -run TestNextEvalCrossValidation -v
func TestNextEvalCrossValidation(t *testing.T) {
	pages := append(loadNextEvalSet(t, "next-eval-sample"), loadNextEvalSet(t, "next-eval-train")...)
	var train []TrainingPage
	for _, p := range pages {
		if p.Scorable() {
			train = append(train, TrainingPage{Page: Page{Name: p.Name(), HTML: p.HTML}, Truth: p.Truth})
		}
	}
	ex, err := CollectListExamples(t.Context(), [][]TrainingPage{train}, nextEvalOptions())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := benchmark.CrossValidate(t.Context(), pages, 5, func(ctx context.Context, tr []benchmark.Page) (benchmark.Extractor, error) {
		use := map[string]bool{}
		for _, p := range tr {
			use[p.Name()] = true
		}
		m, err := TrainListModel(ctx, ex, func(name string) bool { return use[name] }, DefaultTrainOptions())
		if err != nil {
			return nil, err
		}
		o := nextEvalOptions()
		o.ListModel = m
		return nextEvalExtractor(o), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.Print(&b)
	t.Log("\n" + b.String())
	if m := rep.Mean(); m.F < nextEvalCVFloor {
		t.Errorf("cross-validated mean F1 %.3f fell below its floor %.2f", m.F, nextEvalCVFloor)
	}
	for f := range rep.Folds {
		if m := rep.FoldMean(f); m.F < nextEvalFoldFloor {
			t.Errorf("fold %d: mean F1 %.3f fell below its floor %.2f", f, m.F, nextEvalFoldFloor)
		}
	}
}
