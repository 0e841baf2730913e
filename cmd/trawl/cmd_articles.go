package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

type articlesOptions struct {
	Feed         string // URL or file
	Format       string // json or text
	Method       string
	Signifiers   string
	TopK         int
	Max          int // items fetched at most (0 = all)
	Delay        time.Duration
	IgnoreRobots bool
	AnyOrigin    bool
}

const articlesLong = `Read an RSS 2.0 or Atom feed, fetch the page of each item and print its article as
JSON lines on stdout, one object per page:

  {"page": "http://…/2019/11/post/", "title": "…", "text": "First paragraph.\n\nSecond…",
   "xpath": "/html[1]/body[1]/…/div[2]", "method": "forest", "signifiers": "feed", …}

Each item's title and description are the signifiers of the page it links to (SIGFEED,
thesis ch. 2 §5); the pages of the feed are also compared with each other, so that the
text they share (the site's template) is left out. Pages are fetched with plain HTTP GET
as politely as 'trawl probe': robots.txt is honoured (--ignore-robots for your own
sites), requests to a host are spaced by --delay, and only the feed's own origin is
fetched unless --any-origin. --format text prints the texts alone, separated by a line
with a form feed.`

func newArticlesCommand(g *globalOptions) *cobra.Command {
	var o articlesOptions
	cmd := &cobra.Command{
		Use:   "articles FEED_URL|FILE",
		Short: "Fetch the pages of a feed and extract their articles",
		Long:  articlesLong,
		Args:  cobra.ExactArgs(1),
		Example: example(
			"trawl articles http://127.0.0.1:18086/?feed=rss2 --ignore-robots",
			"trawl articles feed.xml --format text --max 5"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Feed = args[0]
			return runArticles(cmd.Context(), *g, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	d := probe.DefaultFetchOptions()
	f.StringVar(&o.Format, "format", "json", "json (one object per page) or text")
	f.StringVar(&o.Method, "method", string(records.ArticleFOREST), "forest, or a baseline: webstemmer, contentextractor")
	f.StringVar(&o.Signifiers, "signifiers", string(records.ArticleSignifiersAuto), "auto, feed, tfidf or page")
	f.IntVar(&o.TopK, "top-k", 10, "tf-idf signifiers per page")
	f.IntVar(&o.Max, "max", 0, "fetch at most this many items (0 = all)")
	f.DurationVar(&o.Delay, "delay", d.Delay, "least time between two requests to a host")
	f.BoolVar(&o.IgnoreRobots, "ignore-robots", false, "do not read robots.txt (only for your own sites)")
	f.BoolVar(&o.AnyOrigin, "any-origin", false, "fetch item links of other origins than the feed's")
	return cmd
}

func runArticles(ctx context.Context, g globalOptions, o articlesOptions, stdout io.Writer) error {
	log := g.logger()
	if o.Format != "json" && o.Format != "text" {
		return usageError("trawl articles: --format must be json or text, got %q", o.Format)
	}
	if o.Max < 0 {
		return usageError("trawl articles: --max must be ≥ 0, got %d", o.Max)
	}
	ao := records.DefaultArticleOptions()
	ao.Method, ao.Signifiers, ao.TopK, ao.Logger = records.ArticleMethod(o.Method), records.ArticleSignifiers(o.Signifiers), o.TopK, log
	if err := ao.Validate(); err != nil {
		return usageError("trawl articles: %v", err)
	}
	fo := probe.DefaultFetchOptions()
	fo.Delay, fo.IgnoreRobots, fo.Logger = o.Delay, o.IgnoreRobots, log
	items, base, fetcher, err := pipeline.LoadFeed(ctx, o.Feed, fo, !o.AnyOrigin)
	if err != nil {
		return err
	}
	if o.Max > 0 && len(items) > o.Max {
		items = items[:o.Max]
	}
	pages, failed, err := pipeline.FetchFeedPages(ctx, o.Feed, items, base, fetcher)
	if err != nil {
		return err
	}
	for _, f := range failed {
		log.Warn("page not fetched", "reason", f)
	}
	if len(pages) == 0 {
		return fmt.Errorf("trawl articles: %s: no page could be fetched (%d failed; first: %s)", o.Feed, len(failed), firstOr(failed, "none"))
	}
	arts, missed, err := pipeline.ExtractArticles(ctx, pages, ao)
	if err != nil {
		return fmt.Errorf("trawl articles: %w", err)
	}
	failed = append(failed, missed...)
	if err := output.Articles(stdout, arts, o.Format); err != nil {
		return fmt.Errorf("trawl articles: %w", err)
	}
	if len(failed) > 0 {
		return fmt.Errorf("trawl articles: %w: %d of %d item(s) failed, first: %s", errPartial, len(failed), len(items), failed[0])
	}
	return nil
}

func firstOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[0]
}
