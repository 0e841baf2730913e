package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
)

// ErrNotRunDir marks a directory that is not a run directory (or lacks the files a
// stage reads).
var ErrNotRunDir = errors.New("not a run directory")

// Extraction is what the extract stage found.
type Extraction struct {
	Wrapper *records.Wrapper
	Records []records.Record
	// Pages is the number of result pages read; Skipped names the pages that could not
	// be read.
	Pages   int
	Skipped []string
}

// extractStage isolates the records of the result pages with FOREST.
func (p *Pipeline) extractStage() stage {
	return stage{
		name:    "extract",
		inputs:  []string{rundir.ProbesFile},
		outputs: []string{rundir.WrapperFile, rundir.RecordsFile},
		options: extractSettings(p.o.Records),
		run: func(ctx context.Context) error {
			ex, err := p.extract(ctx)
			if err != nil {
				return err
			}
			for _, s := range ex.Skipped {
				p.log.Warn("page skipped", "reason", s)
			}
			return nil
		},
	}
}

// extractSettings are the record options that change what the stage writes; the
// defaults count as none, so that run directories of earlier versions stay done.
func extractSettings(o records.Options) any {
	d := records.DefaultOptions()
	if o.Mode == d.Mode && o.Regions == d.Regions && o.Signifiers == d.Signifiers && o.TopK == d.TopK {
		return nil
	}
	return struct {
		Mode, Regions, Signifiers string
		TopK                      int
	}{string(o.Mode), string(o.Regions), string(o.Signifiers), o.TopK}
}

// Extract runs the extract stage alone ('trawl extract RUN_DIR') and returns what it
// found.
func (p *Pipeline) Extract(ctx context.Context) (*Extraction, error) {
	if err := p.RunStage(ctx, "extract"); err != nil {
		return p.st.extraction, err
	}
	return p.st.extraction, nil
}

// extract is the work of the extract stage: FOREST over the result pages of the probe
// log, then wrapper.json and records.jsonl, and a screenshot of the records when
// screenshots are on.
func (p *Pipeline) extract(ctx context.Context) (*Extraction, error) {
	pages, skipped, err := p.Pages()
	if err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("no result page to read in %s (%d skipped)", p.o.Dir, len(skipped))
	}
	ro := p.o.Records
	ro.Logger = p.log
	w, recs, err := records.Extract(ctx, pages, ro)
	if err != nil {
		return nil, err
	}
	if err := rundir.WriteJSON(filepath.Join(p.o.Dir, rundir.WrapperFile), w); err != nil {
		return nil, err
	}
	if err := rundir.WriteJSONL(filepath.Join(p.o.Dir, rundir.RecordsFile), recs); err != nil {
		return nil, err
	}
	p.st.setRecords(w, recs)
	p.st.extraction = &Extraction{Wrapper: w, Records: recs, Pages: len(pages), Skipped: skipped}
	p.log.Info("records extracted", "records", len(recs), "pages", len(pages), "xpath", w.XPath, "elapsed", w.Elapsed)
	if p.o.Probe.Screenshots && len(recs) > 0 {
		// A picture of a result page with its records outlined, for the report.
		pr, err := p.theProber(ctx)
		if err == nil {
			probes, _ := p.st.Probes()
			err = writeRecordsScreenshot(ctx, pr, p.o.Dir, probes, recs, p.log)
		}
		if err != nil {
			p.log.Warn("no screenshot of the records", "err", err)
		}
	}
	return p.st.extraction, nil
}

// Pages reads the result pages of the run directory with their query terms and probe
// kinds, from the probe log. Pages whose file is missing, unreadable or outside the run
// directory are skipped and named.
func (p *Pipeline) Pages() ([]records.Page, []string, error) {
	dir := p.o.Dir
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("%w: %s (want the directory 'trawl probe --out' wrote)", ErrNotRunDir, dir)
	}
	probes, err := p.st.Probes()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: %s has no %s: run 'trawl probe' first", ErrNotRunDir, dir, rundir.ProbesFile)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(probes) == 0 {
		return nil, nil, fmt.Errorf("%s is empty: no probe was run", filepath.Join(dir, rundir.ProbesFile))
	}
	var pages []records.Page
	var skipped []string
	for _, pr := range probes {
		for _, ref := range pr.Pages {
			b, err := rundir.ReadPage(dir, ref.File)
			if err != nil {
				skipped = append(skipped, fmt.Sprintf("%s: probe %d: %v", filepath.Join(dir, rundir.ProbesFile), pr.N, err))
				continue
			}
			pages = append(pages, records.Page{Name: ref.File, URL: ref.URL, HTML: b, Terms: pr.Terms, Kind: pr.Kind})
		}
	}
	return pages, skipped, nil
}
