package records

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"

	"github.com/antchfx/htmlquery"

	"github.com/trawl-dev/trawl/internal/logreg"
)

// TrainingPage is a page with its true records, each given as the absolute XPaths
// (from /html) of the elements it is made of.
type TrainingPage struct {
	Page  Page
	Truth [][]string
}

// TrainOptions configures TrainListModel. Start from DefaultTrainOptions.
type TrainOptions struct {
	// Lambda is the L2 penalty of the logistic regression (on standardised features).
	Lambda float64
	// Threshold is the probability at which the model takes a pattern for records.
	Threshold float64
	// About is stored in the model to say what it was trained on.
	About string
	// Logger receives training progress; nil discards it.
	Logger *slog.Logger
}

// DefaultTrainOptions returns the settings of the embedded model: Lambda is the penalty
// that records/internal/nexteval chooses among 1, 3 and 10 by an inner cross-validation
// on the NEXT-EVAL pages (1 on all 120 pages and on each outer fold's training pages;
// docs/benchmarks.md), Threshold 0.5.
func DefaultTrainOptions() TrainOptions {
	return TrainOptions{Lambda: 1, Threshold: 0.5}
}

// ListExamples are the candidate record patterns of pages with known records: per
// page, every pattern's features and label, the share of the records it yields alone
// (matched one to one) that are true records.
type ListExamples struct {
	pages []pageExamples
}

type pageExamples struct {
	name   string
	feats  [][]float64
	labels []float64
	// yields lists, for every pattern, the true records it yields alone (matched one to
	// one); truths is the number of true records of the page.
	yields [][]int32
	truths int
}

// TruthCover tells, for every true record of a page, how the list model m scores the
// candidate patterns that yield it alone (matched one to one, as the labels count):
// the highest probability among them, and -1 when no candidate pattern yields it (the
// candidate generation's miss). It returns nil for a page that gave no examples.
func (ex *ListExamples) TruthCover(page string, m *ListModel) []float64 {
	for _, pe := range ex.pages {
		if pe.name != page {
			continue
		}
		out := make([]float64, pe.truths)
		for j := range out {
			out[j] = -1
		}
		for k, ys := range pe.yields {
			pr := m.prob(pe.feats[k])
			for _, j := range ys {
				out[j] = max(out[j], pr)
			}
		}
		return out
	}
	return nil
}

// Pages names the pages that gave examples, in order.
func (ex *ListExamples) Pages() []string {
	out := make([]string, len(ex.pages))
	for i, p := range ex.pages {
		out[i] = p.name
	}
	return out
}

// A record is a true record when the Jaccard overlap of its text leaves with those of
// the true record it is matched with reaches matchJaccard.
const matchJaccard = 0.5

// CollectListExamples runs Extract's steps on the pages up to the ranked candidate
// patterns and labels every pattern by the records it yields alone. Each corpus is a
// set of pages as Extract would be given them together: the document frequencies of
// tf-idf are counted over it; each page is then its own template. opts are the extraction options (RegionsAll, and the
// signifier settings pages are extracted with).
func CollectListExamples(ctx context.Context, corpora [][]TrainingPage, opts Options) (*ListExamples, error) {
	if opts.Mode != ModeRecords {
		return nil, fmt.Errorf("%w: the list model is trained in record mode", ErrBadOptions)
	}
	ex := &ListExamples{}
	for _, pages := range corpora {
		if len(pages) == 0 {
			continue
		}
		if err := ex.collect(ctx, pages, opts); err != nil {
			return nil, err
		}
	}
	return ex, nil
}

// collect adds the examples of the pages of one corpus.
func (ex *ListExamples) collect(ctx context.Context, pages []TrainingPage, opts Options) error {
	in := make([]Page, len(pages))
	for i, tp := range pages {
		in[i] = tp.Page
	}
	x, err := newExtraction(in, &opts)
	if err != nil {
		return err
	}
	if err := x.learnErrorPatterns(ctx); err != nil {
		return err
	}
	if err := x.classifyPages(ctx); err != nil {
		return err
	}
	for i := range pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		if x.w.Pages[i].Class != "" {
			continue // error and invalid pages
		}
		samples := x.prepareSamples([]int{i}, &Template{})
		if len(samples) == 0 {
			continue
		}
		s := samples[0]
		pats := recordPatterns(samples, &opts)
		rank(samples, pats, &opts)
		feats := listFeatures(samples, pats)
		label, err := truthLabeller(s.p, pages[i].Truth)
		if err != nil {
			return fmt.Errorf("%s: %w", in[i].Name, err)
		}
		pe := pageExamples{name: in[i].Name, truths: len(pages[i].Truth)}
		for k, pt := range pats {
			sel := &selection{mode: ModeRecords, names: opts.TypeAttributes, pats: []*pattern{pt},
				runs: map[*pattern]*siblingRun{}, parallel: map[*pattern]bool{}}
			sel.complete(samples, pt)
			elems, extra := sel.records(s)
			pe.feats = append(pe.feats, feats[k])
			l, ys := label(elems, extra)
			pe.labels = append(pe.labels, l)
			pe.yields = append(pe.yields, ys)
		}
		ex.pages = append(ex.pages, pe)
	}
	return nil
}

// TrainListModel fits a list model on the examples of the pages use accepts (all when
// use is nil): a logistic regression on the standardised features, in which every page
// weighs the same and a pattern with label s counts as a positive example of weight s
// and a negative one of weight 1 − s.
func TrainListModel(ctx context.Context, ex *ListExamples, use func(page string) bool, o TrainOptions) (*ListModel, error) {
	if o.Lambda <= 0 || o.Threshold <= 0 || o.Threshold >= 1 {
		return nil, fmt.Errorf("%w: TrainOptions: Lambda must be > 0 and Threshold in (0,1), got %g and %g", ErrBadOptions, o.Lambda, o.Threshold)
	}
	var feats [][]float64
	var labels, weights []float64
	pages := 0
	for _, pe := range ex.pages {
		if use != nil && !use(pe.name) || len(pe.feats) == 0 {
			continue
		}
		pages++
		w := 1 / float64(len(pe.feats))
		for k := range pe.feats {
			feats = append(feats, pe.feats[k])
			labels = append(labels, pe.labels[k])
			weights = append(weights, w)
		}
	}
	if len(feats) == 0 {
		return nil, errors.New("records: no candidate pattern to train the list model on")
	}
	m := &ListModel{About: o.About, Features: featureNames, Threshold: o.Threshold, Lambda: o.Lambda}
	m.Mean, m.Scale = standardise(feats)
	idx := make([]int32, len(featureNames))
	for i := range idx {
		idx[i] = int32(i)
	}
	var samples []logreg.Sample
	for k, f := range feats {
		v := make([]float32, len(f))
		for i := range f {
			v[i] = float32((f[i] - m.Mean[i]) / m.Scale[i])
		}
		if labels[k] > 0 {
			samples = append(samples, logreg.Sample{Index: idx, Value: v, Class: 1, Weight: weights[k] * labels[k]})
		}
		if labels[k] < 1 {
			samples = append(samples, logreg.Sample{Index: idx, Value: v, Class: 0, Weight: weights[k] * (1 - labels[k])})
		}
	}
	lo := logreg.DefaultOptions()
	lo.Lambda = o.Lambda
	model, res, err := logreg.Train(ctx, samples, len(featureNames), 2, lo)
	if err != nil {
		return nil, err
	}
	if o.Logger != nil {
		o.Logger.Info("list model trained", "pages", pages, "patterns", len(feats), "iterations", res.Iterations, "converged", res.Converged)
	}
	m.Weights = make([]float64, len(featureNames))
	for i := range m.Weights {
		m.Weights[i] = model.W[i*2+1] - model.W[i*2]
	}
	m.Bias = model.Bias[1] - model.Bias[0]
	return m, nil
}

// standardise returns the mean and the standard deviation (1 when it is 0) of every
// feature.
func standardise(feats [][]float64) (mean, scale []float64) {
	n := len(featureNames)
	mean, scale = make([]float64, n), make([]float64, n)
	for _, f := range feats {
		for i, v := range f {
			mean[i] += v
		}
	}
	for i := range mean {
		mean[i] /= float64(len(feats))
	}
	for _, f := range feats {
		for i, v := range f {
			d := v - mean[i]
			scale[i] += d * d
		}
	}
	for i := range scale {
		scale[i] = math.Sqrt(scale[i] / float64(len(feats)))
		if scale[i] == 0 {
			scale[i] = 1
		}
	}
	return mean, scale
}

// truthLabeller returns the label of a set of records of page p (first elements and the
// sibling elements they span): the share of them that are matched one to one, greedily
// by decreasing Jaccard overlap of their text leaves, with a true record at
// matchJaccard or more; and the true records so matched.
func truthLabeller(p *page, truth [][]string) (func(elems []int32, extra [][]int32) (float64, []int32), error) {
	// the records of every text leaf, and the text leaves of every true record
	owners := make([][]int32, len(p.leaves))
	size := make([]int, len(truth))
	for j, r := range truth {
		seen := map[int32]bool{}
		for _, xp := range r {
			n, err := htmlquery.Query(p.doc, xp)
			if err != nil {
				return nil, fmt.Errorf("truth xpath %s: %w", xp, err)
			}
			e, ok := p.elemOf(n)
			if n == nil || !ok {
				continue // a truth that does not resolve matches nothing
			}
			for li := p.elems[e].leafStart; li < p.elems[e].leafEnd; li++ {
				if p.leaves[li].text != "" && !seen[li] {
					seen[li] = true
					owners[li] = append(owners[li], int32(j))
					size[j]++
				}
			}
		}
	}
	return func(elems []int32, extra [][]int32) (float64, []int32) {
		if len(elems) == 0 {
			return 0, nil
		}
		type pair struct {
			rec, truth int
			j          float64
		}
		var pairs []pair
		for r, e := range elems {
			inter := map[int32]int{}
			n := 0
			for _, el := range append([]int32{e}, extra[r]...) {
				for li := p.elems[el].leafStart; li < p.elems[el].leafEnd; li++ {
					if p.leaves[li].text == "" {
						continue
					}
					n++
					for _, j := range owners[li] {
						inter[j]++
					}
				}
			}
			for j, k := range inter {
				if jac := float64(k) / float64(n+size[j]-k); jac >= matchJaccard {
					pairs = append(pairs, pair{r, int(j), jac})
				}
			}
		}
		slices.SortFunc(pairs, func(a, b pair) int { return cmp.Compare(b.j, a.j) })
		usedR, usedT := map[int]bool{}, map[int]bool{}
		var hit []int32
		for _, pr := range pairs {
			if !usedR[pr.rec] && !usedT[pr.truth] {
				usedR[pr.rec], usedT[pr.truth] = true, true
				hit = append(hit, int32(pr.truth))
			}
		}
		return float64(len(hit)) / float64(len(elems)), hit
	}, nil
}
