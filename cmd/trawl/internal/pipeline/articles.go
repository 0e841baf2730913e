package pipeline

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// ExtractSaved isolates the records of saved pages (files; their URLs are under
// baseURL, their query is query) and writes the wrapper to wrapper unless it is "".
func ExtractSaved(ctx context.Context, saved []string, baseURL, query, wrapper string, opts records.Options) (*Extraction, error) {
	pages, skipped := SavedPages(saved, baseURL, query)
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
	if wrapper != "" {
		if err := rundir.WriteJSON(wrapper, w); err != nil {
			return nil, err
		}
	}
	opts.Logger.Info("records extracted", "records", len(recs), "pages", len(pages), "xpath", w.XPath, "elapsed", w.Elapsed)
	return &Extraction{Wrapper: w, Records: recs, Pages: len(pages), Skipped: skipped}, nil
}

// ArticlePages reads the pages of 'trawl extract --mode article': those of the run
// directory runDir, or else the saved files (URLs under baseURL, query query); when
// feed is not "", its items are matched to the pages to give their signifiers.
// Pages that cannot be read are returned as skipped, with the reason.
func ArticlePages(ctx context.Context, runDir string, saved []string, baseURL, query, feed string, ignoreRobots bool, log *slog.Logger) ([]records.ArticlePage, []string, error) {
	var (
		pages   []records.Page
		skipped []string
		err     error
	)
	if runDir != "" {
		po := DefaultOptions()
		po.Dir = runDir
		if pages, skipped, err = New(po, log).Pages(); err != nil {
			return nil, nil, fmt.Errorf("trawl extract: %w", err)
		}
	} else {
		pages, skipped = SavedPages(saved, baseURL, query)
	}
	aps := make([]records.ArticlePage, len(pages))
	for i, p := range pages {
		aps[i] = records.ArticlePage{Name: p.Name, URL: p.URL, HTML: p.HTML}
	}
	if feed != "" {
		fo := probe.DefaultFetchOptions()
		fo.IgnoreRobots, fo.Logger = ignoreRobots, log
		items, _, _, err := LoadFeed(ctx, feed, fo, false)
		if err != nil {
			return nil, nil, err
		}
		if n := records.MatchFeed(aps, items); n < len(aps) {
			log.Warn("pages without a feed item: their signifiers come from the page", "feed", feed, "matched", n, "pages", len(aps))
		}
	}
	return aps, skipped, nil
}

// ExtractArticles isolates the article of each page and returns them with the
// reasons of the pages that gave none.
func ExtractArticles(ctx context.Context, pages []records.ArticlePage, ao records.ArticleOptions) ([]records.Article, []string, error) {
	arts, err := records.ExtractArticles(ctx, pages, ao)
	if err != nil {
		return nil, nil, err
	}
	var missed []string
	for _, a := range arts {
		if a.Error != "" {
			missed = append(missed, a.Error)
		}
	}
	return arts, missed, nil
}

// ArticleSignifiers is the article mode's signifier source named by --signifiers,
// whose auto and tfidf are spelled as in the records mode.
func ArticleSignifiers(s string) records.ArticleSignifiers {
	switch records.SignifierSource(s) {
	case records.SignifiersAuto:
		return records.ArticleSignifiersAuto
	case records.SignifiersTFIDF:
		return records.ArticleSignifiersTFIDF
	default:
		return records.ArticleSignifiers(s)
	}
}
