package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

type extractOptions struct {
	RunDir     string   // a probe run directory
	Pages      []string // saved pages (with --pages)
	Query      string   // query terms of the saved pages
	BaseURL    string   // address of the saved pages, to make link URLs absolute
	Mode       string
	Regions    string
	Signifiers string
	TopK       int
	Wrapper    string // where to write wrapper.json in --pages mode ("" = nowhere)
	JSON       bool   // print a JSON summary on stderr at the end
	// Article mode only.
	Format       string // json or text
	Feed         string // feed URL or file whose items are the pages' signifiers
	Method       string // forest, webstemmer, contentextractor
	IgnoreRobots bool   // for a feed URL
}

const extractLong = `Isolate the response records of result pages with FOREST and print them as JSON
lines on stdout, one object per record:

  {"page": "pages/0003-1.html", "xpath": "/html[1]/body[1]/…/li[3]",
   "leaves": [{"path": "li/h3", "text": "Bleak House", "href": "https://…"}]}

With RUN_DIR (a directory written by 'trawl probe'), the pages of probes.jsonl are read
with the terms each was queried with; the nonsense-word probe teaches what an error page
looks like; wrapper.json (page classes, the record XPath, the FOREST ranking) and
records.jsonl are written into RUN_DIR.

With --pages, the files given are pages of one template (or a single page whose
records repeat within it), optionally queried with --query; nothing is probed. Saved
pages may be gzip-compressed (.gz); their charset is detected.

Signifiers are the query terms when they are strong on a page, otherwise the top-k
tf-idf terms of each page over the pages given (--signifiers). --regions all keeps
every data region of a page instead of the one result list.

--mode article finds the article of each page and prints one JSON object per page:
{"page", "title", "text" (paragraphs separated by a blank line), "xpath" (the main
block), "method", "signifiers", "terms", "cluster"}; --format text prints the texts
alone. A single page takes its signifiers from its title, meta descriptions and h1;
several pages of one site are clustered by layout and take tf-idf signifiers, and the
text their pages share (the template) is left out. --feed FEED_URL|FILE gives each page
the title and description of the RSS or Atom item that links to it (matched by --url,
or by the page's canonical URL) as signifiers (SIGFEED). --method webstemmer or
contentextractor runs a baseline of the thesis instead (several pages of a site).`

func newExtractCommand(g *globalOptions) *cobra.Command {
	var o extractOptions
	var pages bool
	cmd := &cobra.Command{
		Use:   "extract RUN_DIR | --pages FILE... [--query TERMS]",
		Short: "Isolate the result records of probed pages with FOREST",
		Long:  extractLong,
		Example: example(
			"trawl extract runs/calibre",
			"trawl extract --pages results-1.html results-2.html --query dickens",
			"trawl extract --pages listing.html.gz --regions all > records.jsonl",
			"trawl extract --mode article --pages story.html --format text",
			"trawl extract --mode article --feed feed.xml --pages post-*.html"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pages {
				if len(args) == 0 {
					return usageError("trawl extract --pages: give at least one page file")
				}
				o.Pages = args
			} else {
				if len(args) != 1 {
					return usageError("trawl extract: give one RUN_DIR, or --pages FILE... (see 'trawl extract --help')")
				}
				if o.Query != "" || o.BaseURL != "" || o.Wrapper != "" || o.Feed != "" {
					return usageError("trawl extract: --query, --url, --wrapper and --feed go with --pages")
				}
				o.RunDir = args[0]
			}
			return runExtract(cmd.Context(), *g, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&pages, "pages", false, "the arguments are saved page files, not a run directory")
	f.StringVar(&o.Query, "query", "", "query terms the --pages were obtained with (the signifiers)")
	f.StringVar(&o.BaseURL, "url", "", "address of the --pages, to make link and image URLs absolute")
	f.StringVar(&o.Mode, "mode", string(records.ModeRecords), "records (result lists) or article (one main block per page)")
	f.StringVar(&o.Regions, "regions", string(records.RegionsBest), "best (the result list) or all (every data region)")
	f.StringVar(&o.Signifiers, "signifiers", string(records.SignifiersAuto), "auto, query, tfidf or union")
	f.IntVar(&o.TopK, "top-k", 10, "tf-idf signifiers per page")
	f.StringVar(&o.Wrapper, "wrapper", "", "with --pages: write wrapper.json to this file")
	f.BoolVar(&o.JSON, "json", false, "print a JSON summary (page classes, record XPath) on stderr")
	f.StringVar(&o.Format, "format", "json", "article mode: json (one object per page) or text")
	f.StringVar(&o.Feed, "feed", "", "article mode: RSS or Atom feed (URL or file) whose items are the pages' signifiers")
	f.StringVar(&o.Method, "method", string(records.ArticleFOREST), "article mode: forest, or a baseline: webstemmer, contentextractor")
	f.BoolVar(&o.IgnoreRobots, "ignore-robots", false, "article mode: do not read robots.txt when fetching --feed (your own sites only)")
	return cmd
}

// extractSummary is the --json summary.
type extractSummary struct {
	XPath   string              `json:"xpath"`
	Records int                 `json:"records"`
	Pages   []records.PageClass `json:"pages"`
	Skipped []string            `json:"skipped,omitempty"`
}

func runExtract(ctx context.Context, g globalOptions, o extractOptions, stdout io.Writer) error {
	if o.Mode == string(records.ModeArticle) {
		return runExtractArticles(ctx, g, o, stdout)
	}
	if o.Feed != "" || (o.Format != "" && o.Format != "json") || (o.Method != "" && o.Method != string(records.ArticleFOREST)) {
		return usageError("trawl extract: --feed, --format and --method go with --mode article")
	}
	opts := records.DefaultOptions()
	opts.Mode = records.Mode(o.Mode)
	opts.Regions = records.RegionPolicy(o.Regions)
	opts.Signifiers = records.SignifierSource(o.Signifiers)
	opts.TopK = o.TopK
	opts.Logger = g.logger()
	if err := opts.Validate(); err != nil {
		return usageError("trawl extract: %v", err)
	}
	var ex *pipeline.Extraction
	var err error
	if o.RunDir != "" {
		ex, err = extractRunDir(ctx, g, o.RunDir, opts)
	} else {
		ex, err = extractSaved(ctx, o, opts)
	}
	if err != nil {
		return fmt.Errorf("trawl extract: %w", err)
	}
	skipped := ex.Skipped
	for _, pc := range ex.Wrapper.Pages {
		if pc.Class == records.ClassInvalid {
			skipped = append(skipped, pc.Page+": "+pc.Reason)
		}
	}
	if err := records.WriteRecords(stdout, ex.Records); err != nil {
		return fmt.Errorf("trawl extract: %w", err)
	}
	if o.JSON {
		sum := extractSummary{XPath: ex.Wrapper.XPath, Records: len(ex.Records), Pages: ex.Wrapper.Pages, Skipped: skipped}
		enc := json.NewEncoder(stderrOf(g))
		enc.SetEscapeHTML(false)
		if err := enc.Encode(sum); err != nil {
			return fmt.Errorf("trawl extract: %w", err)
		}
	}
	if len(skipped) > 0 {
		return fmt.Errorf("trawl extract: %w: %d page(s) skipped, first: %s", errPartial, len(skipped), skipped[0])
	}
	return nil
}

// extractRunDir is the extract stage of a run directory, as 'trawl run' runs it.
func extractRunDir(ctx context.Context, g globalOptions, dir string, opts records.Options) (*pipeline.Extraction, error) {
	po := pipeline.DefaultOptions()
	po.Dir, po.Records = dir, opts
	po.Probe.Screenshots = false
	if g.stderr == nil {
		g.stderr = os.Stderr
	}
	track, stop := pipelineProgress(&g)
	defer stop()
	p := pipeline.New(po, g.logger())
	track(p)
	defer p.Close()
	return p.Extract(ctx)
}

// extractSaved isolates the records of saved pages given on the command line.
func extractSaved(ctx context.Context, o extractOptions, opts records.Options) (*pipeline.Extraction, error) {
	pages, skipped := pipeline.SavedPages(o.Pages, o.BaseURL, o.Query)
	for _, s := range skipped {
		opts.Logger.Warn("page skipped", "reason", s)
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("no page to read (%d skipped)", len(skipped))
	}
	w, recs, err := records.Extract(ctx, pages, opts)
	if err != nil {
		return nil, err
	}
	if o.Wrapper != "" {
		if err := rundir.WriteJSON(o.Wrapper, w); err != nil {
			return nil, err
		}
	}
	opts.Logger.Info("records extracted", "records", len(recs), "pages", len(pages), "xpath", w.XPath, "elapsed", w.Elapsed)
	return &pipeline.Extraction{Wrapper: w, Records: recs, Pages: len(pages), Skipped: skipped}, nil
}

// runExtractArticles is trawl extract --mode article.
func runExtractArticles(ctx context.Context, g globalOptions, o extractOptions, stdout io.Writer) error {
	log := g.logger()
	if o.Format == "" {
		o.Format = "json"
	}
	if o.Method == "" {
		o.Method = string(records.ArticleFOREST)
	}
	if o.Format != "json" && o.Format != "text" {
		return usageError("trawl extract: --format must be json or text, got %q", o.Format)
	}
	if o.Wrapper != "" || o.JSON || o.Query != "" {
		return usageError("trawl extract: --wrapper, --json and --query go with --mode records")
	}
	ao := records.DefaultArticleOptions()
	ao.Method, ao.TopK, ao.Logger = records.ArticleMethod(o.Method), o.TopK, log
	switch records.SignifierSource(o.Signifiers) {
	case records.SignifiersAuto:
		ao.Signifiers = records.ArticleSignifiersAuto
	case records.SignifiersTFIDF:
		ao.Signifiers = records.ArticleSignifiersTFIDF
	default:
		ao.Signifiers = records.ArticleSignifiers(o.Signifiers)
	}
	if err := ao.Validate(); err != nil {
		return usageError("trawl extract: %v (article mode takes --signifiers auto, page, tfidf or feed)", err)
	}
	var (
		pages   []records.Page
		skipped []string
		err     error
	)
	if o.RunDir != "" {
		po := pipeline.DefaultOptions()
		po.Dir = o.RunDir
		if pages, skipped, err = pipeline.New(po, log).Pages(); err != nil {
			return fmt.Errorf("trawl extract: %w", err)
		}
	} else {
		pages, skipped = pipeline.SavedPages(o.Pages, o.BaseURL, o.Query)
	}
	aps := make([]records.ArticlePage, len(pages))
	for i, p := range pages {
		aps[i] = records.ArticlePage{Name: p.Name, URL: p.URL, HTML: p.HTML}
	}
	if o.Feed != "" {
		fo := probe.DefaultFetchOptions()
		fo.IgnoreRobots, fo.Logger = o.IgnoreRobots, log
		items, _, _, err := pipeline.LoadFeed(ctx, o.Feed, fo, false)
		if err != nil {
			return err
		}
		if n := records.MatchFeed(aps, items); n < len(aps) {
			log.Warn("pages without a feed item: their signifiers come from the page", "feed", o.Feed, "matched", n, "pages", len(aps))
		}
	}
	for _, s := range skipped {
		log.Warn("page skipped", "reason", s)
	}
	if len(aps) == 0 {
		return fmt.Errorf("trawl extract: no page to read (%d skipped)", len(skipped))
	}
	arts, err := records.ExtractArticles(ctx, aps, ao)
	if err != nil {
		return fmt.Errorf("trawl extract: %w", err)
	}
	for _, a := range arts {
		if a.Error != "" {
			skipped = append(skipped, a.Error)
		}
	}
	if err := writeArticles(stdout, arts, o.Format); err != nil {
		return fmt.Errorf("trawl extract: %w", err)
	}
	if len(skipped) > 0 {
		return fmt.Errorf("trawl extract: %w: %d page(s) without an article, first: %s", errPartial, len(skipped), skipped[0])
	}
	return nil
}

// stderrOf returns where the command's diagnostics go.
func stderrOf(g globalOptions) io.Writer {
	if g.stderr != nil {
		return g.stderr
	}
	return os.Stderr
}
