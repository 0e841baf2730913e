package main

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"path/filepath"
	"slices"

	"github.com/trawl-dev/trawl/align"
)

// report.html is what a knowledge engineer reads of a run: one self-contained HTML file
// (inline CSS, images as data: URIs, no script, no request to anything) that goes top
// to bottom through the source, the form, the probes, a result page with its records
// outlined, the output schema, the input–output mapping, the alignment and what the
// enrichment would add. Each section says which of its files are missing and which
// command writes them, so a report of a run that stopped early is still useful.

// reportFile is the report's name in a run directory.
const reportFile = "report.html"

// defaultMaxEmbed caps the size of a page or an image embedded in the report.
const defaultMaxEmbed = 2 << 20

//go:embed report/report.html.tmpl
var reportFS embed.FS

var reportTemplate = template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
	"inc": func(i int) int { return i + 1 },
	"pct": func(a, b int) string {
		if b == 0 {
			return "—"
		}
		return fmt.Sprintf("%.0f %%", 100*float64(a)/float64(b))
	},
}).ParseFS(reportFS, "report/report.html.tmpl"))

// reportOptions configures writeReport.
type reportOptions struct {
	// Out is the file to write; "" means <runDir>/report.html.
	Out string
	// MaxEmbedBytes caps the size of a saved page or a PNG embedded in the report;
	// larger ones are named, not embedded. 0 means the default, 2 MB.
	MaxEmbedBytes int64
	// KB, if set, is the reference KB the run was aligned with: the report names the KB
	// entities of instance links and enrichment facts with their labels from it.
	// Without it, entities are named from their IRIs (and the report says so).
	KB align.KB
	// Logger receives diagnostics. Nil discards them.
	Logger *slog.Logger
}

// reportResult says what writeReport wrote.
type reportResult struct {
	// Path is the report's file; Bytes its size.
	Path  string
	Bytes int
	// Missing lists the run files that were not there (each section names the command
	// that writes them).
	Missing []string
}

// writeReport writes report.html for the run directory runDir (or o.Out). It reads
// form.json, probe-run.json, form.png, probes.jsonl, pages/, wrapper.json,
// records.jsonl, schema.json, graph.nt, alignment.tsv, run.json, options.json,
// links.nt, understanding.json, enrichment.nt, screenshots/records.png and the stage
// markers in .trawl/ — whichever exist. It fails when runDir is not a run directory or
// the report cannot be written. When a file is malformed, the report is still written
// (its section shows the error) and the error returned wraps errPartial and each
// file's error (file:line for JSON lines and N-Triples).
func writeReport(ctx context.Context, runDir string, o reportOptions) error {
	_, err := writeReportResult(ctx, runDir, o)
	return err
}

// writeReportResult is writeReport that also says what it wrote.
func writeReportResult(ctx context.Context, runDir string, o reportOptions) (reportResult, error) {
	out := o.Out
	if out == "" {
		out = filepath.Join(runDir, reportFile)
	}
	page, d, err := buildReport(ctx, runDir, o)
	if err != nil {
		return reportResult{}, err
	}
	if err := writeFileAtomic(out, page); err != nil {
		return reportResult{}, fmt.Errorf("trawl report: write %s: %w", out, err)
	}
	res := reportResult{Path: out, Bytes: len(page), Missing: missingList(d)}
	o.logger().Info("report written", "file", out, "bytes", len(page), "missing", len(res.Missing), "unreadable", len(d.errs))
	if len(d.errs) > 0 {
		return res, fmt.Errorf("%w: %s written, but %d run file(s) could not be read: %w", errPartial, out, len(d.errs), errors.Join(d.errs...))
	}
	return res, nil
}

// buildReport renders the report of runDir without writing it; it also returns what
// was read.
func buildReport(ctx context.Context, runDir string, o reportOptions) ([]byte, *runData, error) {
	if o.MaxEmbedBytes <= 0 {
		o.MaxEmbedBytes = defaultMaxEmbed
	}
	d, err := readRun(ctx, runDir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range d.errs {
		o.logger().Warn("run file not readable", "err", e)
	}
	v := buildView(ctx, d, o)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := reportTemplate.Execute(&buf, v); err != nil {
		return nil, nil, fmt.Errorf("trawl report: render: %w", err)
	}
	return buf.Bytes(), d, nil
}

func (o reportOptions) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// missingList names the missing run files.
func missingList(d *runData) []string {
	var out []string
	for name := range d.missing {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}
