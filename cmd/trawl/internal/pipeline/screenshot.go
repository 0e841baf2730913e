package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// errNoRecords marks a run without any record to outline: the caller logs it as a
// warning, a run without records is not a failed run.
var errNoRecords = errors.New("no record to outline")

// shotAttempts bounds the pages tried for a records screenshot when the best page cannot
// be rendered (its saved file is gone, no record has a box).
const shotAttempts = 3

// writeRecordsScreenshot renders one result page of the run directory dir with its
// records outlined and writes it to screenshots/records.png, which the report shows. The
// page is the first one, in probe order, with several records (report.RecordsPages); it
// is rendered from its saved DOM in pages/, offline: the site gets no request. When that
// page cannot be rendered, the next ones are tried (up to shotAttempts).
//
// An earlier screenshots/records.png is removed first: it belongs to earlier records. A
// run without records gives an error wrapping errNoRecords, which the caller logs as a
// warning; every other error says which file or page failed and why.
func writeRecordsScreenshot(ctx context.Context, pr *probe.Prober, dir string, probes []probe.Probe, recs []records.Record, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	out := filepath.Join(dir, filepath.FromSlash(rundir.RecordsPNG))
	if err := os.Remove(out); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("records screenshot: remove the old one: %w", err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("records screenshot: %w: %s holds no record", errNoRecords, filepath.Join(dir, rundir.RecordsFile))
	}
	pages := report.RecordsPages(probes, recs)
	var errs []error
	for _, pg := range pages[:min(len(pages), shotAttempts)] {
		raw, err := rundir.ReadPage(dir, pg.File)
		if err != nil {
			errs = append(errs, fmt.Errorf("read the saved page of %d records: %w", len(pg.Records), err))
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
		if err := rundir.WriteFile(out, shot.PNG); err != nil {
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
