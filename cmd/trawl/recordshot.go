package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// errNoRecords marks a run without any record to outline: the caller logs it as a
// warning, a run without records is not a failed run.
var errNoRecords = errors.New("no record to outline")

// severalRecords is the number of records from which a page shows the record list well;
// a records screenshot prefers the first page (in probe order) that has that many.
const severalRecords = 3

// shotAttempts bounds the pages tried for a records screenshot when the best page cannot
// be rendered (its saved file is gone, no record has a box).
const shotAttempts = 3

// recordsPage is a result page with records, as a records screenshot shows it.
type recordsPage struct {
	File  string // relative to the run directory, e.g. pages/0001-1.html
	URL   string // "" when no probe lists the page
	Probe int    // the probe's number; 0 when no probe lists the page
	// Records holds each record's XPath followed by its Extra XPaths, in records.jsonl
	// order.
	Records [][]string
}

// recordsPages groups the records by page and orders the pages for a screenshot: first
// the pages with at least severalRecords records, in probe order (pages of one probe in
// their order, then pages no probe lists, in records.jsonl order); then the others, those
// with more records first.
func recordsPages(probes []probe.Probe, recs []records.Record) []recordsPage {
	byFile := map[string]*recordsPage{}
	var order []string
	for _, r := range recs {
		pg := byFile[r.Page]
		if pg == nil {
			pg = &recordsPage{File: r.Page}
			byFile[r.Page] = pg
			order = append(order, r.Page)
		}
		pg.Records = append(pg.Records, append([]string{r.XPath}, r.Extra...))
	}
	var out []recordsPage
	seen := map[string]bool{}
	for _, p := range probes {
		for _, ref := range p.Pages {
			if pg := byFile[ref.File]; pg != nil && !seen[ref.File] {
				seen[ref.File] = true
				pg.URL, pg.Probe = ref.URL, p.N
				out = append(out, *pg)
			}
		}
	}
	for _, f := range order {
		if !seen[f] {
			out = append(out, *byFile[f])
		}
	}
	slices.SortStableFunc(out, func(a, b recordsPage) int {
		aMany, bMany := len(a.Records) >= severalRecords, len(b.Records) >= severalRecords
		switch {
		case aMany && bMany:
			return 0
		case aMany:
			return -1
		case bMany:
			return 1
		}
		return len(b.Records) - len(a.Records)
	})
	return out
}

// writeRecordsScreenshot renders one result page of the run directory dir with its
// records outlined and writes it to screenshots/records.png, which the report shows. The
// page is the first one, in probe order, with several records (see recordsPages); it is
// rendered from its saved DOM in pages/, offline: the site gets no request. When that
// page cannot be rendered, the next ones are tried (up to shotAttempts).
//
// An earlier screenshots/records.png is removed first: it belongs to an earlier
// records.jsonl. A run without records gives an error wrapping errNoRecords, which the
// caller logs as a warning; every other error says which file or page failed and why.
func writeRecordsScreenshot(ctx context.Context, pr *probe.Prober, dir string, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	out := filepath.Join(dir, filepath.FromSlash(fileRecordsPNG))
	if err := os.Remove(out); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("records screenshot: remove the old one: %w", err)
	}
	recPath := filepath.Join(dir, records.RecordsFile)
	f, err := os.Open(recPath)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("records screenshot: %w: %s does not exist (it is written by %s)", errNoRecords, recPath, byExtract)
	}
	if err != nil {
		return fmt.Errorf("records screenshot: %w", err)
	}
	recs, err := records.ReadRecords(f, recPath)
	_ = f.Close() // read-only
	if err != nil {
		return fmt.Errorf("records screenshot: %w", err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("records screenshot: %w: %s holds no record", errNoRecords, recPath)
	}
	probes, err := probe.ReadProbes(dir)
	if err != nil {
		// The records name their pages; without the probe log the page order is that
		// of records.jsonl and the URLs are unknown.
		log.Warn("records screenshot: the probe log cannot be read; pages taken in records.jsonl order", "err", err)
	}
	pages := recordsPages(probes, recs)
	var errs []error
	for _, pg := range pages[:min(len(pages), shotAttempts)] {
		if !filepath.IsLocal(filepath.FromSlash(pg.File)) {
			errs = append(errs, fmt.Errorf("%s: the page file of %d records is not inside the run directory", pg.File, len(pg.Records)))
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(pg.File)))
		if err != nil {
			errs = append(errs, fmt.Errorf("read the saved page: %w", err))
			continue
		}
		shot, err := pr.RecordsScreenshot(ctx, string(raw), pg.Records)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("records screenshot of %s: %w", pg.File, err)
			}
			err = fmt.Errorf("%s%s: %w", pg.File, atPageURL(pg.URL), err)
			log.Warn("records screenshot: page skipped", "page", pg.File, "err", err)
			errs = append(errs, err)
			continue
		}
		if len(shot.Missing) > 0 || len(shot.Hidden) > 0 {
			log.Warn("records screenshot: some records are not outlined", "page", pg.File,
				"missing", len(shot.Missing), "hidden", len(shot.Hidden), "first", slices.Concat(shot.Missing, shot.Hidden)[0])
		}
		if err := writeFileAtomic(out, shot.PNG); err != nil {
			return fmt.Errorf("records screenshot: write %s: %w", out, err)
		}
		log.Info("records screenshot", "page", pg.File, "url", pg.URL, "probe", pg.Probe, "records", shot.Records,
			"outlined", shot.Outlined, "width", shot.Width, "height", shot.Height, "file", out)
		return nil
	}
	return fmt.Errorf("records screenshot: no page of %s could be rendered: %w", dir, errors.Join(errs...))
}

// atPageURL formats a page URL for a message: " (URL)", or "" when unknown.
func atPageURL(u string) string {
	if u == "" {
		return ""
	}
	return " (" + u + ")"
}
