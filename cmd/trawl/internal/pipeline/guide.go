package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// guideStage probes the form with the values of round r's plan.
func (p *Pipeline) guideStage(r int) stage {
	return stage{
		name:    fmt.Sprintf("guide-%d", r),
		inputs:  []string{rundir.PlanFile(r)},
		outputs: []string{rundir.ProbesFile},
		run: func(ctx context.Context) error {
			var plan guidedPlan
			if err := rundir.ReadJSON(filepath.Join(p.o.Dir, rundir.PlanFile(r)), &plan); err != nil {
				return err
			}
			form, err := p.st.Form()
			if err != nil {
				return err
			}
			pl, err := probe.ExplicitPlan(form, plan.Values)
			if err != nil {
				return err
			}
			pr, err := p.thePlanProber(ctx)
			if err != nil {
				return err
			}
			probes, err := p.st.Probes()
			if err != nil {
				return err
			}
			rec := newRoundRecorder(p.o.Dir, fmt.Sprintf("guided-%d", r), probes)
			rec.meter = &p.meter
			p.meter.counts("probes", min(len(pl), p.o.Probe.MaxProbes))
			sum, err := pr.Run(ctx, form, pl, rec)
			if err != nil {
				return err
			}
			p.log.Info("guided probes", "round", r, "probes", sum.Probes, "pages", sum.Pages, "failed", sum.Failed)
			all, err := rec.commit()
			if err != nil {
				return err
			}
			p.st.setProbes(all)
			return nil
		},
	}
}

// roundRecorder records the probes of one guided round: it numbers them after the
// run's earlier probes, writes their pages, and on commit rewrites probes.jsonl as the
// earlier probes (without any of this round's, from an interrupted attempt) followed by
// the new ones, atomically.
type roundRecorder struct {
	dir  string
	kind string
	base int
	keep []probe.Probe
	// meter counts the probes for Status; may be nil.
	meter *meter

	mu  sync.Mutex
	new []probe.Probe
}

func newRoundRecorder(dir, kind string, probes []probe.Probe) *roundRecorder {
	rr := &roundRecorder{dir: dir, kind: kind}
	for _, pr := range probes {
		if pr.Kind == kind {
			continue
		}
		rr.keep = append(rr.keep, pr)
		rr.base = max(rr.base, pr.N)
	}
	return rr
}

// AddProbe implements probe.Recorder.
func (rr *roundRecorder) AddProbe(pr probe.Probe, pages []probe.Page) (probe.Probe, error) {
	pr.N += rr.base
	pr.Kind = rr.kind
	pr.Pages = []probe.PageRef{}
	for k, pg := range pages {
		name := fmt.Sprintf("%s/%04d-%d.html", rundir.PagesDir, pr.N, k+1)
		if err := rundir.WriteFile(filepath.Join(rr.dir, name), []byte(pg.HTML)); err != nil {
			return pr, err
		}
		pr.Pages = append(pr.Pages, probe.PageRef{File: name, URL: pg.URL, Status: pg.Status, Bytes: len(pg.HTML), Elapsed: pg.Elapsed})
	}
	rr.mu.Lock()
	rr.new = append(rr.new, pr)
	rr.mu.Unlock()
	if rr.meter != nil {
		rr.meter.add(pr.Error != "")
	}
	return pr, nil
}

// commit writes probes.jsonl and returns the probes it holds, ordered by number.
func (rr *roundRecorder) commit() ([]probe.Probe, error) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	all := append(slices.Clone(rr.keep), rr.new...)
	rundir.SortProbes(all)
	return all, rundir.WriteJSONL(filepath.Join(rr.dir, rundir.ProbesFile), all)
}
