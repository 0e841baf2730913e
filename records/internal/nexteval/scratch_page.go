package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl/internal/logreg"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// scratch: a page-level model of the threshold of the lists beside the best one.

var (
	pageClasses = []float64{0.1, 0.5, 0.7}
	pageLambda  = 3.0
	pagePrior   = 0.0
	usePage     bool
	pageSelect  bool
)

// the configurations the inner selection chooses among (-pagesel)
var (
	selClasses = [][]float64{{0.5}, {0.1, 0.5}, {0.2, 0.5}, {0.1, 0.5, 0.7}, {0.2, 0.5, 0.7}, {0.05, 0.5, 0.8}, {0.5, 0.7}}
	selLambdas = []float64{1, 3, 10}
	selFeats   = []int{9, 17}
)

type pageCfg struct {
	classes []float64
	lambda  float64
	nf      int
}

func (c pageCfg) String() string {
	return fmt.Sprintf("classes %v lambda %g features %d", c.classes, c.lambda, c.nf)
}

type pageModel struct {
	cfg         pageCfg
	mean, scale []float64
	m           *logreg.Model
}

func (pm *pageModel) rule(g []float64) float64 {
	if len(pm.cfg.classes) == 1 {
		return pm.cfg.classes[0]
	}
	g = g[:pm.cfg.nf]
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
	return pm.cfg.classes[best]
}

// pageDatum is a page of the inner cross-validation: its page features and its F1 at
// every threshold of the grid.
type pageDatum struct {
	n int
	g []float64
	f map[float64]float64
}

func fitPageCfg(ctx context.Context, data []pageDatum, cfg pageCfg) (*pageModel, error) {
	pm := &pageModel{cfg: cfg}
	if len(cfg.classes) == 1 {
		return pm, nil
	}
	nf := cfg.nf
	pm.mean, pm.scale = make([]float64, nf), make([]float64, nf)
	for _, d := range data {
		for i := range nf {
			pm.mean[i] += d.g[i] / float64(len(data))
		}
	}
	for _, d := range data {
		for i := range nf {
			pm.scale[i] += (d.g[i] - pm.mean[i]) * (d.g[i] - pm.mean[i]) / float64(len(data))
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
	for _, d := range data {
		v := make([]float32, nf)
		for i := range nf {
			v[i] = float32((d.g[i] - pm.mean[i]) / pm.scale[i])
		}
		lo := math.Inf(1)
		for _, t := range cfg.classes {
			lo = min(lo, d.f[t])
		}
		for ci, t := range cfg.classes {
			if pagePrior > 0 && t == 0.5 {
				samples = append(samples, logreg.Sample{Index: idx, Value: v, Class: ci, Weight: pagePrior})
			}
			if w := d.f[t] - lo; w > 1e-9 {
				samples = append(samples, logreg.Sample{Index: idx, Value: v, Class: ci, Weight: w})
			}
		}
	}
	if len(samples) == 0 {
		return &pageModel{cfg: pageCfg{classes: []float64{0.5}}}, nil
	}
	lo := logreg.DefaultOptions()
	lo.Lambda = cfg.lambda
	m, _, err := logreg.Train(ctx, samples, nf, len(cfg.classes), lo)
	if err != nil {
		return nil, err
	}
	pm.m = m
	return pm, nil
}

func (pm *pageModel) score(data []pageDatum) float64 {
	s := 0.0
	for _, d := range data {
		s += d.f[pm.rule(d.g)]
	}
	return s / float64(len(data))
}

// fitPage runs an inner cross-validation over tr with the list model's penalty lambda,
// extracting every inner fold at each threshold of the grid, and fits the page model on
// the inner folds' page features and F1 (its configuration chosen by a cross-validation
// over those pages with -pagesel).
func (c *chooser) fitPage(ctx context.Context, ex *records.ListExamples, tr []benchmark.Page, lambda float64) (*pageModel, error) {
	grid := pageClasses
	if pageSelect {
		grid = nil
		seen := map[float64]bool{}
		for _, cl := range selClasses {
			for _, t := range cl {
				if !seen[t] {
					seen[t] = true
					grid = append(grid, t)
				}
			}
		}
	}
	var mu sync.Mutex
	F := map[string]map[float64]float64{}
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
			for ci, t := range grid {
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
						F[r.Page] = map[float64]float64{}
					}
					F[r.Page][t] = r.Score.F
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
	var data []pageDatum
	for name, f := range F {
		g, ok := G[name]
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(name[strings.LastIndexByte(name, '/')+1:])
		data = append(data, pageDatum{n: n, g: g, f: f})
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("no page features")
	}
	cfg := pageCfg{classes: pageClasses, lambda: pageLambda, nf: 9}
	if records.RichPage {
		cfg.nf = 17
	}
	if pageSelect {
		best := -1.0
		for _, cl := range selClasses {
			for _, l := range selLambdas {
				for _, nf := range selFeats {
					if len(cl) == 1 && (l != selLambdas[0] || nf != selFeats[0]) {
						continue
					}
					cf := pageCfg{classes: cl, lambda: l, nf: nf}
					s := 0.0
					for f := range c.inner {
						var a, b []pageDatum
						for _, d := range data {
							if benchmark.Fold(d.n, c.inner) == f {
								b = append(b, d)
							} else {
								a = append(a, d)
							}
						}
						pm, err := fitPageCfg(ctx, a, cf)
						if err != nil {
							return nil, err
						}
						s += pm.score(b) * float64(len(b)) / float64(len(data))
					}
					c.log.Info("page model selection", "config", cf.String(), "f1", s)
					if s > best+1e-9 {
						best, cfg = s, cf
					}
				}
			}
		}
		c.log.Info("page model chosen", "config", cfg.String(), "f1", best)
	}
	pm, err := fitPageCfg(ctx, data, cfg)
	if err != nil {
		return nil, err
	}
	c.log.Info("page model", "pages", len(data), "inner F at 0.5", (&pageModel{cfg: pageCfg{classes: []float64{0.5}}}).score(data), "fitted choice", pm.score(data))
	return pm, nil
}
