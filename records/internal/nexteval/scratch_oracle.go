package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// scratch: oracles at other granularities than the list choice.

func pageSets(p *benchmark.Page, pred [][]string) ([]map[string]bool, []map[string]bool, error) {
	doc, err := html.Parse(bytes.NewReader(p.HTML))
	if err != nil {
		return nil, nil, err
	}
	keys := benchmark.Keys(doc)
	return benchmark.Records(keys, pred), benchmark.Records(keys, p.Truth), nil
}

// itemOracle: drop predicted records that share no unit with any true record, (1) only
// inside lists that touch the truth, (2) everywhere.
func itemOracle(out io.Writer, pages []benchmark.Page, pred map[string][][]string, fold map[string]int) error {
	var base, in, all [5][]benchmark.PRF
	var tb, ti, ta []benchmark.PRF
	for i := range pages {
		p := &pages[i]
		if !p.Scorable() {
			continue
		}
		ps, ts, err := pageSets(p, pred[p.Name()])
		if err != nil {
			return err
		}
		var keepIn, keepAll []map[string]bool
		for _, l := range listsOf(pred[p.Name()]) {
			sets := pick(ps, l.recs)
			lt := touches(sets, ts)
			for _, s := range sets {
				t := touches([]map[string]bool{s}, ts)
				if t || !lt {
					keepIn = append(keepIn, s)
				}
				if t {
					keepAll = append(keepAll, s)
				}
			}
		}
		f := fold[p.Name()]
		b, x, y := benchmark.Overlap(ps, ts), benchmark.Overlap(keepIn, ts), benchmark.Overlap(keepAll, ts)
		base[f], in[f], all[f] = append(base[f], b), append(in[f], x), append(all[f], y)
		tb, ti, ta = append(tb, b), append(ti, x), append(ta, y)
		if x.F > b.F+0.005 {
			fmt.Fprintf(out, "item oracle in touched lists: %s %.3f -> %.3f\n", p.Name(), b.F, x.F)
		}
	}
	pr := func(name string, v [5][]benchmark.PRF, t []benchmark.PRF) {
		fmt.Fprintf(out, "%-40s", name)
		for f := range 5 {
			fmt.Fprintf(out, " %.3f", benchmark.Mean(v[f]).F)
		}
		m := benchmark.Mean(t)
		fmt.Fprintf(out, "  P %.3f R %.3f F %.3f\n", m.P, m.R, m.F)
	}
	pr("prediction", base, tb)
	pr("item oracle, touched lists", in, ti)
	pr("item oracle, all lists", all, ta)
	return nil
}

var kOracle bool

var sweepGrid = []float64{0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01}

// thresholdOracle extracts every fold with its own model at every threshold of the
// lists beside the best, and reports the page-level oracle (the best threshold per
// page).
func (c *chooser) thresholdOracle(ctx context.Context, out io.Writer, pages []benchmark.Page, alone bool) (map[string][]float64, error) {
	byModel := map[*records.ListModel][]benchmark.Page{}
	var order []*records.ListModel
	for _, p := range pages {
		m := c.models[p.Name()]
		if m == nil || !p.Scorable() {
			continue
		}
		if _, ok := byModel[m]; !ok {
			order = append(order, m)
		}
		byModel[m] = append(byModel[m], p)
	}
	F := map[string][]float64{}
	fold := map[string]int{}
	for _, m := range order {
		ps := byModel[m]
		for ti, t := range sweepGrid {
			mm := *m
			if kOracle {
				mm.Keep = int(t)
				if t == 0 {
					mm.Keep = -1
				}
			} else {
				mm.Others = t
			}
			o := c.opts
			o.ListModel = &mm
			rep, err := benchmark.Evaluate(ctx, ps, extractor(o, alone))
			if err != nil {
				return nil, err
			}
			for _, r := range rep.Rows {
				if F[r.Page] == nil {
					F[r.Page] = make([]float64, len(sweepGrid))
				}
				F[r.Page][ti] = r.Score.F
			}
		}
		for _, p := range ps {
			fold[p.Name()] = benchmark.Fold(p.N, 5)
		}
	}
	var per [5][]float64
	fixed := make([]float64, len(sweepGrid))
	hist := map[float64]int{}
	var names []string
	for n := range F {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		best, bt := -1.0, 0.0
		for ti, v := range F[n] {
			fixed[ti] += v / float64(len(F))
			if v > best+1e-9 || (v > best-1e-9 && sweepGrid[ti] == 0.5) {
				best, bt = v, sweepGrid[ti]
			}
		}
		hist[bt]++
		per[fold[n]] = append(per[fold[n]], best)
		fmt.Fprintf(out, "sweep %s %v best %.2f\n", n, fmtF(F[n]), bt)
	}
	for ti, t := range sweepGrid {
		fmt.Fprintf(out, "others' threshold %.2f: mean F1 %.4f\n", t, fixed[ti])
	}
	tot, cnt := 0.0, 0
	fmt.Fprintf(out, "page-level threshold oracle, folds:")
	for f := range 5 {
		s := 0.0
		for _, v := range per[f] {
			s += v
		}
		tot += s
		cnt += len(per[f])
		fmt.Fprintf(out, " %.3f", s/float64(len(per[f])))
	}
	fmt.Fprintf(out, "  mean %.4f over %d pages; best thresholds %v\n", tot/float64(cnt), cnt, hist)
	return F, nil
}

func fmtF(v []float64) string {
	s := ""
	for _, x := range v {
		s += fmt.Sprintf(" %.3f", x)
	}
	return s
}
