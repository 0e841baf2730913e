package report

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
	"github.com/trawl-dev/trawl/internal/rundir"
)

// DefaultMaxEmbed caps the size of a page or an image embedded in the report.
const DefaultMaxEmbed = 2 << 20

// ErrIncomplete marks a report written while some run files could not be read: each
// section shows its errors, and the error returned joins them.
var ErrIncomplete = errors.New("some run files could not be read")

//go:embed report.html.tmpl
var reportFS embed.FS

var reportTemplate = template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
	"inc": func(i int) int { return i + 1 },
	"pct": func(a, b int) string {
		if b == 0 {
			return "—"
		}
		return fmt.Sprintf("%.0f %%", 100*float64(a)/float64(b))
	},
}).ParseFS(reportFS, "report.html.tmpl"))

// Options configures Write and Build.
type Options struct {
	// Out is the file to write; "" means <runDir>/report.html.
	Out string
	// MaxEmbedBytes caps the size of a saved page or a PNG embedded in the report;
	// larger ones are named, not embedded. 0 means DefaultMaxEmbed.
	MaxEmbedBytes int64
	// KB, if set, is the reference KB the run was aligned with: the report names the KB
	// entities of instance links and enrichment facts with their labels from it.
	// Without it, entities are named from their IRIs (and the report says so).
	KB align.KB
	// Logger receives diagnostics. Nil discards them.
	Logger *slog.Logger
}

// Result says what Write wrote.
type Result struct {
	// Path is the report's file; Bytes its size.
	Path  string
	Bytes int
	// Missing lists the run files that were not there (each section names the command
	// that writes them).
	Missing []string
}

// Write writes report.html for the run directory runDir (or o.Out). It reads form.json,
// probe-run.json, form.png, probes.jsonl, pages/, wrapper.json, records.jsonl,
// schema.json, graph.nt, alignment.tsv, run.json, options.json, links.nt,
// understanding.json, enrichment.nt, screenshots/records.png and the stage markers in
// .trawl/ — whichever exist. It fails when runDir is not a run directory or the report
// cannot be written. When a file is malformed, the report is still written (its
// section shows the error) and the error returned wraps ErrIncomplete and each file's
// error (file:line for JSON lines and N-Triples).
func Write(ctx context.Context, runDir string, o Options) (Result, error) {
	out := o.Out
	if out == "" {
		out = filepath.Join(runDir, rundir.ReportFile)
	}
	page, err := Build(ctx, runDir, o)
	if err != nil {
		return Result{}, err
	}
	if err := rundir.WriteFile(out, page.HTML); err != nil {
		return Result{}, fmt.Errorf("report: %w", err)
	}
	res := Result{Path: out, Bytes: len(page.HTML), Missing: page.Missing}
	o.logger().Info("report written", "file", out, "bytes", len(page.HTML), "missing", len(res.Missing), "unreadable", page.unreadable)
	if page.Unreadable != nil {
		return res, fmt.Errorf("%w: %s written, but %w", ErrIncomplete, out, page.Unreadable)
	}
	return res, nil
}

// Page is a rendered report.
type Page struct {
	// HTML is the report.
	HTML []byte
	// Missing lists the run files that were not there.
	Missing []string
	// Unreadable, when not nil, joins the errors of the run files that could not be
	// read; their sections show them too.
	Unreadable error
	unreadable int
}

// Build renders the report of runDir without writing it.
func Build(ctx context.Context, runDir string, o Options) (*Page, error) {
	if o.MaxEmbedBytes <= 0 {
		o.MaxEmbedBytes = DefaultMaxEmbed
	}
	d, err := readRun(ctx, runDir)
	if err != nil {
		return nil, err
	}
	for _, e := range d.errs {
		o.logger().Warn("run file not readable", "err", e)
	}
	v := buildView(ctx, d, o)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := reportTemplate.Execute(&buf, v); err != nil {
		return nil, fmt.Errorf("report: render: %w", err)
	}
	page := &Page{HTML: buf.Bytes(), Missing: missingList(d), unreadable: len(d.errs)}
	if len(d.errs) > 0 {
		page.Unreadable = fmt.Errorf("%d run file(s) could not be read: %w", len(d.errs), errors.Join(d.errs...))
	}
	return page, nil
}

func (o Options) logger() *slog.Logger {
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
