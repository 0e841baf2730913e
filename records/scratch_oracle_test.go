package records

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

type candInfo struct {
	pt       *pattern
	elems    []int32
	pos      int     // elements matching a truth record (J ≥ 0.5)
	sumJ     float64 // Σ best Jaccard
	selected bool
}

func TestScratchOracle(t *testing.T) {
	pages := append(loadNextEvalSet(t, "next-eval-sample"), loadNextEvalSet(t, "next-eval-train")...)
	opts := nextEvalOptions()
	in := make([]Page, len(pages))
	for i, p := range pages {
		in[i] = Page{Name: p.Name(), HTML: p.HTML}
	}
	x, err := newExtraction(in, &opts)
	if err != nil {
		t.Fatal(err)
	}
	_ = x.learnErrorPatterns(t.Context())
	_ = x.classifyPages(t.Context())
	x.groupTemplates()
	_, recs, _ := Extract(t.Context(), in, opts)
	predBy := map[string]int{}
	for _, r := range recs {
		predBy[r.Page]++
	}
	var out strings.Builder
	var sumOr, sumCov float64
	n := 0
	for _, c := range x.clusterOrder {
		idx := x.clusterPages[c]
		var tpl Template
		samples := x.prepareSamples(idx, &tpl)
		pats := recordPatterns(samples, &opts)
		rank(samples, pats, &opts)
		sel := learn(samples, &opts, &Template{})
		for si, s := range samples {
			bp := pages[idx[si]]
			if !bp.Scorable() {
				continue
			}
			keys := benchmark.Keys(s.p.doc)
			truth := benchmark.Records(keys, bp.Truth)
			owner := map[string][]int{}
			for j, tr := range truth {
				for k := range tr {
					owner[k] = append(owner[k], j)
				}
			}
			best := func(e int32) (float64, int) {
				set := benchmark.Records(keys, [][]string{{absXPath(s.p.elems[e].n)}})[0]
				bj, bi := 0.0, -1
				seen := map[int]bool{}
				for k := range set {
					for _, j := range owner[k] {
						if !seen[j] {
							seen[j] = true
							if v := benchmark.Jaccard(set, truth[j]); v > bj {
								bj, bi = v, j
							}
						}
					}
				}
				return bj, bi
			}
			var cands []*candInfo
			covered := map[int]bool{}
			for _, pt := range pats {
				els := pt.byPage[si]
				if len(els) == 0 {
					continue
				}
				ci := &candInfo{pt: pt, elems: els, selected: contains(sel.pats, pt)}
				for _, e := range els {
					j, ti := best(e)
					ci.sumJ += j
					if j >= 0.5 {
						ci.pos++
						covered[ti] = true
					}
				}
				cands = append(cands, ci)
			}
			// oracle: patterns with ≥ half positives, greedy by sumJ, no overlap
			sort.SliceStable(cands, func(a, b int) bool { return cands[a].sumJ > cands[b].sumJ })
			var chosen []int32
			for _, ci := range cands {
				if ci.pos*2 < len(ci.elems) {
					continue
				}
				clash := false
				for _, e := range ci.elems {
					for _, o := range chosen {
						if e == o || s.p.isAncestor(e, o) || s.p.isAncestor(o, e) {
							clash = true
						}
					}
				}
				if !clash {
					chosen = append(chosen, ci.elems...)
				}
			}
			var pred [][]string
			for _, e := range chosen {
				pred = append(pred, []string{absXPath(s.p.elems[e].n)})
			}
			m := benchmark.Score(s.p.doc, pred, bp.Truth)
			cov := float64(len(covered)) / float64(max(1, len(truth)))
			sumOr += m.F
			sumCov += cov
			n++
			fmt.Fprintf(&out, "== %s true=%d pred=%d oracle %s cover %.2f\n", bp.Name(), len(truth), predBy[bp.Name()], m, cov)
			for _, ci := range cands {
				if ci.pos == 0 && !ci.selected {
					continue
				}
				e := ci.elems[0]
				fmt.Fprintf(&out, "   %s n=%d pos=%d J=%.1f R=%.3g nav=%q fields=%v groups=%v sel=%v lvl=%d  %s | %.60q\n", map[bool]string{true: "*", false: " "}[ci.selected], len(ci.elems), ci.pos, ci.sumJ, ci.pt.rel, ci.pt.nav, ci.pt.fields, ci.pt.groups, ci.selected, ci.pt.level, absXPath(s.p.elems[e].n), s.p.text(e))
			}
		}
	}
	fmt.Fprintf(&out, "oracle mean F1 %.4f cover %.4f over %d\n", sumOr/float64(n), sumCov/float64(n), n)
	os.WriteFile("/tmp/oracle.txt", []byte(out.String()), 0o644)
}

func contains(ps []*pattern, p *pattern) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

func TestScratchClusters(t *testing.T) {
	pages := append(loadNextEvalSet(t, "next-eval-sample"), loadNextEvalSet(t, "next-eval-train")...)
	in := make([]Page, len(pages))
	for i, p := range pages {
		in[i] = Page{Name: p.Name(), HTML: p.HTML}
	}
	w, _, _ := Extract(t.Context(), in, nextEvalOptions())
	for _, tp := range w.Templates {
		if len(tp.Pages) > 1 {
			t.Log(tp.Pages, tp.Samples)
		}
	}
}
