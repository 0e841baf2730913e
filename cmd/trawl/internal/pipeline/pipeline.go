package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// Pipeline holds what the stages of one run directory share: the options, the
// in-memory results of the stages, and the KB and the browser, both opened only when a
// stage needs them.
type Pipeline struct {
	o   Options
	log *slog.Logger
	st  state
	// meter tells Status what the stage under way has done.
	meter meter

	kbOnce  sync.Once
	kb      align.KB
	kbName  string
	kbErr   error
	kbClose func()

	browser    *probe.Browser
	ownBrowser bool
	prober     *probe.Prober
	// planProber submits explicit plans (the guided rounds) and nothing else: no
	// harvested words after the plan.
	planProber *probe.Prober
}

// New returns the pipeline of the run directory o.Dir. log may be nil.
func New(o Options, log *slog.Logger) *Pipeline {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.Plan.Seed == 0 {
		// The same source gets the same nonsense word on every run, so that a resumed or
		// repeated run makes the same probes.
		o.Plan.Seed = xxhash.Sum64String(o.URL) | 1
	}
	return &Pipeline{o: o, log: log, browser: o.Browser, st: state{dir: o.Dir}}
}

// Close releases the KB and the browser (if the pipeline started it).
func (p *Pipeline) Close() {
	if p.prober != nil {
		p.prober.Close()
	}
	if p.planProber != nil {
		p.planProber.Close()
	}
	if p.ownBrowser && p.browser != nil {
		p.browser.Close()
	}
	if p.kbClose != nil {
		p.kbClose()
	}
}

// reference opens the reference KB once.
func (p *Pipeline) reference(ctx context.Context) (align.KB, error) {
	p.kbOnce.Do(func() {
		kb, name, closeKB, err := OpenReference(ctx, p.o.KB, filepath.Join(p.o.Dir, rundir.SPARQLCacheFile), p.log)
		p.kb, p.kbName, p.kbClose, p.kbErr = kb, name, closeKB, err
	})
	return p.kb, p.kbErr
}

// theProber starts the browser (unless shared) and a prober, once.
func (p *Pipeline) theProber(ctx context.Context) (*probe.Prober, error) {
	if p.prober != nil {
		return p.prober, nil
	}
	po := p.probeOptions()
	if p.browser == nil {
		b, err := probe.Start(ctx, po)
		if err != nil {
			return nil, err
		}
		p.browser, p.ownBrowser = b, true
	}
	pr, err := probe.NewProber(p.browser, po)
	if err != nil {
		return nil, err
	}
	p.prober = pr
	return pr, nil
}

// probeOptions are the options of the pipeline's probers.
func (p *Pipeline) probeOptions() probe.Options {
	po := p.o.Probe
	po.Logger = p.log
	if p.o.HTTPPages {
		po.HTTPCompare = newForestComparer(p.log)
	}
	return po
}

// thePlanProber returns the prober of the guided rounds: the same browser, without
// harvesting, so that a round submits exactly its plan.
func (p *Pipeline) thePlanProber(ctx context.Context) (*probe.Prober, error) {
	if p.planProber != nil {
		return p.planProber, nil
	}
	if _, err := p.theProber(ctx); err != nil { // starts the browser if needed
		return nil, err
	}
	po := p.probeOptions()
	po.Harvest = false
	pr, err := probe.NewProber(p.browser, po)
	if err != nil {
		return nil, err
	}
	p.planProber = pr
	return pr, nil
}

// Identity is the form whose run the pipeline's directory holds.
func (p *Pipeline) Identity() rundir.Identity {
	return rundir.Identity{URL: p.o.URL, Form: p.o.Probe.ForceForm}
}

// Run runs the whole pipeline into o.Dir and returns its summary: the agnostic round,
// the guided rounds while they improve the alignment, and the report. Stages already
// done with the same inputs and options are not done again.
func (p *Pipeline) Run(ctx context.Context) (*Summary, error) {
	start := time.Now()
	if err := rundir.Claim(p.o.Dir, p.Identity()); err != nil {
		return nil, err
	}
	st, err := p.roundState()
	if err != nil {
		return nil, err
	}
	if st.Completed == 0 && len(st.History) == 0 {
		if st, err = p.agnosticRound(ctx, st); err != nil {
			return nil, err
		}
	}
	if st, err = p.guidedRounds(ctx, st); err != nil {
		return nil, err
	}
	if !p.o.NoReport {
		if err := p.runStages(ctx, []stage{p.reportStage()}, p.o.Force); err != nil {
			return nil, err
		}
	}
	sum, err := p.summarize(st)
	if err != nil {
		return nil, err
	}
	if !p.o.NoReport {
		sum.Report = filepath.Join(p.o.Dir, rundir.ReportFile)
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// roundState reads the state of the rounds; with Force, it starts afresh and removes
// the plans of earlier rounds.
func (p *Pipeline) roundState() (roundState, error) {
	if !p.o.Force {
		return readRoundState(p.o.Dir)
	}
	plans, _ := filepath.Glob(filepath.Join(p.o.Dir, rundir.StateDir, "round-*.plan.json"))
	for _, f := range plans {
		if err := os.Remove(f); err != nil {
			return roundState{}, err
		}
	}
	return roundState{}, nil
}

// agnosticRound runs round 0: the agnostic probes, then extraction, schema, graph and
// alignment.
func (p *Pipeline) agnosticRound(ctx context.Context, st roundState) (roundState, error) {
	if err := p.runStages(ctx, p.roundStages(0), p.o.Force); err != nil {
		return st, err
	}
	sum, err := p.measureRound(0, nil)
	if err != nil {
		return st, err
	}
	st.History = []RoundSummary{sum}
	return st, writeRoundState(p.o.Dir, st)
}

// guidedRounds runs the ontology-guided rounds that remain, and says why they stop.
func (p *Pipeline) guidedRounds(ctx context.Context, st roundState) (roundState, error) {
	for r := st.Completed + 1; r <= p.o.Rounds && st.Stopped == ""; r++ {
		var err error
		if st, err = p.guidedRound(ctx, st, r); err != nil {
			return st, err
		}
	}
	if st.Stopped == "" && st.Completed >= p.o.Rounds && p.o.Rounds > 0 {
		st.Stopped = fmt.Sprintf("the budget of %d guided rounds is spent", p.o.Rounds)
		return st, writeRoundState(p.o.Dir, st)
	}
	return st, nil
}

// guidedRound runs round r: its plan, its probes, then extraction, schema, graph and
// alignment; it stops the rounds when r does not improve the alignment.
func (p *Pipeline) guidedRound(ctx context.Context, st roundState, r int) (roundState, error) {
	plan, err := p.guidedPlan(ctx, r)
	if err != nil {
		return st, fmt.Errorf("round %d: %w", r, err)
	}
	if len(plan.Values) == 0 {
		st.Stopped = fmt.Sprintf("round %d: %s", r, plan.Reason)
		return st, writeRoundState(p.o.Dir, st)
	}
	if err := p.runStages(ctx, p.roundStages(r), false); err != nil {
		return st, fmt.Errorf("round %d: %w", r, err)
	}
	sum, err := p.measureRound(r, plan)
	if err != nil {
		return st, err
	}
	prev := st.History[len(st.History)-1]
	st.History = append(st.History, sum)
	st.Completed = r
	if !sum.improves(prev) {
		st.Stopped = fmt.Sprintf("round %d did not improve the alignment (confidence %.3f → %.3f, tentative %.3f → %.3f, links %d → %d)",
			r, prev.Confidence, sum.Confidence, prev.Tentative, sum.Tentative, prev.Links, sum.Links)
	}
	if err := writeRoundState(p.o.Dir, st); err != nil {
		return st, err
	}
	p.log.Info("guided round done", "round", r, "records", sum.Records, "links", sum.Links, "confidence", sum.Confidence)
	return st, nil
}

// runStages runs stages in the run directory (stages.go), telling o.Progress, and
// drops the in-memory values of the stages found already done.
func (p *Pipeline) runStages(ctx context.Context, stages []stage, force bool) error {
	outputs := map[string][]string{}
	for i, s := range stages {
		outputs[s.name] = s.outputs
		run := s.run
		stages[i].run = func(ctx context.Context) error {
			p.meter.begin(s.name)
			defer p.meter.end()
			return run(ctx)
		}
	}
	return runStages(ctx, p.o.Dir, stages, force, p.log, func(ev Event) {
		if ev.Skipped {
			p.st.forget(outputs[ev.Stage])
		}
		if p.o.Progress != nil {
			p.o.Progress(ev)
		}
	})
}

// roundStages are the stages of round r: the agnostic probe for r = 0, the guided
// probes of round r otherwise, then extraction, schema, graph and alignment.
func (p *Pipeline) roundStages(r int) []stage {
	suffix := ""
	first := p.probeStage()
	if r > 0 {
		suffix = fmt.Sprintf("-%d", r)
		first = p.guideStage(r)
	}
	ss := []stage{first, p.extractStage(), p.schemaStage(r), p.graphStage(), p.alignStage()}
	for i := 1; i < len(ss); i++ {
		ss[i].name += suffix
	}
	return ss
}

// RunStage runs one stage of round 0 alone ("extract", "schema", "graph" or "align"), as the one-stage commands do: always, whatever its marker says, and
// writes its marker, so that a later 'trawl run' with other options redoes it.
func (p *Pipeline) RunStage(ctx context.Context, name string) error {
	var s stage
	switch name {
	case "extract":
		s = p.extractStage()
	case "schema":
		s = p.schemaStage(0)
	case "graph":
		s = p.graphStage()
	case "align":
		s = p.alignStage()
	default:
		return fmt.Errorf("pipeline: no stage %q", name)
	}
	if st, err := os.Stat(p.o.Dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%w: %s (want the directory 'trawl run' or 'trawl probe' wrote)", ErrNotRunDir, p.o.Dir)
	}
	return p.runStages(ctx, []stage{s}, true)
}
