package main

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/trawl-dev/trawl/internal/logreg"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// scratch: a page-level model of the threshold of the lists beside the best one.

var (
	pageClasses = []float64{0.1, 0.5, 0.7}
	pageLambda  = 3.0
)

type pageModel struct {
	mean, scale []float64
	m           *logreg.Model
}

func (pm *pageModel) rule(g []float64) float64 {
	idx := make([]int32, len(g))
	v := make([]float32, len(g))
	for i := range g {
		idx[i] = int32(i)
		v[i] = float32((g[i] - pm.mean[i]) / pm.scale[i])
	}
	z := pm.m.Scores(logreg.Sample{Index: idx, Value: v})
	best := 0
	for k := range z {
		if z[k] > z[best] {
			best = k
		}
	}
	return pageClasses[best]
}

// fitPage runs an inner cross-validation over tr with the list model's penalty lambda,
// extracting every inner fold at each class threshold, and fits the page model on the
// inner folds' page features and F1.
func (c *chooser) fitPage(ctx context.Context, ex *records.ListExamples, tr []benchmark.Page, lambda float64) (*pageModel, error) {
	var mu sync.Mutex
	F := map[string][]float64{}
	G := map[string][]float64{}
	hook := func(names []string, g []float64) {
		mu.Lock()
		for _, n := range names {
			G[n] = g
		}
		mu.Unlock()
	}
	o := c.to
	o.Lambda = lambda
	_, err := benchmark.CrossValidate(ctx, scorable(tr), c.inner, func(ctx context.Context, itr []benchmark.Page) (benchmark.Extractor, error) {
		use := map[string]bool{}
		for _, p := range itr {
			use[p.Name()] = true
		}
		im, err := records.TrainListModel(ctx, ex, func(n string) bool { return use[n] }, o)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, pages []benchmark.Page) ([][][]string, error) {
			for ci, t := range pageClasses {
				mm := *im
				mm.Others = t
				if ci == 0 {
					mm.PageHook = hook
				}
				op := c.opts
				op.ListModel = &mm
				rep, err := benchmark.Evaluate(ctx, pages, extractor(op, false))
				if err != nil {
					return nil, err
				}
				for _, r := range rep.Rows {
					if F[r.Page] == nil {
						F[r.Page] = make([]float64, len(pageClasses))
					}
					F[r.Page][ci] = r.Score.F
				}
			}
			op := c.opts
			op.ListModel = im
			return extractor(op, false)(ctx, pages)
		}, nil
	})
	if err != nil {
		return nil, err
	}
	var feats [][]float64
	var gains [][]float64
	for n, f := range F {
		g, ok := G[n]
		if !ok {
			continue
		}
		feats = append(feats, g)
		gains = append(gains, f)
	}
	if len(feats) == 0 {
		return nil, fmt.Errorf("no page features")
	}
	nf := len(feats[0])
	pm := &pageModel{mean: make([]float64, nf), scale: make([]float64, nf)}
	for _, g := range feats {
		for i, v := range g {
			pm.mean[i] += v / float64(len(feats))
		}
	}
	for _, g := range feats {
		for i, v := range g {
			pm.scale[i] += (v - pm.mean[i]) * (v - pm.mean[i]) / float64(len(feats))
		}
	}
	for i := range pm.scale {
		pm.scale[i] = math.Sqrt(pm.scale[i])
		if pm.scale[i] == 0 {
			pm.scale[i] = 1
		}
	}
	idx := make([]int32, nf)
	for i := range idx {
		idx[i] = int32(i)
	}
	var samples []logreg.Sample
	inner := 0.0
	oracle := 0.0
	for k, g := range feats {
		v := make([]float32, nf)
		for i := range g {
			v[i] = float32((g[i] - pm.mean[i]) / pm.scale[i])
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, f := range gains[k] {
			lo, hi = min(lo, f), max(hi, f)
		}
		inner += gains[k][1]
		oracle += hi
		for ci, f := range gains[k] {
			if f-lo > 1e-9 {
				samples = append(samples, logreg.Sample{Index: idx, Value: v, Class: ci, Weight: f - lo})
			}
		}
	}
	lo := logreg.DefaultOptions()
	lo.Lambda = pageLambda
	m, _, err := logreg.Train(ctx, samples, nf, len(pageClasses), lo)
	if err != nil {
		return nil, err
	}
	pm.m = m
	// in-sample choice on the inner pages
	chosen := 0.0
	for k, g := range feats {
		t := pm.rule(g)
		for ci, x := range pageClasses {
			if x == t {
				chosen += gains[k][ci]
			}
		}
	}
	n := float64(len(feats))
	c.log.Info("page model", "pages", len(feats), "samples", len(samples), "inner F at 0.5", inner/n, "inner oracle", oracle/n, "inner fitted choice", chosen/n)
	return pm, nil
}
var usePage bool
