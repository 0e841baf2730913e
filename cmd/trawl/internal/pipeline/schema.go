package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// schemaStage builds the output schema and the input–output mapping. In a guided round
// (r > 0) the fields were mapped already: the stage re-submits nothing, keeps the
// mappings of the round before whose feature still exists, and adds those the probe
// log now shows (the guided probes are trials too).
func (p *Pipeline) schemaStage(r int) stage {
	return stage{
		name:    "schema",
		inputs:  []string{rundir.RecordsFile, rundir.FormFile, rundir.ProbesFile},
		outputs: []string{rundir.SchemaFile},
		options: struct {
			Resubmit bool
			Opts     schema.Options
		}{p.o.Resubmit && r == 0, p.o.Schema},
		run: func(ctx context.Context) error {
			_, err := p.buildSchema(ctx, r)
			return err
		},
	}
}

// Schema runs the schema stage alone ('trawl schema RUN_DIR') and returns the schema.
func (p *Pipeline) Schema(ctx context.Context) (*schema.Schema, error) {
	if err := p.RunStage(ctx, "schema"); err != nil {
		return nil, err
	}
	return p.st.Schema()
}

// buildSchema is the work of the schema stage of round r.
func (p *Pipeline) buildSchema(ctx context.Context, r int) (*schema.Schema, error) {
	so := p.o.Schema
	so.Logger = p.log
	var prev *schema.Schema
	if r > 0 {
		var err error
		if prev, err = p.st.Schema(); err != nil {
			return nil, fmt.Errorf("round %d needs the schema of the round before: %w", r, err)
		}
	}
	recs, in, err := p.schemaInput()
	if err != nil {
		return nil, err
	}
	if r == 0 && p.o.Resubmit {
		if in.Submitter, err = p.resubmitter(ctx); err != nil {
			return nil, err
		}
	}
	s, err := schema.Build(ctx, recs, in, so)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.o.Dir, err)
	}
	if prev != nil {
		carryMappings(s, prev)
	}
	if err := s.WriteFile(filepath.Join(p.o.Dir, rundir.SchemaFile)); err != nil {
		return nil, fmt.Errorf("write schema: %w", err)
	}
	p.st.schema, p.st.labeled = s, nil
	return s, nil
}

// schemaInput gathers what schema.Build reads: the records, the form and the probe log
// (form.json and probes.jsonl may be missing), and the saved pages.
func (p *Pipeline) schemaInput() ([]records.Record, schema.Input, error) {
	dir := p.o.Dir
	in := schema.Input{Page: func(name string) ([]byte, error) { return rundir.ReadPage(dir, name) }}
	recs, err := p.st.Records()
	if err != nil {
		return nil, in, fmt.Errorf("read records: %w", err)
	}
	if f, err := p.st.Form(); err == nil {
		in.Form = &f
	} else if errors.Is(err, fs.ErrNotExist) {
		p.log.Warn("no form.json: the schema has no source form and no input–output mapping", "dir", dir)
	} else {
		return nil, in, fmt.Errorf("read form: %w", err)
	}
	if in.Probes, err = p.st.Probes(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, in, err
	}
	return recs, in, nil
}

// carryMappings adds to s the mappings of prev whose field and feature s still has
// and that s lacks.
func carryMappings(s, prev *schema.Schema) {
	have := map[[2]string]bool{}
	for _, m := range s.Mapping {
		have[[2]string{m.Field, m.Feature}] = true
	}
	for _, m := range prev.Mapping {
		if !have[[2]string{m.Field, m.Feature}] && s.Feature(m.Feature) != nil {
			s.Mapping = append(s.Mapping, m)
		}
	}
}

// resubmitter starts the prober and returns the schema.Submitter of the run directory.
func (p *Pipeline) resubmitter(ctx context.Context) (*resubmitter, error) {
	pr, err := p.theProber(ctx)
	if err != nil {
		return nil, err
	}
	form, err := p.st.Form()
	if err != nil {
		return nil, fmt.Errorf("re-submission needs the form: %w", err)
	}
	return newResubmitter(p, pr, form)
}

// pageSubmitter is what re-submission needs from the prober (*probe.Prober).
type pageSubmitter interface {
	Submit(ctx context.Context, f probe.Form, values map[string]string) ([]probe.Page, error)
}

// resubmitter is the schema.Submitter of a run directory: the prober submits the run's
// form with the values, and the wrapper FOREST learnt on the run (wrapper.json) is
// applied to the first result page, so that its records have the leaf paths of
// records.jsonl whatever their number (one record is enough) and each re-submission
// costs one page, not the whole run. Without wrapper.json (a run directory made by
// hand, or one written before wrappers could be applied), the records are isolated
// with FOREST over the run's pages and the new one.
type resubmitter struct {
	sub   pageSubmitter
	form  probe.Form
	apply *records.Applier // nil: isolate with Extract over pages
	pages []records.Page
	opts  records.Options
	log   *slog.Logger
	n     int
	// guard stops re-submitting what keeps failing the same way.
	guard failureGuard
	meter *meter
}

func newResubmitter(p *Pipeline, sub pageSubmitter, form probe.Form) (*resubmitter, error) {
	ro := p.o.Records
	ro.Logger = p.log
	r := &resubmitter{sub: sub, form: form, opts: ro, log: p.log, meter: &p.meter}
	p.meter.counts("re-submissions", p.o.Schema.MaxSubmissions)
	w, err := p.st.Wrapper()
	if err == nil {
		ao := records.DefaultApplyOptions()
		ao.Logger = p.log
		r.apply, err = records.NewApplier(w, ao)
	}
	switch {
	case err == nil:
		return r, nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, records.ErrStaleWrapper):
		p.log.Warn("re-submissions are isolated with FOREST over the whole run", "reason", err)
	default:
		return nil, fmt.Errorf("re-submission needs the run's wrapper: %w", err)
	}
	pages, skipped, err := p.Pages()
	if err != nil {
		return nil, err
	}
	for _, sk := range skipped {
		p.log.Warn("page skipped", "reason", sk)
	}
	r.pages = pages
	return r, nil
}

// Submit implements schema.Submitter.
func (r *resubmitter) Submit(ctx context.Context, values map[string]string) ([]records.Record, error) {
	field, err := r.guard.admit(values)
	if err != nil {
		return nil, err
	}
	pages, err := r.sub.Submit(ctx, r.form, values)
	if ctx.Err() == nil {
		if stop := r.guard.record(field, err); stop != "" {
			r.log.Warn("re-submissions stopped", "reason", stop)
		}
		if r.meter != nil {
			r.meter.add(err != nil)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(pages) == 0 || pages[0].HTML == "" {
		return nil, nil
	}
	r.n++
	var terms []string
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			terms = append(terms, v)
		}
	}
	slices.Sort(terms)
	pg := records.Page{Name: fmt.Sprintf("resubmission-%d", r.n), URL: pages[0].URL, HTML: []byte(pages[0].HTML), Terms: terms, Kind: probe.KindMapping}
	if r.apply != nil {
		recs, pc, err := r.apply.Apply(ctx, pg)
		if err != nil {
			return nil, fmt.Errorf("isolate the records of the re-submission: %w", err)
		}
		r.log.Debug("re-submission", "page", pg.Name, "url", pg.URL, "class", pc.Class, "records", len(recs), "reason", pc.Reason)
		return recs, nil
	}
	_, recs, err := records.Extract(ctx, append(slices.Clone(r.pages), pg), r.opts)
	if err != nil {
		return nil, fmt.Errorf("isolate the records of the re-submission: %w", err)
	}
	var out []records.Record
	for _, rec := range recs {
		if rec.Page == pg.Name {
			out = append(out, rec)
		}
	}
	return out, nil
}
