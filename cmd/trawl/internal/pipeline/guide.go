package pipeline

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// guideStage probes the form with the values of round r's plan. Each probe is appended
// to probes.jsonl as it ends, its pages written first, so that a round killed at any
// moment keeps the probes it finished: run again, the stage keeps them (the round's plan
// is fixed in its file) and makes only the rest of the plan.
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
			rec, done, err := openRound(p.o.Dir, fmt.Sprintf("guided-%d", r), pl)
			if err != nil {
				return err
			}
			defer func() { _ = rec.rd.Close() }()
			rec.meter = &p.meter
			p.meter.counts("probes", min(len(pl), p.o.Probe.MaxProbes))
			for _, d := range done {
				p.meter.add(d.Probe.Error != "")
			}
			if len(done) > 0 {
				p.log.Info("resuming the guided probes of an interrupted round", "round", r, "kept", len(done))
			}
			sum, err := pr.Resume(ctx, form, pl, done, rec)
			if err != nil {
				return err
			}
			p.log.Info("guided probes", "round", r, "probes", sum.Probes, "pages", sum.Pages, "failed", sum.Failed)
			p.st.setProbes(rec.all())
			return nil
		},
	}
}

// roundRecorder records the probes of one guided round after the run's earlier probes:
// it numbers them after those, gives them the round's kind, and appends them to the
// probe log with their pages (probe.RunDir).
type roundRecorder struct {
	rd   *probe.RunDir
	kind string
	base int
	// meter counts the probes for Status; may be nil.
	meter *meter

	mu    sync.Mutex
	probe []probe.Probe // the log's probes: the earlier ones, then the round's
}

// openRound opens the probe log of the run directory dir for a guided round of kind
// (e.g. "guided-1") with plan, after an interrupted attempt of the same round if there
// was one: the log is rewritten to hold the probes of other kinds and the round's
// finished probes whose assignment plan still has, and the pages of no kept probe are
// removed. It returns the recorder and those finished probes, numbered and kinded as
// the prober's plan (for probe.Prober.Resume).
func openRound(dir, kind string, plan probe.Plan) (*roundRecorder, []probe.Done, error) {
	logged, err := loggedProbes(dir)
	if err != nil {
		return nil, nil, err
	}
	rr := &roundRecorder{kind: kind}
	var round []probe.Probe
	for _, pr := range logged {
		if pr.Kind == kind {
			round = append(round, pr)
			continue
		}
		rr.probe = append(rr.probe, pr)
		rr.base = max(rr.base, pr.N)
	}
	left := slices.Clone(plan)
	var done []probe.Done
	for _, pr := range round {
		d, ok := finished(dir, pr)
		i := slices.IndexFunc(left, func(a probe.Assignment) bool { return maps.Equal(a.Values, pr.Assignment) })
		if !ok || i < 0 {
			continue
		}
		left = slices.Delete(left, i, i+1)
		rr.probe = append(rr.probe, pr)
		d.Probe.N -= rr.base
		d.Probe.Kind = probe.KindPlan
		done = append(done, d)
	}
	if rr.rd, err = probe.ResumeRunDir(dir, rr.probe); err != nil {
		return nil, nil, err
	}
	return rr, done, nil
}

// AddProbe implements probe.Recorder.
func (rr *roundRecorder) AddProbe(pr probe.Probe, pages []probe.Page) (probe.Probe, error) {
	pr.N += rr.base
	pr.Kind = rr.kind
	pr, err := rr.rd.AddProbe(pr, pages)
	if err != nil {
		return pr, err
	}
	rr.mu.Lock()
	rr.probe = append(rr.probe, pr)
	rr.mu.Unlock()
	if rr.meter != nil {
		rr.meter.add(pr.Error != "")
	}
	return pr, nil
}

// all returns the probes of the log, ordered by number.
func (rr *roundRecorder) all() []probe.Probe {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	ps := slices.Clone(rr.probe)
	rundir.SortProbes(ps)
	return ps
}
