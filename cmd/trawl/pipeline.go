package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// The whole pipeline of one source (design.md): probe → records → schema → graph →
// align (graph vs KB) → understanding and enrichment → ontology-guided probing rounds →
// report. Every stage reads the files of the stages before it in the run directory and
// writes its own (stages.go), so a killed run resumes where it stopped.

// pipelineOptions configure one run of the pipeline on one source.
type pipelineOptions struct {
	// URL is the page with the search form.
	URL string `json:"url"`
	// Dir is the run directory (<out>/<source>).
	Dir string `json:"-"`
	// KB is the reference KB: a directory written by 'trawl kb load', an N-Triples file,
	// or "" for the embedded demo KB.
	KB string `json:"kb"`

	Probe     probe.Options     `json:"-"`
	Plan      probe.PlanOptions `json:"-"`
	NoHarvest bool              `json:"no_harvest"`
	// Resubmit lets the schema stage re-submit the form to map text fields (thesis
	// §3.4); without it only the probe log and the options are used.
	Resubmit bool                 `json:"resubmit"`
	Schema   schema.Options       `json:"-"`
	Graph    graph.LabeledOptions `json:"-"`
	Align    align.Options        `json:"-"`
	Enrich   align.EnrichOptions  `json:"-"`

	// Rounds is the most ontology-guided probing rounds after the agnostic one;
	// GuidedValues the KB values tried per mapped text field and round.
	Rounds       int `json:"rounds"`
	GuidedValues int `json:"guided_values"`
	// Force redoes every stage, even those already done with the same inputs.
	Force bool `json:"-"`
	// NoReport skips report.html.
	NoReport bool `json:"no_report"`

	// Browser, when set, is shared with other pipelines (trawl batch); otherwise the
	// pipeline starts Chromium itself, only if a stage needs it.
	Browser *probe.Browser `json:"-"`
	// Progress, when set, is told about every stage.
	Progress func(stageEvent) `json:"-"`
}

// defaultPipelineOptions are the options of 'trawl run' without flags.
func defaultPipelineOptions() pipelineOptions {
	o := pipelineOptions{
		Probe:        probe.DefaultOptions(),
		Plan:         probe.DefaultPlanOptions(),
		Resubmit:     true,
		Schema:       schema.DefaultOptions(),
		Graph:        graph.DefaultLabeledOptions(),
		Align:        align.DefaultOptions(),
		Enrich:       align.DefaultEnrichOptions(),
		Rounds:       2,
		GuidedValues: 6,
	}
	o.Probe.Screenshots = true
	o.Probe.Harvest = true
	return o
}

// pipelineSummary is what a run did, for the terminal, --json and trawl batch.
type pipelineSummary struct {
	URL       string         `json:"url"`
	Dir       string         `json:"dir"`
	Probes    int            `json:"probes"`
	Pages     int            `json:"pages"`
	Records   int            `json:"records"`
	Features  int            `json:"features"`
	Mapped    []string       `json:"mapped_fields"`
	Class     string         `json:"class,omitempty"`
	Relations []string       `json:"aligned_relations"`
	Links     int            `json:"links"`
	NewFacts  int            `json:"new_facts"`
	Rounds    []roundSummary `json:"rounds"`
	Report    string         `json:"report,omitempty"`
	Seconds   float64        `json:"seconds"`
}

// pipeline holds what the stages of one run share: the options, the KB and the browser,
// both opened only when a stage needs them.
type pipeline struct {
	o   pipelineOptions
	log *slog.Logger

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

func newPipeline(o pipelineOptions, log *slog.Logger) *pipeline {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.Plan.Seed == 0 {
		// The same source gets the same nonsense word on every run, so that a resumed or
		// repeated run makes the same probes.
		o.Plan.Seed = xxhash.Sum64String(o.URL) | 1
	}
	return &pipeline{o: o, log: log, browser: o.Browser}
}

// close releases the KB and the browser (if the pipeline started it).
func (p *pipeline) close() {
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
func (p *pipeline) reference(ctx context.Context) (align.KB, error) {
	p.kbOnce.Do(func() {
		if p.o.KB == "" {
			opts := ontology.DefaultOptions()
			opts.Logger = p.log
			st, err := ontology.OpenDemo(ctx, opts)
			if err != nil {
				p.kbErr = fmt.Errorf("open the demo KB: %w", err)
				return
			}
			p.kb, p.kbName, p.kbClose = st, "demo KB (embedded)", func() { _ = st.Close() }
			return
		}
		kb, _, closeKB, err := loadKB(ctx, globalOptions{Quiet: true}, p.o.KB, "KB")
		if err != nil {
			p.kbErr = err
			return
		}
		p.kb, p.kbName, p.kbClose = kb, p.o.KB, closeKB
	})
	return p.kb, p.kbErr
}

// theProber starts the browser (unless shared) and a prober, once.
func (p *pipeline) theProber(ctx context.Context) (*probe.Prober, error) {
	if p.prober != nil {
		return p.prober, nil
	}
	po := p.o.Probe
	po.Logger = p.log
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

// thePlanProber returns the prober of the guided rounds: the same browser, without
// harvesting, so that a round submits exactly its plan.
func (p *pipeline) thePlanProber(ctx context.Context) (*probe.Prober, error) {
	if p.planProber != nil {
		return p.planProber, nil
	}
	if _, err := p.theProber(ctx); err != nil { // starts the browser if needed
		return nil, err
	}
	po := p.o.Probe
	po.Logger = p.log
	po.Harvest = false
	pr, err := probe.NewProber(p.browser, po)
	if err != nil {
		return nil, err
	}
	p.planProber = pr
	return pr, nil
}

// run runs the pipeline into o.Dir and returns its summary.
func (p *pipeline) run(ctx context.Context) (*pipelineSummary, error) {
	start := time.Now()
	dir := p.o.Dir
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	st, err := readRoundState(dir)
	if err != nil {
		return nil, err
	}
	if p.o.Force {
		st = roundState{}
		plans, _ := filepath.Glob(filepath.Join(dir, markerDir, "round-*.plan.json"))
		for _, f := range plans {
			if err := os.Remove(f); err != nil {
				return nil, err
			}
		}
	}
	if st.Completed == 0 && len(st.History) == 0 {
		if err := p.runStages(ctx, p.roundStages(0), p.o.Force); err != nil {
			return nil, err
		}
		sum, err := measureRound(dir, 0, nil)
		if err != nil {
			return nil, err
		}
		st.History = []roundSummary{sum}
		if err := writeRoundState(dir, st); err != nil {
			return nil, err
		}
	}
	for r := st.Completed + 1; r <= p.o.Rounds && st.Stopped == ""; r++ {
		plan, err := p.guidedPlan(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		if len(plan.Values) == 0 {
			st.Stopped = fmt.Sprintf("round %d: %s", r, plan.Reason)
			if err := writeRoundState(dir, st); err != nil {
				return nil, err
			}
			break
		}
		if err := p.runStages(ctx, p.roundStages(r), false); err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		sum, err := measureRound(dir, r, plan)
		if err != nil {
			return nil, err
		}
		prev := st.History[len(st.History)-1]
		st.History = append(st.History, sum)
		st.Completed = r
		if !sum.improves(prev) {
			st.Stopped = fmt.Sprintf("round %d did not improve the alignment (confidence %.3f → %.3f, links %d → %d)",
				r, prev.Confidence, sum.Confidence, prev.Links, sum.Links)
		}
		if err := writeRoundState(dir, st); err != nil {
			return nil, err
		}
		p.log.Info("guided round done", "round", r, "records", sum.Records, "links", sum.Links, "confidence", sum.Confidence)
	}
	if st.Stopped == "" && st.Completed >= p.o.Rounds && p.o.Rounds > 0 {
		st.Stopped = fmt.Sprintf("the budget of %d guided rounds is spent", p.o.Rounds)
		if err := writeRoundState(dir, st); err != nil {
			return nil, err
		}
	}
	if !p.o.NoReport {
		if err := p.runStages(ctx, []stage{p.reportStage()}, p.o.Force); err != nil {
			return nil, err
		}
	}
	sum, err := summarize(dir, p.o.URL, st)
	if err != nil {
		return nil, err
	}
	if !p.o.NoReport {
		sum.Report = filepath.Join(dir, "report.html")
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

func (p *pipeline) runStages(ctx context.Context, stages []stage, force bool) error {
	return runStages(ctx, p.o.Dir, stages, force, p.log, p.o.Progress)
}

// roundStages are the stages of round r: the agnostic probe for r = 0, the guided
// probes of round r otherwise, then extraction, schema, graph and alignment.
func (p *pipeline) roundStages(r int) []stage {
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

// probeStage finds the search form and probes it agnostically.
func (p *pipeline) probeStage() stage {
	settings := struct {
		URL       string
		MaxProbes int
		MaxPages  int
		PerProbe  int
		Harvest   bool
		Force     string
		Lang      string
		Seed      uint64
	}{p.o.URL, p.o.Probe.MaxProbes, p.o.Probe.MaxPages, p.o.Probe.MaxPagesPerProbe, p.o.Probe.Harvest, p.o.Probe.ForceForm, p.o.Plan.Lang, p.o.Plan.Seed}
	return stage{
		name:    "probe",
		outputs: []string{probe.FormFile, probe.ProbesFile},
		options: settings,
		run: func(ctx context.Context) error {
			pr, err := p.theProber(ctx)
			if err != nil {
				return err
			}
			ua := ""
			if p.browser != nil {
				ua = p.browser.UserAgent()
			}
			po := p.o.Probe
			po.Logger = p.log
			run, err := probeSource(ctx, pr, ua, p.o.URL, p.o.Dir, po, p.o.Plan, nil, "", p.log)
			sum := run.Summary
			switch {
			case err != nil:
				return err
			case sum.Probes > 0 && sum.Failed == sum.Probes:
				return fmt.Errorf("all %d probes failed (first: %s); see %s", sum.Probes, firstProbeError(p.o.Dir), filepath.Join(p.o.Dir, probe.ProbesFile))
			case sum.Pages == 0:
				return fmt.Errorf("the probes of %s returned no result page", p.o.URL)
			}
			return nil
		},
	}
}

// extractStage isolates the records of the result pages with FOREST.
func (p *pipeline) extractStage() stage {
	return stage{
		name:    "extract",
		inputs:  []string{probe.ProbesFile},
		outputs: []string{records.WrapperFile, records.RecordsFile},
		run: func(ctx context.Context) error {
			pages, skipped, err := runDirPages(p.o.Dir)
			if err != nil {
				return err
			}
			for _, s := range skipped {
				p.log.Warn("page skipped", "reason", s)
			}
			if len(pages) == 0 {
				return fmt.Errorf("no result page to read in %s", p.o.Dir)
			}
			ro := records.DefaultOptions()
			ro.Logger = p.log
			w, recs, err := records.Extract(ctx, pages, ro)
			if err != nil {
				return err
			}
			if err := writeRunFiles(p.o.Dir, w, recs); err != nil {
				return err
			}
			if p.o.Probe.Screenshots && len(recs) > 0 {
				// A picture of a result page with its records outlined, for the report.
				pr, err := p.theProber(ctx)
				if err == nil {
					err = writeRecordsScreenshot(ctx, pr, p.o.Dir, p.log)
				}
				if err != nil {
					p.log.Warn("no screenshot of the records", "err", err)
				}
			}
			return nil
		},
	}
}

// schemaStage builds the output schema and the input–output mapping. In a guided round
// (r > 0) the fields were mapped already: the stage re-submits nothing, keeps the
// mappings of the round before whose feature still exists, and adds those the probe
// log now shows (the guided probes are trials too).
func (p *pipeline) schemaStage(r int) stage {
	return stage{
		name:    "schema",
		inputs:  []string{records.RecordsFile, probe.FormFile, probe.ProbesFile},
		outputs: []string{"schema.json"},
		options: struct {
			Resubmit bool
			Opts     schema.Options
		}{p.o.Resubmit && r == 0, p.o.Schema},
		run: func(ctx context.Context) error {
			so := p.o.Schema
			so.Logger = p.log
			path := filepath.Join(p.o.Dir, "schema.json")
			if r > 0 {
				prev, err := schema.Load(path)
				if err != nil {
					return fmt.Errorf("round %d needs the schema of the round before: %w", r, err)
				}
				s, err := schema.Run(ctx, p.o.Dir, nil, so)
				if err != nil {
					return err
				}
				if carryMappings(s, prev) {
					return s.WriteFile(path)
				}
				return nil
			}
			var sub schema.Submitter
			if p.o.Resubmit {
				pr, err := p.theProber(ctx)
				if err != nil {
					return err
				}
				rs, err := newResubmitter(p.o.Dir, pr, p.log)
				if err != nil {
					return err
				}
				sub = rs
			}
			_, err := schema.Run(ctx, p.o.Dir, sub, so)
			return err
		},
	}
}

// carryMappings adds to s the mappings of prev whose field and feature s still has
// and that s lacks, and reports whether it added any.
func carryMappings(s, prev *schema.Schema) bool {
	have := map[[2]string]bool{}
	for _, m := range s.Mapping {
		have[[2]string{m.Field, m.Feature}] = true
	}
	added := false
	for _, m := range prev.Mapping {
		if have[[2]string{m.Field, m.Feature}] || s.Feature(m.Feature) == nil {
			continue
		}
		s.Mapping = append(s.Mapping, m)
		added = true
	}
	return added
}

// graphStage writes the labeled graph.
func (p *pipeline) graphStage() stage {
	return stage{
		name:    "graph",
		inputs:  []string{"schema.json", records.RecordsFile},
		outputs: []string{graph.GraphFile},
		options: struct{ Base, SourceID string }{p.o.Graph.Base, p.o.Graph.SourceID},
		run: func(ctx context.Context) error {
			go2 := p.o.Graph
			go2.Logger = p.log
			_, err := graph.RunLabeled(ctx, p.o.Dir, go2)
			return err
		},
	}
}

// alignStage aligns the record graph with the reference KB and writes the
// understanding and the enrichment.
func (p *pipeline) alignStage() stage {
	return stage{
		name:    "align",
		inputs:  []string{"schema.json", records.RecordsFile},
		outputs: []string{"alignment.tsv", "links.nt", "understanding.json", "enrichment.nt"},
		options: struct {
			KB     string
			Align  align.Options
			Enrich align.EnrichOptions
		}{p.o.KB, p.o.Align, p.o.Enrich},
		run: func(ctx context.Context) error {
			_, err := p.alignRun(ctx)
			return err
		},
	}
}

// alignRun is the work of the align stage.
func (p *pipeline) alignRun(ctx context.Context) (*align.Result, error) {
	kb, err := p.reference(ctx)
	if err != nil {
		return nil, err
	}
	l, s, err := p.labeled(ctx)
	if err != nil {
		return nil, err
	}
	if len(l.Records) == 0 {
		return nil, fmt.Errorf("the labeled graph of %s has no record triples: nothing to align", p.o.Dir)
	}
	kb1, err := graph.NewMemory(l.Records)
	if err != nil {
		return nil, err
	}
	ao := p.o.Align
	ao.Logger = p.log
	res, err := align.Align(ctx, kb1, kb, ao)
	if err != nil {
		return nil, err
	}
	if err := align.WriteDir(p.o.Dir, res, align.RunInfo{KB1: filepath.Join(p.o.Dir, graph.GraphFile), KB2: p.kbName}); err != nil {
		return nil, err
	}
	eo := p.o.Enrich
	eo.Logger = p.log
	eo.Source = l.NS.SourceIRI()
	eo.RecordClass = l.NS.Class().Value
	eo.LinkThreshold = ao.LinkThreshold
	eo.ConfidencePredicate = l.NS.Vocab("confidence").Value
	eo.FieldLabels = fieldLabels(s, l.NS)
	e, err := align.Enrich(ctx, kb1, kb, res, eo)
	if err != nil {
		return nil, err
	}
	return res, align.WriteEnrichmentDir(p.o.Dir, e)
}

// labeled rebuilds the labeled graph of the run directory in memory (graph.nt also
// holds the schema and provenance triples, which are not evidence for the aligner).
func (p *pipeline) labeled(ctx context.Context) (*graph.Labeled, *schema.Schema, error) {
	s, err := schema.Load(filepath.Join(p.o.Dir, "schema.json"))
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(filepath.Join(p.o.Dir, records.RecordsFile))
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = f.Close() }()
	recs, err := records.ReadRecords(f, filepath.Join(p.o.Dir, records.RecordsFile))
	if err != nil {
		return nil, nil, err
	}
	gopts := p.o.Graph
	gopts.Logger = p.log
	l, err := graph.BuildLabeled(ctx, s, recs, gopts)
	if err != nil {
		return nil, nil, err
	}
	return l, s, nil
}

// fieldLabels maps each mapped feature's predicate to the label of its form field
// (the field's name when it has no label), for naming new relations.
func fieldLabels(s *schema.Schema, ns graph.Namespace) map[string]string {
	m := map[string]string{}
	for _, mp := range s.Mapping {
		label := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(mp.FieldLabel), ":"))
		if label == "" {
			label = mp.Field
		}
		pred := ns.Predicate(mp.Feature).Value
		if _, ok := m[pred]; !ok {
			m[pred] = label
		}
	}
	return m
}

// reportStage writes report.html.
func (p *pipeline) reportStage() stage {
	return stage{
		name: "report",
		inputs: []string{probe.FormFile, probe.ProbesFile, records.RecordsFile, "schema.json", "alignment.tsv",
			"understanding.json", "enrichment.nt", roundsFile},
		outputs: []string{"report.html"},
		run: func(ctx context.Context) error {
			kb, err := p.reference(ctx)
			if err != nil {
				kb = nil // the report names KB entities by IRI then
			}
			err = writeReport(ctx, p.o.Dir, reportOptions{KB: kb, Logger: p.log})
			if errors.Is(err, errPartial) {
				p.log.Warn("the report is incomplete", "err", err)
				return nil
			}
			return err
		},
	}
}

// readJSONFile decodes a JSON file; a missing file is fs.ErrNotExist.
func readJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// summarize reads the run directory's files into a summary.
func summarize(dir, url string, st roundState) (*pipelineSummary, error) {
	sum := &pipelineSummary{URL: url, Dir: dir, Rounds: st.History, Mapped: []string{}, Relations: []string{}}
	if probes, err := probe.ReadProbes(dir); err == nil {
		sum.Probes = len(probes)
		for _, pr := range probes {
			sum.Pages += len(pr.Pages)
		}
	}
	if len(st.History) > 0 {
		last := st.History[len(st.History)-1]
		sum.Records, sum.Links = last.Records, last.Links
	}
	if s, err := schema.Load(filepath.Join(dir, "schema.json")); err == nil {
		sum.Features = len(s.Features)
		for _, m := range s.Mapping {
			sum.Mapped = append(sum.Mapped, fmt.Sprintf("%s → %s (%s)", m.Field, m.Feature, m.Relation))
		}
	}
	var u align.Understanding
	if err := readJSONFile(filepath.Join(dir, "understanding.json"), &u); err == nil {
		for _, c := range u.Classes {
			if c.Aligned != "" {
				sum.Class = fmt.Sprintf("%s ⊆ %s (%.2f)", c.Class, c.Aligned, c.Confidence)
			}
		}
		for _, r := range u.Relations {
			if r.Aligned != nil {
				sum.Relations = append(sum.Relations, fmt.Sprintf("%s ⊆ %s (%.2f, n=%.0f)", cmp.Or(graph.LocalName(r.Relation), r.Relation), r.Aligned.Relation, r.Aligned.Confidence, r.Aligned.N))
			}
		}
		if u.Enrichment != nil {
			sum.NewFacts = u.Enrichment.Facts
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return sum, nil
}
